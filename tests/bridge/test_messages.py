"""Conversions between AG-UI messages, UIMessages and OpenAI messages."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from ag_ui.core import Message
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from agui_notebook import ui_chunks_from_events, ui_messages_from_events
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
        # A number is sent as its JSON text; the metadata says it was a number, so it comes back as one.
        {
            "id": "m-2",
            "role": "tool",
            "content": "2",
            "toolCallId": "k",
            "metadata": {"agui-notebook": {"outputType": "number"}},
        },
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
        {"type": "file", "file": {"file_data": "https://example.com/a.pdf"}},  # a URL is not a file id
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


# ---------------------------------------------------------------------------------------------- tool outputs
# Every JSON shape a tool can return, and strings that look like JSON (their text must stay text).
TOOL_OUTPUTS: list[Any] = [
    ["a", "b"],
    [1, 2],
    [],
    [{"type": "text", "text": "looks like a content part"}],
    {"nested": {"list": [1, {"deep": None}], "n": 1.5}},
    {},
    42,
    -1.25,
    True,
    False,
    None,
    "plain text",
    "",
    "[1, 2]",
    '{"a": 1}',
    "42",
    "null",
    " [not json",
]


def _tool_turn(output: Any) -> dict[str, Any]:
    return {
        "id": "m",
        "role": "assistant",
        "parts": [
            {"type": "step-start"},
            {
                "type": "tool-shape",
                "toolCallId": "c",
                "state": "output-available",
                "input": {},
                "output": output,
            },
        ],
    }


@pytest.mark.parametrize("output", TOOL_OUTPUTS, ids=repr)
def test_a_tool_output_of_any_shape_makes_a_valid_tool_message_and_comes_back(output: Any) -> None:
    ui = [_tool_turn(output)]
    agui = to_agui_messages(ui)  # validates: the run input of the next turn is built from these
    tool = agui[1]
    assert tool.role == "tool" and isinstance(tool.content, str)
    back = to_ui_messages(agui)
    assert back[0]["parts"][1]["output"] == output
    assert type(back[0]["parts"][1]["output"]) is type(output)
    assert to_agui_messages(back) == agui


@pytest.mark.parametrize("output", TOOL_OUTPUTS, ids=repr)
def test_a_tool_output_of_any_shape_becomes_openai_tool_text(output: Any) -> None:
    tool = to_openai_messages([_tool_turn(output)])[-1]
    assert tool["role"] == "tool" and tool["tool_call_id"] == "c"
    expected = output if isinstance(output, str) else "" if output is None else orjson.dumps(output).decode()
    assert tool["content"] == expected


def test_tool_content_text_is_what_pydantic_ai_sends() -> None:
    """A structured return is JSON text, a string is sent verbatim, ``None`` is empty (pydantic-ai's rule)."""
    from pydantic_ai.ui.ag_ui._utils import dump_tool_return_content

    for output in TOOL_OUTPUTS:
        (_, tool) = to_agui_messages_wire([_tool_turn(output)])
        assert tool["content"] == dump_tool_return_content(output), output


def test_openai_tool_messages_from_agui_content_of_any_shape() -> None:
    messages = [
        {"id": "t1", "role": "tool", "toolCallId": "c1", "content": [1, 2]},
        {"id": "t2", "role": "tool", "toolCallId": "c2", "content": [{"type": "text", "text": "a"}]},
        {
            "id": "t3",
            "role": "tool",
            "toolCallId": "c3",
            "content": [
                {"type": "text", "text": "a"},
                {"type": "image", "source": {"type": "url", "value": "u"}},
            ],
        },
    ]
    assert [m["content"] for m in to_openai_messages(messages)] == [
        "[1,2]",
        "a",
        '[{"type":"text","text":"a"},{"type":"image","source":{"type":"url","value":"u"}}]',
    ]


@pytest.mark.parametrize(
    "content",
    [
        '["a","b"]',
        "[ 1, 2 ]",
        "42",
        "",
        "null",
        '{"a":  1}',
        "text",
        [{"type": "text", "text": "part"}],
        [{"type": "image", "source": {"type": "data", "value": PNG, "mimeType": "image/png"}}],
    ],
)
def test_agui_tool_content_round_trips_exactly(content: Any) -> None:
    messages = [
        {
            "id": "a",
            "role": "assistant",
            "toolCalls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        },
        {"id": "t", "role": "tool", "content": content, "toolCallId": "c"},
    ]
    assert to_agui_messages_wire(to_ui_messages(messages)) == messages
    TypeAdapter(list[Message]).validate_python(to_agui_messages_wire(to_ui_messages(messages)))


_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_json_values = st.recursive(
    _json_scalars | st.sampled_from(["[1, 2]", '{"a": 1}', "[", "{", " [3]", "null", "true", "42", "-0"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(output=_json_values)
def test_any_json_tool_output_survives_every_conversion(output: Any) -> None:
    ui = [_tool_turn(output)]
    wire = to_agui_messages_wire(ui)
    models = TypeAdapter(list[Message]).validate_python(wire)
    back = to_ui_messages(models)
    assert orjson.dumps(back[0]["parts"][1]["output"]) == orjson.dumps(output)
    assert to_agui_messages_wire(back) == wire
    assert to_openai_messages(back) == to_openai_messages(ui) == to_openai_messages(wire)


@settings(max_examples=200, deadline=None)
@given(content=st.text(max_size=12) | _json_values.map(lambda v: orjson.dumps(v).decode()))
def test_any_agui_tool_text_round_trips_exactly(content: str) -> None:
    messages = [
        {
            "id": "a",
            "role": "assistant",
            "toolCalls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        },
        {"id": "t", "role": "tool", "content": content, "toolCallId": "c"},
    ]
    assert to_agui_messages_wire(to_ui_messages(messages)) == messages


# ---------------------------------------------------------------------------------------------- later turns
# What each turn's tool returns: a real pydantic-ai tool, run by a FunctionModel, seen by the widget.
TURN_OUTPUTS: dict[str, Any] = {
    "list": ["a", "b"],
    "nested": {"rows": [[1, 2], {"deep": [None, True]}]},
    "number": 42,
    "null": None,
    "json-looking text": "[1, 2]",
    "text": "done",
}


def _shape_agent(seen: list[list[Any]]) -> Any:
    """An agent that calls ``shape(kind)`` with the user's text, then answers; records the tool returns it sees."""
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ToolReturnPart, UserPromptPart
    from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> Any:
        seen.append([p.content for m in messages for p in m.parts if isinstance(p, ToolReturnPart)])
        last = messages[-1].parts[-1]
        if isinstance(last, UserPromptPart):
            kind = last.content if isinstance(last.content, str) else ""
            yield {
                0: DeltaToolCall(
                    name="shape", json_args=orjson.dumps({"kind": kind}).decode(), tool_call_id=f"call-{kind}"
                )
            }
        else:
            yield "ok"

    agent = Agent(FunctionModel(stream_function=stream))

    @agent.tool_plain
    def shape(kind: str) -> Any:
        """A value of the asked shape."""
        return TURN_OUTPUTS[kind]

    return agent


def _vercel(agent: Any, chat: Any) -> Any:
    from ag_ui.core import RunAgentInput
    from pydantic_ai.ui.vercel_ai import VercelAIAdapter

    def run(run_input: RunAgentInput) -> Any:
        body = {"trigger": "submit-message", "id": run_input.thread_id, "messages": chat.messages}
        parsed = VercelAIAdapter.build_run_input(orjson.dumps(body))
        return VercelAIAdapter(agent=agent, run_input=parsed, sdk_version=7).run_stream()

    return run


@pytest.mark.parametrize("adapter", ["ag-ui", "vercel-ai"])
async def test_tool_outputs_of_every_shape_survive_every_later_turn(adapter: str) -> None:
    from pydantic_ai.ui.ag_ui._utils import dump_tool_return_content, rehydrate_tool_return_content

    from agui_notebook.widget._chat import ChatWidget

    seen: list[list[Any]] = []
    agent = _shape_agent(seen)
    chat = ChatWidget(agent, thread_id="thread-1")
    if adapter == "vercel-ai":
        chat.agent = _vercel(agent, chat)
    for kind in TURN_OUTPUTS:
        assert await chat.send_message(kind) == "success", chat.error
        assert chat.error == ""
    tools = [p for m in chat.messages for p in m["parts"] if p["type"] == "tool-shape"]
    assert [t["state"] for t in tools] == ["output-available"] * len(TURN_OUTPUTS)
    returned = list(TURN_OUTPUTS.values())
    if adapter == "ag-ui":
        # AG-UI carries a tool's return as text (pydantic-ai's dump): objects and arrays are read back as JSON,
        # other text stays text (a string that looks like JSON cannot be told from JSON on this wire).
        assert [t["output"] for t in tools] == [["a", "b"], TURN_OUTPUTS["nested"], "42", "", [1, 2], "done"]
        # The agent is given back, turn after turn, exactly what it sent (so it reloads what it reloads).
        expected_history = [rehydrate_tool_return_content(dump_tool_return_content(v)) for v in returned]
    else:
        # pydantic-ai leaves a null output out of the chunk (``exclude_none``): the part has none.
        assert [t.get("output") for t in tools] == returned
        expected_history = returned
    # The model's last call (the answer after the last tool) saw every earlier return.
    assert seen[-1] == expected_history
    # The conversation converts to AG-UI and OpenAI messages at every point.
    assert len([m for m in to_openai_messages(chat.messages) if m["role"] == "tool"]) == len(TURN_OUTPUTS)
    assert to_agui_messages(to_ui_messages(chat.agui_messages)) == chat.agui_messages


# ---------------------------------------------------------------------------------------------- fields kept
def test_encrypted_content_and_other_unknown_fields_survive_the_round_trip() -> None:
    """``encryptedContent`` (the AG-UI docs' name on messages) and any other field ``ag_ui.core`` keeps."""
    messages = [
        {"id": "s", "role": "system", "content": "Be brief.", "encryptedContent": "S"},
        {"id": "u", "role": "user", "content": "hi", "encryptedContent": "U", "extra": {"n": 1}},
        {"id": "r", "role": "reasoning", "content": "hm", "encryptedContent": "R"},
        {
            "id": "a",
            "role": "assistant",
            "name": "helper",
            "encryptedValue": "E",
            "metadata": {"k": 1},
            "encryptedContent": "A",
            "toolCalls": [
                {
                    "id": "c",
                    "type": "function",
                    "function": {"name": "f", "arguments": "{}"},
                    "encryptedValue": "CE",
                    "metadata": {"c": 2},
                    "encryptedContent": "C",
                }
            ],
        },
        {"id": "t", "role": "tool", "toolCallId": "c", "content": "x", "encryptedContent": "T"},
        {"id": "act", "role": "activity", "activityType": "plan", "content": {}, "encryptedContent": "P"},
        {"id": "a2", "role": "assistant", "content": "done", "encryptedContent": "A2"},
    ]
    models = TypeAdapter(list[Message]).validate_python(messages)  # ag_ui.core keeps unknown fields
    assert models[1].model_dump(by_alias=True, exclude_none=True)["encryptedContent"] == "U"
    assert to_agui_messages_wire(to_ui_messages(messages)) == messages
    assert to_agui_messages(to_ui_messages(models)) == models


def test_an_orphan_tool_result_after_reasoning_stays_alone() -> None:
    messages = [
        {"id": "r", "role": "reasoning", "content": "hm"},
        {"id": "t", "role": "tool", "toolCallId": "c", "content": "x"},
    ]
    assert to_agui_messages_wire(to_ui_messages(messages)) == messages


# ---------------------------------------------------------------------------------------------- legacy binary
LEGACY_USER = {
    "id": "u",
    "role": "user",
    "content": [
        {"type": "text", "text": "see"},
        {"type": "binary", "mimeType": "image/png", "data": PNG, "filename": "a.png"},
        {"type": "binary", "mimeType": "application/pdf", "url": "https://example.com/a.pdf"},
        {"type": "binary", "mimeType": "application/pdf", "id": "file-123"},
    ],
}


def test_a_legacy_binary_part_keeps_its_data() -> None:
    """Upgraded as @ag-ui/client's compatibility boundary does: a media part with a data or url source."""
    (user,) = to_ui_messages([LEGACY_USER])
    image, pdf, by_id = user["parts"][1:]
    assert (image["type"], image["mediaType"], image["url"], image["filename"]) == (
        "file",
        "image/png",
        f"data:image/png;base64,{PNG}",
        "a.png",
    )
    assert (pdf["mediaType"], pdf["url"]) == ("application/pdf", "https://example.com/a.pdf")
    # Only an id: no 1.0 part holds it, so the part travels as it came.
    assert by_id["mediaType"] == "application/pdf"
    (back,) = to_agui_messages_wire([user])
    assert back["content"] == [
        {"type": "text", "text": "see"},
        {
            "type": "image",
            "source": {"type": "data", "value": PNG, "mimeType": "image/png"},
            "metadata": {"filename": "a.png"},
        },
        {
            "type": "document",
            "source": {"type": "url", "value": "https://example.com/a.pdf", "mimeType": "application/pdf"},
        },
        {"type": "binary", "mimeType": "application/pdf", "id": "file-123"},
    ]
    assert to_openai_messages([LEGACY_USER])[0]["content"][1] == {
        "type": "image_url",
        "image_url": {"url": f"data:image/png;base64,{PNG}"},
    }


def test_a_chat_started_from_legacy_messages_keeps_the_attachment() -> None:
    from agui_notebook.widget._chat import ChatWidget

    chat = ChatWidget(messages=[LEGACY_USER])
    assert chat.messages[0]["parts"][1]["url"] == f"data:image/png;base64,{PNG}"


# ---------------------------------------------------------------------------------------------- provider files
FILES_USER = {
    "id": "u",
    "role": "user",
    "content": [
        {
            "type": "document",
            "source": {
                "type": "file",
                "value": "file-abc",
                "provider": "openai",
                "mimeType": "application/pdf",
            },
        },
        {"type": "image", "source": {"type": "file", "value": "files/xyz"}},
        {
            "type": "document",
            "source": {"type": "url", "value": "https://example.com/a.pdf", "mimeType": "application/pdf"},
        },
        {
            "type": "audio",
            "source": {"type": "url", "value": "https://example.com/a.mp3", "mimeType": "audio/mpeg"},
        },
        {"type": "document", "source": {"type": "file", "value": "file-anthropic", "provider": "anthropic"}},
    ],
}


def test_a_provider_file_handle_is_a_provider_reference_not_a_url() -> None:
    """The AI SDK's place for a provider's file id is ``providerReference`` (its ``uploadFile`` parts: url "")."""
    (user,) = to_ui_messages([FILES_USER])
    openai_file, handle, _, _, anthropic = user["parts"]
    assert (openai_file["url"], openai_file["providerReference"], openai_file["mediaType"]) == (
        "",
        {"openai": "file-abc"},
        "application/pdf",
    )
    assert (handle["url"], handle["providerReference"]) == ("", {"unknown": "files/xyz"})
    assert anthropic["providerReference"] == {"anthropic": "file-anthropic"}
    assert to_agui_messages_wire([user]) == [FILES_USER]
    from agui_notebook.ui._validate import validate_ui_messages

    validate_ui_messages([user])


def test_a_provider_reference_written_by_the_ai_sdk_becomes_a_file_source() -> None:
    ui = {
        "id": "u",
        "role": "user",
        "parts": [
            {
                "type": "file",
                "mediaType": "application/pdf",
                "url": "",
                "providerReference": {"openai": "file-1"},
            }
        ],
    }
    assert to_agui_messages_wire([ui])[0]["content"] == [
        {
            "type": "document",
            "source": {
                "type": "file",
                "value": "file-1",
                "mimeType": "application/pdf",
                "provider": "openai",
            },
        }
    ]


def test_openai_file_ids_are_only_real_file_ids() -> None:
    """URLs go where chat completions takes them (``file_data``), file handles in ``file_id`` (OpenAI's or unnamed)."""
    (user,) = to_openai_messages([FILES_USER])
    assert user["content"] == [
        {"type": "file", "file": {"file_id": "file-abc"}},
        {"type": "file", "file": {"file_id": "files/xyz"}},
        {"type": "file", "file": {"file_data": "https://example.com/a.pdf"}},
        {"type": "file", "file": {"file_data": "https://example.com/a.mp3"}},
        # another provider's handle means nothing to OpenAI: dropped, as the spec tells a peer that cannot use it
    ]
    assert to_openai_messages(to_ui_messages([FILES_USER])) == [user]


_JAVASCRIPT_VALUES = [2**70, 10**300, "\ud83d", {"rows": [2**70, "\udc00"]}, {"a": {"b": [{"c": 2**70}]}}]


@pytest.mark.parametrize("content", _JAVASCRIPT_VALUES, ids=repr)
def test_a_tool_result_javascript_would_write_converts(content: Any) -> None:
    """A TOOL_CALL_RESULT whose content orjson cannot write (JSON.stringify can) still becomes a UI part."""
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f"},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "TOOL_CALL_RESULT", "toolCallId": "c", "messageId": "m", "content": content},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    chunks = list(ui_chunks_from_events(events))
    assert next(c for c in chunks if c["type"] == "tool-output-available")["output"] == content
    (message,) = ui_messages_from_events(events)
    assert message.parts[-1].output == content
    again = to_agui_messages(
        [message.model_dump(mode="python", by_alias=True, exclude_none=True)]
    )  # the next run's input is built from it
    assert again[-1].role == "tool" and isinstance(again[-1].content, str)
