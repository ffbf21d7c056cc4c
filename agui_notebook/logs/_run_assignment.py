"""Which run every event belongs to, found from the RUN_STARTED, RUN_FINISHED and RUN_ERROR events.

Only the boundary events are looked at; everything between them is filled in with numpy, from stretches of
consecutive events in the same run (or in none).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._read import NO_TIME

__all__ = ["Segments", "assign_runs", "run_keys"]


class Segments:
    """Stretches of consecutive events in the same run (or in none), and each run's run and thread codes."""

    def __init__(
        self, starts: list[int], runs: list[int], n: int, run_codes: list[int], thread_codes: list[int]
    ) -> None:
        self.starts = np.array(starts, dtype=np.int64)
        self.runs = np.array(runs, dtype=np.int64)
        self.lengths = np.diff(np.append(self.starts, n))
        self.n = n
        self.run_count = len(run_codes)
        self.run_codes = np.array([*run_codes, -1], dtype=np.int32)  # index -1: no run
        self.thread_codes = np.array([*thread_codes, -1], dtype=np.int32)

    def spread(self, per_run: np.ndarray) -> np.ndarray:
        """A per-run value on every event of the run."""
        return np.repeat(per_run[self.runs], self.lengths)

    def since_start(self, time_ns: np.ndarray, types: np.ndarray, started: int) -> np.ndarray:
        """Seconds since each event's run started: its RUN_STARTED, else its earliest timed event."""
        if not self.run_count or not self.n:
            return np.full(self.n, np.nan)
        never = np.iinfo(np.int64).max
        earliest = np.minimum.reduceat(np.where(time_ns == NO_TIME, never, time_ns), self.starts)
        start = np.full(self.run_count + 1, never, dtype=np.int64)
        np.minimum.at(start, self.runs, earliest)
        start_rows = np.flatnonzero(types == started)
        row_run = self.runs[np.searchsorted(self.starts, start_rows, side="right") - 1]
        stamped = time_ns[start_rows] != NO_TIME
        start[row_run[stamped]] = time_ns[start_rows[stamped]]
        start[-1] = never
        origin = self.spread(start)
        known = (origin != never) & (time_ns != NO_TIME)
        if known.all():
            return (time_ns - origin) / 1e9
        t = np.full(self.n, np.nan)
        t[known] = (time_ns[known] - origin[known]) / 1e9
        return t

    def positions(self, source: np.ndarray) -> np.ndarray:
        """0-based position of each event in its run (events outside runs: among those of their source)."""
        if not self.n:
            return np.empty(0, dtype=np.int32)
        group = np.where(self.runs >= 0, self.runs, self.run_count + source[self.starts])
        if len(np.unique(group)) == len(group):
            # Every run is one stretch of events (no nesting, no interleaving): count from its start.
            return (np.arange(self.n, dtype=np.int64) - np.repeat(self.starts, self.lengths)).astype(np.int32)
        rows = np.repeat(group, self.lengths)
        return pd.Series(rows).groupby(rows, sort=False).cumcount().to_numpy(dtype=np.int32)


def run_keys(run_ids: list[str]) -> list[str]:
    """The key of each run (in load order) given its run id ("" for none): what tells runs apart.

    A run id that no other run of the load uses is its run's key; the runs of a reused id (and runs with
    none) are numbered in load order, ``r#1``, ``r#2``, ... (``#1`` without an id), skipping any number that
    would give another run's id.

    >>> run_keys(["a", "r", "r", "", "r#2", "r"])
    ['a', 'r#1', 'r#3', '#1', 'r#2', 'r#4']
    """
    uses: dict[str, int] = {}
    for run_id in run_ids:
        uses[run_id] = uses.get(run_id, 0) + 1
    taken = set(run_ids)
    counters: dict[str, int] = {}
    keys = []
    for run_id in run_ids:
        if run_id and uses[run_id] == 1:
            keys.append(run_id)
            continue
        number = counters.get(run_id, 0)
        while True:
            number += 1
            key = f"{run_id}#{number}"
            if key not in taken:
                break
        counters[run_id] = number
        taken.add(key)
        keys.append(key)
    return keys


def assign_runs(
    types: np.ndarray,
    type_index: dict[str, int],
    source_starts: np.ndarray,
    run_ids: dict[int, int],
    thread_ids: dict[int, int],
) -> Segments:
    """Which run every event belongs to, found by walking the run boundaries only.

    Runs nest: an event belongs to the innermost run started and not yet finished in its source. A
    RUN_FINISHED for a run whose start is not in the log claims the events since the previous run ended.

    A run continues across sources (a log rotated mid-run) when the next source's first run boundary is
    the RUN_FINISHED of a run still open at the end of the previous one: the runs open there stay open,
    and the events before that RUN_FINISHED are theirs. Otherwise each source starts outside any run.
    """
    n = len(types)
    started = type_index.get("RUN_STARTED", -2)
    finished = type_index.get("RUN_FINISHED", -2)
    errored = type_index.get("RUN_ERROR", -2)
    boundary = np.flatnonzero((types == started) | (types == finished) | (types == errored))
    run_codes: list[int] = []
    thread_codes: list[int] = []
    change_rows: list[int] = []
    change_runs: list[int] = []
    stack: list[int] = []
    carried: list[int] = []  # the runs open at the end of the previous source
    source_start = -1  # the current source's first row while no run boundary of it has been met
    source_row = 0  # the current source's first row

    def change(row: int, run: int) -> None:
        """From ``row`` on, events belong to ``run`` (stretches of one run stay one segment)."""
        if change_rows and change_rows[-1] == row:
            change_runs[-1] = run
            if len(change_runs) > 1 and change_runs[-2] == run:
                change_rows.pop()
                change_runs.pop()
        elif not change_runs or change_runs[-1] != run:
            change_rows.append(row)
            change_runs.append(run)

    def new_run(row: int) -> int:
        run_codes.append(run_ids.get(row, -1))
        thread_codes.append(thread_ids.get(row, -1))
        return len(run_codes) - 1

    markers = np.concatenate([boundary, source_starts]).astype(np.int64)
    is_source_start = np.concatenate([np.zeros(len(boundary), bool), np.ones(len(source_starts), bool)])
    # At the same row a source start comes first.
    order = np.argsort(np.concatenate([boundary * 2 + 1, source_starts * 2]), kind="stable")
    for position in order.tolist():
        row = int(markers[position])
        if is_source_start[position]:
            carried = stack[:]
            stack.clear()
            source_start = source_row = row
            change(row, -1)
            continue
        kind = types[row]
        if source_start >= 0:
            if kind == finished and any(run_codes[run] == run_ids.get(row, -2) for run in carried):
                stack[:] = carried
                change(source_start, stack[-1])
            source_start = -1
        if kind == started:
            stack.append(new_run(row))
            change(row, stack[-1])
            continue
        if kind == finished:
            run_code = run_ids.get(row, -1)
            match = next((i for i in range(len(stack) - 1, -1, -1) if run_codes[stack[i]] == run_code), None)
            if match is None and run_code < 0 and stack:
                match = len(stack) - 1
            if match is not None:
                key = stack.pop(match)
            else:
                key = new_run(row)
                if not stack and change_runs and change_runs[-1] == -1:
                    # The events since the last run ended (in this source) belong to this one.
                    if change_rows[-1] < source_row:
                        change(source_row, key)
                    else:
                        change_runs[-1] = key
        else:
            if not stack:
                continue  # a RUN_ERROR outside any run names no run to attach to
            key = stack.pop()
        change(row, key)
        if row + 1 < n:
            change(row + 1, stack[-1] if stack else -1)
    if not change_rows or change_rows[0] != 0:
        change_rows.insert(0, 0)
        change_runs.insert(0, -1)
    if not n:
        change_rows, change_runs = [], []
    return Segments(change_rows, change_runs, n, run_codes, thread_codes)
