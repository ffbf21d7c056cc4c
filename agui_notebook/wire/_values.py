"""Python values as JSON: the one rule for values that must travel as JSON (what agents hand the widget).

An agent may put any Python value into an event, a chunk or the state: a numpy number from a data frame, a
``Decimal`` from a database, a ``datetime``, a pydantic model returned by a tool. :func:`json_value` gives the JSON
value the front end, the saved notebook and the next run will see, by one rule: what ``JSON.stringify`` would
write for the value's natural JSON form, read back by our readers (``wire/_json.py``, the ``JSON.parse``
number rule).

======================================================  ==========================================================
value                                                   JSON
======================================================  ==========================================================
``str``, ``bool``, ``None``, finite ``float``            itself
``int`` within 64 bits (``-2**63 <= n < 2**64``)        itself (exact, as ``decode_json`` reads such digits)
``int`` beyond 64 bits                                  the nearest double, as ``decode_json`` (and ``JSON.parse``)
                                                        read its digits; beyond the double range: ``null``
NaN, ``inf``, ``-inf`` (of any numeric type)            ``null``, as ``JSON.stringify`` writes them
subclasses of ``str``/``int``/``float``/``list``/``dict`` the plain value (``numpy.float64``, ``numpy.str_``, ...)
``enum.Enum`` members                                   their value
numpy scalars and arrays                                ``.tolist()`` (Python numbers, nested lists);
                                                        ``numpy.datetime64``: its ISO 8601 text
``decimal.Decimal``                                     a number: ``int`` when integral (then the int rule), else
                                                        ``float`` (JSON numbers are doubles to every reader)
``datetime``, ``date``, ``time`` (and ``pd.Timestamp``)  ISO 8601 text, ``isoformat()``: an aware datetime keeps its
                                                        offset, a naive one stays naive
pandas ``NaT`` and ``NA``                               ``null``, as ``DataFrame.to_json`` writes them
``bytes``, ``bytearray``, ``memoryview``                standard base64 with padding (RFC 4648 section 4): the
                                                        encoding the AI SDK uses for data it carries as text
``set``, ``frozenset``                                  an array, sorted when the members sort, else in iteration
                                                        order
``tuple``, ``list``                                     an array
mappings                                                an object; ``str`` keys are kept, numbers, booleans and
                                                        ``None`` become ``String(key)`` as in JavaScript, enum
                                                        keys their value; other keys have no JSON form
pydantic models                                         ``model_dump(mode="json")`` (pydantic's own JSON rules: a
                                                        ``Decimal`` field becomes a string), then this rule
dataclass instances                                     an object of their fields
other types pydantic serializes (``UUID``, ``Path``,     ``pydantic_core.to_jsonable_python`` (``UUID`` and
``timedelta``, IP addresses, ...)                       ``Path`` as text, ``timedelta`` as an ISO 8601 duration)
======================================================  ==========================================================

Why integers keep 64 bits: a JSON text of such a number is read exactly by ``decode_json`` (orjson, the log
loader, ``HttpAgent``), so an agent's value and the same value replayed from its log agree; only beyond 64 bits do
our readers, like ``JSON.parse``, take the nearest double, and so does this rule. (The browser's ``JSON.parse``
shows integers beyond ``2**53`` rounded; the kernel side keeps them exact.)

Anything else (an arbitrary object, a function, an iterator, a value nested deeper than
:data:`MAX_DEPTH` levels, a cycle) is a :class:`~agui_notebook.JsonValueError` that names where the value came
from and its JSON path. Strings are kept as they are, lone surrogates included.

:func:`is_plain_json` is the fast check (about 0.3 µs for a typical event): a plain value is returned as it is,
not copied, so hot paths pay only for the check.

>>> import datetime, decimal
>>> json_value({"n": decimal.Decimal("1.5"), "at": datetime.date(2026, 12, 1), "tags": {"b", "a"}})
{'n': 1.5, 'at': '2026-12-01', 'tags': ['a', 'b']}
>>> json_value({"when": [1, object()]}, "item 3 (tool-output-available)")
Traceback (most recent call last):
...
agui_notebook.JsonValueError: item 3 (tool-output-available) .when[1]: a <class 'object'> is not JSON
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import decimal
import enum
from collections.abc import Iterator, Mapping
from typing import Any

import orjson
from pydantic import BaseModel

from agui_notebook._errors import JsonValueError
from agui_notebook._shown import shown as _shown
from agui_notebook._types import JSON
from agui_notebook.wire._json import js_int_value, js_string

__all__ = ["MAX_DEPTH", "is_plain_json", "json_error", "json_form_problem", "json_value"]

MAX_DEPTH = 200
"""How deeply a value may nest: the notebook's JSON encoders (orjson, which saves and copies the conversation,
stops at 255 levels) must still write it inside a message."""

_INT_MIN = -(2**63)
_INT_END = 2**64
_DATETIMES = (datetime.datetime, datetime.date, datetime.time)


def is_plain_json(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is JSON exactly as :func:`json_value` would return it (so it needs no conversion).

    >>> is_plain_json({"a": [1, 2.5, None, "x"]}), is_plain_json({"a": (1, 2)}), is_plain_json(float("nan"))
    (True, False, False)
    """
    kind = type(value)
    if kind is str:
        return True
    if kind is dict:
        if depth >= MAX_DEPTH:
            return False
        for key, item in value.items():
            if type(key) is not str:
                return False
            if type(item) is not str and not is_plain_json(item, depth + 1):
                return False
        return True
    if kind is int:
        return _INT_MIN <= value < _INT_END
    if kind is float:
        return value - value == 0.0  # false for NaN and the infinities
    if kind is bool or value is None:
        return True
    if kind is list:
        if depth >= MAX_DEPTH:
            return False
        for item in value:  # noqa: SIM110 (a plain loop: all() over a generator is slower on this hot path)
            if type(item) is not str and not is_plain_json(item, depth + 1):
                return False
        return True
    return False


def json_form_problem(value: Any, path: str = "") -> tuple[str, str] | None:
    """The JSON path and the reason of the first part of ``value`` that is not a JSON value (``str`` keys, no
    NaN, only JSON's kinds; an infinity is how ``JSON.parse`` reads ``1e400``, an int of any size is what
    ``JSON.stringify`` writes), or None. Values are not converted here (that is :func:`json_value`'s rule,
    for what agents hand the widget): this finds, where it enters, a value that no JSON text could have given.

    >>> json_form_problem({"a": [1, b"x"]}), json_form_problem({(1, 2): 1.0}), json_form_problem([float("inf")])
    (('.a[1]', "a <class 'bytes'> is not JSON"), ('', 'a key (1, 2) is not a string'), None)
    """
    pending: list[tuple[Any, str]] = [(value, path)]
    while pending:
        item, where = pending.pop()
        kind = type(item)
        if kind is str or kind is bool or kind is int or item is None:
            continue
        if kind is float:
            if item != item:
                return where, "NaN is not JSON"
        elif kind is list:
            pending.extend((child, f"{where}[{i}]") for i, child in reversed(list(enumerate(item))))
        elif kind is dict:
            for key in item:
                if type(key) is not str:
                    return where, f"a key {_shown(key)} is not a string"
            pending.extend((child, where + _member(key)) for key, child in reversed(list(item.items())))
        else:
            return where, f"a {kind!r} is not JSON"
    return None


def json_value(value: Any, where: str = "value") -> JSON:
    """``value`` as JSON by the module's rule; a plain value comes back as it is (not copied).

    ``where`` says where the value came from, for the error: ``"item 12 (TOOL_CALL_RESULT)"``, ``"state"``.
    Raises :class:`~agui_notebook.JsonValueError` naming ``where`` and the value's JSON path when part of it has
    no JSON form.

    >>> import numpy as np
    >>> json_value({"count": np.int64(42), "mean": np.float32(0.5), "big": 2**70, "none": float("inf")})
    {'count': 42, 'mean': 0.5, 'big': 1.1805916207174113e+21, 'none': None}
    """
    if is_plain_json(value):
        return value
    try:
        return _convert(value, [], 0)
    except _NoJson as exc:
        raise _error(where, exc.path, exc.reason) from None


def _convert(value: Any, path: list[str | int], depth: int) -> JSON:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is int:
        return js_int_value(value)
    if kind is float:
        return value if value - value == 0.0 else None
    if kind is dict or kind is list or kind is tuple:
        if depth >= MAX_DEPTH:
            raise _NoJson(path, f"nested deeper than {MAX_DEPTH} levels")
        if kind is dict:
            return _object(value.items(), path, depth)
        return _array(value, path, depth)
    if isinstance(value, enum.Enum):
        return _convert(value.value, path, depth)
    if isinstance(value, str):
        return value[:]  # a str subclass (numpy.str_): slicing gives a plain str
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return js_int_value(int(value))
    if isinstance(value, float):
        number = float(value)
        return number if number - number == 0.0 else None
    module = kind.__module__
    if module == "numpy" or module.startswith("numpy."):
        return _numpy(value, path, depth)
    if module.startswith("pandas.") and kind.__name__ in ("NaTType", "NAType"):
        return None
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            return None
        integral = value.to_integral_value()
        return js_int_value(int(integral)) if integral == value else float(value)
    if isinstance(value, _DATETIMES):
        return None if value != value else value.isoformat()  # pandas' NaT is a datetime that is not itself
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(value).decode("ascii")
    if depth >= MAX_DEPTH:
        raise _NoJson(path, f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, Mapping):
        return _object(value.items(), path, depth)
    if isinstance(value, (list, tuple)):
        return _array(value, path, depth)
    if isinstance(value, (set, frozenset)):
        try:
            members = sorted(value)
        except TypeError:  # members that do not compare (1 and "a"): keep the set's own order
            members = list(value)
        return _array(members, path, depth)
    if isinstance(value, BaseModel):
        return _convert(_dumped(value, path), path, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = ((f.name, getattr(value, f.name)) for f in dataclasses.fields(value))
        return _object(fields, path, depth)
    if isinstance(value, Iterator):
        raise _NoJson(path, f"a {type(value)!r} is not JSON (an iterator is consumed once, not a value)")
    return _convert(_pydantic_json(value, path), path, depth + 1)


def _object(items: Any, path: list[str | int], depth: int) -> dict[str, JSON]:
    result: dict[str, JSON] = {}
    for key, item in items:
        name = _key(key, path)
        path.append(name)
        result[name] = _convert(item, path, depth + 1)
        path.pop()
    return result


def _array(items: Any, path: list[str | int], depth: int) -> list[JSON]:
    result: list[JSON] = []
    for index, item in enumerate(items):
        path.append(index)
        result.append(_convert(item, path, depth + 1))
        path.pop()
    return result


def _key(key: Any, path: list[str | int]) -> str:
    if type(key) is str:
        return key
    if isinstance(key, enum.Enum):
        key = key.value
    if isinstance(key, str):
        return key[:]
    if key is None or isinstance(key, (bool, int, float)):
        return js_string(key)  # JavaScript's property-key rule: String(key)
    raise _NoJson(path, f"the key {key!r}: a {type(key)!r} key is not JSON")


def _numpy(value: Any, path: list[str | int], depth: int) -> JSON:
    if type(value).__name__ == "datetime64":
        text = str(value)
        return None if text == "NaT" else text
    tolist = getattr(value, "tolist", None)
    if tolist is None:
        raise _NoJson(path, f"a {type(value)!r} is not JSON")
    return _convert(tolist(), path, depth + 1)


def _dumped(model: BaseModel, path: list[str | int]) -> Any:
    try:
        return model.model_dump(mode="json")
    except (
        Exception
    ):  # a field pydantic cannot write as JSON (a numpy value in an Any field): our rule instead
        try:
            return model.model_dump()
        except Exception as exc:
            raise _NoJson(path, f"a {type(model)!r} is not JSON ({exc})") from None


def _pydantic_json(value: Any, path: list[str | int]) -> Any:
    from pydantic_core import PydanticSerializationError, to_jsonable_python

    try:
        return to_jsonable_python(value)
    except (PydanticSerializationError, TypeError, ValueError):
        raise _NoJson(path, f"a {type(value)!r} is not JSON") from None


class _NoJson(Exception):
    """Raised inside the walk; :func:`json_value` turns it into the located :class:`JsonValueError`."""

    def __init__(self, path: list[str | int], reason: str) -> None:
        super().__init__(reason)
        self.path = "".join(f"[{part}]" if isinstance(part, int) else _member(part) for part in path)
        self.reason = reason


def _member(name: str) -> str:
    """A path step: ``.name`` for identifiers, else the JSON-quoted key in brackets."""
    return f".{name}" if name.isidentifier() else f"[{orjson.dumps(name).decode()}]"


def json_error(where: str, path: str, reason: str) -> JsonValueError:
    """The :class:`~agui_notebook.JsonValueError` for ``reason`` at ``path`` of the value ``where`` names.

    >>> str(json_error("event 3 (TOOL_CALL_RESULT)", ".content", "NaN is not JSON"))
    'event 3 (TOOL_CALL_RESULT) .content: NaN is not JSON'
    """
    return _error(where, path, reason)


def _error(where: str, path: str, reason: str) -> JsonValueError:
    if where and path:
        location = where + path if " " not in where else f"{where} {path}"  # ``state.a``, ``item 3 (x) .a``
    else:
        location = where or path or "value"
    return JsonValueError(f"{location}: {reason}", path=path, reason=reason)
