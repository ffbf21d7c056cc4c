"""Live patches for the chat widget: MessageChange records coalesced into compact ops, sent at most ~30 times/s.

The front end (js/src/sync.js) applies the ops in order to its copy of the messages; docs/widget.md describes the
protocol. Ops name what changed and carry the *current* value, read from the live message list when the patch is
built, so any number of changes to one part between two patches costs one op:

- ``["m", mi, message]``: set (or append, when ``mi`` is the length) message ``mi``.
- ``["p", mi, pi, part]``: set (or append) part ``pi`` of message ``mi``.
- ``["t", mi, pi, text]``: append ``text`` to ``parts[pi]["text"]``.
- ``["meta", mi, metadata]``: set the message's metadata (``None`` removes it).
- ``["parts", mi, parts]``: replace all parts of message ``mi``.
- ``["len", n]``: truncate the message list to ``n`` messages.
- ``["status", status, error]``: the widget status and error text.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from agui_notebook._errors import OptionError, PatchError
from agui_notebook.ui._changes import MessageChange

DEFAULT_MAX_RATE = 30.0
"""Patch (and snapshot) messages per second the batcher's time policy allows."""

PatchOp = list[Any]


@dataclass(slots=True, eq=False)
class _PendingOp:
    kind: str  # "m" | "p" | "t" | "meta" | "parts" | "len" | "status"
    message_index: int = -1
    part_index: int = -1
    deltas: list[str] | None = None
    value: Any = None
    live: bool = True


class PatchBatcher:
    """Coalesces message changes into patch messages for the widget, with a shared sequence number.

    ``messages`` is the live list of UIMessage dicts that the reducer mutates; ops read it when a patch is built,
    so the returned patch references those dicts and must be sent before they change again.

    >>> from agui_notebook.ui._changes import MessageChange
    >>> messages = [{"id": "a", "role": "assistant", "parts": [{"type": "text", "text": "Hel", "state": "streaming"}]}]
    >>> batcher = PatchBatcher(messages)
    >>> batcher.add(MessageChange("message", 0))
    >>> messages[0]["parts"][0]["text"] += "lo"
    >>> batcher.add(MessageChange("text", 0, 0, "lo"))
    >>> batcher.flush()["ops"]  # the message op already carries "Hello": the delta is absorbed
    [['m', 0, {'id': 'a', 'role': 'assistant', 'parts': [{'type': 'text', 'text': 'Hello', 'state': 'streaming'}]}]]
    """

    def __init__(
        self,
        messages: list[dict[str, Any]],
        *,
        max_rate: float = DEFAULT_MAX_RATE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_rate <= 0:
            raise OptionError(f"max_rate must be positive, got {max_rate}")
        self.messages = messages
        self.interval = 1.0 / max_rate
        self._clock = clock
        self._seq = 0
        self._last_sent = -math.inf
        self._clear()

    def _clear(self) -> None:
        self._ops: list[_PendingOp] = []
        self._live = 0
        self._message_ops: dict[int, _PendingOp] = {}
        self._parts_ops: dict[int, _PendingOp] = {}
        self._meta_ops: dict[int, _PendingOp] = {}
        self._part_ops: dict[tuple[int, int], _PendingOp] = {}
        self._len_ops: list[_PendingOp] = []
        self._status_op: _PendingOp | None = None

    @property
    def seq(self) -> int:
        """The seq of the last patch or snapshot built (0 before the first)."""
        return self._seq

    @property
    def pending(self) -> bool:
        """Whether there are ops waiting for ``flush``."""
        return self._live > 0

    # -- recording ---------------------------------------------------------------------------------------------

    def _append(self, op: _PendingOp) -> _PendingOp:
        self._ops.append(op)
        self._live += 1
        return op

    def _kill(self, op: _PendingOp) -> None:
        if op.live:
            op.live = False
            self._live -= 1

    def _kill_part_ops(self, message_index: int) -> None:
        for key in [key for key in self._part_ops if key[0] == message_index]:
            self._kill(self._part_ops.pop(key))

    def _kill_message(self, message_index: int) -> None:
        self._kill_part_ops(message_index)
        for table in (self._message_ops, self._parts_ops, self._meta_ops):
            op = table.pop(message_index, None)
            if op is not None:
                self._kill(op)

    def add(self, change: MessageChange) -> None:
        """Record one change (see agui_notebook.ui._changes for the kinds)."""
        kind = change.kind
        mi = change.message_index
        if mi < 0:
            raise PatchError(f"change {kind}: message index {mi} is negative")
        if kind == "text" or kind == "part":
            pi = change.part_index
            if pi < 0:
                raise PatchError(f"change {kind} on message {mi}: part index {pi} is negative")
            if mi in self._message_ops or mi in self._parts_ops:
                return  # the pending message/parts op sends this part as it is at flush time
            key = (mi, pi)
            op = self._part_ops.get(key)
            if kind == "text":
                if not change.delta:
                    return
                if op is None:
                    self._part_ops[key] = self._append(_PendingOp("t", mi, pi, deltas=[change.delta]))
                elif op.kind == "t":
                    op.deltas.append(change.delta)  # type: ignore[union-attr]
                return
            if op is None:
                self._part_ops[key] = self._append(_PendingOp("p", mi, pi))
            elif op.kind == "t":
                # Pending deltas become a whole-part op in the same place: the part as a whole supersedes them.
                op.kind = "p"
                op.deltas = None
            return
        if kind == "metadata":
            if mi not in self._message_ops and mi not in self._meta_ops:
                self._meta_ops[mi] = self._append(_PendingOp("meta", mi))
            return
        if kind == "parts":
            if mi not in self._message_ops and mi not in self._parts_ops:
                self._kill_part_ops(mi)
                self._parts_ops[mi] = self._append(_PendingOp("parts", mi))
            return
        if kind == "length":
            self.truncate(mi)
            return
        if kind == "message":
            if mi not in self._message_ops:
                self._kill_message(mi)
                self._message_ops[mi] = self._append(_PendingOp("m", mi))
            return
        raise PatchError(f"change on message {mi}: unknown kind {kind!r}")

    def extend(self, changes: Iterable[MessageChange]) -> None:
        """Record several changes in order."""
        for change in changes:
            self.add(change)

    def truncate(self, length: int) -> None:
        """Record that the message list was cut to ``length`` messages (regenerate, clear)."""
        if length < 0:
            raise PatchError(f"truncate: length {length} is negative")
        for table in (self._message_ops, self._parts_ops, self._meta_ops):
            for mi in [mi for mi in table if mi >= length]:
                self._kill(table.pop(mi))
        for key in [key for key in self._part_ops if key[0] >= length]:
            self._kill(self._part_ops.pop(key))
        # An earlier, longer cut may depend on appends just dropped; this shorter cut makes it redundant anyway.
        for op in self._len_ops:
            if op.value >= length:
                self._kill(op)
        self._len_ops = [op for op in self._len_ops if op.live]
        self._len_ops.append(self._append(_PendingOp("len", value=length)))

    def set_status(self, status: str, error: str = "") -> None:
        """Record the widget status ("ready" | "submitted" | "streaming" | "error") and error text."""
        if self._status_op is not None:
            self._kill(self._status_op)
        self._status_op = self._append(_PendingOp("status", value=(status, error)))

    # -- time policy -------------------------------------------------------------------------------------------

    def delay(self, now: float | None = None) -> float | None:
        """Seconds until a patch may be sent (0.0: now), or None when nothing is pending."""
        if self._live == 0:
            return None
        now = self._clock() if now is None else now
        return max(0.0, self._last_sent + self.interval - now)

    def due(self, now: float | None = None) -> bool:
        """Whether ops are pending and the last message went out at least ``interval`` seconds ago."""
        return self.delay(now) == 0.0

    # -- building messages -------------------------------------------------------------------------------------

    def _message(self, mi: int, where: str) -> dict[str, Any]:
        if mi >= len(self.messages):
            raise PatchError(f"{where}: message {mi} does not exist (have {len(self.messages)})")
        return self.messages[mi]

    def _part(self, mi: int, pi: int, where: str) -> dict[str, Any]:
        parts = self._message(mi, where).get("parts", [])
        if pi >= len(parts):
            raise PatchError(f"{where}: message {mi} has no part {pi} (have {len(parts)})")
        return parts[pi]

    def _build(self, op: _PendingOp, where: str) -> PatchOp:
        kind = op.kind
        mi = op.message_index
        if kind == "t":
            delta = "".join(op.deltas)  # type: ignore[arg-type]
            text = self._part(mi, op.part_index, where).get("text")
            if not isinstance(text, str) or not text.endswith(delta):
                raise PatchError(
                    f"{where}: part {op.part_index} of message {mi} does not end with the recorded text"
                )
            return ["t", mi, op.part_index, delta]
        if kind == "p":
            return ["p", mi, op.part_index, self._part(mi, op.part_index, where)]
        if kind == "m":
            return ["m", mi, self._message(mi, where)]
        if kind == "meta":
            return ["meta", mi, self._message(mi, where).get("metadata")]
        if kind == "parts":
            return ["parts", mi, self._message(mi, where).get("parts", [])]
        if kind == "len":
            return ["len", op.value]
        status, error = op.value
        return ["status", status, error]

    def flush(self, now: float | None = None) -> dict[str, Any] | None:
        """The next patch message (``{"kind": "patch", "seq", "ops"}``) with every pending op, or None."""
        if self._live == 0:
            return None
        ops: list[PatchOp] = []
        for op in self._ops:
            if op.live:
                ops.append(self._build(op, f"patch {self._seq + 1} op {len(ops)} ({op.kind})"))
        self._clear()
        self._seq += 1
        self._last_sent = self._clock() if now is None else now
        return {"kind": "patch", "seq": self._seq, "ops": ops}

    def snapshot(self, status: str, error: str = "", now: float | None = None) -> dict[str, Any]:
        """A snapshot message of the whole list (answering a view's ``resync``); pending ops are dropped."""
        self._clear()
        self._seq += 1
        self._last_sent = self._clock() if now is None else now
        return {
            "kind": "snapshot",
            "seq": self._seq,
            "messages": self.messages,
            "status": status,
            "error": error,
        }
