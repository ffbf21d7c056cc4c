"""The columns of every logs table, each declared once: its name, its meaning, its dtype, its unit and how it is
computed (after inspect_ai's ``Column``).

A table function gathers what its columns are made of (the table's *parts*: ``_RunParts`` in ``tables/_runs.py``
...) and runs the declarations (:func:`columns_of`), in this order; ``docs/metrics.md``'s tables are generated from
them (``python scripts/metrics_doc.py``), and the tests check the tables' columns and dtypes, and the doc, against
them. The events table (``load_events``) and the summaries are built by their own code; their columns are declared
here without a ``compute``.

Conventions shared by every table: ``*_at`` columns are UTC datetimes; ``*_s`` columns are seconds
(float, NaN when the events to measure from are missing); ``chars`` count Python ``str`` characters (code
points); a *chunk* is one event with a non-empty streamed ``delta`` — chunks are not tokens.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from agui_notebook._errors import OptionError

from ._arrays import category_values, group_count, seconds_between, text_column, utc, word_count


class Column(NamedTuple):
    """One column of a logs table."""

    name: str
    meaning: str
    """What the column says, on one line (docs/metrics.md shows it)."""
    dtype: str = ""
    """The pandas dtype of the column as the table gives it (``str`` is pandas' string dtype, object before 2.3)."""
    unit: str = ""
    """``s``, ``chars``, ``tokens``, ``USD`` ...; empty for a count, an id or a text."""
    compute: Callable[[Any], Any] | None = None
    """The column's values from the table's parts; None for a column built by other code (the loader)."""
    only: str = ""
    """The option the column comes with (``prices=``); empty for a column every table has."""


def names(columns: tuple[Column, ...]) -> list[str]:
    """The column names of a group, in table order."""
    return [column.name for column in columns]


def columns_of(columns: tuple[Column, ...], parts: Any, given: Collection[str] = ()) -> dict[str, Any]:
    """The table's columns, in order: each declaration run on ``parts``; the columns that come with an option
    only when it is ``given`` (``{"prices="}``)."""
    return {
        column.name: column.compute(parts)  # type: ignore[misc]  # every table column has one (a test checks)
        for column in columns
        if not column.only or column.only in given
    }


RUN_STATUSES = ("success", "error", "interrupt", "cancelled", "incomplete")
"""The categories of ``runs_df``'s ``status``, in order."""

TOOL_STATUSES = ("ok", "error", "denied", "cancelled", "pending")
"""The categories of ``tool_calls_df``'s ``status``, in order."""

RESULT_SOURCES = ("event", "snapshot", "run_input")
"""The categories of ``tool_calls_df``'s ``result_source``, in order."""

MESSAGE_KINDS = pd.CategoricalDtype(["text", "reasoning"])
"""The dtype of ``messages_df``'s ``kind``."""

CHUNK_KINDS = pd.CategoricalDtype(["text", "reasoning", "tool_args"])
"""The dtype of ``chunks_df``'s ``kind`` (the codes are ``Chunks.kind``: 0, 1, 2)."""


RUN_KEY_MEANING = "the run: its `run_id`, numbered (`r#1`, `r#2`) when several runs of the load use it"

EVENT_COLUMNS: tuple[Column, ...] = (
    Column(
        "source",
        "where the event was read from: the file path, or `<text>`, `<events>`, `<recorder>`, `<spans>`",
        dtype="category",
    ),
    Column(
        "line",
        "1-based line of the event in its file (for a JSON array or a list: its 1-based position)",
        dtype="int32",
    ),
    Column(
        "seq",
        "0-based position of the event in its run (in its source for events outside any run)",
        dtype="int32",
    ),
    Column("thread_id", "thread of the enclosing run", dtype="category"),
    Column(
        "run_id",
        "the enclosing run: the innermost RUN_STARTED not yet finished; NaN outside any run",
        dtype="category",
    ),
    Column("run_key", RUN_KEY_MEANING, dtype="category"),
    Column("type", "event type (categorical); unknown types are kept as they are", dtype="category"),
    Column(
        "time",
        "when the event happened: the recorder's receive time if recorded, else `timestamp`",
        dtype="datetime64[ns, UTC]",
    ),
    Column(
        "timestamp",
        "the event's own `timestamp` (producer clock, epoch milliseconds; a value from 1e9 to 1e11 is read as"
        " seconds, as LlamaIndex sends: in milliseconds it would be 1970 to 1973); NaT when absent",
        dtype="datetime64[ns, UTC]",
    ),
    Column(
        "t",
        "seconds since the run started (its RUN_STARTED, else its first timed event)",
        dtype="float64",
        unit="s",
    ),
    Column(
        "message_id",
        "`messageId`: the text/reasoning message, tool result message or activity",
        dtype="category",
    ),
    Column("tool_call_id", "`toolCallId`", dtype="category"),
    Column(
        "tool_call_name",
        "`toolCallName`, filled on every event of the call from its TOOL_CALL_START",
        dtype="category",
    ),
    Column("parent_message_id", "`parentMessageId` of a tool call", dtype="category"),
    Column(
        "role", "`role`, filled on a message's content and end events from its start event", dtype="category"
    ),
    Column(
        "delta",
        "the streamed text fragment (text, reasoning or tool arguments); NaN when none or empty",
        dtype="str",
    ),
    Column("chars", "length of `delta` in characters; 0 when there is none", dtype="int32", unit="chars"),
    Column("step_name", "`stepName` of STEP_STARTED / STEP_FINISHED", dtype="category"),
    Column(
        "subagent_run_id", "`subagentRunId`: the subagent invocation the event belongs to", dtype="category"
    ),
    Column(
        "event",
        "the full event as a dict, decoded on access from its raw JSON: in the log file (a large plain log), else kept in memory",
        dtype="agui_event",
    ),
)

RUN_COLUMNS: tuple[Column, ...] = (
    Column(
        "source",
        "where the run was read from",
        dtype="category",
        compute=lambda r: category_values(r.ev.col("source"), r.first),
    ),
    Column(
        "thread_id",
        "`threadId` of the run",
        dtype="category",
        compute=lambda r: category_values(r.ev.col("thread_id"), r.first),
    ),
    Column(
        "run_id",
        "`runId` of the run",
        dtype="category",
        compute=lambda r: category_values(r.ev.col("run_id"), r.first),
    ),
    Column(
        "run_key",
        RUN_KEY_MEANING,
        dtype="category",
        compute=lambda r: category_values(r.ev.col("run_key"), r.first),
    ),
    Column(
        "parent_run_id",
        "`parentRunId` from RUN_STARTED",
        dtype="str",
        compute=lambda r: text_column(r.parents),
    ),
    Column(
        "started_at",
        "time of RUN_STARTED (else of the run's first timed event)",
        dtype="datetime64[ns, UTC]",
        compute=lambda r: utc(r.started),
    ),
    Column(
        "finished_at",
        "time of RUN_FINISHED or RUN_ERROR; NaT when the run is incomplete",
        dtype="datetime64[ns, UTC]",
        compute=lambda r: utc(r.finished),
    ),
    Column(
        "status",
        "success, error, interrupt, cancelled (RUN_FINISHED outcome / RUN_ERROR), or incomplete",
        dtype="category",
        compute=lambda r: pd.Categorical(r.status, categories=list(RUN_STATUSES)),
    ),
    Column(
        "error",
        "RUN_ERROR message (with its code in brackets when given)",
        dtype="str",
        compute=lambda r: text_column(r.error),
    ),
    Column(
        "model",
        "the model(s) the run's usage entries name (`a + b` for several), else its metadata's `model`; a run"
        " that ended without usage (RUN_ERROR, cancelled, incomplete): its request's `forwardedProps.model`,"
        " else the model of its thread's previous run",
        dtype="str",
        compute=lambda r: text_column(r.models),
    ),
    Column(
        "events",
        "number of events in the run",
        dtype="int64",
        compute=lambda r: group_count(r.ev.run, r.size),
    ),
    Column(
        "duration_s",
        "end to end: started_at to finished_at",
        dtype="float64",
        unit="s",
        compute=lambda r: seconds_between(r.finished, r.started),
    ),
    Column(
        "time_to_first_text_s",
        "RUN_STARTED to the first non-empty text delta: the wait a chat user feels",
        dtype="float64",
        unit="s",
        compute=lambda r: seconds_between(r.text_first, r.started),
    ),
    Column(
        "ttft_s",
        "RUN_STARTED to the first non-empty text or reasoning delta (vLLM's TTFT over chunks: a model that"
        " reasons first makes it shorter than time_to_first_text_s)",
        dtype="float64",
        unit="s",
        compute=lambda r: seconds_between(r.stream_first, r.started),
    ),
    Column(
        "text_chars",
        "characters of text deltas",
        dtype="int64",
        unit="chars",
        compute=lambda r: group_count(r.chunks.run[r.text], r.size, weights=r.chunks.chars[r.text]).astype(
            np.int64
        ),
    ),
    Column(
        "reasoning_chars",
        "characters of reasoning deltas",
        dtype="int64",
        unit="chars",
        compute=lambda r: group_count(
            r.chunks.run[r.reasoning], r.size, weights=r.chunks.chars[r.reasoning]
        ).astype(np.int64),
    ),
    Column(
        "text_chunks",
        "number of text chunks",
        dtype="int64",
        compute=lambda r: group_count(r.chunks.run[r.text], r.size),
    ),
    Column(
        "reasoning_chunks",
        "number of reasoning chunks",
        dtype="int64",
        compute=lambda r: group_count(r.chunks.run[r.reasoning], r.size),
    ),
    Column(
        "tool_calls",
        "number of tool calls: the run's rows of tool_calls_df (a call only its MESSAGES_SNAPSHOT shows among them)",
        dtype="int64",
        compute=lambda r: r.tool_counts,
    ),
    Column(
        "tool_time_s",
        "wall time with at least one tool executing (union of TOOL_CALL_END to RESULT)",
        dtype="float64",
        unit="s",
        compute=lambda r: r.tool_time,
    ),
    Column(
        "itl_p50_s",
        "median inter-chunk latency: gap between consecutive text/reasoning chunks of a message",
        dtype="float64",
        unit="s",
        compute=lambda r: r.itl50,
    ),
    Column(
        "itl_p95_s",
        "95th percentile of the same inter-chunk gaps",
        dtype="float64",
        unit="s",
        compute=lambda r: r.itl95,
    ),
    Column(
        "chunks_per_s",
        "text and reasoning chunks after the first, per second from the first to the last",
        dtype="float64",
        unit="1/s",
        compute=lambda r: r.rate,
    ),
    Column(
        "input_tokens",
        "`inputTokens` summed over RUN_FINISHED/RUN_ERROR `usage`, else over the producer's own usage events"
        " (`usage_source`); NA when not reported",
        dtype="Int64",
        unit="tokens",
        compute=lambda r: pd.array(r.usage["input_tokens"], dtype="Int64"),
    ),
    Column(
        "output_tokens",
        "`outputTokens` summed the same way",
        dtype="Int64",
        unit="tokens",
        compute=lambda r: r.output_tokens,
    ),
    Column(
        "reasoning_tokens",
        "`reasoningTokens` (part of output_tokens)",
        dtype="Int64",
        unit="tokens",
        compute=lambda r: pd.array(r.usage["reasoning_tokens"], dtype="Int64"),
    ),
    Column(
        "cached_input_tokens",
        "`cachedInputTokens` (part of input_tokens)",
        dtype="Int64",
        unit="tokens",
        compute=lambda r: pd.array(r.usage["cached_input_tokens"], dtype="Int64"),
    ),
    Column(
        "total_tokens",
        "`totalTokens`",
        dtype="Int64",
        unit="tokens",
        compute=lambda r: pd.array(r.usage["total_tokens"], dtype="Int64"),
    ),
    Column(
        "usage_source",
        "where the token counts came from: `run_end` (RUN_FINISHED/RUN_ERROR `usage`, AG-UI's), `custom` (CUSTOM"
        " `usage` events, one per model response: Microsoft Agent Framework), `raw` (RAW events whose `event` is"
        " Agno's `ModelRequestCompleted`); a run's end with counts wins over the others; NaN without usage",
        dtype="category",
        compute=lambda r: r.usage_source,
    ),
    Column(
        "tpot_s",
        "time per output token after the first: (last chunk - first chunk) / (output_tokens - 1)",
        dtype="float64",
        unit="s",
        compute=lambda r: r.tpot,
    ),
    Column(
        "cost_usd",
        "the usage priced by `prices=` (only with `prices=`); NaN without usage or a price",
        dtype="float64",
        unit="USD",
        compute=lambda r: r.costs,
        only="prices=",
    ),
)

MESSAGE_COLUMNS: tuple[Column, ...] = (
    Column(
        "run_id",
        "run the message was streamed in",
        dtype="category",
        compute=lambda m: category_values(m.ev.col("run_id"), m.first),
    ),
    Column(
        "run_key",
        RUN_KEY_MEANING,
        dtype="category",
        compute=lambda m: category_values(m.ev.col("run_key"), m.first),
    ),
    Column("message_id", "`messageId`", dtype="category", compute=lambda m: m.message_ids),
    Column(
        "role",
        "role from the start event (`reasoning` for reasoning)",
        dtype="category",
        compute=lambda m: m.messages.role,
    ),
    Column(
        "kind",
        "text or reasoning",
        dtype="category",
        compute=lambda m: pd.Categorical.from_codes(
            m.messages.reasoning.astype(np.int8), dtype=MESSAGE_KINDS
        ),
    ),
    Column(
        "started_at",
        "first event of the message (its START, REASONING_START or first chunk)",
        dtype="datetime64[ns, UTC]",
        compute=lambda m: utc(m.messages.started[m.rows]),
    ),
    Column(
        "ended_at",
        "its END event (else its last chunk); NaT when it has neither",
        dtype="datetime64[ns, UTC]",
        compute=lambda m: utc(m.messages.ended[m.rows]),
    ),
    Column(
        "duration_s",
        "started_at to ended_at",
        dtype="float64",
        unit="s",
        compute=lambda m: seconds_between(m.messages.ended[m.rows], m.messages.started[m.rows]),
    ),
    Column("chunks", "number of chunks", dtype="int64", compute=lambda m: m.messages.chunks[m.rows]),
    Column(
        "chars",
        "characters of the message",
        dtype="int64",
        unit="chars",
        compute=lambda m: m.messages.chars[m.rows],
    ),
    Column(
        "words",
        "whitespace-separated words of the message",
        dtype="int64",
        unit="words",
        compute=lambda m: np.array([word_count(text) for text in m.texts], dtype=np.int64),
    ),
    Column("text", "the message's deltas joined", dtype="str", compute=lambda m: text_column(m.texts)),
    Column(
        "feedback",
        "the user's last rating of the answer holding the message (`up`, `down`; NaN when unrated), from a"
        " ChatWidget's `agui-notebook/feedback` records",
        dtype="category",
        compute=lambda m: m.feedback["feedback"],
    ),
    Column(
        "feedback_comment",
        "the comment given with that rating; NaN when there is none",
        dtype="str",
        compute=lambda m: m.feedback["feedback_comment"],
    ),
)

CHUNK_COLUMNS: tuple[Column, ...] = (
    Column(
        "run_id",
        "run the chunk was streamed in",
        dtype="category",
        compute=lambda c: category_values(c.ev.col("run_id"), c.rows),
    ),
    Column(
        "run_key",
        RUN_KEY_MEANING,
        dtype="category",
        compute=lambda c: category_values(c.ev.col("run_key"), c.rows),
    ),
    Column(
        "message_id",
        "message of a text or reasoning chunk",
        dtype="category",
        compute=lambda c: category_values(c.ev.col("message_id"), np.where(c.is_tool, -1, c.rows)),
    ),
    Column(
        "tool_call_id",
        "tool call of an arguments chunk",
        dtype="category",
        compute=lambda c: category_values(c.ev.col("tool_call_id"), np.where(c.is_tool, c.rows, -1)),
    ),
    Column(
        "kind",
        "text, reasoning or tool_args",
        dtype="category",
        compute=lambda c: pd.Categorical.from_codes(c.chunks.kind, dtype=CHUNK_KINDS),
    ),
    Column(
        "index",
        "0-based position of the chunk in its message or tool call",
        dtype="int64",
        compute=lambda c: c.index,
    ),
    Column("time", "time of the chunk", dtype="datetime64[ns, UTC]", compute=lambda c: utc(c.chunks.time)),
    Column(
        "t",
        "seconds since the run started",
        dtype="float64",
        unit="s",
        compute=lambda c: c.ev.frame["t"].to_numpy()[c.rows],
    ),
    Column(
        "gap_s",
        "seconds since the previous chunk of the same message or tool call; NaN for the first",
        dtype="float64",
        unit="s",
        compute=lambda c: c.chunks.gap,
    ),
    Column(
        "chars",
        "characters of the chunk",
        dtype="int64",
        unit="chars",
        compute=lambda c: c.chunks.chars.astype(np.int64),
    ),
    Column(
        "cum_chars",
        "characters of the message or tool call so far, this chunk included",
        dtype="int64",
        unit="chars",
        compute=lambda c: c.cum_chars,
    ),
    Column(
        "delta",
        "the chunk's text",
        dtype="str",
        compute=lambda c: c.ev.frame["delta"].array[c.rows] if len(c.rows) else c.ev.frame["delta"].array[:0],
    ),
)

TOOL_CALL_COLUMNS: tuple[Column, ...] = (
    Column(
        "run_id",
        "run the tool call was made in",
        dtype="category",
        compute=lambda t: category_values(t.ev.col("run_id"), t.calls.first_row),
    ),
    Column(
        "run_key",
        RUN_KEY_MEANING,
        dtype="category",
        compute=lambda t: category_values(t.ev.col("run_key"), t.calls.first_row),
    ),
    Column("tool_call_id", "`toolCallId`", dtype="category", compute=lambda t: t.calls.call_ids),
    Column("tool_name", "`toolCallName`", dtype="category", compute=lambda t: t.calls.name),
    Column(
        "parent_message_id",
        "`parentMessageId`: the assistant message holding the call",
        dtype="category",
        compute=lambda t: t.calls.parent,
    ),
    Column(
        "started_at",
        "TOOL_CALL_START (else the call's first event); NaT for a call only a MESSAGES_SNAPSHOT shows (CrewAI,"
        " LlamaIndex): such a call is listed, since the run made it, in the run of the first snapshot showing it,"
        " with its name, arguments and assistant message from there, but when it started is unknown",
        dtype="datetime64[ns, UTC]",
        compute=lambda t: utc(t.calls.started),
    ),
    Column(
        "args_end_at",
        "TOOL_CALL_END: the model finished streaming the arguments; for a call streamed as TOOL_CALL_CHUNKs (no"
        " END: LlamaIndex) or whose result came before its END (Langroid), its last START/ARGS/CHUNK event"
        " before the result",
        dtype="datetime64[ns, UTC]",
        compute=lambda t: utc(t.calls.args_end),
    ),
    Column(
        "result_at",
        "when the result arrived: its TOOL_CALL_RESULT; else the MESSAGES_SNAPSHOT whose `tool` message for the"
        " call came first; else (a ChatWidget frontend tool's) RUN_STARTED of the run whose input carried it;"
        " `result_source` says which",
        dtype="datetime64[ns, UTC]",
        compute=lambda t: utc(t.calls.result_at),
    ),
    Column(
        "args_s",
        "started_at to args_end_at: streaming the arguments",
        dtype="float64",
        unit="s",
        compute=lambda t: seconds_between(t.calls.args_end, t.calls.started),
    ),
    Column(
        "latency_s",
        "args_end_at to result_at: executing the tool; NaN for a denied call (it never ran); a cancelled call's"
        " ends when it was cancelled; a result read from a snapshot counts until the snapshot arrived (an upper"
        " bound)",
        dtype="float64",
        unit="s",
        compute=lambda t: np.where(
            t.calls.executed, seconds_between(t.calls.result_at, t.calls.args_end), np.nan
        ),
    ),
    Column(
        "total_s",
        "started_at to result_at",
        dtype="float64",
        unit="s",
        compute=lambda t: seconds_between(t.calls.result_at, t.calls.started),
    ),
    Column(
        "args_chars",
        "characters of the argument deltas (of a call only a snapshot shows: of its `function.arguments`)",
        dtype="int64",
        unit="chars",
        compute=lambda t: t.calls.args_chars,
    ),
    Column(
        "args_json_valid",
        "the joined argument deltas (or the snapshot's arguments) parse as JSON (an empty string counts as `{}`)",
        dtype="bool",
        compute=lambda t: t.calls.args_valid,
    ),
    Column(
        "args",
        "the parsed arguments; None when they are not valid JSON",
        dtype="object",
        compute=lambda t: pd.array(t.calls.arguments(), dtype=object),
    ),
    Column(
        "result_chars",
        "characters of the result content (text parts joined when it is a list)",
        dtype="int64",
        unit="chars",
        compute=lambda t: t.calls.result_chars,
    ),
    Column(
        "result", "the result content as text", dtype="str", compute=lambda t: text_column(t.calls.result)
    ),
    Column(
        "error",
        "the tool's error: an `error` field on the result, a producer failure marker, or RUN_ERROR (the call"
        " that failed a run carries its message)",
        dtype="str",
        compute=lambda t: text_column(t.calls.error),
    ),
    Column(
        "status",
        "ok (result without error), error, denied (refused by the user or client: never ran), cancelled"
        " (stopped before it returned: a sibling call failed, its run was cancelled, or its approval was"
        " cancelled by a new message), or pending (no result yet)",
        dtype="category",
        compute=lambda t: pd.Categorical(t.calls.status, categories=list(TOOL_STATUSES)),
    ),
    Column(
        "result_source",
        "where the result came from: `event` (TOOL_CALL_RESULT), `snapshot` (a `tool` message naming the call in"
        " a MESSAGES_SNAPSHOT: LlamaIndex, CrewAI, LangGraph's frontend tools; counted once however many"
        " snapshots repeat it, and never over a streamed result), `run_input` (a ChatWidget frontend tool's"
        " result, sent in the next run's input); NaN without a result",
        dtype="category",
        compute=lambda t: pd.Categorical(t.calls.result_source, categories=list(RESULT_SOURCES)),
    ),
    Column(
        "cause",
        "of a call cancelled because a sibling failed: that call's `tool_call_id` (its `error` says why)",
        dtype="str",
        compute=lambda t: text_column(t.calls.cause),
    ),
)

REASONING_COLUMNS: tuple[Column, ...] = (
    Column(
        "run_id",
        "run the reasoning was streamed in",
        dtype="category",
        compute=lambda m: category_values(m.ev.col("run_id"), m.first),
    ),
    Column(
        "run_key",
        RUN_KEY_MEANING,
        dtype="category",
        compute=lambda m: category_values(m.ev.col("run_key"), m.first),
    ),
    Column(
        "message_id",
        "`messageId` of the reasoning message (or span)",
        dtype="category",
        compute=lambda m: m.message_ids,
    ),
    Column(
        "started_at",
        "REASONING_START or REASONING_MESSAGE_START, whichever came first",
        dtype="datetime64[ns, UTC]",
        compute=lambda m: utc(m.messages.started[m.rows]),
    ),
    Column(
        "ended_at",
        "REASONING_MESSAGE_END or REASONING_END, whichever came last (else its last chunk)",
        dtype="datetime64[ns, UTC]",
        compute=lambda m: utc(m.messages.ended[m.rows]),
    ),
    Column(
        "duration_s",
        "started_at to ended_at",
        dtype="float64",
        unit="s",
        compute=lambda m: seconds_between(m.messages.ended[m.rows], m.messages.started[m.rows]),
    ),
    Column(
        "chunks", "number of reasoning chunks", dtype="int64", compute=lambda m: m.messages.chunks[m.rows]
    ),
    Column(
        "chars",
        "characters of reasoning",
        dtype="int64",
        unit="chars",
        compute=lambda m: m.messages.chars[m.rows],
    ),
    Column(
        "words",
        "whitespace-separated words of reasoning",
        dtype="int64",
        unit="words",
        compute=lambda m: np.array([word_count(text) for text in m.texts], dtype=np.int64),
    ),
    Column(
        "encrypted",
        "a REASONING_ENCRYPTED_VALUE was attached to the message",
        dtype="bool",
        compute=lambda m: m.encrypted,
    ),
    Column(
        "tokens",
        "tokens of the reasoning text by the given tokenizer (only with `tokenizer=`)",
        dtype="int64",
        unit="tokens",
        compute=lambda m: m.tokens,
        only="tokenizer=",
    ),
)

SUMMARY_DISTRIBUTIONS: tuple[Column, ...] = (
    Column(
        "time_to_first_text_s",
        "time to first text chunk, per run: the wait a chat user feels",
        dtype="",
        unit="s",
    ),
    Column(
        "ttft_s",
        "time to first text or reasoning chunk, per run (vLLM's TTFT, chunk-based)",
        dtype="",
        unit="s",
    ),
    Column(
        "inter_chunk_latency_s",
        "gaps between consecutive text/reasoning chunks, all runs pooled (ITL over chunks)",
        dtype="",
        unit="s",
    ),
    Column(
        "tpot_s",
        "time per output token after the first, per run with output tokens (vLLM's TPOT)",
        dtype="",
        unit="s",
    ),
    Column("e2e_latency_s", "run duration, per finished run (vLLM's E2EL)", dtype="", unit="s"),
    Column("chunks_per_s", "streaming rate of chunks, per run", dtype="", unit="1/s"),
    Column(
        "tool_latency_s",
        "TOOL_CALL_END to TOOL_CALL_RESULT, per tool call that ran (not denied ones)",
        dtype="",
        unit="s",
    ),
    Column("reasoning_duration_s", "duration of each reasoning message", dtype="", unit="s"),
    Column(
        "cost_usd", "cost of each run with a price (only when the runs have `cost_usd`)", dtype="", unit="USD"
    ),
)
"""The rows of :func:`summarize`, in order."""

SUMMARY_STATISTICS: tuple[str, ...] = ("mean", "p50", "p90", "p99")
"""The statistics :func:`summarize` reports for each row after its ``count`` (numpy's linear percentiles)."""

SUMMARY_TOTALS: tuple[Column, ...] = (
    Column("runs", "number of runs", dtype="int64"),
    Column("runs_success", "runs that finished successfully", dtype="int64"),
    Column("runs_error", "runs that ended with RUN_ERROR", dtype="int64"),
    Column("runs_interrupt", "runs that finished with an interrupt outcome", dtype="int64"),
    Column("runs_cancelled", "runs that finished with a cancelled outcome", dtype="int64"),
    Column("runs_incomplete", "runs with no RUN_FINISHED or RUN_ERROR", dtype="int64"),
    Column(
        "span_s",
        "first run start to last run end (an incomplete run counts its start)",
        dtype="float64",
        unit="s",
    ),
    Column("input_tokens", "input tokens over all runs that reported usage", dtype="Int64", unit="tokens"),
    Column("output_tokens", "output tokens over all runs that reported usage", dtype="Int64", unit="tokens"),
    Column(
        "runs_without_usage",
        "runs that reported no usage: left out of the token totals (a warning says so when others did)",
        dtype="int64",
    ),
    Column(
        "busy_s",
        "the runs' durations summed: time spent in runs (idle time between them left out; overlapping runs"
        " each count)",
        dtype="float64",
        unit="s",
    ),
    Column(
        "output_tokens_per_s",
        "output tokens per second of run time: over the finished runs that reported output tokens, their"
        " tokens / their durations summed (not / span_s, which includes the idle time between runs)",
        dtype="float64",
        unit="tokens/s",
    ),
    Column(
        "cost_usd",
        "cost over the runs with a price (only when the runs have `cost_usd`)",
        dtype="float64",
        unit="USD",
    ),
    Column(
        "runs_without_cost",
        "runs left out of cost_usd: no usage or no price (only when the runs have `cost_usd`)",
        dtype="int64",
    ),
    Column("text_chars", "characters of text over all runs", dtype="int64", unit="chars"),
    Column("reasoning_chars", "characters of reasoning over all runs", dtype="int64", unit="chars"),
    Column("chunks", "text and reasoning chunks over all runs", dtype="int64"),
    Column("tool_calls", "tool calls over all runs", dtype="int64"),
    Column("tool_errors", "tool calls with status error", dtype="int64"),
    Column("tool_denied", "tool calls with status denied", dtype="int64"),
    Column("tool_cancelled", "tool calls with status cancelled (not errors: see `cause`)", dtype="int64"),
)
"""The columns of :func:`totals_df`, in order."""


TABLES: dict[str, tuple[Column, ...]] = {
    "load_events": EVENT_COLUMNS,
    "runs_df": RUN_COLUMNS,
    "messages_df": MESSAGE_COLUMNS,
    "chunks_df": CHUNK_COLUMNS,
    "tool_calls_df": TOOL_CALL_COLUMNS,
    "reasoning_df": REASONING_COLUMNS,
    "summarize (rows; columns `count`, `mean`, `p50`, `p90`, `p99`)": SUMMARY_DISTRIBUTIONS,
    "totals_df": SUMMARY_TOTALS,
}


def markdown_table(columns: tuple[Column, ...]) -> str:
    """A markdown table of a column group, as it appears in docs/metrics.md.

    >>> print(markdown_table((Column("ttft_s", "time to first chunk", dtype="float64", unit="s"),)))
    | column | dtype | unit | meaning |
    | --- | --- | --- | --- |
    | `ttft_s` | float64 | s | time to first chunk |
    """
    rows = ["| column | dtype | unit | meaning |", "| --- | --- | --- | --- |"]
    for column in columns:
        meaning = column.meaning.replace("|", "\\|")
        if column.only:
            meaning += f" (only with `{column.only}`)" if column.only not in meaning else ""
        rows.append(f"| `{column.name}` | {column.dtype} | {column.unit} | {meaning} |")
    return "\n".join(rows)


def markdown_tables() -> str:
    """Every table's columns as markdown sections, the generated part of docs/metrics.md."""
    return "\n\n".join(f"### {title}\n\n{markdown_table(columns)}" for title, columns in TABLES.items())


GENERATED_START = (
    "<!-- generated from agui_notebook/logs/_columns.py by `python scripts/metrics_doc.py`: edit the"
    " declarations there, not this part; tests/logs/test_columns.py checks it -->"
)
GENERATED_END = "<!-- end of the generated columns -->"


def metrics_doc(doc: str) -> str:
    """docs/metrics.md (its text ``doc``) with the part between the markers generated again from the
    declarations: the doc as the script writes it."""
    head, start, rest = doc.partition(GENERATED_START)
    _, end, tail = rest.partition(GENERATED_END)
    if not start or not end:
        raise OptionError("docs/metrics.md has lost its generated part's markers")
    return f"{head}{GENERATED_START}\n\n{markdown_tables()}\n\n{GENERATED_END}{tail}"
