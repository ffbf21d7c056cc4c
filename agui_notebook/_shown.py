"""Values as error messages and odd-value reports show them: a short ``repr`` that never fails, and a JSON
value's kind. The lowest module, beside ``_errors.py``: every room (and the errors themselves) names bad values
this way.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["json_kind", "model_problem", "shown"]


def shown(value: Any, limit: int = 60) -> str:
    """A short ``repr`` of a value for an error message, whatever it is (huge ints and deep nesting included).

    >>> shown("m1"), shown(10**5000), shown(list(range(100)), 20)
    ("'m1'", 'an int of 5001 digits', '[0, 1, 2, 3, 4, 5, …')
    """
    if type(value) is int and not -(10**100) < value < 10**100:
        return f"an int of {_digit_count(value)} digits"
    try:
        text = repr(value)
    except (ValueError, RecursionError):
        return json_kind(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def model_problem(error: Any) -> str:
    """The first problem of a pydantic ``ValidationError``, as ``field.path: what is wrong``.

    >>> from ag_ui.core import Tool
    >>> try:
    ...     Tool.model_validate({"name": "t"})
    ... except ValueError as error:
    ...     print(model_problem(error))
    description: Field required
    """
    problem = error.errors()[0]
    where = ".".join(str(part) for part in problem["loc"])
    return f"{where}: {problem['msg']}" if where else str(problem["msg"])


def _digit_count(value: int) -> int:
    """How many decimal digits ``abs(value)`` has, without converting it to a string."""
    value = abs(value)
    digits = int(value.bit_length() * math.log10(2)) + 1
    return digits - 1 if digits > 1 and value < 10 ** (digits - 1) else digits


def json_kind(value: Any) -> str:
    """What a JSON value is, for error messages: ``an array``, ``a string``, ``null``, ``a number``...

    >>> json_kind([]), json_kind(None), json_kind(True)
    ('an array', 'null', 'a boolean')
    """
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
