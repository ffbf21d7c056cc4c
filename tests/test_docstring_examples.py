"""Every example in the package's docstrings runs and prints what it says."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import agui_notebook

MODULES = [
    "agui_notebook",
    *sorted(
        info.name
        for info in pkgutil.walk_packages(agui_notebook.__path__, prefix="agui_notebook.")
        if not info.ispkg
    ),
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert result.failed == 0, f"{result.failed} of {result.attempted} docstring examples failed in {name}"
