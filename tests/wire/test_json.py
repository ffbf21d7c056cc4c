"""JSON as JavaScript reads and prints it: numbers, lone surrogates, ``String(value)``, and split emoji.

JavaScript producers cut text into deltas by UTF-16 code units, so an emoji can arrive as ``"\\ud83d"`` then
``"\\ude00"``. ``JSON.parse`` reads each half; ``+=`` joins them into the emoji. The differential tests run
the same streams through ``@ag-ui/client`` and the AI SDK and compare what comes out.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
import pytest

from agui_notebook import apply_events, read_ui_message_stream, ui_messages_from_events
from agui_notebook._shown import shown
from agui_notebook.wire._json import (
    JSONDecodeError,
    copy_json,
    decode_json,
    encode_json,
    join_surrogates,
    js_string,
)
from tests.support.hostile import DEEP_500, DEEP_LIST, HUGE_INT, text_form
from tests.support.node import run_node_reference

EMOJI = "\U0001f600"
HIGH, LOW = "\ud83d", "\ude00"


# -- reading -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("raw", [b'"\\ud83d"', '"\\ud83d"', '"\ud83d"'])
def test_a_lone_surrogate_is_read_as_json_parse_reads_it(raw: Any) -> None:
    assert decode_json(raw) == HIGH


def test_an_escaped_pair_is_one_character_and_plain_input_takes_orjson() -> None:
    assert decode_json(b'{"a": "\\ud83d\\ude00", "b": [1e400, 2]}') == {"a": EMOJI, "b": [float("inf"), 2]}
    assert decode_json(b'{"n": 18446744073709551616}') == {"n": 1.8446744073709552e19}


@pytest.mark.parametrize("raw", [b'{"a": \xff}', b'["\\ud83d"', b"NaN", b"[" * 2000 + b"]" * 2000])
def test_what_json_parse_rejects_is_still_an_error(raw: bytes) -> None:
    with pytest.raises(JSONDecodeError):
        decode_json(raw)


def test_join_surrogates() -> None:
    assert join_surrogates(HIGH + LOW) == EMOJI
    assert join_surrogates("a" + HIGH + LOW + HIGH) == "a" + EMOJI + HIGH
    assert join_surrogates(LOW + HIGH) == LOW + HIGH  # the wrong order pairs nothing, as in UTF-16
    plain = "plain ascii"
    assert join_surrogates(plain) is plain


# -- printing --------------------------------------------------------------------------------------------------


def test_js_string_of_arrays_at_any_depth() -> None:
    assert js_string([[1, 2], "x", None, [None], {"a": 1}, True]) == "1,2,x,,,[object Object],true"
    assert js_string([[], 1]) == ",1"
    assert js_string(DEEP_LIST) == "1"
    assert js_string(HUGE_INT) == "Infinity"  # JSON.parse reads it as a double


def test_copy_json_at_any_depth() -> None:
    copied = copy_json(DEEP_LIST)
    node, depth = copied, 0
    while isinstance(node, list):
        assert node is not DEEP_LIST
        node, depth = node[0], depth + 1
    assert depth == 10_000


# -- split emoji against the references ----------------------------------------------------------------------

R = {"type": "RUN_STARTED", "threadId": "thread", "runId": "r"}
F = {"type": "RUN_FINISHED", "threadId": "thread", "runId": "r"}
AGUI_STREAMS: dict[str, list[dict[str, Any]]] = {
    "text": [
        R,
        {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hi " + HIGH},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": LOW + "!"},
        {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
        F,
    ],
    "tool-arguments-and-reasoning": [
        R,
        {"type": "REASONING_START", "messageId": "r1"},
        {"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning"},
        {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": HIGH},
        {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": LOW},
        {"type": "REASONING_MESSAGE_END", "messageId": "r1"},
        {"type": "REASONING_END", "messageId": "r1"},
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "say"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"text": "' + HIGH},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": LOW + '"}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        F,
    ],
    "chunks-and-a-half-that-stays-lone": [
        R,
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": HIGH},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": LOW + " and " + HIGH},
        F,
    ],
}


@pytest.fixture(scope="module")
def agui_reference() -> dict[str, Any]:
    cases = [{"events": events} for events in AGUI_STREAMS.values()]
    results = run_node_reference("agui_apply.mjs", {"mode": "runAgent", "cases": cases})
    return dict(zip(AGUI_STREAMS, results, strict=True))


@pytest.mark.node
@pytest.mark.parametrize("name", list(AGUI_STREAMS))
def test_ag_ui_client_joins_the_halves_and_so_do_we(name: str, agui_reference: dict[str, Any]) -> None:
    theirs = agui_reference[name]
    assert theirs.get("error") is None
    events = AGUI_STREAMS[name]
    for source in (events, text_form(events, sse=False), text_form(events, sse=True)):
        thread = apply_events(source)
        assert thread.message_dicts == theirs["messages"]
        # Re-read after JSON.stringify: a half that stays lone is an escape, and reads back the same.
        assert json.loads(json.dumps(thread.message_dicts)) == theirs["messages"]
    assert EMOJI in json.dumps(theirs["messages"], ensure_ascii=False)


def test_the_bridge_shows_the_emoji() -> None:
    for name in ("text", "tool-arguments-and-reasoning"):
        events = AGUI_STREAMS[name]
        for source in (events, text_form(events, sse=True)):
            parts = ui_messages_from_events(source)[0].parts
            texts = [getattr(p, "text", None) for p in parts] + [getattr(p, "input", None) for p in parts]
            assert "Hi " + EMOJI + "!" in texts or (EMOJI in texts and {"text": EMOJI} in texts), texts


UI_STREAMS: dict[str, list[dict[str, Any]]] = {
    "text-reasoning-tool-input": [
        {"type": "start", "messageId": "a1"},
        {"type": "text-start", "id": "t1"},
        {"type": "text-delta", "id": "t1", "delta": "Hi " + HIGH},
        {"type": "text-delta", "id": "t1", "delta": LOW},
        {"type": "text-end", "id": "t1"},
        {"type": "reasoning-start", "id": "r1"},
        {"type": "reasoning-delta", "id": "r1", "delta": HIGH},
        {"type": "reasoning-delta", "id": "r1", "delta": LOW + HIGH},
        {"type": "reasoning-end", "id": "r1"},
        {"type": "tool-input-start", "toolCallId": "c1", "toolName": "say"},
        {"type": "tool-input-delta", "toolCallId": "c1", "inputTextDelta": '{"text": "' + HIGH},
        {"type": "tool-input-delta", "toolCallId": "c1", "inputTextDelta": LOW + '"}'},
        {"type": "tool-input-start", "toolCallId": "c2", "toolName": "say", "inputEncoding": "text"},
        {"type": "tool-input-delta", "toolCallId": "c2", "inputTextDelta": HIGH},
        {"type": "tool-input-delta", "toolCallId": "c2", "inputTextDelta": LOW},
        {"type": "finish"},
    ],
}


@pytest.mark.node
def test_the_ai_sdk_joins_the_halves_and_so_do_we() -> None:
    names = list(UI_STREAMS)
    results = run_node_reference(
        "ai_read_stream.mjs", {"streams": [{"chunks": UI_STREAMS[n]} for n in names]}
    )
    for name, theirs in zip(names, results, strict=True):
        expected = theirs["snapshots"]
        chunks = UI_STREAMS[name]
        for source in (chunks, text_form(chunks, sse=True), text_form(chunks, sse=False)):
            ours = [
                json.loads(json.dumps(m.model_dump(mode="python"))) for m in read_ui_message_stream(source)
            ]
            assert ours == expected, name
        last = expected[-1]["parts"]
        assert last[0]["text"] == "Hi " + EMOJI and last[1]["text"] == EMOJI + HIGH
        assert last[2]["input"] == {"text": EMOJI} and last[3]["input"] == EMOJI


def test_orjson_refuses_lone_surrogates_so_writers_must_escape_them() -> None:
    # What a writer of our messages meets: JSON.stringify writes the half as an escape, orjson refuses it.
    with pytest.raises(orjson.JSONEncodeError):
        orjson.dumps(HIGH)
    assert json.dumps(HIGH) == '"\\ud83d"'


_WRITTEN = [
    2**70,
    -(2**64),
    2**64 - 1,
    10**400,
    HIGH,
    "\ude00",
    "a" + HIGH + "\ude00b",
    "é" + HIGH,
    {"n": [2**70, {"s": "\udc00"}], "": 1},
    [[[]], {}, None, True, 1.5],
    DEEP_500,
]


def test_encode_json_writes_what_json_stringify_writes() -> None:
    theirs = run_node_reference("json_stringify.mjs", {"values": _WRITTEN})
    ours = [encode_json(value) for value in _WRITTEN]
    for value, mine, reference in zip(_WRITTEN, ours, theirs, strict=True):
        # Equal as JavaScript reads them (every number a double); within 64 bits ours keeps the digits exact.
        assert json.loads(mine, parse_int=float) == json.loads(reference, parse_int=float), shown(value)
        if isinstance(value, str):
            assert mine == reference  # the same escapes, the same raw characters
        mine.encode()  # always UTF-8 (no lone surrogate in the text itself)


def test_encode_json_is_orjson_for_what_orjson_writes() -> None:
    value = {"a": [1, 2.5, None, True, "é", {"b": []}]}
    assert encode_json(value) == orjson.dumps(value).decode()


def test_encode_json_at_any_depth_and_with_odd_keys() -> None:
    deep: list[Any] = []
    inner = deep
    for _ in range(50_000):
        inner.append([])
        inner = inner[0]
    inner.append(2**70)
    text = encode_json(deep)
    assert text.startswith("[" * 50_001) and "1.1805916207174113e+21" in text
    assert encode_json({1: 2**70, None: float("inf"), 2.5: float("nan")}) == (
        '{"1":1.1805916207174113e+21,"null":null,"2.5":null}'
    )
