"""The live sync of one widget: a chat's changes sent to its views as patches, a snapshot when one asks.

Views hold their own copy of the conversation and get it only through custom messages (docs/widget.md): a view
that mounts, or that cannot apply a patch, asks for a ``snapshot``; every change after that is a ``patch`` of
compact ops (``_patches.py``), sent at most ``DEFAULT_MAX_RATE`` times a second. Nothing is re-sent on a timer,
so what a delta costs does not depend on how long the conversation is.

A message the comm cannot carry (a lone surrogate: half an emoji a JavaScript producer split) is sent again with
such text replaced by U+FFFD; the conversation itself keeps what arrived.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from agui_notebook._types import JSON
from agui_notebook.ui._changes import MessageChange
from agui_notebook.widget._patches import PatchBatcher
from agui_notebook.wire._values import is_plain_json, json_value

__all__ = ["LiveSync", "sendable"]


def sendable(value: Any) -> Any:
    """``value`` with whatever the comm cannot carry replaced: lone surrogates by U+FFFD, other odd values by the
    JSON rule, or a short note where they have none."""
    if type(value) is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if type(value) is dict:
        return {sendable(k): sendable(v) for k, v in value.items()}
    if type(value) is list:
        return [sendable(v) for v in value]
    if is_plain_json(value):
        return value
    try:
        return sendable(json_value(value))
    except Exception:
        return f"<{type(value).__name__}: not JSON>"


class LiveSync:
    """Patches (or a snapshot) of ``messages()`` for the views, through ``send`` (the widget's custom message)."""

    def __init__(
        self,
        messages: Callable[[], list[dict[str, JSON]]],
        send: Callable[[dict[str, Any]], None],
        thread_id: Callable[[], str],
    ) -> None:
        self._messages = messages
        self._send = send
        self._thread_id = thread_id
        self.batcher = PatchBatcher(messages())
        self.status: tuple[str, str] = ("ready", "")
        self.stale = True  # no view has a snapshot yet: patches before the first would go nowhere useful
        self._handle: asyncio.TimerHandle | None = None

    def changed(self, changes: list[MessageChange], *, now: bool = False) -> None:
        """Messages changed: patch them, within the rate limit (``now``: at once, for the user's own action)."""
        if self.stale:
            return  # the next snapshot carries them
        self.batcher.extend(changes)
        if now:
            self.flush()
        else:
            self._schedule()

    def reset(self) -> None:
        """The messages were replaced as a whole: the views get a snapshot."""
        self.batcher.messages = self._messages()
        self.stale = True
        self.flush()

    def set_status(self, status: str, error: str) -> None:
        self.status = (status, error)
        if not self.stale:
            self.batcher.set_status(status, error)
            self._schedule()

    def resync(self) -> None:
        """A view asked for the whole conversation (it mounted, or lost a patch)."""
        self.stale = True
        self.flush()

    def _schedule(self) -> None:
        delay = self.batcher.delay()
        if delay is None:
            return
        if delay == 0.0:
            self.flush()
            return
        if self._handle is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.flush()
                return
            self._handle = loop.call_later(delay, self._scheduled)

    def _scheduled(self) -> None:
        self._handle = None
        self.flush()

    def flush(self) -> None:
        """Send what changed now: the pending patch, or a snapshot when a view needs one."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        # Reading them parses the tool inputs streamed since the last patch (and a run may have a new list).
        self.batcher.messages = self._messages()
        message: dict[str, Any] | None
        if self.stale:
            message = {**self.batcher.snapshot(*self.status), "threadId": self._thread_id()}
        else:
            message = self.batcher.flush()
        if message is None:
            return
        try:
            self._send(message)
        except Exception:
            self._send(
                sendable(message)
            )  # what the comm cannot carry, replaced; a second failure is the comm's
        self.stale = False

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
