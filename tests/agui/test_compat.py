"""The pre-1.0 compatibility boundary: THINKING_* events, legacy nulls and binary parts become their 1.0 form."""

from __future__ import annotations

import pytest

from agui_notebook.agui._compat import (
    UPGRADED_TYPES,
    LegacyEventUpgrader,
    upgrade_inbound_message,
    upgrade_message_content,
)
from agui_notebook.agui._intake import EVENT_TYPES


def test_a_thinking_stream_becomes_one_reasoning_span_with_stable_ids():
    legacy = [
        {"type": "THINKING_START", "title": "plan"},
        {"type": "THINKING_TEXT_MESSAGE_START"},
        {"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "Let me "},
        {"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "think."},
        {"type": "THINKING_TEXT_MESSAGE_END"},
        {"type": "THINKING_END"},
    ]
    upgrader, replay = LegacyEventUpgrader(), LegacyEventUpgrader()  # one per stream
    first = [upgrader.upgrade(e) for e in legacy]
    again = [replay.upgrade(e) for e in legacy]
    assert [e["type"] for e in first] == [
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
        "REASONING_END",
    ]
    span, message = first[0]["messageId"], first[1]["messageId"]
    assert span != message and "title" not in first[0]
    assert [e["messageId"] for e in first[1:5]] == [message] * 4 and first[5]["messageId"] == span
    assert first[1]["role"] == "reasoning" and first[2]["delta"] == "Let me "
    assert first == again  # the same log always replays alike


@pytest.mark.parametrize(
    ("event", "expected"),
    [
        (
            {"type": "CUSTOM", "name": "x", "value": 1, "rawEvent": None},
            {"type": "CUSTOM", "name": "x", "value": 1},
        ),
        (
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "result": None, "outcome": None},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
        ),
        (
            {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "parentMessageId": None},
            {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"},
        ),
    ],
)
def test_legacy_nulls_are_dropped(event, expected):
    upgrader = LegacyEventUpgrader()
    assert upgrader.needs_upgrade(event)
    assert upgrader.upgrade(event) == expected


def test_a_1_0_event_comes_back_as_the_same_dict():
    upgrader = LegacyEventUpgrader()
    for event in (
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "outcome": {"type": "success"}},
        {"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "u", "role": "user", "content": "hi"}]},
    ):
        assert upgrader.upgrade(event) is event
    assert not upgrader.needs_upgrade({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"})


def test_every_type_the_upgrader_touches_is_a_protocol_or_legacy_type():
    assert {t for t in UPGRADED_TYPES if not t.startswith("THINKING_")} <= EVENT_TYPES


def test_a_legacy_binary_part_becomes_the_media_part_of_its_type():
    message = {
        "id": "u1",
        "role": "user",
        "content": [
            {"type": "text", "text": "what is this?"},
            {"type": "binary", "mimeType": "image/png", "data": "iVBORw0KGgo=", "filename": "x.png"},
        ],
    }
    upgraded = upgrade_message_content(message)
    assert upgraded is not message and message["content"][1]["type"] == "binary"  # the input is not modified
    part = upgraded["content"][1]
    assert part["type"] == "image"
    assert "iVBORw0KGgo=" in str(part) and "image/png" in str(part)
    assert upgrade_message_content(upgraded) is upgraded
    assert upgrade_inbound_message(upgraded) is upgraded
