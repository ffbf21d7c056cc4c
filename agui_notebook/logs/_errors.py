"""How the logs package reports unreadable input: the intake's EventParseError, and a warning for skipped lines."""

from __future__ import annotations

from agui_notebook.agui._intake import EventParseError

__all__ = ["EventLogWarning", "EventParseError"]


class EventLogWarning(UserWarning):
    """Some input could not be read and was skipped (``errors="collect"``, or a recorder given non-events)."""
