"""What the inspector's page holds of the conversation: a window of messages (and of a long message's parts)
around a focus, and the update that brings the page's window to another event's conversation, sending only the
message heads and parts that differ from what the page last got.

The page keeps, per message index in its window, the message without its parts (its ``head``), where its
window of parts starts (``from``), how many parts the message has (``total``) and those parts. An update is::

    {"kind": "conversation", "version": 4, "base": 3, "count": 1038, "first": 1020, "slots": 18,
     "messages": [{"i": 1037, "parts": [[5, {...}]], "length": 6, "total": 6}]}

``base`` is the version it applies to (``None``: to nothing, the page starts over); ``messages`` lists only the
slots that changed: ``reset`` (start the slot over), ``head`` (when it changed), ``from``, ``parts`` (``[local
index, part]`` pairs that changed), ``length`` (parts in the window) and ``total``. The page drops the messages
outside ``first`` to ``first + slots``. A page whose version is not the update's ``base`` asks for the whole window.

>>> window = ConversationWindow(parts=2)
>>> messages = [{"id": "u", "role": "user", "parts": [{"type": "text", "text": "Hi"}]},
...             {"id": "a", "role": "assistant", "parts": [{"type": "text", "text": str(i)} for i in range(5)]}]
>>> update = window.update(messages, (1, 4))
>>> update["first"], update["slots"], update["messages"][0]["from"], update["messages"][0]["length"]
(1, 1, 3, 2)
>>> messages[1]["parts"][4]["text"] = "4!"
>>> [m["parts"] for m in window.update(messages, (1, 4))["messages"]]
[[[1, {'type': 'text', 'text': '4!'}]]]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agui_notebook._types import JSON
from agui_notebook.wire._json import encode_json

__all__ = ["WINDOW_PARTS", "ConversationWindow"]

WINDOW_PARTS = 80
"""Parts (a message without parts counts as one) a window holds at most: what a page shows around the selected
event's part, and a screen or two more either side (a jump draws them all: the page's cost per seek)."""


@dataclass(slots=True)
class _Slot:
    """A message as the page last got it."""

    message_id: Any
    head: str
    start: int
    total: int
    parts: list[str]


def window_layout(
    messages: Sequence[dict[str, JSON]],
    focus: tuple[int, int],
    budget: int = WINDOW_PARTS,
    kept: dict[int, int] | None = None,
) -> list[tuple[int, int, int]]:
    """The ``(message index, first part, end part)`` of each message of the window around ``focus`` (a message
    index and a part index; ``-1``: the message's last part), at most ``budget`` parts in all. ``kept``: where
    the page's window of each message's parts starts; the focus message's stays while the focus is in it (a
    step through a long message moves the window once every half window, not at every part).

    >>> parts = lambda n: {"parts": [{}] * n}
    >>> window_layout([parts(3), parts(10), parts(3)], (1, 5), budget=8)
    [(1, 1, 9)]
    >>> window_layout([parts(3), parts(10), parts(3)], (1, 5), budget=12)
    [(0, 1, 3), (1, 0, 10)]
    """
    if not messages:
        return []
    at = min(max(focus[0], 0), len(messages) - 1)
    counts = [len(messages[at].get("parts") or ())]
    total = counts[0]
    size = min(max(total, 1), budget)
    part = total - 1 if focus[1] < 0 else min(focus[1], max(total - 1, 0))
    # The focus in the middle (near a message's end, the window holds fewer parts: room for those that come).
    start = 0 if total <= budget else max(0, part - size // 2)
    before_start = None if kept is None else kept.get(at)
    if total > budget and before_start is not None and before_start <= part < before_start + size:
        start = before_start
    end = min(total, start + size)
    layout = [(at, start, end)]
    left = budget - max(end - start, 1)
    before, after = at - 1, at + 1
    earlier: list[tuple[int, int, int]] = []
    later: list[tuple[int, int, int]] = []
    turn = 0
    while left > 0 and (before >= 0 or after < len(messages)):
        take_earlier = before >= 0 and (turn % 2 == 0 or after >= len(messages))
        index = before if take_earlier else after
        count = len(messages[index].get("parts") or ())
        taken = min(count, left)
        if take_earlier:
            earlier.append((index, count - taken, count))
            before -= 1
        else:
            later.append((index, 0, taken))
            after += 1
        left -= max(taken, 1)
        if taken < count:  # this side is cut: the rest goes to the other
            if take_earlier:
                before = -1
            else:
                after = len(messages)
        turn += 1
    return [*reversed(earlier), *layout, *later]


class ConversationWindow:
    """The kernel's record of the window its page holds, and the updates that move it (see the module)."""

    def __init__(self, *, parts: int = WINDOW_PARTS) -> None:
        self.parts = parts
        self.version = 0
        self.focus: tuple[int, int] = (-1, -1)
        """Where the last window was centred."""
        self._sent: dict[int, _Slot] | None = None

    def forget(self) -> None:
        """The page holds nothing the next update may build on (it asked for the whole window)."""
        self._sent = None

    def update(self, messages: Sequence[dict[str, JSON]], focus: tuple[int, int]) -> dict[str, JSON]:
        """The update that brings the page's window to ``messages`` around ``focus``."""
        self.focus = focus
        sent = self._sent
        kept = None if sent is None else {index: slot.start for index, slot in sent.items()}
        layout = window_layout(messages, focus, self.parts, kept)
        base = None if sent is None else self.version
        self.version += 1
        slots: dict[int, _Slot] = {}
        changed: list[JSON] = []
        for index, start, end in layout:
            message = messages[index]
            parts = message.get("parts") or []
            head_value = {key: value for key, value in message.items() if key != "parts"}
            head = encode_json(head_value)
            encoded = [encode_json(part) for part in parts[start:end]]
            slot = _Slot(message.get("id"), head, start, len(parts), encoded)
            slots[index] = slot
            old = None if sent is None else sent.get(index)
            op: dict[str, JSON] = {"i": index, "length": end - start, "total": len(parts)}
            if old is None or old.message_id != slot.message_id or old.start != start:
                op.update(reset=True, head=head_value, **{"from": start})
                op["parts"] = [[j, part] for j, part in enumerate(parts[start:end])]
            else:
                if old.head != head:
                    op["head"] = head_value
                op["parts"] = [
                    [j, parts[start + j]]
                    for j, text in enumerate(encoded)
                    if j >= len(old.parts) or old.parts[j] != text
                ]
                if (
                    not op["parts"]
                    and "head" not in op
                    and (len(old.parts), old.total) == (len(encoded), len(parts))
                ):
                    continue  # the page has it as it is
            changed.append(op)
        self._sent = slots
        return {
            "kind": "conversation",
            "version": self.version,
            "base": base,
            "count": len(messages),
            "first": layout[0][0] if layout else 0,
            "slots": len(layout),
            "messages": changed,
        }
