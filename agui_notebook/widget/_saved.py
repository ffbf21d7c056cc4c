"""The file ``ChatWidget.save`` writes and ``ChatWidget.load`` reads: one JSON document per conversation.

``{"format": "agui-notebook.chat", "version": 1, "threadId", "messages", "state", "events"}``: the
UIMessages, the AG-UI shared state and the recorded events (``{"received_ns", "event"}`` records).

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
from agui_notebook.wire._json import decode_json, encode_json

__all__ = ["SAVE_FORMAT", "SavedConversation"]

SAVE_FORMAT = "agui-notebook.chat"
"""The ``format`` of a saved conversation."""
SAVE_VERSION = 1


@dataclass
class SavedConversation:
    """A conversation as saved: thread id, UIMessages, AG-UI state and recorded events."""

    thread_id: str | None
    messages: list[dict[str, JSON]]
    state: JSON
    events: list[Any]

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
        return encode_json(document).encode()

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the saved document to ``path``."""
        Path(path).write_bytes(self.to_json())

    @classmethod
    def from_json(cls, data: bytes, source: str) -> SavedConversation:
        """Read a saved document; anything else is a ``ValueError`` naming ``source``."""
        try:
            document = decode_json(data)
        except orjson.JSONDecodeError:
            document = None
        if not isinstance(document, dict) or document.get("format") != SAVE_FORMAT:
            raise ValueError(f"{source}: not a saved ChatWidget conversation (no format {SAVE_FORMAT!r})")
        return cls(
            thread_id=document.get("threadId"),
            messages=document.get("messages") or [],
            state=document.get("state"),
            events=document.get("events") or [],
        )

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> SavedConversation:
        """Read the conversation saved at ``path``."""
        return cls.from_json(Path(path).read_bytes(), os.fspath(path))
