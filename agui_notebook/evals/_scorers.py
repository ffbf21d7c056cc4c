"""Scorers: a name, a description and a dtype (declared like the tables' columns), and a function of a run (or
of a message) giving a value for its column; the deterministic ones built from ``expect``'s checks.

>>> from agui_notebook.evals._run import runs_of
>>> run = runs_of([
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": '{"city": "Paris"}'},
...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
... ])[0]
>>> text_contains("Paris").verdict(run)
Verdict(value=True, reason=None)
>>> json_matches({"type": "object", "required": ["country"]}).verdict(run).reason
"the answer's JSON does not match the schema at $: 'country' is a required property"
"""

from __future__ import annotations

import inspect
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple, get_type_hints

import jsonschema
import numpy as np
import pandas as pd

from agui_notebook._errors import InputTypeError, OptionError, ScorerError
from agui_notebook._options import keyword_options, typed
from agui_notebook._shown import shown
from agui_notebook.inspection._expect import RunExpectation
from agui_notebook.logs._columns import Column

from ._run import Message, Run

__all__ = [
    "DTYPES",
    "Scorer",
    "Verdict",
    "before",
    "json_matches",
    "no_tool_errors",
    "scorer",
    "text_contains",
    "tool_called",
    "ttft_below",
    "verified",
]

DTYPES = ("boolean", "float64", "string")
"""The dtypes a score column takes: pandas' nullable ``boolean``, ``float64`` (an int is read as a float) and
pandas' ``string``."""

_FROM_TYPE: dict[Any, str] = {bool: "boolean", float: "float64", int: "float64", str: "string"}

Per = Literal["run", "message"]


class Verdict(NamedTuple):
    """A scorer's value for one run, and why (None when the scorer says nothing more)."""

    value: Any
    reason: str | None = None


@dataclass(frozen=True, eq=False)
class Scorer:
    """A column of scores: ``function(run)`` (or ``function(message)`` with ``per="message"``) gives each row's
    value, of ``dtype``; with ``reasons=True`` the function gives a :class:`Verdict` and its reason fills the
    ``<name>_reason`` column beside it. Build one with :func:`scorer`, a check (:func:`tool_called` ...) or
    ``judge``."""

    name: str
    description: str
    dtype: str
    function: Callable[..., Any]
    per: Per = "run"
    reasons: bool = False
    cache: Any = field(default=None, repr=False)
    """A judge's ``JudgeCache`` (``score`` writes its file after judging); None for other scorers."""

    @property
    def is_async(self) -> bool:
        """Whether the function is a coroutine function (a judge): ``score`` awaits it, concurrently."""
        return inspect.iscoroutinefunction(self.function)

    @property
    def columns(self) -> tuple[Column, ...]:
        """The columns it adds, declared like the tables' (name, meaning, dtype)."""
        found: tuple[Column, ...] = (Column(self.name, self.description, dtype=self.dtype),)
        if self.reasons:
            found += (Column(f"{self.name}_reason", f"why `{self.name}` is what it is", dtype="string"),)
        return found

    def __call__(self, item: Run | Message) -> Any:
        """The value for one run (or message)."""
        return self.verdict(item).value

    def verdict(self, item: Run | Message) -> Verdict:
        """The value and reason for one run (or message), checked against ``dtype`` (else ScorerError)."""
        if self.is_async:
            raise OptionError(f"scorer {self.name!r} is async (a judge): score it with evals.score")
        return self.checked(self._called(item), item)

    def _called(self, item: Run | Message) -> Any:
        try:
            return self.function(item)
        except ScorerError:
            raise
        except Exception as exc:
            raise self.error(item, f"raised {type(exc).__name__}: {exc}") from exc

    def error(self, item: Run | Message, reason: str) -> ScorerError:
        """A ScorerError naming this scorer and ``item``'s run."""
        key = _run_key(item)
        where = f"message {item.message_id!r} of run {key!r}" if isinstance(item, Message) else f"run {key!r}"
        return ScorerError(f"scorer {self.name!r}, {where}: {reason}", scorer=self.name, run_key=key)

    def checked(self, result: Any, item: Run | Message) -> Verdict:
        """``result`` (the function's return) as a Verdict whose value the column holds, else ScorerError."""
        if self.reasons:
            if not isinstance(result, Verdict):
                raise self.error(item, f"gave {shown(result)}, not a Verdict(value, reason)")
            value, reason = result
            if reason is not None and not isinstance(reason, str):
                raise self.error(item, f"gave a reason of {shown(reason)}, not a string")
        else:
            value, reason = result, None
        return Verdict(_cell(value, self.dtype, lambda why: self.error(item, why)), reason)


def _run_key(item: Any) -> str:
    if isinstance(item, Message):
        return str(item.row["run_key"])
    if isinstance(item, Run):
        return item.key
    return "?"


def _cell(value: Any, dtype: str, error: Callable[[str], ScorerError]) -> Any:
    """``value`` as a cell of a ``dtype`` column (None for a missing one)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if dtype == "boolean":
        if isinstance(value, (bool, np.bool_)):
            return bool(value)
        raise error(f"gave {shown(value)}, not a bool (its column is boolean)")
    if dtype == "float64":
        if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, (bool, np.bool_)
        ):
            try:
                return float(value)
            except OverflowError:
                raise error(f"gave {shown(value)}, too large for a float") from None
        raise error(f"gave {shown(value)}, not a number (its column is float64)")
    if isinstance(value, str):
        return value
    raise error(f"gave {shown(value)}, not a string (its column is string)")


def checked_dtype(dtype: Any, what: str) -> str:
    """``dtype`` if it is one of :data:`DTYPES` (or ``bool``, ``float``, ``int``, ``str``), else OptionError."""
    if dtype in _FROM_TYPE:
        return _FROM_TYPE[dtype]
    if isinstance(dtype, str) and dtype in DTYPES:
        return dtype
    raise OptionError(
        f"{what}: dtype must be one of {', '.join(DTYPES)} (or bool, float, int, str), not {shown(dtype)}"
    )


def checked_name(name: Any, what: str) -> str:
    """``name`` if it can name a column (a non-empty string), else the family's error."""
    typed(name, f"{what}: name", str, "a string")
    if not name.strip():
        raise OptionError(f"{what}: name must name a column, not {shown(name)}")
    return str(name)


@keyword_options
def scorer(
    function: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    dtype: str | type | None = None,
    per: Per = "run",
) -> Scorer:
    """A scorer from a plain function ``fn(run) -> bool | float | str`` (``per="message"``: ``fn(message)``).

    ``name`` (the column) defaults to the function's name, ``description`` to the first line of its docstring
    and ``dtype`` to its return annotation (``bool`` -> ``boolean``, ``float``/``int`` -> ``float64``, ``str`` ->
    ``string``). Also a decorator, for an annotated function: ``@scorer``.

    >>> def answer_chars(run) -> int:
    ...     "How long the final answer is, in characters."
    ...     return len(run.text)
    >>> scorer(answer_chars).columns
    (Column(name='answer_chars', meaning='How long the final answer is, in characters.', dtype='float64', unit='', compute=None, only=''),)
    """
    if not callable(function):
        raise InputTypeError(f"scorer: function must be a function of a run, not {type(function).__name__}")
    if per not in ("run", "message"):
        raise OptionError(f"scorer: per must be 'run' or 'message', not {shown(per)}")
    what = f"scorer({getattr(function, '__name__', type(function).__name__)})"
    if name is None:
        name = getattr(function, "__name__", None)
        if not isinstance(name, str) or name == "<lambda>":
            raise OptionError(f"{what}: give it a name= (it names the column)")
    name = checked_name(name, what)
    if description is None:
        doc = inspect.getdoc(function) or ""
        description = doc.strip().splitlines()[0] if doc.strip() else name
    typed(description, f"{what}: description", str, "a string")
    if dtype is None:
        try:
            hints = get_type_hints(function)
        except Exception:
            hints = {}
        returned = hints.get("return")
        if returned not in _FROM_TYPE:
            raise OptionError(
                f"{what}: give it a dtype= (bool, float or str), or annotate what it returns (-> bool)"
            )
        dtype = returned
    return Scorer(name, description, checked_dtype(dtype, what), function, per)


# -- expect's checks -------------------------------------------------------------------------------------------


def _check(name: str, description: str, check: Callable[[RunExpectation], Any]) -> Scorer:
    def verdict(run: Run) -> Verdict:
        if not isinstance(run, Run):
            raise InputTypeError(f"{name} scores a Run, not {type(run).__name__}")
        try:
            check(run.expect())
        except AssertionError as failed:
            return Verdict(False, str(failed))
        return Verdict(True, None)

    return Scorer(name, description, "boolean", verdict, "run", reasons=True)


@keyword_options
def tool_called(name: str, /, *, times: int | None = None, **args_subset: Any) -> Scorer:
    """Whether the run called tool ``name`` (with arguments containing ``args_subset``; ``times=`` exactly that
    many times): ``expect(...).tool_called``, as a column ``called_<name>`` with the failure as its reason.

    >>> tool_called("get_weather", city="Paris").name
    'called_get_weather'
    """
    typed(name, "tool_called: name", str, "a tool name (a string)")
    if times is not None:
        typed(times, "tool_called: times", int, "a whole number or None")
    wanted = f"tool {name!r}" + (f" with arguments containing {shown(args_subset)}" if args_subset else "")
    return _check(
        f"called_{name}",
        f"whether the run called {wanted}" + ("" if times is None else f" {times} times"),
        lambda check: check.tool_called(name, times=times, **args_subset),
    )


def no_tool_errors() -> Scorer:
    """Whether no tool call of the run ended with an error (``expect(...).no_tool_errors``).

    >>> no_tool_errors().dtype
    'boolean'
    """
    return _check(
        "no_tool_errors", "whether no tool call of the run ended with an error", RunExpectation.no_tool_errors
    )


def text_contains(*snippets: str) -> Scorer:
    """Whether every snippet is in the run's assistant text (``expect(...).text_contains``), as a column
    ``contains_<first snippet>``.

    >>> text_contains("Paris").name
    'contains_Paris'
    """
    if not snippets:
        raise OptionError("text_contains: give at least one snippet")
    for snippet in snippets:
        typed(snippet, "text_contains: a snippet", str, "a string")
    return _check(
        f"contains_{snippets[0]}",
        "whether the run's text contains " + ", ".join(repr(s) for s in snippets),
        lambda check: check.text_contains(*snippets),
    )


def ttft_below(seconds: float) -> Scorer:
    """Whether the run streamed its first text or reasoning within ``seconds`` (``expect(...).ttft_below``).

    >>> ttft_below(2.0).name
    'ttft_below_2s'
    """
    typed(seconds, "ttft_below: seconds", (int, float), "a number of seconds")
    if not seconds > 0:
        raise OptionError(f"ttft_below: seconds must be a positive number, not {shown(seconds)}")
    return _check(
        f"ttft_below_{seconds:g}s",
        f"whether the run's TTFT was below {seconds:g} s",
        lambda check: check.ttft_below(seconds),
    )


def before(first: str, then: str) -> Scorer:
    """Whether ``first`` happens before ``then`` in the run (``expect(...).before``: an event type, a tool the run
    called, or a text snippet), as a column ``<first>_before_<then>``.

    >>> before("get_weather", "sunny").name
    'get_weather_before_sunny'
    """
    typed(first, "before: first", str, "a string")
    typed(then, "before: then", str, "a string")
    return _check(
        f"{first}_before_{then}",
        f"whether {first!r} happens before {then!r} in the run",
        lambda check: check.before(first, then),
    )


def verified() -> Scorer:
    """Whether ``verify_events`` finds no error in the run (``expect(...).verify``).

    >>> verified().name
    'verified'
    """
    return _check("verified", "whether verify_events finds no error in the run", RunExpectation.verify)


@keyword_options
def json_matches(schema: Mapping[str, Any], *, name: str = "json_matches") -> Scorer:
    """Whether the run's final answer is JSON matching the JSON Schema ``schema`` (checked with ``jsonschema``);
    the reason names the first place that does not match.

    >>> json_matches({"type": "object"}).description
    "whether the run's final answer is JSON matching the schema {'type': 'object'}"
    """
    if not isinstance(schema, Mapping):
        raise InputTypeError(
            f"json_matches: schema must be a JSON Schema (a dict), not {type(schema).__name__}"
        )
    name = checked_name(name, "json_matches")
    try:
        validator_class = jsonschema.validators.validator_for(dict(schema))
        validator_class.check_schema(dict(schema))
        validator = validator_class(dict(schema))
    except Exception as exc:
        raise OptionError(f"json_matches: not a JSON Schema: {getattr(exc, 'message', exc)}") from None

    def verdict(run: Run) -> Verdict:
        if not isinstance(run, Run):
            raise InputTypeError(f"{name} scores a Run, not {type(run).__name__}")
        text = run.text.strip()
        if text.startswith("```"):  # a fenced block: its body
            text = text.strip("`").removeprefix("json").strip()
        try:
            value = json.loads(text)
        except ValueError as exc:
            return Verdict(False, f"the answer is not JSON ({exc}): {text[:80]!r}")
        try:
            errors = sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))
        except RecursionError:
            return Verdict(False, "the answer's JSON is nested too deeply to check")
        if errors:
            first = errors[0]
            return Verdict(
                False, f"the answer's JSON does not match the schema at {first.json_path}: {first.message}"
            )
        return Verdict(True, None)

    return Scorer(
        name,
        f"whether the run's final answer is JSON matching the schema {dict(schema)!r}",
        "boolean",
        verdict,
        reasons=True,
    )


def column_values(scorer: Scorer, values: list[Any]) -> pd.api.extensions.ExtensionArray | np.ndarray:
    """A score column of ``values`` (cells already checked) in the scorer's dtype."""
    if scorer.dtype == "float64":
        return np.array([math.nan if v is None else v for v in values], dtype="float64")
    return pd.array(values, dtype=scorer.dtype)  # type: ignore[call-overload]  # "boolean" or "string"
