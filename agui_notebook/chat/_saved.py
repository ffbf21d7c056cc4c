"""The file ``ChatWidget.save`` writes and ``ChatWidget.load`` reads: one JSON document per conversation.

``{"format": "agui-notebook.chat", "version": 3, "threadId", "messages", "state", "events", "branches"?,
"runInputs"?}``: the UIMessages shown (the selected path), the AG-UI shared state, the recorded events
(``{"received_ns", "event"}`` records), when the conversation has branches (edits, regenerations) its message tree
(``MessageTree.to_saved``, ``_branches.py``), and the run inputs the chat sent (the user's turns and state are
there, not in the events; ``inspect`` and ``fork`` read them). A run input repeats the conversation before it, so
``runInputs`` keeps every distinct AG-UI message once (``messages``) and each input as ``{"events": the number of
events recorded before its run, "input": the input with ``messages`` as indexes into that list}``: twenty turns
with an image attached store the image once. Version 1 (no branches) and 2 (no run inputs) documents read as
before.

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

from agui_notebook._types import JSON
from agui_notebook.widget._branches import MessageTree
from agui_notebook.wire._json import decode_json, encode_json

__all__ = ["SAVE_FORMAT", "SAVE_VERSION", "SavedConversation"]

SAVE_FORMAT = "agui-notebook.chat"
"""The ``format`` of a saved conversation."""
SAVE_VERSION = 3
"""The version written; 2 added ``branches``, 3 ``runInputs``. Every version up to it is read."""

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
        if self.run_inputs:
            document["runInputs"] = _packed(self.run_inputs)
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
            run_inputs=_unpacked(document.get("runInputs"), source) if version >= 3 else [],
        )
        if saved.branches is not None:
            MessageTree.from_saved(saved.messages, saved.branches, source)  # raises when they do not fit
        return saved

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> SavedConversation:
        """Read the conversation saved at ``path``."""
        return cls.from_json(Path(path).read_bytes(), os.fspath(path))


def _packed(run_inputs: RunInputs) -> dict[str, JSON]:
    """The run inputs with each distinct message stored once (see the module docstring)."""
    messages: list[JSON] = []
    places: dict[str, int] = {}
    inputs = []
    for count, wire in run_inputs:
        indexes = []
        for message in wire.get("messages") or []:
            key = encode_json(message)
            if key not in places:
                places[key] = len(messages)
                messages.append(message)
            indexes.append(places[key])
        inputs.append({"events": count, "input": {**wire, "messages": indexes}})
    return {"messages": messages, "inputs": inputs}


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
        raise ValueError(f"{source}: runInputs are not as ChatWidget.save writes them ({exc!r})") from None
    return out
