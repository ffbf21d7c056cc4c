"""validate_ui_messages against the AI SDK's safeValidateUIMessages, and the part type guards."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, TypeAdapter

from agui_notebook.ui._parts import DynamicToolUIPart, ToolUIPart, UIMessage
from agui_notebook.ui._validate import (
    UIMessageValidationError,
    get_tool_name,
    is_tool_output_error_part,
    is_tool_ui_part,
    safe_validate_ui_messages,
    validate_ui_messages,
)


class Meta(BaseModel):
    model_config = ConfigDict(strict=True)
    model: str


class WeatherOut(BaseModel):
    model_config = ConfigDict(strict=True)
    temp: float


class City(BaseModel):
    model_config = ConfigDict(strict=True)
    city: str


# The same schemas as the presets in js/reference/ai_validate.mjs (zod is strict like these models).
PRESETS = {"meta": Meta, "weather": WeatherOut, "city": City, "text": TypeAdapter(str)}


def user(*parts, **extra):
    return {"id": "u", "role": "user", "parts": list(parts), **extra}


def assistant(*parts, **extra):
    return {"id": "a", "role": "assistant", "parts": list(parts), **extra}


TEXT = {"type": "text", "text": "hi"}


def tool(state, name="get_weather", **fields):
    return {"type": f"tool-{name}", "toolCallId": "c1", "state": state, **fields}


def dynamic(state, **fields):
    return {"type": "dynamic-tool", "toolName": "mcp", "toolCallId": "d1", "state": state, **fields}


GRANTED = {"id": "ap", "approved": True}
CASES = [
    # shape
    ([], None),
    ([user(TEXT)], None),
    ([user()], None),
    ([assistant()], None),
    ([{"id": "s", "role": "system", "parts": [TEXT]}], None),
    ([{"id": "x", "role": "tool", "parts": [TEXT]}], None),
    ([{"role": "user", "parts": [TEXT]}], None),
    ([{"id": 1, "role": "user", "parts": [TEXT]}], None),
    ([{"id": "u", "role": "user"}], None),
    ([user(TEXT, metadata={"anything": [1, None]})], None),
    ([user({"type": "text", "text": "x", "extra": 1, "state": "done"})], None),
    ([user({"type": "text", "text": 3})], None),
    ([user({"type": "text", "text": "x", "state": "partial"})], None),
    ([user({"type": "text", "text": "x", "providerMetadata": {"p": {"k": [1, {"a": None}]}}})], None),
    ([user({"type": "text", "text": "x", "providerMetadata": {"p": 1}})], None),
    ([user({"type": "text", "text": "x", "providerMetadata": None})], None),
    (
        [
            user(
                {
                    "type": "text",
                    "text": "x",
                    "citations": [
                        {
                            "source": {"type": "source", "sourceType": "url", "id": "s", "url": "u"},
                            "startIndex": 1,
                        }
                    ],
                }
            )
        ],
        None,
    ),
    (
        [
            user(
                {
                    "type": "text",
                    "text": "x",
                    "citations": [{"source": {"type": "source", "sourceType": "url", "id": "s"}}],
                }
            )
        ],
        None,
    ),
    (
        [
            user(
                {
                    "type": "text",
                    "text": "x",
                    "citations": [
                        {
                            "source": {"type": "source", "sourceType": "url", "id": "s", "url": "u"},
                            "startIndex": -1,
                        }
                    ],
                }
            )
        ],
        None,
    ),
    ([user({"type": "future-part", "x": 1})], None),
    ([user({"text": "no type"})], None),
    ([user("not an object")], None),
    ([assistant({"type": "reasoning", "text": "r", "id": "r1", "state": "done"})], None),
    ([assistant({"type": "reasoning", "text": "r", "id": 5})], None),
    ([assistant({"type": "custom", "kind": "openai.x"})], None),
    ([assistant({"type": "custom"})], None),
    ([assistant({"type": "source-url", "sourceId": "s", "url": "u", "title": "t"})], None),
    ([assistant({"type": "source-url", "sourceId": "s"})], None),
    (
        [
            assistant(
                {"type": "source-document", "sourceId": "s", "mediaType": "m", "title": "t", "filename": "f"}
            )
        ],
        None,
    ),
    ([assistant({"type": "source-document", "sourceId": "s", "mediaType": "m"})], None),
    (
        [
            user(
                {
                    "type": "file",
                    "mediaType": "image/png",
                    "url": "data:x",
                    "filename": "a.png",
                    "providerReference": {"openai": "f1"},
                }
            )
        ],
        None,
    ),
    (
        [user({"type": "file", "mediaType": "image/png", "url": "u", "providerReference": {"openai": 1}})],
        None,
    ),
    ([assistant({"type": "reasoning-file", "mediaType": "image/png", "url": "u"})], None),
    ([assistant({"type": "step-start"}, {"type": "step-start", "x": 1})], None),
    (
        [
            assistant(
                {
                    "type": "steering-message",
                    "id": "s",
                    "parts": [TEXT, {"type": "file", "mediaType": "m", "url": "u"}],
                }
            )
        ],
        None,
    ),
    (
        [assistant({"type": "steering-message", "id": "s", "parts": [{"type": "reasoning", "text": "r"}]})],
        None,
    ),
    ([assistant({"type": "data-weather", "data": {"temp": 1}, "id": "w"})], None),
    ([assistant({"type": "data-weather"})], None),
    ([assistant({"type": "data-weather", "id": 3, "data": 1})], None),
    # tool parts by state
    ([assistant(tool("input-streaming"))], None),
    ([assistant(tool("input-streaming", input={"ci": 1}, rawInput='{"ci', inputEncoding="json"))], None),
    ([assistant(tool("input-streaming", rawInput=3))], None),
    ([assistant(tool("input-streaming", approval={"id": "x"}))], None),
    ([assistant(tool("input-available", input={"city": "P"}))], None),
    ([assistant(tool("input-available", input={"city": "P"}, output=1))], None),
    ([assistant(tool("input-available", input={"city": "P"}, output=None))], None),
    (
        [
            assistant(
                tool(
                    "approval-requested",
                    input={},
                    approval={"id": "ap", "isAutomatic": True, "requestReason": "r"},
                )
            )
        ],
        None,
    ),
    ([assistant(tool("approval-requested", input={}, approval={"id": "ap", "approved": True}))], None),
    ([assistant(tool("approval-requested", input={}))], None),
    (
        [
            assistant(
                tool("approval-responded", input={}, approval={"id": "ap", "approved": False, "reason": "no"})
            )
        ],
        None,
    ),
    ([assistant(tool("approval-responded", input={}, approval={"id": "ap"}))], None),
    (
        [
            assistant(
                tool(
                    "output-available",
                    input={"city": "P"},
                    output={"temp": 1},
                    preliminary=True,
                    approval=GRANTED,
                )
            )
        ],
        None,
    ),
    (
        [assistant(tool("output-available", input={}, output=1, approval={"id": "ap", "approved": False}))],
        None,
    ),
    ([assistant(tool("output-available", input={}, output=1, errorText="x"))], None),
    ([assistant(tool("output-error", errorText="boom", rawInput={"any": 1}))], None),
    ([assistant(tool("output-error", input={"city": "P"}))], None),
    ([assistant(tool("output-denied", input={}, approval={"id": "ap", "approved": False}))], None),
    ([assistant(tool("output-denied", input={}, approval=GRANTED))], None),
    ([assistant(tool("finished", input={}))], None),
    (
        [
            assistant(
                tool("input-available", input={}, toolMetadata={"a": [1]}, title="T", providerExecuted=True)
            )
        ],
        None,
    ),
    ([assistant(tool("input-available", input={}, providerExecuted="yes"))], None),
    ([assistant(tool("input-available", input={}, toolCallId=7))], None),
    ([assistant(dynamic("input-available", input={"x": 1}))], None),
    ([assistant(dynamic("output-available", input={}, output=[1], dynamic=False))], None),
    ([assistant(dynamic("output-available", input={}, output=[1], dynamic=True))], None),
    ([assistant(dynamic("input-available", input={}, toolName=None))], None),
    ([assistant(dynamic("output-error", errorText="e"))], None),
    ([user(TEXT), assistant(TEXT, tool("input-streaming")), user({"type": "nope"})], None),
    # schemas: metadata
    ([user(TEXT, metadata={"model": "m"})], {"metadata": "meta"}),
    ([user(TEXT, metadata={"model": 1})], {"metadata": "meta"}),
    ([user(TEXT)], {"metadata": "meta"}),
    # schemas: data parts by name
    ([assistant({"type": "data-weather", "data": {"temp": 20}})], {"data": {"weather": "weather"}}),
    ([assistant({"type": "data-weather", "data": {"temp": "hot"}})], {"data": {"weather": "weather"}}),
    ([assistant({"type": "data-other", "data": {}})], {"data": {"weather": "weather"}}),
    ([assistant(TEXT)], {"data": {"weather": "weather"}}),
    # schemas: tools by name
    (
        [assistant(tool("input-available", input={"city": "P"}))],
        {"tools": {"get_weather": {"input": "city"}}},
    ),
    ([assistant(tool("input-available", input={"city": 3}))], {"tools": {"get_weather": {"input": "city"}}}),
    ([assistant(tool("input-streaming", input={"city": 3}))], {"tools": {"get_weather": {"input": "city"}}}),
    ([assistant(tool("input-available", input={"city": "P"}))], {"tools": {"search": {"input": "city"}}}),
    (
        [assistant(tool("output-available", input={"city": "P"}, output={"temp": 3}))],
        {"tools": {"search": {"input": "city"}}},
    ),
    ([assistant(tool("output-denied", input={}, approval={"id": "ap", "approved": False}))], {"tools": {}}),
    (
        [assistant(tool("output-available", input={"city": "P"}, output={"temp": 3}))],
        {"tools": {"get_weather": {"input": "city", "output": "weather"}}},
    ),
    (
        [assistant(tool("output-available", input={"city": "P"}, output={"temp": "x"}))],
        {"tools": {"get_weather": {"input": "city", "output": "weather"}}},
    ),
    (
        [assistant(tool("output-available", input={}, output={"temp": 3}))],
        {"tools": {"get_weather": {"input": "city", "output": "weather"}}},
    ),
    (
        [assistant(tool("output-available", input={"x": 1}, output={"temp": 3}))],
        {"tools": {"get_weather": {"input": "city", "output": "weather"}}},
    ),
    (
        [assistant(tool("output-error", input={"x": 1}, errorText="e"))],
        {"tools": {"get_weather": {"input": "city"}}},
    ),
    ([assistant(tool("output-error", errorText="e"))], {"tools": {"get_weather": {"input": "city"}}}),
    (
        [
            assistant(
                tool(
                    "approval-requested",
                    input={"city": "P"},
                    approval={"id": "ap", "inputSchemaInput": {"city": "P"}},
                )
            )
        ],
        {"tools": {"get_weather": {"input": "city"}}},
    ),
    (
        [
            assistant(
                tool(
                    "approval-requested",
                    input={"city": "Q"},
                    approval={"id": "ap", "inputSchemaInput": {"city": "P"}},
                )
            )
        ],
        {"tools": {"get_weather": {"input": "city"}}},
    ),
    (
        [assistant(tool("input-available", input="free text", name="notes"))],
        {"tools": {"notes": {"input": "text"}}},
    ),
    ([assistant(dynamic("input-available", input={"x": 1}))], {"tools": {}}),
]


def _python_options(schemas):
    if not schemas:
        return {}
    options = {}
    if "metadata" in schemas:
        options["metadata_schema"] = PRESETS[schemas["metadata"]]
    if "data" in schemas:
        options["data_schemas"] = {name: PRESETS[p] for name, p in schemas["data"].items()}
    if "tools" in schemas:
        options["tools"] = {
            name: (PRESETS[spec["input"]], PRESETS[spec["output"]] if "output" in spec else None)
            for name, spec in schemas["tools"].items()
        }
    return options


@pytest.mark.node
def test_success_and_failure_match_the_ai_sdk(node_reference):
    payload = [
        {"messages": messages, **({"schemas": schemas} if schemas else {})} for messages, schemas in CASES
    ]
    expected = node_reference("ai_validate.mjs", {"cases": payload})
    mismatches = []
    for (messages, schemas), reference in zip(CASES, expected, strict=True):
        result = safe_validate_ui_messages(messages, **_python_options(schemas))
        ours = {"success": result.success}
        if result.success:
            ours["data"] = [m.model_dump(mode="json") for m in result.data]
        if ours["success"] != reference["success"] or (result.success and ours["data"] != reference["data"]):
            mismatches.append((messages, schemas, ours, reference))
    assert mismatches == []
    assert sum(1 for r in expected if r["success"]) > 30  # the table tests both outcomes
    assert sum(1 for r in expected if not r["success"]) > 30


def test_error_names_the_path():
    with pytest.raises(UIMessageValidationError) as caught:
        validate_ui_messages(
            [{"id": "u", "role": "user", "parts": [TEXT]}, assistant(TEXT, {"type": "text"})]
        )
    assert str(caught.value) == "messages[1].parts[1].text: required"
    assert caught.value.path == "messages[1].parts[1].text"
    assert isinstance(caught.value, ValueError)

    with pytest.raises(UIMessageValidationError, match=r"^messages\[0\]\.parts\[0\]\.input: does not match"):
        validate_ui_messages(
            [assistant(tool("input-available", input={"city": 3}))], tools={"get_weather": City}
        )
    with pytest.raises(UIMessageValidationError, match=r"^messages\[0\]\.metadata: does not match"):
        validate_ui_messages([user(TEXT)], metadata_schema=Meta)


def test_schemas_may_be_callables_and_validated_values_are_kept():
    def positive(value):
        if value <= 0:
            raise ValueError("must be positive")
        return value * 10

    [message] = validate_ui_messages(
        [assistant({"type": "data-score", "data": 2}, metadata={"model": "m"})],
        data_schemas={"score": positive},
        metadata_schema=Meta,
    )
    assert message.parts[0].data == 20
    assert message.metadata == Meta(model="m")
    result = safe_validate_ui_messages(
        [assistant({"type": "data-score", "data": -1})], data_schemas={"score": positive}
    )
    assert (result.success, result.data) == (False, None)
    assert str(result.error) == "messages[0].parts[0].data: does not match the schema: must be positive"


def test_unavailable_finished_tools_become_dynamic():
    [message] = validate_ui_messages(
        [assistant(tool("output-available", input={"city": "P"}, output=1))], tools={"search": City}
    )
    assert message.parts[0] == DynamicToolUIPart(
        tool_name="get_weather",
        tool_call_id="c1",
        state="output-available",
        input={"city": "P"},
        output=1,
        dynamic=False,
    )


def test_type_guards():
    static = ToolUIPart(type="tool-get_weather", tool_call_id="c", state="output-error", error_text="e")
    dynamic_part = {"type": "dynamic-tool", "toolName": "mcp", "toolCallId": "d", "state": "input-available"}
    assert is_tool_ui_part(static) and is_tool_ui_part(dynamic_part)
    assert not is_tool_ui_part({"type": "text", "text": ""})
    assert is_tool_output_error_part(static)
    assert not is_tool_output_error_part(dynamic_part)
    assert not is_tool_output_error_part({"type": "text", "state": "output-error"})
    assert get_tool_name(static) == "get_weather"
    assert get_tool_name(dynamic_part) == "mcp"
    assert get_tool_name({"type": "tool-a-b"}) == "a-b"


def test_models_and_dicts_both_accepted():
    model = UIMessage.model_validate(user(TEXT))
    assert validate_ui_messages([model, user(TEXT)]) == [model, model]
