"""EventRecorder and record(): receive times, events passed on unaltered, logs that load back."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path

import orjson
import pytest
from ag_ui.core import RunStartedEvent, TextMessageContentEvent
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_ai.ui.ag_ui import AGUIAdapter

from agui_notebook._errors import EventLogWarning
from agui_notebook.chat._recorder import EventRecorder, record
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from tests.logs.samples import capture_module

EVENTS = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
]


class Clock:
    """A fake clock: 1.5 ms per call, starting at a round second (in ns)."""

    def __init__(self) -> None:
        self.now = 1_700_000_000_000_000_000

    def __call__(self) -> int:
        self.now += 1_500_000
        return self.now


def lines(path: Path) -> list[dict]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines()]


def test_sync_stream_passes_items_through_and_logs_them(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    recorder = EventRecorder(path, clock=Clock())
    out = list(recorder.wrap(iter(EVENTS)))
    assert all(a is b for a, b in zip(out, EVENTS, strict=True))
    assert [r["event"] for r in recorder.events] == EVENTS
    assert [r["received_ns"] for r in recorder.events] == [
        1_700_000_000_001_500_000,
        1_700_000_000_003_000_000,
        1_700_000_000_004_500_000,
    ]
    recorder.close()
    assert lines(path) == recorder.events
    df = load_events(path)
    assert df["t"].tolist() == [0.0, 0.0015, 0.003]


async def test_async_stream_of_models(tmp_path: Path) -> None:
    models = [RunStartedEvent(thread_id="t", run_id="r"), TextMessageContentEvent(message_id="m", delta="Hi")]

    async def stream():
        for model in models:
            yield model

    path = tmp_path / "log.jsonl"
    out = [item async for item in record(stream(), path)]
    assert all(a is b for a, b in zip(out, models, strict=True))
    assert [line["event"] for line in lines(path)] == [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"},
    ]
    # record() appends: a second stream adds to the same log.
    [item async for item in record(stream(), path)]
    assert len(lines(path)) == 4


def test_receive_times_are_real_and_sub_millisecond(tmp_path: Path) -> None:
    recorder = EventRecorder()
    for event in EVENTS:
        recorder.add(event)
    times = [r["received_ns"] for r in recorder.events]
    assert times == sorted(times) and all(isinstance(t, int) for t in times)
    assert any(t % 1_000_000 for t in times)


def test_sse_and_jsonl_text_in_arbitrary_pieces(tmp_path: Path) -> None:
    body = (
        "".join(f"data: {orjson.dumps(e).decode()}\n\n" for e in EVENTS) + ": keep-alive\n\ndata: [DONE]\n\n"
    )
    pieces = [body[i : i + 7] for i in range(0, len(body), 7)]
    recorder = EventRecorder(clock=Clock())
    assert list(recorder.wrap(pieces)) == pieces
    assert [r["event"] for r in recorder.events] == EVENTS
    jsonl = "".join(orjson.dumps(e).decode() + "\n" for e in EVENTS).encode()
    recorder = EventRecorder()
    list(recorder.wrap([jsonl[:10], jsonl[10:]]))
    assert [r["event"] for r in recorder.events] == EVENTS


def test_unrecordable_items_warn_once_and_pass_through() -> None:
    recorder = EventRecorder()
    with pytest.warns(EventLogWarning, match="cannot record a int"):
        assert list(recorder.wrap([1, 2, EVENTS[0]])) == [1, 2, EVENTS[0]]
    assert [r["event"] for r in recorder.events] == [EVENTS[0]]
    with pytest.warns(EventLogWarning, match=r"line 1: invalid JSON"):
        EventRecorder().add("data: {oops\n\n")


@settings(max_examples=150, deadline=None)
@given(cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=12))
def test_text_items_cut_anywhere_record_the_same_events(cuts: list[int]) -> None:
    """Bytes cut inside a UTF-8 sequence or a \\r\\n, SSE or JSONL: the one wire reader reads them all alike."""
    events = [*EVENTS, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "caf\u00e9 \U0001f600"}]
    for body in (
        b"".join(b"data: " + orjson.dumps(e) + b"\r\n\r\n" for e in events) + b"data: [DONE]\r\n\r\n",
        b"".join(orjson.dumps(e) + b"\n" for e in events),
    ):
        points = sorted({min(c, len(body)) for c in cuts})
        pieces = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
        recorder = EventRecorder()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert list(recorder.wrap(pieces)) == pieces
        assert [r["event"] for r in recorder.events] == events


def test_recording_creates_the_folders_of_its_path(tmp_path: Path) -> None:
    path = tmp_path / "logs" / "2026-12-01" / "run.jsonl"
    assert [e["type"] for e in record(EVENTS, path)] == [e["type"] for e in EVENTS]
    assert len(lines(path)) == len(EVENTS)


def test_keep_false_writes_only_the_file(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    with EventRecorder(path, keep=False) as recorder:
        list(recorder.wrap(EVENTS))
    assert recorder.events == [] and len(lines(path)) == 3
    assert repr(recorder) == f"EventRecorder(path={str(path)!r}, events=0)"


def test_recording_a_pydantic_ai_run(tmp_path: Path) -> None:
    # The recorder around a real AG-UI stream; the widget uses the same recorder in memory.
    capture = capture_module()
    adapter = AGUIAdapter(
        agent=capture.make_agent(capture.parallel_tools), run_input=capture._run_input("t", "live")
    )
    recorder = EventRecorder(tmp_path / "live.jsonl")

    async def run() -> list:
        return [event async for event in recorder.wrap(adapter.run_stream())]

    events = asyncio.run(run())
    recorder.close()
    assert [r["event"] for r in recorder.events] == [e.model_dump(mode="json", by_alias=True) for e in events]
    from_file, from_memory = load_events(tmp_path / "live.jsonl"), load_events(recorder)
    assert from_file["time"].tolist() == from_memory["time"].tolist()
    runs = runs_df(from_memory)
    assert runs[["run_id", "status", "tool_calls"]].astype(str).values.tolist() == [["live", "success", "2"]]
    assert tool_calls_df(from_file)["status"].astype(str).tolist() == ["ok", "ok"]
