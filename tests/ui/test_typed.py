"""Tools described by Python functions: the JSON schema of many signatures, checked calls, typed tool parts."""

from __future__ import annotations

import dataclasses
import enum
from typing import Annotated, Any, Literal, Optional

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from agui_notebook import OptionError, UIMessage, UIMessageValidationError, ui_messages_from_events, ui_tools
from agui_notebook.ui._typed import BadToolArguments, tool_function


class Unit(enum.Enum):
    METRIC = "metric"
    IMPERIAL = "imperial"


class Point(BaseModel):
    x: float
    y: float = 0.0


class Window(TypedDict):
    start: str
    hours: int


@dataclasses.dataclass
class Box:
    width: int


def no_parameters() -> str:
    """Say hi."""
    return "hi"


def plain(a, b=2):  # type: ignore[no-untyped-def]
    return a


def typed(
    name: str,
    count: int = 1,
    ratio: float = 0.5,
    flag: bool = False,
    maybe: Optional[str] = None,  # noqa: UP045
    either: int | str = 0,
    mode: Literal["fast", "slow"] = "fast",
    unit: Unit = Unit.METRIC,
    tags: list[str] | None = None,
    scores: dict[str, float] | None = None,
) -> None:
    pass


def nested(point: Point, window: Window, box: Box, points: list[Point] = []) -> None:  # noqa: B006
    pass


def constrained(n: Annotated[int, Field(ge=1, le=10, description="How many.")], /, *, key: str) -> None:
    pass


SCHEMAS: dict[Any, dict[str, Any]] = {
    no_parameters: {"properties": {}, "type": "object"},
    plain: {"properties": {"a": {}, "b": {"default": 2}}, "required": ["a"], "type": "object"},
    typed: {
        "properties": {
            "name": {"type": "string"},
            "count": {"default": 1, "type": "integer"},
            "ratio": {"default": 0.5, "type": "number"},
            "flag": {"default": False, "type": "boolean"},
            "maybe": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
            "either": {"anyOf": [{"type": "integer"}, {"type": "string"}], "default": 0},
            "mode": {"default": "fast", "enum": ["fast", "slow"], "type": "string"},
            "unit": {"$ref": "#/$defs/Unit", "default": "metric"},
            "tags": {
                "anyOf": [{"items": {"type": "string"}, "type": "array"}, {"type": "null"}],
                "default": None,
            },
            "scores": {
                "anyOf": [{"additionalProperties": {"type": "number"}, "type": "object"}, {"type": "null"}],
                "default": None,
            },
        },
        "required": ["name"],
        "type": "object",
        "$defs": {"Unit": {"enum": ["metric", "imperial"], "title": "Unit", "type": "string"}},
    },
    nested: {
        "$defs": {
            "Box": {
                "properties": {"width": {"type": "integer"}},
                "required": ["width"],
                "title": "Box",
                "type": "object",
            },
            "Point": {
                "properties": {"x": {"type": "number"}, "y": {"default": 0.0, "type": "number"}},
                "required": ["x"],
                "title": "Point",
                "type": "object",
            },
            "Window": {
                "properties": {"start": {"type": "string"}, "hours": {"type": "integer"}},
                "required": ["start", "hours"],
                "title": "Window",
                "type": "object",
            },
        },
        "properties": {
            "point": {"$ref": "#/$defs/Point"},
            "window": {"$ref": "#/$defs/Window"},
            "box": {"$ref": "#/$defs/Box"},
            "points": {"default": [], "items": {"$ref": "#/$defs/Point"}, "type": "array"},
        },
        "required": ["point", "window", "box"],
        "type": "object",
    },
    constrained: {
        "properties": {
            "n": {"description": "How many.", "maximum": 10, "minimum": 1, "type": "integer"},
            "key": {"type": "string"},
        },
        "required": ["n", "key"],
        "type": "object",
    },
}


@pytest.mark.parametrize("function", list(SCHEMAS), ids=lambda f: f.__name__)
def test_the_schema_of_a_signature(function: Any) -> None:
    tool = tool_function(function)
    assert tool.parameters == SCHEMAS[function]
    assert tool.declaration == {
        "name": function.__name__,
        "description": tool.description,
        "parameters": SCHEMAS[function],
    }


def test_parameter_names_pydantic_reserves_keep_their_names_in_the_schema_and_the_call() -> None:
    def odd(json: int, _private: str = "x", model_config: bool = False) -> None:
        pass

    tool = tool_function(odd)
    assert list(tool.parameters["properties"]) == ["json", "_private", "model_config"]
    assert tool.call_arguments({"json": 1, "_private": "y", "model_config": True}) == (
        (),
        {"json": 1, "_private": "y", "model_config": True},
    )


DOCSTRINGS = {
    "google": """Find a flight.

    Searches every airline. This second sentence is part of the first paragraph.

    Args:
        origin (str): Where from, as an
            IATA code.
        when: The day.

    Returns:
        The flights.
    """,
    "numpy": """Find a flight.

    Parameters
    ----------
    origin : str
        Where from, as an
        IATA code.
    when
        The day.

    Returns
    -------
    list
    """,
    "sphinx": """Find a flight.

    :param origin: Where from, as an
        IATA code.
    :param str when: The day.
    :returns: the flights
    """,
}


@pytest.mark.parametrize("style", list(DOCSTRINGS))
def test_descriptions_come_from_the_docstring(style: str) -> None:
    def find_flight(origin: str, when: str, seats: int = 1) -> list[str]:
        return []

    find_flight.__doc__ = DOCSTRINGS[style]
    tool = tool_function(find_flight)
    assert tool.description == "Find a flight."
    properties = tool.parameters["properties"]
    assert properties["origin"]["description"] == "Where from, as an IATA code."
    assert properties["when"]["description"] == "The day."
    assert "description" not in properties["seats"]


def test_the_description_is_the_first_paragraph_and_overrides_win() -> None:
    def search(query: str) -> None:
        """Search the web
        for pages.

        More details that do not go to the model.
        """

    assert tool_function(search).description == "Search the web for pages."
    assert (
        tool_function(search, name="web_search", description="Look it up.").declaration["name"]
        == "web_search"
    )
    assert tool_function(search, description="Look it up.").description == "Look it up."
    assert tool_function(plain).description == ""


def test_call_arguments_check_the_signature_and_name_the_argument() -> None:
    tool = tool_function(nested)
    args, kwargs = tool.call_arguments(
        {"point": {"x": 1}, "window": {"start": "9:00", "hours": "2"}, "box": {"width": 3}}
    )
    assert args == ()
    assert kwargs == {
        "point": Point(x=1.0),
        "window": {"start": "9:00", "hours": 2},
        "box": Box(width=3),
        "points": [],
    }
    with pytest.raises(BadToolArguments, match=r"^window\.hours: Field required; box: Field required$"):
        tool.call_arguments({"point": {"x": 1}, "window": {"start": "9:00"}})
    with pytest.raises(BadToolArguments, match=r"^points\[1\]\.x: Input should be a valid number"):
        tool.call_arguments(
            {
                "point": {"x": 1},
                "window": {"start": "a", "hours": 1},
                "box": {"width": 1},
                "points": [{"x": 1}, {"x": "?"}],
            }
        )
    assert tool_function(constrained).call_arguments({"n": 3, "key": "k"}) == ((3,), {"key": "k"})
    with pytest.raises(BadToolArguments, match=r"^n: Input should be less than or equal to 10$"):
        tool_function(constrained).call_arguments({"n": 11, "key": "k"})
    assert tool_function(no_parameters).call_arguments(None) == ((), {})
    with pytest.raises(BadToolArguments, match=r"^the arguments are a list, not a JSON object: \[1\]$"):
        tool_function(no_parameters).call_arguments([1])


class Opaque:
    pass


def test_signatures_that_cannot_be_described_name_the_function_and_the_parameter() -> None:
    def opaque(thing: Opaque) -> None: ...

    def star(*names: str) -> None: ...

    def stars(**options: str) -> None: ...

    with pytest.raises(OptionError, match=r"parameter 'thing' is annotated Opaque, which has no JSON schema"):
        tool_function(opaque)
    with pytest.raises(OptionError, match=r"opaque'"):
        tool_function(opaque)
    with pytest.raises(OptionError, match=r"parameter \*names cannot be described"):
        tool_function(star)
    with pytest.raises(OptionError, match=r"parameter \*\*options cannot be described"):
        tool_function(stars)
    with pytest.raises(OptionError, match=r"'no such' is not a tool name"):
        tool_function(no_parameters, name="no such")
    with pytest.raises(OptionError, match="must be callable"):
        tool_function("get_time")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------- typed parts


def get_weather(city: str, unit: Unit = Unit.METRIC) -> Point:
    """The weather."""
    return Point(x=1)


def get_time(tz: str) -> str:
    return "12:00"


def weather_part(state: str, **fields: Any) -> dict[str, Any]:
    return {"type": "tool-get_weather", "toolCallId": "c1", "state": state, **fields}


def message(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"id": "a1", "role": "assistant", "parts": list(parts)}


def test_ui_tools_validate_inputs_against_the_signature_and_outputs_against_the_return_annotation() -> None:
    ChatMessage = UIMessage[Any, Any, ui_tools(get_weather, get_time)]
    parsed = ChatMessage.model_validate(
        message(
            weather_part("output-available", input={"city": "Oslo", "unit": "imperial"}, output={"x": 2}),
            {"type": "tool-get_time", "toolCallId": "c2", "state": "input-available", "input": {"tz": "UTC"}},
            weather_part("input-streaming", input={"ci": 1}),  # partial input is not checked
            weather_part("output-error", input={"city": 5}, errorText="bad"),  # nor a failed call's
        )
    )
    weather, time_call, streaming, failed = parsed.parts
    assert type(weather).__name__ == "GetWeatherToolPart" and weather.tool_name == "get_weather"
    assert (weather.input.city, weather.input.unit, weather.output) == ("Oslo", Unit.IMPERIAL, Point(x=2.0))
    assert time_call.input.tz == "UTC"
    assert streaming.input == {"ci": 1} and failed.input == {"city": 5}
    assert parsed.model_dump(mode="json")["parts"][0] == weather_part(
        "output-available", input={"city": "Oslo", "unit": "imperial"}, output={"x": 2.0, "y": 0.0}
    )
    with pytest.raises(ValueError, match=r"input\.city"):
        ChatMessage.model_validate(message(weather_part("input-available", input={})))
    with pytest.raises(ValueError, match=r"output\.x"):
        ChatMessage.model_validate(
            message(weather_part("output-available", input={"city": "a"}, output={"y": 1}))
        )
    with pytest.raises(
        ValueError, match="Part type not allowed here"
    ):  # a typed message takes only its tools
        ChatMessage.model_validate(
            message({"type": "tool-other", "toolCallId": "c", "state": "input-available", "input": {}})
        )


def test_ui_tools_refuses_what_it_cannot_type() -> None:
    def returns_opaque() -> Opaque:
        return Opaque()

    with pytest.raises(
        OptionError, match=r"tool 'returns_opaque': its return annotation Opaque has no JSON schema"
    ):
        ui_tools(returns_opaque)
    with pytest.raises(OptionError, match="at least one function"):
        ui_tools()


def test_ui_messages_from_events_returns_typed_messages_and_locates_one_that_does_not_validate() -> None:
    ChatMessage = UIMessage[Any, Any, ui_tools(get_weather)]

    def events(arguments: str) -> list[dict[str, Any]]:
        return [
            {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
            {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "get_weather"},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": arguments},
            {"type": "TOOL_CALL_END", "toolCallId": "c1"},
            {"type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "c1", "content": '{"x": 3}'},
            {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
        ]

    user = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Weather?"}]}
    messages = ui_messages_from_events(events('{"city": "Oslo"}'), messages=[user], message_type=ChatMessage)
    assert [type(m) for m in messages] == [ChatMessage, ChatMessage]
    call = messages[1].parts[1]
    assert (call.input.city, call.output) == ("Oslo", Point(x=3.0))
    with pytest.raises(
        UIMessageValidationError,
        match=r"^messages\[1\]\.parts\[1\]\.input\.city: Input should be a valid string$",
    ):
        ui_messages_from_events(events('{"city": 7}'), messages=[user], message_type=ChatMessage)
    assert type(ui_messages_from_events(events('{"city": 7}'))[0]) is UIMessage  # untyped: anything goes
