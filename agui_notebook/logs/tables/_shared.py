"""The work the tables share, done once per events frame and kept while the frame is unchanged.

Every table starts from the same arrays of the events table (type codes, times, run keys, the chunks, the
decoded payloads of the few events whose JSON matters, the tool calls: ``EventFrame`` and its ``shared``
memo), and ``summarize`` reads the runs and tool call tables. So that ``runs_df(df)``, then
``tool_calls_df(df)``, then ``summarize(df)`` do that work once, the work done for a frame is kept with the
frame (``event_frame``) and used again only for the very same, unchanged frame:

- the entry is keyed by the frame object, held weakly: a frame that is sliced, filtered, concatenated,
  copied or made by ``assign`` is a new object, with nothing kept; the entry goes when the frame does;
- a DataFrame is mutable in place (``df.loc[...] = ...``, ``df["x"] = ...``, ``df["delta"].array[...] = ...``,
  writes through a numpy view), so every use first checks the frame's contents against the ones the entry
  was made from (``Fingerprint``): the column names and dtypes; a SHA-1 digest of every numeric column's
  bytes (a categorical's codes, a datetime's integers, the ``event`` column's line index); the categories,
  the ``event`` column's buffers and any Arrow array by identity (they cannot change in place, and the
  entry holds them, so their ids are not reused); object columns (``delta``) object by object (their
  pointers) against a kept copy, which holds the objects so that their addresses are not reused either.
  Any difference drops the entry. A frame with a column of any other kind is never kept.

The check costs about 35 ms per million events, against about half a second of shared work it saves; what is
kept costs about 70 MB per million events (the chunks, the run keys and masks, the decoded payloads, the
copy of ``delta``'s pointers, the tables) while the frame lives. Tables handed out are copies (a tool call's
arguments parsed anew): changing one never changes what a later table reads.
"""

from __future__ import annotations

import ctypes
import hashlib
import weakref
from typing import Any, cast

import numpy as np
import pandas as pd

from .._by_file import column_array
from .._event_array import EventArray
from .._load import events_table
from ._frame import EventFrame

__all__ = ["Fingerprint", "event_frame", "forget"]

try:  # one C loop, identical objects equal without a comparison (NaN included)
    from pandas._libs.lib import array_equivalent_object as _same_objects  # type: ignore[attr-defined]  # private: not in pandas-stubs
except ImportError:  # pragma: no cover - a pandas without it

    def _same_objects(left: np.ndarray, right: np.ndarray) -> bool:
        return all(a is b or a == b for a, b in zip(left.tolist(), right.tolist(), strict=True))


class Fingerprint:
    """What the tables read of an events frame, in a form that tells whether the frame changed since."""

    __slots__ = ("digest", "held", "objects")

    def __init__(self, digest: bytes, held: list[Any], objects: list[np.ndarray]) -> None:
        self.digest = digest
        self.held = held
        """Immutable parts compared by identity (kept alive here, so their ids stay theirs)."""
        self.objects = objects
        """Copies of the object columns' arrays, compared element by element."""

    @classmethod
    def of(cls, frame: pd.DataFrame, *, copies: bool = True) -> Fingerprint | None:
        """The fingerprint of ``frame``; None when a column is of a kind it cannot tell changes of."""
        if frame.columns.has_duplicates:
            return None
        digest = hashlib.sha1()
        digest.update(
            repr((list(map(str, frame.columns)), list(map(str, frame.dtypes)), len(frame))).encode()
        )
        held: list[Any] = []
        objects: list[np.ndarray] = []
        for name in frame.columns:
            array = column_array(frame, name)
            if isinstance(array, pd.Categorical):
                held += [array.dtype, array.categories]
                _digest(digest, array.codes)
            elif isinstance(array, EventArray):
                held += [array._blobs, *array._blobs, *(blob.data for blob in array._blobs)]
                _digest(digest, array._blob)
                _digest(digest, array._line)
            elif isinstance(array, pd.arrays.DatetimeArray):
                _digest(digest, cast(Any, array).asi8)  # its int64 nanoseconds (asi8: not in pandas-stubs)
            elif isinstance(array, pd.arrays.StringArray):
                values = array._ndarray
                objects.append(values.copy() if copies else values)
            elif isinstance(array, pd.arrays.ArrowExtensionArray):
                held.append(cast(Any, array)._pa_array)  # pandas' own attribute, not in pandas-stubs
            elif (
                isinstance(array, (np.ndarray, pd.arrays.NumpyExtensionArray)) and array.dtype.kind in "biuf"
            ):
                _digest(digest, np.asarray(array))
            else:
                return None
        return cls(digest.digest(), held, objects)

    def matches(self, frame: pd.DataFrame) -> bool:
        """Whether ``frame`` holds what it held when this fingerprint was taken."""
        now = Fingerprint.of(frame, copies=False)
        if now is None or now.digest != self.digest or len(now.held) != len(self.held):
            return False
        if any(a is not b for a, b in zip(now.held, self.held, strict=True)):
            return False
        return all(
            len(a) == len(b) and _same_references(a, b)
            for a, b in zip(now.objects, self.objects, strict=True)
        )


def _same_references(now: np.ndarray, then: np.ndarray) -> bool:
    """Whether two object arrays hold the very same objects, compared as the pointers they are.

    ``then`` (a kept copy) holds its objects alive, so no object of ``now`` can sit at the address of one it
    lost; an equal value written as a new object counts as a change.
    """
    if not (now.flags.c_contiguous and then.flags.c_contiguous) or now.itemsize != 8:
        return bool(_same_objects(now, then))
    return bool(np.array_equal(_addresses(now), _addresses(then)))


def _addresses(values: np.ndarray) -> np.ndarray:
    """The pointers of an object array, read in place (valid while ``values`` lives)."""
    if not len(values):
        return np.empty(0, dtype=np.uint64)
    pointer = ctypes.cast(values.ctypes.data, ctypes.POINTER(ctypes.c_uint64))
    return np.ctypeslib.as_array(pointer, shape=values.shape)


def _digest(digest: Any, values: np.ndarray) -> None:
    digest.update(np.ascontiguousarray(values).view(np.uint8))


class _Entry:
    __slots__ = ("base", "fingerprint", "frame", "gone")

    def __init__(self, frame: pd.DataFrame, fingerprint: Fingerprint, base: EventFrame) -> None:
        self.frame = weakref.ref(frame)
        self.fingerprint = fingerprint
        self.base = base
        self.gone = weakref.finalize(frame, _KEPT.pop, id(frame), None)
        """Drops the entry when the frame goes."""


_KEPT: dict[int, _Entry] = {}
"""The work kept per frame, by the frame's id (its entry holds the frame weakly and goes with it)."""


def event_frame(events: Any) -> EventFrame:
    """The ``EventFrame`` of an events table (or of a source, loaded), with the work already done for this
    very frame when it is unchanged since (see the module's docstring); a fresh one otherwise."""
    frame = events_table(events)
    if frame is not events:  # loaded here, or brought to the loader's shape: a new frame nobody else holds
        return EventFrame(frame)
    key = id(frame)
    entry = _KEPT.get(key)
    if entry is not None and entry.frame() is frame and entry.fingerprint.matches(frame):
        return entry.base.bound(frame)
    forget(frame)
    fingerprint = Fingerprint.of(frame)
    ev = EventFrame(frame)
    if fingerprint is None:
        return ev
    _KEPT[key] = _Entry(frame, fingerprint, ev.bound(None))
    return ev


def forget(frame: pd.DataFrame) -> None:
    """Drop the work kept for ``frame`` (if any)."""
    entry = _KEPT.get(id(frame))
    if entry is not None and entry.frame() is frame:
        entry.gone.detach()
        del _KEPT[id(frame)]
