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
from dataclasses import dataclass
from typing import Any

import pandas as pd

from agui_notebook._errors import OptionError
from agui_notebook._shown import shown
from agui_notebook.logs._load import events_table, load_events, recorded_run_inputs

__all__ = ["InspectedRun", "chat_run_inputs", "events_frame", "inspected_run"]


def events_frame(source: Any) -> pd.DataFrame:
    """The events frame of ``source``: a frame from ``load_events`` as it is, else ``load_events(source)``
    (paths, text, event lists, recorders, anything with an ``events`` list of records such as a ChatWidget)."""
    if isinstance(source, pd.DataFrame):
        return events_table(source)
    return load_events(source)


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
