"""Parse JSON that may be cut off mid-way, the way the AI SDK's ``parsePartialJson`` does.

A tool call's input arrives as JSON text in small deltas. After each delta the AI SDK parses the text so far:
as-is if it is complete JSON, else after repairing it (closing open strings, arrays and objects, completing
``tru`` to ``true``, dropping a dangling ``-`` or ``1.``). This module gives the same results.

Numbers follow orjson (the same 64-bit floats JavaScript uses for integers beyond 64 bits), except that
integers within 64 bits stay exact Python ints.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

import orjson

from agui_notebook._errors import InputTypeError
from agui_notebook.wire._json import join_surrogates

__all__ = ["PartialJsonBuffer", "PartialJsonState", "parse_partial_json"]

PartialJsonState = Literal["undefined-input", "successful-parse", "repaired-parse", "failed-parse"]

# Scanner states; the numbering is private. They follow the AI SDK's repair scanner (fixJson) one to one.
_ROOT = 0
_FINISH = 1
_STRING = 2
_STRING_ESCAPE = 3
_STRING_UNICODE_ESCAPE = 4
_LITERAL = 5
_NUMBER = 6
_OBJECT_START = 7
_OBJECT_KEY = 8
_OBJECT_AFTER_KEY = 9
_OBJECT_BEFORE_VALUE = 10
_OBJECT_AFTER_VALUE = 11
_OBJECT_AFTER_COMMA = 12
_ARRAY_START = 13
_ARRAY_AFTER_VALUE = 14
_ARRAY_AFTER_COMMA = 15

_OBJECT_STATES = frozenset(
    {
        _OBJECT_KEY,
        _OBJECT_AFTER_KEY,
        _OBJECT_AFTER_COMMA,
        _OBJECT_START,
        _OBJECT_BEFORE_VALUE,
        _OBJECT_AFTER_VALUE,
    }
)
_ARRAY_STATES = frozenset({_ARRAY_START, _ARRAY_AFTER_COMMA, _ARRAY_AFTER_VALUE})
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_DIGITS = frozenset("0123456789")
_STRING_SPECIAL = re.compile(r'["\\]')
_JSON_WHITESPACE = frozenset(" \t\n\r")
_VALUE_ENDS = frozenset('}]"0123456789el')

# JavaScript's JSON.parse rejects NaN and Infinity; Python's json module would accept them.
_strict_decoder = json.JSONDecoder(parse_constant=lambda name: _raise_value_error(name))

# The AI SDK parses with secure-json-parse, which rejects objects with a `__proto__` key or a `constructor`
# key holding an object with a `prototype` key. Only texts matching these patterns need the slow check.
_SUSPECT_PROTO = re.compile(
    r'"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)'
    r'(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:'
)
_SUSPECT_CONSTRUCTOR = re.compile(
    r'"(?:c|\\u0063)(?:o|\\u006[Ff])(?:n|\\u006[Ee])(?:s|\\u0073)(?:t|\\u0074)(?:r|\\u0072)'
    r'(?:u|\\u0075)(?:c|\\u0063)(?:t|\\u0074)(?:o|\\u006[Ff])(?:r|\\u0072)"\s*:'
)
_FAILED = object()


def _raise_value_error(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _has_forbidden_key(value: Any) -> bool:
    pending = [value]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if "__proto__" in node:
                return True
            constructor = node.get("constructor")
            if isinstance(constructor, dict) and "prototype" in constructor:
                return True
            pending.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            pending.extend(v for v in node if isinstance(v, (dict, list)))
    return False


def _parse_json(text: str) -> Any:
    """``JSON.parse`` as the AI SDK calls it (secure-json-parse), or ``_FAILED``."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as error:
        # orjson is stricter than JSON.parse about lone surrogates and numbers beyond double range.
        message = str(error)
        if "surrogate" not in message and "infinity" not in message:
            return _FAILED
        try:
            value = _strict_decoder.decode(text)
        except (ValueError, RecursionError):
            return _FAILED
    if (
        isinstance(value, (dict, list))
        and (_SUSPECT_PROTO.search(text) or _SUSPECT_CONSTRUCTOR.search(text))
        and _has_forbidden_key(value)
    ):
        return _FAILED
    return value


class PartialJsonBuffer:
    """Partial JSON text that grows by deltas, parsed after each one without rescanning from the start.

    >>> buffer = PartialJsonBuffer()
    >>> buffer.append('{"city": "Par')
    ({'city': 'Par'}, 'repaired-parse')
    >>> buffer.append('is"}')
    ({'city': 'Paris'}, 'successful-parse')
    >>> buffer.text
    '{"city": "Paris"}'
    """

    __slots__ = ("_literal_start", "_scanned", "_stack", "_text", "_unicode_digits", "_valid_end")

    def __init__(self, text: str = "") -> None:
        if type(text) is not str:
            raise InputTypeError(f"partial JSON is text (a str), not {type(text).__name__}")
        self._text = text
        self._stack = [_ROOT]
        self._scanned = 0
        self._valid_end = 0  # one past the last character the repaired text keeps
        self._literal_start = 0
        self._unicode_digits = 0

    @property
    def text(self) -> str:
        """The whole text appended so far."""
        return self._text

    def append(self, delta: str) -> tuple[Any, PartialJsonState]:
        """Append ``delta`` and parse the text so far: ``(value, state)`` as ``parse_partial_json``."""
        self.extend(delta)
        return self.parse()

    def extend(self, delta: str) -> None:
        """Append ``delta`` without parsing (for tool inputs streamed as plain text)."""
        text = self._text
        self._text = ""  # drop our reference so CPython can grow the string in place
        if delta and "\udc00" <= delta[0] <= "\udfff" and text and "\ud800" <= text[-1] <= "\udbff":
            text = text[:-1] + join_surrogates(text[-1] + delta[0]) + delta[1:]  # an emoji's two halves
        else:
            text += delta
        self._text = text

    def parse(self) -> tuple[Any, PartialJsonState]:
        """Parse the text so far: ``(value, state)`` as ``parse_partial_json``."""
        text = self._text
        # JSON can only end with one of these (after whitespace); most partial texts don't, so skip the try.
        end = len(text) - 1
        while end >= 0 and text[end] in _JSON_WHITESPACE:
            end -= 1
        if end >= 0 and text[end] in _VALUE_ENDS:
            value = _parse_json(text)
            if value is not _FAILED:
                return value, "successful-parse"
        value = _parse_json(self.repaired_text())
        if value is not _FAILED:
            return value, "repaired-parse"
        return None, "failed-parse"

    def repaired_text(self) -> str:
        """The text so far, cut and closed by the AI SDK's repair rules (its ``fixJson``)."""
        text = self._text
        if self._scanned < len(text):
            self._scan(text)
        stack = self._stack
        closing: list[str] = []
        for state in reversed(stack):
            if state == _STRING:
                closing.append('"')
            elif state in _OBJECT_STATES:
                closing.append("}")
            elif state in _ARRAY_STATES:
                closing.append("]")
            elif state == _LITERAL:
                partial = text[self._literal_start :]
                for literal in ("true", "false", "null"):
                    if literal.startswith(partial):
                        closing.append(literal[len(partial) :])
                        break
        kept = text[: self._valid_end]
        return kept + "".join(closing) if closing else kept

    def _scan(self, text: str) -> None:
        stack = self._stack
        valid_end = self._valid_end
        end = len(text)
        i = self._scanned
        while i < end:
            state = stack[-1]
            if state == _STRING:
                # Most of a tool input is string content: jump to the next quote or backslash.
                match = _STRING_SPECIAL.search(text, i)
                if match is None:
                    valid_end = end
                    i = end
                    break
                j = match.start()
                if j > i:
                    valid_end = j
                if text[j] == '"':
                    stack.pop()
                    valid_end = j + 1
                else:
                    stack.append(_STRING_ESCAPE)
                i = j + 1
                continue
            char = text[i]
            if state == _ROOT:
                valid_end = self._value_start(char, i, _FINISH, valid_end)
            elif state == _OBJECT_START:
                if char == '"':
                    stack[-1] = _OBJECT_KEY
                elif char == "}":
                    valid_end = i + 1
                    stack.pop()
            elif state == _OBJECT_AFTER_COMMA:
                if char == '"':
                    stack[-1] = _OBJECT_KEY
            elif state == _OBJECT_KEY:
                if char == '"':
                    stack[-1] = _OBJECT_AFTER_KEY
            elif state == _OBJECT_AFTER_KEY:
                if char == ":":
                    stack[-1] = _OBJECT_BEFORE_VALUE
            elif state == _OBJECT_BEFORE_VALUE:
                valid_end = self._value_start(char, i, _OBJECT_AFTER_VALUE, valid_end)
            elif state == _OBJECT_AFTER_VALUE:
                valid_end = _after_object_value(stack, char, i, valid_end)
            elif state == _ARRAY_START:
                if char == "]":
                    valid_end = i + 1
                    stack.pop()
                else:
                    valid_end = self._value_start(char, i, _ARRAY_AFTER_VALUE, valid_end)
            elif state == _ARRAY_AFTER_VALUE:
                if char == ",":
                    stack[-1] = _ARRAY_AFTER_COMMA
                elif char == "]":
                    valid_end = i + 1
                    stack.pop()
                else:
                    valid_end = i + 1
            elif state == _ARRAY_AFTER_COMMA:
                valid_end = self._value_start(char, i, _ARRAY_AFTER_VALUE, valid_end)
            elif state == _STRING_ESCAPE:
                stack.pop()
                if char == "u":
                    self._unicode_digits = 0
                    stack.append(_STRING_UNICODE_ESCAPE)
                else:
                    valid_end = i + 1
            elif state == _STRING_UNICODE_ESCAPE:
                if char in _HEX_DIGITS:
                    self._unicode_digits += 1
                    if self._unicode_digits == 4:
                        stack.pop()
                        valid_end = i + 1
            elif state == _NUMBER:
                if char in _DIGITS:
                    valid_end = i + 1
                elif char in "eE-.":
                    pass
                elif char == ",":
                    stack.pop()
                    if stack[-1] == _ARRAY_AFTER_VALUE:
                        valid_end = _after_array_value(stack, char, i, valid_end)
                    if stack[-1] == _OBJECT_AFTER_VALUE:
                        valid_end = _after_object_value(stack, char, i, valid_end)
                elif char == "}":
                    stack.pop()
                    if stack[-1] == _OBJECT_AFTER_VALUE:
                        valid_end = _after_object_value(stack, char, i, valid_end)
                elif char == "]":
                    stack.pop()
                    if stack[-1] == _ARRAY_AFTER_VALUE:
                        valid_end = _after_array_value(stack, char, i, valid_end)
                else:
                    stack.pop()
            elif state == _LITERAL:
                partial = text[self._literal_start : i + 1]
                if "false".startswith(partial) or "true".startswith(partial) or "null".startswith(partial):
                    valid_end = i + 1
                else:
                    stack.pop()
                    if stack[-1] == _OBJECT_AFTER_VALUE:
                        valid_end = _after_object_value(stack, char, i, valid_end)
                    elif stack[-1] == _ARRAY_AFTER_VALUE:
                        valid_end = _after_array_value(stack, char, i, valid_end)
            # _FINISH ignores everything after the top-level value.
            i += 1
        self._scanned = end
        self._valid_end = valid_end

    def _value_start(self, char: str, i: int, after: int, valid_end: int) -> int:
        stack = self._stack
        if char == '"':
            stack[-1] = after
            stack.append(_STRING)
            return i + 1
        if char in "ftn":
            self._literal_start = i
            stack[-1] = after
            stack.append(_LITERAL)
            return i + 1
        if char == "-":
            stack[-1] = after
            stack.append(_NUMBER)
            return valid_end
        if char in _DIGITS:
            stack[-1] = after
            stack.append(_NUMBER)
            return i + 1
        if char == "{":
            stack[-1] = after
            stack.append(_OBJECT_START)
            return i + 1
        if char == "[":
            stack[-1] = after
            stack.append(_ARRAY_START)
            return i + 1
        return valid_end


def _after_object_value(stack: list[int], char: str, i: int, valid_end: int) -> int:
    if char == ",":
        stack[-1] = _OBJECT_AFTER_COMMA
    elif char == "}":
        stack.pop()
        return i + 1
    return valid_end


def _after_array_value(stack: list[int], char: str, i: int, valid_end: int) -> int:
    if char == ",":
        stack[-1] = _ARRAY_AFTER_COMMA
    elif char == "]":
        stack.pop()
        return i + 1
    return valid_end


def parse_partial_json(text: str | None) -> tuple[Any, PartialJsonState]:
    """Parse possibly truncated JSON: ``(value, state)``, like the AI SDK's ``parsePartialJson``.

    ``state`` is ``"undefined-input"`` for ``None``, ``"successful-parse"`` for complete JSON,
    ``"repaired-parse"`` when the text parsed after repair, and ``"failed-parse"`` (value ``None``) otherwise.

    >>> parse_partial_json('{"items": [1, 2, tr')
    ({'items': [1, 2, True]}, 'repaired-parse')
    >>> parse_partial_json('{"a": 1}')
    ({'a': 1}, 'successful-parse')

    Parsing a growing text after every delta? ``PartialJsonBuffer`` does not rescan from the start.
    """
    if text is None:
        return None, "undefined-input"
    return PartialJsonBuffer(text).parse()
