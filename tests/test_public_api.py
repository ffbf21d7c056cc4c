"""The public surface: lazy names, one error family, and a light core import."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import agui_notebook
from agui_notebook import _errors

INIT = Path(agui_notebook.__file__)


def test_every_exported_name_resolves_and_the_type_checking_imports_match() -> None:
    tree = ast.parse(INIT.read_text())
    guarded = next(
        n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING"
    )
    imported = {(node.module, alias.name) for node in guarded.body for alias in node.names}  # type: ignore[attr-defined]
    assert imported == {(module, name) for name, module in agui_notebook._EXPORTS.items()}
    for name in agui_notebook.__all__:
        assert getattr(agui_notebook, name) is not None
    assert set(agui_notebook.__all__) <= set(dir(agui_notebook))
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        agui_notebook.nope  # noqa: B018


def test_every_exception_and_warning_is_in_the_family_and_exported() -> None:
    for name in _errors.__all__:
        cls = getattr(_errors, name)
        assert getattr(agui_notebook, name) is cls
        family = _errors.AguiNotebookWarning if issubclass(cls, Warning) else _errors.AguiNotebookError
        assert issubclass(cls, family), name
        assert cls.__module__ == "agui_notebook"
    package = Path(agui_notebook.__file__).parent
    for path in package.rglob("*.py"):
        if path.name == "_errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Error", "Warning")):
                pytest.fail(f"{path.relative_to(package)}: {node.name} belongs in agui_notebook/_errors.py")


def test_readers_keep_the_builtin_a_caller_would_catch() -> None:
    assert issubclass(agui_notebook.EventParseError, ValueError)
    assert issubclass(agui_notebook.ChunkDecodeError, ValueError)
    assert issubclass(agui_notebook.AgentError, TypeError)
    with pytest.raises(agui_notebook.AguiNotebookError, match=r"^<text>:1: invalid JSON"):
        list(agui_notebook.iter_wire_events("{oops}\n"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = agui_notebook.load_events('{"type": "RUN_STARTED"}\n{oops}\n', errors="collect")
    assert len(frame) == 1
    assert [w.category for w in caught] == [agui_notebook.EventLogWarning]


CORE_IMPORT = "from agui_notebook import ui_messages_from_events, apply_events, verify_events"


def test_the_core_imports_no_pandas_widget_or_plotting() -> None:
    code = f"import sys; {CORE_IMPORT}; print(sorted(m for m in ('pandas', 'anywidget', 'ipywidgets', 'matplotlib') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_public_functions_say_what_they_take_and_return() -> None:
    for name in agui_notebook.__all__:
        value = getattr(agui_notebook, name)
        if inspect.isfunction(value):
            hints = inspect.get_annotations(value)
            assert "return" in hints, f"{name} has no return annotation"
            assert hints["return"] not in ("Any", "list[Any]"), f"{name} returns {hints['return']}"
