"""The columns of every logs table, each declared once with its one-line meaning.

The tables build their columns in this order, ``docs/metrics.md`` is generated from these tuples
(``python -m agui_notebook.logs._columns``) and the tests check both against them.

Conventions shared by every table: ``*_at`` columns are UTC datetimes; ``*_s`` columns are seconds
(float, NaN when the events to measure from are missing); ``chars`` count Python ``str`` characters (code
points); a *chunk* is one event with a non-empty streamed ``delta`` — chunks are not tokens.
"""

from __future__ import annotations

from typing import NamedTuple


class Column(NamedTuple):
    """One column of a logs table: its name and what it means."""

    name: str
    meaning: str


def names(columns: tuple[Column, ...]) -> list[str]:
    """The column names of a group, in table order."""
    return [column.name for column in columns]


RUN_KEY_MEANING = "the run: its `run_id`, numbered (`r#1`, `r#2`) when several runs of the load use it"

EVENT_COLUMNS: tuple[Column, ...] = (
    Column("source", "where the event was read from: the file path, or `<text>`, `<events>`, `<recorder>`"),
    Column(
        "line", "1-based line of the event in its file (for a JSON array or a list: its 1-based position)"
    ),
    Column("seq", "0-based position of the event in its run (in its source for events outside any run)"),
    Column("thread_id", "thread of the enclosing run"),
    Column("run_id", "the enclosing run: the innermost RUN_STARTED not yet finished; NaN outside any run"),
    Column("run_key", RUN_KEY_MEANING),
    Column("type", "event type (categorical); unknown types are kept as they are"),
    Column("time", "when the event happened: the recorder's receive time if recorded, else `timestamp`"),
    Column("timestamp", "the event's own `timestamp` (producer clock, milliseconds); NaT when absent"),
    Column("t", "seconds since the run started (its RUN_STARTED, else its first timed event)"),
    Column("message_id", "`messageId`: the text/reasoning message, tool result message or activity"),
    Column("tool_call_id", "`toolCallId`"),
    Column("tool_call_name", "`toolCallName`, filled on every event of the call from its TOOL_CALL_START"),
    Column("parent_message_id", "`parentMessageId` of a tool call"),
    Column("role", "`role`, filled on a message's content and end events from its start event"),
    Column("delta", "the streamed text fragment (text, reasoning or tool arguments); NaN when none or empty"),
    Column("chars", "length of `delta` in characters; 0 when there is none"),
    Column("step_name", "`stepName` of STEP_STARTED / STEP_FINISHED"),
    Column("subagent_run_id", "`subagentRunId`: the subagent invocation the event belongs to"),
    Column("event", "the full event as a dict, decoded on access from the raw JSON kept in memory"),
)

RUN_COLUMNS: tuple[Column, ...] = (
    Column("source", "where the run was read from"),
    Column("thread_id", "`threadId` of the run"),
    Column("run_id", "`runId` of the run"),
    Column("run_key", RUN_KEY_MEANING),
    Column("parent_run_id", "`parentRunId` from RUN_STARTED"),
    Column("started_at", "time of RUN_STARTED (else of the run's first timed event)"),
    Column("finished_at", "time of RUN_FINISHED or RUN_ERROR; NaT when the run is incomplete"),
    Column(
        "status", "success, error, interrupt, cancelled (RUN_FINISHED outcome / RUN_ERROR), or incomplete"
    ),
    Column("error", "RUN_ERROR message (with its code in brackets when given)"),
    Column(
        "model",
        "the model(s) the run's usage entries name (`a + b` for several), else its metadata's `model`",
    ),
    Column("events", "number of events in the run"),
    Column("duration_s", "end to end: started_at to finished_at"),
    Column("ttft_s", "RUN_STARTED to the first non-empty text or reasoning delta"),
    Column("time_to_first_text_s", "RUN_STARTED to the first non-empty text delta"),
    Column("text_chars", "characters of text deltas"),
    Column("reasoning_chars", "characters of reasoning deltas"),
    Column("text_chunks", "number of text chunks"),
    Column("reasoning_chunks", "number of reasoning chunks"),
    Column("tool_calls", "number of tool calls started"),
    Column("tool_time_s", "wall time with at least one tool executing (union of TOOL_CALL_END to RESULT)"),
    Column(
        "itl_p50_s", "median inter-chunk latency: gap between consecutive text/reasoning chunks of a message"
    ),
    Column("itl_p95_s", "95th percentile of the same inter-chunk gaps"),
    Column(
        "chunks_per_s", "text and reasoning chunks after the first, per second from the first to the last"
    ),
    Column("input_tokens", "`inputTokens` summed over RUN_FINISHED/RUN_ERROR `usage`; NA when not reported"),
    Column("output_tokens", "`outputTokens` summed the same way"),
    Column("reasoning_tokens", "`reasoningTokens` (part of output_tokens)"),
    Column("cached_input_tokens", "`cachedInputTokens` (part of input_tokens)"),
    Column("total_tokens", "`totalTokens`"),
    Column(
        "tpot_s", "time per output token after the first: (last chunk - first chunk) / (output_tokens - 1)"
    ),
    Column("cost_usd", "the usage priced by `prices=` (only with `prices=`); NaN without usage or a price"),
)

MESSAGE_COLUMNS: tuple[Column, ...] = (
    Column("run_id", "run the message was streamed in"),
    Column("run_key", RUN_KEY_MEANING),
    Column("message_id", "`messageId`"),
    Column("role", "role from the start event (`reasoning` for reasoning)"),
    Column("kind", "text or reasoning"),
    Column("started_at", "first event of the message (its START, REASONING_START or first chunk)"),
    Column("ended_at", "its END event (else its last chunk); NaT when it has neither"),
    Column("duration_s", "started_at to ended_at"),
    Column("chunks", "number of chunks"),
    Column("chars", "characters of the message"),
    Column("words", "whitespace-separated words of the message"),
    Column("text", "the message's deltas joined"),
    Column(
        "feedback",
        "the user's last rating of the answer holding the message (`up`, `down`; NaN when unrated), from a"
        " ChatWidget's `agui-notebook/feedback` records",
    ),
    Column("feedback_comment", "the comment given with that rating; NaN when there is none"),
)

CHUNK_COLUMNS: tuple[Column, ...] = (
    Column("run_id", "run the chunk was streamed in"),
    Column("run_key", RUN_KEY_MEANING),
    Column("message_id", "message of a text or reasoning chunk"),
    Column("tool_call_id", "tool call of an arguments chunk"),
    Column("kind", "text, reasoning or tool_args"),
    Column("index", "0-based position of the chunk in its message or tool call"),
    Column("time", "time of the chunk"),
    Column("t", "seconds since the run started"),
    Column("gap_s", "seconds since the previous chunk of the same message or tool call; NaN for the first"),
    Column("chars", "characters of the chunk"),
    Column("cum_chars", "characters of the message or tool call so far, this chunk included"),
    Column("delta", "the chunk's text"),
)

TOOL_CALL_COLUMNS: tuple[Column, ...] = (
    Column("run_id", "run the tool call was made in"),
    Column("run_key", RUN_KEY_MEANING),
    Column("tool_call_id", "`toolCallId`"),
    Column("tool_name", "`toolCallName`"),
    Column("parent_message_id", "`parentMessageId`: the assistant message holding the call"),
    Column("started_at", "TOOL_CALL_START (else the call's first event)"),
    Column("args_end_at", "TOOL_CALL_END: the model finished streaming the arguments"),
    Column(
        "result_at",
        "TOOL_CALL_RESULT (a ChatWidget frontend tool's: RUN_STARTED of the run whose input carried it)",
    ),
    Column("args_s", "started_at to args_end_at: streaming the arguments"),
    Column("latency_s", "args_end_at to result_at: executing the tool; NaN for a denied call (it never ran)"),
    Column("total_s", "started_at to result_at"),
    Column("args_chars", "characters of the argument deltas"),
    Column("args_json_valid", "the joined argument deltas parse as JSON (an empty string counts as `{}`)"),
    Column("args", "the parsed arguments; None when they are not valid JSON"),
    Column("result_chars", "characters of the result content (text parts joined when it is a list)"),
    Column("result", "the result content as text"),
    Column(
        "error", "the tool's error: an `error` field on the result, a producer failure marker, or RUN_ERROR"
    ),
    Column(
        "status",
        "ok (result without error), error, denied (refused by the user or client: never ran), or pending"
        " (no result yet)",
    ),
)

REASONING_COLUMNS: tuple[Column, ...] = (
    Column("run_id", "run the reasoning was streamed in"),
    Column("run_key", RUN_KEY_MEANING),
    Column("message_id", "`messageId` of the reasoning message (or span)"),
    Column("started_at", "REASONING_START or REASONING_MESSAGE_START, whichever came first"),
    Column("ended_at", "REASONING_MESSAGE_END or REASONING_END, whichever came last (else its last chunk)"),
    Column("duration_s", "started_at to ended_at"),
    Column("chunks", "number of reasoning chunks"),
    Column("chars", "characters of reasoning"),
    Column("words", "whitespace-separated words of reasoning"),
    Column("encrypted", "a REASONING_ENCRYPTED_VALUE was attached to the message"),
    Column("tokens", "tokens of the reasoning text by the given tokenizer (only with `tokenizer=`)"),
)

SUMMARY_DISTRIBUTIONS: tuple[Column, ...] = (
    Column("ttft_s", "time to first text or reasoning chunk, per run (vLLM's TTFT, chunk-based)"),
    Column("time_to_first_text_s", "time to first text chunk, per run"),
    Column(
        "inter_chunk_latency_s",
        "gaps between consecutive text/reasoning chunks, all runs pooled (ITL over chunks)",
    ),
    Column("tpot_s", "time per output token after the first, per run with output tokens (vLLM's TPOT)"),
    Column("e2e_latency_s", "run duration, per finished run (vLLM's E2EL)"),
    Column("chunks_per_s", "streaming rate of chunks, per run"),
    Column("tool_latency_s", "TOOL_CALL_END to TOOL_CALL_RESULT, per tool call that ran (not denied ones)"),
    Column("reasoning_duration_s", "duration of each reasoning message"),
    Column("cost_usd", "cost of each run with a price (only when the runs have `cost_usd`)"),
)
"""The rows of :func:`summarize`, in order."""

SUMMARY_STATISTICS: tuple[str, ...] = ("mean", "p50", "p90", "p99")
"""The statistics :func:`summarize` reports for each row after its ``count`` (numpy's linear percentiles)."""

SUMMARY_TOTALS: tuple[Column, ...] = (
    Column("runs", "number of runs"),
    Column("runs_success", "runs that finished successfully"),
    Column("runs_error", "runs that ended with RUN_ERROR"),
    Column("runs_interrupt", "runs that finished with an interrupt outcome"),
    Column("runs_cancelled", "runs that finished with a cancelled outcome"),
    Column("runs_incomplete", "runs with no RUN_FINISHED or RUN_ERROR"),
    Column("span_s", "first run start to last run end (an incomplete run counts its start)"),
    Column("input_tokens", "input tokens over all runs that reported usage"),
    Column("output_tokens", "output tokens over all runs that reported usage"),
    Column("output_tokens_per_s", "output_tokens / span_s"),
    Column("cost_usd", "cost over the runs with a price (only when the runs have `cost_usd`)"),
    Column("text_chars", "characters of text over all runs"),
    Column("reasoning_chars", "characters of reasoning over all runs"),
    Column("chunks", "text and reasoning chunks over all runs"),
    Column("tool_calls", "tool calls over all runs"),
    Column("tool_errors", "tool calls with status error"),
    Column("tool_denied", "tool calls with status denied"),
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
    """A markdown table of a column group, as it appears in docs/metrics.md."""
    rows = ["| column | meaning |", "| --- | --- |"]
    for column in columns:
        meaning = column.meaning.replace("|", "\\|")
        rows.append(f"| `{column.name}` | {meaning} |")
    return "\n".join(rows)


def markdown_tables() -> str:
    """Every table's columns as markdown sections, the generated part of docs/metrics.md."""
    return "\n\n".join(f"### {title}\n\n{markdown_table(columns)}" for title, columns in TABLES.items())


if __name__ == "__main__":
    print(markdown_tables())
