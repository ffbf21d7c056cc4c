"""The inspector's page as far as its conversation goes, in Python: the window of messages it holds, built from
the kernel's updates exactly as js/src/inspector_window.js builds it, for tests that run without a browser."""

from __future__ import annotations

import json
from typing import Any


class PageWindow:
    """What a page holds: per message index its head, where its parts start, its part count and those parts."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.held: dict[int, dict[str, Any]] = {}
        self.first = 0
        self.slots = 0
        self.count = 0

    def apply(self, update: dict[str, Any]) -> bool:
        """Take an update (as JSON, as the comm carries it); ``False``: it does not build on what the page holds,
        which must ask for the whole window."""
        update = json.loads(json.dumps(update))
        if update["base"] is not None and update["base"] != self.version:
            return False
        held = {} if update["base"] is None else self.held
        for op in update["messages"]:
            slot = held.get(op["i"])
            if op.get("reset") or slot is None:
                slot = {"head": op["head"], "from": op["from"], "parts": []}
            elif "head" in op:
                slot["head"] = op["head"]
            parts = slot["parts"]
            for j, part in op["parts"]:
                if j < len(parts):
                    parts[j] = part
                else:
                    parts.append(part)
            del parts[op["length"] :]
            slot["total"] = op["total"]
            held[op["i"]] = slot
        self.first, self.slots, self.count = update["first"], update["slots"], update["count"]
        self.held = {i: held[i] for i in range(self.first, self.first + self.slots)}
        self.version = update["version"]
        return True

    def messages(self) -> list[dict[str, Any]]:
        """The window's messages, each with the window of its parts."""
        return [{**self.held[i]["head"], "parts": self.held[i]["parts"]} for i in sorted(self.held)]

    def expected(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """What the window must hold of ``messages`` (the whole conversation after the event)."""
        return [
            {
                **messages[i],
                "parts": messages[i].get("parts", [])[slot["from"] : slot["from"] + len(slot["parts"])],
            }
            for i, slot in sorted(self.held.items())
        ]
