"""``score`` and ``ascore``: the runs (or messages) table of a source with one column per scorer.

Deterministic scorers run here, one run after the other; async ones (judges) run concurrently on an event loop,
each judge bounding its own concurrency. ``score`` works in a script and in a Jupyter kernel alike: where an
event loop is already running (a kernel), its judges run on a loop of their own in a worker thread and ``score``
waits for them; ``await ascore(...)`` runs them on the running loop instead.

>>> from agui_notebook import evals
>>> events = [
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "Sunny in Paris."},
...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
... ]
>>> scored = score(events, evals.text_contains("Paris"), evals.tool_called("get_weather"))
>>> scored[["run_id", "contains_Paris", "called_get_weather"]]
  run_id  contains_Paris  called_get_weather
0     r1            True               False
>>> scored["called_get_weather_reason"].iloc[0]
"expected run 'r1' to call 'get_weather'; it called no tool"
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import pandas as pd

from agui_notebook._errors import AguiNotebookError, InputTypeError, OptionError
from agui_notebook._options import keyword_options
from agui_notebook._shown import shown
from agui_notebook._types import ReadErrorMode
from agui_notebook.inspection._source import chat_run_inputs
from agui_notebook.logs._columns import Column
from agui_notebook.logs._load import events_table, load_events, progress_bar
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._runs import runs_df

from ._run import Message, Run, runs_of
from ._scorers import Scorer, Verdict, column_values
from ._scorers import scorer as scorer_of

__all__ = ["ascore", "score", "score_columns"]

Table = Literal["runs", "messages"]


def score_columns(table: pd.DataFrame) -> list[Column]:
    """The score columns ``score`` added to ``table`` (its ``attrs["scores"]``), declared like the tables'.

    >>> score_columns(pd.DataFrame())
    []
    """
    found = table.attrs.get("scores") if isinstance(table, pd.DataFrame) else None
    return [Column(*entry) for entry in found] if isinstance(found, list) else []


@dataclass
class _Plan:
    table: pd.DataFrame
    kind: Table
    runs: list[Run | None]
    """The run of each row of a runs table; of each run of the source for a messages table."""
    messages: list[Message]
    scorers: list[Scorer]
    values: dict[str, list[Verdict | None]]
    progress: bool | None
    judged: int = 0
    """How many (run, judge) pairs are judged so far (what the progress bar shows)."""


def _scorers(given: tuple[Any, ...], kind: Table) -> list[Scorer]:
    found: list[Scorer] = []
    for item in given:
        if not isinstance(item, Scorer):
            if not callable(item):
                raise InputTypeError(
                    f"score: a scorer is a Scorer (evals.tool_called(...), evals.judge(...)) or a function of a run,"
                    f" not {type(item).__name__}"
                )
            item = scorer_of(item)
        if item.per == "message" and kind == "runs":
            raise OptionError(
                f"score: scorer {item.name!r} scores messages: score them with table='messages'"
            )
        found.append(item)
    names = [column.name for s in found for column in s.columns]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise OptionError(f"score: two scorers give the column {twice[0]!r}: give one of them another name=")
    return found


def _frame(source: Any, progress: bool | None, errors: ReadErrorMode) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        return events_table(source)
    return load_events(source, errors=errors, progress=progress)


def _plan(
    source: Any,
    given: tuple[Any, ...],
    table: Any,
    workers: int | None,
    client: Any,
    progress: bool | None,
    errors: ReadErrorMode,
) -> _Plan:
    if table not in ("runs", "messages"):
        raise OptionError(f"score: table must be 'runs' or 'messages', not {shown(table)}")
    kind: Table = table
    scorers = _scorers(given, kind)
    parallel = workers is not None or client is not None
    if parallel and isinstance(source, pd.DataFrame):
        raise OptionError(
            "score: workers= and client= read files: give a path, glob, folder or list of paths"
        )
    frame = _frame(source, progress, errors)

    runs_table = (
        runs_df(source, workers=workers, client=client, errors=errors) if parallel else runs_df(frame)
    )
    runs = runs_of(frame, table=runs_table, inputs=chat_run_inputs(source, frame))
    messages: list[Message] = []
    if kind == "runs":
        base = runs_table
    else:
        base = (
            messages_df(source, workers=workers, client=client, errors=errors)
            if parallel
            else messages_df(frame)
        )
        by_key = {run.key: run for run in runs if run is not None}
        messages = [Message(row, by_key.get(str(row["run_key"]))) for _, row in base.iterrows()]
    clash = sorted({c.name for s in scorers for c in s.columns} & set(base.columns))
    if clash:
        raise OptionError(
            f"score: the table has a column {clash[0]!r} already: give the scorer another name="
        )
    return _Plan(base, kind, runs, messages, scorers, {}, progress)


def _units(plan: _Plan, scorer: Scorer) -> list[Any]:
    return plan.messages if scorer.per == "message" else plan.runs


def _scored_here(plan: _Plan) -> None:
    for scorer in plan.scorers:
        if not scorer.is_async:
            plan.values[scorer.name] = [
                None if unit is None else scorer.verdict(unit) for unit in _units(plan, scorer)
            ]


def _judging_bar(plan: _Plan) -> Any:
    """The progress bar of the plan's judging (None when there is none to show)."""
    total = sum(len(_units(plan, s)) for s in plan.scorers if s.is_async)
    return progress_bar(plan.progress, total, desc="judging", unit="run", unit_scale=False)


async def _scored_async(plan: _Plan, bar: Any) -> None:
    """The async scorers' values; ``bar`` (the caller's, or None) is advanced from this loop's thread only when
    it is the caller's (``score`` in a running loop advances its own from ``plan.judged``)."""
    judged = [s for s in plan.scorers if s.is_async]
    if not judged:
        return

    async def one(scorer: Scorer, unit: Any) -> Verdict | None:
        if unit is None:
            return None
        try:
            result = await scorer.function(unit)
        except AguiNotebookError:
            raise  # a judge's own: it names the scorer and the run, or the option at fault
        except Exception as exc:
            raise scorer.error(unit, f"raised {type(exc).__name__}: {exc}") from exc
        finally:
            plan.judged += 1
            if bar is not None:
                bar.update(1)
        return scorer.checked(result, unit)

    try:
        for scorer in judged:
            tasks = [asyncio.ensure_future(one(scorer, unit)) for unit in _units(plan, scorer)]
            try:
                plan.values[scorer.name] = await _all_or_first_failure(tasks)
            except BaseException:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
                raise
    finally:
        for scorer in judged:
            if scorer.cache is not None:
                scorer.cache.save()


async def _all_or_first_failure(tasks: Sequence[asyncio.Future[Any]]) -> list[Any]:
    """The tasks' results in order, else the failure of the earliest task (in the table's order) that failed.

    A failure stops the judging: the runs after the failing one are cancelled (those waiting are never sent),
    the runs before it end, so the error reported does not depend on which run's answer came back first.
    """
    if tasks:  # back at the first failure, else once every task is done
        await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    failed = next((i for i, task in enumerate(tasks) if _failure(task) is not None), None)
    if failed is not None:
        for task in tasks[failed + 1 :]:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise next(e for e in map(_failure, tasks[: failed + 1]) if e is not None)
    return [task.result() for task in tasks]


def _failure(task: asyncio.Future[Any]) -> BaseException | None:
    """The exception ``task`` ended with (None while it runs, when it returned or was cancelled)."""
    return None if not task.done() or task.cancelled() else task.exception()


def _finished(plan: _Plan) -> pd.DataFrame:
    table = plan.table.copy()
    declared: list[Column] = list(score_columns(plan.table))
    for scorer in plan.scorers:
        verdicts = plan.values[scorer.name]
        if scorer.per == "run" and plan.kind == "messages":
            by_key = {run.key: v for run, v in zip(plan.runs, verdicts, strict=True) if run is not None}
            verdicts = [None if m.run is None else by_key.get(m.run.key) for m in plan.messages]
        values = [None if v is None else v.value for v in verdicts]
        table[scorer.name] = column_values(scorer, values)
        if scorer.reasons:
            table[f"{scorer.name}_reason"] = pd.array(
                [None if v is None else v.reason for v in verdicts], dtype="string"
            )
        declared += scorer.columns
    table.attrs["scores"] = [tuple(column[:4]) for column in declared]
    return table


@keyword_options
async def ascore(
    source: Any,
    *scorers: Scorer | Callable[..., Any],
    table: Table = "runs",
    workers: int | None = None,
    client: Any = None,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame:
    """:func:`score`, with its judges run on the running event loop (``await ascore(...)`` in a notebook).

    >>> import asyncio
    >>> from agui_notebook.evals import tool_called
    >>> asyncio.run(ascore([], tool_called("search"))).empty
    True
    """
    plan = _plan(source, scorers, table, workers, client, progress, errors)
    _scored_here(plan)
    bar = _judging_bar(plan)
    try:
        await _scored_async(plan, bar)
    finally:
        if bar is not None:
            bar.close()
    return _finished(plan)


def _in_a_thread(plan: _Plan, bar: Any) -> None:
    """The plan's judging on a loop of its own in a worker thread; this thread waits, advancing ``bar`` (a
    notebook's progress bar belongs to the thread running the cell)."""
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="agui-notebook-score") as pool:
        future = pool.submit(asyncio.run, _scored_async(plan, None))
        while True:
            try:
                future.result(timeout=0.1)
                break
            except concurrent.futures.TimeoutError:
                pass
            finally:
                if bar is not None and plan.judged > bar.n:
                    bar.update(plan.judged - bar.n)


@keyword_options
def score(
    source: Any,
    *scorers: Scorer | Callable[..., Any],
    table: Table = "runs",
    workers: int | None = None,
    client: Any = None,
    progress: bool | None = None,
    errors: ReadErrorMode = "raise",
) -> pd.DataFrame:
    """The runs of ``source`` (``runs_df``'s table) with one column per scorer (and ``<name>_reason`` beside a
    check's or a judge's); ``table="messages"`` gives ``messages_df``'s table instead, a run's score on each of
    its messages and a per-message scorer's on its own.

    ``source`` is what the tables read (a log, a folder, a glob, events, an events frame) or a ``Chat`` /
    ``ChatWidget``. ``scorers`` are checks (:func:`tool_called`, :func:`text_contains`, :func:`json_matches`,
    :func:`ttft_below` ...), judges (:func:`judge`) and plain functions ``fn(run) -> bool | float | str``
    (annotated, or wrapped with :func:`scorer`). ``workers=``/``client=`` build the table as the tables do
    (files read on a process pool or a Dask cluster); the scorers run in this process. ``progress`` shows a
    tqdm bar while judges judge (``None``: when it takes more than half a second); ``errors`` is
    ``load_events``'. The columns are declared in ``attrs["scores"]`` (:func:`score_columns`).

    In a Jupyter kernel (an event loop already running) the judges run on a loop of their own in a worker
    thread and ``score`` waits for them; ``await ascore(...)`` runs them on the kernel's loop.

    >>> from agui_notebook import evals  # doctest: +SKIP
    >>> evals.score("logs/", evals.tool_called("search"), evals.judge(agent, rubric="Is it correct?"))  # doctest: +SKIP
    """
    plan = _plan(source, scorers, table, workers, client, progress, errors)
    _scored_here(plan)
    if any(s.is_async for s in plan.scorers):
        bar = _judging_bar(plan)
        try:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                asyncio.run(_scored_async(plan, bar))
            else:
                _in_a_thread(plan, bar)
        finally:
            if bar is not None:
                bar.close()
    return _finished(plan)
