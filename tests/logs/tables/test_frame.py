"""What every table shares: any load source accepted, empty logs, and the group keys and reductions."""

from __future__ import annotations

import inspect
import pydoc
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agui_notebook.logs._columns import CHUNK_COLUMNS, MESSAGE_COLUMNS, RUN_COLUMNS, TOOL_CALL_COLUMNS, names
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._chunks import chunks_df
from agui_notebook.logs.tables._frame import (
    NAT,
    EventFrame,
    compact,
    first_in_group,
    group_count,
    group_max,
    group_min,
    group_quantiles,
    join_by_key,
    last_in_group,
    seconds_between,
    take,
)
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._reasoning import reasoning_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from tests.logs.samples import at


def test_tables_accept_any_load_source(known_log: Path) -> None:
    assert runs_df(known_log)["run_id"].tolist() == runs_df(load_events(known_log))["run_id"].tolist()
    assert len(chunks_df(str(known_log))) == 11


def test_tables_of_an_empty_log() -> None:
    empty = load_events([])
    priced = lambda events: runs_df(events, prices={})  # noqa: E731  (cost_usd is there only with prices)
    for table, columns in [(priced, RUN_COLUMNS), (messages_df, MESSAGE_COLUMNS), (chunks_df, CHUNK_COLUMNS),
                           (tool_calls_df, TOOL_CALL_COLUMNS)]:  # fmt: skip
        out = table(empty)
        assert list(out.columns) == names(columns) and len(out) == 0


def test_event_frame_keys_runs_and_owners() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="r1"),
        at(1, "TEXT_MESSAGE_CONTENT", messageId="m", delta="x"),
        at(2, "RUN_FINISHED", threadId="t", runId="r1"),
        at(3, "CUSTOM", name="between", value=0),
        at(4, "RUN_STARTED", threadId="t", runId="r2"),
        at(5, "TEXT_MESSAGE_CONTENT", messageId="m", delta="y"),
        at(6, "RUN_FINISHED", threadId="t", runId="r2"),
    ]
    ev = EventFrame(load_events(events))
    assert (ev.n, ev.runs) == (7, 2)
    assert ev.run.tolist() == [0, 0, 0, -1, 1, 1, 1]
    assert ev.run_first_row.tolist() == [0, 4]
    # The same message id in two runs is two messages.
    owner = ev.owner("message_id")
    assert owner[1] >= 0 and owner[5] >= 0 and owner[1] != owner[5]
    assert (owner[[0, 2, 3, 4, 6]] == -1).all()
    assert ev.mask(frozenset({"TEXT_MESSAGE_CONTENT"})).tolist() == [
        False,
        True,
        False,
        False,
        False,
        True,
        False,
    ]
    assert [event["type"] for event in ev.decode(np.array([3, 6]))] == ["CUSTOM", "RUN_FINISHED"]
    assert ev.time[1] - ev.time[0] == 1_000_000


def test_compact_numbers_keys_by_first_appearance() -> None:
    first, keys = compact(np.array([5, -1, 3, 5, 3, 7]))
    assert keys.tolist() == [0, -1, 1, 0, 1, 2]
    assert first.tolist() == [0, 2, 5]
    first, keys = compact(np.array([-1, -1]))
    assert first.tolist() == [] and keys.tolist() == [-1, -1]


def test_group_reductions_skip_missing_keys_and_times() -> None:
    keys = np.array([0, 1, 0, -1])
    times = np.array([30, NAT, 10, 5], dtype=np.int64)
    assert group_min(keys, times, 3).tolist() == [10, NAT, NAT]
    assert group_max(keys, times, 3).tolist() == [30, NAT, NAT]
    assert group_count(keys, 3).tolist() == [2, 1, 0]
    assert group_count(keys, 3, weights=np.array([1.5, 2.0, 3.0, 10.0])).tolist() == [4.5, 2.0, 0.0]


def test_first_and_last_rows_of_each_group() -> None:
    keys = np.array([0, 1, 0, 1, -1])
    rows = np.array([1, 2, 3, 4])
    assert first_in_group(keys, rows, 3).tolist() == [2, 1, -1]
    assert last_in_group(keys, rows, 3).tolist() == [2, 3, -1]
    assert first_in_group(keys, np.empty(0, dtype=np.int64), 2).tolist() == [-1, -1]


def test_take_seconds_and_joined_text() -> None:
    assert take(np.array([10, 20, 30]), np.array([2, -1, 0]), -5).tolist() == [30, -5, 10]
    assert take(np.array([], dtype=np.int64), np.array([-1, -1]), 0).tolist() == [0, 0]
    seconds = seconds_between(np.array([2_000_000_000, NAT]), np.array([1_000_000_000, 0]))
    assert seconds[0] == 1.0 and np.isnan(seconds[1])
    deltas = np.array(["a", "b", "c", "d"], dtype=object)
    assert join_by_key(np.array([1, 0, 1, -1]), np.array([0, 1, 2, 3]), deltas, 3) == ["b", "ac", ""]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)), max_size=60
    )
)
def test_group_quantiles_are_pandas_groupby_quantiles_bit_for_bit(pairs: list[tuple[int, float]]) -> None:
    keys = np.array([k for k, _ in pairs], dtype=np.int32)
    values = np.array([v for _, v in pairs], dtype=np.float64)
    p50, p95 = group_quantiles(keys, values, 7, (0.5, 0.95))
    want = pd.DataFrame({"k": keys, "v": values}).groupby("k")["v"].quantile([0.5, 0.95]).unstack()
    for found, q in ((p50, 0.5), (p95, 0.95)):
        expected = np.full(7, np.nan)
        if len(want):
            expected[want.index.to_numpy()] = want[q].to_numpy()
        assert np.array_equal(found, expected, equal_nan=True)


# -- every option in the signature (read_table, reading_documented) -----------------------------------------------

TABLES = [runs_df, tool_calls_df, messages_df, chunks_df, reasoning_df]
READING = ["workers", "client", "lazy", "progress", "errors"]


@pytest.mark.parametrize("table", TABLES)
def test_every_table_option_is_in_the_signature(table: Any) -> None:
    parameters = list(inspect.signature(table).parameters.values())
    assert parameters[0].name == "events"
    assert [p.name for p in parameters[-5:]] == READING
    assert all(p.kind is p.KEYWORD_ONLY for p in parameters[1:])
    signature_line = pydoc.render_doc(table, renderer=pydoc.plaintext).split("\n\n", 2)[1].split("\n")[0]
    assert all(f" {option}: " in signature_line for option in READING)  # what help() shows


@pytest.mark.parametrize("table", TABLES)
def test_every_table_option_is_documented_in_order(table: Any) -> None:
    doc = inspect.getdoc(table) or ""
    section = doc.split("Parameters\n----------\n", 1)[1].split("\n\nReturns\n-------\n", 1)[0]
    documented = re.findall(r"^(\w+) : ", section, flags=re.M)
    assert documented == list(inspect.signature(table).parameters)
    assert "\nReturns\n-------\nDataFrame\n" in doc
