"""The public surface: lazy names, one error family, and a light core import."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import agui_notebook
from agui_notebook import _errors

INIT = Path(agui_notebook.__file__)


def _type_checking_imports(path: Path) -> set[tuple[str, str]]:
    """(module, name as imported) of the TYPE_CHECKING block of a namespace's __init__.py."""
    tree = ast.parse(path.read_text())
    guarded = next(
        n for n in tree.body if isinstance(n, ast.If) and getattr(n.test, "id", "") == "TYPE_CHECKING"
    )
    return {(node.module, alias.asname or alias.name) for node in guarded.body for alias in node.names}  # type: ignore[attr-defined]


def test_every_exported_name_resolves_and_the_type_checking_imports_match() -> None:
    expected = {(module, name) for name, module in agui_notebook._EXPORTS.items()}
    expected |= {(moved.module, name) for name, moved in agui_notebook._MOVED.items()}
    assert _type_checking_imports(INIT) == expected
    for name in agui_notebook.__all__:
        assert getattr(agui_notebook, name) is not None
    assert set(agui_notebook.__all__) <= set(dir(agui_notebook))
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        agui_notebook.nope  # noqa: B018


ROOMS = sorted(agui_notebook.ROOMS)


@pytest.mark.parametrize("room", ROOMS)
def test_each_room_namespace_resolves_and_its_type_checking_imports_match(room: str) -> None:
    namespace = importlib.import_module(f"agui_notebook.{room}")
    assert getattr(agui_notebook, room) is namespace  # agui_notebook.logs works without importing it first
    assert _type_checking_imports(Path(namespace.__file__)) == {
        (module, name) for name, module in namespace._EXPORTS.items()
    }
    for name in namespace.__all__:
        value = getattr(namespace, name)
        if name in agui_notebook._EXPORTS:
            assert getattr(agui_notebook, name) is value  # one object, whichever place it is read from
    with pytest.raises(AttributeError, match=f"module 'agui_notebook.{room}' has no attribute 'nope'"):
        namespace.nope  # noqa: B018


def test_the_logs_namespace_the_docs_write() -> None:
    from agui_notebook import logs

    table = logs.runs_df([{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}])
    assert table["status"].tolist() == ["incomplete"]
    assert logs.to_parquet.__module__ == "agui_notebook.logs._parquet"


def test_a_name_that_moved_still_works_and_says_where_it_lives_now() -> None:
    for name, moved in agui_notebook._MOVED.items():
        with pytest.warns(
            DeprecationWarning, match=f"^agui_notebook.{name} has moved: use {re.escape(moved.new)}"
        ):
            value = getattr(agui_notebook, name)
        assert value is getattr(importlib.import_module(moved.module), moved.attribute)
        assert name not in agui_notebook.__all__
        room = moved.new.split(".")[1]
        if room in agui_notebook.ROOMS:
            assert getattr(importlib.import_module(f"agui_notebook.{room}"), name) is value


def test_inspect_run_does_not_shadow_the_standard_librarys_inspect() -> None:
    namespace: dict[str, object] = {}
    exec("import inspect\nfrom agui_notebook import *", namespace)
    assert namespace["inspect"] is inspect and "inspect_run" in namespace
    with pytest.warns(DeprecationWarning, match="use agui_notebook.inspect_run"):
        assert agui_notebook.inspect is agui_notebook.inspect_run


def test_the_room_namespaces_import_nothing_heavy() -> None:
    code = (
        "import sys, agui_notebook.logs, agui_notebook.ui, agui_notebook.agui, agui_notebook.inspection; "
        "print(sorted(m for m in ('pandas', 'anywidget', 'matplotlib') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


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
