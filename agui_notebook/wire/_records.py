"""The recorder's line shape, ``{"received_ns": ..., "event": {...}}``, told apart from a bare event once; and
the names of a chat's own records among the events of its log (``chat/_records.py`` writes them).

>>> is_recorded({"received_ns": 5, "event": {"type": "RUN_STARTED"}}), is_recorded({"type": "CUSTOM"})
(True, False)
>>> is_chat_record({"type": "CUSTOM", "name": "agui-notebook/send", "value": {}})
True
"""

from __future__ import annotations

from itertools import repeat
from typing import Any

__all__ = [
    "CHAT_RECORD_PREFIX",
    "is_chat_record",
    "is_recorded",
    "recorded_event",
    "recorded_events",
    "recorded_time",
]

CHAT_RECORD_PREFIX = "agui-notebook/"
"""The ``name`` prefix of the CUSTOM events a chat writes in its log for what the user did (not the agent's
stream: the conversation assemblers and the protocol checker pass them by)."""


def is_chat_record(event: Any) -> bool:
    """Whether ``event`` is one of a chat's own records (a CUSTOM event named ``agui-notebook/...``)."""
    if type(event) is not dict or event.get("type") != "CUSTOM":
        return False
    name = event.get("name")
    return type(name) is str and name.startswith(CHAT_RECORD_PREFIX)


def is_recorded(value: Any) -> bool:
    """Whether a decoded line is a recorder record rather than an event: an object with ``event``, no ``type``.

    A record's ``received_ns`` (integer nanoseconds) is optional, and an ``event`` that is not an object is
    reported where the record is read.
    """
    return type(value) is dict and "type" not in value and "event" in value


def recorded_time(record: dict[str, Any]) -> int | None:
    """A record's ``received_ns`` when it is an integer (a bool is not), else None."""
    value = record.get("received_ns")
    return value if type(value) is int else None


def recorded_event(value: Any) -> Any:
    """The event inside a recorder record (see :func:`is_recorded`), else ``value`` itself."""
    return value["event"] if is_recorded(value) else value


def recorded_events(values: list[dict[str, Any]]) -> list[Any]:
    """Decoded lines (objects) as events: each recorder record unwrapped, bare events as they are (a log may mix
    both). The list itself comes back when no line is a record.

    >>> recorded_events([{"received_ns": 1, "event": {"type": "A"}}, {"type": "B"}])
    [{'type': 'A'}, {'type': 'B'}]
    """
    if not values:
        return values
    if not is_recorded(values[0]) and not any(map(dict.__contains__, values, repeat("event"))):
        # One C-level look for an ``event`` key (a record's, or a RAW event's) keeps bare logs at parsing speed.
        return values
    return [value["event"] if is_recorded(value) else value for value in values]
