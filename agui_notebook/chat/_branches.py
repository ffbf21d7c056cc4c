"""A conversation as a tree of UIMessages: every edit and regeneration keeps what it replaced as a branch.

The tree is assistant-ui's ``MessageRepository`` model: each message has a parent (the message before it, or the
root) and an ordered list of children, the alternatives that followed it; each node remembers which child it
selected last, so switching at one fork brings back the choices made further down. The **path** is the list of
messages from the root following those selections: it is what the widget shows, what ``chat.messages`` holds and
what the next run's input carries. Alternatives are numbered by age at their fork (0 is the oldest).

Nodes are identified by their place, not by message ids: agents reuse ids (a scripted agent answering every run
as ``"msg-1"``), so two alternatives, or two messages of one path, may share an id.

>>> tree = MessageTree([{"id": "u1", "role": "user", "parts": []}, {"id": "a1", "role": "assistant", "parts": []}])
>>> tree.cut(1)  # regenerate the answer: the path stops before it, the answer is kept
>>> tree.sync([*tree.messages, {"id": "a2", "role": "assistant", "parts": []}])
>>> [(p["at"], p["index"], p["count"]) for p in tree.points()]
[(1, 1, 2)]
>>> [m["id"] for m in tree.select(1, 0)]
['u1', 'a1']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from agui_notebook._errors import MessageIndexError, MessageNotFoundError
from agui_notebook._types import JSON
from agui_notebook.wire._json import copy_json

__all__ = ["PREVIEW_CHARS", "Branch", "MessageTree", "edited_parts"]

PREVIEW_CHARS = 80
"""A branch's ``preview`` keeps this many characters of its first message's text."""


@dataclass(frozen=True)
class Branch:
    """One alternative at a fork of the conversation (what ``ChatWidget.branches`` returns).

    ``index`` is its number at the fork (0 the oldest), ``selected`` whether the conversation follows it now,
    ``messages`` its messages from the fork on (copies, following the choices last made inside it),
    ``message_ids`` their ids and ``preview`` the start of its first message's text.
    """

    index: int
    selected: bool
    message_ids: tuple[str, ...]
    preview: str
    messages: list[dict[str, JSON]] = field(repr=False)


@dataclass(eq=False)
class _Node:
    message: dict[str, JSON]
    parent: _Node | None
    children: list[_Node] = field(default_factory=list)
    selected: _Node | None = None  # the child the path follows through here (remembered off the path too)


def _preview(message: Mapping[str, Any]) -> str:
    parts = message.get("parts")
    parts = parts if isinstance(parts, list) else []
    texts = [
        p["text"]
        for p in parts
        if isinstance(p, dict) and p.get("type") == "text" and type(p.get("text")) is str
    ]
    text = " ".join(" ".join(texts).split())
    if not text:
        kinds = [str(p.get("type")) for p in parts if isinstance(p, dict)]
        text = f"[{', '.join(kinds)}]" if kinds else ""
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def edited_parts(
    message: Mapping[str, Any], text: str, files: list[dict[str, JSON]] | None = None
) -> list[dict[str, JSON]]:
    """The parts of user message ``message`` edited to say ``text``: its text parts become one (where the first
    was), its other parts (attachments, data) stay; ``files`` given replace all of those, first, as ``send`` puts
    them. An empty ``text`` leaves no text part.

    >>> old = {"parts": [{"type": "file", "mediaType": "image/png", "url": "data:,"}, {"type": "text", "text": "a"}]}
    >>> [p["type"] for p in edited_parts(old, "b")], edited_parts(old, "b", files=[])
    (['file', 'text'], [{'type': 'text', 'text': 'b'}])
    """
    new_text = [{"type": "text", "text": text}] if text else []
    if files is not None:
        return [*files, *new_text]
    parts: list[dict[str, JSON]] = []
    placed = False
    for part in message.get("parts") or []:
        if isinstance(part, dict) and part.get("type") == "text":
            if not placed:
                parts.extend(new_text)
                placed = True
            continue
        parts.append(copy_json(part))
    return parts if placed else [*parts, *new_text]


def _message_id(message: Mapping[str, Any]) -> str:
    value = message.get("id")
    return value if type(value) is str else str(value)


class MessageTree:
    """The branches of one conversation; ``messages`` (the path) is the conversation shown.

    The widget keeps its live message list (which runs stream into) equal to the path: it calls ``sync`` with
    that list before reading the tree, ``cut`` before it drops messages to run again, and ``select`` to switch.
    """

    def __init__(self, messages: Iterable[dict[str, JSON]] = ()) -> None:
        self._root = _Node({}, None)
        self._path: list[_Node] = []
        self._pending: int | None = (
            None  # cut here, the old selection kept until a new message takes its place
        )
        self.sync(list(messages))

    # ------------------------------------------------------------------------------------------ the path
    @property
    def messages(self) -> list[dict[str, JSON]]:
        """The path's messages (the dicts last synced, not copies)."""
        return [node.message for node in self._path]

    @property
    def forked(self) -> bool:
        """Whether the conversation has any branch (a tree that is more than its path)."""
        nodes = [self._root, *self._path]
        return bool(nodes[-1].children) or any(len(node.children) > 1 for node in nodes)

    def sync(self, messages: list[dict[str, JSON]]) -> None:
        """Make the path hold ``messages``, the live list: a message at a known place is that node's new content;
        messages past the end become new nodes (after a ``cut``, a new alternative at the fork).

        A list shorter than the path means the agent itself dropped messages (a ``MESSAGES_SNAPSHOT``): the nodes
        past its end leave the tree, as they left the conversation.
        """
        path = self._path
        for node, message in zip(path, messages, strict=False):
            node.message = message
        if len(messages) < len(path):
            gone = path[len(messages)]
            parent = self._parent_of(len(messages))
            parent.children.remove(gone)
            parent.selected = parent.children[-1] if parent.children else None
            del path[len(messages) :]
            self._pending = len(path) if parent.children else None
        for message in messages[len(path) :]:
            parent = self._parent_of(len(path))
            node = _Node(message, parent)
            parent.children.append(node)
            parent.selected = node
            path.append(node)
            self._pending = None

    def cut(self, at: int) -> None:
        """Stop the path before place ``at`` (to run again from there); what followed stays as a branch.

        The fork keeps its old selection until a message arrives at ``at`` (``sync``); ``settle`` brings the old
        branch back if none does.
        """
        if not 0 <= at <= len(self._path):
            raise MessageIndexError(f"cannot cut the conversation at {at}: it has {len(self._path)} messages")
        for node in self._path[at:]:
            node.message = copy_json(node.message)  # off the path: no run may change it in place any more
        del self._path[at:]
        self._pending = at if self._parent_of(at).children else None

    def settle(self) -> bool:
        """At rest (no run): a cut that no message filled gets its old branch back. True when the path changed."""
        if self._pending is None:
            return False
        parent = self._parent_of(len(self._path))
        self._pending = None
        if not parent.children:
            return False
        if parent.selected is None:
            parent.selected = parent.children[-1]
        self._path.extend(self._follow(parent.selected))
        return True

    def select(self, at: int, index: int) -> list[dict[str, JSON]]:
        """Switch the fork at place ``at`` to alternative ``index``; returns the new path's messages, which the
        caller makes its live list."""
        alternatives = self.alternatives(at)
        if not 0 <= index < len(alternatives):
            raise MessageIndexError(
                f"branch {index} does not exist at message {at}: there are {len(alternatives)} (0 to "
                f"{len(alternatives) - 1})"
            )
        chosen = alternatives[index]
        self._parent_of(at).selected = chosen
        for node in self._path[at:]:
            node.message = copy_json(node.message)
        del self._path[at:]
        self._path.extend(self._follow(chosen))
        self._pending = None
        return self.messages

    def position(self, message_id: str) -> int:
        """The place on the path of the message with this id (the latest, when agents reused an id);
        :class:`MessageNotFoundError` when the path has none (``find`` looks through the branches too)."""
        at = self._path_position(message_id)
        if at is None:
            self.find(message_id)  # says whether it is in a branch at least
            raise MessageNotFoundError(f"message {message_id!r} is on a branch that is not shown")
        return at

    def _path_position(self, message_id: str) -> int | None:
        for at in range(len(self._path) - 1, -1, -1):
            if _message_id(self._path[at].message) == message_id:
                return at
        return None

    def find(self, message_id: str) -> _Node:
        """The node of the message with this id: on the path the latest one, else the newest one off it (the
        branches made last are searched first). :class:`MessageNotFoundError` when there is none."""
        at = self._path_position(message_id)
        if at is not None:
            return self._path[at]
        stack = list(self._root.children)  # popped from the end: the branch made last is searched first
        while stack:
            node = stack.pop()
            if _message_id(node.message) == message_id:
                return node
            stack.extend(node.children)
        raise MessageNotFoundError(f"no message {message_id!r} in the conversation or its branches")

    def on_path(self, node: _Node) -> bool:
        """Whether ``node`` is on the path."""
        return any(n is node for n in self._path)

    def place(self, node: _Node) -> int:
        """The place of ``node`` on the path (-1 when it is off it)."""
        return next((at for at, n in enumerate(self._path) if n is node), -1)

    def lineage(self, node: _Node) -> list[tuple[_Node, int]]:
        """The nodes from the root down to ``node``, each with its number among its siblings."""
        chain = []
        current: _Node | None = node
        while current is not None and current is not self._root:
            parent = current.parent if current.parent is not None else self._root
            chain.append((current, parent.children.index(current)))
            current = current.parent
        return chain[::-1]

    def reveal(self, node: _Node) -> list[dict[str, JSON]]:
        """Make the path lead through ``node`` (each fork above it selects the branch it is on, and below it the
        choices last made there); returns the new path's messages."""
        chain = []
        current: _Node | None = node
        while current is not None and current is not self._root:
            chain.append(current)
            current = current.parent
        for child in chain:
            child.parent.selected = child  # type: ignore[union-attr]
        for old in self._path:
            old.message = copy_json(old.message)  # off the path: no run may change it in place any more
        self._path = self._follow(self._root.selected)
        self._pending = None
        return self.messages

    def branches_of(self, node: _Node) -> list[Branch]:
        """The alternatives at the fork where ``node`` sits (on the path or not), oldest first."""
        siblings = node.parent.children if node.parent is not None else [node]
        result = []
        for index, sibling in enumerate(siblings):
            messages = [copy_json(n.message) for n in self._follow(sibling)]
            result.append(
                Branch(
                    index=index,
                    selected=self.on_path(sibling),
                    message_ids=tuple(_message_id(m) for m in messages),
                    preview=_preview(sibling.message),
                    messages=messages,
                )
            )
        return result

    # ------------------------------------------------------------------------------------------ the forks
    def alternatives(self, at: int) -> list[_Node]:
        if not 0 <= at < len(self._path):
            raise MessageIndexError(f"no message {at} in the conversation (it has {len(self._path)})")
        return self._parent_of(at).children

    def branches(self, at: int) -> list[Branch]:
        """The alternatives at the fork where message ``at`` of the path sits (one when it never forked)."""
        chosen = self._path[at] if 0 <= at < len(self._path) else None
        result = []
        for index, node in enumerate(self.alternatives(at)):
            messages = [copy_json(n.message) for n in self._follow(node)]
            result.append(
                Branch(
                    index=index,
                    selected=node is chosen,
                    message_ids=tuple(_message_id(m) for m in messages),
                    preview=_preview(node.message),
                    messages=messages,
                )
            )
        return result

    def points(self) -> list[dict[str, int]]:
        """The forks along the path, for the front end's pickers: ``{"at", "index", "count"}`` for every place
        with more than one alternative (during a run after a cut, the one being written is counted already)."""
        points = []
        parent = self._root
        for at, node in enumerate(self._path):
            if len(parent.children) > 1:
                points.append({"at": at, "index": parent.children.index(node), "count": len(parent.children)})
            parent = node
        if self._pending is not None and parent.children:
            count = len(parent.children) + 1
            points.append({"at": len(self._path), "index": count - 1, "count": count})
        return points

    def _parent_of(self, at: int) -> _Node:
        return self._path[at - 1] if at > 0 else self._root

    @staticmethod
    def _follow(node: _Node | None) -> list[_Node]:
        nodes = []
        while node is not None:
            nodes.append(node)
            node = node.selected
        return nodes

    # ------------------------------------------------------------------------------------------ saving
    def to_saved(self) -> dict[str, JSON]:
        """The tree as the saved conversation keeps it (``_saved.py``): nodes parents first, each with its parent's
        and its selected child's number; nodes on the path name their place in ``messages`` (``"at"``), the
        others hold their message."""
        numbers: dict[int, int] = {}
        order: list[_Node] = []
        stack = list(reversed(self._root.children))
        while stack:
            node = stack.pop()
            numbers[id(node)] = len(order)
            order.append(node)
            stack.extend(reversed(node.children))
        on_path = {id(node): at for at, node in enumerate(self._path)}
        end = self._path[-1] if self._path else self._root

        def selected(node: _Node) -> int | None:
            # A cut still waiting for its new message saves as the path's end (it has no selection on disk).
            if node is end and self._pending is not None:
                return None
            return numbers[id(node.selected)] if node.selected is not None else None

        nodes: list[JSON] = []
        for node in order:
            entry: dict[str, JSON] = {
                "parent": numbers[id(node.parent)] if node.parent is not self._root else None,
                "selected": selected(node),
            }
            if id(node) in on_path:
                entry["at"] = on_path[id(node)]
            else:
                entry["message"] = node.message
            nodes.append(entry)
        return {"selected": selected(self._root), "nodes": nodes}

    @classmethod
    def from_saved(cls, messages: list[dict[str, JSON]], saved: Any, where: str) -> MessageTree:
        """The tree ``to_saved`` wrote, around the path ``messages``; a malformed one is a ``ValueError`` naming
        ``where`` and the JSON path of the bad value."""

        def bad(path: str, problem: str) -> ValueError:
            return ValueError(f"{where}: branches{path}: {problem}")

        tree = cls()
        if not isinstance(saved, dict) or not isinstance(saved.get("nodes"), list):
            raise bad("", "not an object with a 'nodes' list")
        nodes: list[_Node] = []
        selections: list[Any] = []
        seen_at: dict[int, int] = {}  # id(node) -> its place on the path
        for index, entry in enumerate(saved["nodes"]):
            where_node = f".nodes[{index}]"
            if not isinstance(entry, dict):
                raise bad(where_node, "not an object")
            parent_number = entry.get("parent")
            if parent_number is None:
                parent = tree._root
            elif type(parent_number) is int and 0 <= parent_number < index:
                parent = nodes[parent_number]
            else:
                raise bad(f"{where_node}.parent", f"{parent_number!r} is not the number of an earlier node")
            if "at" in entry:
                at = entry["at"]
                if type(at) is not int or not 0 <= at < len(messages) or at in seen_at.values():
                    raise bad(
                        f"{where_node}.at", f"{at!r} is not a free place in the {len(messages)} messages"
                    )
                message = messages[at]
            else:
                stored = entry.get("message")
                if not isinstance(stored, dict):
                    raise bad(f"{where_node}.message", "not a message object")
                message = stored
            node = _Node(message, parent)
            if "at" in entry:
                seen_at[id(node)] = entry["at"]
            parent.children.append(node)
            nodes.append(node)
            selections.append(entry.get("selected"))
        owners: list[tuple[int | None, Any]] = [(None, saved.get("selected")), *enumerate(selections)]
        for owner_index, number in owners:
            owner = tree._root if owner_index is None else nodes[owner_index]
            if number is None:
                continue
            label = ".selected" if owner_index is None else f".nodes[{owner_index}].selected"
            if type(number) is not int or not 0 <= number < len(nodes) or nodes[number].parent is not owner:
                raise bad(label, f"{number!r} is not the number of one of its children")
            owner.selected = nodes[number]
        tree._path = cls._follow(tree._root.selected)
        if len(tree._path) != len(messages) or any(
            seen_at.get(id(n)) != at for at, n in enumerate(tree._path)
        ):
            raise bad("", "the selected branches do not lead through the saved messages in order")
        end = tree._path[-1] if tree._path else tree._root
        tree._pending = len(tree._path) if end.children else None
        return tree
