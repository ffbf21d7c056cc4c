"""AG-UI's rule for metadata on messages and tool calls: ``mergeMetadata``, a shallow spread.

Each event's ``metadata`` is folded into what the message or tool call holds key by key, the last write winning,
as ``{...existing, ...incoming}`` does in JavaScript. The AI SDK merges message metadata deeply instead
(``ui/_metadata.py``); the two protocols disagree, so each side keeps its own rule.
"""

from __future__ import annotations

from agui_notebook._types import JSON

__all__ = ["spread_merge_metadata"]


def spread_merge_metadata(existing: JSON, incoming: JSON) -> dict[str, JSON]:
    """Fold ``incoming`` metadata into ``existing`` key by key, the last write winning (AG-UI ``mergeMetadata``).

    Never recurses: a value under a key is replaced whole. Each side is spread as JavaScript spreads it, so an
    array or a string gives its indexes and anything else (``null`` included) nothing. Returns a new dict and
    modifies neither argument. An event without ``metadata`` leaves the target alone: that is for the caller
    to check (``null`` is a value; absent is not).

    >>> spread_merge_metadata({"usage": {"in": 3}, "a": 1}, {"usage": {"out": 2}})
    {'usage': {'out': 2}, 'a': 1}
    >>> spread_merge_metadata(None, "ab"), spread_merge_metadata({"a": 1}, None)
    ({'0': 'a', '1': 'b'}, {'a': 1})
    """
    return {**_spread(existing), **_spread(incoming)}


def _spread(value: JSON) -> dict[str, JSON]:
    """What JavaScript's ``{...value}`` yields for a JSON value."""
    if type(value) is dict:
        return value
    if isinstance(value, (list, str)):
        return {str(i): item for i, item in enumerate(value)}
    return {}
