"""Tools described by plain Python functions: their JSON schema, their arguments checked, their typed UI parts.

:func:`tool_function` reads a function's signature and docstring once: the tool's name (the function's), its
description (the docstring's first paragraph), a pydantic model of its arguments (one field per parameter, its
description taken from an ``Args:``/``Parameters`` section), the JSON schema of that model (what an AG-UI
``Tool`` declares) and the return annotation. :func:`ui_tools` turns such functions into typed tool parts for
``UIMessage[Metadata, DataParts, Tools]``, as the AI SDK's ``InferUITools`` does for its tools.

>>> def get_time(tz: str = "UTC", *, precise: bool = False) -> str:
...     '''The current time in a time zone.
...
...     Args:
...         tz: An IANA time zone name.
...     '''
...     return "12:00"
>>> tool = tool_function(get_time)
>>> tool.name, tool.description
('get_time', 'The current time in a time zone.')
>>> tool.parameters["properties"]["tz"]
{'default': 'UTC', 'description': 'An IANA time zone name.', 'type': 'string'}
>>> tool.call_arguments({"tz": "Europe/Paris"})
((), {'tz': 'Europe/Paris', 'precise': False})
"""

from __future__ import annotations

import inspect
import re
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, create_model
from pydantic.json_schema import GenerateJsonSchema

from agui_notebook._errors import OptionError

from ._parts import ToolUIPart

__all__ = ["BadToolArguments", "ToolFunction", "tool_function", "ui_tools"]

TOOL_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""What a tool name may be: the common ground of the model providers (OpenAI's rule)."""

_POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


class BadToolArguments(ValueError):
    """Arguments a tool function cannot be called with; the message names the argument (``tz: Input should be
    a valid string``). Internal: the widget shows it on the tool part as the call's error."""


class _NoTitles(GenerateJsonSchema):
    """JSON schemas without the ``title`` pydantic derives from Python names (noise in a model's prompt)."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False

    def generate(self, schema: Any, mode: Any = "validation") -> Any:
        generated = super().generate(schema, mode=mode)
        generated.pop("title", None)
        return generated


@dataclass(frozen=True, eq=False, repr=False)
class ToolFunction:
    """A Python function described as a tool: ``name``, ``description``, ``parameters`` (JSON schema), the
    ``arguments`` model that checks what a call passes, and ``output`` (the return annotation, ``Any`` if none)."""

    function: Callable[..., Any]
    name: str
    description: str
    arguments: type[BaseModel]
    parameters: dict[str, Any]
    output: Any
    _fields: tuple[tuple[str, str, bool], ...]  # (parameter name, model field name, positional-only)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    @property
    def declaration(self) -> dict[str, Any]:
        """The AG-UI ``Tool`` wire dict: ``{"name", "description", "parameters"}``."""
        return {"name": self.name, "description": self.description, "parameters": self.parameters}

    def call_arguments(self, arguments: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """``(args, kwargs)`` for calling the function with a call's JSON arguments, checked against the signature.

        Raises :class:`BadToolArguments` naming the argument that does not fit.

        >>> def add(a: int, b: int = 1) -> int:
        ...     return a + b
        >>> tool_function(add).call_arguments({"a": "x"})
        Traceback (most recent call last):
        ...
        agui_notebook.ui._typed.BadToolArguments: a: Input should be a valid integer, unable to parse string as an integer
        """
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, Mapping):
            raise BadToolArguments(
                f"the arguments are a {type(arguments).__name__}, not a JSON object: {arguments!r:.200}"
            )
        try:
            model = self.arguments.model_validate(dict(arguments))
        except ValidationError as exc:
            raise BadToolArguments(_describe_errors(exc)) from None
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for parameter, field, positional in self._fields:
            value = getattr(model, field)
            if positional:
                args.append(value)
            else:
                kwargs[parameter] = value
        return tuple(args), kwargs


def _describe_errors(exc: ValidationError) -> str:
    """``tz: Input should be a valid string; when.hour: Field required`` (the first three problems)."""
    problems = []
    for error in exc.errors(include_url=False)[:3]:
        path = ""
        for key in error["loc"]:
            path += f"[{key}]" if isinstance(key, int) else (f".{key}" if path else str(key))
        problems.append(f"{path}: {error['msg']}" if path else error["msg"])
    more = len(exc.errors()) - len(problems)
    return "; ".join(problems) + (f" (and {more} more)" if more > 0 else "")


def tool_function(
    function: Callable[..., Any], *, name: str | None = None, description: str | None = None
) -> ToolFunction:
    """Describe ``function`` as a tool (its name, docstring and signature; ``name``/``description`` override).

    Every parameter becomes a property of an object schema: its annotation (none means any JSON value), its
    default (a parameter without one is required) and its description from the docstring's ``Args:`` (Google),
    ``Parameters`` (NumPy) or ``:param name:`` (Sphinx) entries. ``Optional``, ``Literal``, enums, lists, dicts,
    pydantic models, dataclasses and ``TypedDict`` s work as pydantic describes them. A signature that cannot be
    described (``*args``, ``**kwargs``, a type with no JSON schema) raises :class:`~agui_notebook.OptionError`
    naming the function and the parameter.
    """
    if not callable(function):
        raise OptionError(f"a tool function must be callable, not {type(function).__name__}")
    label = _function_label(function)
    tool_name = name if name is not None else getattr(function, "__name__", None)
    if not isinstance(tool_name, str) or not TOOL_NAME.match(tool_name):
        raise OptionError(
            f"tool {label}: {tool_name!r} is not a tool name (1-64 letters, digits, '_' or '-'); "
            "give one with name="
        )
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError) as exc:
        raise OptionError(f"tool {label}: its signature cannot be read ({exc})") from None
    try:
        hints = typing.get_type_hints(function, include_extras=True)
    except Exception as exc:  # a forward reference that does not resolve: say which parameter has it
        where = "its annotations"
        for parameter in signature.parameters.values():
            try:
                typing.get_type_hints(
                    types.SimpleNamespace(__annotations__={"x": parameter.annotation}),
                    getattr(function, "__globals__", None),
                )
            except Exception:
                where = f"parameter {parameter.name!r}: its annotation {parameter.annotation!s}"
                break
        raise OptionError(f"tool {label}: {where} cannot be resolved ({type(exc).__name__}: {exc})") from None
    doc = inspect.getdoc(function) or ""
    summary, parameter_docs = _read_docstring(doc)

    definitions: dict[str, Any] = {}
    fields: list[tuple[str, str, bool]] = []
    taken = set(BaseModel.__dict__) | set(dir(BaseModel))
    for parameter in signature.parameters.values():
        if parameter.kind in _VARIADIC:
            star = "*" if parameter.kind is inspect.Parameter.VAR_POSITIONAL else "**"
            raise OptionError(
                f"tool {label}: parameter {star}{parameter.name} cannot be described as a JSON object property; "
                "give the tool named parameters"
            )
        annotation = hints.get(parameter.name, Any)
        _check_annotation(label, parameter.name, annotation)
        field_name = parameter.name
        while field_name.startswith("_") or field_name in taken:
            field_name = field_name.lstrip("_") + "_" if field_name.startswith("_") else field_name + "_"
        taken.add(field_name)
        default = ... if parameter.default is inspect.Parameter.empty else parameter.default
        # A description of the annotation's own (``Annotated[int, Field(description=...)]``) is kept.
        described: dict[str, Any] = (
            {"description": parameter_docs[parameter.name]} if parameter.name in parameter_docs else {}
        )
        definitions[field_name] = (
            annotation,
            Field(default, alias=parameter.name, **described),
        )
        fields.append((parameter.name, field_name, parameter.kind is _POSITIONAL_ONLY))
    config = ConfigDict(validate_by_alias=True, validate_by_name=False, serialize_by_alias=True)
    try:
        arguments = create_model(f"{tool_name}_arguments", __config__=config, **definitions)
        parameters = arguments.model_json_schema(by_alias=True, schema_generator=_NoTitles)
    except Exception as exc:
        raise OptionError(
            f"tool {label}: its parameters have no JSON schema ({type(exc).__name__}: {exc})"
        ) from None
    return ToolFunction(
        function=function,
        name=tool_name,
        description=description if description is not None else summary,
        arguments=arguments,
        parameters=parameters,
        output=hints.get("return", Any)
        if signature.return_annotation is not inspect.Signature.empty
        else Any,
        _fields=tuple(fields),
    )


def _function_label(function: Any) -> str:
    name = getattr(function, "__qualname__", None) or getattr(function, "__name__", None)
    return repr(name) if isinstance(name, str) else repr(function)


def _check_annotation(label: str, parameter: str, annotation: Any) -> None:
    """Raise :class:`OptionError` naming ``parameter`` when its annotation has no JSON schema."""
    try:
        TypeAdapter(annotation).json_schema()
    except Exception as exc:
        shown = getattr(annotation, "__name__", None) or repr(annotation)
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise OptionError(
            f"tool {label}: parameter {parameter!r} is annotated {shown}, which has no JSON schema ({reason})"
        ) from None


# -- docstrings ----------------------------------------------------------------------------------------------------

_GOOGLE_SECTION = re.compile(r"^(\s*)(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments):\s*$")
_GOOGLE_ENTRY = re.compile(r"^\**(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$")
_NUMPY_ENTRY = re.compile(r"^\**(\w+)\s*(?::.*)?$")
_SPHINX_ENTRY = re.compile(r"^\s*:param\s+(?:[^:]*\s)?(\w+)\s*:\s*(.*)$")
_ANY_SECTION = re.compile(
    r"^\s*(Args|Arguments|Parameters|Params|Returns?|Yields?|Raises|Examples?|Notes?|Keyword Args|"
    r"Keyword Arguments|Attributes|See Also|References|Warnings?):?\s*$"
)


def _read_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """The first paragraph (joined into one line) and ``{parameter: description}`` from a cleaned docstring.

    >>> _read_docstring("Add.\\n\\nParameters\\n----------\\na : int\\n    The first\\n    number.\\n")
    ('Add.', {'a': 'The first number.'})
    """
    lines = doc.splitlines()
    paragraph: list[str] = []
    for line in lines:
        if not line.strip() or _ANY_SECTION.match(line) or _SPHINX_ENTRY.match(line):
            if paragraph or _ANY_SECTION.match(line) or _SPHINX_ENTRY.match(line):
                break
            continue
        paragraph.append(line.strip())
    descriptions: dict[str, str] = {}
    for index, line in enumerate(lines):
        google = _GOOGLE_SECTION.match(line)
        numpy = (
            line.strip() in ("Parameters", "Other Parameters", "Keyword Arguments")
            and index + 1 < len(lines)
            and set(lines[index + 1].strip()) == {"-"}
        )
        if google:
            _read_entries(lines[index + 1 :], len(google.group(1)), _GOOGLE_ENTRY, descriptions)
        elif numpy:
            _read_entries(lines[index + 2 :], len(line) - len(line.lstrip()) - 1, _NUMPY_ENTRY, descriptions)
        sphinx = _SPHINX_ENTRY.match(line)
        if sphinx:
            text = [sphinx.group(2).strip()]
            for following in lines[index + 1 :]:
                if not following.strip() or following.lstrip().startswith(":"):
                    break
                text.append(following.strip())
            descriptions.setdefault(sphinx.group(1), " ".join(t for t in text if t))
    return " ".join(paragraph), {k: v for k, v in descriptions.items() if v}


def _read_entries(lines: list[str], section_indent: int, entry: re.Pattern[str], out: dict[str, str]) -> None:
    """Read ``name: description`` entries indented deeper than ``section_indent``, until the section ends."""
    entry_indent: int | None = None
    name: str | None = None
    text: list[str] = []

    def done() -> None:
        if name is not None:
            out.setdefault(name, " ".join(t for t in text if t))

    for line in lines:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent <= section_indent:
            break
        if entry_indent is None:
            entry_indent = indent
        if indent == entry_indent:
            match = entry.match(line.strip())
            if match is None:
                break
            done()
            name = match.group(1)
            text = [match.group(2).strip()] if match.groups()[1:] else []
        elif indent > entry_indent and name is not None:
            text.append(line.strip())
        else:
            break
    done()


# -- typed tool parts ------------------------------------------------------------------------------------------------


def ui_tools(*tools: Callable[..., Any] | ToolFunction) -> type[ToolUIPart[Any, Any]]:
    """The typed tool parts of plain Python functions, for ``UIMessage[Metadata, DataParts, Tools]``.

    One :class:`~agui_notebook.ToolUIPart` subclass per function (``type`` ``"tool-{name}"``): its ``input`` is
    the function's arguments model (checked against the signature once the call's input is complete) and its
    ``output`` the return annotation. Several functions give the union of their parts. The AI SDK's
    ``InferUITools``; the classes are built at run time (several functions give a ``Union`` of them, which type
    checkers see as one tool part class).

    >>> from agui_notebook import UIMessage
    >>> def get_time(tz: str) -> str:
    ...     return "12:00"
    >>> ChatMessage = UIMessage[Any, Any, ui_tools(get_time)]
    >>> message = ChatMessage.model_validate({"id": "m", "role": "assistant", "parts": [
    ...     {"type": "tool-get_time", "toolCallId": "c", "state": "output-available",
    ...      "input": {"tz": "UTC"}, "output": "12:00"}]})
    >>> message.parts[0].input.tz, message.parts[0].output
    ('UTC', '12:00')
    >>> ChatMessage.model_validate({"id": "m", "role": "assistant", "parts": [
    ...     {"type": "tool-get_time", "toolCallId": "c", "state": "input-available", "input": {"tz": 5}}]})
    Traceback (most recent call last):
    ...
    pydantic_core._pydantic_core.ValidationError: 1 validation error for UIMessage[Any, Any, GetTimeToolPart]
    ...
    """
    if not tools:
        raise OptionError("ui_tools() needs at least one function")
    parts = []
    for tool in tools:
        described = tool if isinstance(tool, ToolFunction) else tool_function(tool)
        parts.append(_tool_part(described))
    # A union built at run time (of the tools' part classes) is a type form mypy cannot follow.
    return parts[0] if len(parts) == 1 else Union[tuple(parts)]  # type: ignore[return-value]  # noqa: UP007


def _tool_part(tool: ToolFunction) -> type[ToolUIPart[Any, Any]]:
    try:
        TypeAdapter(tool.output).json_schema()
    except Exception as exc:
        shown = getattr(tool.output, "__name__", None) or repr(tool.output)
        raise OptionError(
            f"tool {tool.name!r}: its return annotation {shown} has no JSON schema ({type(exc).__name__})"
        ) from None
    class_name = "".join(word[:1].upper() + word[1:] for word in re.split(r"[_-]+", tool.name) if word)
    part = types.new_class(
        f"{class_name or 'Tool'}ToolPart",
        # The tool's own argument and output types, known at run time only.
        (ToolUIPart[tool.arguments, tool.output],),  # type: ignore[name-defined]
        {"name": tool.name},
    )
    part.__module__ = __name__
    return part
