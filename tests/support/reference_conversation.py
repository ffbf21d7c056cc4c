"""The reference conversation of a stream, and the shape two conversations are compared by.

The reference for what a stream of AG-UI events shows is ``@ag-ui/client``'s messages (``apply_events`` matches
it exactly; the node differential tests hold that) turned into UIMessages by ``to_ui_messages``. Our engine
(``ui_messages_from_events``, the live chat) builds one assistant UIMessage per run as the AI SDK does, so the two
agree on what a reader sees, not on every id:

- an assistant UIMessage's id and metadata are the engine's (the run's), and ``step-start`` parts are where a
  step began, which AG-UI messages do not record; an empty text part shows nothing;
- consecutive assistant UIMessages read as one turn (``to_ui_messages`` groups an assistant turn's messages
  positionally; the engine keeps one message per run);
- a run that ended in an error with nothing shown keeps an assistant UIMessage holding the error in its metadata
  (``@ag-ui/client`` keeps no message for it).

Everything else must be equal: the user's messages (ids included) in their places, every part's kind, text,
state, tool call id, input, output and error, and no empty assistant message.
"""

from __future__ import annotations

from typing import Any

from agui_notebook import apply_events, parse_events, to_ui_messages
from agui_notebook.agui._tool_outcome import FAILED_CLOSEOUT, failed_call

_PROVIDER_KEYS = frozenset({"providerMetadata", "callProviderMetadata", "resultProviderMetadata"})


def reference_ui_messages(events: Any) -> list[dict[str, Any]]:
    """``to_ui_messages`` of ``@ag-ui/client``'s messages for ``events`` (Python's ``apply_events``).

    With the engine's one documented difference: pydantic-ai closes every call still open when its run fails
    with one text (``FAILED_CLOSEOUT``); the engine shows the RUN_ERROR's message on the call that failed and
    marks the others cancelled (``failed_call``), as ``tool_calls_df`` does. Applied here when the stream has one
    RUN_ERROR, so that the call it blames is unambiguous.
    """
    events = list(parse_events(events))
    messages = to_ui_messages(apply_events(events).messages)
    errors = [e.message for e in events if e.type == "RUN_ERROR"]
    if len(errors) != 1:
        return messages
    for message in messages:
        closed = [p for p in message["parts"] if p.get("errorText") == FAILED_CLOSEOUT]
        calls = [(p["toolCallId"], p.get("toolName") or p["type"].removeprefix("tool-")) for p in closed]
        culprit = failed_call(calls, errors[0])
        for part, (call_id, _) in zip(closed, calls, strict=True):
            if culprit is None or call_id == culprit:
                part["errorText"] = errors[0]
            else:
                part["errorText"] = f"Cancelled: {dict(calls)[culprit]} failed"
    return messages


def _comparable_part(part: dict[str, Any]) -> dict[str, Any]:
    kept = {k: v for k, v in part.items() if k not in _PROVIDER_KEYS}
    if kept.get("type") == "reasoning":
        kept.pop("id", None)
    return kept


def _shows(part: dict[str, Any]) -> bool:
    """Whether a reader sees the part: not a step start, not an empty text (an assistant message that opens a
    tool call with content ``""``, as pydantic-ai's does, is an empty text part in ``to_ui_messages``)."""
    kind = part.get("type")
    return kind != "step-start" and not (kind == "text" and part.get("text") == "")


def _is_error_only(message: dict[str, Any]) -> bool:
    info = ((message.get("metadata") or {}).get("ag-ui")) or {}
    return not message.get("parts") and "error" in info


def conversation_shape(messages: list[Any]) -> list[dict[str, Any]]:
    """What a reader sees of ``messages`` (UIMessage dicts or models), for comparing with the reference.

    >>> conversation_shape([
    ...     {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]},
    ...     {"id": "r1", "role": "assistant", "parts": [{"type": "step-start"}, {"type": "text", "text": "a"}]},
    ...     {"id": "r2", "role": "assistant", "parts": [{"type": "text", "text": "b"}]},
    ... ])
    [{'role': 'user', 'id': 'u1', 'parts': [{'type': 'text', 'text': 'hi'}]},
     {'role': 'assistant', 'parts': [{'type': 'text', 'text': 'a'}, {'type': 'text', 'text': 'b'}]}]
    """
    shape: list[dict[str, Any]] = []
    for raw in messages:
        message = (
            raw.model_dump(mode="json", by_alias=True, exclude_unset=True)
            if hasattr(raw, "model_dump")
            else raw
        )
        if message.get("role") == "assistant" and _is_error_only(message):
            continue
        parts = [_comparable_part(p) for p in message.get("parts") or () if _shows(p)]
        if message.get("role") == "assistant":
            if shape and shape[-1]["role"] == "assistant":
                shape[-1]["parts"].extend(parts)
            else:
                shape.append({"role": "assistant", "parts": parts})
        else:
            shape.append({"role": message.get("role"), "id": message.get("id"), "parts": parts})
    return shape


def empty_messages(messages: list[Any]) -> list[str]:
    """The ids of assistant UIMessages that show nothing (no part but step starts, and no error)."""
    empty = []
    for raw in messages:
        message = (
            raw.model_dump(mode="json", by_alias=True, exclude_unset=True)
            if hasattr(raw, "model_dump")
            else raw
        )
        if message.get("role") != "assistant" or _is_error_only(message):
            continue
        if all(p.get("type") == "step-start" for p in message.get("parts") or ()):
            empty.append(message["id"])
    return empty
