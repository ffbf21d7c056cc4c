"""The timeline behind the inspector: the messages after any event equal a one-shot conversion of the events up
to it, from any checkpoint spacing; the state after any event equals the reference reducer's; the events of a
part are the ones that changed it."""

from __future__ import annotations

import copy
import pickle
import warnings
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agui_notebook import apply_events
from agui_notebook.bridge._assemble import UIMessageAssembler, ui_message_dicts_from_events
from agui_notebook.bridge._messages import to_agui_messages_wire, to_ui_messages
from agui_notebook.inspection import _timeline as timeline_module
from agui_notebook.inspection._source import inspected_run
from agui_notebook.inspection._timeline import EventTimeline, RunStart
from tests.support.big_runs import big_run, recorded_chat_log, turns_log

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# Recorded logs, AG-UI and AI SDK streams (read as AG-UI events). odd_values.jsonl is left out: its null delta
# fails when pushed alone but joins as "null" in a one-shot conversion's merged deltas (noted, not ours).
LOGS = sorted(
    path
    for pattern in ("agui/*.jsonl", "logs/*.jsonl", "logs/*.sse", "ui_streams/*.jsonl", "ui_streams/*.sse")
    for path in FIXTURES.glob(pattern)
    if path.name != "odd_values.jsonl"
)


@cache
def events_of(path: Path) -> list[dict]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # odd values, which the loader reports and reads as missing
        return inspected_run(path).events


@cache
def timeline_of(path: Path, every: int) -> EventTimeline:
    return EventTimeline(events_of(path), every=every)


@cache
def big() -> list[dict]:
    return big_run(3_000, seed=5)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_messages_after_an_event_are_the_conversion_of_the_events_up_to_it(data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(LOGS))
    every = data.draw(st.sampled_from((1, 2, 5, 16, 128)))
    events = events_of(path)
    n = data.draw(st.integers(-1, len(events) - 1))
    assert timeline_of(path, every).messages_after(n) == ui_message_dicts_from_events(events[: n + 1])


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 2_999), every=st.sampled_from((7, 64, 256)))
def test_a_long_run_seeks_anywhere_from_its_checkpoints(n: int, every: int) -> None:
    events = big()
    timeline = EventTimeline(events[: n + 1 + (n % 37)], every=every)
    assert timeline.messages_after(n) == ui_message_dicts_from_events(events[: n + 1])


def test_a_seek_leaves_the_checkpoints_as_they_were() -> None:
    events = events_of(FIXTURES / "logs" / "pydantic_ai_runs.jsonl")
    timeline = EventTimeline(events, every=10)
    first = timeline.messages_after(25)
    first[-1]["parts"].clear()
    assert timeline.messages_after(25) == ui_message_dicts_from_events(events[:26])
    assert timeline.messages_after(len(events) - 1) == ui_message_dicts_from_events(events)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 2_999))
def test_the_state_after_an_event_is_the_reference_reducers(n: int) -> None:
    events = big()
    at = EventTimeline(events, every=64).state_after(n)
    assert at.state == apply_events(events[: n + 1]).state
    last = max(i for i in range(n + 1) if events[i]["type"].startswith("STATE_")) if n >= 1 else None
    assert at.changed_at == last
    if last is not None:
        assert at.paths == tuple(op["path"] for op in events[last]["delta"])


def test_each_event_names_the_part_it_changed() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Looking"},
        {"type": "TEXT_MESSAGE_END", "messageId": "m"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "parentMessageId": "m"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"a": 1}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "TOOL_CALL_RESULT", "messageId": "r1", "toolCallId": "c", "content": "2", "role": "tool"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    timeline = EventTimeline(events, every=3)
    assert timeline.touched == [
        ((0, -1),),  # the run's message, put empty
        (),
        ((0, 0), (0, 1)),  # the step's start and the text part
        ((0, 1),),
        ((0, 2),),  # the tool call
        ((0, 2),),
        ((0, 2),),
        ((0, 2),),  # its result (which the assembler places only at the next event)
        (),
    ]
    assert timeline.events_of_part(0, 2) == [4, 5, 6, 7]
    assert timeline.events_of_part(0, 2, upto=5) == [4, 5]
    assert timeline.events_of_part(0, 1) == [2, 3]
    assert timeline.events_of_part(0, -1) == [0]


def test_an_event_the_assembler_cannot_take_is_kept_aside() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_START", "role": "assistant"},  # no messageId
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "still here"},
    ]
    timeline = EventTimeline(events, every=2)
    assert list(timeline.failures) == [1]
    assert "event 1 (TEXT_MESSAGE_START): messageId: Field required" in timeline.failures[1]
    fine = [events[0], *events[2:]]
    assert timeline.messages_after(3) == ui_message_dicts_from_events(fine)


def test_a_position_outside_the_run_is_refused() -> None:
    timeline = EventTimeline([{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}])
    assert timeline.messages_after(-1) == []
    with pytest.raises(IndexError, match=r"^event 1: the run has 1 events \(0 to 0\)$"):
        timeline.messages_after(1)


@cache
def short_runs(count: int) -> list[dict]:
    """``count`` short runs, each a state delta, a streamed answer and a tool call with its result."""
    events: list[dict] = []
    for run in range(count):
        ids = {"threadId": "t", "runId": f"r{run}"}
        message, call = f"m{run}", f"c{run}"
        events += [
            {"type": "RUN_STARTED", **ids},
            {"type": "STATE_DELTA", "delta": [{"op": "add", "path": f"/run{run}", "value": run}]},
            {"type": "TEXT_MESSAGE_START", "messageId": message, "role": "assistant"},
            *({"type": "TEXT_MESSAGE_CONTENT", "messageId": message, "delta": f"w{k} "} for k in range(12)),
            {"type": "TEXT_MESSAGE_END", "messageId": message},
            {"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "f", "parentMessageId": message},
            {"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": '{"n": '},
            {"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": f"{run}}}"},
            {"type": "TOOL_CALL_END", "toolCallId": call},
            {"type": "TOOL_CALL_RESULT", "messageId": f"{call}-r", "toolCallId": call, "content": "ok",
             "role": "tool"},
            {"type": "RUN_FINISHED", **ids},
        ]  # fmt: skip
    return events


def _replayed(seed: RunStart, events: list[dict]) -> list[dict]:
    """The naive way: an assembler holding the run's input, every event pushed one by one."""
    assembler = UIMessageAssembler(to_ui_messages(copy.deepcopy(seed.messages)))
    for event in events:
        assembler.push(event)
    assembler.close()
    return assembler.messages


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_run_that_starts_from_its_input_is_replayed_from_it(data: st.DataObject) -> None:
    """A chat's runs start from their run inputs (the user's turns, the state): seek(n) is the input of the
    last run begun by event n, then that run's events up to n."""
    events = short_runs(8)
    run_starts = [i for i, e in enumerate(events) if e["type"] == "RUN_STARTED"]
    chosen = data.draw(st.lists(st.sampled_from(run_starts), unique=True, max_size=6))
    starts = {
        i: RunStart([{"id": f"u{i}", "role": "user", "content": f"question {i}"}], {"asked": i})
        for i in chosen
    }
    every = data.draw(st.sampled_from((1, 3, 16, 64)))
    timeline = EventTimeline(events, every=every, starts=starts)
    n = data.draw(st.integers(-1, len(events) - 1))
    begun = max((i for i in starts if i <= n), default=None)
    if begun is None:
        assert timeline.messages_after(n) == ui_message_dicts_from_events(events[: n + 1])
        assert timeline.state_after(n).state == apply_events(events[: n + 1]).state
        return
    messages = timeline.messages_after(n)
    assert messages == _replayed(starts[begun], events[begun : n + 1])
    assert messages[0]["parts"][0]["text"] == f"question {begun}"
    at = timeline.state_after(n)
    assert at.state == apply_events(events[begun : n + 1], state={"asked": begun}).state
    changed = [i for i in range(begun, n + 1) if events[i]["type"].startswith("STATE_")]
    assert at.changed_at == (changed[-1] if changed else None)
    # A seek hands out a copy: the runs' inputs stay as they were.
    messages[0]["parts"].clear()
    assert timeline.messages_after(n)[0]["parts"][0]["text"] == f"question {begun}"


def test_a_run_that_resumes_the_same_conversation_goes_on_from_it() -> None:
    """An approval answered resumes with the conversation as it stands: its run goes on from the messages so
    far (the answer continues), it does not start again from the input."""
    events = short_runs(2)
    second = [i for i, e in enumerate(events) if e["type"] == "RUN_STARTED"][1]
    so_far = EventTimeline(events).messages_after(second - 1)
    same = RunStart(to_agui_messages_wire(so_far), {"asked": 1})
    timeline = EventTimeline(events, every=4, starts={second: same})
    for n in range(second, len(events)):
        assert timeline.messages_after(n) == ui_message_dicts_from_events(events[: n + 1])
    assert timeline.state_after(second).state == {"asked": 1}  # the state sent still counts


def test_checkpoints_store_a_message_again_only_when_it_changed() -> None:
    # 100 runs of one turn each, a checkpoint every 64 events: a message no event changed since the checkpoint
    # before is referred to, not stored again, so what the checkpoints share grows with the conversation, not
    # with the conversation times the number of checkpoints (a whole pickle each was ~50 times as much here).
    events = turns_log(6_000, runs=True)
    timeline = EventTimeline(events, every=64)
    assert len(timeline._checkpoints) > 90
    final = len(pickle.dumps(timeline.messages_after(len(events) - 1), protocol=pickle.HIGHEST_PROTOCOL))
    shared = timeline._shared.message_bytes
    assert 0 < shared < 4 * final
    for n in (0, 63, 64, 65, 3_000, len(events) - 1):
        assert timeline.messages_after(n) == ui_message_dicts_from_events(events[: n + 1])


def test_one_long_message_is_stored_in_blocks_of_parts() -> None:
    # One run of 6,000 events: one assistant message whose parts keep coming; a checkpoint stores again only the
    # blocks of parts that changed since the one before.
    events = turns_log(6_000, runs=False)
    timeline = EventTimeline(events, every=64)
    final = len(pickle.dumps(timeline.messages_after(len(events) - 1), protocol=pickle.HIGHEST_PROTOCOL))
    shared = timeline._shared.message_bytes
    assert 0 < shared < 6 * final
    for n in (1, 64, 2_999, len(events) - 1):
        assert timeline.messages_after(n) == ui_message_dicts_from_events(events[: n + 1])


def assembler_state(assembler: UIMessageAssembler) -> object:
    """What an assembler holds besides its messages (its translator's and reducers' tables), comparable."""

    def plain(value: object) -> object:
        if isinstance(value, dict):
            return {repr(k): plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        if isinstance(value, set):
            return sorted(map(repr, value))
        if type(value) is object:
            return "sentinel"
        if hasattr(value, "__slots__") and not isinstance(value, str | int):
            return type(value).__name__, {n: plain(getattr(value, n, None)) for n in value.__slots__}
        if hasattr(value, "__dict__") and not callable(value):
            return type(value).__name__, {k: plain(v) for k, v in vars(value).items() if k != "_handlers"}
        return value

    streams = {key: (stream.index, stream.reducer) for key, stream in assembler._streams.items()}
    return plain({**vars(assembler._translator), "index": assembler._index, "streams": streams})


@pytest.mark.parametrize("path", [*LOGS, "turns", "chat"], ids=lambda p: getattr(p, "name", p))
def test_big_tables_are_stored_in_blocks_and_read_back_exactly(
    path: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tables of two entries a block: every fixture's tables are shared between checkpoints, and each checkpoint
    # reads back the assembler exactly as it was (a block not stored again while its entry changed would show).
    monkeypatch.setattr(timeline_module, "TABLE_BLOCK", 2)
    events = (
        turns_log(1_500, runs=False)
        if path == "turns"
        else recorded_chat_log(1_500)
        if path == "chat"
        else events_of(path)
    )
    for every in (1, 5):
        timeline = EventTimeline(events, every=every)
        live = UIMessageAssembler()
        for index, event in enumerate(events):
            if index % every == 0 and not timeline.failures:
                number = index // every
                read = timeline._shared.thawed(number, timeline._checkpoints[number])
                assert assembler_state(read) == assembler_state(live), (every, index)
            try:
                live.push(event)
            except Exception:
                break
        for n in range(-1, len(events), max(1, len(events) // 40)):
            assert timeline.messages_after(n) == ui_message_dicts_from_events(events[: n + 1])


def test_a_checkpoint_stores_the_tables_entries_that_changed_not_the_whole_tables() -> None:
    # One long run: its tool calls and message ids fill tables that grow with the log; what each checkpoint
    # adds to the store stays about the same from a log to one four times as long (whole tables, as before: 3.7
    # times as much, 26 kB then 99 kB a checkpoint).
    per_checkpoint = []
    for size in (8_000, 32_000):
        timeline = EventTimeline(turns_log(size, runs=False), every=64)
        per_checkpoint.append(timeline.checkpoint_bytes() / len(timeline._checkpoints))
    assert per_checkpoint[1] < 1.3 * per_checkpoint[0]


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_a_lazy_reading_is_the_conversation_after_the_event(data: st.DataObject) -> None:
    # Blocks of two messages, two parts and two table entries: a lazy reading reads the messages, the blocks of
    # parts, the table entries and the streams that the replay uses; read whole afterwards, it is the conversion.
    source = data.draw(st.sampled_from([*LOGS, "single", "multi", "chat"]))
    every = data.draw(st.sampled_from((1, 3, 16, 64)))
    with pytest.MonkeyPatch.context() as patch:
        for name in ("TABLE_BLOCK", "MESSAGE_BLOCK", "PART_BLOCK"):
            patch.setattr(timeline_module, name, 2)
        events = (
            recorded_chat_log(1_200)
            if source == "chat"
            else turns_log(1_500, runs=source == "multi")
            if isinstance(source, str)
            else events_of(source)
        )
        timeline = EventTimeline(events, every=every)
    n = data.draw(st.integers(-1, len(events) - 1))
    read = timeline.conversation_after(n)
    if data.draw(st.booleans()):  # a look at one message first (the window's), then all of it
        index = data.draw(st.integers(0, max(len(read) - 1, 0)))
        assert (
            read[index : index + 1] == ui_message_dicts_from_events(events[: n + 1])[index : index + 1]
            or not read
        )
    whole = [{**message, "parts": list(message.get("parts") or [])} for message in read]
    assert whole == ui_message_dicts_from_events(events[: n + 1])
