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
    "RUN_START_RECORD",
    "RunInputDecoder",
    "is_chat_record",
    "is_recorded",
    "recorded_event",
    "recorded_events",
    "recorded_time",
]

CHAT_RECORD_PREFIX = "agui-notebook/"
"""The ``name`` prefix of the CUSTOM events a chat writes in its log for what the user did (not the agent's
stream: the conversation assemblers and the protocol checker pass them by)."""


RUN_START_RECORD = CHAT_RECORD_PREFIX + "run-start"
"""The record a chat writes when a run begins, with the run's input (``chat/_records.py`` documents it)."""


class RunInputDecoder:
    """The ``RunAgentInput`` wire dicts of a log's ``run-start`` record values, decoded in log order.

    A chat writes each input's messages as a change of the thread's previous input (``{"from": <its run id or
    null>, "keep": n, "add": [...]}``); the decoder keeps the inputs it has rebuilt so that the next can name
    one. Messages are shared with the input named, not copied, so a long conversation costs one list per run.

    >>> decoder = RunInputDecoder()
    >>> decoder.decode({"input": {"runId": "r1"}, "messages": {"from": None, "keep": 0, "add": [{"id": "u1"}]}})
    {'runId': 'r1', 'messages': [{'id': 'u1'}]}
    >>> decoder.decode({"input": {"runId": "r2"}, "messages": {"from": "r1", "keep": 1, "add": [{"id": "u2"}]}})
    {'runId': 'r2', 'messages': [{'id': 'u1'}, {'id': 'u2'}]}
    """

    def __init__(self) -> None:
        self._seen: dict[str, list[Any]] = {}

    def decode(self, value: Any) -> dict[str, Any] | None:
        """The input of one ``run-start`` value (None where a run had no input, or a value that is not as a
        chat writes it)."""
        wire = value.get("input") if type(value) is dict else None
        change = value.get("messages") if type(value) is dict else None
        if type(wire) is not dict or type(change) is not dict:
            return None
        base_id, keep, add = change.get("from"), change.get("keep"), change.get("add")
        base = self._seen.get(base_id, []) if type(base_id) is str else []
        if type(keep) is not int or not 0 <= keep <= len(base) or type(add) is not list:
            return None
        messages = [*base[:keep], *add]
        run_id = wire.get("runId")
        if type(run_id) is str:
            self._seen[run_id] = messages
        return {**wire, "messages": messages}


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
