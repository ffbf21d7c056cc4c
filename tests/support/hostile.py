"""Hypothesis strategies for hostile input: AG-UI events and AI SDK chunks of the real shapes with random values.

Values are JSON of any type, including what breaks naive code: integers beyond Python's 4,300-digit string
limit, 10,000-level nesting, lone surrogates (a JavaScript producer splitting an emoji), NaN and infinities,
unhashable ids. ``text_form`` writes a sequence as JSONL or SSE the way a JavaScript producer would
(``JSON.stringify``: lone surrogates as ``\\uXXXX`` escapes), and ``assert_located`` checks that an exception is
one of the package's, with a location.
"""

from __future__ import annotations

import json
import typing
from collections.abc import AsyncIterator, Iterable
from typing import Any

from ag_ui.core import Event
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from agui_notebook import (
    AguiNotebookError,
    ChunkDecodeError,
    EventParseError,
    JsonPatchError,
    MessageValidationError,
    ProtocolError,
    UIMessageStreamError,
    UIMessageStreamErrorChunk,
)

# -- values -----------------------------------------------------------------------------------------------------

HUGE_INT = 10**5000
"""An int whose decimal form exceeds Python's int-to-str limit (``str`` and ``repr`` raise ValueError)."""


def _nested(levels: int, leaf: Any, as_dict: bool) -> Any:
    value = leaf
    for _ in range(levels):
        value = {"x": value} if as_dict else [value]
    return value


DEEP_LIST = _nested(10_000, 1, as_dict=False)
DEEP_DICT = _nested(10_000, 1, as_dict=True)
DEEP_500 = _nested(500, "leaf", as_dict=True)
_DEEP = (DEEP_LIST, DEEP_DICT, DEEP_500)

LONE_SURROGATES = ("\ud83d", "\ude00", "a\ud83d", "\ude00b", "\udfff\ud800")

_TEXT = st.text(max_size=6) | st.sampled_from(["", "😀", "é", "\n", '"}', *LONE_SURROGATES])
_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.booleans().map(lambda negative: -HUGE_INT if negative else HUGE_INT)
    | st.floats()  # NaN and infinities included
    | _TEXT
)
VALUES = st.recursive(
    _SCALAR | st.integers(0, len(_DEEP) - 1).map(_DEEP.__getitem__),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
    max_leaves=5,
)
"""JSON-like values of every type, the hostile ones included."""

IDS = st.sampled_from(["m1", "m2", "c1", "r1", "s1", "a1"]) | VALUES
"""Ids: mostly a few shared strings (so events meet), sometimes any value (unhashable, huge, deep)."""

DELTAS = st.sampled_from(["Hi", " there", '{"a": ', "1}", "😀", *LONE_SURROGATES]) | VALUES


def _patch_operation() -> st.SearchStrategy[Any]:
    op = st.fixed_dictionaries(
        {
            "op": st.sampled_from(["add", "remove", "replace", "move", "copy", "test"]) | VALUES,
            "path": st.sampled_from(["", "/x", "/x/x", "/a/0", "/-", "/x/x/x/x"]) | VALUES,
        },
        optional={"from": st.sampled_from(["", "/x", "/a"]) | VALUES, "value": VALUES},
    )
    return op | VALUES


PATCHES = st.lists(_patch_operation(), max_size=3) | VALUES

_TOOL_CALL = st.fixed_dictionaries(
    {},
    optional={
        "id": IDS,
        "type": st.just("function") | VALUES,
        "function": st.fixed_dictionaries({}, optional={"name": VALUES, "arguments": DELTAS}) | VALUES,
    },
)
MESSAGES = st.lists(
    st.fixed_dictionaries(
        {},
        optional={
            "id": IDS,
            "role": st.sampled_from(
                ["user", "assistant", "system", "developer", "tool", "reasoning", "activity"]
            )
            | VALUES,
            "content": DELTAS | st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": DELTAS})),
            "toolCalls": st.lists(_TOOL_CALL, max_size=2) | VALUES,
            "toolCallId": IDS,
            "activityType": VALUES,
        },
    )
    | VALUES,
    max_size=3,
)
"""AG-UI messages of every role with random fields (``toolCalls`` that is not a list included)."""

# -- events -----------------------------------------------------------------------------------------------------


def _event_fields() -> dict[str, list[str]]:
    union = typing.get_args(Event)[0]
    return {
        model.model_fields["type"].default.value: [
            f.alias or n for n, f in model.model_fields.items() if n not in ("type", "raw_event", "timestamp")
        ]
        for model in typing.get_args(union)
    }


EVENT_FIELDS = _event_fields()
"""Every AG-UI event type and its wire fields (from ``ag_ui.core``)."""

_FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "delta": DELTAS,
    "messages": MESSAGES | VALUES,
    "patch": PATCHES,
    "role": st.sampled_from(["assistant", "user", "reasoning", "tool"]) | VALUES,
    "toolCallName": st.sampled_from(["f", "g"]) | VALUES,
    "subtype": st.sampled_from(["tool-call", "message"]) | VALUES,
    "outcome": st.fixed_dictionaries(
        {"type": st.sampled_from(["interrupt", "success", "cancelled"]) | VALUES},
        optional={
            "interrupts": st.lists(st.fixed_dictionaries({"id": IDS, "reason": VALUES}) | VALUES) | VALUES,
            "pendingToolCallIds": st.lists(IDS) | VALUES,
        },
    )
    | VALUES,
    "input": st.fixed_dictionaries(
        {}, optional={"messages": MESSAGES | VALUES, "resume": VALUES, "threadId": IDS, "runId": IDS}
    )
    | VALUES,
}


def _field_value(name: str) -> st.SearchStrategy[Any]:
    if name in _FIELD_VALUES:
        return _FIELD_VALUES[name]
    if name.endswith("Id"):
        return IDS
    return VALUES


@st.composite
def events(draw: st.DrawFn) -> Any:
    """One event: a real type with its fields (each present or not, of any value), or something odd."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(VALUES)  # not an event at all
    if kind == 1:
        event_type = draw(
            st.sampled_from(["THINKING_START", "THINKING_TEXT_MESSAGE_CONTENT", "NOPE"]) | VALUES
        )
        fields = ["messageId", "delta"]
    else:
        event_type = draw(st.sampled_from(sorted(EVENT_FIELDS)))
        fields = EVENT_FIELDS[event_type]
    event: dict[str, Any] = {"type": event_type}
    if event_type == "STATE_DELTA":
        fields = [f for f in fields if f != "delta"]
        if draw(st.booleans()):
            event["delta"] = draw(PATCHES)
    for name in fields:
        if draw(st.integers(0, 9)) < 7:
            event[name] = draw(_field_value(name))
    return event


RUN_STARTED = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}


@st.composite
def event_sequences(draw: st.DrawFn, max_size: int = 10) -> list[Any]:
    """A stream: usually opened by RUN_STARTED, then random events."""
    body = draw(st.lists(events(), max_size=max_size))
    return [RUN_STARTED, *body] if draw(st.integers(0, 9)) < 7 else body


# -- AI SDK chunks ------------------------------------------------------------------------------------------------

CHUNK_FIELDS: dict[str, list[str]] = {
    "start": ["messageId", "messageMetadata"],
    "finish": ["finishReason", "messageMetadata"],
    "message-metadata": ["messageMetadata"],
    "start-step": [],
    "finish-step": [],
    "reset-step": [],
    "abort": ["reason"],
    "error": ["errorText"],
    "text-start": ["id", "providerMetadata"],
    "text-delta": ["id", "delta", "providerMetadata"],
    "text-end": ["id", "providerMetadata", "citations"],
    "reasoning-start": ["id", "providerMetadata"],
    "reasoning-delta": ["id", "delta", "providerMetadata"],
    "reasoning-end": ["id", "providerMetadata"],
    "custom": ["kind", "providerMetadata"],
    "file": ["mediaType", "url", "providerMetadata"],
    "reasoning-file": ["mediaType", "url", "providerMetadata"],
    "source-url": ["sourceId", "url", "title", "providerMetadata"],
    "source-document": ["sourceId", "mediaType", "title", "filename", "providerMetadata"],
    "steering-message": ["id", "parts"],
    "tool-input-start": ["toolCallId", "toolName", "dynamic", "title", "inputEncoding", "providerExecuted"],
    "tool-input-delta": ["toolCallId", "inputTextDelta"],
    "tool-input-available": ["toolCallId", "toolName", "input", "dynamic", "providerMetadata", "title"],
    "tool-input-error": ["toolCallId", "toolName", "input", "errorText", "dynamic"],
    "tool-approval-request": ["toolCallId", "approvalId", "reason", "isAutomatic"],
    "tool-approval-response": ["approvalId", "approved", "reason"],
    "tool-output-available": ["toolCallId", "output", "preliminary", "providerMetadata"],
    "tool-output-error": ["toolCallId", "errorText"],
    "tool-output-denied": ["toolCallId"],
    "data-weather": ["id", "data", "transient"],
}
"""AI SDK UI-message chunk types (ai 7) and their fields."""

_CHUNK_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "id": st.sampled_from(["t1", "t2", "d1"]) | VALUES,
    "toolCallId": st.sampled_from(["c1", "c2"]) | VALUES,
    "approvalId": st.sampled_from(["a1"]) | VALUES,
    "delta": DELTAS,
    "inputTextDelta": DELTAS,
    "toolName": st.sampled_from(["f", "g"]) | VALUES,
    "inputEncoding": st.sampled_from(["text", "json"]) | VALUES,
    "dynamic": st.booleans() | VALUES,
}


@st.composite
def chunks(draw: st.DrawFn) -> Any:
    """One chunk: a real chunk type with its fields (each present or not, of any value), or something odd."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(VALUES)
    chunk_type = draw(st.sampled_from(sorted(CHUNK_FIELDS))) if kind > 1 else draw(VALUES)
    chunk: dict[str, Any] = {"type": chunk_type}
    for name in CHUNK_FIELDS.get(chunk_type, []) if isinstance(chunk_type, str) else []:
        if draw(st.integers(0, 9)) < 8:
            chunk[name] = draw(_CHUNK_VALUES.get(name, VALUES))
    return chunk


@st.composite
def chunk_sequences(draw: st.DrawFn, max_size: int = 12) -> list[Any]:
    """A chunk stream: usually a ``start``, a text or tool opener, then random chunks."""
    body = draw(st.lists(chunks(), max_size=max_size))
    opening = draw(
        st.sampled_from(
            [
                [],
                [{"type": "start", "messageId": "a1"}],
                [{"type": "text-start", "id": "t1"}],
                [{"type": "tool-input-start", "toolCallId": "c1", "toolName": "f"}],
            ]
        )
    )
    return [*opening, *body]


# -- text forms -----------------------------------------------------------------------------------------------

_HUGE_MARK = "\x00huge\x00"
_DEEP_MARKS = {
    id(DEEP_LIST): "\x00deep-list\x00",
    id(DEEP_DICT): "\x00deep-dict\x00",
    id(DEEP_500): "\x00deep-500\x00",
}
_DEEP_TEXT = {
    "\x00deep-list\x00": "[" * 10_000 + "1" + "]" * 10_000,
    "\x00deep-dict\x00": '{"x":' * 10_000 + "1" + "}" * 10_000,
    "\x00deep-500\x00": '{"x":' * 500 + '"leaf"' + "}" * 500,
}


def _marked(value: Any) -> Any:
    """``value`` with the hostile leaves replaced by markers ``json.dumps`` can write (and we swap back)."""
    if id(value) in _DEEP_MARKS:
        return _DEEP_MARKS[id(value)]
    if type(value) is int and abs(value) == HUGE_INT:
        return ("-" if value < 0 else "") + _HUGE_MARK
    if type(value) is dict:
        return {key: _marked(item) for key, item in value.items()}
    if type(value) is list:
        return [_marked(item) for item in value]
    return value


def js_json(value: Any) -> str:
    """``value`` as ``JSON.stringify`` writes it (lone surrogates as escapes), hostile numbers and nesting kept.

    NaN and infinities are written as ``NaN``/``Infinity``, which no JSON reader accepts: a broken line.
    """
    text = json.dumps(_marked(value), ensure_ascii=True, allow_nan=True)
    if "\\u0000" in text:
        text = text.replace(json.dumps(_HUGE_MARK), "9" * 5000)
        for mark, deep in _DEEP_TEXT.items():
            text = text.replace(json.dumps(mark), deep)
    return text


def text_form(items: list[Any], *, sse: bool) -> bytes:
    """A sequence as JSONL or SSE bytes."""
    lines = [js_json(item) for item in items]
    if sse:
        return "".join(f"data: {line}\n\n" for line in lines).encode()
    return "".join(line + "\n" for line in lines).encode()


# -- the property ---------------------------------------------------------------------------------------------


def assert_located(error: BaseException) -> None:
    """``error`` is one of the package's and says where the problem is."""
    assert isinstance(error, AguiNotebookError), f"{type(error).__name__}: {error}"
    text = str(error)
    if isinstance(error, UIMessageStreamErrorChunk):  # the producer's own error text, and where it came
        assert isinstance(error.chunk_index, int)
        return
    assert text
    if isinstance(error, (EventParseError, ChunkDecodeError)):
        assert error.index is not None or error.line is not None, text
    elif isinstance(error, ProtocolError):
        assert isinstance(error.index, int), text
        assert f"event {error.index}" in text or error.index < 0, text
    elif isinstance(error, UIMessageStreamError):
        assert f"chunk {error.chunk_index} " in text, text
    elif isinstance(error, JsonPatchError):
        assert f"operation {error.index}" in text or error.index == -1, text
    elif isinstance(error, MessageValidationError):
        assert error.path and text.startswith(error.path), text
    else:
        raise AssertionError(f"unexpected error class {type(error).__name__}: {text}")


RANDOM_INPUT_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
"""The property tests' settings: examples enough to find the odd shapes, no per-example deadline."""


def raises_only_located(call: Any) -> Any:
    """``call()``'s result, or the package error it raised (after checking it names where); anything else fails."""
    try:
        return call()
    except AguiNotebookError as error:
        assert_located(error)
        return error


async def async_slices(pieces: Iterable[Any]) -> AsyncIterator[Any]:
    """The pieces as an async stream (an HTTP body as ``aiter_bytes()`` yields it)."""
    for piece in pieces:
        yield piece


async def collect_async(iterator: AsyncIterator[Any]) -> list[Any]:
    return [item async for item in iterator]
