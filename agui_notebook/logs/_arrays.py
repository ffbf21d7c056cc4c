"""Grouped reductions over numpy arrays with integer keys, and the column builders every logs table uses.

The tables group the events table's rows by integer keys (a run, a message, a tool call) and aggregate with these:
plain numpy and pandas, no Python loop per row where a vectorised one exists. A leaf module (numpy and pandas
only), so that the column declarations (``_columns.py``) can say how each column is computed with them.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pandas as pd

__all__ = [
    "NAT",
    "category_values",
    "compact",
    "first_in_group",
    "group_count",
    "group_max",
    "group_min",
    "group_quantiles",
    "join_by_key",
    "last_in_group",
    "seconds_between",
    "take",
    "text_column",
    "utc",
    "word_count",
]

NAT = np.iinfo(np.int64).min
"""A missing time among int64 nanoseconds (what NaT is as an integer)."""


def utc(ns: np.ndarray) -> pd.DatetimeIndex:
    """int64 nanoseconds (NAT for missing) as UTC datetimes."""
    return pd.DatetimeIndex(np.asarray(ns, dtype=np.int64).view("M8[ns]")).tz_localize("UTC")


def compact(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Renumber non-negative keys 0..k-1 by first appearance; returns (first row of each, new keys).

    >>> first, keys = compact(np.array([5, -1, 3, 5]))
    >>> first.tolist(), keys.tolist()
    ([0, 2], [0, -1, 1, 0])
    """
    if not len(raw):
        return np.empty(0, dtype=np.int64), np.full(0, -1, dtype=np.int64)
    # Keys already numbered by first appearance (run keys as loaded): each new one is one past the last.
    reach = np.maximum.accumulate(raw)
    new = np.empty(len(raw), dtype=bool)
    new[0] = raw[0] >= 0
    np.greater(raw[1:], reach[:-1], out=new[1:])
    firsts = np.flatnonzero(new)
    if len(firsts) and raw[firsts[0]] == 0 and (np.diff(raw[firsts]) == 1).all():
        keys = np.maximum(raw, -1).astype(np.int64)
        return firsts.astype(np.int64), keys
    del reach, new, firsts
    valid = raw >= 0
    if not valid.any():
        return np.empty(0, dtype=np.int64), np.full(len(raw), -1, dtype=np.int64)
    rows = np.flatnonzero(valid)
    codes, uniques = pd.factorize(raw[valid])
    keys = np.full(len(raw), -1, dtype=np.int64)
    keys[rows] = codes
    first = np.full(len(uniques), len(raw), dtype=np.int64)
    np.minimum.at(first, codes, rows)
    return first, keys


def seconds_between(later: np.ndarray, earlier: np.ndarray) -> np.ndarray:
    """``later - earlier`` in seconds, NaN where either is NAT."""
    out = (later - earlier) / 1e9
    return np.where((later == NAT) | (earlier == NAT), np.nan, out)


def group_min(keys: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Per-key minimum of int64 times, ignoring NaT; NaT where a key has none."""
    out = np.full(size, np.iinfo(np.int64).max, dtype=np.int64)
    valid = (keys >= 0) & (values != NAT)
    np.minimum.at(out, keys[valid], values[valid])
    out[out == np.iinfo(np.int64).max] = NAT
    return out


def group_max(keys: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """Per-key maximum of int64 times, ignoring NaT; NaT where a key has none."""
    out = np.full(size, NAT, dtype=np.int64)
    valid = (keys >= 0) & (values != NAT)
    np.maximum.at(out, keys[valid], values[valid])
    return out


def group_count(keys: np.ndarray, size: int, weights: np.ndarray | None = None) -> np.ndarray:
    """Rows per key (int64), or the sum of ``weights`` per key (float)."""
    valid = keys >= 0
    counted = np.bincount(keys[valid], weights=None if weights is None else weights[valid], minlength=size)
    return counted[:size] if weights is not None else counted[:size].astype(np.int64)


def group_quantiles(
    keys: np.ndarray, values: np.ndarray, size: int, quantiles: tuple[float, ...]
) -> list[np.ndarray]:
    """Per key, each quantile of ``values`` (no NaN among them), NaN where a key has none: linear
    interpolation, computed as pandas' ``groupby(...).quantile`` computes it (bit for bit)."""
    found = [np.full(size, np.nan) for _ in quantiles]
    if not len(keys):
        return found
    # Grouped by key (stable: keys mostly come in runs), then each group's values sorted in place.
    ordered = values[np.argsort(keys, kind="stable")]
    counts = np.bincount(keys, minlength=size)[:size]
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    present = np.flatnonzero(counts)
    for start, end in zip(
        starts[present].tolist(), (starts[present] + counts[present]).tolist(), strict=True
    ):
        if end - start > 1:
            ordered[start:end].sort()
    for out, q in zip(found, quantiles, strict=True):
        position = q * (counts[present] - 1).astype(np.float64)
        index = starts[present] + position.astype(np.int64)
        frac = position % 1
        value = ordered[index]
        between = frac != 0.0
        following = ordered[np.minimum(index + 1, len(ordered) - 1)]
        out[present] = np.where(between, value + (following - value) * frac, value)
    return found


def first_in_group(keys: np.ndarray, rows: np.ndarray, size: int) -> np.ndarray:
    """The first of ``rows`` (ascending) for each key, -1 where none."""
    out = np.full(size, -1, dtype=np.int64)
    if len(rows):
        k = keys[rows]
        ok = k >= 0
        # Reversed so that the earliest row is written last and wins.
        out[k[ok][::-1]] = rows[ok][::-1]
    return out


def last_in_group(keys: np.ndarray, rows: np.ndarray, size: int) -> np.ndarray:
    """The last of ``rows`` (ascending) for each key, -1 where none."""
    out = np.full(size, -1, dtype=np.int64)
    if len(rows):
        k = keys[rows]
        ok = k >= 0
        out[k[ok]] = rows[ok]
    return out


def take(values: np.ndarray, index: np.ndarray, fill: Any) -> np.ndarray:
    """``values[index]``, with ``fill`` where the index is -1."""
    out = (
        np.where(index >= 0, values[np.maximum(index, 0)], fill) if len(values) else np.full(len(index), fill)
    )
    return out


def category_values(column: pd.Series | pd.Categorical, rows: np.ndarray) -> pd.Categorical:
    """The values of a categorical column (or its array) at rows (-1 = missing), as a categorical of the same
    categories."""
    codes = column.codes if isinstance(column, pd.Categorical) else column.cat.codes.to_numpy()
    picked = np.where(rows >= 0, codes[np.maximum(rows, 0)], -1) if len(codes) else np.full(len(rows), -1)
    return pd.Categorical.from_codes(picked, dtype=cast(pd.CategoricalDtype, column.dtype))


def text_column(values: list[Any]) -> Any:
    """A text column (None for missing), in pandas' ``str`` dtype where it has one."""
    array = np.array([np.nan if v is None else v for v in values], dtype=object)
    try:
        return pd.array(array, dtype=pd.StringDtype("python", na_value=np.nan))
    except TypeError:  # pandas before 2.3
        return array


def word_count(text: str) -> int:
    """Whitespace-separated words."""
    return len(text.split())


def join_by_key(keys: np.ndarray, rows: np.ndarray, deltas: np.ndarray, size: int) -> list[str]:
    """The deltas at ``rows`` joined per key (in row order)."""
    texts = [""] * size
    valid = keys >= 0
    keys, rows = keys[valid], rows[valid]
    if len(rows):
        order = np.argsort(keys, kind="stable")
        sorted_keys = keys[order]
        pieces = deltas[rows[order]].tolist()
        bounds = (np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1]) + 1).tolist()
        starts = [0, *bounds]
        join = "".join
        for k, start, end in zip(sorted_keys[starts].tolist(), starts, [*bounds, len(pieces)], strict=True):
            texts[k] = join(pieces[start:end])
    return texts
