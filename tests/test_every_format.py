"""Every reader reads every format the package writes or reads (issue 31, item 2).

Three streams: two runs recorded as a stream (reasoning, a tool call with its result, text; the second run's event
carries a field AG-UI does not define, a ``verify_events`` warning); a chat's log (two turns of
``Chat(agent, store=path)`` with a generator agent, the chat's own records among the agent's events); and the log
of a chat whose agent streamed AI SDK chunks. Every public function that takes events (``FUNCTIONS``) runs over
every format of each, and its result must equal its result on the stream's recorder records given as a list of
dicts. The async readers also read live sources (slices of SSE or of a log, items one by one).

The formats: the recorder's JSONL (its records as a list of dicts and one by one, its path, its bytes, an open
binary file, gzip-compressed, a folder holding it; for a chat, its own log and the ``Chat`` itself), the events
table written with ``to_parquet``, and the stream without receive times: a list of event dicts, a list of
``ag_ui.core`` models, bare JSONL text, an open text file of it, JSONL with CRLF and a BOM, a pretty-printed JSON
array, SSE text as an AG-UI server sends it (``ag_ui.encoder.EventEncoder``). A chat's log is a recorder log: its
bare forms are those of the first stream. Where a function documents that it does not read a format, the
documented error is asserted instead (``REFUSED``); what is not run is named with its reason (``NOT_READ``).

The recorder is given a clock that reads each event's ``timestamp`` (``record()`` is
``EventRecorder(path, keep=False).wrap(stream)`` with the wall clock): the tables time a run by its receive times
when it has them and by its timestamps otherwise, so the formats without receive times give the same times.
What legitimately differs by format is dropped before comparing, each named with its reason (``SOURCE_COLUMNS``,
``SOURCE_ATTRIBUTES``, ``LINE_COLUMNS``). ``parts_df`` is not here: it takes UIMessages, not events; nor are the
plots (figures of the same tables).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from ag_ui.core import Event, RunAgentInput
from ag_ui.encoder import EventEncoder
from pydantic import TypeAdapter

from agui_notebook import (
    Chat,
    ChunkDecodeError,
    EventLogWarning,
    EventParseError,
    InputTypeError,
    SourceFolderError,
    aapply_events,
    aparse_events,
    apply_events,
    aui_chunks_from_events,
    averify_events,
    diff_runs,
    evals,
    expect,
    fork,
    inspect_run,
    iter_ui_chunks,
    iter_wire_events,
    load_events,
    logs,
    parse_events,
    read_ui_message_stream,
    ui_chunks_from_events,
    ui_message_from_chunks,
    ui_messages_from_events,
    verify_events,
)
from agui_notebook.inspection._source import inspected_run
from agui_notebook.logs import EventRecorder

T0 = 1_765_000_000_000
"""The first event's timestamp (ms); each next event 100 ms later."""

STREAM = [
    {"type": "RUN_STARTED", "threadId": "thread-1", "runId": "r1"},
    {"type": "REASONING_START", "messageId": "think-1"},
    {"type": "REASONING_MESSAGE_START", "messageId": "think-1", "role": "reasoning"},
    {"type": "REASONING_MESSAGE_CONTENT", "messageId": "think-1", "delta": "Look it up."},
    {"type": "REASONING_MESSAGE_END", "messageId": "think-1"},
    {"type": "REASONING_END", "messageId": "think-1"},
    {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "get_weather", "parentMessageId": "m1"},
    {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"city": '},
    {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '"Paris"}'},
    {"type": "TOOL_CALL_END", "toolCallId": "c1"},
    {"type": "TOOL_CALL_RESULT", "messageId": "result-1", "toolCallId": "c1", "content": "sunny"},
    {"type": "TEXT_MESSAGE_START", "messageId": "m2", "role": "assistant"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "It is "},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "sunny."},
    {"type": "TEXT_MESSAGE_END", "messageId": "m2"},
    {"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "r1"},
    {"type": "RUN_STARTED", "threadId": "thread-1", "runId": "r2"},
    {"type": "TEXT_MESSAGE_START", "messageId": "m3", "role": "assistant"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m3", "delta": "Still sunny."},
    {"type": "TEXT_MESSAGE_END", "messageId": "m3", "note": "not an AG-UI field"},
    {"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "r2"},
]
STREAM = [{**event, "timestamp": T0 + 100 * i} for i, event in enumerate(STREAM)]

SOURCE_COLUMNS = ("source",)
"""Dropped from every table: the source's name (a path names its file, text is ``<text>``, a list ``<events>``)."""
SOURCE_ATTRIBUTES = ("agui_notebook.source",)
"""Dropped from every span, for the same reason."""
LINE_COLUMNS = ("line",)
"""Dropped for SSE: the line an event starts on in its text (SSE takes two lines an event, JSONL one)."""


def weather_agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
    """The chat's agent: a tool call with its result and an answer in the first turn, an answer in the next."""
    turn = sum(message.role == "user" for message in run_input.messages)
    thread, run = run_input.thread_id, run_input.run_id
    yield {"type": "RUN_STARTED", "threadId": thread, "runId": run}
    if turn == 1:
        yield {
            "type": "TOOL_CALL_START",
            "toolCallId": "c1",
            "toolCallName": "get_weather",
            "parentMessageId": "m1",
        }
        yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"city": "Paris"}'}
        yield {"type": "TOOL_CALL_END", "toolCallId": "c1"}
        yield {"type": "TOOL_CALL_RESULT", "messageId": "result-1", "toolCallId": "c1", "content": "sunny"}
    yield {"type": "TEXT_MESSAGE_START", "messageId": f"a{turn}", "role": "assistant"}
    yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": f"a{turn}", "delta": f"Turn {turn}: sunny."}
    yield {"type": "TEXT_MESSAGE_END", "messageId": f"a{turn}"}
    yield {"type": "RUN_FINISHED", "threadId": thread, "runId": run}


# -- the streams and their formats -----------------------------------------------------------------------------


@dataclass
class Written:
    """One stream as written: its recorder records (the baseline), the recorder log, and what else holds it."""

    records: list[dict[str, Any]]
    log: Path
    chat: Chat | None = None
    tool: tuple[str, dict[str, Any]] = ("get_weather", {"city": "Paris"})
    """The tool call the stream makes, for ``expect(...).tool_called``."""
    answer: str = "sunny"
    """Text the answers hold."""
    files: dict[str, Path] = field(default_factory=dict)
    """The files written from the log, by name: each written once."""
    baselines: dict[tuple[str, bool], Any] = field(default_factory=dict)
    """Each function's result on the records (by function and whether SSE's columns are dropped)."""

    def file(self, name: str, write: Callable[[Path], object]) -> Path:
        if name not in self.files:
            write(self.log.parent / name)
            self.files[name] = self.log.parent / name
        return self.files[name]

    @property
    def events(self) -> list[dict[str, Any]]:
        return [record["event"] for record in self.records]


def _recorded_stream(folder: Path) -> Written:
    times = [event["timestamp"] * 1_000_000 for event in STREAM]
    calls = iter(range(len(times) + 1))

    def clock() -> int:  # each event's timestamp; the recorder reads the clock once more as the stream ends
        return times[min(next(calls), len(times) - 1)]

    log = folder / "run.jsonl"
    recorder = EventRecorder(log, keep=False, clock=clock)
    assert list(recorder.wrap(iter(STREAM))) == STREAM
    recorder.close()
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["event"] for r in records] == STREAM and records[3]["received_ns"] == (T0 + 300) * 1_000_000
    return Written(records, log)


def chunk_agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
    """An agent streaming AI SDK UI-message chunks: its chat writes them to the log as they came."""
    yield {"type": "start", "messageId": "msg-1"}
    yield {"type": "start-step"}
    yield {"type": "reasoning-start", "id": "r"}
    yield {"type": "reasoning-delta", "id": "r", "delta": "Add them."}
    yield {"type": "reasoning-end", "id": "r"}
    yield {"type": "tool-input-start", "toolCallId": "c1", "toolName": "add"}
    yield {"type": "tool-input-delta", "toolCallId": "c1", "inputTextDelta": '{"a": 1, "b": 2}'}
    yield {"type": "tool-input-available", "toolCallId": "c1", "toolName": "add", "input": {"a": 1, "b": 2}}
    yield {"type": "tool-output-available", "toolCallId": "c1", "output": 3}
    yield {"type": "text-start", "id": "t"}
    yield {"type": "text-delta", "id": "t", "delta": "It is 3."}
    yield {"type": "text-end", "id": "t"}
    yield {"type": "finish-step"}
    yield {"type": "finish", "finishReason": "stop"}


def _chat_log(folder: Path, agent: Any, questions: tuple[str, ...], **expected: Any) -> Written:
    async def turns() -> Chat:
        chat = Chat(agent, store=folder / "chat.jsonl", thread_id="thread-1")
        for question in questions:
            assert await chat.send_message(question) == "success"
        return chat

    chat = asyncio.run(turns())
    chat.close()
    records = [json.loads(line) for line in chat.store.read_text().splitlines()]  # type: ignore[union-attr]
    assert records == chat.events
    return Written(records, folder / "chat.jsonl", chat, **expected)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Written]:
    folder = tmp_path_factory.mktemp
    return {
        "stream": _recorded_stream(folder("stream")),
        "chat": _chat_log(folder("chat"), weather_agent, ("Weather in Paris?", "And tomorrow?")),
        "chunk chat": _chat_log(
            folder("chunks"), chunk_agent, ("1 + 2?",), tool=("add", {"a": 1, "b": 2}), answer="It is 3."
        ),
    }


def _gzipped(written: Written) -> Path:
    return written.file(
        "run.jsonl.gz", lambda path: path.write_bytes(gzip.compress(written.log.read_bytes()))
    )


def _folder_holding(written: Written) -> Path:
    def copy(folder: Path) -> None:
        folder.mkdir()
        shutil.copy(written.log, folder / written.log.name)

    return written.file("logs", copy)


def _parquet(written: Written) -> Path:
    return written.file("events.parquet", lambda path: logs.to_parquet(load_events(written.records), path))


def _bare_file(written: Written) -> Path:
    return written.file("bare.jsonl", lambda path: path.write_text(_bare_jsonl(written.events)))


def _sse(events: list[dict[str, Any]]) -> str:
    encoder = EventEncoder()
    return "".join(encoder.encode(model) for model in _models(events))


def _models(events: list[dict[str, Any]]) -> list[Any]:
    adapter = TypeAdapter(Event)
    return [adapter.validate_python(event) for event in events]


def _bare_jsonl(events: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(event) + "\n" for event in events)


# Each format: (name, the source made from the written stream, or an opener called afresh for every use).
Format = tuple[str, Callable[[Written], Any]]

RECORDER_FORMATS: list[Format] = [
    ("recorder records (list of dicts)", lambda w: w.records),
    ("recorder records, one by one (an iterator)", lambda w: lambda: nullcontext(iter(w.records))),
    ("recorder log path", lambda w: w.log),
    ("recorder log bytes", lambda w: w.log.read_bytes()),
    ("recorder log, open binary file", lambda w: lambda: w.log.open("rb")),
    ("recorder log gzip path", _gzipped),
    ("folder holding the log", _folder_holding),
    ("events table as Parquet (to_parquet)", _parquet),
]
BARE_FORMATS: list[Format] = [
    ("event dicts", lambda w: w.events),
    ("ag_ui.core models", lambda w: _models(w.events)),
    ("bare JSONL text", lambda w: _bare_jsonl(w.events)),
    ("bare JSONL, open text file", lambda w: lambda: _bare_file(w).open()),
    ("SSE text", lambda w: _sse(w.events)),
    ("JSON array text (pretty-printed)", lambda w: json.dumps(w.events, indent=2)),
    ("bare JSONL text with CRLF and a BOM", lambda w: "\ufeff" + _bare_jsonl(w.events).replace("\n", "\r\n")),
]
CHAT_FORMATS: list[Format] = [("the Chat", lambda w: w.chat)]

CASES = [
    *(("stream", f) for f in RECORDER_FORMATS + BARE_FORMATS),
    *(("chat", f) for f in RECORDER_FORMATS + CHAT_FORMATS),
    *(("chunk chat", f) for f in RECORDER_FORMATS + CHAT_FORMATS),
]
"""Every stream in every format it is written in. A chat's log is a recorder log: its bare forms are those of the
first stream."""


def _fresh(source: Any, opened: ExitStack) -> Callable[[], Any]:
    """The source again for every read: a file opened anew each time (a read leaves it at its end)."""
    if callable(source) and not isinstance(source, (list, Chat)):
        return lambda: opened.enter_context(source())
    return lambda: source


# -- the functions that take events, each with what its result is compared by -----------------------------------


def _table(frame: pd.DataFrame, sse: bool) -> pd.DataFrame:
    dropped = [c for c in (*SOURCE_COLUMNS, *(LINE_COLUMNS if sse else ())) if c in frame.columns]
    return frame.drop(columns=dropped).reset_index(drop=True)


def _problems(problems: list[Any]) -> list[tuple[Any, ...]]:
    # A problem's source and line say where its event is (the file, the text's line): they differ by format.
    return [(p.index, p.rule, p.severity, p.message, p.event_type) for p in problems]


def _inspected(get: Callable[[], Any], sse: bool) -> Any:
    run = inspected_run(get())  # what the inspector is made of, then the inspector
    inspector = inspect_run(get())
    return (
        _table(run.frame, sse),
        run.events,
        run.start,
        run.label,
        run.inputs,
        inspector.events,
        _problems(inspector.problems),
        inspector.messages,
        inspector.timeline,
        inspector.title,
    )


def _expectation(written: Written, source: Any) -> Any:
    tool, arguments = written.tool
    checked = expect(source).tool_called(tool, **arguments).text_contains(written.answer)
    checked = checked.no_tool_errors().verify()
    return checked.run.events, checked.run.label


def _answer_chars(run) -> int:  # type: ignore[no-untyped-def]
    """Characters of the run's answer."""
    return len(run.text)


def _scores(written: Written, source: Any, sse: bool) -> pd.DataFrame:
    scorers = (evals.tool_called(written.tool[0]), evals.text_contains(written.answer), _answer_chars)
    return _table(evals.score(source, *scorers), sse)


def _compared(written: Written, source: Any) -> pd.DataFrame:
    metric = evals.text_contains(written.answer)
    return evals.compare(source, written.records, metric, n_resamples=50).table


def _cases(source: Any) -> list[Any]:
    # A case's id starts with its source's name, as SOURCE_COLUMNS: the run key after it is compared.
    return [_case(case.id, case.values[0]) for case in evals.log_cases(source)]


def _case(case_id: str, run: Any) -> tuple[Any, ...]:
    calls = run.tool_calls
    if isinstance(calls, pd.DataFrame):
        calls = _table(calls, sse=False).to_dict("records")
    return case_id.rpartition(":")[2], run.events, run.text, calls


def _message(message: Any) -> Any:
    return message if isinstance(message, dict) else message.model_dump(mode="json")


async def _collected(items: Any) -> list[Any]:
    return [item async for item in items]


def _spans(source: Any) -> list[tuple[Any, ...]]:
    return [
        (span.name, span.context.span_id, span.start_time, span.end_time, _attributes(span.attributes or {}))
        for span in logs.to_otel_spans(source)
    ]


def _attributes(attributes: Any) -> dict[str, Any]:
    return {key: value for key, value in attributes.items() if key not in SOURCE_ATTRIBUTES}


def _thread(thread: Any) -> Any:
    return thread.message_dicts, thread.state, thread.runs, thread.interrupt_dicts


def _forked(written: Written, source: Any) -> Any:
    # A stream recorded on the agent's side holds no user message: its question is given, as fork asks.
    history = (
        None if written.chat is not None else [{"id": "u1", "role": "user", "content": "Weather in Paris?"}]
    )
    return fork(source, history=history).model_dump(exclude={"run_id"})  # the run id is fresh every time


def _no_changes(written: Written, source: Any) -> Any:
    return diff_runs(written.records, source).table.to_dict("records")


FUNCTIONS: dict[str, Callable[[Written, Callable[[], Any], bool], Any]] = {
    "apply_events": lambda w, get, sse: _thread(apply_events(get())),
    "verify_events": lambda w, get, sse: _problems(verify_events(get())),
    "parse_events": lambda w, get, sse: [
        m.model_dump(mode="json", by_alias=True) for m in parse_events(get())
    ],
    "ui_messages_from_events": lambda w, get, sse: [
        m.model_dump(mode="json") for m in ui_messages_from_events(get())
    ],
    "iter_wire_events": lambda w, get, sse: list(iter_wire_events(get())),
    "ui_chunks_from_events": lambda w, get, sse: list(ui_chunks_from_events(get())),
    "aapply_events": lambda w, get, sse: _thread(asyncio.run(aapply_events(get()))),
    "averify_events": lambda w, get, sse: _problems(asyncio.run(averify_events(get()))),
    "aparse_events": lambda w, get, sse: [
        m.model_dump(mode="json", by_alias=True) for m in asyncio.run(aparse_events(get()))
    ],
    "aui_chunks_from_events": lambda w, get, sse: asyncio.run(_collected(aui_chunks_from_events(get()))),
    "load_events": lambda w, get, sse: _table(load_events(get()), sse),
    "runs_df": lambda w, get, sse: _table(logs.runs_df(get()), sse),
    "tool_calls_df": lambda w, get, sse: _table(logs.tool_calls_df(get()), sse),
    "messages_df": lambda w, get, sse: _table(logs.messages_df(get()), sse),
    "chunks_df": lambda w, get, sse: _table(logs.chunks_df(get()), sse),
    "reasoning_df": lambda w, get, sse: _table(logs.reasoning_df(get()), sse),
    "summarize": lambda w, get, sse: _table(logs.summarize(get()), sse),
    "totals_df": lambda w, get, sse: _table(logs.totals_df(get()), sse),
    "inspect_run": lambda w, get, sse: _inspected(get, sse),
    "diff_runs": lambda w, get, sse: _no_changes(w, get()),
    "fork": lambda w, get, sse: _forked(w, get()),
    "expect": lambda w, get, sse: _expectation(w, get()),
    "evals.score": lambda w, get, sse: _scores(w, get(), sse),
    "evals.compare": lambda w, get, sse: _compared(w, get()),
    "evals.log_cases": lambda w, get, sse: _cases(get()),
    "logs.to_otel_spans": lambda w, get, sse: _spans(get()),
    "iter_ui_chunks": lambda w, get, sse: list(iter_ui_chunks(get())),
    "read_ui_message_stream": lambda w, get, sse: [_message(m) for m in read_ui_message_stream(get())],
    "ui_message_from_chunks": lambda w, get, sse: _message(ui_message_from_chunks(get())),
}
"""Every public function that takes events, by name: its result on a source, as it is compared (``sse``: the
source is SSE text)."""

STREAM_READERS = (
    "apply_events",
    "verify_events",
    "parse_events",
    "ui_messages_from_events",
    "iter_wire_events",
    "ui_chunks_from_events",
    "aapply_events",
    "averify_events",
    "aparse_events",
    "aui_chunks_from_events",
)
"""The functions that read one stream of AG-UI events: not a folder of logs, not a chat, not a table (each
documents what it reads)."""
CHUNK_READERS = ("iter_ui_chunks", "read_ui_message_stream", "ui_message_from_chunks")
"""The functions that read one AI SDK UI-message stream: run on the chat's log of chunks only. Their baseline is
the log's events as a list of dicts (``CHUNK_BASELINE``)."""
CHUNK_BASELINE: Format = ("the log's events (list of dicts)", lambda w: w.events)

REFUSED = {
    ("events", "folder holding the log"): (SourceFolderError, "is a folder, not a file of events"),
    ("events", "the Chat"): (InputTypeError, "cannot read AG-UI events from Chat"),
    ("events", "events table as Parquet (to_parquet)"): (
        EventParseError,
        "not JSON, JSONL or SSE (starts with 'PAR1",
    ),
    ("chunks", "folder holding the log"): (SourceFolderError, "is a folder, not a file of events"),
    ("chunks", "the Chat"): (InputTypeError, "cannot read UI chunks from Chat"),
    ("chunks", "events table as Parquet (to_parquet)"): (
        ChunkDecodeError,
        "not JSON, JSONL or SSE (starts with 'PAR1",
    ),
}
"""The formats the stream readers refuse (AG-UI events, UI chunks), with the documented error: ``verify_events``
reports it as a problem, and ``apply_events``, which skips what it cannot read, warns that it read nothing."""
NOT_READ = {"stream": CHUNK_READERS, "chat": CHUNK_READERS, "chunk chat": STREAM_READERS}
"""Not run: the chunk readers read AI SDK chunks, not AG-UI streams; the AG-UI stream readers read AG-UI events
only, and a chat's log of an agent that streamed AI SDK chunks holds the chunks (the tables, the inspector and the
rest read them as the AG-UI events they are). They read it as no messages: reported, issue 31."""


def _refusal(function: str, fmt: Format) -> tuple[type[Exception], str] | None:
    if function in STREAM_READERS:
        return REFUSED.get(("events", fmt[0]))
    if function in CHUNK_READERS:
        return REFUSED.get(("chunks", fmt[0]))
    return None


def _assert_refused(
    function: str, written: Written, fmt: Format, refusal: tuple[type[Exception], str]
) -> None:
    error, message = refusal
    with ExitStack() as opened:
        source = _fresh(fmt[1](written), opened)
        if function in ("verify_events", "averify_events"):
            found = (
                verify_events(source())
                if function == "verify_events"
                else asyncio.run(averify_events(source()))
            )
            [problem] = found
            assert (problem.rule, problem.severity) == ("unknown-format", "error")
            assert message in problem.message
        elif function in ("apply_events", "aapply_events") and error is EventParseError:
            with pytest.warns(EventLogWarning, match=f"no AG-UI event could be read .*{re.escape(message)}"):
                thread = (
                    apply_events(source())
                    if function == "apply_events"
                    else asyncio.run(aapply_events(source()))
                )
            assert thread.message_dicts == []
        else:
            with pytest.raises(error, match=re.escape(message)):
                FUNCTIONS[function](written, source, False)


def _result(function: str, written: Written, fmt: Format) -> Any:
    name, make = fmt
    with ExitStack() as opened:
        return FUNCTIONS[function](written, _fresh(make(written), opened), name.startswith("SSE"))


def _baseline(function: str, written: Written, fmt: Format) -> Any:
    """The function's result on the records as a list of dicts (a chunk reader's: on ``CHUNK_BASELINE``), with the
    columns ``fmt`` drops dropped."""
    sse = fmt[0].startswith("SSE")
    if (function, sse) not in written.baselines:
        base = CHUNK_BASELINE if function in CHUNK_READERS else RECORDER_FORMATS[0]
        with ExitStack() as opened:
            written.baselines[function, sse] = FUNCTIONS[function](
                written, _fresh(base[1](written), opened), sse
            )
    return written.baselines[function, sse]


def _equal(ours: Any, expected: Any, what: str) -> None:
    if isinstance(expected, pd.DataFrame):
        pd.testing.assert_frame_equal(ours, expected, obj=what)
    elif isinstance(expected, tuple) and any(isinstance(item, pd.DataFrame) for item in expected):
        assert len(ours) == len(expected)
        for index, (mine, theirs) in enumerate(zip(ours, expected, strict=True)):
            _equal(mine, theirs, f"{what}[{index}]")
    else:
        assert ours == expected, what


@pytest.mark.parametrize(
    ("stream", "fmt", "function"),
    [
        (stream, fmt, function)
        for stream, fmt in CASES
        for function in FUNCTIONS
        if function not in NOT_READ.get(stream, ())
        and (function in CHUNK_READERS or fmt is not RECORDER_FORMATS[0])
    ],
    ids=lambda v: v if isinstance(v, str) else v[0],
)
def test_every_format_gives_what_the_records_give(
    written: dict[str, Written], stream: str, fmt: Format, function: str
) -> None:
    refusal = _refusal(function, fmt)
    if refusal is not None:
        _assert_refused(function, written[stream], fmt, refusal)
    else:
        expected = _baseline(function, written[stream], fmt)
        _equal(_result(function, written[stream], fmt), expected, f"{function} of {stream} as {fmt[0]}")


def test_the_records_give_what_the_streams_hold(written: dict[str, Written]) -> None:
    """The baselines are the streams' contents, not a reading that every format gets wrong alike."""
    stream, chat = written["stream"], written["chat"]
    assert apply_events(stream.records).message_dicts == [
        {"id": "think-1", "role": "reasoning", "content": "Look it up."},
        {
            "id": "m1",
            "role": "assistant",
            "toolCalls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                }
            ],
        },
        {"id": "result-1", "toolCallId": "c1", "role": "tool", "content": "sunny"},
        {"id": "m2", "role": "assistant", "content": "It is sunny."},
        {"id": "m3", "role": "assistant", "content": "Still sunny."},
    ]
    assert _problems(verify_events(stream.records)) == [
        (19, "unknown-field", "warning", "unknown field(s) note", "TEXT_MESSAGE_END")
    ]
    runs = logs.runs_df(stream.records)
    assert runs[["run_id", "status", "duration_s", "time_to_first_text_s", "tool_calls"]].values.tolist() == [
        ["r1", "success", 1.5, 1.2, 1],
        ["r2", "success", 0.4, 0.2, 0],
    ]
    assert logs.tool_calls_df(stream.records)[["tool_name", "status", "latency_s"]].values.tolist() == [
        ["get_weather", "ok", 0.1]
    ]
    chat_messages = apply_events(chat.records).message_dicts
    assert [
        (m["role"], m.get("content")) for m in chat_messages if m["role"] != "assistant" or "content" in m
    ] == [
        ("tool", "sunny"),
        ("assistant", "Turn 1: sunny."),
        ("assistant", "Turn 2: sunny."),
    ]
    assert logs.runs_df(chat.records)["status"].tolist() == ["success", "success"]
    assert diff_runs(stream.records, stream.records).table.empty


def test_a_gzip_log_cut_short_is_an_error_naming_it(written: dict[str, Written]) -> None:
    log = written["stream"].log
    cut = log.parent / "cut.jsonl.gz"
    cut.write_bytes(gzip.compress(log.read_bytes())[:-20])
    for read in (apply_events, parse_events, ui_messages_from_events):
        with pytest.raises(EventParseError, match=rf"^{cut}: not readable gzip data \("):
            read(cut)


async def _slices(items: list[Any]) -> Any:
    for item in items:
        yield item


def _cut(data: bytes, size: int = 7) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


LIVE_FORMATS: dict[str, Callable[[Written], list[Any]]] = {
    "SSE bytes in 7-byte slices (a live HTTP body)": lambda w: _cut(_sse(w.events).encode()),
    "recorder log bytes in 7-byte slices": lambda w: _cut(w.log.read_bytes()),
    "event dicts, one by one": lambda w: w.events,
    "recorder records, one by one": lambda w: w.records,
}
ASYNC_READERS = ("aapply_events", "averify_events", "aparse_events", "aui_chunks_from_events")


@pytest.mark.parametrize("stream", ["stream", "chat"])
@pytest.mark.parametrize("live", list(LIVE_FORMATS))
@pytest.mark.parametrize("function", ASYNC_READERS)
def test_the_async_readers_read_a_live_stream_as_its_records(
    written: dict[str, Written], stream: str, live: str, function: str
) -> None:
    items = LIVE_FORMATS[live](written[stream])
    ours = FUNCTIONS[function](written[stream], lambda: _slices(items), False)
    expected = _baseline(function, written[stream], RECORDER_FORMATS[0])
    assert ours == expected
