"""What the agent sees of the notebook: AG-UI ``context`` entries made from notebook objects, within a budget.

``context=`` takes AG-UI context entries (``{"description": ..., "value": ...}`` dicts or ``ag_ui.core.Context``)
whose value may be any object, or a mapping ``{description: value}``. At every run each value is described as
text, and the text is cut to the budget (4,000 characters by default) with a note of what was cut:

- a string as it is;
- a pandas DataFrame or Series: its shape, its columns and dtypes, its first rows as CSV, and what was left out;
- a NumPy array: its shape, dtype and first values;
- a matplotlib Figure: its axes with their titles, labels and what they draw;
- a dict or list with a JSON form: compact JSON; anything else: its ``repr``;
- a callable taking no argument: called at every run, its result described as above.

>>> sources = context_sources({"units": "metric", "cities": ["Paris", "Oslo"]})
>>> entries, sent = resolve_context(sources, budget=4000)
>>> entries
[{'description': 'units', 'value': 'metric'}, {'description': 'cities', 'value': '["Paris","Oslo"]'}]
>>> [(s["kind"], s["chars"]) for s in sent]
[('text', 6), ('JSON', 16)]
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel

from agui_notebook._errors import ContextError, InputTypeError, OptionError
from agui_notebook._options import count, listed, typed
from agui_notebook._shown import shown
from agui_notebook._types import JSON
from agui_notebook.wire._values import json_value

__all__ = [
    "CONTEXT_BUDGET",
    "ContextSource",
    "context_instructions",
    "context_preview",
    "context_sources",
    "describe_value",
    "forwarded_props",
    "is_computed",
    "resolve_context",
]

CONTEXT_BUDGET = 4000
"""Characters one context entry may send (its description of a value is cut there, with a note)."""

HEAD_ROWS = 5
"""Rows of a DataFrame (values of an array or Series) shown before the rest is counted."""

MAX_COLUMNS = 30
"""Columns of a DataFrame named with their dtypes (and shown in its rows) before the rest is counted."""

_MIN_BUDGET = 200
"""A budget smaller than this could not hold even a DataFrame's shape and the note of what was cut."""


@dataclass(frozen=True)
class ContextSource:
    """One entry of ``context=``: its description and the value (or zero-argument callable) to describe."""

    description: str
    value: Any

    @property
    def dynamic(self) -> bool:
        """Whether the value is computed at every run (a zero-argument callable)."""
        return is_computed(self.value)


def is_computed(value: Any) -> bool:
    """Whether ``value`` (of ``context=`` or ``forwarded_props=``) is computed at each run: a callable that is not a
    class (a class given as a value is described, not called)."""
    return callable(value) and not isinstance(value, type)


def context_sources(value: Any, name: str = "context") -> list[ContextSource]:
    """``context=`` as given (entries, or a mapping of descriptions to values), checked: the family's errors name
    the entry (``context[2].description must be a string``)."""
    if value is None:
        return []
    if isinstance(value, Mapping):
        pairs = list(value.items())
        for key, _ in pairs:
            typed(key, f"{name} key {shown(key)}", str, "a description (a string)")
        value = [{"description": key, "value": item} for key, item in pairs]
    sources = []
    for index, entry in enumerate(listed(value, name, "context entries")):
        where = f"{name}[{index}]"
        if isinstance(entry, BaseModel):
            entry = {
                "description": getattr(entry, "description", None),
                "value": getattr(entry, "value", None),
            }
        if not isinstance(entry, Mapping):
            raise InputTypeError(
                f"{where} must be a context entry ({{'description': ..., 'value': ...}} or ag_ui.core.Context), "
                f"not {type(entry).__name__}"
            )
        unknown = sorted(str(key) for key in entry if key not in ("description", "value"))
        if unknown or "value" not in entry:
            raise OptionError(
                f"{where} takes 'description' and 'value' only, got keys {sorted(map(str, entry))}"
            )
        typed(entry.get("description"), f"{where}.description", str, "a string")
        sources.append(ContextSource(entry["description"], entry["value"]))
    for index, source in enumerate(sources):
        if source.dynamic and not _takes_no_argument(source.value):
            raise OptionError(
                f"{name}[{index}] ({shown(source.description)}): a callable value is called with no argument at "
                "each run; this one needs arguments"
            )
    return sources


def forwarded_props(value: Any) -> dict[str, JSON] | None:
    """``forwarded_props=`` at run time: a mapping with a JSON form, or a zero-argument callable giving one."""
    if is_computed(value):
        try:
            value = value()
        except Exception as exc:
            raise ContextError(f"forwarded_props: the callable raised {type(exc).__name__}: {exc}") from exc
    if value is None:
        return None
    typed(value, "forwarded_props", Mapping, "a mapping (JSON object), a callable giving one, or None")
    return dict(json_value(dict(value), "forwarded_props"))


def checked_budget(budget: Any) -> int:
    """``context_budget=`` checked: a whole number of characters, at least 200."""
    return count(budget, "context_budget", least=_MIN_BUDGET)


def resolve_context(
    sources: list[ContextSource], budget: int = CONTEXT_BUDGET
) -> tuple[list[JSON], list[dict[str, JSON]]]:
    """The AG-UI context entries of one run (callables called now) and what each sent: ``{description, kind,
    chars, cut, dynamic}`` (``cut``: characters of the description left out by the budget)."""
    entries: list[JSON] = []
    sent: list[dict[str, JSON]] = []
    for index, source in enumerate(sources):
        value = source.value
        if source.dynamic:
            try:
                value = value()
            except Exception as exc:
                raise ContextError(
                    f"context[{index}] ({shown(source.description)}): the callable raised "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
        kept, what = _described(source, value, budget)
        entries.append({"description": source.description, "value": kept})
        sent.append(what)
    return entries, sent


def context_preview(sources: list[ContextSource], budget: int = CONTEXT_BUDGET) -> list[dict[str, JSON]]:
    """What each entry would send, without calling the callables (their size is known once a run called them)."""
    return [
        {"description": s.description, "kind": "callable", "chars": None, "cut": 0, "dynamic": True}
        if s.dynamic
        else _described(s, s.value, budget)[1]
        for s in sources
    ]


def _described(source: ContextSource, value: Any, budget: int) -> tuple[str, dict[str, JSON]]:
    """``value`` (the source's, computed) as the text it sends within ``budget``, and what it sent."""
    text, kind = describe_value(value)
    kept, cut = _within(text, budget)
    sent: dict[str, JSON] = {
        "description": source.description,
        "kind": kind,
        "chars": len(kept),
        "cut": cut,
        "dynamic": source.dynamic,
    }
    return kept, sent


def context_instructions(context: list[Any]) -> str | None:
    """The run's context entries as instructions for an agent that runs in the kernel (a pydantic-ai ``Agent``,
    which reads no AG-UI ``context`` of its own); None when there are none."""
    if not context:
        return None
    blocks = [f"## {entry.description}\n{entry.value}" for entry in context]
    return "The user's notebook shares this context with you:\n\n" + "\n\n".join(blocks)


# ---------------------------------------------------------------------------------------------- describing values
def describe_value(value: Any) -> tuple[str, str]:
    """``(text, kind)``: ``value`` as text an agent can read, and what kind of value it was.

    >>> describe_value(3.5)
    ('3.5', 'float')
    """
    if isinstance(value, str):
        return value, "text"
    for module, describe in _DESCRIBERS:
        if type(value).__module__.split(".", 1)[0] == module:
            described = describe(value)
            if described is not None:
                return described
    if isinstance(value, (dict, list, tuple)):
        try:
            return orjson.dumps(value).decode(), "JSON"
        except (TypeError, orjson.JSONEncodeError):
            pass
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value), "float"
    return _repr(value), type(value).__name__


def _repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception as exc:  # a repr that fails is the value's problem, told rather than raised mid-run
        return f"<{type(value).__name__} whose repr raised {type(exc).__name__}>"


def _within(text: str, budget: int) -> tuple[str, int]:
    """``text`` cut to ``budget`` characters with a note of how many were left out, and that number."""
    if len(text) <= budget:
        return text, 0
    note = "\n… ({:,} more characters not shown)"
    cut = len(text) - budget
    for _ in range(2):  # the note's length depends on the count it gives: settle both
        room = budget - len(note.format(cut))
        cut = len(text) - room
    return text[:room] + note.format(cut), cut


def _pandas(value: Any) -> tuple[str, str] | None:
    import pandas as pd

    if isinstance(value, pd.DataFrame):
        return _frame_text(value), f"DataFrame {value.shape[0]:,}×{value.shape[1]:,}"
    if isinstance(value, pd.Series):
        head = value.head(HEAD_ROWS).to_frame().to_csv()
        rest = len(value) - min(len(value), HEAD_ROWS)
        lines = [f"pandas Series {value.name!r}: {len(value):,} values of dtype {value.dtype}", head.rstrip()]
        if rest:
            lines.append(f"({rest:,} more values not shown)")
        return "\n".join(lines), f"Series of {len(value):,}"
    return None


def _frame_text(frame: Any) -> str:
    rows, columns = frame.shape
    named = zip(frame.columns[:MAX_COLUMNS], frame.dtypes.iloc[:MAX_COLUMNS], strict=True)  # names may repeat
    lines = [f"pandas DataFrame: {rows:,} rows × {columns:,} columns"]
    lines.append("columns (dtype): " + ", ".join(f"{name} ({dtype})" for name, dtype in named))
    if columns > MAX_COLUMNS:
        lines.append(f"({columns - MAX_COLUMNS:,} more columns not shown)")
    if rows:
        head = frame.iloc[:HEAD_ROWS, :MAX_COLUMNS]
        lines.append(f"first {len(head):,} rows (CSV):")
        lines.append(head.to_csv().rstrip())
        if rows > HEAD_ROWS:
            lines.append(f"({rows - HEAD_ROWS:,} more rows not shown)")
    return "\n".join(lines)


def _numpy(value: Any) -> tuple[str, str] | None:
    import numpy as np

    if not isinstance(value, np.ndarray):
        return None
    flat = value.reshape(-1)[:HEAD_ROWS].tolist()
    text = f"NumPy array of shape {value.shape} and dtype {value.dtype}; first values: {flat}"
    if value.size > HEAD_ROWS:
        text += f" ({value.size - HEAD_ROWS:,} more not shown)"
    return text, f"array {'×'.join(map(str, value.shape)) or 'scalar'}"


def _matplotlib(value: Any) -> tuple[str, str] | None:
    from matplotlib.figure import Figure

    if not isinstance(value, Figure):
        return None
    lines = [f"matplotlib Figure with {len(value.axes)} axes"]
    if value.get_suptitle():
        lines[0] += f" titled {value.get_suptitle()!r}"
    for number, axes in enumerate(value.axes, 1):
        drawn = []
        for line in axes.get_lines():
            label = str(line.get_label())
            drawn.append(f"line {label!r}" if label and not label.startswith("_") else "a line")
        if axes.collections:
            drawn.append(f"{len(axes.collections)} collections (scatter, fills)")
        if axes.patches:
            drawn.append(f"{len(axes.patches)} patches (bars, shapes)")
        if axes.images:
            drawn.append(f"{len(axes.images)} images")
        lines.append(
            f"axes {number}: title {axes.get_title()!r}, x {axes.get_xlabel()!r} "
            f"{tuple(round(float(x), 6) for x in axes.get_xlim())}, y {axes.get_ylabel()!r} "
            f"{tuple(round(float(y), 6) for y in axes.get_ylim())}; draws {', '.join(drawn) or 'nothing'}"
        )
    return "\n".join(lines), "Figure"


_DESCRIBERS: tuple[tuple[str, Callable[[Any], tuple[str, str] | None]], ...] = (
    ("pandas", _pandas),
    ("numpy", _numpy),
    ("matplotlib", _matplotlib),
)
"""Describers by the top-level module of a value's type: a value from a library that is not imported is not
one of its types, so none of them is imported before such a value comes."""


def _takes_no_argument(value: Any) -> bool:
    """Whether ``value`` can be called with no argument (what a computed context value must be)."""
    try:
        inspect.signature(value).bind()
    except TypeError:
        return False
    except ValueError:  # a builtin without a signature: let the call tell
        return True
    return True
