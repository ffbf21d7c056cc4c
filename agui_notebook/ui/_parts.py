"""Pydantic models of the AI SDK's ``UIMessage`` and its parts (ai 7), for the public edges.

Dumps are AI SDK JSON by default: camelCase keys, and optional fields that were never set are left out rather
than written as ``null``. Parsing keeps what it does not know: extra keys stay on the part, and a part of an
unknown type becomes an ``UnknownUIPart`` holding all its fields.

Typed messages mirror the AI SDK's three generics (metadata, data parts, tools). Name a data part or a tool by
subclassing with ``name=``, then parametrize ``UIMessage[Metadata, DataParts, Tools]``; parsing validates the
typed fields and type checkers see them::

    class Weather(BaseModel):
        city: str
        temperature: float

    class WeatherQuery(BaseModel):
        city: str

    class ChatMetadata(BaseModel):
        model: str

    class WeatherData(DataUIPart[Weather], name="weather"):  # parts of type "data-weather"
        pass

    class GetWeather(ToolUIPart[WeatherQuery, Weather], name="get_weather"):  # parts of type "tool-get_weather"
        pass

    ChatMessage = UIMessage[ChatMetadata, WeatherData, GetWeather]  # unions work too: WeatherData | NoteData
    message = ChatMessage.model_validate(payload)
    message.metadata  # ChatMetadata | None
    for part in message.parts:
        if isinstance(part, GetWeather) and part.state == "output-available":
            print(part.output.temperature)  # a float, for the type checker too
    GetWeather(tool_call_id="c1", state="input-available", input=WeatherQuery(city="Paris"))  # type is set

A typed message accepts only its named data parts and tools (as ``validateUIMessages`` does with schemas);
plain ``UIMessage`` accepts every ``data-*`` and ``tool-*`` part. While a tool part is ``input-streaming`` its
``input`` is the partial JSON parsed so far and is not validated; a failed call (``output-error``) keeps an input
that does not validate as it is.
"""

from __future__ import annotations

import types
import typing
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Generic, Literal, TypeAlias, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    FieldSerializationInfo,
    GetCoreSchemaHandler,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_serializer,
    field_validator,
    model_serializer,
)
from pydantic.alias_generators import to_camel
from pydantic_core import CoreSchema, core_schema, to_jsonable_python
from typing_extensions import NoDefault, TypeVar

__all__ = [
    "CustomContentUIPart",
    "DataUIPart",
    "DynamicToolUIPart",
    "FileUIPart",
    "ProviderMetadata",
    "ReasoningFileUIPart",
    "ReasoningUIPart",
    "SourceDocumentUIPart",
    "SourceUrlUIPart",
    "SteeringMessageUIPart",
    "StepStartUIPart",
    "TextUIPart",
    "ToolApproval",
    "ToolState",
    "ToolUIPart",
    "UIMessage",
    "UIMessagePart",
    "UIPart",
    "UnknownUIPart",
]

ProviderMetadata: TypeAlias = dict[str, dict[str, Any]]
"""Provider-specific metadata: provider name -> JSON object."""

ToolState: TypeAlias = Literal[
    "input-streaming",
    "input-available",
    "approval-requested",
    "approval-responded",
    "output-available",
    "output-error",
    "output-denied",
]
"""The states of a tool call, in the order a call goes through them."""

InputT = TypeVar("InputT", default=Any)
OutputT = TypeVar("OutputT", default=Any)
DataT = TypeVar("DataT", default=Any)


class _AISDKModel(BaseModel):
    """Base of every AI SDK shape: camelCase JSON, unset optional fields left out of dumps, extra keys kept."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        extra="allow",
    )

    _json_value_fields: ClassVar[frozenset[str]] = frozenset()
    """Fields typed as any JSON value, where ``null`` is a real value: written when set, even to ``None``."""
    _optional_fields: ClassVar[tuple[tuple[str, str, bool], ...]] = ()
    _type_not_first: ClassVar[bool] = False

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        cls._optional_fields = tuple(
            (name, field.serialization_alias or field.alias or name, name in cls._json_value_fields)
            for name, field in cls.__pydantic_fields__.items()
            if not field.is_required() and field.default is None
        )
        # Inherited fields come first; a dump should still start with `type`, as the AI SDK's objects do.
        cls._type_not_first = (
            "type" in cls.__pydantic_fields__ and next(iter(cls.__pydantic_fields__)) != "type"
        )

    @model_serializer(mode="wrap")
    def _leave_out_absent_fields(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> Any:
        data = handler(self)
        if type(data) is not dict:
            return data
        by_alias = info.by_alias is not False
        fields_set = self.__pydantic_fields_set__
        for name, alias, json_value in self._optional_fields:
            key = alias if by_alias else name
            if data.get(key, 0) is None and not (json_value and name in fields_set):
                del data[key]
        if self._type_not_first and "type" in data:
            return {"type": data.pop("type"), **data}
        return data


class UIPart(_AISDKModel):
    """Base class of every UIMessage part; each has a ``type``."""


class TextUIPart(UIPart):
    """A text part of a message."""

    type: Literal["text"] = "text"
    text: str
    state: Literal["streaming", "done"] | None = None
    citations: list[dict[str, Any]] | None = None
    """References supporting this text (AI SDK ``Citation`` objects)."""
    provider_metadata: ProviderMetadata | None = None


class ReasoningUIPart(UIPart):
    """A reasoning part of a message."""

    type: Literal["reasoning"] = "reasoning"
    id: str | None = None
    text: str
    state: Literal["streaming", "done"] | None = None
    provider_metadata: ProviderMetadata | None = None


class CustomContentUIPart(UIPart):
    """A provider-specific part; ``kind`` is ``"{provider}.{provider-type}"``."""

    type: Literal["custom"] = "custom"
    kind: str
    provider_metadata: ProviderMetadata | None = None


class SourceUrlUIPart(UIPart):
    """A source (web page) the answer is based on."""

    type: Literal["source-url"] = "source-url"
    source_id: str
    url: str
    title: str | None = None
    provider_metadata: ProviderMetadata | None = None


class SourceDocumentUIPart(UIPart):
    """A source document the answer is based on."""

    type: Literal["source-document"] = "source-document"
    source_id: str
    media_type: str
    title: str
    filename: str | None = None
    provider_metadata: ProviderMetadata | None = None


class FileUIPart(UIPart):
    """A file: ``url`` is a hosted URL or a data URL."""

    type: Literal["file"] = "file"
    media_type: str
    filename: str | None = None
    url: str
    provider_reference: dict[str, str] | None = None
    """Provider name -> file id, for files uploaded to a provider."""
    provider_metadata: ProviderMetadata | None = None


class ReasoningFileUIPart(UIPart):
    """A file produced while reasoning."""

    type: Literal["reasoning-file"] = "reasoning-file"
    media_type: str
    url: str
    provider_metadata: ProviderMetadata | None = None


class StepStartUIPart(UIPart):
    """The start of a step (one model call) within an assistant message."""

    type: Literal["step-start"] = "step-start"


class SteeringMessageUIPart(UIPart):
    """A user message added while the assistant message was generated (experimental in ai 7)."""

    type: Literal["steering-message"] = "steering-message"
    id: str
    parts: list[Annotated[TextUIPart | FileUIPart, Field(discriminator="type")]]


class _NamedPart(UIPart):
    """A part whose ``type`` is ``{prefix}{name}``; subclasses given ``name=`` fix it."""

    _type_prefix: ClassVar[str] = ""
    part_type: ClassVar[str | None] = None
    """The exact ``type`` of this class's parts, for subclasses declared with ``name=``."""

    def __init_subclass__(cls, name: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if name is not None:
            part_type = f"{cls._type_prefix}{name}"
            cls.part_type = part_type
            # Narrow `type` before pydantic collects the fields, so parsing checks it and it has a default.
            cls.__annotations__["type"] = Literal[part_type]
            # `type` is a field of each subclass (DataUIPart, ToolUIPart ...), not of this base.
            cls.type = part_type  # type: ignore[attr-defined]


class DataUIPart(_NamedPart, Generic[DataT]):
    """A custom data part, ``type`` ``"data-{name}"``.

    >>> DataUIPart(type="data-progress", data=0.5).model_dump()
    {'type': 'data-progress', 'data': 0.5}
    """

    _type_prefix: ClassVar[str] = "data-"
    _json_value_fields: ClassVar[frozenset[str]] = frozenset({"data"})

    type: Annotated[str, Field(pattern=r"^data-", validate_default=True)] = ""
    id: str | None = None
    data: DataT = None  # type: ignore[assignment]  # absent only when a chunk left it out
    """The payload; a data part that was replaced by a chunk without ``data`` has none (``None``)."""


class ToolApproval(_AISDKModel):
    """The approval state of a tool call: requested (``approved`` unset), then approved or denied."""

    _json_value_fields: ClassVar[frozenset[str]] = frozenset({"descriptor", "input_schema_input"})

    id: str
    approved: bool | None = None
    descriptor: Any = None
    request_reason: str | None = None
    reason: str | None = None
    is_automatic: bool | None = None
    signature: str | None = None
    input_schema_input: Any = None


class _ToolCallFields(UIPart):
    _json_value_fields: ClassVar[frozenset[str]] = frozenset({"input", "output", "raw_input"})

    tool_call_id: str
    state: ToolState
    title: str | None = None
    tool_metadata: dict[str, Any] | None = None
    provider_executed: bool | None = None
    """Whether the provider (not the client or server) ran the tool."""
    input_encoding: Literal["json", "text"] | None = None
    raw_input: Any = None
    """The input text received so far while ``input-streaming`` (deprecated on ``output-error``)."""
    error_text: str | None = None
    preliminary: bool | None = None
    """An ``output-available`` output that later outputs will replace."""
    approval: ToolApproval | None = None
    call_provider_metadata: ProviderMetadata | None = None
    result_provider_metadata: ProviderMetadata | None = None


class ToolUIPart(_ToolCallFields, _NamedPart, Generic[InputT, OutputT]):
    """A call of a tool known to the app (a static tool), ``type`` ``"tool-{name}"``.

    >>> part = ToolUIPart(type="tool-get_weather", tool_call_id="c1", state="input-available", input={"city": "Paris"})
    >>> part.model_dump()
    {'type': 'tool-get_weather', 'toolCallId': 'c1', 'state': 'input-available', 'input': {'city': 'Paris'}}
    >>> part.tool_name
    'get_weather'
    """

    _type_prefix: ClassVar[str] = "tool-"

    type: Annotated[str, Field(pattern=r"^tool-", validate_default=True)] = ""
    input: InputT | None = None
    output: OutputT | None = None

    @property
    def tool_name(self) -> str:
        """The tool's name: ``type`` without ``tool-``."""
        return self.type[5:]

    @field_serializer("input", mode="wrap")
    def _serialize_unvalidated_input(
        self, value: Any, handler: SerializerFunctionWrapHandler, info: FieldSerializationInfo
    ) -> Any:
        # A streaming (partial) or failed call's input may not be an InputT; write it as the JSON it is.
        if self.state in ("input-streaming", "output-error") and value is not None:
            return to_jsonable_python(value) if info.mode_is_json() else value
        return handler(value)

    @field_validator("input", mode="wrap")
    @classmethod
    def _validate_input_when_complete(
        cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo
    ) -> Any:
        state = info.data.get("state")
        if state == "input-streaming":
            return value
        if state == "output-error":
            try:
                return handler(value)
            except ValidationError:
                return value
        return handler(value)


class DynamicToolUIPart(_ToolCallFields):
    """A call of a tool whose input and output types are not known in advance (``type`` ``"dynamic-tool"``)."""

    type: Literal["dynamic-tool"] = "dynamic-tool"
    tool_name: str
    dynamic: Literal[False] | None = None
    """``False`` when a static tool part was turned into a dynamic one because its tool is unavailable."""
    input: Any = None
    output: Any = None


class UnknownUIPart(UIPart):
    """A part of a type this version does not know; all its fields are kept (as extra fields)."""

    type: str


# -- the parts union -------------------------------------------------------------------------------------------

DataPartT = TypeVar("DataPartT", bound=DataUIPart[Any], default=DataUIPart[Any])
ToolPartT = TypeVar("ToolPartT", bound=ToolUIPart[Any, Any], default=ToolUIPart[Any, Any])
MetadataT = TypeVar("MetadataT", default=Any)

_FIXED_PART_TYPES: tuple[type[UIPart], ...] = (
    TextUIPart,
    ReasoningUIPart,
    CustomContentUIPart,
    SourceUrlUIPart,
    SourceDocumentUIPart,
    FileUIPart,
    ReasoningFileUIPart,
    StepStartUIPart,
    SteeringMessageUIPart,
    DynamicToolUIPart,
)
_ANY_DATA = "data-*"
_ANY_TOOL = "tool-*"
_UNKNOWN = "*"


def _resolve_type_argument(argument: Any) -> list[type[UIPart]]:
    """The part classes a type argument stands for (a class, a union of classes, or an unfilled TypeVar)."""
    if isinstance(argument, typing.TypeVar):
        default = getattr(argument, "__default__", None)
        argument = default if default is not None and default is not NoDefault else argument.__bound__
    origin = typing.get_origin(argument)
    if origin is Union or origin is types.UnionType:
        return [cls for member in typing.get_args(argument) for cls in _resolve_type_argument(member)]
    return [argument]


def _parts_schema(source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
    arguments = typing.get_args(source) or (DataPartT, ToolPartT)
    data_classes = _resolve_type_argument(arguments[0])
    tool_classes = _resolve_type_argument(arguments[1])
    choices: dict[str, CoreSchema] = {}
    for cls in _FIXED_PART_TYPES:
        choices[cls.model_fields["type"].default] = handler.generate_schema(cls)
    for cls, wildcard in [(c, _ANY_DATA) for c in data_classes] + [(c, _ANY_TOOL) for c in tool_classes]:
        part_type = getattr(cls, "part_type", None)
        choices[part_type or wildcard] = handler.generate_schema(cls)
    choices[_UNKNOWN] = handler.generate_schema(UnknownUIPart)
    fixed_tags = frozenset(choices) - {_ANY_DATA, _ANY_TOOL, _UNKNOWN}

    def tag_of(value: Any) -> str | None:
        part_type = value.get("type") if type(value) is dict else getattr(value, "type", None)
        if part_type in fixed_tags:
            return part_type
        if type(part_type) is not str:
            return None
        if part_type.startswith("data-"):
            return _ANY_DATA
        if part_type.startswith("tool-"):
            return _ANY_TOOL
        return _UNKNOWN

    expected = ", ".join(sorted(fixed_tags | {_ANY_DATA, _ANY_TOOL} & set(choices)))
    return core_schema.tagged_union_schema(
        choices,
        discriminator=tag_of,
        custom_error_type="ui_part_type",
        custom_error_message=f"Part type not allowed here; expected one of: {expected}, or a type not "
        "starting with 'data-' or 'tool-'",
    )


if TYPE_CHECKING:
    UIMessagePart: TypeAlias = (
        TextUIPart
        | ReasoningUIPart
        | CustomContentUIPart
        | SourceUrlUIPart
        | SourceDocumentUIPart
        | FileUIPart
        | ReasoningFileUIPart
        | StepStartUIPart
        | SteeringMessageUIPart
        | DataPartT
        | ToolPartT
        | DynamicToolUIPart
        | UnknownUIPart
    )
else:

    class UIMessagePart(Generic[DataPartT, ToolPartT]):
        """Any part of a UIMessage; ``UIMessagePart[MyData, MyTools]`` for a typed message's parts.

        Parsing dispatches on ``type`` with one dict look-up (``tool-*`` and ``data-*`` by prefix).
        """

        @classmethod
        def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
            return _parts_schema(source, handler)


class UIMessage(_AISDKModel, Generic[MetadataT, DataPartT, ToolPartT]):
    """An AI SDK UIMessage: what a chat UI renders. ``UIMessage[Metadata, DataParts, Tools]`` types it.

    >>> message = UIMessage.model_validate(
    ...     {"id": "m1", "role": "user", "parts": [{"type": "text", "text": "Hi"}]}
    ... )
    >>> message.parts[0]
    TextUIPart(type='text', text='Hi', state=None, citations=None, provider_metadata=None)
    >>> message.model_dump()
    {'id': 'm1', 'role': 'user', 'parts': [{'type': 'text', 'text': 'Hi'}]}
    """

    _json_value_fields: ClassVar[frozenset[str]] = frozenset({"metadata"})

    id: str
    role: Literal["system", "user", "assistant"]
    metadata: MetadataT | None = None
    parts: list[UIMessagePart[DataPartT, ToolPartT]]


MessageT = TypeVar("MessageT", bound="UIMessage[Any, Any, Any]", default=UIMessage)
"""A UIMessage class, typed or not: what functions taking ``message_type=`` return."""
