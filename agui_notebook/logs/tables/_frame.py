"""The events table as the tables see it: numpy arrays with integer group keys, and the grouped reductions.

Every table groups the events table's rows with integer keys (a run is its ``run_key``; a message its run
and ``messageId``; a tool call its run and ``toolCallId``) and aggregates with numpy's and pandas'
grouped reductions, so a million events take well under a second per table. Only the few events whose
payload matters beyond the columns (RUN_FINISHED, RUN_ERROR, TOOL_CALL_RESULT, REASONING_ENCRYPTED_VALUE and
RUN_STARTED) are decoded from the ``event`` column. Column meanings are in ``_columns`` and docs/metrics.md.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from agui_notebook._errors import OptionError, check_error_mode
from agui_notebook._gc import collections_paused
from agui_notebook._types import ReadErrorMode

from .._arrays import (
    NAT,
    category_values,
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
    text_column,
    utc,
    word_count,
)
from .._by_file import by_file, column_array, file_paths
from .._event_array import EventArray
from .._load import load_events
from .._odd_values import OddValues, warn_odd_values

__all__ = [
    "NAT",
    "EventFrame",
    "category_values",
    "compact",
    "delta_texts",
    "first_in_group",
    "group_count",
    "group_max",
    "group_min",
    "group_quantiles",
    "join_by_key",
    "last_in_group",
    "read_table",
    "reading_documented",
    "seconds_between",
    "take",
    "text_column",
    "utc",
    "word_count",
]


_Shared = TypeVar("_Shared")

_UNDECODABLE = object()
"""An event of the ``event`` column that is not an object or does not decode."""


class EventFrame:
    """The events table as numpy arrays, with the integer keys every table groups by."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame
        self.n = len(frame)
        self._columns: dict[str, Any] = {}
        types = self.col("type")
        self.type_names = list(types.categories)
        self.types = types.codes
        self.time = _ns(frame["time"])
        self.chars = frame["chars"].to_numpy()
        # Compact run keys 0..runs-1 in order of first appearance.
        self.run_first_row, self.run = compact(self.col("run_key").codes.astype(np.int64))
        self.runs = len(self.run_first_row)
        self._masks: dict[frozenset[str], np.ndarray] = {}
        self._decoded: dict[int, Any] = {}
        self._shared: dict[Hashable, Any] = {}
        self.odd = OddValues()
        """Odd values in the payloads the table decodes (reported with the table by ``finished``)."""

    def bound(self, frame: pd.DataFrame | None) -> EventFrame:
        """This frame's arrays and shared work for one more table of ``frame`` (the same, unchanged events
        table: ``_shared``), with odd values of its own."""
        ev = copy.copy(self)
        # None for the base kept between tables (it must not hold the frame), which is only ever bound again.
        ev.frame = frame  # type: ignore[assignment]
        ev.odd = OddValues()
        ev._columns = {}
        return ev

    def col(self, name: str) -> Any:
        """The array of column ``name`` of the frame (a ``Categorical``, a numpy-backed array ...), read once
        per table: pandas builds a Series each time a column is taken, which costs more than the small
        files' tables do."""
        found = self._columns.get(name)
        if found is None:
            found = self._columns[name] = column_array(self.frame, name)
        return found

    def shared(self, name: str, build: Callable[[], _Shared]) -> _Shared:
        """What ``build`` makes of this frame, made once and shared by every table built from it."""
        if name not in self._shared:
            self._shared[name] = build()
        return self._shared[name]

    def kept_table(
        self,
        key: tuple[Hashable, ...],
        build: Callable[[], pd.DataFrame],
        warn_more: Callable[[pd.DataFrame], None] | None = None,
    ) -> pd.DataFrame:
        """The table ``build`` makes of this frame, made once (kept with the frame while it is unchanged:
        ``_shared``) and then given again, with the warnings it gave: its odd values, reported as ``key[0]``
        (the table function's name) reports them, and ``warn_more``'s; always a copy."""
        table = self._shared.get(key)
        if table is None:
            table = self._shared[key] = build()
        else:
            warn_odd_values(str(key[0]), table.attrs["odd_values"])
            if warn_more is not None:
                warn_more(table)
        return table.copy()

    def mask(self, wanted: frozenset[str]) -> np.ndarray:
        """Per row: is its type one of ``wanted`` (read-only: shared by the tables built from this frame)."""
        found = self._masks.get(wanted)
        if found is None:
            lookup = np.array([name in wanted for name in self.type_names] + [False], dtype=bool)
            found = lookup[self.types]
            found.flags.writeable = False
            self._masks[wanted] = found
        return found

    def owner(self, column: str, rows: np.ndarray | None = None) -> np.ndarray:
        """Key of (run, id column) per row, or per row of ``rows``; -1 where the id is missing. Events outside
        runs are keyed by their source instead of their run (a file's stray events never join another file's)."""
        codes = self.col(column).codes
        run = self.run
        if rows is not None:
            codes, run = codes[rows], run[rows]
        ids = codes.astype(np.int64)
        del codes
        group = run.copy() if rows is None else run
        outside = np.flatnonzero(group < 0)
        if len(outside):
            sources = self.col("source").codes
            group[outside] = self.runs + sources[outside if rows is None else rows[outside]]
        group *= len(self.col(column).categories) + 1
        group += ids
        group[ids < 0] = -1
        return group

    def decode(self, rows: np.ndarray, odd: OddValues | None = None) -> list[Any]:
        """The full events at ``rows``, decoded from the ``event`` column (None, reported in ``odd``, by
        default the frame's, for one that is not an object or does not decode: a table put together by hand,
        a recursion limit raised at load).

        Each event is decoded once per frame: the tables built from it share the dicts (and never change them).
        """
        odd = self.odd if odd is None else odd
        wanted = np.asarray(rows).tolist()
        decoded = self._decoded
        missing = [row for row in dict.fromkeys(wanted) if row not in decoded]
        if missing:
            array = self.frame["event"].array
            events = None
            if isinstance(array, EventArray):
                try:
                    events = array.decode_rows(missing)
                except (ValueError, RecursionError, TypeError, KeyError, IndexError):
                    events = None  # one of them does not decode: each is read alone below
            if events is None:
                events = []
                for row in missing:
                    try:
                        events.append(array[row])
                    except (ValueError, RecursionError, TypeError, KeyError, IndexError):
                        events.append(_UNDECODABLE)
            for row, event in zip(missing, events, strict=True):
                decoded[row] = event if isinstance(event, dict) else _UNDECODABLE
        out = []
        for row in wanted:
            event = decoded[row]
            if event is _UNDECODABLE:
                odd.add(row, "event", "the event does not decode to an object (read as none)")
                event = None
            out.append(event)
        return out

    def finished(self, table: pd.DataFrame, where: str) -> pd.DataFrame:
        """``table`` with the odd values met building it in ``attrs["odd_values"]``, and their warning."""
        frame = self.frame
        lines = frame["line"].to_numpy() if "line" in frame.columns else np.arange(1, self.n + 1)
        sources = frame["source"]
        entries = self.odd.entries(
            lambda row: str(sources.iloc[row]),
            lambda row: int(lines[row]),
            lambda row: str(self.type_names[self.types[row]]) if self.types[row] >= 0 else "?",
        )
        table.attrs["odd_values"] = entries
        warn_odd_values(where, entries)
        return table


READING_PARAMETERS = """\
    workers : int, optional
        Files are read file by file (never more than a file's events at once); ``workers=n`` reads them on a
        pool of ``n`` worker processes (a :class:`~agui_notebook.WorkerError` lists the files of a worker that
        stopped). Only for files.
    client : dask.distributed.Client, optional
        Reads the files on a Dask cluster instead. Only for files.
    lazy : bool, default False
        With ``client=``: a ``dask.dataframe.DataFrame`` whose partitions stay on the cluster, one per batch
        of files (small files together up to 4 MB, a larger file alone).
    progress : bool, optional
        A tqdm progress bar while reading: ``None`` when reading takes more than half a second, ``True``
        always, ``False`` never.
    errors : {"raise", "collect"}, default "raise"
        An unreadable line raises an :class:`~agui_notebook.EventParseError` naming the file and line
        (``"raise"``), or is skipped and listed in ``attrs["errors"]`` with a warning (``"collect"``), as
        :func:`~agui_notebook.load_events` reads.
"""
"""The parameters every table function takes for reading its events, in the docstrings' NumPy style."""

EVENTS_PARAMETER = """\
    events : DataFrame or log source
        The events table :func:`~agui_notebook.load_events` returns, or anything it reads: a path, glob, folder
        or list of paths (read file by file), JSONL/JSON/SSE text, a list of events, a recorder, a ChatWidget.
"""

_Documented = TypeVar("_Documented", bound=Callable[..., Any])


def reading_documented(table_function: _Documented) -> _Documented:
    """``table_function`` with ``events`` and the reading parameters in its docstring's Parameters section (the
    first and the last entries: written once, here). The docstring has a Parameters section (empty when the
    function has no options of its own) followed by a Returns section."""
    head, parameters, rest = (table_function.__doc__ or "").partition("    Parameters\n    ----------\n")
    own, returns, tail = rest.partition("    Returns\n")
    own = own.rstrip() + "\n" if own.strip() else ""
    table_function.__doc__ = f"{head}{parameters}{EVENTS_PARAMETER}{own}{READING_PARAMETERS}\n{returns}{tail}"
    return table_function


def read_table(
    name: str,
    build: Callable[..., pd.DataFrame],
    events: Any,
    options: dict[str, Any],
    *,
    workers: int | None,
    client: Any,
    lazy: bool,
    progress: bool | None,
    errors: ReadErrorMode,
) -> Any:
    """``build(events, **options)``, the table ``name`` of ``events``: files (a path, glob, folder or list of
    paths) are read file by file (``_by_file``: here, on a pool of ``workers``, or on Dask's ``client``);
    anything else is loaded (with ``progress`` and ``errors``) and built at once."""
    skipped: list[dict[str, str]] = []
    paths = file_paths(events, skipped)
    if paths is None:
        if workers is not None or client is not None or lazy:
            raise OptionError(
                f"{name}: workers=, client= and lazy= read files: give a path, glob, folder or list of paths"
            )
        check_error_mode(errors, ("raise", "collect"))
        if (errors != "raise" or progress is not None) and not isinstance(events, pd.DataFrame):
            events = load_events(events, errors=errors, progress=progress)
        return built(build, options, events)
    tables = by_file(
        paths,
        {name: functools.partial(built, build, options)},
        errors=errors,
        workers=workers,
        client=client,
        lazy=lazy,
        progress=progress,
        skipped=skipped,
    )
    return tables[name]


def built(build: Callable[..., pd.DataFrame], options: dict[str, Any], events: Any) -> pd.DataFrame:
    """``build(events, **options)``, without the garbage collector: the tens of thousands of payload dicts a
    table decodes would trigger collections that free nothing (a third of the time of runs_df at a million
    events). Module-level, so that a process pool or Dask pickles it (by name) with its table."""
    with collections_paused():
        return build(events, **options)


def _ns(column: pd.Series) -> np.ndarray:
    return column.to_numpy(dtype="datetime64[ns]").view(np.int64)


def delta_texts(ev: EventFrame) -> np.ndarray:
    """The ``delta`` column as an object array, for joining (shared by the tables of ``ev``; often the
    column's own array: never written)."""
    return ev.shared("deltas", lambda: ev.frame["delta"].to_numpy(dtype=object))
