"""What the last update of a ChatWidget's shared state changed: the ``state_changes`` trait the state panel shows.

An update is every STATE_SNAPSHOT / STATE_DELTA applied since the ``state`` trait was last synced (the widget
syncs it at most ``STATE_SYNC_RATE`` times a second during a run, and at the run's end), or a ``chat.state = ...``
from Python. When every event of it was a STATE_DELTA, the changes are its JSON Patch operations' paths
(``move`` is a ``remove`` of ``from`` and an ``add`` of ``path``; ``test`` changes nothing); otherwise they are the
difference between the state before and after, found by walking both.

>>> changes = StateChanges()
>>> delta = {"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/count", "value": 2}]}
>>> changes.take({"count": 1}, {"count": 2}, [delta], "agent")["changes"]
[{'op': 'replace', 'path': '/count'}]
>>> changes.take({"a": 1, "b": [1]}, {"b": [1, 2], "c": True}, [], "python")["changes"]
[{'op': 'remove', 'path': '/a'}, {'op': 'add', 'path': '/b/1'}, {'op': 'add', 'path': '/c'}]
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import Any

from agui_notebook._types import JSON
from agui_notebook.agui._patch import json_equal
from agui_notebook.wire._json import copy_json

__all__ = ["MAX_CHANGES", "STATE_SYNC_RATE", "StateChanges", "StateSync", "pointer"]

MAX_CHANGES = 500
"""Changes kept per update; past them the update says ``truncated`` (the panel then marks the whole state)."""

STATE_SYNC_RATE = 10.0
"""During a run the ``state`` trait is synced at most this often a second (the first update after a quiet spell at
once), so a stream of small deltas to a large state does not resend the whole state for every delta."""


def pointer(tokens: Iterable[str | int]) -> str:
    """The JSON Pointer (RFC 6901) of a path of keys and indexes.

    >>> pointer(["a/b", 0, "~"])
    '/a~1b/0/~0'
    """
    return "".join("/" + str(token).replace("~", "~0").replace("/", "~1") for token in tokens)


def _tokens(path: str) -> list[str]:
    return [t.replace("~1", "/").replace("~0", "~") for t in path.split("/")[1:]] if path else []


def _resolve(document: JSON, tokens: list[str]) -> Any:
    node: Any = document
    for token in tokens:
        if type(node) is dict and token in node:
            node = node[token]
        elif type(node) is list and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


class StateChanges:
    """Builds the ``state_changes`` trait value of each update (its ``seq`` counts updates)."""

    def __init__(self) -> None:
        self.seq = 0

    def take(self, before: JSON, after: JSON, updates: list[dict[str, JSON]], source: str) -> dict[str, JSON]:
        """The changes from ``before`` to ``after``; ``updates`` are the state events applied in between.

        ``source`` is ``"agent"`` (STATE_* events), ``"python"`` (``chat.state = ...``) or ``"clear"``.
        """
        self.seq += 1
        changes: list[dict[str, str]] = []
        deltas = bool(updates) and all(u.get("type") == "STATE_DELTA" for u in updates)
        if deltas:
            for update in updates:
                _delta_changes(update.get("delta"), changes)
            _pin_appends(changes, after)
        else:
            _diff(before, after, [], changes)
        truncated = len(changes) > MAX_CHANGES
        kind = "delta" if deltas else "snapshot" if updates else source
        return {
            "seq": self.seq,
            "source": kind,
            "updates": len(updates),
            "changes": changes[:MAX_CHANGES],
            "truncated": truncated,
        }


def _delta_changes(delta: Any, out: list[dict[str, str]]) -> None:
    """The changed paths of one JSON Patch, merged into ``out`` (a path's last operation wins)."""
    if type(delta) is not list:
        return
    for operation in delta:
        if type(operation) is not dict:
            continue
        op, path = operation.get("op"), operation.get("path")
        if type(path) is not str:
            continue
        if op == "move" and type(operation.get("from")) is str:
            _put(out, "remove", operation["from"])
            _put(out, "add", path)
        elif op in ("add", "replace", "remove"):
            _put(out, op, path)
        elif op == "copy":
            _put(out, "add", path)


def _put(out: list[dict[str, str]], op: str, path: str) -> None:
    if path.endswith("/-"):  # each append is an item of its own (``_pin_appends`` gives it its index)
        out.append({"op": op, "path": path})
        return
    for index, change in enumerate(out):
        if change["path"] == path:
            if change["op"] == "add" and op == "replace":
                op = "add"  # still new since the last update
            elif change["op"] == "remove" and op == "add":
                op = "replace"
            del out[index]
            break
    out.append({"op": op, "path": path})


def _pin_appends(changes: list[dict[str, str]], after: JSON) -> None:
    """``/list/-`` (append) as the index each append ended at: the last items of the list, in order."""
    appends: dict[str, int] = {}
    for change in changes:
        if change["path"].endswith("/-"):
            parent = change["path"][:-2]
            appends[parent] = appends.get(parent, 0) + 1
    if not appends:
        return
    seen: dict[str, int] = {}
    for change in changes:
        path = change["path"]
        if not path.endswith("/-"):
            continue
        parent = path[:-2]
        target = _resolve(after, _tokens(parent))
        size = len(target) if type(target) is list else 0
        index = size - appends[parent] + seen.get(parent, 0)
        seen[parent] = seen.get(parent, 0) + 1
        change["path"] = f"{parent}/{max(index, 0)}"


def _diff(before: JSON, after: JSON, path: list[str | int], out: list[dict[str, str]]) -> None:
    """The paths where ``after`` differs from ``before``, objects and lists walked key by key (bounded)."""
    if len(out) > MAX_CHANGES:
        return
    if type(before) is dict and type(after) is dict:
        for key, value in before.items():
            if key not in after:
                out.append({"op": "remove", "path": pointer([*path, key])})
            elif value is not after[key] and not json_equal(value, after[key]):
                _diff(value, after[key], [*path, key], out)
        for key in after:
            if key not in before:
                out.append({"op": "add", "path": pointer([*path, key])})
        return
    if type(before) is list and type(after) is list:
        shared = min(len(before), len(after))
        for index in range(shared):
            if before[index] is not after[index] and not json_equal(before[index], after[index]):
                _diff(before[index], after[index], [*path, index], out)
        for index in range(shared, len(after)):
            out.append({"op": "add", "path": pointer([*path, index])})
        for index in range(shared, len(before)):
            out.append({"op": "remove", "path": pointer([*path, index])})
        return
    if not json_equal(before, after):
        out.append({"op": "replace" if path or before is not None else "add", "path": pointer(path)})


class StateSync:
    """A view's ``state`` trait brought up to the chat's state: at once for a change from Python, at most
    ``STATE_SYNC_RATE`` times a second while the agent changes it (``flush`` at the run's end)."""

    def __init__(self, read: Callable[[], JSON], publish: Callable[[JSON, dict[str, JSON]], None]) -> None:
        self._read = read
        self._publish = publish
        self.changes = StateChanges()
        self.shown: JSON = copy_json(read())
        self._pending: list[dict[str, JSON]] = []
        self._handle: asyncio.TimerHandle | None = None
        self._synced_at = 0.0

    def changed(self, source: str, updates: list[dict[str, JSON]]) -> None:
        """The state changed: by the ``agent`` (``updates``: its STATE events), from ``"python"``, or it is another
        thread's (``"thread"``: shown with no changes marked)."""
        if source == "thread":
            self._pending.clear()
            self.shown = copy_json(self._read())
            self._publish(self.shown, {})
            return
        if source != "agent":
            self._pending.clear()
            self._show(source, [])
            return
        self._pending.extend(updates)
        if self._handle is not None:
            return
        wait = self._synced_at + 1.0 / STATE_SYNC_RATE - time.monotonic()
        if wait <= 0:
            self.flush()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._handle = loop.call_later(wait, self.flush)

    def flush(self) -> None:
        """Show the agent's updates since the last sync (nothing when there are none)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._pending:
            updates, self._pending = self._pending, []
            self._show("agent", updates)

    def _show(self, source: str, updates: list[dict[str, JSON]]) -> None:
        after = copy_json(self._read())
        changes = self.changes.take(self.shown, after, updates, source)
        self.shown = after
        self._synced_at = time.monotonic()
        self._publish(after, changes)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
