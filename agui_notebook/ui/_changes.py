"""Change records: what one chunk or event did to a UIMessage, for live rendering.

Reducers report each change so the widget can send a small patch instead of the whole message. A change always
refers to the message's state *after* it was applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

ChangeKind = Literal["message", "part", "text", "metadata", "parts", "length"]
"""
- ``message``: the message at ``message_index`` is new or was replaced as a whole (send it all).
- ``part``: ``parts[part_index]`` was added or replaced (send that part).
- ``text``: ``delta`` was appended to ``parts[part_index]["text"]`` and nothing else in the part changed.
- ``metadata``: the message's ``metadata`` changed (send it all).
- ``parts``: the parts list changed in a way indexes cannot describe (parts removed); send every part.
- ``length``: the message list was cut to ``message_index`` messages (a ``MESSAGES_SNAPSHOT`` removed some).
"""


@dataclass(slots=True, frozen=True)
class MessageChange:
    """One change to ``messages[message_index]`` (``message_index`` is 0 for a single-message reducer)."""

    kind: ChangeKind
    message_index: int = 0
    part_index: int = -1
    delta: str = ""
