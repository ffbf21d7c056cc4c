"""``load_events``: AG-UI event logs (files, globs, folders, text, lists, recorders) as one pandas table.

The input is split into named sources (``_sources``), each source read in batches (``_read``) and the
batches built into the table's columns (``_event_table``), with each event's run found from the run
boundaries alone (``_run_assignment``).
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pandas as pd

from agui_notebook._errors import EventLogWarning, OptionalDependencyError, OptionError, SourceError, warn
from agui_notebook._gc import collections_paused
from agui_notebook._options import keyword_options
from agui_notebook._types import LogSource, ReadErrorMode
from agui_notebook.agui._tool_outcome import DENIED_TOOL_MESSAGE_ERROR
from agui_notebook.chat._records import RUN_START, decode_run_inputs
from agui_notebook.wire._reader import unreadable

from ._event_table import EventTableBuilder
from ._odd_values import warn_odd_values
from ._read import Problems, normalized
from ._run_assignment import run_keys
from ._sources import Source, sources

__all__ = [
    "TOOL_RESULTS_SENT",
    "events_table",
    "file_error",
    "load_events",
    "progress_bar",
    "recorded_run_inputs",
]


def progress_bar(
    progress: bool | None,
    total: int,
    *,
    desc: str = "loading events",
    unit: str = "B",
    unit_scale: bool = True,
) -> Any:
    """A tqdm bar of ``total`` (None when ``progress`` is False, there is nothing to do, or tqdm is missing and was
    not asked for), shown at once when asked for and otherwise only once the work takes a moment."""
    if progress is False or total == 0:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        if progress:
            raise OptionalDependencyError(
                "a progress bar needs tqdm: pip install 'agui-notebook[progress]'"
            ) from None
        return None
    # Without tqdm's monitor thread, which would outlive the bar and make a later process pool start its workers
    # the slow way.
    bar = type("ProgressBar", (tqdm,), {"monitor_interval": 0})
    delay = 0 if progress else 0.5
    return bar(total=total, unit=unit, unit_scale=unit_scale, desc=desc, delay=delay, leave=False)


@keyword_options
def load_events(
    source: LogSource, *, errors: ReadErrorMode = "raise", progress: bool | None = None
) -> pd.DataFrame:
    """Load AG-UI event logs into a DataFrame with one row per event (columns: ``EVENT_COLUMNS``).

    ``source`` is a path, a glob, a folder (its ``*.jsonl``/``*.json``/``*.sse``/... files), a list of
    paths, an open file, raw JSONL/JSON/SSE text, a list of events (dicts or ``ag_ui.core`` models) or of
    recorder records, or anything with an ``events`` list of records (an ``EventRecorder``, a ChatWidget).
    Lines may be bare events or :class:`RecordedEvent` records; AI SDK UI-message streams are read as the
    equivalent AG-UI events. OpenTelemetry spans (OTLP/JSON files or text, a list of SDK ``ReadableSpan``s,
    an ``InMemorySpanExporter``) are read as the runs they trace (docs/otel.md).

    Gzip-compressed logs are read as they are (told by their first bytes; a folder's ``*.jsonl.gz`` and the
    like); a folder's suffixes match in any case, and the entries of a folder that are not logs, and the
    files that hold no events (empty), are listed in ``df.attrs["skipped"]`` with a warning.

    ``errors="raise"`` stops at the first unreadable line with an ``EventParseError`` naming the file and
    line; ``errors="collect"`` skips them, lists them in ``df.attrs["errors"]`` and warns. Readable events
    with odd values (a number as a ``delta``, a string as a ``timestamp``, a list as an id) are kept, the
    value read as missing (an id as its text), and listed in ``df.attrs["odd_values"]`` with a warning; runs
    that reuse a run id are told apart by ``run_key`` (see docs/metrics.md). ``progress``
    shows a tqdm bar: ``None`` when loading takes more than half a second, ``True`` always, ``False`` never.

    >>> df = load_events('{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1000}\\n'
    ...                  '{"type":"RUN_FINISHED","threadId":"t","runId":"r","timestamp":1500}')
    >>> df[["run_id", "type", "t"]].values.tolist()
    [['r', 'RUN_STARTED', 0.0], ['r', 'RUN_FINISHED', 0.5]]
    """
    if isinstance(source, pd.DataFrame):
        return source
    problems = Problems(errors)
    skipped: list[dict[str, str]] = []
    builder = EventTableBuilder()
    try:
        frame = _read(sources(source, skipped), builder, problems, progress, skipped)
    except SourceError:
        raise
    except OSError as exc:  # a file that went away since it was listed, or that the system would not read
        raise file_error(exc) from exc
    frame.attrs["errors"] = problems.items
    frame.attrs["skipped"] = skipped
    frame.attrs["odd_values"] = builder.odd_entries
    sent = tool_results_sent(source, frame)
    if sent:
        frame.attrs[TOOL_RESULTS_SENT] = sent
    decided = tool_decisions_sent(source, frame)
    if decided:
        frame.attrs[TOOL_DECISIONS_SENT] = decided
    problems.warn()
    _warn_skipped(skipped)
    warn_odd_values("load_events", builder.odd_entries)
    return frame


EMPTY_FILE = "empty: no events"
"""The reason ``attrs["skipped"]`` gives for a file that holds no events (no bytes, or only blank lines)."""


def _read(
    items: list[Source],
    builder: EventTableBuilder,
    problems: Problems,
    progress: bool | None,
    skipped: list[dict[str, str]],
) -> pd.DataFrame:
    bar = progress_bar(progress, sum(s.size for s in items))
    try:
        # Millions of short-lived dicts would trigger collections that find nothing to free.
        with collections_paused():
            for item in items:
                before = builder.rows, len(problems.items)
                code = builder.sources.code(item.name)
                for batch in normalized(item.batches(problems), item.name, problems):
                    builder.add(code, batch)
                    if bar is not None:
                        bar.update(batch.nbytes)
                    del batch  # freed before the next one is read: its memory serves the next
                item.data = None
                if (
                    item.path is not None
                    and item.slice is None
                    and (builder.rows, len(problems.items)) == before
                ):
                    skipped.append({"path": item.path, "reason": EMPTY_FILE})
            return builder.finish()
    finally:
        if bar is not None:
            bar.close()


def file_error(error: OSError) -> SourceError:
    """A system error met reading a log's files, as the family's :class:`SourceError` naming the file."""
    return unreadable(str(error.filename) if error.filename is not None else "<file>", error)


TOOL_RESULTS_SENT = "tool_results_sent"
"""The ``attrs`` key of a ChatWidget's events table that holds ``tool_results_sent``."""


def recorded_run_inputs(source: Any, frame: pd.DataFrame | None = None) -> list[tuple[int, dict[str, Any]]]:
    """The run inputs a chat sent: (how many records came before each run's events, the AG-UI wire
    ``RunAgentInput``). A chat (``Chat``, ``ChatWidget``) keeps them; a chat's log (``frame``, loaded from it)
    holds them in its ``run-start`` records; ``[]`` for any other source."""
    recorded = getattr(source, "run_inputs", None)
    if isinstance(recorded, list):
        return recorded
    if frame is None or not len(frame) or "line" not in frame:
        return []
    custom = (frame["type"] == "CUSTOM").to_numpy()
    if not custom.any():
        return []
    events, lines = frame["event"].array[custom], frame["line"].to_numpy()[custom]
    starts = []
    for i, line in enumerate(lines):
        try:
            event = events[i]
        except ValueError:  # an event the JSON reader cannot decode again (nested too deep): not one of ours
            continue
        if (
            isinstance(event, dict)
            and event.get("name") == RUN_START
            and isinstance(event.get("value"), dict)
        ):
            starts.append((line, event["value"]))
    decoded = decode_run_inputs(value for _, value in starts)
    return [(int(line), wire) for (line, _), wire in zip(starts, decoded, strict=True) if wire is not None]


def tool_results_sent(source: Any, frame: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """The results a ChatWidget sent for tool calls that have none among its events (``frame``, loaded from
    them): by tool call id, the ToolMessage of the first run input that carried it and that run's id
    (``{"runId", "message"}``).

    A frontend tool (one the chat runs itself) gets its result to the agent in the follow-up run's input,
    never in an event the agent streams; ``tool_calls_df`` reads its result and status from here. ``{}`` for
    a source that is no chat or chat log.
    """
    run_inputs = recorded_run_inputs(source, frame)
    if not run_inputs:
        return {}
    # The calls whose result is an event (an AI SDK stream's output chunks are read as TOOL_CALL_RESULTs).
    streamed = set(frame["tool_call_id"][frame["type"] == "TOOL_CALL_RESULT"].dropna().astype(str))
    sent: dict[str, dict[str, Any]] = {}
    for _, run_input in run_inputs:
        for message in run_input.get("messages") or ():
            if not isinstance(message, dict) or message.get("role") != "tool":
                continue
            call_id = message.get("toolCallId")
            if isinstance(call_id, str) and call_id not in streamed and call_id not in sent:
                sent[call_id] = {"runId": run_input.get("runId"), "message": message}
    return sent


TOOL_DECISIONS_SENT = "tool_decisions_sent"
"""The ``attrs`` key of a chat's events table that holds ``tool_decisions_sent``."""


def tool_decisions_sent(source: Any, frame: pd.DataFrame) -> dict[str, str]:
    """What a chat decided for the tool calls the user refused, by tool call id: ``"denied"`` (the user denied
    the approval) or ``"cancelled"`` (a new message cancelled it), from the run inputs it sent: a ToolMessage
    whose ``error`` is ``DENIED_TOOL_MESSAGE_ERROR``, or a resume entry answering the interrupt that asked for
    the call's approval (the interrupts are read from the frame's RUN_FINISHED events).

    The decision is the client's: it stands whatever the agent sends afterwards (agents commonly answer a denied
    call with a TOOL_CALL_RESULT "cancelled"). ``{}`` for a source that is no chat or chat log.
    """
    run_inputs = recorded_run_inputs(source, frame)
    if not run_inputs:
        return {}
    asked = _approvals_asked(frame) if any(run_input.get("resume") for _, run_input in run_inputs) else {}
    decided: dict[str, str] = {}
    for _, run_input in run_inputs:  # in order: the first decision on a call is the user's
        for entry in run_input.get("resume") or ():
            interrupt_id = entry.get("interruptId") if isinstance(entry, dict) else None
            call_id = asked.get(interrupt_id) if isinstance(interrupt_id, str) else None
            if call_id is None:
                continue
            payload = entry.get("payload")
            if entry.get("status") == "cancelled":
                decided.setdefault(call_id, "cancelled")
            elif (
                entry.get("status") == "resolved"
                and isinstance(payload, dict)
                and payload.get("approved") is False
            ):
                decided.setdefault(call_id, "denied")
        for message in run_input.get("messages") or ():
            if isinstance(message, dict) and message.get("role") == "tool":
                call_id = message.get("toolCallId")
                if isinstance(call_id, str) and message.get("error") == DENIED_TOOL_MESSAGE_ERROR:
                    decided.setdefault(call_id, "denied")
    return decided


def _approvals_asked(frame: pd.DataFrame) -> dict[str, str]:
    """Interrupt id -> the tool call whose approval it asks, from the frame's RUN_FINISHED interrupts."""
    asked: dict[str, str] = {}
    finished = (frame["type"] == "RUN_FINISHED").to_numpy()
    for event in frame["event"].array[finished] if finished.any() else ():
        outcome = event.get("outcome") if isinstance(event, dict) else None
        listed = outcome.get("interrupts") if isinstance(outcome, dict) else None
        for interrupt in listed if isinstance(listed, list) else ():
            if isinstance(interrupt, dict):
                interrupt_id, call_id = interrupt.get("id"), interrupt.get("toolCallId")
                if isinstance(interrupt_id, str) and isinstance(call_id, str):
                    asked[interrupt_id] = call_id
    return asked


def _warn_skipped(skipped: list[dict[str, str]]) -> None:
    """One warning naming the entries of the folders read that were not read (by folder)."""
    if not skipped:
        return
    by_folder: dict[str, list[str]] = {}
    for entry in skipped:
        folder, name = os.path.split(entry["path"])
        by_folder.setdefault(folder, []).append(name)
    parts = []
    empty = [entry["path"] for entry in skipped if entry["reason"] == EMPTY_FILE]
    for folder, found in by_folder.items():
        found = [name for name in found if os.path.join(folder, name) not in empty]
        if found:
            shown = ", ".join(found[:5]) + (f" and {len(found) - 5} more" if len(found) > 5 else "")
            parts.append(f"skipped {len(found)} entries of folder {folder!r} (not event logs): {shown}")
    if empty:
        shown = ", ".join(map(repr, empty[:5])) + (f" and {len(empty) - 5} more" if len(empty) > 5 else "")
        parts.append(f"{len(empty)} empty files (no events): {shown}")
    warn("; ".join(parts) + " (listed in df.attrs['skipped'])", EventLogWarning)


_CATEGORICAL = ("source", "thread_id", "run_id", "run_key", "type", "message_id", "tool_call_id",
                "tool_call_name", "parent_message_id", "role")  # fmt: skip
"""The events table's id columns, which the tables read as categorical codes."""


def events_table(source: Any) -> pd.DataFrame:
    """The events table of ``source``: itself when it already is one, else ``load_events(source)``.

    A table put together by hand (``pd.concat`` of two loads turns categoricals into objects) or saved before
    ``run_key`` existed is brought back to the loader's shape.
    """
    if not isinstance(source, pd.DataFrame):
        return load_events(source)
    missing = {"source", "type", "time", "run_id", "event"} - set(source.columns)
    if missing:
        raise OptionError(f"not an events table (from load_events): missing columns {sorted(missing)}")
    frame = source
    if "run_key" not in frame.columns:
        frame = frame.assign(run_key=_run_key_column(frame))
    dtypes = frame.dtypes  # once: frame[name] would build a Series per column
    odd = [
        name
        for name in _CATEGORICAL
        if name in dtypes.index and not isinstance(dtypes[name], pd.CategoricalDtype)
    ]
    if odd:
        frame = frame.assign(**{name: frame[name].astype("category") for name in odd})
    return frame


def _run_key_column(frame: pd.DataFrame) -> pd.Categorical:
    """Run keys for a table without them: runs told apart by source and ``run_id``."""
    pairs = pd.Series(list(zip(frame["source"].astype(str), frame["run_id"].astype(object), strict=True)))
    in_run = frame["run_id"].notna().to_numpy()
    codes, uniques = pd.factorize(pairs.where(in_run))
    keys = run_keys(["" if run_id is None else str(run_id) for _, run_id in uniques])
    return pd.Categorical.from_codes(np.where(in_run, codes, -1), categories=pd.Index(keys, dtype=object))
