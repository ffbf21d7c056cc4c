"""The three ways a JSONL slice is read (structs, dicts, line by line) build the same table.

Each log is loaded in slices of a few hundred bytes, so that its events cross many slice boundaries, once
with every path allowed and once with the faster paths switched off one after the other.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from agui_notebook._errors import EventLogWarning
from agui_notebook.logs import _read
from agui_notebook.logs._load import load_events
from tests.logs.samples import CAPTURES, T0, at, jsonl, known_events


def legacy_log() -> list[dict[str, Any]]:
    """Modern events first (struct slices), then pre-1.0 THINKING_* events and nulls the upgrader drops."""
    modern = [at(i, "TEXT_MESSAGE_CONTENT", messageId="m0", delta=f"word {i} ") for i in range(40)]
    return [
        at(0, "RUN_STARTED", threadId="t", runId="r"),
        *modern,
        at(50, "THINKING_START", title="plan"),
        at(51, "THINKING_TEXT_MESSAGE_START"),
        *[at(52 + i, "THINKING_TEXT_MESSAGE_CONTENT", delta=f"hm {i}") for i in range(20)],
        at(80, "THINKING_TEXT_MESSAGE_END"),
        at(81, "THINKING_END"),
        *[at(90 + i, "TEXT_MESSAGE_CONTENT", messageId="m1", delta="x", rawEvent=None) for i in range(30)],
        at(200, "RUN_FINISHED", threadId="t", runId="r", result=None),
    ]


def odd_log() -> list[Any]:
    """Values of unusual kinds in every field the loader reads."""
    return [
        {"received_ns": (T0 + 1) * 1_000_000, "event": at(0, "RUN_STARTED", threadId="t", runId="r")},
        at(1, "TEXT_MESSAGE_START", messageId=7, role="assistant"),
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": 7, "delta": "no time"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": 7, "delta": "null time", "timestamp": None},
        at(2.5, "TEXT_MESSAGE_CONTENT", messageId=7, delta="grüße 👋 ünïcödé"),
        at(3, "TEXT_MESSAGE_CHUNK", delta="chunk without id"),
        at(4, "TOOL_CALL_START", toolCallId={"odd": "id"}, toolCallName="f", parentMessageId=7),
        at(5, "TOOL_CALL_ARGS", toolCallId={"odd": "id"}, delta='{"a": 1}'),
        at(6, "MY_TYPE", messageId="u", toolCallId="uc", delta="unknown types are read for everything",
           role="r", stepName="s", threadId="t2", runId="r2", toolCallName="n", parentMessageId="p"),
        at(7, "STATE_DELTA", delta=[{"op": "add", "path": "/big", "value": 1e400}]),
        at(8, "SUBAGENT_STARTED", subagentRunId="s1", name="helper"),
        at(9, "TEXT_MESSAGE_CONTENT", messageId="sm", delta="from the subagent", subagentRunId="s1"),
        {"received_ns": "not a time", "event": at(10, "STEP_STARTED", stepName="plan")},
        at(11, "RUN_FINISHED", threadId="t", runId="r"),
    ] * 5  # fmt: skip


def capture(name: str) -> bytes:
    return (CAPTURES / name).read_bytes()


LOGS = {
    "known": lambda: jsonl(known_events()),
    "legacy": lambda: jsonl(legacy_log()),
    "odd": lambda: jsonl(odd_log()),
    "pydantic-ai capture": lambda: capture("pydantic_ai_runs.jsonl"),
    "AI SDK stream": lambda: capture("pydantic_ai_ui_stream.jsonl"),
}


def load(path: Path, monkeypatch: pytest.MonkeyPatch, *, without: tuple[str, ...] = ()) -> pd.DataFrame:
    with monkeypatch.context() as patch:
        patch.setattr(_read, "_SLICE_BYTES", 300)
        for name in without:
            patch.setattr(_read, name, lambda *args, **options: None)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", EventLogWarning)  # the odd log's values: compared below
            return load_events(path)


@pytest.mark.parametrize("log", LOGS)
def test_every_read_path_builds_the_same_table(
    log: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(LOGS[log]())
    fast = load(path, monkeypatch)
    assert len(fast) > 20
    for without in (("_struct_slice",), ("_struct_slice", "_dict_slice")):
        other = load(path, monkeypatch, without=without)
        pd.testing.assert_frame_equal(fast.drop(columns="event"), other.drop(columns="event"))
        assert fast["event"].tolist() == other["event"].tolist(), without
        assert fast.attrs["odd_values"] == other.attrs["odd_values"], without
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EventLogWarning)
        whole = load_events(path)  # one slice
    pd.testing.assert_frame_equal(fast.drop(columns="event"), whole.drop(columns="event"))
    assert fast.attrs["odd_values"] == whole.attrs["odd_values"]
    if log == "odd":  # numbers as ids, and a first chunk without its id, on every path
        assert {(o["field"], o["problem"]) for o in fast.attrs["odd_values"]} == {
            ("messageId", "messageId is a number (read as '7')"),
            ("messageId", "messageId is missing"),
            ("parentMessageId", "parentMessageId is a number (read as '7')"),
            ("toolCallId", """toolCallId is an object (read as '{"odd":"id"}')"""),
        }


def test_struct_path_is_the_one_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above means something only if the struct path really reads these logs."""
    taken: list[bool] = []
    struct_slice = _read._struct_slice

    def spy(*args: Any, **options: Any) -> Any:
        batch = struct_slice(*args, **options)
        taken.append(batch is not None)
        return batch

    path = tmp_path / "log.jsonl"
    path.write_bytes(jsonl(legacy_log()))
    monkeypatch.setattr(_read, "_struct_slice", spy)
    load(path, monkeypatch)
    # The modern events before the legacy ones are structs; from the first legacy event on, dicts.
    assert taken[0] and not taken[-1] and len(taken) < 20
