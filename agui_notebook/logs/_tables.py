"""The analysis tables, each a function of the events table (``load_events``) or of anything it accepts.

Every table groups the events table's rows with integer keys (a run is its source and ``run_id``; a message
its run and ``messageId``; a tool call its run and ``toolCallId``) and aggregates with pandas' grouped
reductions, so a million events take well under a second per table. Only the few events whose payload
matters beyond the columns (RUN_FINISHED, RUN_ERROR, TOOL_CALL_RESULT, REASONING_ENCRYPTED_VALUE and
RUN_STARTED) are decoded from the ``event`` column. Column meanings are in ``_columns`` and docs/metrics.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import orjson
import pandas as pd

from agui_notebook.agui._tool_outcome import UNSUCCESSFUL_OUTCOMES, claimed_outcome

from ._columns import (
    CHUNK_COLUMNS,
    MESSAGE_COLUMNS,
    REASONING_COLUMNS,
    RUN_COLUMNS,
    TOOL_CALL_COLUMNS,
    names,
)
from ._kinds import (
    MESSAGE_END_TYPES,
    MESSAGE_TYPES,
    REASONING_DELTA_TYPES,
    REASONING_TYPES,
    RUN_END_TYPES,
    TEXT_DELTA_TYPES,
    TOOL_ARGS_TYPES,
    TOOL_CALL_START_TYPES,
    TOOL_CALL_TYPES,
)
from ._load import events_table

__all__ = ["chunks_df", "messages_df", "reasoning_df", "runs_df", "tool_calls_df"]

_NAT = np.iinfo(np.int64).min
_USAGE_KEYS = {
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
    "reasoning_tokens": "reasoningTokens",
    "cached_input_tokens": "cachedInputTokens",
    "total_tokens": "totalTokens",
}


# -- shared plumbing -------------------------------------------------------------------------------------------


class _Events:
    """The events table as numpy arrays, with the integer keys every table groups by."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame
        self.n = len(frame)
        self.type_names = list(frame["type"].cat.categories)
        self.types = frame["type"].cat.codes.to_numpy()
        self.time = _ns(frame["time"])
        self.chars = frame["chars"].to_numpy()
        source = frame["source"].cat.codes.to_numpy().astype(np.int64)
        run = frame["run_id"].cat.codes.to_numpy().astype(np.int64)
        raw = np.where(run >= 0, source * (len(frame["run_id"].cat.categories) + 1) + run, -1)
        # Compact run keys 0..runs-1 in order of first appearance.
        self.run_first_row, self.run = _compact(raw)
        self.runs = len(self.run_first_row)

    def mask(self, wanted: frozenset[str]) -> np.ndarray:
        lookup = np.array([name in wanted for name in self.type_names] + [False], dtype=bool)
        return lookup[self.types]

    def owner(self, column: str) -> np.ndarray:
        """Key of (run, id column) per row; -1 where the id is missing."""
        ids = self.frame[column].cat.codes.to_numpy().astype(np.int64)
        raw = np.where(ids >= 0, (self.run + 1) * (len(self.frame[column].cat.categories) + 1) + ids, -1)
        return raw

    def decode(self, rows: np.ndarray) -> list[Any]:
        array = self.frame["event"].array
        return [array[int(i)] for i in rows]


def _ns(column: pd.Series) -> np.ndarray:
    return column.to_numpy(dtype="datetime64[ns]").view(np.int64)


def _utc(ns: np.ndarray) -> pd.DatetimeIndex:
    return pd.DatetimeIndex(np.asarray(ns, dtype=np.int64).view("M8[ns]")).tz_localize("UTC")


def _compact(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Renumber non-negative keys 0..k-1 by first appearance; returns (first row of each, new keys)."""
    valid = raw >= 0
    if not valid.any():
        return np.empty(0, dtype=np.int64), np.full(len(raw), -1, dtype=np.int64)
    rows = np.flatnonzero(valid)
    codes, uniques = pd.factorize(raw[valid])
    keys = np.full(len(raw), -1, dtype=np.int64)
    keys[rows] = codes
    first = np.full(len(uniques), len(raw), dtype=np.int64)
    np.minimum.at(first, codes, rows)
    return first, keys


def _seconds(later: np.ndarray, earlier: np.ndarray) -> np.ndarray:
    out = (later - earlier) / 1e9
    return np.where((later == _NAT) | (earlier == _NAT), np.nan, out)


def _group_min(keys: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Per-key minimum of int64 times, ignoring NaT; NaT where a key has none."""
    out = np.full(size, np.iinfo(np.int64).max, dtype=np.int64)
    valid = (keys >= 0) & (values != _NAT)
    np.minimum.at(out, keys[valid], values[valid])
    out[out == np.iinfo(np.int64).max] = _NAT
    return out


def _group_max(keys: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    out = np.full(size, _NAT, dtype=np.int64)
    valid = (keys >= 0) & (values != _NAT)
    np.maximum.at(out, keys[valid], values[valid])
    return out


def _group_count(keys: np.ndarray, size: int, weights: np.ndarray | None = None) -> np.ndarray:
    valid = keys >= 0
    counted = np.bincount(keys[valid], weights=None if weights is None else weights[valid], minlength=size)
    return counted[:size] if weights is not None else counted[:size].astype(np.int64)


def _first_in_group(keys: np.ndarray, rows: np.ndarray, size: int) -> np.ndarray:
    """The first of ``rows`` (ascending) for each key, -1 where none."""
    out = np.full(size, -1, dtype=np.int64)
    if len(rows):
        k = keys[rows]
        ok = k >= 0
        # Reversed so that the earliest row is written last and wins.
        out[k[ok][::-1]] = rows[ok][::-1]
    return out


def _last_in_group(keys: np.ndarray, rows: np.ndarray, size: int) -> np.ndarray:
    out = np.full(size, -1, dtype=np.int64)
    if len(rows):
        k = keys[rows]
        ok = k >= 0
        out[k[ok]] = rows[ok]
    return out


def _take(values: np.ndarray, index: np.ndarray, fill: Any) -> np.ndarray:
    out = (
        np.where(index >= 0, values[np.maximum(index, 0)], fill) if len(values) else np.full(len(index), fill)
    )
    return out


def _category_values(column: pd.Series, rows: np.ndarray) -> pd.Series:
    """The values of a categorical column at rows (-1 = missing), as a categorical of the same categories."""
    codes = column.cat.codes.to_numpy()
    picked = np.where(rows >= 0, codes[np.maximum(rows, 0)], -1) if len(codes) else np.full(len(rows), -1)
    return pd.Categorical.from_codes(picked, dtype=column.dtype)


def _strings(values: list[Any]) -> Any:
    """A text column (None for missing), in pandas' ``str`` dtype where it has one."""
    array = np.array([np.nan if v is None else v for v in values], dtype=object)
    try:
        return pd.array(array, dtype=pd.StringDtype("python", na_value=np.nan))
    except TypeError:  # pandas before 2.3
        return array


def _deltas(frame: pd.DataFrame) -> np.ndarray:
    return frame["delta"].to_numpy(dtype=object)


def _words(text: str) -> int:
    return len(text.split())


# -- chunks -------------------------------------------------------------------------------------------------


class _Chunks:
    """Every non-empty streamed delta, grouped by the message or tool call it belongs to."""

    def __init__(self, ev: _Events) -> None:
        text = ev.mask(TEXT_DELTA_TYPES)
        reasoning = ev.mask(REASONING_DELTA_TYPES)
        tool = ev.mask(TOOL_ARGS_TYPES)
        rows = np.flatnonzero((text | reasoning | tool) & (ev.chars > 0))
        self.rows = rows
        self.kind = np.where(tool[rows], 2, np.where(reasoning[rows], 1, 0)).astype(np.int8)
        message_owner = ev.owner("message_id")[rows]
        call_owner = ev.owner("tool_call_id")[rows]
        raw = np.where(self.kind == 2, np.where(call_owner >= 0, call_owner * 2 + 1, -1), message_owner * 2)
        raw = np.where((self.kind != 2) & (message_owner < 0), -1, raw)
        self.first_row, self.owner = _compact(raw)
        self.time = ev.time[rows]
        self.chars = ev.chars[rows].astype(np.int64)
        self.run = ev.run[rows]
        # Position, running length and gap within each owner: sort by owner (stable keeps stream order).
        order = np.argsort(self.owner, kind="stable")
        owner = self.owner[order]
        time = self.time[order]
        chars = self.chars[order]
        same = np.zeros(len(rows), dtype=bool)
        same[1:] = owner[1:] == owner[:-1]
        starts = np.flatnonzero(~same)
        lengths = np.diff(np.append(starts, len(rows)))
        total = np.cumsum(chars)
        index = np.empty(len(rows), dtype=np.int64)
        cum = np.empty(len(rows), dtype=np.int64)
        gap = np.full(len(rows), np.nan)
        index[order] = np.arange(len(rows)) - np.repeat(starts, lengths)
        cum[order] = total - np.repeat(total[starts] - chars[starts], lengths)
        previous = np.empty(len(rows), dtype=np.int64)
        previous[:1] = _NAT
        previous[1:] = time[:-1]
        timed = same & (time != _NAT) & (previous != _NAT) & (owner >= 0)
        gap_sorted = np.full(len(rows), np.nan)
        gap_sorted[timed] = (time[timed] - previous[timed]) / 1e9
        gap[order] = gap_sorted
        self.index = index
        self.cum_chars = cum
        self.gap = gap


def _join_by_key(keys: np.ndarray, rows: np.ndarray, deltas: np.ndarray, size: int) -> list[str]:
    """The deltas at ``rows`` joined per key (in row order)."""
    texts = [""] * size
    valid = keys >= 0
    keys, rows = keys[valid], rows[valid]
    if len(rows):
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        bounds = np.flatnonzero(np.diff(sorted_keys)) + 1
        pieces = deltas[rows[order]]
        for k, part in zip(sorted_keys[np.r_[0, bounds]].tolist(), np.split(pieces, bounds), strict=True):
            texts[k] = "".join(part)
    return texts


# -- tables ----------------------------------------------------------------------------------------------------


def chunks_df(events: Any) -> pd.DataFrame:
    """One row per streamed delta (text, reasoning, tool arguments), with its gap and running length.

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.chunks_df("run.jsonl").groupby("kind").gap_s.describe()  # doctest: +SKIP
    """
    frame = events_table(events)
    ev = _Events(frame)
    chunks = _Chunks(ev)
    rows = chunks.rows
    is_tool = chunks.kind == 2
    kind = pd.Categorical.from_codes(chunks.kind, categories=["text", "reasoning", "tool_args"])
    out = pd.DataFrame(
        {
            "run_id": _category_values(frame["run_id"], rows),
            "message_id": _category_values(frame["message_id"], np.where(is_tool, -1, rows)),
            "tool_call_id": _category_values(frame["tool_call_id"], np.where(is_tool, rows, -1)),
            "kind": kind,
            "index": chunks.index.astype(np.int64),
            "time": _utc(chunks.time),
            "t": frame["t"].to_numpy()[rows],
            "gap_s": chunks.gap,
            "chars": chunks.chars,
            "cum_chars": chunks.cum_chars.astype(np.int64),
            "delta": frame["delta"].array[rows] if len(rows) else frame["delta"].array[:0],
        }
    )
    return out[names(CHUNK_COLUMNS)]


class _Messages:
    """Per text/reasoning message: its events' times, chunks and text."""

    def __init__(self, ev: _Events, chunks: _Chunks) -> None:
        frame = ev.frame
        in_message = ev.mask(MESSAGE_TYPES)
        owner = np.where(in_message, ev.owner("message_id"), -1)
        self.first_row, key = _compact(owner)
        size = len(self.first_row)
        self.size = size
        self.key = key
        self.reasoning = np.zeros(size, dtype=bool)
        reasoning_rows = np.flatnonzero(ev.mask(REASONING_TYPES) & (key >= 0))
        self.reasoning[key[reasoning_rows]] = True
        self.started = _group_min(key, ev.time, size)
        end_rows = np.flatnonzero(ev.mask(MESSAGE_END_TYPES) & (key >= 0))
        ended = _group_max(key[end_rows], ev.time[end_rows], size)
        # Chunks of this message: text/reasoning kinds only; map chunk owners to message keys.
        message_chunks = chunks.kind != 2
        chunk_rows = chunks.rows[message_chunks]
        chunk_key = key[chunk_rows]
        self.chunks = _group_count(chunk_key, size)
        self.chars = _group_count(chunk_key, size, weights=chunks.chars[message_chunks]).astype(np.int64)
        last_chunk = _group_max(chunk_key, ev.time[chunk_rows], size)
        self.ended = np.where(ended != _NAT, ended, last_chunk)
        role_rows = _first_in_group(
            key, np.flatnonzero((frame["role"].cat.codes.to_numpy() >= 0) & (key >= 0)), size
        )
        self.role = _category_values(frame["role"], role_rows)
        self.run = ev.run[self.first_row] if size else np.empty(0, dtype=np.int64)
        self.text = _join_by_key(chunk_key, chunk_rows, _deltas(frame), size)


def _message_frame(ev: _Events, messages: _Messages, rows: np.ndarray) -> dict[str, Any]:
    frame = ev.frame
    first = messages.first_row[rows]
    return {
        "run_id": _category_values(frame["run_id"], first),
        "message_id": _category_values(frame["message_id"], first),
        "started_at": _utc(messages.started[rows]),
        "ended_at": _utc(messages.ended[rows]),
        "duration_s": _seconds(messages.ended[rows], messages.started[rows]),
        "chunks": messages.chunks[rows],
        "chars": messages.chars[rows],
        "words": np.array([_words(messages.text[i]) for i in rows], dtype=np.int64),
        "text": _strings([messages.text[i] for i in rows]),
    }


def messages_df(events: Any) -> pd.DataFrame:
    """One row per text or reasoning message: timing, chunks, length and the text itself.

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.messages_df("run.jsonl").query("kind == 'text'")[["duration_s", "chars"]]  # doctest: +SKIP
    """
    ev = _Events(events_table(events))
    messages = _Messages(ev, _Chunks(ev))
    rows = np.arange(messages.size)
    columns = _message_frame(ev, messages, rows)
    columns["role"] = messages.role
    columns["kind"] = pd.Categorical.from_codes(
        messages.reasoning.astype(np.int8), categories=["text", "reasoning"]
    )
    return pd.DataFrame(columns)[names(MESSAGE_COLUMNS)]


def reasoning_df(events: Any, *, tokenizer: Callable[[str], Any] | None = None) -> pd.DataFrame:
    """One row per reasoning message (or span): duration, chunks, length, whether it came encrypted.

    ``tokenizer`` (text -> token count or token list) adds a ``tokens`` column.

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.reasoning_df("run.jsonl", tokenizer=lambda s: len(s.split())).tokens.sum()  # doctest: +SKIP
    """
    ev = _Events(events_table(events))
    messages = _Messages(ev, _Chunks(ev))
    rows = np.flatnonzero(messages.reasoning)
    columns = _message_frame(ev, messages, rows)
    encrypted_ids = set()
    for event in ev.decode(np.flatnonzero(ev.mask(frozenset({"REASONING_ENCRYPTED_VALUE"})))):
        if isinstance(event, dict) and event.get("subtype") == "message":
            encrypted_ids.add(event.get("entityId"))
    message_ids = columns["message_id"]
    columns["encrypted"] = np.array([m in encrypted_ids for m in message_ids], dtype=bool)
    wanted = names(REASONING_COLUMNS)
    if tokenizer is not None:
        counts = []
        for i in rows:
            tokens = tokenizer(messages.text[i])
            counts.append(tokens if isinstance(tokens, (int, np.integer)) else len(tokens))
        columns["tokens"] = np.array(counts, dtype=np.int64)
    else:
        wanted.remove("tokens")
    return pd.DataFrame(columns)[wanted]


# -- tool calls ----------------------------------------------------------------------------------------------


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, dict) and part.get("type") == "text":
                texts.append(str(part.get("text", "")))
            elif isinstance(part, dict):
                texts.append(f"[{part.get('type', 'part')}]")
        return "".join(texts)
    if content is None:
        return ""
    return orjson.dumps(content).decode()


def _results_join_their_calls(ev: _Events, owner: np.ndarray) -> np.ndarray:
    """Give a result that arrives in a later run than its call (a run resumed after an approval) to that call.

    Tool calls are keyed by run; a ``TOOL_CALL_RESULT`` whose run never showed the call takes the key of the
    latest earlier call with the same id in the same source and thread.
    """
    codes = {name: i for i, name in enumerate(ev.type_names)}
    result_code = codes.get("TOOL_CALL_RESULT", -2)
    is_result = ev.types == result_code
    result_rows = np.flatnonzero(is_result & (owner >= 0))
    if not len(result_rows):
        return owner
    call_rows = np.flatnonzero(~is_result & (owner >= 0))
    called = set(owner[call_rows].tolist())
    orphans = [row for row in result_rows.tolist() if owner[row] not in called]
    if not orphans:
        return owner
    frame = ev.frame
    ids = frame["tool_call_id"].cat.codes.to_numpy()
    threads = frame["thread_id"].cat.codes.to_numpy()
    sources = frame["source"].cat.codes.to_numpy()
    owner = owner.copy()
    latest: dict[tuple[int, int, int], int] = {}
    calls = iter(call_rows.tolist())
    next_call = next(calls, None)
    for row in orphans:
        while next_call is not None and next_call < row:
            latest[(sources[next_call], threads[next_call], ids[next_call])] = owner[next_call]
            next_call = next(calls, None)
        target = latest.get((sources[row], threads[row], ids[row]))
        if target is not None:
            owner[row] = target
    return owner


class _ToolCalls:
    """Per tool call: its START/END/RESULT times, arguments and result."""

    def __init__(self, ev: _Events, chunks: _Chunks, run_errors: dict[int, str]) -> None:
        frame = ev.frame
        in_tool = ev.mask(TOOL_CALL_TYPES)
        owner = _results_join_their_calls(ev, np.where(in_tool, ev.owner("tool_call_id"), -1))
        self.first_row, key = _compact(owner)
        size = len(self.first_row)
        self.size = size
        types = ev.types
        codes = {name: i for i, name in enumerate(ev.type_names)}

        def rows_of(name: str) -> np.ndarray:
            return np.flatnonzero((types == codes.get(name, -2)) & (key >= 0))

        start_rows = _first_in_group(key, np.flatnonzero(ev.mask(TOOL_CALL_START_TYPES) & (key >= 0)), size)
        end_rows = _first_in_group(key, rows_of("TOOL_CALL_END"), size)
        result_rows = _first_in_group(key, rows_of("TOOL_CALL_RESULT"), size)
        first_event = _group_min(key, ev.time, size)
        self.started = np.where(start_rows >= 0, _take(ev.time, start_rows, _NAT), first_event)
        self.args_end = _take(ev.time, end_rows, _NAT)
        self.result_at = _take(ev.time, result_rows, _NAT)
        name_rows = _first_in_group(
            key, np.flatnonzero((frame["tool_call_name"].cat.codes.to_numpy() >= 0) & (key >= 0)), size
        )
        self.name = _category_values(frame["tool_call_name"], name_rows)
        self.parent = _category_values(frame["parent_message_id"], start_rows)
        self.run = ev.run[self.first_row] if size else np.empty(0, dtype=np.int64)
        # Arguments: the tool_args chunks in order.
        args_chunks = chunks.kind == 2
        arg_rows = chunks.rows[args_chunks]
        arg_key = key[arg_rows]
        self.args_chars = _group_count(arg_key, size, weights=chunks.chars[args_chunks]).astype(np.int64)
        args_text = _join_by_key(arg_key, arg_rows, _deltas(frame), size)
        self.args_valid = np.zeros(size, dtype=bool)
        self.args: list[Any] = [None] * size
        for k, text in enumerate(args_text):
            try:
                self.args[k] = orjson.loads(text) if text.strip() else {}
                self.args_valid[k] = True
            except orjson.JSONDecodeError:
                pass
        # Results and errors, from the few result events and the encrypted-value markers beside them.
        results = ev.decode(result_rows[result_rows >= 0])
        markers: dict[Any, str] = {}
        for event in ev.decode(np.flatnonzero(ev.mask(frozenset({"REASONING_ENCRYPTED_VALUE"})))):
            if isinstance(event, dict) and event.get("subtype") == "message":
                outcome = claimed_outcome(event.get("encryptedValue"))
                if outcome in UNSUCCESSFUL_OUTCOMES:
                    markers[event.get("entityId")] = outcome
        self.result: list[Any] = [None] * size
        self.result_chars = np.zeros(size, dtype=np.int64)
        self.error: list[Any] = [None] * size
        status = np.full(size, "pending", dtype=object)
        for k, event in zip(np.flatnonzero(result_rows >= 0).tolist(), results, strict=True):
            event = event if isinstance(event, dict) else {}
            text = _content_text(event.get("content"))
            self.result[k] = text
            self.result_chars[k] = len(text)
            error = event.get("error")
            if error is None and event.get("messageId") in markers:
                outcome = markers[event["messageId"]]
                error = f"{outcome}: {text}" if text else outcome
            self.error[k] = None if error is None else str(error)
            status[k] = "ok" if error is None else "error"
        for k in np.flatnonzero(result_rows < 0).tolist():
            message = run_errors.get(int(self.run[k]))
            if message is not None:
                self.error[k] = message
                status[k] = "error"
        self.status = status


def _run_endings(ev: _Events) -> tuple[np.ndarray, list[Any]]:
    """The last RUN_FINISHED/RUN_ERROR row of each run (-1 for none) and those events decoded."""
    rows = np.flatnonzero(ev.mask(RUN_END_TYPES) & (ev.run >= 0))
    last = _last_in_group(ev.run, rows, ev.runs)
    return last, ev.decode(last[last >= 0])


def _run_error_text(event: dict[str, Any]) -> str:
    message = str(event.get("message", ""))
    code = event.get("code")
    return f"{message} [{code}]" if code else message


def _run_errors(ev: _Events, last: np.ndarray, endings: list[Any]) -> dict[int, str]:
    errors = {}
    for run, event in zip(np.flatnonzero(last >= 0).tolist(), endings, strict=True):
        if isinstance(event, dict) and event.get("type") == "RUN_ERROR":
            errors[run] = _run_error_text(event)
    return errors


def tool_calls_df(events: Any) -> pd.DataFrame:
    """One row per tool call: argument streaming, execution latency, arguments, result and status.

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.tool_calls_df("run.jsonl").groupby("tool_name").latency_s.median()  # doctest: +SKIP
    """
    ev = _Events(events_table(events))
    last, endings = _run_endings(ev)
    calls = _ToolCalls(ev, _Chunks(ev), _run_errors(ev, last, endings))
    return _tool_frame(ev, calls)


def _tool_frame(ev: _Events, calls: _ToolCalls) -> pd.DataFrame:
    frame = ev.frame
    out = pd.DataFrame(
        {
            "run_id": _category_values(frame["run_id"], calls.first_row),
            "tool_call_id": _category_values(frame["tool_call_id"], calls.first_row),
            "tool_name": calls.name,
            "parent_message_id": calls.parent,
            "started_at": _utc(calls.started),
            "args_end_at": _utc(calls.args_end),
            "result_at": _utc(calls.result_at),
            "args_s": _seconds(calls.args_end, calls.started),
            "latency_s": _seconds(calls.result_at, calls.args_end),
            "total_s": _seconds(calls.result_at, calls.started),
            "args_chars": calls.args_chars,
            "args_json_valid": calls.args_valid,
            "args": pd.array(calls.args, dtype=object),
            "result_chars": calls.result_chars,
            "result": _strings(calls.result),
            "error": _strings(calls.error),
            "status": pd.Categorical(calls.status, categories=["ok", "error", "pending"]),
        }
    )
    return out[names(TOOL_CALL_COLUMNS)]


# -- runs ------------------------------------------------------------------------------------------------------


def _status(event: Any) -> str:
    if not isinstance(event, dict):
        return "incomplete"
    if event.get("type") == "RUN_ERROR":
        return "error"
    outcome = event.get("outcome")
    kind = outcome.get("type") if isinstance(outcome, dict) else None
    return kind if kind in ("interrupt", "cancelled") else "success"


def _usage(event: Any) -> dict[str, Any]:
    totals: dict[str, Any] = {}
    entries = event.get("usage") if isinstance(event, dict) else None
    if isinstance(entries, dict):
        entries = [entries]
    if not isinstance(entries, list):
        return totals
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        for column, key in _USAGE_KEYS.items():
            value = entry.get(key, entry.get(column))
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                totals[column] = totals.get(column, 0) + int(value)
    return totals


def _union_seconds(intervals: list[tuple[int, int]]) -> float:
    total = 0
    current_start = current_end = None
    for start, end in sorted(intervals):
        if current_end is None or start > current_end:
            if current_end is not None:
                total += current_end - current_start  # type: ignore[operator]
            current_start, current_end = start, end
        else:
            current_end = max(current_end, end)
    if current_end is not None:
        total += current_end - current_start  # type: ignore[operator]
    return total / 1e9


def runs_df(events: Any) -> pd.DataFrame:
    """One row per run: status, end-to-end and first-chunk latencies, stream rates, tool time and tokens.

    >>> import agui_notebook.logs as logs  # doctest: +SKIP
    >>> logs.runs_df("logs/").groupby("status").ttft_s.median()  # doctest: +SKIP
    """
    frame = events_table(events)
    ev = _Events(frame)
    size = ev.runs
    chunks = _Chunks(ev)
    last, endings = _run_endings(ev)
    calls = _ToolCalls(ev, chunks, _run_errors(ev, last, endings))

    started_rows = np.flatnonzero(ev.mask(frozenset({"RUN_STARTED"})) & (ev.run >= 0))
    start_row = _first_in_group(ev.run, started_rows, size)
    start_time = _take(ev.time, start_row, _NAT)
    started = np.where(start_time != _NAT, start_time, _group_min(ev.run, ev.time, size))
    finished = _take(ev.time, last, _NAT)
    status = np.full(size, "incomplete", dtype=object)
    error: list[Any] = [None] * size
    usage: dict[str, list[Any]] = {column: [pd.NA] * size for column in _USAGE_KEYS}
    for run, event in zip(np.flatnonzero(last >= 0).tolist(), endings, strict=True):
        status[run] = _status(event)
        if status[run] == "error":
            error[run] = _run_error_text(event)
        for column, value in _usage(event).items():
            usage[column][run] = value
    parents: list[Any] = [None] * size
    for run, event in zip(
        np.flatnonzero(start_row >= 0).tolist(), ev.decode(start_row[start_row >= 0]), strict=True
    ):
        if isinstance(event, dict) and isinstance(event.get("parentRunId"), str):
            parents[run] = event["parentRunId"]

    text = chunks.kind == 0
    streamed = chunks.kind != 2
    text_first = _group_min(chunks.run[text], chunks.time[text], size)
    stream_first = _group_min(chunks.run[streamed], chunks.time[streamed], size)
    stream_last = _group_max(chunks.run[streamed], chunks.time[streamed], size)
    stream_count = _group_count(chunks.run[streamed], size)
    reasoning = chunks.kind == 1
    span = np.where(stream_count > 1, _seconds(stream_last, stream_first), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        rate = np.where(span > 0, (stream_count - 1) / span, np.nan)
    gaps = pd.DataFrame({"run": chunks.run[streamed], "gap": chunks.gap[streamed]}).dropna()
    gaps = gaps[gaps["run"] >= 0]
    quantiles = gaps.groupby("run")["gap"].quantile([0.5, 0.95]).unstack() if len(gaps) else None
    itl50 = np.full(size, np.nan)
    itl95 = np.full(size, np.nan)
    if quantiles is not None:
        itl50[quantiles.index.to_numpy()] = quantiles[0.5].to_numpy()
        itl95[quantiles.index.to_numpy()] = quantiles[0.95].to_numpy()

    intervals: dict[int, list[tuple[int, int]]] = {}
    tool_counts = np.zeros(size, dtype=np.int64)
    for k in range(calls.size):
        run = int(calls.run[k])
        if run < 0:
            continue
        tool_counts[run] += 1
        if calls.args_end[k] != _NAT and calls.result_at[k] != _NAT:
            intervals.setdefault(run, []).append((int(calls.args_end[k]), int(calls.result_at[k])))
    tool_time = np.array([_union_seconds(intervals.get(run, [])) for run in range(size)], dtype=float)

    output_tokens = pd.array(usage["output_tokens"], dtype="Int64")
    out_float = output_tokens.to_numpy(dtype=float, na_value=np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        tpot = np.where(out_float > 1, span / (out_float - 1), np.nan)

    first = ev.run_first_row
    columns = {
        "source": _category_values(frame["source"], first),
        "thread_id": _category_values(frame["thread_id"], first),
        "run_id": _category_values(frame["run_id"], first),
        "parent_run_id": _strings(parents),
        "started_at": _utc(started),
        "finished_at": _utc(finished),
        "status": pd.Categorical(
            status, categories=["success", "error", "interrupt", "cancelled", "incomplete"]
        ),
        "error": _strings(error),
        "events": _group_count(ev.run, size),
        "duration_s": _seconds(finished, started),
        "ttft_s": _seconds(stream_first, started),
        "time_to_first_text_s": _seconds(text_first, started),
        "text_chars": _group_count(chunks.run[text], size, weights=chunks.chars[text]).astype(np.int64),
        "reasoning_chars": _group_count(chunks.run[reasoning], size, weights=chunks.chars[reasoning]).astype(
            np.int64
        ),
        "text_chunks": _group_count(chunks.run[text], size),
        "reasoning_chunks": _group_count(chunks.run[reasoning], size),
        "tool_calls": tool_counts,
        "tool_time_s": tool_time,
        "itl_p50_s": itl50,
        "itl_p95_s": itl95,
        "chunks_per_s": rate,
        **{column: pd.array(values, dtype="Int64") for column, values in usage.items()},
        "tpot_s": tpot,
    }
    return pd.DataFrame(columns)[names(RUN_COLUMNS)]
