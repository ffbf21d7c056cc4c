"""The pydantic models of UIMessage and its parts: AI SDK JSON in and out, typed messages."""

from __future__ import annotations

import doctest
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from agui_notebook.ui import _parts
from agui_notebook.ui._chunk_source import iter_ui_chunks
from agui_notebook.ui._parts import (
    DataUIPart,
    DynamicToolUIPart,
    FileUIPart,
    ReasoningUIPart,
    StepStartUIPart,
    TextUIPart,
    ToolApproval,
    ToolUIPart,
    UIMessage,
    UnknownUIPart,
)
from agui_notebook.ui._reducer import UIMessageStreamReducer

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "ui_streams"


def _final_messages() -> dict[str, dict[str, Any]]:
    messages = {}
    for path in sorted(FIXTURES.glob("*.jsonl")) + sorted(FIXTURES.glob("*.sse")):
        if path.stem == "odd_values":  # explicit nulls in optional fields: see test_null_optional_fields
            continue
        reducer = UIMessageStreamReducer()
        for chunk in iter_ui_chunks(path.read_bytes()):
            reducer.push(chunk)
        messages[path.stem] = json.loads(json.dumps(reducer.message))
    return messages


@pytest.mark.parametrize(("name", "message"), list(_final_messages().items()))
def test_streamed_messages_round_trip_exactly(name, message):
    model = UIMessage.model_validate(message)
    assert model.model_dump(mode="json") == message
    assert json.loads(model.model_dump_json()) == message
    assert model.model_dump() == message  # python mode has the same keys too
    assert UIMessage.model_validate_json(json.dumps(message)) == model


def test_dumps_are_ai_sdk_json_by_default():
    part = ToolUIPart(
        type="tool-get_weather",
        tool_call_id="c1",
        state="output-available",
        input={"city": "Paris"},
        output=None,
        provider_executed=True,
        approval=ToolApproval(id="a1", approved=True),
    )
    assert part.model_dump() == {
        "type": "tool-get_weather",
        "toolCallId": "c1",
        "state": "output-available",
        "input": {"city": "Paris"},
        "output": None,  # null is a real output: set, so written
        "providerExecuted": True,
        "approval": {"id": "a1", "approved": True},
    }
    assert part.model_dump(by_alias=False)["tool_call_id"] == "c1"
    text = TextUIPart(text="hi", state=None)  # None where the AI SDK has no null: left out even when set
    assert text.model_dump_json() == '{"type":"text","text":"hi"}'
    part.title = "Weather"
    assert part.model_dump()["title"] == "Weather"


def test_parsing_accepts_camel_and_snake_case_and_keeps_extra_keys():
    part = FileUIPart.model_validate({"type": "file", "mediaType": "image/png", "url": "u", "future": 1})
    assert part.media_type == "image/png"
    assert part.model_dump() == {"type": "file", "mediaType": "image/png", "url": "u", "future": 1}
    assert FileUIPart(media_type="image/png", url="u") == FileUIPart.model_validate(
        {"mediaType": "image/png", "url": "u"}
    )


def test_parts_dispatch_on_type():
    message = UIMessage.model_validate(
        {
            "id": "m",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {"type": "reasoning", "text": "r"},
                {"type": "tool-a", "toolCallId": "c", "state": "input-streaming"},
                {
                    "type": "dynamic-tool",
                    "toolName": "b",
                    "toolCallId": "d",
                    "state": "input-available",
                    "input": 1,
                },
                {"type": "data-x", "data": [1]},
                {"type": "future-part", "payload": {"k": 1}},
            ],
        }
    )
    assert [type(p) for p in message.parts] == [
        StepStartUIPart,
        ReasoningUIPart,
        ToolUIPart[Any, Any],
        DynamicToolUIPart,
        DataUIPart[Any],
        UnknownUIPart,
    ]
    unknown = message.parts[-1]
    assert unknown.type == "future-part"
    assert unknown.model_dump() == {"type": "future-part", "payload": {"k": 1}}
    assert message.parts[2].tool_name == "a"


def test_invalid_parts_name_the_field():
    with pytest.raises(ValidationError) as caught:
        UIMessage.model_validate({"id": "m", "role": "user", "parts": [{"type": "text"}]})
    assert caught.value.errors()[0]["loc"] == ("parts", 0, "text", "text")
    with pytest.raises(ValidationError, match="pattern"):
        DataUIPart(type="weather", data=1)


class Weather(BaseModel):
    city: str
    temperature: float


class Query(BaseModel):
    city: str


class Meta(BaseModel):
    model: str


class WeatherData(DataUIPart[Weather], name="weather"):
    pass


class NoteData(DataUIPart[str], name="note"):
    pass


class GetWeather(ToolUIPart[Query, Weather], name="get_weather"):
    pass


ChatMessage = UIMessage[Meta, WeatherData | NoteData, GetWeather]


def test_typed_messages_validate_their_parts():
    message = ChatMessage.model_validate(
        {
            "id": "m",
            "role": "assistant",
            "metadata": {"model": "gpt"},
            "parts": [
                {"type": "data-weather", "id": "w", "data": {"city": "Paris", "temperature": 21}},
                {"type": "data-note", "data": "hello"},
                {
                    "type": "tool-get_weather",
                    "toolCallId": "c",
                    "state": "input-streaming",
                    "input": {"ci": "P"},
                },
                {
                    "type": "tool-get_weather",
                    "toolCallId": "c",
                    "state": "output-available",
                    "input": {"city": "Paris"},
                    "output": {"city": "Paris", "temperature": 21},
                },
                {
                    "type": "tool-get_weather",
                    "toolCallId": "e",
                    "state": "output-error",
                    "input": {"x": 1},
                    "errorText": "e",
                },
            ],
        }
    )
    weather, note, streaming, done, failed = message.parts
    assert message.metadata == Meta(model="gpt")
    assert isinstance(weather, WeatherData) and weather.data == Weather(city="Paris", temperature=21)
    assert isinstance(note, NoteData) and note.data == "hello"
    assert isinstance(done, GetWeather) and done.output == Weather(city="Paris", temperature=21)
    assert done.input == Query(city="Paris")
    assert streaming.input == {"ci": "P"}  # partial input is kept as parsed, not validated
    assert failed.input == {"x": 1}  # a failed call keeps an input that does not validate
    assert json.loads(message.model_dump_json())["parts"][2]["input"] == {"ci": "P"}
    for part in (
        {"type": "data-other", "data": 1},
        {"type": "tool-search", "toolCallId": "c", "state": "input-available", "input": {}},
    ):
        with pytest.raises(ValidationError, match="Part type not allowed here"):
            ChatMessage.model_validate({"id": "m", "role": "assistant", "parts": [part]})
    with pytest.raises(ValidationError):
        ChatMessage.model_validate(
            {"id": "m", "role": "assistant", "parts": [{"type": "data-weather", "data": {"city": 1}}]}
        )


def test_named_parts_fix_their_type():
    assert WeatherData(data=Weather(city="P", temperature=1)).model_dump() == {
        "type": "data-weather",
        "data": {"city": "P", "temperature": 1.0},
    }
    assert (
        GetWeather(tool_call_id="c", state="input-available", input=Query(city="P")).type
        == "tool-get_weather"
    )
    assert WeatherData.part_type == "data-weather" and DataUIPart.part_type is None
    with pytest.raises(ValidationError):
        WeatherData(type="data-other", data=Weather(city="P", temperature=1))


def test_null_optional_fields():
    # The AI SDK's own validation rejects null in these fields; the models accept it and leave it out.
    part = TextUIPart.model_validate({"type": "text", "text": "x", "providerMetadata": None})
    assert part.model_dump() == {"type": "text", "text": "x"}


def test_docstring_examples():
    assert doctest.testmod(_parts).failed == 0
