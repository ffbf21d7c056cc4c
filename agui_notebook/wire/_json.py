"""JSON as JavaScript reads and prints it: the number rule, the error wording and ``String(value)``.

The references parse with ``JSON.parse`` and coerce with template literals, so every reader here decodes and
stringifies the way they do.

>>> decode_json(b'{"n": 1e400}'), js_string([1.0, None, "a"]), js_string(1e21), js_string(1e-7)
({'n': inf}, '1,,a', '1e+21', '1e-7')
"""

from __future__ import annotations

import json
import math
from typing import Any

import orjson

__all__ = ["JSONDecodeError", "decode_json", "js_string", "json_error_text", "json_kind"]

JSONDecodeError = orjson.JSONDecodeError
"""What :func:`decode_json` raises (a ``ValueError``), with ``msg``, ``lineno`` and ``colno``."""

_EXACT_INT = 2**53


def decode_json(raw: bytes | bytearray | memoryview | str) -> Any:
    """One JSON value, as ``JSON.parse`` reads it: a number beyond float range is infinite.

    orjson rejects such numbers; JavaScript (so ``@ag-ui/client`` and the AI SDK) and the log loader's struct
    path accept them, and reading them as JavaScript does keeps every reader in agreement. Lone surrogate
    escapes are rejected, as orjson does everywhere else.

    >>> decode_json('[1e400, -1e400]')
    [inf, -inf]
    """
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if "infinity" not in str(exc):
            raise
        text = raw if isinstance(raw, str) else bytes(raw).decode("utf-8")
        try:
            value = json.loads(text, parse_constant=_reject_constant, parse_int=_js_int)
        except json.JSONDecodeError as error:
            raise orjson.JSONDecodeError(error.msg, error.doc, error.pos) from None
        except RecursionError:
            raise orjson.JSONDecodeError("too deeply nested", text, 0) from None
        try:
            orjson.dumps(value)  # the standard library lets lone surrogates through; orjson does not
        except orjson.JSONEncodeError as encode_error:
            raise orjson.JSONDecodeError(str(encode_error), text, 0) from None
        return value


def _js_int(digits: str) -> int | float:
    """An integer as orjson reads it: exact within 64 bits, else the nearest double (as ``JSON.parse``)."""
    if len(digits) <= 20:
        value = int(digits)
        if -(2**63) <= value < 2**64:
            return value
    return float(digits)


def _reject_constant(name: str) -> Any:
    raise orjson.JSONDecodeError(f"{name} is not JSON", "", 0)


def json_error_text(exc: orjson.JSONDecodeError) -> str:
    """The one wording of a JSON syntax error: ``invalid JSON (unexpected character at column 3)``."""
    return f"invalid JSON ({exc.msg} at column {exc.colno})"


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


def js_number(value: float | int) -> str:
    """JavaScript's ``Number.prototype.toString()`` of a number: ``1``, ``0.1``, ``1e+21``, ``1e-7``, ``NaN``.

    >>> js_number(2.0), js_number(2**70), js_number(0.000001)
    ('2', '1.1805916207174113e+21', '0.000001')
    """
    if type(value) is int and -_EXACT_INT < value < _EXACT_INT:
        return str(value)
    try:
        number = float(value)
    except OverflowError:
        number = math.inf if value > 0 else -math.inf
    if math.isnan(number):
        return "NaN"
    if math.isinf(number):
        return "Infinity" if number > 0 else "-Infinity"
    if number == 0:
        return "0"
    sign = "-" if number < 0 else ""
    # repr gives the shortest digits that round-trip, as JavaScript's algorithm does; only the layout differs.
    mantissa, _, exponent = repr(abs(number)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction.rstrip("0")).lstrip("0") or "0"
    # n: where the decimal point sits relative to the digits (ECMA-262 Number::toString).
    leading_zeros = len(whole + fraction) - len((whole + fraction).lstrip("0"))
    point = len(whole) - leading_zeros + (int(exponent) if exponent else 0)
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= point <= 21:
        return sign + digits + "0" * (point - k)
    if 0 < point <= 21:
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * -point + digits
    shown = point - 1
    exp = f"e{'+' if shown >= 0 else '-'}{abs(shown)}"
    return sign + digits[0] + ("." + digits[1:] if k > 1 else "") + exp


def js_string(value: Any) -> str:
    """What JavaScript's ``String(value)`` (and ``text += value``) gives for a JSON value.

    The references append non-string deltas this way; only malformed streams need it.

    >>> js_string(None), js_string(False), js_string(3.0), js_string({"a": 1}), js_string([[1, 2], "x"])
    ('null', 'false', '3', '[object Object]', '1,2,x')
    """
    if type(value) is str:
        return value
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, list):
        return ",".join("" if item is None else js_string(item) for item in value)
    return "[object Object]"
