"""The tables of many log files, file by file: only the tables are kept, on a process pool or a Dask cluster.

Given a path, glob, folder or list of paths, the tables (``runs_df``, ``tool_calls_df``, ...) are built one
file at a time (small files a few together: ``BATCH_BYTES``) and put together, so memory holds one file's
events at most, or a batch's. Every table keys its rows by
run, and runs stay inside their file except when a log was cut mid-run (``_run_assignment``): the files of
such a run are read together (also when a run closes in a later file than the next). Run keys are then given
over the whole load, exactly as ``load_events`` of all the files would (``run_keys``), and the categorical
columns take the categories of the whole load, so the tables equal those of the whole events table, row for
row. One large plain JSONL log is read slice by slice, each slice a file here (``_file_slices``).

The per-file work runs in this process, on ``workers`` processes (``concurrent.futures``; see
``start_method``), or on a ``dask.distributed`` cluster (``client``); ``lazy=True`` with a client leaves the
tables on the cluster as ``dask.dataframe`` tables.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import warnings
from collections.abc import Callable, Hashable, Iterator
from typing import Any, cast

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from agui_notebook._errors import (
    EventLogWarning,
    OptionalDependencyError,
    OptionError,
    SourceError,
    WorkerError,
    internal_failure,
    warn,
)
from agui_notebook._shown import shown
from agui_notebook._types import ReadErrorMode

from ._columns import RUN_COLUMNS, names
from ._file_slices import piece_size, split_large_files
from ._load import EMPTY_FILE, _warn_skipped, file_error, load_events, progress_bar
from ._odd_values import id_text, warn_odd_values
from ._read import Problems
from ._run_assignment import assign_runs, run_keys
from ._run_models import inherit_models
from ._sources import sources

__all__ = ["FilePart", "by_file", "column_array", "file_part", "file_paths", "start_method"]

_BOUNDARIES = ("RUN_STARTED", "RUN_FINISHED", "RUN_ERROR")
_RUN_TABLE_COLUMNS = frozenset(name for name in names(RUN_COLUMNS) if name != "cost_usd")
"""The columns that tell a runs table (``runs_df``), whose models are given over the whole load."""


def file_paths(source: Any, skipped: list[dict[str, str]]) -> list[str] | None:
    """The files ``source`` names when it names files (a path, glob, folder or list of paths), else None."""
    if isinstance(source, pd.DataFrame) or not isinstance(source, (str, os.PathLike, list, tuple)):
        return None
    if isinstance(source, (list, tuple)) and not (
        source and all(isinstance(s, (str, os.PathLike)) for s in source)
    ):
        return None
    items = sources(source, skipped)
    if any(item.path is None for item in items):
        return None  # text given as a string
    return [item.path for item in items if item.path is not None]


class FilePart:
    """What one file (or a few files read together) gives: its tables, its runs and its run boundaries."""

    __slots__ = ("boundaries", "empty", "errors", "events", "odd", "run_ids", "source_starts", "tables")

    def __init__(self, tables: dict[str, pd.DataFrame], frame: pd.DataFrame) -> None:
        self.tables = tables
        self.events = len(frame)
        self.errors = frame.attrs.get("errors", [])
        self.empty: list[dict[str, str]] = [
            e for e in frame.attrs.get("skipped", []) if e["reason"] == EMPTY_FILE
        ]
        self.odd = {name: table.attrs.get("odd_values", []) for name, table in tables.items()}
        self.odd["load_events"] = frame.attrs.get("odd_values", [])
        self.run_ids = _run_ids(frame)
        self.boundaries, self.source_starts = _boundaries(frame)


def _run_ids(frame: pd.DataFrame) -> list[str]:
    """The run id of each run, in run key order ("" for none)."""
    keys = frame["run_key"].cat.codes.to_numpy()
    ids = frame["run_id"].cat.codes.to_numpy()
    per_run = np.full(len(frame["run_key"].cat.categories), -1, dtype=np.int64)
    per_run[keys[keys >= 0]] = ids[keys >= 0]
    names = list(frame["run_id"].cat.categories)
    return [names[code] if code >= 0 else "" for code in per_run.tolist()]


def _boundaries(frame: pd.DataFrame) -> tuple[list[tuple[int, str | None]], list[int]]:
    """The part's run boundaries in order (0 started, 1 finished, 2 error; the event's own run id), and where
    in them each of its files with events begins."""
    types = frame["type"]
    kinds = np.array([_BOUNDARIES.index(t) if t in _BOUNDARIES else -1 for t in types.cat.categories] + [-1])
    kind = kinds[types.cat.codes.to_numpy()]
    rows = np.flatnonzero(kind >= 0)
    sources = frame["source"].cat.codes.to_numpy()
    first_rows = np.flatnonzero(np.r_[True, sources[1:] != sources[:-1]]) if len(sources) else sources
    source_starts = np.searchsorted(rows, first_rows).tolist()
    events = frame["event"].array
    out = []
    for row in rows.tolist():
        try:
            event = events[row]
        except (ValueError, RecursionError, TypeError, KeyError, IndexError):
            event = None
        run_id = event.get("runId") if isinstance(event, dict) else None
        out.append((int(kind[row]), None if run_id is None else id_text(run_id)))
    return out, source_starts


def file_part(
    paths: list[str], builders: dict[str, Callable[..., pd.DataFrame]], errors: ReadErrorMode
) -> FilePart:
    """The tables of ``paths`` read together (one file, or the files of runs cut across them)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EventLogWarning)  # reported once for the whole load
        frame = load_events(paths, errors=errors, progress=False)
        tables = {name: build(frame) for name, build in builders.items()}
    return FilePart(tables, frame)


def _continued_from(parts: list[FilePart]) -> list[int]:
    """Per part: the first earlier part whose run it continues (a boundary of a run started there), else -1.

    Found by assigning runs to the boundaries of all the parts, each of their files starting a source, as
    ``load_events`` of all the files would.
    """
    type_index = {name: i for i, name in enumerate(_BOUNDARIES)}
    types: list[int] = []
    starts: list[int] = []
    run_ids: dict[int, int] = {}
    codes: dict[str, int] = {}
    for part in parts:
        # Each file with events starts a source (as in load_events; a file without events starts none).
        starts.extend(len(types) + start for start in part.source_starts)
        for kind, run_id in part.boundaries:
            if run_id is not None:
                run_ids[len(types)] = codes.setdefault(run_id, len(codes))
            types.append(kind)
    if not types:
        return [-1] * len(parts)
    segments = assign_runs(np.array(types, dtype=np.int16), type_index, np.array(starts), run_ids, {})
    run_of_row = segments.spread(np.append(np.arange(segments.run_count), -1))
    source_of_row = np.repeat(np.arange(len(parts)), [len(p.boundaries) for p in parts])
    first_source = np.full(segments.run_count + 1, len(parts))
    valid = run_of_row >= 0
    np.minimum.at(first_source, run_of_row[valid], source_of_row[valid])
    earliest = np.full(len(parts), len(parts))
    np.minimum.at(earliest, source_of_row[valid], first_source[run_of_row[valid]])
    return [int(e) if e < i else -1 for i, e in enumerate(earliest.tolist())]


MAX_WORKERS = 1024
"""The most worker processes ``workers=`` takes (the pool never starts more than there are batches of files)."""

BATCH_BYTES = 4 << 20
"""Small files are read together until a batch holds this many bytes: every read pays a fixed cost (about
15 ms for the load and two tables), which a log of one conversation (tens of KB) would otherwise pay alone.
Memory then holds a batch's events at most, as it holds a 4 MB file's."""


def _batches(paths: list[Any]) -> tuple[list[list[Any]], list[int]]:
    """``paths`` in order, in batches read together (small files up to ``BATCH_BYTES``, larger ones alone),
    and the bytes each batch holds."""
    batches: list[list[Any]] = []
    sizes: list[int] = []
    for path in paths:
        found = piece_size(path)
        if not batches or sizes[-1] + found > BATCH_BYTES:
            batches.append([])
            sizes.append(0)
        batches[-1].append(path)
        sizes[-1] += found
    return batches, sizes


def _groups(paths: list[Any], continued_from: list[int]) -> list[list[int]]:
    """The parts in groups read together: a part that continues a run of an earlier one joins it and every
    part between them."""
    groups: list[list[int]] = []
    for i in range(len(paths)):
        earliest = continued_from[i]
        if earliest < 0:
            groups.append([i])
            continue
        merged = [i]
        while groups and groups[-1][-1] >= earliest:
            merged[:0] = groups.pop()
            if merged[0] <= earliest:
                break
        groups.append(merged)
    return groups


class _Runner:
    """Runs ``file_part`` over groups of files: here, on a process pool or on a Dask cluster.

    On a cluster the parts stay there (as futures); only their outline (``_outline``) comes back.
    """

    def __init__(self, workers: int | None, client: Any) -> None:
        self.client = client
        self.pool: Any = None
        self.start_failure: BaseException | None = None
        """Why the pool's workers could not start (its fork server gone, no processes left): the files are then
        reported unread by ``map``."""
        if client is None and workers is not None and workers > 1:
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context(start_method())
            if context.get_start_method() == "forkserver":
                context.set_forkserver_preload([__name__, "agui_notebook.logs._summary"])  # and the tables
            self.pool = ProcessPoolExecutor(workers, mp_context=context)
            try:
                # Forked workers start at the first task: start them now, before a progress bar's thread.
                self.pool.submit(os.getpid)
            except _START_FAILURES as exc:
                self.start_failure = exc

    def map(
        self,
        groups: list[list[str]],
        builders: dict[str, Any],
        errors: ReadErrorMode,
        bar: Any = None,
        sizes: list[int] | None = None,
    ) -> tuple[list[Any], list[FilePart]]:
        """The parts of ``groups`` (futures on a cluster, else the parts) and their outlines, in order; ``bar``
        advances by each group's bytes (``sizes``) as it is read."""
        sizes = sizes if sizes is not None else [0] * len(groups)
        if self.client is not None:
            from distributed import as_completed

            futures = [self.client.submit(file_part, group, builders, errors, pure=False) for group in groups]
            outlines = [self.client.submit(_outline, future, pure=False) for future in futures]
            position = {outline.key: i for i, outline in enumerate(outlines)}
            found: list[Any] = [None] * len(groups)
            for outline in as_completed(outlines):
                i = position[outline.key]
                found[i] = outline.result()
                _advance(bar, sizes[i])
            return futures, found
        if self.start_failure is not None:
            raise _not_started([path for group in groups for path in group], self.start_failure)
        if self.pool is not None:
            parts = _pooled(self.pool, groups, builders, errors)
        else:
            parts = (file_part(group, builders, errors) for group in groups)
        out = []
        for part, size in zip(parts, sizes, strict=True):
            out.append(part)
            _advance(bar, size)
        return out, out

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=self.start_failure is not None)


def _pooled(
    pool: Any, groups: list[list[str]], builders: dict[str, Any], errors: ReadErrorMode
) -> Iterator[FilePart]:
    """The parts of ``groups`` from the process pool, in order; a worker that stopped is named by its files."""
    from concurrent.futures import wait
    from concurrent.futures.process import BrokenProcessPool

    futures = []
    for group in groups:
        try:
            futures.append(pool.submit(file_part, group, builders, errors))
        except (*_START_FAILURES, BrokenProcessPool) as error:
            unread = [path for rest in groups[len(futures) :] for path in rest]
            raise _not_started(unread, error) from error
    for future in futures:
        try:
            yield future.result()
        except BrokenProcessPool as error:
            wait(futures)  # a broken pool ends every task it had not finished
            unread = [
                path
                for group, other in zip(groups, futures, strict=True)
                if isinstance(other.exception(), BrokenProcessPool)
                for path in group
            ]
            raise WorkerError(
                "a worker process stopped before it returned its tables: it could not start (a script that "
                "starts the pool outside `if __name__ == '__main__':`, see its traceback above) or it was "
                "killed (out of memory?); try fewer workers= or none. Not read: " + ", ".join(unread),
                paths=unread,
            ) from error


_START_FAILURES = (OSError, EOFError)
"""What starting a worker raises when the fork server is gone (refused, or dead in the middle of a fork)."""


def _not_started(unread: list[str], error: BaseException) -> WorkerError:
    return WorkerError(
        f"the process pool could not start its workers ({internal_failure(error)}): try again, or fewer "
        "workers= or none. Not read: " + ", ".join(unread),
        paths=unread,
    )


def start_method() -> str:
    """How the process pool starts its workers: the fastest way that is safe here.

    ``fork`` on Linux in a process with one thread (a script): workers start in milliseconds with the
    package already imported, and a script needs no ``if __name__ == "__main__"`` guard. With other threads
    running (a Jupyter kernel, a Dask client, a progress bar's monitor) forking could copy a lock another
    thread holds, so ``forkserver``: one server process imports the package once, on the first pool, and
    each later worker is forked from it. ``spawn`` where neither exists (Windows).

    >>> start_method() in ("fork", "forkserver", "spawn")
    True
    """
    methods = multiprocessing.get_all_start_methods()
    if sys.platform.startswith("linux") and "fork" in methods and threading.active_count() == 1:
        return "fork"
    return "forkserver" if "forkserver" in methods else "spawn"


def _cluster_workers(client: Any) -> int:
    """The worker threads of a Dask cluster (1 when it does not say)."""
    try:
        return max(1, sum(client.nthreads().values()))
    except Exception:  # a client of another kind, or a cluster gone: no parallel slices
        return 1


def _advance(bar: Any, size: int) -> None:
    if bar is not None:
        bar.update(size)


def _outline(part: FilePart) -> FilePart:
    """The part without its rows: its tables' columns and categories, its runs and its boundaries."""
    outline = object.__new__(FilePart)
    for name in FilePart.__slots__:
        setattr(outline, name, getattr(part, name))
    outline.tables = {name: table.iloc[:0] for name, table in part.tables.items()}
    return outline


def _dask() -> Any:
    try:
        import dask.dataframe as dd
        import distributed  # noqa: F401
    except ImportError:
        raise OptionalDependencyError(
            "client= and lazy= need Dask: pip install 'agui-notebook[dask]' (dask[distributed] and dask[dataframe])"
        ) from None
    return dd


def by_file(
    paths: list[str],
    builders: dict[str, Callable[..., pd.DataFrame]],
    *,
    errors: ReadErrorMode = "raise",
    workers: int | None = None,
    client: Any = None,
    lazy: bool = False,
    progress: bool | None = None,
    skipped: list[dict[str, str]] | None = None,
) -> dict[str, Any]:
    """The tables ``builders`` make (``name -> table function``) of the files ``paths``, file by file.

    Equal to ``{name: build(load_events(paths))}`` without ever holding more than a file's events (more
    than one file's only for runs cut across files). With ``lazy=True`` (and a client) the tables are
    ``dask.dataframe`` tables whose partitions stay on the cluster.
    """
    if workers is not None and (type(workers) is not int or not 1 <= workers <= MAX_WORKERS):
        raise OptionError(
            f"workers must be a number of processes from 1 to {MAX_WORKERS}, not {shown(workers)}"
        )
    if lazy and client is None:
        raise OptionError("lazy=True needs client= (a dask.distributed.Client)")
    if client is not None:
        _dask()
    Problems(errors)  # checks the mode
    try:
        # One large log: slice by slice, in as many slices as there are workers at least.
        parallel = workers or (_cluster_workers(client) if client is not None else 1)
        paths = split_large_files(paths, workers=parallel)  # type: ignore[assignment]
        batches, sizes = _batches(paths)
    except SourceError:
        raise
    except OSError as exc:  # a file that went away since it was listed
        raise file_error(exc) from exc
    # Never more processes than batches to read: a pool of fork workers starts all of them at once.
    runner = _Runner(None if workers is None else min(workers, len(batches)), client)
    bar = progress_bar(progress, sum(sizes))
    try:
        parts, outlines = runner.map(batches, builders, errors, bar, sizes)
        groups = _groups(batches, _continued_from(outlines))
        joined = [group for group in groups if len(group) > 1]
        if joined:  # runs cut across batches: those batches are read again, together
            again, again_outlines = runner.map(
                [[path for i in g for path in batches[i]] for g in joined], builders, errors
            )
            redone = {
                group[0]: (part, outline)
                for group, part, outline in zip(joined, again, again_outlines, strict=True)
            }
            picked = [redone[g[0]] if len(g) > 1 else (parts[g[0]], outlines[g[0]]) for g in groups]
            parts = [part for part, _ in picked]
            outlines = [outline for _, outline in picked]
    finally:
        runner.close()
        if bar is not None:
            bar.close()
    if client is not None and not lazy:
        parts = client.gather(parts)
    if lazy:
        tables = _lazy_tables(client, parts, outlines, builders)
    else:
        tables = {name: _combined([part.tables[name] for part in parts], outlines) for name in builders}
        for table in tables.values():
            if _RUN_TABLE_COLUMNS.issubset(table.columns):
                inherit_models(table)  # from a run in an earlier piece of the same log
    _report(tables, outlines, skipped)
    return tables


def _report(tables: dict[str, Any], outlines: list[FilePart], skipped: list[dict[str, str]] | None) -> None:
    """The odd values, unreadable lines, skipped folder entries and empty files of the whole load: in attrs,
    warned once."""
    warn_odd_values("load_events", [entry for part in outlines for entry in part.odd["load_events"]])
    problems = [entry for part in outlines for entry in part.errors]
    skipped = [*(skipped or []), *(entry for part in outlines for entry in part.empty)]
    for name, table in tables.items():
        odd = [entry for part in outlines for entry in part.odd[name]]
        if isinstance(table, pd.DataFrame):  # a Dask table has no attrs
            table.attrs["odd_values"] = odd
            table.attrs["errors"] = problems
            table.attrs["skipped"] = skipped
        warn_odd_values(name, odd)
    if problems:
        warn(
            f"{len(problems)} unreadable lines skipped (listed in each table's attrs['errors'])",
            EventLogWarning,
        )
    if skipped:
        _warn_skipped(skipped)


def _lazy_tables(
    client: Any, parts: list[Any], outlines: list[FilePart], builders: dict[str, Any]
) -> dict[str, Any]:
    """Dask tables of the parts left on the cluster, each partition given the whole load's run keys and
    categories."""
    dd = _dask()
    offsets = _run_offsets(outlines)
    tables = {}
    for name in builders:
        meta = _combined([outline.tables[name] for outline in outlines], outlines)
        pieces = [
            client.submit(_with_dtypes, part, name, int(offset), meta, pure=False)
            for part, offset in zip(parts, offsets, strict=True)
        ]
        tables[name] = dd.from_delayed(pieces, meta=meta, verify_meta=False)
    return tables


def _with_dtypes(part: FilePart, name: str, offset: int, meta: pd.DataFrame) -> pd.DataFrame:
    """A part's table with the whole load's run keys (its own shifted by ``offset``) and categories."""
    table = part.tables[name]
    columns = {}
    for column in meta.columns:
        values = table[column]
        if column == "run_key":
            codes = values.cat.codes.to_numpy()
            columns[column] = pd.Categorical.from_codes(
                np.where(codes >= 0, codes + offset, -1), dtype=cast(pd.CategoricalDtype, meta[column].dtype)
            )
        elif isinstance(meta[column].dtype, pd.CategoricalDtype):
            columns[column] = values.cat.set_categories(meta[column].cat.categories).array
        else:
            columns[column] = values.array
    return pd.DataFrame(columns, index=table.index)


def _run_offsets(outlines: list[FilePart]) -> np.ndarray:
    return np.cumsum([0] + [len(part.run_ids) for part in outlines])[:-1]


def column_array(table: pd.DataFrame, name: Hashable) -> Any:
    """The array of column ``name`` (what ``table[name].array`` is, without the Series pandas builds for it)."""
    frame: Any = table  # _get_column_array is pandas' own, not in pandas-stubs
    try:
        return frame._get_column_array(table.columns.get_loc(name))
    except (AttributeError, TypeError):  # a pandas without it, or a name that is not one column
        return table[name].array


def _combined(tables: list[pd.DataFrame], parts: list[FilePart]) -> pd.DataFrame:
    """The tables of the parts as one: run keys over the whole load, categories of the whole load."""
    keys = run_keys([run_id for part in parts for run_id in part.run_ids])
    offsets = _run_offsets(parts)
    template = tables[0]
    columns: dict[Hashable, Any] = {}
    for name, dtype in template.dtypes.items():
        if name == "run_key":
            codes = np.concatenate(
                [
                    np.where(c >= 0, c + offset, -1)
                    for c, offset in zip((column_array(t, name).codes for t in tables), offsets, strict=True)
                ]
            )
            categories = pd.Index(keys, dtype=object).astype(str)
            columns[name] = pd.Categorical.from_codes(codes, categories=categories)
        elif isinstance(dtype, pd.CategoricalDtype):
            columns[name] = union_categoricals([column_array(t, name) for t in tables], ignore_order=True)
        else:
            columns[name] = pd.concat([table[name] for table in tables], ignore_index=True)
    return pd.DataFrame(columns, index=pd.RangeIndex(sum(len(t) for t in tables)))
