"""Bursts of allocation without a pass of the cyclic garbage collector in the middle of them."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collections_paused"]


@contextmanager
def collections_paused() -> Iterator[None]:
    """Run the block with the cyclic garbage collector off, and turn it back on after if it was on.

    For work that makes many objects at once, none of them garbage yet: a collection it would trigger finds
    nothing to free, and over a big heap (a long-lived kernel's) a full one takes hundreds of milliseconds.
    The collection comes later instead, when the work is done.

    >>> import gc
    >>> with collections_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
