"""The file ``chat.save`` writes and ``Chat.load`` reads: one JSON document per conversation, to share or keep.

``{"format": "agui-notebook.chat", "version": 4, "threadId", "messages", "state", "events", "branches"?}``: the
UIMessages shown (the selected path), the AG-UI shared state, the thread's records (``{"received_ns", "event"}``,
the agent's events and the chat's own records: ``_records.py``; they alone rebuild the conversation, run inputs,
branches and all) and, when the conversation has branches, its message tree (``MessageTree.to_saved``) for
readers of the file. Older versions read as before: 1 (no branches), 2 (no run inputs) and 3, whose events hold
only the agent's and whose ``runInputs`` keep every distinct AG-UI message once (``{"messages", "inputs": [{"events":
the number of events before its run, "input": the input with its messages as indexes}]}``).

>>> saved = SavedConversation(thread_id="t1", messages=[], state={"step": 1}, events=[])
>>> SavedConversation.from_json(saved.to_json(), "chat.json") == saved
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from agui_notebook._errors import ChatLogError
from agui_notebook._types import JSON
from agui_notebook.chat._branches import MessageTree
from agui_notebook.wire._json import decode_json, encode_json

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "SavedConversation"]

SAVE_FORMAT = "agui-notebook.chat"
"""The ``format`` of a saved conversation."""
SAVE_VERSION = 4
"""The version written; 2 added ``branches``, 3 ``runInputs``, 4 the chat's own records among the events (and no
``runInputs``: they are in the records). Every version up to it is read."""

RunInputs = list[tuple[int, dict[str, JSON]]]
"""A chat's run inputs: (events recorded before the run, the ``RunAgentInput`` as AG-UI wire JSON)."""


@dataclass
class SavedConversation:
    """A conversation as saved: thread id, UIMessages, AG-UI state, recorded events, the branches (if any) and
    the run inputs the chat sent."""

    thread_id: str | None
    messages: list[dict[str, JSON]]
    state: JSON
    events: list[Any]
    branches: dict[str, JSON] | None = None
    run_inputs: RunInputs = field(default_factory=list)

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
        """Write the saved document to ``path`` (:class:`ChatLogError` naming it when it cannot be written)."""
        try:
            Path(path).write_bytes(self.to_json())
        except OSError as exc:
            raise ChatLogError(
                f"{os.fspath(path)}: cannot write the conversation ({exc.strerror or exc})"
            ) from None

    @classmethod
    def from_json(cls, data: bytes, source: str) -> SavedConversation:
        """Read a saved document; anything else (or branches that do not fit the messages) is a
        :class:`ChatLogError` naming ``source`` and the field."""
        try:
            document = decode_json(data)
        except (orjson.JSONDecodeError, UnicodeDecodeError):
            document = None
        if not isinstance(document, dict) or document.get("format") != SAVE_FORMAT:
            raise ChatLogError(f"{source}: not a saved ChatWidget conversation (no format {SAVE_FORMAT!r})")
        version = document.get("version", 1)
        if type(version) is not int or version < 1:
            raise ChatLogError(
                f"{source}: version: {version!r} is not a version of the saved conversation format"
            )
        if version > SAVE_VERSION:
            raise ChatLogError(
                f"{source}: version {version} of the saved conversation format is newer than this agui-notebook "
                f"reads (1 to {SAVE_VERSION}): a newer agui-notebook wrote it"
            )
        for key, kind in (("messages", list), ("events", list), ("threadId", str)):
            value = document.get(key)
            if value is not None and type(value) is not kind:
                raise ChatLogError(f"{source}: {key}: a {type(value).__name__}, not a {kind.__name__}")
        messages = document.get("messages") or []
        bad = next((i for i, m in enumerate(messages) if type(m) is not dict), None)
        if bad is not None:
            raise ChatLogError(
                f"{source}: messages[{bad}]: a {type(messages[bad]).__name__}, not a message object"
            )
        try:
            saved = cls(
                thread_id=document.get("threadId"),
                messages=messages,
                state=document.get("state"),
                events=[e for e in document.get("events") or [] if type(e) is dict],
                branches=document.get("branches") if version >= 2 else None,
                run_inputs=_unpacked(document.get("runInputs"), source) if version == 3 else [],
            )
            if saved.branches is not None:
                MessageTree.from_saved(saved.messages, saved.branches, source)  # raises when they do not fit
        except ValueError as exc:
            raise ChatLogError(str(exc)) from None
        return saved

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> SavedConversation:
        """Read the conversation saved at ``path`` (:class:`ChatLogError` naming it when it cannot be read)."""
        try:
            data = Path(path).read_bytes()
        except OSError as exc:
            raise ChatLogError(
                f"{os.fspath(path)}: cannot read the saved conversation ({exc.strerror or exc})"
            ) from None
        return cls.from_json(data, os.fspath(path))


def _unpacked(packed: Any, source: str) -> RunInputs:
    """The run inputs of a saved document; a ``ValueError`` naming ``source`` when they are not as written
    (each must be a valid ``RunAgentInput``)."""
    from ag_ui.core import RunAgentInput  # pydantic's ValidationError is a ValueError

    if packed is None:
        return []
    try:
        messages = packed["messages"]
        if type(messages) is not list or not all(type(m) is dict for m in messages):
            raise ValueError("messages is not a list of objects")
        out = []
        for entry in packed["inputs"]:
            count, wire = entry["events"], entry["input"]
            if type(wire) is not dict:
                raise ValueError(f"input={wire!r}")
            wire = dict(wire)
            if type(count) is not int or count < 0:
                raise ValueError(f"events={count!r}")
            indexes = wire.get("messages") or []
            if not all(type(i) is int and 0 <= i < len(messages) for i in indexes):
                raise ValueError(f"message indexes {indexes!r} (of {len(messages)} messages)")
            wire["messages"] = [messages[i] for i in indexes]
            RunAgentInput.model_validate(wire)  # what inspect and fork read: refused here, by the file's name
            out.append((count, wire))
    except (KeyError, IndexError, TypeError, ValueError) as exc:
        raise ChatLogError(f"{source}: runInputs are not as ChatWidget.save writes them ({exc!r})") from None
    return out
