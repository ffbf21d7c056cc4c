"""JSON as JavaScript reads and prints it: the number rule, the error wording and ``String(value)``.

The references parse with ``JSON.parse`` and coerce with template literals, so every reader here decodes and
stringifies the way they do.

>>> decode_json(b'{"n": 1e400}'), js_string([1.0, None, "a"]), js_string(1e21), js_string(1e-7)
({'n': inf}, '1,,a', '1e+21', '1e-7')
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson

__all__ = [
    "JSONDecodeError",
    "copy_json",
    "decode_json",
    "encode_json",
    "join_surrogates",
    "js_concat",
    "js_string",
    "json_error_text",
]

JSONDecodeError = orjson.JSONDecodeError
"""What :func:`decode_json` raises (a ``ValueError``), with ``msg``, ``lineno`` and ``colno``."""

_EXACT_INT = 2**53
_INT_MIN, _INT_END = -(2**63), 2**64
_SURROGATE_PAIR = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def decode_json(raw: bytes | bytearray | memoryview | str) -> Any:
    """One JSON value, as ``JSON.parse`` reads it: a number beyond float range is infinite, and a lone surrogate
    escape is a lone surrogate.

    orjson rejects both; JavaScript (so ``@ag-ui/client`` and the AI SDK) and the log loader's struct path
    accept them, and reading them as JavaScript does keeps every reader in agreement. A JavaScript producer
    that splits an emoji across two deltas sends ``"\\ud83d"`` then ``"\\ude00"``: each half is kept, and
    :func:`join_surrogates` makes them one character again where the deltas are appended. Only input orjson
    refuses takes the slower path.

    >>> decode_json('[1e400, -1e400]'), decode_json(b'"\\\\ud83d"') == "\\ud83d"
    ([inf, -inf], True)
    """
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        message = str(exc)
        if "infinity" not in message and "surrogate" not in message:
            raise
        if isinstance(raw, str):
            text = raw
        else:
            try:
                text = bytes(raw).decode("utf-8")
            except UnicodeDecodeError:
                raise exc from None
        try:
            return json.loads(text, parse_constant=_reject_constant, parse_int=_js_int)
        except json.JSONDecodeError as error:
            raise orjson.JSONDecodeError(error.msg, error.doc, error.pos) from None
        except RecursionError:
            raise orjson.JSONDecodeError("too deeply nested", text, 0) from None


def encode_json(value: Any) -> str:
    """The JSON text of a JSON value, as ``JSON.stringify`` writes the value JavaScript would hold.

    orjson writes nearly every value; what it refuses, JavaScript writes: an integer beyond 64 bits (a double in
    JavaScript: the nearest one, or ``null`` beyond the double range, as :func:`js_int_value`), a non-finite
    float (``null``), a lone surrogate (an escape such as ``\\ud83d``; two halves that meet are one character),
    a non-string key (``String(key)``) and nesting at any depth. Only such values take the slower path.

    >>> encode_json({"n": 2**70, "x": float("nan"), "s": "\\ud83d", 1: True})
    '{"n":1.1805916207174113e+21,"x":null,"s":"\\\\ud83d","1":true}'
    """
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        pass
    pieces: list[str] = []
    pending: list[Any] = [value]  # values still to write, and the text that closes each container (str)
    while pending:
        item = pending.pop()
        if type(item) is _Closing:
            pieces.append(item)
        elif type(item) is dict:
            pieces.append("{")
            pending.append(_Closing("}"))
            for position, (key, member) in enumerate(reversed(item.items())):
                pending.append(member)
                name = key if type(key) is str else js_string(key)
                pending.append(
                    _Closing(_leaf(name) + ":" if position == len(item) - 1 else "," + _leaf(name) + ":")
                )
        elif type(item) is list:
            pieces.append("[")
            pending.append(_Closing("]"))
            for position in range(len(item) - 1, -1, -1):
                pending.append(item[position])
                if position:
                    pending.append(_Closing(","))
        else:
            pieces.append(_leaf(item))
    return "".join(pieces)


class _Closing(str):
    """Text :func:`encode_json` writes as it is (punctuation and keys), told apart from string values."""


def _leaf(value: Any) -> str:
    if type(value) is int:
        value = js_int_value(value)
    elif type(value) is float and not math.isfinite(value):
        value = None
    elif type(value) is str and not value.isascii():
        value = join_surrogates(value)
        try:
            return orjson.dumps(value).decode()
        except TypeError:
            return _LONE_SURROGATE.sub(_escaped, json.dumps(value, ensure_ascii=False))
    return orjson.dumps(value).decode()


def js_int_value(value: int) -> int | float | None:
    """An integer as JavaScript holds it once read from JSON: exact within 64 bits (as our readers keep it), else
    the nearest double, or ``None`` beyond the double range (``JSON.stringify(Infinity)`` is ``null``).

    >>> js_int_value(2**63), js_int_value(2**70), js_int_value(10**400)
    (9223372036854775808, 1.1805916207174113e+21, None)
    """
    if _INT_MIN <= value < _INT_END:
        return value
    try:
        return float(value)
    except OverflowError:
        return None


def _escaped(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def copy_json(value: Any) -> Any:
    """A copy of a JSON value sharing no dicts or lists with it, at any depth (``copy.deepcopy`` recurses).

    >>> value = {"a": [1, {"b": 2}]}
    >>> copied = copy_json(value)
    >>> copied == value, copied["a"] is value["a"]
    (True, False)
    """
    if type(value) is not dict and type(value) is not list:
        return value
    root: dict[str, Any] | list[Any] = {} if type(value) is dict else []
    pending: list[tuple[Any, Any]] = [(value, root)]
    while pending:
        source, target = pending.pop()
        items = source.items() if type(source) is dict else enumerate(source)
        for key, item in items:
            if type(item) is dict or type(item) is list:
                copied: Any = {} if type(item) is dict else []
                pending.append((item, copied))
                item = copied
            if type(target) is dict:
                target[key] = item
            else:
                target.append(item)
    return root


def js_concat(pieces: list[Any]) -> str:
    """Deltas appended as JavaScript's ``text += delta`` appends them: non-strings as ``String(value)``, and the
    two halves of an emoji split across deltas joined.

    >>> js_concat(["a", 1, None, "\\ud83d", "\\ude00"]) == "a1null\U0001f600"
    True
    """
    try:
        text = "".join(pieces)
    except TypeError:
        text = "".join(js_string(piece) for piece in pieces)
    return join_surrogates(text)


def join_surrogates(text: str) -> str:
    """``text`` with each high surrogate followed by a low one made the character they stand for.

    JavaScript strings are UTF-16, so the two halves of an emoji sent in two deltas form the emoji again when
    the deltas are concatenated; Python strings are code points, so appending them leaves two lone halves.
    A half without its partner stays as it is (``JSON.stringify`` writes it as an escape, as JavaScript does).
    ASCII text is returned at once.

    >>> join_surrogates("\\ud83d" + "\\ude00") == "\\U0001f600", join_surrogates("a\\ud83d") == "a\\ud83d"
    (True, True)
    """
    if text.isascii():
        return text
    return _SURROGATE_PAIR.sub(_pair, text)


def _pair(match: re.Match[str]) -> str:
    pair = match.group()
    high, low = pair[0], pair[1]
    return chr(0x10000 + ((ord(high) - 0xD800) << 10) + (ord(low) - 0xDC00))


def _js_int(digits: str) -> int | float:
    """An integer as orjson reads it: exact within 64 bits, else the nearest double (as ``JSON.parse``)."""
    if len(digits) <= 20:
        value = int(digits)
        if _INT_MIN <= value < _INT_END:
            return value
    return float(digits)


def _reject_constant(name: str) -> Any:
    raise orjson.JSONDecodeError(f"{name} is not JSON", "", 0)


def json_error_text(exc: orjson.JSONDecodeError) -> str:
    """The one wording of a JSON syntax error: ``invalid JSON (unexpected character at column 3)``."""
    return f"invalid JSON ({exc.msg} at column {exc.colno})"


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
        return _js_join(value)
    return "[object Object]"


def _js_join(array: list[Any]) -> str:
    """``Array.prototype.join``: elements converted and joined with commas, nested arrays flattened alike,
    null as nothing. Iterative, so any depth works."""
    pieces: list[str] = []
    stack = [iter(array)]
    first = [True]
    while stack:
        item = next(stack[-1], _END)
        if item is _END:
            stack.pop()
            first.pop()
            continue
        if first[-1]:
            first[-1] = False
        else:
            pieces.append(",")
        if isinstance(item, list):
            stack.append(iter(item))
            first.append(True)
        elif item is not None:
            pieces.append(js_string(item))
    return "".join(pieces)


_END: Any = object()
