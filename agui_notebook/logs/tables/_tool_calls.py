"""``tool_calls_df``: one row per tool call, with its results joined across runs and its outcome claims."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, overload

import numpy as np
import pandas as pd

from agui_notebook._options import keyword_options
from agui_notebook._types import EventsOrSource, LazyTable, ReadErrorMode
from agui_notebook.agui._tool_outcome import (
    CANCELLED_OUTCOMES,
    DENIED_TOOL_MESSAGE_ERROR,
    FAILED_CLOSEOUT,
    UNSUCCESSFUL_OUTCOMES,
    claimed_outcome,
    failed_call,
)
from agui_notebook.wire._json import JSONDecodeError, decode_json

from .._columns import TOOL_CALL_COLUMNS, columns_of
from .._kinds import (
    RUN_END_TYPES,
    RUN_START_TYPES,
    SNAPSHOT_MESSAGE_TYPES,
    TOOL_ARGS_TYPES,
    TOOL_CALL_CHUNK_TYPES,
    TOOL_CALL_START_TYPES,
    TOOL_CALL_TYPES,
)
from .._load import TOOL_DECISIONS_SENT, TOOL_RESULTS_SENT
from .._odd_values import OddValues, id_text, odd_problem
from ._chunks import Chunks
from ._frame import (
    NAT,
    EventFrame,
    category_values,
    compact,
    delta_texts,
    first_in_group,
    group_count,
    group_min,
    join_by_key,
    last_in_group,
    read_table,
    reading_documented,
    take,
)
from ._run_endings import cancelled_runs, errors_by_run, run_endings
from ._shared import event_frame

__all__ = ["ToolCalls", "outcome_markers", "tool_calls_df", "tool_calls_table"]


DENIED = "denied"
"""pydantic-ai's claimed outcome for a refused call, and the status ``tool_calls_df`` gives it."""

CANCELLED = "cancelled"
"""The status of a call that was stopped before it returned: a sibling failed, or its run was cancelled."""

_AI_SDK_DENIED = "tool-output-denied"
"""The AI SDK chunk that says a call was refused (kept as the result event's ``rawEvent``)."""


def _content_text(content: Any, row: int, odd: OddValues) -> str:
    """A result's content as text: a string as it is, the text of a list of parts; anything else (reported)
    as its JSON."""
    if isinstance(content, str):
        return content
    if content is None:
        odd.add(row, "content", "content is missing")
        return ""
    if not isinstance(content, list):
        text = id_text(content)
        odd.add(row, "content", odd_problem("content", content, read_as=text))
        return text
    texts = []
    for i, part in enumerate(content):
        if isinstance(part, dict) and part.get("type") == "text":
            text = part.get("text", "")
            if not isinstance(text, str):
                shown = id_text(text)
                odd.add(row, "content", odd_problem(f"content[{i}].text", text, read_as=shown))
                text = shown
            texts.append(text)
        elif isinstance(part, dict):
            texts.append(f"[{id_text(part.get('type', 'part'))}]")
        else:
            shown = id_text(part)
            odd.add(row, "content", odd_problem(f"content[{i}]", part, read_as=shown))
            texts.append(shown)
    return "".join(texts)


def outcome_markers(
    ev: EventFrame, odd: OddValues, decode_odd: OddValues | None = None
) -> tuple[dict[tuple[int, str], str], set[tuple[int, str]]]:
    """From the REASONING_ENCRYPTED_VALUE events on messages: the unsuccessful outcome claimed for each
    result message, and every message that carries an encrypted value (an odd id is reported in ``odd``, an
    event that does not decode in ``decode_odd``, by default the frame's). Messages are keyed by (source code,
    message id): a marker applies within its file."""
    markers: dict[tuple[int, str], str] = {}
    encrypted: set[tuple[int, str]] = set()
    sources = ev.col("source").codes
    rows = np.flatnonzero(ev.mask(frozenset({"REASONING_ENCRYPTED_VALUE"})))
    for row, event in zip(rows.tolist(), ev.decode(rows, decode_odd), strict=True):
        if event is None or event.get("subtype") != "message":
            continue
        entity = event.get("entityId")
        if not isinstance(entity, str):
            odd.add(
                row, "entityId", "entityId is missing" if entity is None else odd_problem("entityId", entity)
            )
            continue
        encrypted.add((int(sources[row]), entity))
        outcome = claimed_outcome(event.get("encryptedValue"))
        if outcome in UNSUCCESSFUL_OUTCOMES:
            markers[(int(sources[row]), entity)] = outcome
    return markers, encrypted


def _text_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _arguments_end(
    ev: EventFrame, key: np.ndarray, end_rows: np.ndarray, result_rows: np.ndarray
) -> np.ndarray:
    """Per call, the row its arguments ended at: its TOOL_CALL_END; else its last START, ARGS or CHUNK event
    (before its result, if it has one) for a call streamed as TOOL_CALL_CHUNKs, which have no END (AG-UI closes
    such a call at the next event of another kind: LlamaIndex sends each call as one chunk), and for a call
    whose result came before its END (Langroid sends START, ARGS, then RESULT and END once the tool has run:
    the tool ran after its arguments, so its latency is never negative)."""
    chunked = np.zeros(len(end_rows), dtype=bool)
    chunked[key[np.flatnonzero(ev.mask(TOOL_CALL_CHUNK_TYPES) & (key >= 0))]] = True
    early = (result_rows >= 0) & (end_rows > result_rows)
    fallback = early | (chunked & (end_rows < 0))
    if not fallback.any():
        return end_rows
    rows = np.flatnonzero(ev.mask(TOOL_CALL_START_TYPES | TOOL_ARGS_TYPES) & (key >= 0))
    result = result_rows[key[rows]]
    before = rows[(result < 0) | (rows < result)]
    return np.where(fallback, last_in_group(key, before, len(end_rows)), end_rows)


def _results_join_their_calls(ev: EventFrame, owner: np.ndarray) -> np.ndarray:
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
    ids = ev.col("tool_call_id").codes
    threads = ev.col("thread_id").codes
    sources = ev.col("source").codes
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


@dataclass(slots=True)
class _SnapshotTools:
    """The tool calls and tool messages the MESSAGES_SNAPSHOT events of a frame show, by (source code, thread
    code, tool call id): a call id used again in a thread is taken for the same call, as the snapshots repeat the
    whole conversation."""

    calls: dict[tuple[int, int, str], tuple[int, dict[str, Any], Any]]
    """Each call's first showing: (snapshot row, the ``toolCalls`` entry, the id of its assistant message)."""
    results: dict[tuple[int, int, str], list[tuple[int, dict[str, Any]]]]
    """Each call's tool message in every snapshot that shows one, in row order: (snapshot row, the message)."""


def _snapshot_tools(ev: EventFrame, odd: OddValues) -> _SnapshotTools | None:
    """The tool calls and results of the frame's MESSAGES_SNAPSHOT events; None when it has none."""
    rows = np.flatnonzero(ev.mask(SNAPSHOT_MESSAGE_TYPES))
    if not len(rows):
        return None
    sources, threads = ev.col("source").codes, ev.col("thread_id").codes
    calls: dict[tuple[int, int, str], tuple[int, dict[str, Any], Any]] = {}
    results: dict[tuple[int, int, str], list[tuple[int, dict[str, Any]]]] = {}
    for row, event in zip(rows.tolist(), ev.decode(rows, odd), strict=True):
        messages = event.get("messages") if event is not None else None
        where = (int(sources[row]), int(threads[row]))
        answers: dict[str, dict[str, Any]] = {}  # the last tool message of each call in this snapshot
        for message in messages if isinstance(messages, list) else ():
            if not isinstance(message, dict):
                continue
            role = message.get("role")
            if role == "assistant" and isinstance(message.get("toolCalls"), list):
                for call in message["toolCalls"]:
                    call_id = call.get("id") if isinstance(call, dict) else None
                    if isinstance(call_id, str):
                        calls.setdefault((*where, call_id), (row, call, message.get("id")))
            elif role == "tool" and isinstance(message.get("toolCallId"), str):
                answers[message["toolCallId"]] = message
        for call_id, message in answers.items():
            results.setdefault((*where, call_id), []).append((row, message))
    return _SnapshotTools(calls, results)


def _run_start_rows(ev: EventFrame) -> dict[str, int]:
    """Run id -> the row of its first RUN_STARTED."""
    rows = np.flatnonzero(ev.mask(RUN_START_TYPES))
    started: dict[str, int] = {}
    for row, run_id in zip(rows.tolist(), category_values(ev.col("run_id"), rows), strict=True):
        if isinstance(run_id, str):
            started.setdefault(run_id, row)
    return started


def _appended(column: pd.Categorical, values: list[Any]) -> pd.Categorical:
    """A categorical with ``values`` (None for missing) added at its end, its categories extended as needed."""
    new = [value for value in dict.fromkeys(values) if value is not None and value not in column.categories]
    widened = column.add_categories(new) if new else column
    codes = widened.categories.get_indexer(pd.Index(values, dtype=object))
    return pd.Categorical.from_codes(np.concatenate([widened.codes, codes]), dtype=widened.dtype)


class ToolCalls:
    """Per tool call: its START/END/RESULT times, arguments and result.

    Built once per events frame (``of``) and read by both ``runs_df`` and ``tool_calls_df``: the odd values
    met are kept apart, ``odd`` (the results' own: ``tool_calls_df`` reports them) and ``decode_odd``
    (events that do not decode: both tables report them).
    """

    @classmethod
    def of(cls, ev: EventFrame, chunks: Chunks) -> ToolCalls:
        """The tool calls of ``ev``, built on first use and then shared by every table built from it."""
        return ev.shared("tool_calls", lambda: cls(ev, chunks))

    def __init__(self, ev: EventFrame, chunks: Chunks) -> None:
        odd = self.odd = OddValues()
        decode_odd = self.decode_odd = OddValues()
        last, endings = run_endings(ev, OddValues())  # reported by each table's own run_endings
        run_errors = errors_by_run(ev, last, endings)
        in_tool = np.flatnonzero(ev.mask(TOOL_CALL_TYPES))
        owner = np.full(ev.n, -1, dtype=np.int64)
        owner[in_tool] = ev.owner("tool_call_id", in_tool)
        owner = _results_join_their_calls(ev, owner)
        self.first_row, key = compact(owner)
        size = len(self.first_row)
        self.size = size
        types = ev.types
        codes = {name: i for i, name in enumerate(ev.type_names)}

        def rows_of(name: str) -> np.ndarray:
            return np.flatnonzero((types == codes.get(name, -2)) & (key >= 0))

        start_rows = first_in_group(key, np.flatnonzero(ev.mask(TOOL_CALL_START_TYPES) & (key >= 0)), size)
        end_rows = first_in_group(key, rows_of("TOOL_CALL_END"), size)
        result_rows = first_in_group(key, rows_of("TOOL_CALL_RESULT"), size)
        end_rows = _arguments_end(ev, key, end_rows, result_rows)
        first_event = group_min(key, ev.time, size)
        self.started = np.where(start_rows >= 0, take(ev.time, start_rows, NAT), first_event)
        self.args_end = take(ev.time, end_rows, NAT)
        self.result_at = take(ev.time, result_rows, NAT)
        name_rows = first_in_group(
            key, np.flatnonzero((ev.col("tool_call_name").codes >= 0) & (key >= 0)), size
        )
        self.name = category_values(ev.col("tool_call_name"), name_rows)
        self.parent = category_values(ev.col("parent_message_id"), start_rows)
        self.run = ev.run[self.first_row] if size else np.empty(0, dtype=np.int64)
        # Arguments: the tool_args chunks in order.
        args_chunks = chunks.kind == 2
        arg_rows = chunks.rows[args_chunks]
        arg_key = key[arg_rows]
        self.args_chars = group_count(arg_key, size, weights=chunks.chars[args_chunks]).astype(np.int64)
        self.args_text = join_by_key(arg_key, arg_rows, delta_texts(ev), size)
        self.call_ids = category_values(ev.col("tool_call_id"), self.first_row)
        """Per call: its ``toolCallId`` (a categorical)."""
        snapshots = _snapshot_tools(ev, decode_odd)
        if snapshots is not None:
            result_rows = self._add_snapshot_calls(ev, snapshots, result_rows, odd)
            size = self.size
        self.args_valid = np.zeros(size, dtype=bool)
        for k, text in enumerate(self.args_text):
            try:
                if text.strip():
                    decode_json(text)
                self.args_valid[k] = True
            except JSONDecodeError:
                pass
        # Results and errors, from the few result events and the encrypted-value markers beside them.
        results = ev.decode(result_rows[result_rows >= 0], decode_odd)
        markers, _ = outcome_markers(ev, odd, decode_odd)
        sources = ev.col("source").codes
        self.result: list[Any] = [None] * size
        self.result_chars = np.zeros(size, dtype=np.int64)
        self.error: list[Any] = [None] * size
        status = np.full(size, "pending", dtype=object)
        self.cause: list[Any] = [None] * size
        closed: dict[int, list[int]] = {}  # run -> its calls closed by pydantic-ai when it failed
        call_ids: list[Any] = list(self.call_ids)
        self.result_source = np.full(size, None, dtype=object)
        self.result_source[result_rows >= 0] = "event"
        """Per call: where its result came from (``RESULT_SOURCES``), None for a call without one."""
        for k, event in zip(np.flatnonzero(result_rows >= 0).tolist(), results, strict=True):
            row = int(result_rows[k])
            event = event if isinstance(event, dict) else {}
            text = _content_text(event.get("content"), row, odd)
            self.result[k] = text
            self.result_chars[k] = len(text)
            error = event.get("error")
            message_id = event.get("messageId")
            raw = event.get("rawEvent")
            marker = (int(sources[row]), message_id) if isinstance(message_id, str) else None
            claimed = markers.get(marker) if marker is not None else None
            if claimed == DENIED or (isinstance(raw, dict) and raw.get("type") == _AI_SDK_DENIED):
                status[k] = DENIED
                continue
            if claimed in CANCELLED_OUTCOMES:
                status[k] = CANCELLED
                continue
            if claimed == "failed" and text == FAILED_CLOSEOUT and error is None:
                closed.setdefault(int(self.run[k]), []).append(k)
            if error is None and claimed is not None:
                outcome = claimed
                error = f"{outcome}: {text}" if text else outcome
            elif error is not None and not isinstance(error, str):
                shown = id_text(error)
                odd.add(row, "error", odd_problem("error", error, read_as=shown))
                error = shown
            self.error[k] = error
            status[k] = "ok" if error is None else "error"
        self._blame_closed(closed, run_errors, call_ids, status)
        unanswered = np.flatnonzero(result_rows < 0)
        stopped = cancelled_runs(last, endings)
        sent = ev.frame.attrs.get(TOOL_RESULTS_SENT) if unanswered.size else None
        if snapshots is not None and snapshots.results and unanswered.size:
            unanswered = self._snapshot_results(ev, snapshots, unanswered, sent, status)
        if sent:  # a ChatWidget's frontend tools: their results went to the agent in a run input
            # (not those of a stopped run: the chat's closing message for them is no result of the tool)
            in_stopped = np.isin(self.run[unanswered], list(stopped)) if stopped else np.zeros(0, dtype=bool)
            left = self._sent_results(ev, sent, unanswered[~in_stopped] if stopped else unanswered, status)
            unanswered = np.sort(np.concatenate([left, unanswered[in_stopped]])) if stopped else left
        for k in unanswered.tolist():
            message = run_errors.get(int(self.run[k]))
            if message is not None:
                self.error[k] = message
                status[k] = "error"
            elif int(self.run[k]) in stopped:
                status[k] = CANCELLED
        refused = _refused_by_resume(ev, decode_odd)
        if refused:
            for k, call_id in enumerate(call_ids):
                how = refused.get((int(self.run[k]), call_id))
                if how is not None:
                    status[k] = how
                    self.error[k] = None
                    self.cause[k] = None
        decided: dict[str, str] = ev.frame.attrs.get(TOOL_DECISIONS_SENT) or {}
        for k, call_id in enumerate(call_ids) if decided else ():
            how = decided.get(call_id) if isinstance(call_id, str) else None
            if how is not None:  # the chat's decision stands, whatever the agent sent afterwards
                status[k] = how
                self.error[k] = None
                self.cause[k] = None
                refused[(int(self.run[k]), call_id)] = how
        self.status = status
        self.executed = status != DENIED
        """Per call: it ran (a denied call, or an approval cancelled before an answer, never did: it has no
        execution latency)."""
        for k, call_id in enumerate(call_ids) if refused else ():
            if (int(self.run[k]), call_id) in refused:
                self.executed[k] = False

    def _blame_closed(
        self,
        closed: dict[int, list[int]],
        run_errors: dict[int, str],
        call_ids: list[Any],
        status: np.ndarray,
    ) -> None:
        """The calls pydantic-ai closed when their run failed: the one that raised is an error carrying the
        RUN_ERROR's message, the others are cancelled with it as their ``cause``. When the error does not tell
        which call raised (``failed_call``), each is an error with the run's message: none is called cancelled
        without knowing it was."""
        for run, calls in closed.items():
            message = run_errors.get(run)
            if message is None:
                continue
            culprit = failed_call([(str(call_ids[k]), _text_or_none(self.name[k])) for k in calls], message)
            for k in calls:
                if culprit is None or call_ids[k] == culprit:
                    self.error[k] = message
                    status[k] = "error"
                else:
                    self.error[k] = None
                    self.cause[k] = culprit
                    status[k] = CANCELLED

    def _sent_results(
        self, ev: EventFrame, sent: dict[str, dict[str, Any]], calls: np.ndarray, status: np.ndarray
    ) -> np.ndarray:
        """Results of ``calls`` that a run input carried (``tool_results_sent``): the ToolMessage's content and
        error, received when the run it started began. Returns the calls still without a result."""
        call_ids = self.call_ids[calls]
        started = _run_start_rows(ev)
        left = []
        for k, call_id in zip(calls.tolist(), call_ids, strict=True):
            found = sent.get(call_id) if isinstance(call_id, str) else None
            if found is None:
                left.append(k)
                continue
            start = started.get(found["runId"])
            at = int(ev.time[start]) if start is not None else int(self.result_at[k])
            self._message_result(k, found["message"], at, int(self.first_row[k]), status)
            self.result_source[k] = "run_input"
        return np.array(left, dtype=np.int64)

    def _message_result(self, k: int, message: dict[str, Any], at: int, row: int, status: np.ndarray) -> None:
        """Call ``k``'s result from a tool message (AG-UI's ``ToolMessage``: ``content``, ``error``) received
        ``at``; odd values are reported at ``row``."""
        text = _content_text(message.get("content"), row, self.odd)
        self.result[k] = text
        self.result_chars[k] = len(text)
        self.result_at[k] = at
        error = message.get("error")
        if error == DENIED_TOOL_MESSAGE_ERROR:
            status[k] = DENIED
        elif error is not None:
            self.error[k] = id_text(error) if not isinstance(error, str) else error
            status[k] = "error"
        else:
            status[k] = "ok"

    def _add_snapshot_calls(
        self, ev: EventFrame, snapshots: _SnapshotTools, result_rows: np.ndarray, odd: OddValues
    ) -> np.ndarray:
        """Add the calls that only a MESSAGES_SNAPSHOT shows (CrewAI and LlamaIndex send whole calls that way):
        one per call id in its source and thread that no event streamed, given to the run of the first snapshot
        showing it, with its name, arguments and assistant message from there, and no start or arguments end
        (NaT). The calls stay in order of their first row. Returns ``result_rows`` for the calls as now
        ordered (-1 for the added ones)."""
        sources, threads = ev.col("source").codes, ev.col("thread_id").codes
        streamed = set(
            zip(
                sources[self.first_row].tolist(),
                threads[self.first_row].tolist(),
                self.call_ids.tolist(),
                strict=True,
            )
        )
        added = [(key, found) for key, found in snapshots.calls.items() if key not in streamed]
        if not added:
            return result_rows
        rows = np.array([row for _, (row, _, _) in added], dtype=np.int64)
        names, parents, texts = [], [], []
        for _, (row, call, message_id) in added:
            function = call.get("function")
            function = function if isinstance(function, dict) else {}
            name = function.get("name")
            names.append(name if isinstance(name, str) else None)
            parents.append(message_id if isinstance(message_id, str) else None)
            arguments = function.get("arguments")
            if arguments is not None and not isinstance(arguments, str):
                shown = id_text(arguments)
                odd.add(row, "arguments", odd_problem("function.arguments", arguments, read_as=shown))
                arguments = shown
            texts.append(arguments or "")
        missing = np.full(len(added), NAT, dtype=np.int64)
        order = np.argsort(np.concatenate([self.first_row, rows]), kind="stable")
        self.first_row = np.concatenate([self.first_row, rows])[order]
        self.started = np.concatenate([self.started, missing])[order]
        self.args_end = np.concatenate([self.args_end, missing])[order]
        self.result_at = np.concatenate([self.result_at, missing])[order]
        self.run = np.concatenate([self.run, ev.run[rows]])[order]
        self.args_chars = np.concatenate([self.args_chars, [len(text) for text in texts]]).astype(np.int64)[
            order
        ]
        texts = [*self.args_text, *texts]
        self.args_text = [texts[i] for i in order.tolist()]
        self.call_ids = _appended(self.call_ids, [key[2] for key, _ in added])[order]
        self.name = _appended(self.name, names)[order]
        self.parent = _appended(self.parent, parents)[order]
        self.size = len(self.first_row)
        return np.concatenate([result_rows, np.full(len(added), -1, dtype=np.int64)])[order]

    def _snapshot_results(
        self,
        ev: EventFrame,
        snapshots: _SnapshotTools,
        calls: np.ndarray,
        sent: dict[str, dict[str, Any]] | None,
        status: np.ndarray,
    ) -> np.ndarray:
        """Results of ``calls`` (none streamed) that a MESSAGES_SNAPSHOT shows: a ``tool`` message naming the
        call, in the first snapshot after the call's first event (or in the snapshot that showed the call), as
        received when that snapshot arrived. A result a chat sent in a run input (``sent``) before that snapshot
        is the one the call got. Returns the calls still without a result."""
        firsts = self.first_row[calls]
        keys = zip(
            ev.col("source").codes[firsts].tolist(),
            ev.col("thread_id").codes[firsts].tolist(),
            self.call_ids[calls].tolist(),
            strict=True,
        )
        started = _run_start_rows(ev) if sent else {}
        left = []
        for k, first, key in zip(calls.tolist(), firsts.tolist(), keys, strict=True):
            call_id = key[2]
            mentions = snapshots.results.get(key)
            found = next(((row, m) for row, m in mentions if row >= first), None) if mentions else None
            given = sent.get(call_id) if sent and isinstance(call_id, str) else None
            sent_row = started.get(given["runId"]) if given is not None else None
            if found is None or (sent_row is not None and sent_row < found[0]):
                left.append(k)
                continue
            row, message = found
            self._message_result(k, message, int(ev.time[row]), row, status)
            self.result_source[k] = "snapshot"
        return np.array(left, dtype=np.int64)

    def arguments(self) -> list[Any]:
        """Per call: its arguments parsed (``{}`` for none, None when they are not JSON), new objects on every
        call (the calls are shared by the tables of a frame; a table's values are its own)."""
        return [
            (decode_json(text) if text.strip() else {}) if valid else None
            for text, valid in zip(self.args_text, self.args_valid.tolist(), strict=True)
        ]


def _refused_by_resume(ev: EventFrame, decode_odd: OddValues) -> dict[tuple[int, str], str]:
    """The status of each call, by (run, tool call id), that a later run's resume entries refused.

    A run that stops for approval ends with interrupts naming their ``toolCallId``; the run that resumes it
    carries ``input.resume`` (as a client-side recorder sees its RUN_STARTED). An entry ``resolved`` with
    ``payload.approved`` false is the user's denial (``denied``); an entry ``cancelled`` (the user asked
    something new instead) is ``cancelled``, as the widget's card says. pydantic-ai answers both with
    ``ToolDenied``, whatever result it sends afterwards: the decision is the client's. Interrupts are matched
    by id within the same source and thread.
    """
    end_rows = np.flatnonzero(ev.mask(RUN_END_TYPES) & (ev.run >= 0))
    sources = ev.col("source").codes
    threads = ev.col("thread_id").codes
    interrupts: dict[tuple[int, int, str], tuple[int, str]] = {}
    for row, event in zip(end_rows.tolist(), ev.decode(end_rows, decode_odd), strict=True):
        outcome = event.get("outcome") if event is not None else None
        listed = outcome.get("interrupts") if isinstance(outcome, dict) else None
        for interrupt in listed if isinstance(listed, list) else ():
            if isinstance(interrupt, dict):
                interrupt_id, call_id = interrupt.get("id"), interrupt.get("toolCallId")
                if isinstance(interrupt_id, str) and isinstance(call_id, str):
                    key = (int(sources[row]), int(threads[row]), interrupt_id)
                    interrupts[key] = (int(ev.run[row]), call_id)
    if not interrupts:
        return {}
    refused: dict[tuple[int, str], str] = {}
    start_rows = np.flatnonzero(ev.mask(RUN_START_TYPES))
    for row, event in zip(start_rows.tolist(), ev.decode(start_rows, decode_odd), strict=True):
        run_input = event.get("input") if event is not None else None
        entries = run_input.get("resume") if isinstance(run_input, dict) else None
        for entry in entries if isinstance(entries, list) else ():
            if not isinstance(entry, dict) or not isinstance(entry.get("interruptId"), str):
                continue
            payload = entry.get("payload")
            declined = isinstance(payload, dict) and payload.get("approved") is False
            if entry.get("status") == "cancelled" or (entry.get("status") == "resolved" and declined):
                call = interrupts.get((int(sources[row]), int(threads[row]), entry["interruptId"]))
                if call is not None:
                    refused[call] = DENIED if declined else CANCELLED
    return refused


@overload
def tool_calls_df(
    events: EventsOrSource,
    *,
    workers: int | None = None,
    client: Any = None,
    lazy: Literal[False] = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame: ...
@overload
def tool_calls_df(
    events: EventsOrSource,
    *,
    workers: int | None = None,
    client: Any,
    lazy: Literal[True],
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> LazyTable: ...
@reading_documented
@keyword_options
def tool_calls_df(
    events: EventsOrSource,
    *,
    workers: int | None = None,
    client: Any = None,
    lazy: bool = False,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame | LazyTable:
    """One row per tool call: argument streaming, execution latency, arguments, result and status.

    Parameters
    ----------

    Returns
    -------
    DataFrame
        One row per tool call, the columns of ``TOOL_CALL_COLUMNS`` (docs/metrics.md); a Dask DataFrame with ``lazy=True``.

    Examples
    --------
    >>> from agui_notebook import logs  # doctest: +SKIP
    >>> logs.tool_calls_df("run.jsonl").groupby("tool_name").latency_s.median()  # doctest: +SKIP
    """
    return read_table(
        "tool_calls_df",
        _tool_calls_of,
        events,
        {},
        workers=workers,
        client=client,
        lazy=lazy,
        progress=progress,
        errors=errors,
    )


def _tool_calls_of(events: Any) -> pd.DataFrame:
    ev = event_frame(events)
    return kept_tool_calls_table(ev, Chunks.of(ev))


def kept_tool_calls_table(ev: EventFrame, chunks: Chunks) -> pd.DataFrame:
    """``tool_calls_table``, built once per unchanged frame (``EventFrame.kept_table``); the arguments are
    parsed anew for each copy (their dicts are the copy's own)."""
    table = ev.kept_table(("tool_calls_df",), lambda: tool_calls_table(ev, chunks))
    table["args"] = pd.array(ToolCalls.of(ev, chunks).arguments(), dtype=object)
    return table


def tool_calls_table(ev: EventFrame, chunks: Chunks) -> pd.DataFrame:
    """``tool_calls_df`` of an events frame whose chunks are already found."""
    run_endings(ev)
    calls = ToolCalls.of(ev, chunks)
    ev.odd.found.extend(calls.decode_odd.found)
    ev.odd.found.extend(calls.odd.found)
    return ev.finished(_tool_frame(ev, calls), "tool_calls_df")


def _tool_frame(ev: EventFrame, calls: ToolCalls) -> pd.DataFrame:
    return pd.DataFrame(columns_of(TOOL_CALL_COLUMNS, _ToolCallParts(ev, calls)))


@dataclass(slots=True)
class _ToolCallParts:
    """What ``TOOL_CALL_COLUMNS`` are made of (``_columns.py`` says which column is made of what)."""

    ev: EventFrame
    calls: ToolCalls
