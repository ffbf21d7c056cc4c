"""``agreement``: how a pass/fail score agrees with the user's 👍/👎 (``messages_df``'s ``feedback``).

A run's rating is the last rating of its assistant messages (``messages_df`` gives every message of a rated answer
the answer's rating); a score passes when it is True (a boolean column) or at least ``threshold`` (a number).
Only rows with both a score and a rating count. Cohen's kappa is the agreement beyond chance:
``(p_o - p_e) / (1 - p_e)`` with ``p_o`` the share of rows where both agree and ``p_e`` the share expected from
each side's own rates (NaN when ``p_e`` is 1: both sides say one thing only).

>>> scored = pd.DataFrame({"run_key": ["a", "b", "c", "d"], "ok": [True, True, False, False]})
>>> rated = pd.DataFrame({"run_key": ["a", "b", "c", "d"], "role": "assistant",
...                       "feedback": ["up", "down", "down", "down"]})
>>> found = agreement(scored, rated, column="ok")
>>> found.n, found.rate, round(found.kappa, 3)
(4, 0.75, 0.5)
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from agui_notebook._errors import InputTypeError, OptionError
from agui_notebook._options import keyword_options, typed
from agui_notebook.inspection._source import events_frame
from agui_notebook.logs.tables._messages import messages_df

from ._score import score_columns

__all__ = ["Agreement", "agreement", "cohens_kappa"]


def cohens_kappa(counts: np.ndarray) -> float:
    """Cohen's kappa of a square table of counts (rows: one rater's labels, columns: the other's, same order).

    >>> cohens_kappa(np.array([[20, 5], [10, 15]]))
    0.4
    """
    total = counts.sum()
    if total == 0:
        return math.nan
    observed = np.trace(counts) / total
    expected = float((counts.sum(axis=1) * counts.sum(axis=0)).sum()) / float(total) ** 2
    if expected == 1:
        return math.nan
    return float(round((observed - expected) / (1 - expected), 12))


@dataclass(frozen=True)
class Agreement:
    """How a score agrees with the feedback: ``counts`` (rows: the score ``pass``/``fail``; columns: the feedback
    ``up``/``down``), ``n`` rows with both, ``rate`` (the share where pass meets up and fail meets down) and
    ``kappa`` (Cohen's)."""

    column: str
    counts: pd.DataFrame
    n: int
    rate: float
    kappa: float

    @property
    def table(self) -> pd.DataFrame:
        """The figures as one row: ``column``, ``n``, ``rate``, ``kappa`` and the four counts."""
        c = self.counts.to_numpy()
        return pd.DataFrame(
            [
                {
                    "column": self.column,
                    "n": self.n,
                    "rate": self.rate,
                    "kappa": self.kappa,
                    "pass_up": int(c[0, 0]),
                    "pass_down": int(c[0, 1]),
                    "fail_up": int(c[1, 0]),
                    "fail_down": int(c[1, 1]),
                }
            ]
        )

    def __repr__(self) -> str:
        return (
            f"<agreement of {self.column!r} with the feedback: {self.n} rated, rate {self.rate:.3f}, "
            f"kappa {self.kappa:.3f}>"
        )

    def _repr_html_(self) -> str:
        head = html.escape(
            f"{self.column} vs 👍/👎: {self.n} rated, agreement {self.rate:.3f}, Cohen's kappa {self.kappa:.3f}"
        )
        return f"<p>{head}</p>" + self.counts.to_html()


def _feedback_by_run(messages: pd.DataFrame) -> dict[str, str]:
    """Each run's rating: the last rating of its assistant messages."""
    found: dict[str, str] = {}
    rated = messages[messages["feedback"].notna() & (messages["role"].astype(str) != "user")]
    for key, rating in zip(rated["run_key"].astype(str), rated["feedback"].astype(str), strict=True):
        found[key] = rating
    return found


def _passes(values: pd.Series, column: str, threshold: float) -> list[bool | None]:
    if pd.api.types.is_bool_dtype(values.dtype):
        return [None if pd.isna(v) else bool(v) for v in values.tolist()]
    if pd.api.types.is_numeric_dtype(values.dtype):
        return [None if pd.isna(v) else bool(v >= threshold) for v in values.tolist()]
    raise OptionError(
        f"agreement: column {column!r} holds {values.dtype} values: it takes a boolean or numeric score"
    )


@keyword_options
def agreement(
    scored: pd.DataFrame,
    feedback: Any = None,
    *,
    column: str | None = None,
    threshold: float = 0.5,
) -> Agreement:
    """How the score ``column`` of ``scored`` (a table from ``score``) agrees with the 👍/👎 feedback.

    ``feedback`` is the ``messages_df`` holding the ratings, or a source of it (a log, a folder, a ``Chat``);
    None when ``scored`` is a messages table (``score(..., table="messages")``: its own ``feedback``). A runs
    table is joined by ``run_key``, so ``scored`` and ``feedback`` must come from the same source. ``column``
    defaults to the one score column of ``scored``; a numeric score passes at ``threshold`` or above.

    >>> from agui_notebook import evals  # doctest: +SKIP
    >>> evals.agreement(evals.score(chat, helpful), chat)  # doctest: +SKIP
    """
    if not isinstance(scored, pd.DataFrame):
        raise InputTypeError(
            f"agreement: scored must be a table from evals.score, not {type(scored).__name__}"
        )
    typed(threshold, "agreement: threshold", (int, float), "a number")
    if column is None:
        declared = [c.name for c in score_columns(scored) if c.dtype != "string"]
        if len(declared) != 1:
            raise OptionError(
                "agreement: name the score with column= (the table's scores: "
                + (", ".join(declared) or "none")
                + ")"
            )
        column = declared[0]
    typed(column, "agreement: column", str, "a column name")
    if column not in scored.columns:
        raise OptionError(f"agreement: scored has no column {column!r}")
    if "run_key" not in scored.columns:
        raise OptionError("agreement: scored has no run_key column: give a table from evals.score")
    passes = _passes(scored[column], column, float(threshold))
    if feedback is None:
        if "feedback" not in scored.columns:
            raise OptionError("agreement: give the feedback (a messages_df or its source): scored has none")
        ratings = [None if pd.isna(r) else str(r) for r in scored["feedback"].tolist()]
    else:
        if isinstance(feedback, pd.DataFrame) and "feedback" in feedback.columns:
            messages = feedback
        else:
            messages = messages_df(events_frame(feedback))
        for needed in ("run_key", "role", "feedback"):
            if needed not in messages.columns:
                raise OptionError(f"agreement: the feedback table has no {needed!r} column")
        by_run = _feedback_by_run(messages)
        ratings = [by_run.get(str(key)) for key in scored["run_key"].tolist()]
    counts = np.zeros((2, 2), dtype=np.int64)
    for passed, rating in zip(passes, ratings, strict=True):
        if passed is None or rating not in ("up", "down"):
            continue
        counts[0 if passed else 1, 0 if rating == "up" else 1] += 1
    n = int(counts.sum())
    rate = float(np.trace(counts) / n) if n else math.nan
    table = pd.DataFrame(counts, index=pd.Index(["pass", "fail"], name=column), columns=["up", "down"])
    table.columns.name = "feedback"
    return Agreement(column, table, n, rate, cohens_kappa(counts))
