"""Reading AG-UI events from every source the intake accepts, and where it says bad input is."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from ag_ui.core import (
    EventType,
    ReasoningMessageContentEvent,
    RunFinishedEvent,
    RunStartedEvent,
    TextMessageChunkEvent,
    TextMessageContentEvent,
    TextMessageStartEvent,
)

from agui_notebook.agui._intake import (
    EventParseError,
    aiter_event_records,
    aiter_wire_events,
    aparse_events,
    iter_event_records,
    iter_wire_events,
    parse_events,
    to_wire_event,
    wire_event_list,
)

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "agui"

RUN_STARTED = {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}
TEXT_START = {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}
TEXT_CONTENT = {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi"}
TEXT_END = {"type": "TEXT_MESSAGE_END", "messageId": "m1"}
RUN_FINISHED = {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}
EVENTS = [RUN_STARTED, TEXT_START, TEXT_CONTENT, TEXT_END, RUN_FINISHED]
JSONL = "\n".join(json.dumps(e) for e in EVENTS) + "\n"
SSE = "".join(f"data: {json.dumps(e)}\n\n" for e in EVENTS)


def test_to_wire_event_dumps_models_with_camel_case_keys_and_no_absent_optionals() -> None:
    assert to_wire_event(TextMessageStartEvent(message_id="m1", role="assistant")) == TEXT_START
    assert to_wire_event(RunFinishedEvent(thread_id="t1", run_id="r1")) == RUN_FINISHED


def test_to_wire_event_passes_dicts_through_without_copying() -> None:
    assert to_wire_event(TEXT_CONTENT) is TEXT_CONTENT


def test_to_wire_event_turns_an_enum_type_into_a_plain_string() -> None:
    wire = to_wire_event({"type": EventType.TEXT_MESSAGE_END, "messageId": "m1"})
    assert wire == TEXT_END
    assert type(wire["type"]) is str


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(EVENTS, id="dicts"),
        pytest.param(
            [
                RunStartedEvent(thread_id="t1", run_id="r1"),
                TextMessageStartEvent(message_id="m1", role="assistant"),
                TextMessageContentEvent(message_id="m1", delta="Hi"),
                TEXT_END,
                RunFinishedEvent(thread_id="t1", run_id="r1"),
            ],
            id="models-and-dicts",
        ),
        pytest.param([json.dumps(e) for e in EVENTS], id="json-strings"),
        pytest.param(json.dumps(EVENTS), id="json-array-text"),
        pytest.param(JSONL, id="jsonl-text"),
        pytest.param(JSONL.encode(), id="jsonl-bytes"),
        pytest.param(JSONL.replace("\n", "\r\n"), id="jsonl-crlf"),
        pytest.param("\n\n" + JSONL.replace("\n", "\n\n"), id="jsonl-blank-lines"),
        pytest.param(JSONL.splitlines(), id="jsonl-lines"),
        pytest.param(SSE, id="sse-text"),
        pytest.param(SSE.encode(), id="sse-bytes"),
        pytest.param(SSE.replace("\n", "\r\n"), id="sse-crlf"),
        pytest.param(SSE.rstrip("\n"), id="sse-without-final-blank-line"),
        pytest.param(SSE.splitlines(), id="sse-lines"),
        pytest.param([f"data: {json.dumps(e)}\n\n" for e in EVENTS], id="sse-frames"),
        pytest.param(io.StringIO(JSONL), id="text-file"),
        pytest.param(io.BytesIO(SSE.encode()), id="binary-file"),
    ],
)
def test_every_source_form_reads_to_the_same_wire_events(source: Any) -> None:
    assert list(iter_wire_events(source)) == EVENTS


def test_a_single_event_reads_as_one_event() -> None:
    assert list(iter_wire_events(TEXT_CONTENT)) == [TEXT_CONTENT]
    assert list(iter_wire_events(TextMessageContentEvent(message_id="m1", delta="Hi"))) == [TEXT_CONTENT]
    assert list(iter_wire_events(json.dumps(TEXT_CONTENT, indent=2))) == [TEXT_CONTENT]


def test_sse_comments_event_fields_and_multi_line_data_are_handled() -> None:
    capture = (
        ": keep-alive\n"
        "event: message\n"
        "id: 1\n"
        'data: {"type": "TEXT_MESSAGE_CONTENT",\n'
        'data:  "messageId": "m1",\n'
        'data: "delta": "Hi"}\n'
        "retry: 100\n"
        "\n"
        ": another comment\n"
        "\n"
        'data:{"type":"TEXT_MESSAGE_END","messageId":"m1"}\n'
    )
    assert list(iter_wire_events(capture)) == [TEXT_CONTENT, TEXT_END]


def test_paths_as_str_and_pathlike_are_read(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text(JSONL)
    assert list(iter_wire_events(path)) == EVENTS
    assert list(iter_wire_events(str(path))) == EVENTS
    with path.open("rb") as handle:
        assert list(iter_wire_events(handle)) == EVENTS


def test_a_missing_path_is_a_file_not_found_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="neither an existing file"):
        list(iter_wire_events(str(tmp_path / "nope.jsonl")))


@pytest.mark.parametrize("name", ["reasoning_tool_text", "parallel_tools", "several_rounds"])
def test_a_real_capture_reads_alike_as_jsonl_and_as_sse(name: str) -> None:
    from_jsonl = list(iter_wire_events(FIXTURES / f"{name}.jsonl"))
    from_sse = list(iter_wire_events(FIXTURES / f"{name}.sse"))
    assert from_jsonl == from_sse
    assert from_jsonl[0]["type"] == "RUN_STARTED"
    assert from_jsonl[-1]["type"] == "RUN_FINISHED"
    assert from_jsonl == [
        orjson.loads(line) for line in (FIXTURES / f"{name}.jsonl").read_bytes().splitlines()
    ]


# -- errors and their locations -------------------------------------------------------------------------------


def test_a_bad_jsonl_line_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text(JSONL + '{"type": "RUN_STARTED", oops}\n')
    with pytest.raises(EventParseError) as caught:
        list(iter_wire_events(path))
    assert str(caught.value).startswith(f"{path}:6: invalid JSON (")
    assert "at column 25)" in str(caught.value)
    assert (caught.value.source, caught.value.line, caught.value.index) == (str(path), 6, 5)
    assert isinstance(caught.value, ValueError)


def test_line_numbers_count_blank_lines_but_indexes_count_events() -> None:
    text = "\n" + json.dumps(RUN_STARTED) + "\n\n[1, 2]\n"
    with pytest.raises(EventParseError, match=r"^<text>:4: expected a JSON object, got an array$") as caught:
        list(iter_wire_events(text))
    assert caught.value.index == 1


def test_an_event_without_a_type_is_an_error() -> None:
    with pytest.raises(EventParseError, match=r"^<text>:2: event has no string 'type'$"):
        list(iter_wire_events(json.dumps(RUN_STARTED) + '\n{"messageId": "m1"}\n'))


def test_a_bad_sse_data_field_names_the_line_it_starts_on() -> None:
    capture = SSE + ": comment\ndata: {not json\n\n"
    with pytest.raises(EventParseError, match=r"^<text>:12: invalid JSON \(") as caught:
        list(iter_wire_events(capture))
    assert caught.value.index == 5


def test_a_bad_item_of_an_iterable_names_its_index() -> None:
    with pytest.raises(
        EventParseError, match=r"^<events>: event 2: expected an event, JSON text or line, got int$"
    ):
        list(iter_wire_events([RUN_STARTED, TEXT_START, 42]))


def test_text_that_is_no_known_format_is_an_error() -> None:
    with pytest.raises(
        EventParseError, match=r"^<text>:1: not JSON, JSONL or SSE \(starts with 'hello wo'\)$"
    ):
        list(iter_wire_events(b"hello world\nsecond line"))


def test_lenient_records_collect_every_problem_and_keep_reading() -> None:
    text = "\n".join([json.dumps(RUN_STARTED), "{broken", '"just a string"', json.dumps(RUN_FINISHED)])
    records = list(iter_event_records(text))
    assert [(r.index, r.line, r.error is None) for r in records] == [
        (0, 1, True),
        (1, 2, False),
        (2, 3, False),
        (3, 4, True),
    ]
    assert records[2].error == "expected a JSON object, got a string"
    assert records[2].location == "<text>:3"
    assert records[3].event == RUN_FINISHED


def test_records_of_an_iterable_are_located_by_index() -> None:
    records = list(iter_event_records([RUN_STARTED, {"no": "type"}]))
    assert records[1].location == "<events>: event 1"
    assert records[1].error == "event has no string 'type'"


# -- chunk expansion and legacy upgrade -------------------------------------------------------------------------


def test_chunks_are_expanded_by_default_and_kept_when_asked() -> None:
    chunk = {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "Hi"}
    events = [RUN_STARTED, chunk, RUN_FINISHED]
    assert list(iter_wire_events(events)) == [
        RUN_STARTED,
        {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
        TEXT_CONTENT,
        TEXT_END,
        RUN_FINISHED,
    ]
    assert list(iter_wire_events(events, expand_chunks=False)) == events


def test_expanded_records_share_the_index_and_line_of_their_chunk() -> None:
    text = (
        json.dumps(RUN_STARTED)
        + "\n"
        + json.dumps({"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "Hi"})
    )
    records = list(iter_event_records(text))
    assert [(r.index, r.line, r.event["type"]) for r in records] == [
        (0, 1, "RUN_STARTED"),
        (1, 2, "TEXT_MESSAGE_START"),
        (1, 2, "TEXT_MESSAGE_CONTENT"),
    ]


def test_a_chunk_that_cannot_be_expanded_is_an_error_at_its_location() -> None:
    text = json.dumps(RUN_STARTED) + '\n{"type": "TOOL_CALL_CHUNK", "delta": "{}"}\n'
    with pytest.raises(
        EventParseError,
        match=r"^<text>:2: event 1 \(TOOL_CALL_CHUNK\): first TOOL_CALL_CHUNK must have a toolCallId$",
    ):
        list(iter_wire_events(text))
    with pytest.raises(EventParseError, match=r"^<events>: event 1 \(TOOL_CALL_CHUNK\): first"):
        list(iter_wire_events(json.loads("[" + text.strip().replace("\n", ",") + "]")))


def test_thinking_events_are_upgraded_to_reasoning_events() -> None:
    legacy = [
        {"type": "THINKING_START", "title": "plan"},
        {"type": "THINKING_TEXT_MESSAGE_START"},
        {"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "hm"},
        {"type": "THINKING_TEXT_MESSAGE_END"},
        {"type": "THINKING_END"},
    ]
    upgraded = list(iter_wire_events(legacy))
    assert [e["type"] for e in upgraded] == [
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
        "REASONING_END",
    ]
    span, message = upgraded[0]["messageId"], upgraded[1]["messageId"]
    assert span != message
    assert [e["messageId"] for e in upgraded] == [span, message, message, message, span]
    assert "title" not in upgraded[0]
    assert upgraded[2]["delta"] == "hm"
    assert list(iter_wire_events(legacy, upgrade_legacy=False)) == legacy


def test_legacy_nulls_are_dropped() -> None:
    events = [
        {
            "type": "TOOL_CALL_START",
            "toolCallId": "c1",
            "toolCallName": "f",
            "parentMessageId": None,
            "rawEvent": None,
        },
        {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1", "outcome": None, "result": None},
    ]
    assert list(iter_wire_events(events)) == [
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"},
        RUN_FINISHED,
    ]


def test_the_jsonl_fast_path_agrees_with_the_record_reader() -> None:
    lines = [
        RUN_STARTED,
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "a"},
        {"type": "TEXT_MESSAGE_CHUNK", "delta": "b"},
        {"type": "THINKING_START"},
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": None},
        RUN_FINISHED,
    ]
    blob = "\n".join(json.dumps(e) for e in lines).encode()
    assert wire_event_list(blob) == [r.event for r in iter_event_records(list(lines))]


# -- async -------------------------------------------------------------------------------------------------------


async def test_async_iterables_of_events_and_sse_lines_are_read() -> None:
    async def items(values: list[Any]) -> Any:
        for value in values:
            yield value

    assert [e async for e in aiter_wire_events(items(EVENTS))] == EVENTS
    assert [e async for e in aiter_wire_events(items(SSE.splitlines()))] == EVENTS
    assert [e async for e in aiter_wire_events(JSONL.encode())] == EVENTS
    records = [r async for r in aiter_event_records(items([RUN_STARTED, "{bad"]))]
    assert [r.error is None for r in records] == [True, False]
    with pytest.raises(EventParseError, match=r"^<events>:2: invalid JSON"):
        [e async for e in aiter_wire_events(items([json.dumps(RUN_STARTED), "{bad"]))]


# -- validated models --------------------------------------------------------------------------------------------


def test_parse_events_returns_validated_models_and_keeps_chunks() -> None:
    chunk = {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "Hi"}
    models = parse_events([RUN_STARTED, chunk, RUN_FINISHED])
    assert [type(m) for m in models] == [RunStartedEvent, TextMessageChunkEvent, RunFinishedEvent]
    assert models[1].delta == "Hi"
    assert [type(m).__name__ for m in parse_events([chunk], expand_chunks=True)] == [
        "TextMessageStartEvent",
        "TextMessageContentEvent",
    ]


def test_parse_events_rejects_an_unknown_event_type_by_index() -> None:
    with pytest.raises(
        EventParseError, match=r"^<text>:2: event 1: unknown event type 'TEXT_MESSAGE_DELTA'$"
    ):
        parse_events(json.dumps(RUN_STARTED) + '\n{"type": "TEXT_MESSAGE_DELTA", "delta": "x"}')


def test_parse_events_names_the_field_that_fails_validation() -> None:
    with pytest.raises(
        EventParseError,
        match=r"^<events>: event 1 \(TEXT_MESSAGE_CONTENT\): delta: Input should be a valid string$",
    ):
        parse_events([RUN_STARTED, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": 5}])


async def test_aparse_events_reads_async_sources() -> None:
    async def items() -> Any:
        yield RUN_STARTED
        yield ReasoningMessageContentEvent(message_id="r1", delta="hm")

    models = await aparse_events(items())
    assert [type(m).__name__ for m in models] == ["RunStartedEvent", "ReasoningMessageContentEvent"]


def test_recorder_logs_are_read_as_their_events(tmp_path) -> None:
    """What ``record``/``EventRecorder`` write (receive time + the event) reads back as the events."""
    import asyncio

    from agui_notebook.chat._recorder import record

    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "hi"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    path = tmp_path / "run.jsonl"

    async def stream():
        for event in events:
            yield event

    async def consume() -> None:
        async for _ in record(stream(), path):
            pass

    asyncio.run(consume())
    assert '"received_ns"' in path.read_text().splitlines()[0]
    expanded = [e["type"] for e in iter_wire_events(path)]
    assert expanded == [
        "RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"
    ]  # fmt: skip
    records = [orjson.loads(line) for line in path.read_bytes().splitlines()]
    assert [e["type"] for e in iter_wire_events(records, expand_chunks=False)] == [e["type"] for e in events]


def test_the_core_and_the_logs_agree_on_what_a_recorder_record_is() -> None:
    """One definition: an object with ``event`` and no ``type``; ``received_ns`` is optional."""
    from agui_notebook.logs._load import load_events

    event = {"type": "CUSTOM", "name": "n", "value": 1}
    lines = [{"event": event}, {"received_ns": 5, "event": event}, {"received_ns": True, "event": event}]
    text = b"\n".join(orjson.dumps(line) for line in lines)
    assert list(iter_wire_events(text)) == [event] * 3
    assert load_events(text)["event"].tolist() == [event] * 3
    bad = b'{"received_ns": 5, "event": "CUSTOM"}'
    with pytest.raises(EventParseError, match="recorded event is a string, not an object"):
        list(iter_wire_events(bad))
    with pytest.raises(EventParseError, match="recorded event is a string, not an object"):
        load_events(bad)


def test_core_reads_numbers_beyond_float_range_and_names_an_unfinished_last_line(tmp_path) -> None:
    """As JSON.parse: 1e400 is infinite (the logs read it so too); a log cut inside its last line says so."""
    line = b'{"type": "CUSTOM", "name": "n", "value": 1e400}'
    (event,) = iter_wire_events(line + b"\n")
    assert event["value"] == float("inf")
    path = tmp_path / "live.jsonl"
    path.write_bytes(line + b'\n{"type": "TEXT_MESS')
    with pytest.raises(EventParseError, match=r"live\.jsonl:2: .*last line and has no newline"):
        list(iter_wire_events(path))
    path.write_bytes(line + b'\n{"type": "TEXT_MESS\n')
    with pytest.raises(EventParseError) as caught:
        list(iter_wire_events(path))
    assert "newline" not in str(caught.value)
