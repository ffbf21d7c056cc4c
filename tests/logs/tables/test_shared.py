"""The work kept with an events frame: shared by the tables of that very frame, never used for a changed one.

Each test builds every table of a frame (which keeps the work), changes the frame (or makes a new one from it),
then checks that the tables of the result equal the tables built with nothing kept.
"""

from __future__ import annotations

import gc
import warnings
from collections.abc import Callable
from typing import Any

import pandas as pd
import pytest

from agui_notebook._errors import AguiNotebookWarning, EventLogWarning
from agui_notebook.logs._load import load_events
from agui_notebook.logs._summary import summarize, totals_df
from agui_notebook.logs.tables import _shared
from agui_notebook.logs.tables._chunks import Chunks, chunks_df
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._reasoning import reasoning_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._shared import Fingerprint, event_frame
from agui_notebook.logs.tables._tool_calls import ToolCalls, tool_calls_df
from tests.logs.samples import jsonl, known_events

TABLES: dict[str, Callable[[pd.DataFrame], pd.DataFrame]] = {
    "runs_df": runs_df,
    "runs_df priced": lambda df: runs_df(
        df, prices={"a": {"input": 1, "output": 2}, "b": {"input": 3, "output": 4}}
    ),
    "tool_calls_df": tool_calls_df,
    "reasoning_df": reasoning_df,
    "chunks_df": chunks_df,
    "messages_df": messages_df,
    "summarize": summarize,
    "totals_df": totals_df,
}


def tables(frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: build(frame) for name, build in TABLES.items()}


def tables_from_scratch(frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The tables of ``frame`` with nothing kept for any frame."""
    _shared._KEPT.clear()
    try:
        return tables(frame)
    finally:
        _shared._KEPT.clear()


def assert_fresh(frame: pd.DataFrame) -> None:
    """The tables of ``frame`` (whatever was kept before) equal those built from scratch."""
    got = tables(frame)
    want = tables_from_scratch(frame)
    for name in TABLES:
        pd.testing.assert_frame_equal(got[name], want[name], check_exact=True, obj=name)
        assert got[name].attrs.get("odd_values") == want[name].attrs.get("odd_values"), name


@pytest.fixture
def frame(tmp_path) -> pd.DataFrame:
    """The known log, loaded from a file, with every table built (so its work is kept)."""
    path = tmp_path / "known.jsonl"
    path.write_bytes(jsonl(known_events()))
    frame = load_events(path)
    tables(frame)
    assert id(frame) in _shared._KEPT
    return frame


def rows_of(frame: pd.DataFrame, event_type: str) -> list[int]:
    return [i for i, t in enumerate(frame["type"].astype(str)) if t == event_type]


def test_the_tables_of_one_frame_share_its_work(frame: pd.DataFrame) -> None:
    first, second = event_frame(frame), event_frame(frame)
    assert first is not second  # each table reports its own odd values
    assert Chunks.of(first) is Chunks.of(second)
    assert ToolCalls.of(first, Chunks.of(first)) is ToolCalls.of(second, Chunks.of(second))
    assert first.odd is not second.odd


def test_unchanged_tables_equal_those_built_from_scratch(frame: pd.DataFrame) -> None:
    assert_fresh(frame)


EDITS: dict[str, Callable[[pd.DataFrame], Any]] = {
    # In place, through pandas: the frame object stays the same.
    "loc chars": lambda df: df.__setitem__(
        "chars", df["chars"].where(df["type"] != "TEXT_MESSAGE_CONTENT", 0)
    ),
    "loc one value": lambda df: df.loc.__setitem__((rows_of(df, "TEXT_MESSAGE_CONTENT")[0], "chars"), 40),
    "loc time": lambda df: df.loc.__setitem__(
        (rows_of(df, "RUN_FINISHED")[0], "time"), pd.Timestamp("2030-01-01", tz="UTC")
    ),
    "at event": lambda df: df.at.__setitem__(
        (rows_of(df, "RUN_FINISHED")[0], "event"),
        {
            "type": "RUN_FINISHED",
            "threadId": "t1",
            "runId": "r1",
            "usage": {"inputTokens": 7, "outputTokens": 3},
        },
    ),
    # In place, through the arrays themselves (pandas' copy-on-write does not see these).
    "array delta": lambda df: df["delta"].array.__setitem__(
        rows_of(df, "TOOL_CALL_ARGS")[0], '{"q": "other"'
    ),
    "array type": lambda df: df["type"].array.__setitem__(
        rows_of(df, "TEXT_MESSAGE_CONTENT")[0], "REASONING_MESSAGE_CONTENT"
    ),
    "array event": lambda df: df["event"].array.__setitem__(
        rows_of(df, "TOOL_CALL_RESULT")[0],
        {"type": "TOOL_CALL_RESULT", "toolCallId": "c2", "content": "changed"},
    ),
    "array message id": lambda df: df["message_id"].array.__setitem__(
        rows_of(df, "TEXT_MESSAGE_CONTENT")[-1], df["message_id"].iloc[rows_of(df, "TEXT_MESSAGE_CONTENT")[0]]
    ),
    "array time": lambda df: df["time"].array.__setitem__(
        rows_of(df, "TEXT_MESSAGE_CONTENT")[0], pd.Timestamp("2030-01-01", tz="UTC")
    ),
    # Whole columns replaced, added or removed.
    "new chars": lambda df: df.__setitem__("chars", df["chars"] * 2),
    "new column": lambda df: df.__setitem__("note", 1),
    "renamed categories": lambda df: df.__setitem__(
        "tool_call_name", df["tool_call_name"].cat.rename_categories(lambda name: name.upper())
    ),
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_frame_edited_in_place_is_never_answered_from_kept_work(frame: pd.DataFrame, edit: str) -> None:
    before = tables_from_scratch(frame)
    tables(frame)  # kept again
    EDITS[edit](frame)
    assert_fresh(frame)
    after = tables_from_scratch(frame)
    if edit != "new column":  # the one edit that changes no table
        assert any(not before[name].equals(after[name]) for name in TABLES), "the edit changes no table"


NEW_FRAMES: dict[str, Callable[[pd.DataFrame], pd.DataFrame]] = {
    "sliced": lambda df: df.iloc[: len(df) // 2],
    "filtered": lambda df: df[df["type"] != "TOOL_CALL_RESULT"],
    "concatenated": lambda df: pd.concat([df, load_events(known_events()[:5])], ignore_index=True),
    "reordered": lambda df: df.iloc[::-1].reset_index(drop=True),
    "copied, then edited": lambda df: _edited(df.copy()),
    "assigned": lambda df: df.assign(t=df["t"] * 2),
}


def _edited(frame: pd.DataFrame) -> pd.DataFrame:
    EDITS["array type"](frame)
    return frame


@pytest.mark.parametrize("make", list(NEW_FRAMES))
def test_a_frame_made_from_another_is_never_answered_from_its_work(frame: pd.DataFrame, make: str) -> None:
    before = tables_from_scratch(frame)
    tables(frame)
    made = NEW_FRAMES[make](frame)
    assert_fresh(made)
    # The original is untouched, and answered from its own work as before.
    tables(frame)
    assert id(frame) in _shared._KEPT
    after = tables(frame)
    for name in TABLES:
        pd.testing.assert_frame_equal(after[name], before[name], check_exact=True, obj=name)


def test_the_work_goes_with_its_frame(tmp_path) -> None:
    frame = load_events(known_events())
    tables(frame)  # every table: nothing kept holds the frame
    key = id(frame)
    assert key in _shared._KEPT
    del frame
    gc.collect()
    assert key not in _shared._KEPT


def test_a_frame_with_a_column_of_another_kind_keeps_nothing(frame: pd.DataFrame) -> None:
    frame["payload"] = pd.Series([[i] for i in range(len(frame))], dtype=object)
    assert Fingerprint.of(frame) is None
    first = event_frame(frame)
    assert Chunks.of(first) is not Chunks.of(event_frame(frame))
    assert id(frame) not in _shared._KEPT
    assert_fresh(frame)


def test_a_table_handed_out_is_its_own(frame: pd.DataFrame) -> None:
    """Changing a table, down to the objects in it, changes nothing kept."""
    runs = runs_df(frame)
    runs.loc[:, "ttft_s"] = 99.0
    calls = tool_calls_df(frame)
    args = next(value for value in calls["args"] if isinstance(value, dict) and value)
    args.clear()
    args["changed"] = True
    calls["args"].array[0] = {"changed": True}
    chunks = chunks_df(frame)
    chunks["gap_s"].array[:] = 99.0
    chunks["chars"].array[:] = 0
    assert_fresh(frame)


ODD_PAYLOADS = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 0},
    {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "timestamp": 1},
    {"type": "TOOL_CALL_RESULT", "messageId": "x", "toolCallId": "c", "content": {"rows": 3}, "timestamp": 2},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "usage": "lots", "timestamp": 3},
]
"""Odd values only the tables read: a usage that is not a list (runs_df), a result that is not text
(tool_calls_df)."""


@pytest.mark.parametrize(("build", "name"), [(runs_df, "runs_df"), (tool_calls_df, "tool_calls_df")])
def test_a_kept_table_gives_its_warnings_again(build: Callable[..., pd.DataFrame], name: str) -> None:
    frame = load_events(jsonl(ODD_PAYLOADS))
    for _ in range(2):  # built, then kept
        with pytest.warns(EventLogWarning, match=f"^{name}: 1 odd value"):
            build(frame)


def test_a_kept_runs_table_warns_of_unpriced_models_again() -> None:
    frame = load_events(jsonl(known_events()))
    for _ in range(2):
        with pytest.warns(AguiNotebookWarning, match="^runs_df: no price for"):
            runs_df(frame, prices={"nobody": {"input": 1, "output": 1}})
