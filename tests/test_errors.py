"""The error family: the tree in _errors.py's docstring is the real hierarchy, and ``errors=`` is checked once."""

from __future__ import annotations

import re

import pytest

import agui_notebook
from agui_notebook import _errors

TREE_LINE = re.compile(r"^(?P<indent>[ │├└─]*)(?P<name>[A-Z]\w+)(?:\s+\((?P<builtin>\w+)\))?")


def _documented_tree() -> dict[str, tuple[str | None, str | None]]:
    """``name -> (parent, builtin)`` as the module docstring draws it."""
    tree: dict[str, tuple[str | None, str | None]] = {}
    stack: list[tuple[int, str]] = []
    lines = _errors.__doc__.split("::", 1)[1].split(">>>", 1)[0].splitlines()
    for line in lines:
        match = TREE_LINE.match(line.strip("\n")[4:] if line.startswith("    ") else line)
        if not line.strip() or match is None:
            continue
        depth = len(match["indent"])
        while stack and stack[-1][0] >= depth:
            stack.pop()
        tree[match["name"]] = (stack[-1][1] if stack else None, match["builtin"])
        stack.append((depth, match["name"]))
    return tree


def test_the_docstring_tree_is_the_class_hierarchy():
    tree = _documented_tree()
    assert set(tree) == set(_errors.__all__)
    for name, (parent, builtin) in tree.items():
        cls = getattr(_errors, name)
        bases = cls.__bases__
        if parent is None:
            assert name in ("AguiNotebookError", "AguiNotebookWarning")
        else:
            assert bases[0] is getattr(_errors, parent), name
        if builtin is not None:
            assert any(base.__name__ == builtin for base in cls.__mro__), name


@pytest.mark.parametrize(
    ("call", "allowed"),
    [
        (lambda mode: agui_notebook.apply_events([], errors=mode), "'skip' or 'raise'"),
        (lambda mode: agui_notebook.UIMessageStreamReducer(errors=mode), "'raise' or 'collect'"),
        (lambda mode: agui_notebook.load_events("", errors=mode), "'raise' or 'collect'"),
    ],
)
def test_every_errors_argument_is_checked_the_same_way(call, allowed):
    with pytest.raises(
        agui_notebook.OptionError, match=f"^errors must be {allowed}, not 'ignore'$"
    ) as caught:
        call("ignore")
    assert isinstance(caught.value, ValueError)


def test_check_error_mode_returns_the_mode():
    assert _errors.check_error_mode("skip", ("skip", "raise")) == "skip"
    with pytest.raises(agui_notebook.OptionError):
        _errors.check_error_mode(True, ("raise", "collect"))
