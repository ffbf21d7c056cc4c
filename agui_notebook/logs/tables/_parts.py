"""``parts_df``: the parts of UIMessages as a table, one row per part, with a one-line summary of each.

What a notebook shows to see what an agent streamed: which parts a message has, in which state, and what they
hold, without printing the nested dicts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pandas as pd
from pydantic import BaseModel

from agui_notebook._options import keyword_options, listed
from agui_notebook.wire._json import encode_json

__all__ = ["parts_df"]

SUMMARY_CHARS = 80
"""The longest ``summary``; a longer one is cut with an ellipsis."""

COLUMNS = ["message_id", "role", "part", "type", "state", "tool_name", "tool_call_id", "summary"]


@keyword_options
def parts_df(messages: Any, *, summary_chars: int = SUMMARY_CHARS) -> pd.DataFrame:
    """One row per part of ``messages``: UIMessages (dicts or models), one UIMessage, or anything with a
    ``messages`` list of them (a :class:`~agui_notebook.ChatWidget`).

    Columns: ``message_id``, ``role``, ``part`` (its index in the message), ``type``, ``state`` (tool, text and
    reasoning states; empty when the part has none), ``tool_name`` and ``tool_call_id`` (tool parts), and
    ``summary``: the text of a text or reasoning part on one line, ``input -> output`` of a tool (its error text or
    approval once it has one), the data of a data part as JSON, a file's media type and name, a source's title or
    URL, each cut to ``summary_chars``.

    >>> message = {"id": "a1", "role": "assistant", "parts": [
    ...     {"type": "text", "text": "Sunny,\\n21 °C.", "state": "done"},
    ...     {"type": "tool-weather", "toolCallId": "c1", "state": "output-available",
    ...      "input": {"city": "Paris"}, "output": {"temp": 21}}]}
    >>> parts_df([message])[["type", "state", "summary"]]
               type            state                             summary
    0          text             done                        Sunny, 21 °C.
    1  tool-weather  output-available  {"city":"Paris"} -> {"temp":21}
    """
    rows = []
    for message in _messages(messages):
        wire = _plain(message)
        message_id, role = wire.get("id", ""), wire.get("role", "")
        for index, part in enumerate(wire.get("parts") or ()):
            part = _plain(part)
            kind = str(part.get("type", ""))
            is_tool = kind.startswith("tool-") or kind == "dynamic-tool"
            rows.append(
                {
                    "message_id": message_id,
                    "role": role,
                    "part": index,
                    "type": kind,
                    "state": str(part.get("state") or ""),
                    "tool_name": (part.get("toolName") or kind.removeprefix("tool-")) if is_tool else "",
                    "tool_call_id": part.get("toolCallId", "") if is_tool else "",
                    "summary": _cut(_summary(kind, part, is_tool), summary_chars),
                }
            )
    return pd.DataFrame(rows, columns=COLUMNS)


def _messages(source: Any) -> Iterable[Any]:
    if isinstance(source, (Mapping, BaseModel)):
        return [source]
    held = getattr(source, "messages", None)
    if held is not None and not callable(held):
        return listed(held, "messages", "UIMessages")
    return listed(source, "messages", "UIMessages (dicts or models), or a ChatWidget")


def _plain(value: Any) -> Mapping[str, Any]:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return value if isinstance(value, Mapping) else {}


def _summary(kind: str, part: Mapping[str, Any], is_tool: bool) -> str:
    if kind in ("text", "reasoning"):
        return " ".join(str(part.get("text", "")).split())
    if is_tool:
        head = _json(part.get("input"))
        if part.get("errorText"):
            return f"{head} -> error: {part['errorText']}"
        approval = part.get("approval")
        if part.get("state") == "output-denied" or (
            isinstance(approval, Mapping) and approval.get("approved") is False
        ):
            reason = approval.get("reason") if isinstance(approval, Mapping) else None
            return f"{head} -> denied" + (f": {reason}" if reason else "")
        if "output" in part:
            return f"{head} -> {_json(part['output'])}"
        return head
    if kind.startswith("data-"):
        return _json(part.get("data"))
    if kind in ("file", "reasoning-file"):
        return " ".join(str(p) for p in (part.get("mediaType"), part.get("filename")) if p)
    if kind == "source-url":
        return str(part.get("title") or part.get("url") or "")
    if kind == "source-document":
        return str(part.get("title") or part.get("filename") or "")
    if kind == "custom":
        return str(part.get("kind", ""))
    return ""


def _json(value: Any) -> str:
    return value if isinstance(value, str) else encode_json(value)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"
