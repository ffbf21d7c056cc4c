"""What the inspect functions read: a source (log, events frame, event list, ChatWidget) as its events frame,
and one run of it picked by ``run=``.

Every source goes through ``load_events`` once, so an AI SDK chunk stream, a recorder log and a list of AG-UI
events are all read as the same AG-UI events the tables see. An **event index** is a row of that frame (for
AG-UI events: their 0-based position in the input).

>>> picked = inspected_run([
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r2"},
...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r2"},
... ], run=-1)
>>> picked.label, picked.start, [e["type"] for e in picked.events]
("run 'r2'", 2, ['RUN_STARTED', 'RUN_FINISHED'])
"""

from __future__ import annotations

import bisect
import io
import os
from dataclasses import dataclass
from typing import Any

import pandas as pd

from agui_notebook._errors import OptionError
from agui_notebook._shown import shown
from agui_notebook.logs._load import events_table, load_events, recorded_run_inputs

__all__ = ["PREFIX", "InspectedRun", "chat_run_inputs", "events_frame", "events_frame_upto", "inspected_run"]

PREFIX = "read_upto"
"""The ``attrs`` key set on a frame ``events_frame_upto`` read from the start of a file only."""

_FIRST_READ = 1 << 16
"""The bytes ``events_frame_upto`` reads first; each further read doubles them."""


def events_frame(source: Any) -> pd.DataFrame:
    """The events frame of ``source``: a frame from ``load_events`` as it is, else ``load_events(source)``
    (paths, text, event lists, recorders, anything with an ``events`` list of records such as a ChatWidget)."""
    if isinstance(source, pd.DataFrame):
        return events_table(source)
    return load_events(source)


def events_frame_upto(source: Any, row: int) -> pd.DataFrame:
    """An events frame of ``source`` whose rows up to ``row`` are ``events_frame(source)``'s, reading a log file
    only as far as it must: its first 64 kB, then twice as much until row ``row`` came from a line that is not
    the last one read (a later line cannot change it). Work in proportion to ``row``, not to the file.

    Any other source, a gzip or JSON-array file, or a prefix the reader refuses is read whole. A frame read in
    part has ``attrs[PREFIX] = True``.
    """
    path = _plain_log_path(source)
    if path is None or row < 0:
        return events_frame(source)
    size = os.path.getsize(path)
    length = _FIRST_READ
    with open(path, "rb") as handle:
        while length < size:
            data = os.pread(handle.fileno(), length, 0)
            cut = data.rfind(b"\n")
            if cut > 0:
                frame = _prefix_frame(data[: cut + 1], row)
                if frame is not None:
                    frame.attrs[PREFIX] = True
                    return frame
            length *= 2
    return events_frame(source)


def _plain_log_path(source: Any) -> str | None:
    """The path of ``source`` when it names one plain (not gzip) log file of lines, else ``None``."""
    if not isinstance(source, (str, os.PathLike)):
        return None
    path = os.fspath(source)
    if not isinstance(path, str) or "\n" in path or any(c in path for c in "*?[") or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as handle:
            head = handle.read(64).lstrip()
    except OSError:
        return None
    return None if head[:2] == b"\x1f\x8b" or head[:1] == b"[" else path


def _prefix_frame(data: bytes, row: int) -> pd.DataFrame | None:
    """The frame of the first lines of a log when its rows up to ``row`` all came from readable lines before the
    last one read (whose events a reader may still complete at the end of its input), else ``None``. Lines after
    row ``row``'s may be unreadable: a whole read would stop there, but nothing up to ``row`` depends on them."""
    import warnings

    from agui_notebook._errors import AguiNotebookError, EventLogWarning

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = load_events(io.BytesIO(data), errors="collect")
    except AguiNotebookError:
        return None
    if "line" not in frame or len(frame) <= row:
        return None
    lines = frame["line"].to_numpy()
    last = int(lines[row])
    unread = [p.get("line") for p in frame.attrs.get("errors") or ()]
    if any(line is None or line <= last for line in unread) or last >= max([int(lines.max()), *unread]):
        return None
    frame.attrs["errors"] = []
    for warning in caught:  # what the read found odd (its skipped lines come after the rows asked for)
        if not (issubclass(warning.category, EventLogWarning) and "unreadable" in str(warning.message)):
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return frame


@dataclass
class InspectedRun:
    """The events of one run of a source (or of the whole source when no run was picked)."""

    frame: pd.DataFrame
    """Its rows of the events frame, renumbered from 0."""
    events: list[dict[str, Any]]
    """The same rows as AG-UI wire dicts."""
    start: int
    """The event index (row of the source's frame) of its first event: ``events[i]`` is event ``start + i``."""
    label: str
    """How messages name it: ``run 'r2'``, or ``the events`` for a whole source."""
    inputs: dict[int, dict[str, Any]]
    """A chat's run inputs by the row (of ``frame``) where each run begins (``chat_run_inputs``)."""

    def where(self, row: int) -> str:
        """How messages name the event at ``row`` of ``frame``: ``event 12 (TOOL_CALL_START)``."""
        return f"event {self.start + row} ({self.frame['type'].iloc[row]})"


def chat_run_inputs(source: Any, frame: pd.DataFrame) -> dict[int, dict[str, Any]]:
    """A chat's run inputs by the row of ``frame`` (its events frame, or its log's) where each run's events begin
    (the number of rows read before it; ``len(frame)`` for a run that has none yet); ``{}`` for any other source.

    The user's turns and the state a chat sends are in its run inputs, not in the events the agent streams.
    """
    recorded = recorded_run_inputs(source, frame)
    if not recorded or "line" not in frame:
        return {}
    lines = frame["line"].tolist()  # 1-based places in chat.events, ascending
    return {bisect.bisect_right(lines, count): wire for count, wire in recorded}


def _run_keys(frame: pd.DataFrame) -> list[str]:
    """The run keys in order of first appearance."""
    keys = frame["run_key"].dropna().astype(str)
    return list(dict.fromkeys(keys.tolist()))


def inspected_run(source: Any, run: int | str | None = None) -> InspectedRun:
    """The events of run ``run`` of ``source``: its index among the source's runs (in order of their first
    event; negative counts from the end) or its ``run_id`` (or ``run_key``, ``r#2`` style, when runs share an
    id); ``None`` takes every event of the source."""
    frame = events_frame(source)
    inputs = chat_run_inputs(source, frame)
    if run is None:
        return InspectedRun(frame.reset_index(drop=True), _events(frame), 0, "the events", inputs)
    keys = _run_keys(frame)
    if isinstance(run, bool) or not isinstance(run, (int, str)):
        raise OptionError(f"run={shown(run)}: give a run's index or id, not a {type(run).__name__}")
    if isinstance(run, int):
        if not -len(keys) <= run < len(keys):
            raise OptionError(f"run={shown(run)}: the source has {len(keys)} runs")
        key = keys[run]
    else:
        by_id = [
            k for k in keys if k == run or str(frame.loc[frame["run_key"] == k, "run_id"].iloc[0]) == run
        ]
        if not by_id:
            listed = ", ".join(repr(k) for k in keys) or "none"
            raise OptionError(f"run={shown(run)}: no run has that id (runs: {listed})")
        if len(by_id) > 1 and run not in by_id:
            listed = ", ".join(repr(k) for k in by_id)
            raise OptionError(f"run={shown(run)}: {len(by_id)} runs have that id; pick one by key ({listed})")
        key = run if run in by_id else by_id[0]
    rows = (frame["run_key"] == key).to_numpy().nonzero()[0]
    picked = frame.iloc[rows].reset_index(drop=True)
    run_id = picked["run_id"].iloc[0]
    label = f"run {key!r}" if str(run_id) == key else f"run {key!r} (id {run_id!r})"
    place = {int(row): i for i, row in enumerate(rows)}
    kept = {place[row]: wire for row, wire in inputs.items() if row in place}
    return InspectedRun(picked, _events(picked), int(rows[0]), label, kept)


def _events(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [event if isinstance(event, dict) else {} for event in frame["event"]]
