"""The user's rating of an answer, kept in the UIMessage's metadata: ``metadata["agui-notebook"]["feedback"]``.

``{"rating": "up" | "down", "at": <ISO 8601 UTC>}`` plus ``"comment"`` when the user wrote one (assistant-ui keeps
``metadata.submittedFeedback``, LangSmith a score and a comment: the rating and its optional comment are the
common ground). The metadata travels with the messages: ``chat.messages``, ``save``/``load`` and the notebook's
saved widget state keep it; the AG-UI run input does not carry it (only ``metadata["ag-ui"]["metadata"]`` goes
back to the agent).

>>> message = {"id": "m", "role": "assistant", "parts": [], "metadata": {"ag-ui": {"runId": "r"}}}
>>> entry = feedback_entry("down", "too long", 1_764_590_400_000_000_000)
>>> with_feedback(message["metadata"], entry)["agui-notebook"]
{'feedback': {'rating': 'down', 'at': '2025-12-01T12:00:00.000Z', 'comment': 'too long'}}
>>> with_feedback({"agui-notebook": {"feedback": entry}}, None)
{}
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from agui_notebook._errors import InputTypeError, OptionError
from agui_notebook._shown import shown
from agui_notebook._types import JSON
from agui_notebook.bridge._messages import AGUI_KEY, OWN_METADATA_KEY

__all__ = [
    "FEEDBACK_KEY",
    "RATINGS",
    "agui_message_ids",
    "feedback_entry",
    "message_feedback",
    "with_feedback",
]

FEEDBACK_KEY = "feedback"
"""The key under ``metadata["agui-notebook"]`` that holds the rating."""

RATINGS = ("up", "down")


def iso_utc(ns: int) -> str:
    """Nanoseconds since the epoch as ISO 8601 UTC with milliseconds, as JavaScript's ``toISOString`` writes it."""
    moment = dt.datetime.fromtimestamp(ns // 1_000_000 / 1000, tz=dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def check_rating(rating: Any, comment: Any) -> None:
    """Refuse a rating other than ``"up"``, ``"down"`` or ``None``, and a comment that is not text."""
    if rating is not None and rating not in RATINGS:
        raise OptionError(f"rating must be 'up', 'down' or None, got {shown(rating)}")
    if comment is not None and type(comment) is not str:
        raise InputTypeError(f"comment must be a string, got {type(comment).__name__}")
    if rating is None and comment:
        raise OptionError("a comment needs a rating ('up' or 'down')")


def feedback_entry(rating: str, comment: str | None, at_ns: int) -> dict[str, JSON]:
    """The metadata entry for a rating given at ``at_ns`` (an empty comment is no comment)."""
    entry: dict[str, JSON] = {"rating": rating, "at": iso_utc(at_ns)}
    if comment:
        entry["comment"] = comment
    return entry


def with_feedback(metadata: JSON, entry: dict[str, JSON] | None) -> dict[str, JSON]:
    """A copy of a message's ``metadata`` with ``entry`` as its feedback (``None`` removes it)."""
    out = dict(metadata) if type(metadata) is dict else {}
    own = dict(out.get(OWN_METADATA_KEY) or {}) if type(out.get(OWN_METADATA_KEY)) is dict else {}
    if entry is None:
        own.pop(FEEDBACK_KEY, None)
    else:
        own[FEEDBACK_KEY] = entry
    if own:
        out[OWN_METADATA_KEY] = own
    else:
        out.pop(OWN_METADATA_KEY, None)
    return out


def message_feedback(message: dict[str, JSON]) -> dict[str, JSON] | None:
    """The feedback entry of a UIMessage dict, or None."""
    metadata = message.get("metadata")
    own = metadata.get(OWN_METADATA_KEY) if type(metadata) is dict else None
    entry = own.get(FEEDBACK_KEY) if type(own) is dict else None
    return entry if type(entry) is dict else None


def agui_message_ids(message: dict[str, JSON]) -> list[str]:
    """The AG-UI ids of the text and reasoning messages a UIMessage was built from (its parts' provider metadata).

    >>> agui_message_ids({"parts": [{"type": "text", "providerMetadata": {"ag-ui": {"messageId": "t1"}}}]})
    ['t1']
    """
    ids: list[str] = []
    for part in message.get("parts") or ():
        if type(part) is not dict or part.get("type") not in ("text", "reasoning"):
            continue
        provider = part.get("providerMetadata")
        ours = provider.get(AGUI_KEY) if type(provider) is dict else None
        message_id = ours.get("messageId") if type(ours) is dict else None
        if type(message_id) is str and message_id not in ids:
            ids.append(message_id)
    return ids
