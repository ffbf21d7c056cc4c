"""The model of a run that ended without naming one: a rule of ``runs_df`` that spans runs.

pydantic-ai's RUN_ERROR carries no usage, and a cancelled or incomplete run has no end to carry it, so such a
run often names no model. Its request may (``tables/_runs``); else the thread's previous run does. The second
reading spans runs, so it is made on the runs table, whole or put together from pieces (``_by_file``).
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ._arrays import text_column

__all__ = ["ENDED_EARLY", "inherit_models"]

ENDED_EARLY = frozenset({"error", "cancelled", "incomplete"})
"""Run statuses whose end carries no usage however the run went (so no model): they take one from elsewhere."""


def inherit_models(table: pd.DataFrame) -> None:
    """Give the runs that ended without usage (pydantic-ai's RUN_ERROR carries none; a cancelled or incomplete
    run has no end to carry it) and still name no model the model of the latest earlier run of the same
    thread (in the same source) that names one. A runs table's pass, so that the tables of a log read in
    pieces (``_by_file``) make it over the whole load, as the whole table does."""
    if not len(table) or not table["model"].isna().any():
        return
    models = table["model"].astype(object).where(table["model"].notna(), None).tolist()
    status = table["status"].astype(object).tolist()
    sources = table["source"].astype(object).tolist()
    threads = table["thread_id"].astype(object).tolist()
    latest: dict[tuple[Any, Any], Any] = {}
    changed = False
    for run, model in enumerate(models):
        thread = (sources[run], threads[run])
        if pd.isna(threads[run]):
            continue
        if model is None and status[run] in ENDED_EARLY and thread in latest:
            models[run] = latest[thread]
            changed = True
        if models[run] is not None:
            latest[thread] = models[run]
    if changed:
        table["model"] = text_column(models)
