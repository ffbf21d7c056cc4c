"""A Python replica of the ChatWidget front end: applies what the kernel sends exactly as js/src/sync.js does.

``FrontEnd`` captures everything the widget sends through its comm (trait updates and custom patch/snapshot
messages, serialized at send time as the kernel would) and applies it in order. Like a view that mounts, it asks
for a snapshot first; a test then checks that the live patches rebuild the chat's conversation.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import orjson

from agui_notebook.widget._chat import ChatWidget


class FrontEnd:
    """What a view of the widget sees: the kernel's messages in order, applied like js/src/sync.js."""

    def __init__(self, chat: ChatWidget) -> None:
        self.chat = chat
        self.sent: list[dict[str, Any]] = []
        self.state: dict[str, Any] = {"messages": [], "status": chat.status, "error": chat.error}
        self.seq: int | None = None
        chat.comm.send = self._receive  # type: ignore[method-assign]
        self.request({"kind": "resync"})  # what a view does when it mounts

    def _receive(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        data = orjson.loads(orjson.dumps(data))  # the wire copy, taken when the kernel sends it
        self.sent.append(data)
        if data["method"] == "update":
            for key in ("status", "error"):
                if key in data["state"]:
                    self.state[key] = copy.deepcopy(data["state"][key])
            return
        content = data["content"]
        if content["kind"] == "snapshot":
            self.state.update(
                messages=copy.deepcopy(content["messages"]), status=content["status"], error=content["error"]
            )
            self.seq = content["seq"]
            return
        assert content["kind"] == "patch"
        assert self.seq is None or content["seq"] == self.seq + 1, f"gap: {self.seq} -> {content['seq']}"
        self.seq = content["seq"]
        apply_ops(self.state, content["ops"])

    def request(self, content: dict[str, Any]) -> None:
        """A custom message from the view, delivered the way ipywidgets delivers it."""
        self.chat._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})

    def patches(self) -> list[dict[str, Any]]:
        return [
            d["content"] for d in self.sent if d["method"] == "custom" and d["content"]["kind"] == "patch"
        ]

    def trait_updates(self, key: str) -> list[Any]:
        return [d["state"][key] for d in self.sent if d["method"] == "update" and key in d["state"]]

    def ops(self) -> list[list[Any]]:
        return [op for patch in self.patches() for op in patch["ops"]]


def apply_ops(state: dict[str, Any], ops: list[list[Any]]) -> None:
    """The compact ops of the live-sync protocol, applied as the front end applies them."""
    messages = state["messages"]
    for op in ops:
        kind = op[0]
        if kind == "m":
            _, mi, message = op
            assert 0 <= mi <= len(messages)
            if mi == len(messages):
                messages.append(message)
            else:
                messages[mi] = message
        elif kind == "p":
            _, mi, pi, part = op
            parts = messages[mi]["parts"]
            assert 0 <= pi <= len(parts)
            if pi == len(parts):
                parts.append(part)
            else:
                parts[pi] = part
        elif kind == "t":
            _, mi, pi, text = op
            messages[mi]["parts"][pi]["text"] += text
        elif kind == "meta":
            _, mi, metadata = op
            if metadata is None:
                messages[mi].pop("metadata", None)
            else:
                messages[mi]["metadata"] = metadata
        elif kind == "parts":
            _, mi, parts = op
            messages[mi]["parts"] = parts
        elif kind == "len":
            del messages[op[1] :]
        elif kind == "status":
            state["status"], state["error"] = op[1], op[2]
        else:
            raise AssertionError(f"unknown op {op!r}")


def assert_in_sync(view: FrontEnd, chat: ChatWidget) -> None:
    """The patched view and the conversation hold the same messages, and the view the widget's status."""
    assert view.state["messages"] == json.loads(json.dumps(chat.messages))
    assert (view.state["status"], view.state["error"]) == (chat.status, chat.error)
