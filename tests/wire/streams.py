"""Hypothesis strategies for wire texts: events written as JSONL, SSE, JSON arrays or recorder logs, and cuts."""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import strategies as st

_TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12
) | st.sampled_from(["😀", "a\nb", "\r\n", "data: x", "é中", "\u2028", '"}', "\\"])
_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT
)
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=6,
)

EVENTS = st.lists(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["RUN_STARTED", "TEXT_MESSAGE_CONTENT", "text-delta", "CUSTOM"])},
        optional={"delta": _TEXT, "messageId": _TEXT, "value": _VALUE},
    ),
    min_size=1,
    max_size=8,
)
"""Lists of small event-like objects with awkward strings (newlines, emoji, SSE look-alikes) and values."""


def _dumps(value: Any, *, ascii_only: bool) -> str:
    return json.dumps(value, ensure_ascii=ascii_only)


@st.composite
def wire_texts(
    draw: st.DrawFn, events: list[dict[str, Any]] | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """A text holding ``events`` in one of the formats the reader takes, and the events it must give back."""
    events = draw(EVENTS) if events is None else events
    ascii_only = draw(st.booleans())
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    kind = draw(st.sampled_from(["jsonl", "sse", "array", "pretty", "recorded"]))
    if kind == "jsonl":
        body = "".join(_dumps(e, ascii_only=ascii_only) + newline * draw(st.integers(1, 2)) for e in events)
    elif kind == "recorded":
        body = "".join(
            _dumps({"received_ns": 1000 + i, "event": e}, ascii_only=ascii_only) + newline
            for i, e in enumerate(events)
        )
    elif kind == "array":
        body = _dumps(events, ascii_only=ascii_only) + newline
    elif kind == "pretty":
        body = json.dumps(events, indent=draw(st.sampled_from([1, 2])), ensure_ascii=ascii_only)
        body = body.replace("\n", newline)
    else:
        parts = []
        for event in events:
            if draw(st.booleans()):
                parts.append(draw(st.sampled_from([": keep-alive", "event: message", "id: 7", "retry: 10"])))
            if draw(st.booleans()):  # one event's data over several data: lines
                lines = json.dumps(event, indent=1, ensure_ascii=ascii_only).split("\n")
            else:
                lines = [_dumps(event, ascii_only=ascii_only)]
            space = draw(st.sampled_from(["", " "]))
            parts.extend(f"data:{space}{line}" for line in lines)
            parts.append("")
        if draw(st.booleans()):
            parts += ["data: [DONE]", ""]
        body = newline.join(parts) + newline
    if draw(st.booleans()):
        body = "\ufeff" + body
    return body, events


@st.composite
def cuts(draw: st.DrawFn, data: bytes) -> list[bytes]:
    """``data`` cut at random places (anywhere: inside UTF-8 sequences, inside CRLF)."""
    if not data:
        return []
    points = sorted(set(draw(st.lists(st.integers(1, max(1, len(data) - 1)), max_size=12))))
    bounds = [0, *points, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds) if b > a]
