"""Public namespaces whose names are imported from their private modules when first used (PEP 562).

The top level and each room's namespace (``agui_notebook.logs``, ``agui_notebook.ui`` ...) list their names as
``name -> private module``; nothing is imported until a name is read, so ``from agui_notebook import
ui_messages_from_events`` never loads pandas or the widget. A name that moved elsewhere keeps working from its old
place, with a :class:`DeprecationWarning` that says where it lives now.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

__all__ = ["Moved", "lazy_namespace"]


class Moved(NamedTuple):
    """Where a name that left a namespace lives now: ``new`` as users write it, and the module defining it."""

    new: str
    module: str
    attribute: str


def lazy_namespace(
    package: str,
    exports: Mapping[str, str],
    *,
    rooms: frozenset[str] = frozenset(),
    moved: Mapping[str, Moved] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for the package ``package``: its ``exports`` (``name -> module``) imported on
    first use, ``rooms`` (subpackages that are namespaces of their own) imported on access, and ``moved`` names
    given from their new place with a warning."""
    namespace = sys.modules[package]
    moved = moved or {}

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module), name)
            setattr(namespace, name, value)  # later look-ups skip this function
            return value
        if name in rooms:
            return importlib.import_module(f"{package}.{name}")
        if name in moved:
            new, module, attribute = moved[name]
            warnings.warn(
                f"{package}.{name} has moved: use {new} (the top level keeps what a notebook user types)",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(importlib.import_module(module), attribute)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*vars(namespace), *exports, *rooms})

    return __getattr__, __dir__
