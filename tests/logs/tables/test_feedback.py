"""messages_df's feedback columns: a ChatWidget's feedback records joined to the messages they rate."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pandas as pd

from agui_notebook.chat._recorder import EventRecorder
from agui_notebook.chat._records import feedback_event
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._messages import messages_df

AT = "2026-12-01T12:00:00.000Z"


def _run(run_id: str, *message_ids: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [{"type": "RUN_STARTED", "threadId": "t", "runId": run_id}]
    for message_id in message_ids:
        events += [
            {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": f"text of {message_id}"},
            {"type": "TEXT_MESSAGE_END", "messageId": message_id},
        ]
    return [*events, {"type": "RUN_FINISHED", "threadId": "t", "runId": run_id}]


def _ratings(table: pd.DataFrame) -> list[tuple[str, str | None, str | None]]:
    return [
        (m, f if isinstance(f, str) else None, c if isinstance(c, str) else None)
        for m, f, c in zip(table["message_id"], table["feedback"], table["feedback_comment"], strict=True)
    ]


def _write(path: Path, events: list[dict[str, Any]]) -> str:
    with EventRecorder(path, keep=False) as recorder:
        for event in events:
            recorder.add(event)
    return str(path)


def test_a_recorded_log_with_feedback_records_read_from_its_file(tmp_path: Path) -> None:
    events = [
        *_run("r1", "a1", "a2"),
        feedback_event("r1", "down", comment="too vague", at=AT, message_ids=["a1", "a2"]),
        *_run("r2", "b1"),
        feedback_event("r1", "up", at=AT, message_ids=["a1", "a2"]),  # changed: the last record wins
        feedback_event("r2", "down", comment="wrong", at=AT, message_ids=["b1"]),
        *_run("r3", "c1"),
        feedback_event("r3", "up", at=AT, message_ids=["c1"]),
        feedback_event("r3", None, at=AT, message_ids=["c1"]),  # taken back
    ]
    path = _write(tmp_path / "chat.jsonl", events)
    loaded = load_events(path)
    assert (loaded["type"] == "CUSTOM").sum() == 5
    expected = [("a1", "up", None), ("a2", "up", None), ("b1", "down", "wrong"), ("c1", None, None)]
    assert _ratings(messages_df(path)) == expected
    assert _ratings(messages_df(loaded)) == expected
    assert _ratings(messages_df(events)) == expected
    table = messages_df(path)
    assert isinstance(table["feedback"].dtype, pd.CategoricalDtype)
    assert list(table["feedback"].cat.categories) == ["up", "down"]


def test_without_message_ids_a_record_rates_the_run_named_after_its_message(tmp_path: Path) -> None:
    # An AI SDK stream's run is named after its UIMessage, whose text parts keep no ids.
    chunks = [
        {"type": "start", "messageId": "msg-1"},
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "Hi"},
        {"type": "text-end", "id": "t"},
        {"type": "finish"},
        feedback_event("msg-1", "down", comment="rude", at=AT),
    ]
    path = _write(tmp_path / "ui.jsonl", chunks)
    assert _ratings(messages_df(path)) == [("t", "down", "rude")]
    assert load_events(path)["run_id"].dropna().unique().tolist() == ["msg-1"]  # no run for the record


def test_records_reach_only_their_own_file_and_odd_ones_are_reported(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    _write(folder / "one.jsonl", [*_run("r1", "a1"), feedback_event("r1", "up", at=AT, message_ids=["a1"])])
    _write(
        folder / "two.jsonl",
        [
            *_run("r1", "a1"),
            {
                "type": "CUSTOM",
                "name": "agui-notebook/feedback",
                "value": {"messageId": "r1", "rating": "great"},
            },
            {"type": "CUSTOM", "name": "agui-notebook/feedback", "value": "up"},
            {"type": "CUSTOM", "name": "other", "value": {"messageId": "r1", "rating": "down"}},
        ],
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = messages_df(str(folder))
    assert sorted(_ratings(table), key=lambda r: r[1] is None) == [("a1", "up", None), ("a1", None, None)]
    odd = table.attrs["odd_values"]
    assert sorted(entry["field"] for entry in odd) == ["value", "value.rating"]
    assert any("messages_df" in str(w.message) for w in caught)
