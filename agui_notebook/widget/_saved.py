"""The file ``ChatWidget.save`` writes and ``ChatWidget.load`` reads: one JSON document per conversation.

``{"format": "agui-notebook.chat", "version": 2, "threadId", "messages", "state", "events", "branches"?}``: the
UIMessages shown (the selected path), the AG-UI shared state, the recorded events (``{"received_ns", "event"}``
records) and, when the conversation has branches (edits, regenerations), its message tree
(``MessageTree.to_saved``, ``_branches.py``). Version 1 documents (no branches) read as before.

>>> saved = SavedConversation(thread_id="t1", messages=[], state={"step": 1}, events=[])
>>> SavedConversation.from_json(saved.to_json(), "chat.json") == saved
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from agui_notebook._types import JSON
from agui_notebook.widget._branches import MessageTree
from agui_notebook.wire._json import decode_json, encode_json

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "SavedConversation"]

SAVE_FORMAT = "agui-notebook.chat"
"""The ``format`` of a saved conversation."""
SAVE_VERSION = 2
"""The version written; 2 added ``branches``. Every version up to it is read."""


@dataclass
class SavedConversation:
    """A conversation as saved: thread id, UIMessages, AG-UI state, recorded events and the branches, if any."""

    thread_id: str | None
    messages: list[dict[str, JSON]]
    state: JSON
    events: list[Any]
    branches: dict[str, JSON] | None = None

    def to_json(self) -> bytes:
        """The saved document."""
        document = {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "threadId": self.thread_id,
            "messages": self.messages,
            "state": self.state,
            "events": self.events,
        }
        if self.branches is not None:
            document["branches"] = self.branches
        return encode_json(document).encode()

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the saved document to ``path``."""
        Path(path).write_bytes(self.to_json())

    @classmethod
    def from_json(cls, data: bytes, source: str) -> SavedConversation:
        """Read a saved document; anything else (or branches that do not fit the messages) is a ``ValueError``
        naming ``source``."""
        try:
            document = decode_json(data)
        except orjson.JSONDecodeError:
            document = None
        if not isinstance(document, dict) or document.get("format") != SAVE_FORMAT:
            raise ValueError(f"{source}: not a saved ChatWidget conversation (no format {SAVE_FORMAT!r})")
        version = document.get("version", 1)
        if type(version) is not int or not 1 <= version <= SAVE_VERSION:
            raise ValueError(
                f"{source}: version {version!r} of the saved conversation format is not one this agui-notebook "
                f"reads (1 to {SAVE_VERSION}); a newer agui-notebook wrote it"
            )
        saved = cls(
            thread_id=document.get("threadId"),
            messages=document.get("messages") or [],
            state=document.get("state"),
            events=document.get("events") or [],
            branches=document.get("branches") if version >= 2 else None,
        )
        if saved.branches is not None:
            MessageTree.from_saved(saved.messages, saved.branches, source)  # raises when they do not fit
        return saved

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> SavedConversation:
        """Read the conversation saved at ``path``."""
        return cls.from_json(Path(path).read_bytes(), os.fspath(path))
