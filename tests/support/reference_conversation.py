"""The reference conversation of a stream, and the shape two conversations are compared by.

The reference for what a stream of AG-UI events shows is ``@ag-ui/client``'s messages (``apply_events`` matches
it exactly; the node differential tests hold that) turned into UIMessages by ``to_ui_messages``. Our engine
(``ui_messages_from_events``, the live chat) builds one assistant UIMessage per run as the AI SDK does, so the two
agree on what a reader sees, not on every id:

- an assistant UIMessage's id and metadata are the engine's (the run's), and ``step-start`` parts are where a
  step began, which AG-UI messages do not record;
- consecutive assistant UIMessages read as one turn (``to_ui_messages`` groups an assistant turn's messages
  positionally; the engine keeps one message per run);
- a run that ended in an error with nothing shown keeps an assistant UIMessage holding the error in its metadata
  (``@ag-ui/client`` keeps no message for it).

Everything else must be equal: the user's messages (ids included) in their places, every part's kind, text,
state, tool call id, input, output and error, and no empty assistant message.
"""

from __future__ import annotations

from typing import Any

from agui_notebook import apply_events, to_ui_messages

_PROVIDER_KEYS = frozenset({"providerMetadata", "callProviderMetadata", "resultProviderMetadata"})


def reference_ui_messages(events: Any) -> list[dict[str, Any]]:
    """``to_ui_messages`` of ``@ag-ui/client``'s messages for ``events`` (Python's ``apply_events``)."""
    return to_ui_messages(apply_events(events).messages)


def _comparable_part(part: dict[str, Any]) -> dict[str, Any]:
    kept = {k: v for k, v in part.items() if k not in _PROVIDER_KEYS}
    if kept.get("type") == "reasoning":
        kept.pop("id", None)
    return kept


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
        parts = [_comparable_part(p) for p in message.get("parts") or () if p.get("type") != "step-start"]
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
