"""Conversions between AG-UI messages, UIMessages and OpenAI messages."""

from __future__ import annotations

import orjson
import pytest
from ag_ui.core import Message
from pydantic import TypeAdapter

from agui_notebook.bridge._messages import (
    to_agui_messages,
    to_agui_messages_wire,
    to_openai_messages,
    to_ui_messages,
)

PNG = "iVBORw0KGgo="

CONVERSATION: list[dict] = [
    {"id": "s1", "role": "system", "content": "Be brief."},
    {"id": "d1", "role": "developer", "content": "Use metric units.", "name": "ops"},
    {"id": "u1", "role": "user", "content": "Weather in Paris?"},
    {"id": "r1", "role": "reasoning", "content": "Need the weather tool.", "encryptedValue": "enc-r1"},
    {
        "id": "a1",
        "role": "assistant",
        "toolCalls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
            },
            {
                "id": "c2",
                "type": "function",
                "function": {"name": "get_time", "arguments": '{"tz": "CET"}'},
                "encryptedValue": "enc-c2",
            },
        ],
    },
    {"id": "t1", "role": "tool", "toolCallId": "c1", "content": '{"sky":"sunny","temp":21}'},
    {"id": "t2", "role": "tool", "toolCallId": "c2", "content": "12:00", "encryptedValue": "enc-t2"},
    {
        "id": "act1",
        "role": "activity",
        "activityType": "plan",
        "content": {"steps": [{"title": "look", "done": True}]},
    },
    {"id": "a2", "role": "assistant", "content": "Sunny, **21 °C**.", "metadata": {"model": "demo"}},
    {
        "id": "u2",
        "role": "user",
        "content": [
            {"type": "text", "text": "And this picture?"},
            {"type": "image", "source": {"type": "data", "value": PNG, "mimeType": "image/png"}},
            {
                "type": "document",
                "source": {
                    "type": "url",
                    "value": "https://example.com/a.pdf",
                    "mimeType": "application/pdf",
                },
            },
        ],
    },
    {
        "id": "a3",
        "role": "assistant",
        "content": "Let me check.",
        "toolCalls": [{"id": "c3", "type": "function", "function": {"name": "inspect", "arguments": "{}"}}],
    },
    {
        "id": "t3",
        "role": "tool",
        "toolCallId": "c3",
        "content": "vision backend down",
        "error": "backend down",
    },
    {"id": "t4", "role": "tool", "toolCallId": "c4", "content": [{"type": "text", "text": "orphan"}]},
    {"id": "a4", "role": "assistant", "content": "", "encryptedValue": "enc-a4", "name": "helper"},
]


def test_round_trip_is_lossless_for_every_message_type() -> None:
    wire = TypeAdapter(list[Message]).dump_python(
        TypeAdapter(list[Message]).validate_python(CONVERSATION),
        mode="json",
        by_alias=True,
        exclude_none=True,
    )
    assert to_agui_messages_wire(to_ui_messages(CONVERSATION)) == wire


def test_round_trip_through_models() -> None:
    models = TypeAdapter(list[Message]).validate_python(CONVERSATION)
    assert to_agui_messages(to_ui_messages(models)) == models


def test_assistant_turn_becomes_one_ui_message_with_steps() -> None:
    ui = to_ui_messages(CONVERSATION)
    assert [m["role"] for m in ui] == ["system", "system", "user", "assistant", "user", "assistant"]
    turn = ui[3]
    assert turn["id"] == "a1"
    assert [p["type"] for p in turn["parts"]] == [
        "step-start",
        "reasoning",
        "tool-get_weather",
        "tool-get_time",
        "data-plan",
        "step-start",
        "text",
    ]
    weather = turn["parts"][2]
    assert weather["state"] == "output-available"
    assert weather["input"] == {"city": "Paris"}
    assert weather["output"] == {"sky": "sunny", "temp": 21}
    assert turn["parts"][3]["output"] == "12:00"
    assert turn["parts"][4] == {
        "type": "data-plan",
        "id": "act1",
        "data": {"steps": [{"title": "look", "done": True}]},
    }
    assert turn["parts"][6]["text"] == "Sunny, **21 °C**."


def test_user_media_become_file_parts() -> None:
    user = to_ui_messages(CONVERSATION)[4]
    assert [p["type"] for p in user["parts"]] == ["text", "file", "file"]
    assert user["parts"][1]["url"] == f"data:image/png;base64,{PNG}"
    assert user["parts"][1]["mediaType"] == "image/png"
    assert user["parts"][2]["url"] == "https://example.com/a.pdf"


def test_tool_error_and_unknown_call() -> None:
    last = to_ui_messages(CONVERSATION)[5]
    inspect = next(p for p in last["parts"] if p["type"] == "tool-inspect")
    assert inspect["state"] == "output-error"
    assert inspect["errorText"] == "backend down"
    orphan = next(p for p in last["parts"] if p["type"] == "dynamic-tool")
    assert orphan["toolCallId"] == "c4"
    assert orphan["output"] == [{"type": "text", "text": "orphan"}]


def test_ui_messages_written_by_hand_convert() -> None:
    ui = [
        {"id": "u", "role": "user", "parts": [{"type": "text", "text": "hi"}]},
        {
            "id": "m",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {"type": "text", "text": "Calling."},
                {
                    "type": "tool-add",
                    "toolCallId": "k",
                    "state": "output-available",
                    "input": {"a": 1},
                    "output": 2,
                },
                {"type": "source-url", "sourceId": "s", "url": "https://example.com"},
            ],
        },
    ]
    wire = to_agui_messages_wire(ui)
    assert wire == [
        {"id": "u", "role": "user", "content": "hi"},
        {
            "id": "m-1",
            "role": "assistant",
            "content": "Calling.",
            "toolCalls": [
                {"id": "k", "type": "function", "function": {"name": "add", "arguments": '{"a":1}'}}
            ],
        },
        {"id": "m-2", "role": "tool", "content": "2", "toolCallId": "k"},
        {
            "id": "m-3",
            "role": "activity",
            "activityType": "ui-part",
            "content": {"type": "source-url", "sourceId": "s", "url": "https://example.com"},
        },
    ]
    # and back: the source part survives
    assert to_ui_messages(wire)[1]["parts"][-1] == {
        "type": "source-url",
        "sourceId": "s",
        "url": "https://example.com",
        "providerMetadata": {"ag-ui": {"messageId": "m-3"}},
    }


def test_openai_messages_follow_chat_completions() -> None:
    assert to_openai_messages(CONVERSATION[:9]) == [
        {"role": "system", "content": "Be brief."},
        {"role": "developer", "content": "Use metric units."},
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                },
                {
                    "id": "c2",
                    "type": "function",
                    "function": {"name": "get_time", "arguments": '{"tz": "CET"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": '{"sky":"sunny","temp":21}'},
        {"role": "tool", "tool_call_id": "c2", "content": "12:00"},
        {"role": "assistant", "content": "Sunny, **21 °C**."},
    ]


def test_openai_user_media() -> None:
    (user,) = to_openai_messages([CONVERSATION[9]])
    assert user["content"] == [
        {"type": "text", "text": "And this picture?"},
        {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        {"type": "file", "file": {"file_id": "https://example.com/a.pdf"}},
    ]


def test_openai_from_ui_messages_matches_from_agui() -> None:
    assert to_openai_messages(to_ui_messages(CONVERSATION)) == to_openai_messages(CONVERSATION)


@pytest.mark.parametrize("arguments", ['{"a": 1}', "", "not json", '{"a":1}'])
def test_tool_call_arguments_survive_exactly(arguments: str) -> None:
    messages = [
        {
            "id": "a",
            "role": "assistant",
            "toolCalls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": arguments}}],
        }
    ]
    assert to_agui_messages_wire(to_ui_messages(messages)) == messages
    assert orjson.dumps(to_ui_messages(messages))  # JSON-serialisable
