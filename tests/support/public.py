"""Every public name of the package: the top level's and each room namespace's, with the module defining it."""

from __future__ import annotations

import importlib

import agui_notebook


def public_names() -> dict[str, str]:
    """``name -> private module`` over the top level and the room namespaces (a name in several: once)."""
    found = dict(agui_notebook._EXPORTS)
    for room in sorted(agui_notebook.ROOMS):
        found.update(importlib.import_module(f"agui_notebook.{room}")._EXPORTS)
    return found


def public_value(name: str) -> object:
    """The object a public name gives (from the namespace that lists it)."""
    return getattr(importlib.import_module(public_names()[name]), name)
