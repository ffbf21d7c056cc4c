"""Property tests: load_events and every table over random logs.

Random event sequences built from the real event shapes (AG-UI events, pre-1.0 THINKING_* events, AI SDK
UI-message chunks), each field the right kind of value, a random JSON value (nested, huge integers, 1e400,
10,000 levels deep) or absent; written as JSONL, recorder records, SSE, a JSON array or given as a list;
gzip-compressed or not, under a random suffix in a random case, cut at random bytes into several files, and
read in random slice sizes. Whatever comes in:

- ``errors="raise"`` raises nothing but the package's own errors; ``errors="collect"`` raises nothing;
  no warning but the package's EventLogWarning is issued (no numpy or pandas warning leaks);
- every event of a whole log is either a row or a listed problem;
- the tables' row counts agree with the events table (runs with run keys, chunks with non-empty text
  deltas, messages with message ids, reasoning with reasoning messages, tool calls with tool call ids), and
  totals_df agrees with the tables (and summarize reads them).
"""

from __future__ import annotations

import gzip
import itertools
import json
import tempfile
import warnings
from pathlib import Path
from typing import Any
from unittest import mock

import matplotlib
import pandas as pd
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from agui_notebook._errors import AguiNotebookError, EventLogWarning
from agui_notebook.logs import _read
from agui_notebook.logs._kinds import DELTA_TYPES, MESSAGE_TYPES, TOOL_CALL_TYPES
from agui_notebook.logs._load import load_events
from agui_notebook.logs._plots import (
    plot_reasoning_lengths,
    plot_run_timeline,
    plot_token_stream,
    plot_tool_latency,
)
from agui_notebook.logs._summary import summarize, totals_df
from agui_notebook.logs.tables._chunks import chunks_df
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._reasoning import reasoning_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from tests.logs.samples import T0

# -- JSON values, odd ones included ------------------------------------------------------------------------------


class Raw:
    """A JSON text written as it is: what no Python value writes (10,000 levels, 5,000 digits, 1e400)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text[:12]!r}...)"


def dumps(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dumps(v) for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(map(dumps, value)) + "]"
    return json.dumps(value, ensure_ascii=False)


def in_memory(value: Any) -> Any:
    """The value as a list of events holds it (a raw text has no Python value here: None)."""
    if isinstance(value, Raw):
        return None
    if isinstance(value, dict):
        return {k: in_memory(v) for k, v in value.items()}
    if isinstance(value, list):
        return [in_memory(v) for v in value]
    return value


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
)
ODD = st.one_of(
    st.recursive(
        SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=6,
    ),
    st.sampled_from([300, 1_100, 10_000]).map(lambda depth: Raw("[" * depth + "]" * depth)),
    st.just(Raw("9" * 5_000)),
    st.just(Raw("-1e400")),
)
"""Any JSON value: what an odd field holds."""

IDS = st.sampled_from(["m1", "m2", "c1", "c2", "r1", "r2", "t1"])
TEXT = st.text(max_size=5)
USAGE = st.lists(
    st.fixed_dictionaries(
        {"model": st.just("m")},
        optional={"inputTokens": st.integers(0, 10**6), "outputTokens": st.integers(0, 10**6)},
    ),
    max_size=2,
)
CONTENT = st.one_of(
    TEXT, st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": TEXT}), max_size=2)
)
CLAIM = st.sampled_from(['{"pydantic_ai": {"outcome": "failed"}}', "opaque", '{"pydantic_ai": 1}'])

SHAPES: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "RUN_STARTED": {"threadId": IDS, "runId": IDS, "parentRunId": IDS},
    "RUN_FINISHED": {"threadId": IDS, "runId": IDS, "usage": USAGE,
                     "outcome": st.fixed_dictionaries({"type": st.sampled_from(["success", "interrupt", "cancelled"])})},
    "RUN_ERROR": {"message": TEXT, "code": TEXT, "usage": USAGE},
    "TEXT_MESSAGE_START": {"messageId": IDS, "role": st.just("assistant")},
    "TEXT_MESSAGE_CONTENT": {"messageId": IDS, "delta": TEXT},
    "TEXT_MESSAGE_END": {"messageId": IDS},
    "TEXT_MESSAGE_CHUNK": {"messageId": IDS, "role": st.just("assistant"), "delta": TEXT},
    "REASONING_START": {"messageId": IDS},
    "REASONING_MESSAGE_START": {"messageId": IDS, "role": st.just("reasoning")},
    "REASONING_MESSAGE_CONTENT": {"messageId": IDS, "delta": TEXT},
    "REASONING_MESSAGE_END": {"messageId": IDS},
    "REASONING_MESSAGE_CHUNK": {"messageId": IDS, "delta": TEXT},
    "REASONING_END": {"messageId": IDS},
    "REASONING_ENCRYPTED_VALUE": {"subtype": st.just("message"), "entityId": IDS, "encryptedValue": CLAIM},
    "TOOL_CALL_START": {"toolCallId": IDS, "toolCallName": TEXT, "parentMessageId": IDS},
    "TOOL_CALL_ARGS": {"toolCallId": IDS, "delta": st.sampled_from(['{"a":', " 1}", "{}", "x"])},
    "TOOL_CALL_END": {"toolCallId": IDS},
    "TOOL_CALL_CHUNK": {"toolCallId": IDS, "toolCallName": TEXT, "delta": TEXT},
    "TOOL_CALL_RESULT": {"messageId": IDS, "toolCallId": IDS, "content": CONTENT, "role": st.just("tool"),
                         "error": TEXT},
    "STATE_DELTA": {"delta": st.just([{"op": "add", "path": "/a", "value": 1}])},
    "STATE_SNAPSHOT": {"snapshot": st.dictionaries(TEXT, SCALARS, max_size=2)},
    "STEP_STARTED": {"stepName": TEXT},
    "STEP_FINISHED": {"stepName": TEXT},
    "SUBAGENT_STARTED": {"subagentRunId": IDS},
    "CUSTOM": {"name": TEXT, "value": SCALARS},
    "RAW": {"event": st.dictionaries(TEXT, SCALARS, max_size=2)},
    "THINKING_START": {"title": TEXT},
    "THINKING_TEXT_MESSAGE_START": {},
    "THINKING_TEXT_MESSAGE_CONTENT": {"delta": TEXT},
    "THINKING_TEXT_MESSAGE_END": {},
    "THINKING_END": {},
    "MY_OWN_TYPE": {"messageId": IDS, "toolCallId": IDS, "delta": TEXT, "runId": IDS},
}  # fmt: skip
"""Every event type the tables read, with the fields each carries and the right kind of value for each."""

CHUNK_SHAPES: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "start": {"messageId": IDS},
    "start-step": {},
    "text-start": {"id": IDS},
    "text-delta": {"id": IDS, "delta": TEXT},
    "text-end": {"id": IDS},
    "reasoning-start": {"id": IDS},
    "reasoning-delta": {"id": IDS, "delta": TEXT},
    "reasoning-end": {"id": IDS},
    "tool-input-start": {"toolCallId": IDS, "toolName": TEXT},
    "tool-input-delta": {"toolCallId": IDS, "inputTextDelta": TEXT},
    "tool-input-available": {"toolCallId": IDS, "toolName": TEXT, "input": st.dictionaries(TEXT, SCALARS, max_size=2)},
    "tool-input-error": {"toolCallId": IDS, "toolName": TEXT, "errorText": TEXT},
    "tool-output-available": {"toolCallId": IDS, "output": SCALARS, "preliminary": st.booleans()},
    "tool-output-error": {"toolCallId": IDS, "errorText": TEXT},
    "tool-output-denied": {"toolCallId": IDS},
    "data-weather": {"data": st.dictionaries(TEXT, SCALARS, max_size=2)},
    "finish-step": {},
    "finish": {},
    "abort": {},
    "error": {"errorText": TEXT},
}  # fmt: skip
"""The AI SDK UI-message stream chunks, with their fields."""


@st.composite
def events_of(draw: st.DrawFn, shapes: dict[str, dict[str, st.SearchStrategy[Any]]]) -> dict[str, Any]:
    """One event of a random shape: each field the right kind of value (mostly), any JSON value, or absent."""
    kind = draw(st.sampled_from(sorted(shapes)))
    event: dict[str, Any] = {"type": kind}
    fields = {**shapes[kind], "timestamp": st.integers(T0, T0 + 100_000)}
    for name, right in fields.items():
        how = draw(st.integers(0, 9))
        if how < 7:
            event[name] = draw(right)
        elif how < 9:
            event[name] = draw(ODD)
    if draw(st.integers(0, 29)) == 0:
        event["type"] = draw(ODD)  # not a string: an unreadable event
    return event


LOGS = st.lists(events_of(SHAPES), max_size=30)
CHUNK_LOGS = st.builds(lambda first, rest: [first, *rest], st.just({"type": "start"}), st.lists(events_of(CHUNK_SHAPES), max_size=30))  # fmt: skip


# -- writing a log -----------------------------------------------------------------------------------------------


def received(draw: st.DrawFn, position: int) -> Any:
    how = draw(st.integers(0, 9))
    if how < 8:
        return T0 * 1_000_000 + position * 1_000 + draw(st.integers(0, 999))
    return draw(st.one_of(st.integers(-(2**70), 2**70), SCALARS))


@st.composite
def written(draw: st.DrawFn, events: list[dict[str, Any]]) -> tuple[str, bytes | list[Any]]:
    """The events in a random format: ``("items", list)`` or (format, bytes)."""
    layout = draw(st.sampled_from(["jsonl", "recorder", "sse", "array", "items"]))
    if layout == "items":
        return layout, [in_memory(event) for event in events]
    if layout == "jsonl":
        text = "".join(dumps(event) + "\n" for event in events)
    elif layout == "recorder":
        records = [{"received_ns": received(draw, i), "event": e} for i, e in enumerate(events)]
        text = "".join(dumps(record) + "\n" for record in records)
    elif layout == "sse":
        text = "".join(f"data: {dumps(event)}\n\n" for event in events)
    else:
        text = "[" + ",\n".join(map(dumps, events)) + "]"
    return layout, text.encode()


def suffix(draw: st.DrawFn, compressed: bool) -> str:
    name = draw(st.sampled_from([".jsonl", ".ndjson", ".json", ".sse", ".log", ".txt"]))
    if compressed:
        name += ".gz"
    return "".join(c.upper() if draw(st.booleans()) else c for c in name)


@st.composite
def files(draw: st.DrawFn, data: bytes) -> tuple[list[tuple[str, bytes]], bool]:
    """Files holding ``data``: compressed or not, cut at random bytes (before or after compressing) or whole.
    Also says whether the log is whole (one file, not cut)."""
    compressed = draw(st.booleans())
    cuts = sorted(draw(st.lists(st.integers(0, max(len(data), 1)), max_size=3)))
    cut_compressed = compressed and draw(st.booleans())
    if compressed and not cut_compressed:
        pieces = [gzip.compress(p, mtime=0) for p in _cut(data, cuts)]
    elif cut_compressed:
        pieces = _cut(gzip.compress(data, mtime=0), cuts)
    else:
        pieces = _cut(data, cuts)
    names = [f"part{i}{suffix(draw, compressed)}" for i in range(len(pieces))]
    return list(zip(names, pieces, strict=True)), not cuts


def _cut(data: bytes, cuts: list[int]) -> list[bytes]:
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


# -- reading it ------------------------------------------------------------------------------------------------


def loaded(source: Any, errors: str) -> pd.DataFrame | None:
    """load_events in a mode; None when ``errors="raise"`` raised the package's own error."""
    try:
        return load_events(source, errors=errors)  # type: ignore[arg-type]
    except AguiNotebookError:
        assert errors == "raise"
        return None


def check_tables(df: pd.DataFrame) -> None:
    """The tables agree with the events table, and summarize with the tables."""
    runs = runs_df(df)
    run_keys = df["run_key"]
    assert len(runs) == run_keys.nunique() and runs["run_key"].is_unique
    assert int(runs["events"].sum()) == int(run_keys.notna().sum())
    types = df["type"].astype(str)
    # Messages and calls are keyed by run; outside any run, by file.
    key = run_keys.astype(object).where(run_keys.notna(), "file " + df["source"].astype(str))

    chunks = chunks_df(df)
    assert len(chunks) == int((types.isin(DELTA_TYPES) & (df["chars"] > 0)).sum())

    messages = messages_df(df)
    in_message = types.isin(MESSAGE_TYPES) & df["message_id"].notna()
    assert len(messages) == len(
        set(zip(key[in_message], df["message_id"][in_message].astype(str), strict=True))
    )
    streamed = chunks[chunks["kind"] != "tool_args"]
    assert int(messages["chars"].sum()) == int(streamed.loc[streamed["message_id"].notna(), "chars"].sum())

    reasoning = reasoning_df(df)
    assert len(reasoning) == int((messages["kind"] == "reasoning").sum())

    calls = tool_calls_df(df)
    in_call = types.isin(TOOL_CALL_TYPES) & df["tool_call_id"].notna()
    made = in_call & (types != "TOOL_CALL_RESULT")
    pairs = set(zip(key[in_call], df["tool_call_id"][in_call].astype(str), strict=True))
    made_pairs = set(zip(key[made], df["tool_call_id"][made].astype(str), strict=True))
    assert len(made_pairs) <= len(calls) <= len(pairs)

    summarize(df)
    summary = totals_df(df).loc["all"]
    assert summary["runs"] == len(runs) and summary["tool_calls"] == len(calls)
    in_runs = streamed[streamed["run_key"].notna()]
    assert summary["chunks"] == len(in_runs)  # the totals are over runs
    assert summary["text_chars"] == in_runs.loc[in_runs["kind"] == "text", "chars"].sum()
    assert summary["reasoning_chars"] == in_runs.loc[in_runs["kind"] == "reasoning", "chars"].sum()


def strictly() -> warnings.catch_warnings:
    """Any warning but the package's own fails the test."""
    caught = warnings.catch_warnings()
    caught.__enter__()
    warnings.simplefilter("error")
    warnings.simplefilter("ignore", EventLogWarning)
    return caught


def read_everywhere(
    events: list[dict[str, Any]], layout: str, data: Any, draw_files: Any, slice_bytes: int
) -> None:
    caught = strictly()
    try:
        with mock.patch.object(_read, "_SLICE_BYTES", slice_bytes):
            if layout == "items":
                sources: list[tuple[Any, bool]] = [(data, True)]
            else:
                folder = tempfile.mkdtemp()
                named, whole = draw_files
                for name, piece in named:
                    Path(folder, name).write_bytes(piece)
                sources = [(folder, whole), (data, True)]
            for source, whole in sources:
                loaded(source, "raise")
                df = loaded(source, "collect")
                if df is None:
                    continue
                if whole and not _converted(events):
                    # Every event is a row or a problem (a JSON array that does not parse is read by element).
                    assert len(df) + len(df.attrs["errors"]) == len(events), (len(df), df.attrs["errors"])
                check_tables(df)
    finally:
        caught.__exit__(None, None, None)


def _converted(events: list[dict[str, Any]]) -> bool:
    """Whether the log is read as an AI SDK stream (its first event a UI chunk: events are made, not kept)."""
    first = events[0].get("type") if events else None
    return isinstance(first, str) and first in CHUNK_SHAPES


# -- the properties --------------------------------------------------------------------------------------------


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(st.data())
def test_random_ag_ui_logs_load_and_tabulate(data: st.DataObject) -> None:
    events = data.draw(LOGS)
    layout, written_log = data.draw(written(events))
    named = None if layout == "items" else data.draw(files(written_log))
    read_everywhere(events, layout, written_log, named, data.draw(st.sampled_from([64, 300, 4096, 1 << 20])))


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(st.data())
def test_random_ai_sdk_streams_load_and_tabulate(data: st.DataObject) -> None:
    events = data.draw(CHUNK_LOGS)
    layout, written_log = data.draw(written(events))
    named = None if layout == "items" else data.draw(files(written_log))
    read_everywhere(events, layout, written_log, named, data.draw(st.sampled_from([64, 4096])))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(LOGS)
def test_random_logs_plot(events: list[dict[str, Any]]) -> None:
    caught = strictly()
    try:
        df = load_events("".join(dumps(event) + "\n" for event in events) or "[]", errors="collect")
        has_runs = df["run_key"].notna().any()
        for plot in (plot_run_timeline, plot_token_stream):
            if has_runs:
                plt.close(plot(df).figure)
        for plot in (plot_tool_latency, plot_reasoning_lengths):
            plt.close(plot(df).figure)
    finally:
        caught.__exit__(None, None, None)


def test_the_strategies_reach_the_odd_corners() -> None:
    """The shapes name every event family the tables read, so the properties above exercise them all."""
    assert set(SHAPES) >= DELTA_TYPES | MESSAGE_TYPES | TOOL_CALL_TYPES
    assert {"RUN_STARTED", "RUN_FINISHED", "RUN_ERROR", "REASONING_ENCRYPTED_VALUE"} <= set(SHAPES)
