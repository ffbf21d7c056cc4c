"""Odd values: event fields of the wrong kind, which the loader and the tables read as missing (or, for an id,
as its text) and report with the event they came from.

One rule for every field the logs read: a value of the kind the field holds is used; anything else (a
number as a ``delta``, a string as a ``timestamp``, a list as an id, ``usage`` that is not a list of
objects...) is *odd*. An odd id is read as its text (``5`` as ``"5"``, ``["c", 1]`` as ``'["c",1]'``), any
other odd value as missing; the table still builds, and each odd value is listed (``source``, ``line``,
``type``, ``field``, ``problem``) in the result's ``attrs["odd_values"]`` with one EventLogWarning naming the
first few.

>>> odd_problem("delta", 5), odd_problem("messageId", [1, 2], read_as=id_text([1, 2]))
('delta is a number (read as none)', "messageId is an array (read as '[1,2]')")
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from agui_notebook._errors import EventLogWarning, warn
from agui_notebook._shown import json_kind
from agui_notebook.wire._json import js_number

__all__ = ["OddValues", "id_text", "odd_problem", "warn_odd_values"]

_SHOWN = 3


def id_text(value: Any) -> str:
    """The text an id that is not a string is read as: a number as JavaScript prints it, else its JSON.

    >>> id_text(7), id_text(7.0), id_text(True), id_text({"a": [1]})
    ('7', '7', 'true', '{"a":[1]}')
    """
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None:
        return orjson.dumps(value).decode()
    if isinstance(value, (int, float)):
        return js_number(value)
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # nested deeper than orjson writes
        return f"<{json_kind(value)}>"


def odd_problem(field: str, value: Any, *, read_as: str | None = None) -> str:
    """What is odd about a value, and what it was read as (none, unless ``read_as`` gives its text)."""
    shown = "none" if read_as is None else repr(read_as)
    return f"{field} is {json_kind(value)} (read as {shown})"


class OddValues:
    """The odd values met while building one table: (row of the events table, field, problem)."""

    __slots__ = ("found",)

    def __init__(self) -> None:
        self.found: list[tuple[int, str, str]] = []

    def add(self, row: int, field: str, problem: str) -> None:
        self.found.append((row, field, problem))

    def __len__(self) -> int:
        return len(self.found)

    def entries(
        self, source: Callable[[int], str], line: Callable[[int], int], event_type: Callable[[int], str]
    ) -> list[dict[str, Any]]:
        """The odd values as ``attrs["odd_values"]`` lists them, in row order (then by field)."""
        ordered = sorted(self.found, key=lambda item: (item[0], item[1]))
        return [
            {
                "source": source(row),
                "line": line(row),
                "type": event_type(row),
                "field": field,
                "problem": problem,
            }
            for row, field, problem in ordered
        ]


def warn_odd_values(where: str, entries: list[dict[str, Any]]) -> None:
    """One EventLogWarning for the odd values a function met (none when there were none)."""
    if not entries:
        return
    events = len({(e["source"], e["line"], e["type"]) for e in entries})
    values = len(entries)
    shown = "; ".join(f"{e['source']}:{e['line']} ({e['type']}): {e['problem']}" for e in entries[:_SHOWN])
    more = f" (and {values - _SHOWN} more)" if values > _SHOWN else ""
    warn(
        f"{where}: {values} odd value{'s' * (values != 1)} in {events} event{'s' * (events != 1)}, read as "
        f"missing (ids as their text) and listed in attrs['odd_values']: {shown}{more}",
        EventLogWarning,
    )
