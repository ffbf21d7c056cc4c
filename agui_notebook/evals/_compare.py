"""``compare``: one metric over two sets of runs, each side's mean and the difference with bootstrap confidence
intervals.

Each side is resampled with replacement ``n_resamples`` times (independently, from one seeded generator); the
interval is the percentile interval of the resampled means (``confidence``: 0.95 gives the 2.5th and 97.5th
percentiles), and the difference's is that of ``mean(b*) - mean(a*)``. A boolean metric is read as 0/1, so its
mean is a pass rate. Rows with no value (NaN, NA) are left out and counted in neither ``n``.

>>> a = pd.DataFrame({"ok": [True, False, True, True]})
>>> b = pd.DataFrame({"ok": [True, True, True, True]})
>>> compare(a, b, "ok", n_resamples=200, seed=0).table[["n", "mean"]]
          n  mean
side
a         4  0.75
b         4  1.00
b - a  <NA>  0.25
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from agui_notebook._errors import InputTypeError, OptionalDependencyError, OptionError
from agui_notebook._options import count, keyword_options, typed
from agui_notebook._shown import shown

from ._score import score
from ._scorers import Scorer

__all__ = ["Comparison", "bootstrap_means", "compare"]


def bootstrap_means(values: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """The means of ``n_resamples`` resamples (with replacement) of ``values``.

    >>> bootstrap_means(np.array([1.0, 1.0]), 3, np.random.default_rng(0)).tolist()
    [1.0, 1.0, 1.0]
    """
    if len(values) == 0:
        return np.full(n_resamples, math.nan)
    picks = rng.integers(0, len(values), size=(n_resamples, len(values)))
    means: np.ndarray = values[picks].mean(axis=1)
    return means


@dataclass(frozen=True)
class Comparison:
    """``compare``'s result: ``table`` (rows ``a``, ``b`` and ``b - a`` by their labels; columns ``n``, ``mean``,
    ``ci_low``, ``ci_high``), shown as HTML in a notebook, and :meth:`plot`."""

    metric: str
    labels: tuple[str, str]
    table: pd.DataFrame
    confidence: float
    n_resamples: int

    def __repr__(self) -> str:
        return f"<compare {self.metric!r}: {self.labels[0]} vs {self.labels[1]}>\n{self.table.to_string()}"

    def _repr_html_(self) -> str:
        head = html.escape(
            f"{self.metric}: {self.labels[1]} - {self.labels[0]}, {self.confidence:.0%} bootstrap intervals "
            f"({self.n_resamples} resamples)"
        )
        return f"<p>{head}</p>" + self.table.to_html(float_format=lambda v: f"{v:.4g}")

    def plot(self, *, ax: Any = None) -> Any:
        """Each side's mean and the difference, with their intervals (matplotlib axes).

        >>> compare(pd.DataFrame({"x": [1.0]}), pd.DataFrame({"x": [2.0]}), "x").plot()  # doctest: +SKIP
        """
        try:
            import matplotlib.pyplot as plt
        except ImportError:
            raise OptionalDependencyError(
                "plotting needs matplotlib: pip install 'agui-notebook[plot]'"
            ) from None
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 2.4))
        rows = self.table
        y = np.arange(len(rows))[::-1]
        means = rows["mean"].to_numpy(dtype=float)
        low = np.nan_to_num(means - rows["ci_low"].to_numpy(dtype=float))
        high = np.nan_to_num(rows["ci_high"].to_numpy(dtype=float) - means)
        ax.errorbar(means, y, xerr=[low, high], fmt="o", capsize=4)
        ax.axvline(0, color="grey", linewidth=0.8, linestyle=":")
        ax.set_yticks(y, [str(label) for label in rows.index])
        ax.set_xlabel(f"{self.metric} (mean, {self.confidence:.0%} interval)")
        return ax


def _values(side: Any, metric: str | Scorer, name: str) -> tuple[np.ndarray, str]:
    if isinstance(metric, Scorer):
        side = score(side, metric)
        column = metric.name
    else:
        column = metric
        if not isinstance(side, pd.DataFrame):
            raise InputTypeError(
                f"compare: {name} must be a table (from evals.score, runs_df ...) when the metric is a column name,"
                f" not {type(side).__name__}"
            )
    if column not in side.columns:
        raise OptionError(f"compare: {name} has no column {column!r}")
    values = side[column]
    if pd.api.types.is_bool_dtype(values.dtype) or pd.api.types.is_numeric_dtype(values.dtype):
        kept = values.dropna().to_numpy(dtype=float)
        return kept[np.isfinite(kept)], column
    raise OptionError(
        f"compare: {name}[{column!r}] holds {values.dtype} values: it takes a boolean or numeric metric"
    )


def _interval(means: np.ndarray, confidence: float) -> tuple[float, float]:
    if np.isnan(means).all():
        return math.nan, math.nan
    tail = round((1 - confidence) / 2, 12)  # 0.95 -> 0.025 exactly, not 0.025000000000000022
    low, high = np.quantile(means, [tail, 1 - tail])
    return float(low), float(high)


@keyword_options
def compare(
    a: Any,
    b: Any,
    metric: str | Scorer,
    *,
    labels: tuple[str, str] = ("a", "b"),
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int = 0,
) -> Comparison:
    """``metric`` over two sets of runs: each side's mean and ``b - a``, with bootstrap confidence intervals.

    ``a`` and ``b`` are tables (``evals.score``'s, ``runs_df``'s) and ``metric`` one of their columns, or sources
    (two folders, two chats) and ``metric`` a scorer, which scores both. ``labels`` name the sides; the
    bootstrap draws ``n_resamples`` resamples of each side from a generator seeded with ``seed``.

    >>> from agui_notebook import evals  # doctest: +SKIP
    >>> evals.compare("logs/prompt_a/", "logs/prompt_b/", evals.text_contains("Paris"), labels=("A", "B"))  # doctest: +SKIP
    """
    if not isinstance(metric, (str, Scorer)):
        raise InputTypeError(
            f"compare: metric must be a column name or a scorer, not {type(metric).__name__}"
        )
    if not (isinstance(labels, tuple) and len(labels) == 2 and all(isinstance(x, str) for x in labels)):
        raise OptionError(f"compare: labels must be two strings, not {shown(labels)}")
    if labels[0] == labels[1]:
        raise OptionError(f"compare: labels must differ, not {shown(labels)}")
    count(n_resamples, "compare: n_resamples", least=1)
    typed(confidence, "compare: confidence", (int, float), "a number between 0 and 1")
    if not 0 < confidence < 1:
        raise OptionError(f"compare: confidence must be between 0 and 1, not {shown(confidence)}")
    typed(seed, "compare: seed", int, "a whole number")
    if seed < 0:
        raise OptionError(f"compare: seed must be at least 0, not {shown(seed)}")
    values_a, column = _values(a, metric, labels[0])
    values_b, _ = _values(b, metric, labels[1])
    rng = np.random.default_rng(seed)
    means_a = bootstrap_means(values_a, n_resamples, rng)
    means_b = bootstrap_means(values_b, n_resamples, rng)
    rows: list[dict[str, Any]] = []
    for label, values, means in ((labels[0], values_a, means_a), (labels[1], values_b, means_b)):
        low, high = _interval(means, confidence)
        mean = float(values.mean()) if len(values) else math.nan
        rows.append({"side": label, "n": len(values), "mean": mean, "ci_low": low, "ci_high": high})
    low, high = _interval(means_b - means_a, confidence)
    difference = rows[1]["mean"] - rows[0]["mean"]
    rows.append(
        {"side": f"{labels[1]} - {labels[0]}", "n": None, "mean": difference, "ci_low": low, "ci_high": high}
    )
    table = pd.DataFrame(rows).set_index("side")
    table["n"] = table["n"].astype("Int64")
    return Comparison(column, labels, table, float(confidence), int(n_resamples))
