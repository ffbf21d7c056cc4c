"""RFC 6902 JSON Patch with the semantics of fast-json-patch's validating ``applyPatch``, as @ag-ui/client uses it.

The client applies STATE_DELTA and ACTIVITY_DELTA patches with ``applyPatch(doc, patch, true, false)``: every
operation is validated against the document, and the document is never mutated, so a failing patch leaves
the previous value in place. :func:`apply_json_patch` does the same without cloning the whole document:
containers on the changed paths are copied, everything else is shared with the input.

>>> apply_json_patch({"a": [1, 2]}, [{"op": "add", "path": "/a/-", "value": 3}])
{'a': [1, 2, 3]}
"""

from __future__ import annotations

import math
from typing import Any

from agui_notebook._errors import JsonPatchError
from agui_notebook._options import keyword_options
from agui_notebook._types import JSON
from agui_notebook.wire._json import copy_json

__all__ = ["JsonPatchError", "apply_json_patch", "json_equal"]

_OPS = frozenset({"add", "remove", "replace", "move", "copy", "test"})
_MISSING: Any = object()


def json_equal(a: Any, b: Any) -> bool:
    """Deep equality with JSON types: ``True`` is not ``1`` (Python's ``==`` says it is), ``1 == 1.0``.

    Iterative, so values nested deeper than Python's recursion limit compare as in JavaScript.
    """
    pending = [(a, b)]
    while pending:
        a, b = pending.pop()
        if a is b:
            continue
        type_a, type_b = type(a), type(b)
        if type_a is bool or type_b is bool:
            if not (type_a is type_b and a == b):
                return False
        elif type_a is dict:
            if type_b is not dict or len(a) != len(b):
                return False
            for key, value in a.items():
                other = b.get(key, _MISSING)
                if other is _MISSING:
                    return False
                pending.append((value, other))
        elif type_a is list:
            if type_b is not list or len(a) != len(b):
                return False
            pending.extend(zip(a, b, strict=True))
        elif type_b is dict or type_b is list:
            return False
        elif isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
            continue
        elif a != b:
            return False
    return True


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~") if "~" in token else token


def _is_digits(token: str) -> bool:
    # fast-json-patch's isInteger: only ASCII digits, and (its quirk) the empty string passes too.
    return all("0" <= ch <= "9" for ch in token)


def _child(container: Any, token: str) -> Any:
    """``container[token]`` as JavaScript reads it, or ``_MISSING``."""
    if type(container) is dict:
        return container.get(token, _MISSING)
    if type(container) is list:
        # Only canonical indexes name an element: arr["01"] is undefined in JavaScript.
        if token.isdigit() and token.isascii() and (token == "0" or token[0] != "0"):
            position = int(token)
            if position < len(container):
                return container[position]
        return _MISSING
    return _MISSING


class _Patcher:
    """Applies operations to one document, copying containers before their first change unless ``in_place``."""

    __slots__ = ("document", "in_place", "owned")

    def __init__(self, document: Any, in_place: bool) -> None:
        self.document = document
        self.in_place = in_place
        self.owned: dict[int, Any] = {}

    def _own(self, container: Any) -> Any:
        if self.in_place or id(container) in self.owned:
            return container
        fresh = dict(container) if type(container) is dict else list(container)
        # Kept alive here so the id of a freed copy can never be mistaken for an owned container.
        self.owned[id(fresh)] = fresh
        return fresh

    def _writable_parent(self, tokens: list[str]) -> Any:
        """The container holding the last token, with every container from the root on made writable."""
        root = self._own(self.document)
        self.document = root
        node = root
        for token in tokens[:-1]:
            key: Any = int(token) if type(node) is list else token
            child = self._own(node[key])
            node[key] = child
            node = child
        return node

    def apply(self, index: int, operation: Any) -> None:
        if type(operation) is not dict:
            raise JsonPatchError("operation is not an object", index=index, operation=operation)
        op = operation.get("op")
        if op not in _OPS:
            raise JsonPatchError(
                "'op' is not one of the RFC 6902 operations", index=index, operation=operation
            )
        path = operation.get("path")
        if type(path) is not str:
            raise JsonPatchError("'path' is not a string", index=index, operation=operation)
        if path and path[0] != "/":
            raise JsonPatchError("'path' must start with '/'", index=index, operation=operation)
        given_source = operation.get("from")
        if op in ("move", "copy") and type(given_source) is not str:
            raise JsonPatchError("'from' is required for move and copy", index=index, operation=operation)
        source = given_source if type(given_source) is str else ""  # read by move and copy only
        value = operation.get("value", _MISSING)
        if op in ("add", "replace", "test") and value is _MISSING:
            raise JsonPatchError(
                "'value' is required for add, replace and test", index=index, operation=operation
            )

        if path == "":
            self._apply_to_root(index, operation, op, value, source)
            return

        tokens = [_unescape(token) for token in path.split("/")[1:]]
        last = len(tokens) - 1
        node = self.document
        for depth, token in enumerate(tokens):
            if token == "__proto__" or (
                token == "prototype" and depth > 0 and tokens[depth - 1] == "constructor"
            ):
                raise JsonPatchError(
                    "modifying __proto__ or constructor/prototype is banned", index=index, operation=operation
                )
            child = _child(node, token)
            # Only an add may name something missing, and only as the final token.
            if child is _MISSING and ((op == "add" and depth != last) or op in ("replace", "remove")):
                reason = (
                    "cannot add at a path whose parent does not exist"
                    if op == "add"
                    else "path does not exist"
                )
                raise JsonPatchError(reason, index=index, operation=operation)
            if type(node) is list:
                if token != "-" and not _is_digits(token):
                    raise JsonPatchError(
                        "array index is not an unsigned base-10 integer", index=index, operation=operation
                    )
                if depth == last and op == "add" and token != "-" and int(token or "0") > len(node):
                    raise JsonPatchError(
                        "array index is greater than the number of elements", index=index, operation=operation
                    )
            elif type(node) is not dict:
                raise JsonPatchError(
                    "cannot perform the operation at this path", index=index, operation=operation
                )
            if depth == last:
                break
            if type(child) is not dict and type(child) is not list:
                raise JsonPatchError(
                    "cannot perform the operation at this path", index=index, operation=operation
                )
            node = child
        if op in ("move", "copy") and self._resolve(source) is _MISSING:
            raise JsonPatchError("'from' path does not exist", index=index, operation=operation)
        if op == "move" and (source == "" or path.startswith(source + "/")):
            raise JsonPatchError("cannot move a value into itself", index=index, operation=operation)

        if op == "test":
            token = tokens[last]
            if type(node) is list and token != "-":
                position = int(token or "0")
                target = node[position] if position < len(node) else _MISSING
            else:
                target = _child(node, token)
            if not json_equal(target, value):
                raise JsonPatchError("test operation failed", index=index, operation=operation)
            return
        if op == "add":
            self._add(tokens, value)
        elif op == "replace":
            parent = self._writable_parent(tokens)
            parent[int(tokens[last]) if type(parent) is list else tokens[last]] = value
        elif op == "remove":
            self._remove(tokens)
        elif op == "copy":
            moved = self._resolve(source)
            self._add(tokens, copy_json(moved), clamp=True)
        else:  # move
            from_tokens = [_unescape(token) for token in source.split("/")[1:]]
            moved = self._resolve(source) if not from_tokens else self._remove(from_tokens)
            self._add(tokens, moved, clamp=True)

    def _apply_to_root(self, index: int, operation: dict[str, Any], op: str, value: Any, source: Any) -> None:
        if op in ("add", "replace"):
            self.document = value
        elif op == "remove":
            self.document = None
        elif op == "test":
            if not json_equal(self.document, value):
                raise JsonPatchError("test operation failed", index=index, operation=operation)
        else:
            moved = self._resolve(source)
            if moved is _MISSING:
                raise JsonPatchError("'from' path does not exist", index=index, operation=operation)
            self.document = copy_json(moved) if op == "copy" else moved

    def _resolve(self, pointer: str) -> Any:
        node = self.document
        if pointer == "":
            return node
        for token in pointer.split("/")[1:]:
            node = _child(node, _unescape(token))
            if node is _MISSING:
                return _MISSING
        return node

    def _add(self, tokens: list[str], value: Any, *, clamp: bool = False) -> None:
        parent = self._writable_parent(tokens)
        token = tokens[-1]
        if type(parent) is list:
            if token == "-":
                parent.append(value)
                return
            position = int(token or "0")
            if position > len(parent) and not clamp:
                raise IndexError(position)
            # A move or copy adds without validation, and Array.splice clamps an index past the end.
            parent.insert(position, value)
        elif type(parent) is dict:
            parent[token] = value
        else:
            raise TypeError(type(parent).__name__)

    def _remove(self, tokens: list[str]) -> Any:
        parent = self._writable_parent(tokens)
        token = tokens[-1]
        if type(parent) is list:
            return parent.pop(int(token or "0"))
        return parent.pop(token)


@keyword_options
def apply_json_patch(document: JSON, operations: JSON, *, in_place: bool = False) -> JSON:
    """Apply an RFC 6902 patch and return the new document; a bad operation raises :class:`JsonPatchError`.

    The input is never changed unless ``in_place=True`` (faster, but a failing patch then leaves the
    operations before it applied). Without ``in_place`` the result shares unchanged containers with the input.

    >>> doc = {"todo": ["a"], "done": []}
    >>> apply_json_patch(doc, [{"op": "move", "from": "/todo/0", "path": "/done/-"}])
    {'todo': [], 'done': ['a']}
    >>> doc
    {'todo': ['a'], 'done': []}
    >>> apply_json_patch(doc, [{"op": "replace", "path": "/missing", "value": 1}])
    Traceback (most recent call last):
    ...
    agui_notebook.JsonPatchError: operation 0 (replace '/missing'): path does not exist
    """
    if type(operations) is not list:
        raise JsonPatchError("a patch must be an array of operations", index=-1, operation=None)
    patcher = _Patcher(document, in_place)
    for index, operation in enumerate(operations):
        try:
            patcher.apply(index, operation)
        except JsonPatchError:
            raise
        except Exception:  # a value the operation cannot take (of the wrong type, nested too deeply, ...)
            raise JsonPatchError("the operation does not apply", index=index, operation=operation) from None
    return patcher.document
