"""What a view of a chat is told: every change, as it happens, so any number of views stay in step.

A view (``ChatWidget``, a test's recorder) subclasses :class:`ChatListener`, overrides what it shows and calls
``chat.subscribe(view)``. The chat calls the methods in order on the kernel's thread; a view reads what it needs
from the chat (``chat.messages``, ``chat.status`` ...) and decides how often to send it on.

>>> class Printer(ChatListener):
...     def status_changed(self) -> None:
...         print("status changed")
>>> hub = Listeners()
>>> hub.add(Printer())
>>> hub.status_changed()
status changed
"""

from __future__ import annotations

from typing import Any

from agui_notebook._types import JSON
from agui_notebook.ui._changes import MessageChange

__all__ = ["ChatListener", "Listeners"]


class ChatListener:
    """The changes a chat reports to its views; each method does nothing unless a view overrides it."""

    def messages_changed(self, changes: list[MessageChange]) -> None:
        """Messages of the path changed (indexes into ``chat.messages`` as it is now)."""

    def messages_reset(self) -> None:
        """The path was replaced as a whole (a branch or thread switch, messages set from Python)."""

    def status_changed(self) -> None:
        """``status``, ``error`` or ``error_details`` changed."""

    def warnings_changed(self) -> None:
        """``warnings`` changed."""

    def state_changed(self, source: str, updates: list[dict[str, JSON]]) -> None:
        """The shared state changed: by the agent (``updates``: the STATE events applied), from ``"python"``, or
        it is another ``"thread"``'s (a thread switch)."""

    def branches_changed(self) -> None:
        """The forks along the path (``chat.branch_points``) may have changed."""

    def threads_changed(self) -> None:
        """The thread list or the current thread changed."""

    def context_changed(self) -> None:
        """The context entries, or what they sent at the last run (``chat.context_sent``), changed."""

    def run_begun(self, sent_ns: int | None, resumes: bool) -> None:
        """A run began (``sent_ns``: when its input went to the agent; None for a played stream)."""

    def run_ended(self) -> None:
        """A run ended (its last changes were reported before)."""


class Listeners(ChatListener):
    """The views of one chat: each call goes to every view, in the order they subscribed."""

    def __init__(self) -> None:
        self._views: list[ChatListener] = []

    def add(self, view: ChatListener) -> None:
        if view not in self._views:
            self._views.append(view)

    def remove(self, view: ChatListener) -> None:
        if view in self._views:
            self._views.remove(view)

    def __len__(self) -> int:
        return len(self._views)

    def __iter__(self) -> Any:
        return iter(list(self._views))

    def messages_changed(self, changes: list[MessageChange]) -> None:
        if changes:
            for view in list(self._views):
                view.messages_changed(changes)

    def messages_reset(self) -> None:
        for view in list(self._views):
            view.messages_reset()

    def status_changed(self) -> None:
        for view in list(self._views):
            view.status_changed()

    def warnings_changed(self) -> None:
        for view in list(self._views):
            view.warnings_changed()

    def state_changed(self, source: str, updates: list[dict[str, JSON]]) -> None:
        for view in list(self._views):
            view.state_changed(source, updates)

    def branches_changed(self) -> None:
        for view in list(self._views):
            view.branches_changed()

    def threads_changed(self) -> None:
        for view in list(self._views):
            view.threads_changed()

    def context_changed(self) -> None:
        for view in list(self._views):
            view.context_changed()

    def run_begun(self, sent_ns: int | None, resumes: bool) -> None:
        for view in list(self._views):
            view.run_begun(sent_ns, resumes)

    def run_ended(self) -> None:
        for view in list(self._views):
            view.run_ended()
