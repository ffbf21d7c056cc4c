"""One error family: every public callable of the package, called with hostile arguments, returns or raises one
of the package's errors (``AguiNotebookError``), never a bare builtin.

Arguments are random JSON-ish values (huge ints, NaN, lone surrogates, 10,000-level nesting), values of the wrong
type, ``None``, bytes, dicts with keys that are not strings, and paths that name nothing: a missing file, a folder,
a symbolic link loop, a file of garbage. Every positional parameter gets one; each keyword option is left out or
given one. What a call returns is consumed (iterators iterated, coroutines awaited).
"""

from __future__ import annotations

import asyncio
import inspect
import math
import os
import tempfile
import typing
import warnings
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agui_notebook import AguiNotebookError
from tests.support.hostile import HUGE_INT, VALUES, event_sequences
from tests.support.public import public_names, public_value

NOT_HERE = ("agui_notebook._errors",)
"""The error classes themselves."""

_PLACES = Path(tempfile.mkdtemp(prefix="agui-hostile-"))
(_PLACES / "folder").mkdir()
(_PLACES / "folder" / "notes.md").write_text("not a log")
(_PLACES / "garbage.jsonl").write_bytes(b"\x00\xff{oops\n\xfe")
(_PLACES / "empty.jsonl").write_bytes(b"")
(_PLACES / "loop_a").symlink_to(_PLACES / "loop_b")
(_PLACES / "loop_b").symlink_to(_PLACES / "loop_a")
PATHS = [
    str(_PLACES / "missing.jsonl"),
    str(_PLACES / "folder"),
    str(_PLACES / "loop_a"),
    str(_PLACES / "garbage.jsonl"),
    str(_PLACES / "empty.jsonl"),
    _PLACES / "missing" / "deeper.jsonl",
    str(_PLACES / "*.nothing"),
]

HOSTILE = st.one_of(
    VALUES,
    st.sampled_from(
        [
            None,
            b"",
            b"\xff\xfe\x00",
            bytearray(b"{"),
            HUGE_INT,
            -HUGE_INT,
            math.nan,
            math.inf,
            1.5,
            12,
            True,
            (),
        ]
    ),
    st.sampled_from(PATHS),
    st.dictionaries(st.sampled_from([1, (1, 2), None, 2.5, frozenset()]), VALUES, min_size=1, max_size=2),
    event_sequences(max_size=5),
    st.builds(object),
    st.just(lambda *args, **kwargs: None),
)
"""A hostile argument: of any kind, the wrong one most often."""

CALLBACK_OPTIONS = frozenset(
    {"on_data", "on_error", "report", "tokenizer", "exporter", "ax", "palette", "resource", "client"}
)
"""Options that take a function or an object of a library's (a callback, a Dask client, matplotlib axes): given
a wrong value they are checked at the call (an OptionError) or first used there, so they get None or a value of
the right kind, and the hostile values go to the data."""

OPTION_VALUES: dict[str, st.SearchStrategy[Any]] = {
    # A valid workers= starts that many processes: only small ones (a huge one must be refused before any).
    "workers": st.sampled_from([None, 0, -1, 1, 2, "2", 2.5, True, math.nan, 2**40, HUGE_INT]),
}
"""Options whose valid values cost machine resources get hostile values that are safe to be wrong about."""


def _span_exporter() -> Any:
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    return InMemorySpanExporter()


REQUIRED_OBJECTS: dict[str, Callable[[], Any]] = {"exporter": _span_exporter}
"""A value of the right kind for a required object argument."""

RECORDS = frozenset({"MessageChange", "Problem", "RunInfo", "ThreadState", "SafeValidationResult"})
"""Dataclasses the package returns: records that take any value, with nothing to refuse."""


def _public_callables() -> list[tuple[str, Any]]:
    found = []
    for name, module in sorted(public_names().items()):
        value = public_value(name)
        if module.startswith(NOT_HERE) or name in RECORDS or not callable(value):
            continue
        if inspect.isclass(value) and hasattr(value, "model_fields"):
            continue  # pydantic models: validation errors are theirs, turned into ours by validate_ui_messages
        if typing.get_origin(value) is not None:
            continue  # a type alias (ToolState = Literal[...]): named for annotations, not called
        found.append((name, value))
    return found


CALLABLES = _public_callables()


def _parameters(function: Any) -> list[inspect.Parameter]:
    try:
        return list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return []


@st.composite
def _calls(draw: st.DrawFn, function: Any) -> tuple[list[Any], dict[str, Any]]:
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for parameter in _parameters(function):
        if parameter.kind is parameter.VAR_POSITIONAL:
            args += draw(st.lists(HOSTILE, max_size=2))
        elif parameter.name in CALLBACK_OPTIONS:
            if parameter.default is parameter.empty:
                args.append(REQUIRED_OBJECTS[parameter.name]())
        elif parameter.kind is parameter.VAR_KEYWORD:
            continue
        elif parameter.default is parameter.empty and parameter.kind is not parameter.KEYWORD_ONLY:
            args.append(draw(HOSTILE))
        elif draw(st.booleans()):
            kwargs[parameter.name] = draw(OPTION_VALUES.get(parameter.name, HOSTILE))
    return args, kwargs


def _consume(result: Any) -> None:
    if inspect.iscoroutine(result):
        result = asyncio.run(result)
    if isinstance(result, AsyncIterator):

        async def drain() -> None:
            async for _ in result:
                pass

        asyncio.run(drain())
    elif isinstance(result, Iterator):
        for _ in result:
            pass


def _called(function: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the package's warnings (odd values, skipped lines) are not errors
        try:
            _consume(function(*args, **kwargs))
        except AguiNotebookError:
            pass
        except RecursionError:
            pytest.fail(f"{function.__name__}: a RecursionError (a value nested too deeply must be said)")
        finally:
            if "matplotlib.pyplot" in __import__("sys").modules:
                __import__("matplotlib.pyplot").pyplot.close("all")


@pytest.mark.parametrize(("name", "function"), CALLABLES, ids=[name for name, _ in CALLABLES])
def test_hostile_arguments_raise_only_the_family(name: str, function: Any) -> None:
    @settings(
        max_examples=int(os.environ.get("HOSTILE_EXAMPLES", 12 if name.startswith("plot_") else 40)),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=os.environ.get("HOSTILE_EXAMPLES") is None,
    )
    @given(_calls(function))
    def check(call: tuple[list[Any], dict[str, Any]]) -> None:
        args, kwargs = call
        _called(function, args, kwargs)

    previous = os.getcwd()
    os.chdir(_PLACES)  # a relative path a call might write to lands here
    try:
        check()
    finally:
        os.chdir(previous)


def test_the_callables_cover_the_public_surface() -> None:
    names = {name for name, _ in CALLABLES}
    assert {
        "parse_events",
        "load_events",
        "runs_df",
        "expect",
        "inspect_run",
        "diff_runs",
        "iter_ui_chunks",
    } <= names
    assert {
        "EventReducer",
        "UIMessageStreamReducer",
        "Inspector",
        "to_parquet",
        "score",
        "judge",
        "agreement",
        "compare",
        "log_cases",
    } <= names  # the rooms' names too
    assert not any(public_names()[name].startswith(NOT_HERE) for name in names)
