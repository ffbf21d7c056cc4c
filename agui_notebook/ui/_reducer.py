"""The UI message stream reducer: AI SDK chunks applied to one assistant UIMessage, kept as a plain dict.

This is the hot path shared by ``read_ui_message_stream``, the AG-UI bridge and the widget. It follows the AI
SDK's ``processUIMessageStream`` (ai 7) chunk by chunk, and reports what each chunk changed as ``MessageChange``
records so a renderer can patch instead of re-rendering.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel

from agui_notebook._errors import (
    UIMessageStreamError,
    UIMessageStreamErrorChunk,
    UIMessageValidationError,
    check_error_mode,
    internal_failure,
)
from agui_notebook._options import callback, keyword_options
from agui_notebook._shown import shown
from agui_notebook.wire._json import copy_json, join_surrogates, js_string

from ._changes import MessageChange
from ._metadata import deep_merge_metadata
from ._partial_json import PartialJsonBuffer
from ._parts import UIMessage

__all__ = ["UIMessageStreamError", "UIMessageStreamErrorChunk", "UIMessageStreamReducer"]

_MISSING: Any = object()  # a chunk field that is absent (JavaScript's undefined), as opposed to null
_KEEP: Any = object()  # a part field left as it is (a tool input whose parse is deferred)
_RESULT_STATES = frozenset({"output-available", "output-error"})


def _assign(part: dict[str, Any], key: str, value: Any) -> None:
    if value is _KEEP:
        return
    if value is _MISSING:
        part.pop(key, None)
    else:
        part[key] = value


_PART_CHANGES: list[MessageChange] = []
_new_object = object.__new__
_SLOTS = vars(MessageChange)  # the frozen dataclass's slot descriptors, which set a field past its freeze
_set_kind = _SLOTS["kind"].__set__
_set_message_index = _SLOTS["message_index"].__set__
_set_part_index = _SLOTS["part_index"].__set__
_set_delta = _SLOTS["delta"].__set__


def _part_change(index: int) -> MessageChange:
    """``_part_change(index)``, shared: the records are immutable and these are the most common."""
    if index >= len(_PART_CHANGES):
        _PART_CHANGES.extend(MessageChange("part", 0, i) for i in range(len(_PART_CHANGES), index + 1))
    return _PART_CHANGES[index]


def _text_change(index: int, delta: str) -> MessageChange:
    """``MessageChange("text", 0, index, delta)`` without the frozen dataclass's slow ``__init__`` (per delta)."""
    change = _new_object(MessageChange)
    _set_kind(change, "text")
    _set_message_index(change, 0)
    _set_part_index(change, index)
    _set_delta(change, delta)
    return change


class _PartialToolCall:
    __slots__ = ("buffer", "dynamic", "input_encoding", "title", "tool_metadata", "tool_name")

    def __init__(
        self,
        buffer: PartialJsonBuffer,
        input_encoding: Any,
        tool_name: Any,
        dynamic: Any,
        title: Any,
        tool_metadata: Any,
    ) -> None:
        self.buffer = buffer
        self.input_encoding = input_encoding
        self.tool_name = tool_name
        self.dynamic = dynamic
        self.title = title
        self.tool_metadata = tool_metadata


class UIMessageStreamReducer:
    """Apply AI SDK UI message chunks to one assistant UIMessage, kept as a plain dict in AI SDK JSON shape.

    ``push(chunk)`` applies one chunk (a dict as on the wire) and returns what changed. Chunks change the
    message exactly as the AI SDK's ``processUIMessageStream`` does; a malformed stream raises
    ``UIMessageStreamError`` where the AI SDK throws.

    >>> reducer = UIMessageStreamReducer()
    >>> for chunk in [
    ...     {"type": "start", "messageId": "m1"},
    ...     {"type": "text-start", "id": "t1"},
    ...     {"type": "text-delta", "id": "t1", "delta": "Hello"},
    ...     {"type": "text-end", "id": "t1"},
    ... ]:
    ...     changes = reducer.push(chunk)
    >>> reducer.message
    {'id': 'm1', 'role': 'assistant', 'parts': [{'type': 'text', 'text': 'Hello', 'state': 'done'}]}

    With ``errors="collect"`` a malformed chunk is skipped instead, and its error added to ``problems``.

    ``message`` may be an earlier assistant message to continue (it is copied, not modified). ``on_data``
    receives every ``data-*`` chunk, transient or not; ``on_error`` receives a ``UIMessageStreamErrorChunk``
    for every ``error`` chunk. Read ``reducer.message`` for the current state; values inside it are replaced,
    never modified in place, so a reference taken to a nested value (an input, the metadata) stays valid.

    With ``defer_tool_input=True`` a ``tool-input-delta`` only appends to the call's ``rawInput``; its
    ``input`` (the partial-JSON parse of all arguments so far) is computed by ``settle()``, which the next
    chunk of any other kind calls and a reader calls before reading the message. A live view that reads a
    few dozen times a second then parses long tool arguments that often rather than after every delta, and
    every state it reads is one the AI SDK passes through.
    """

    @keyword_options
    def __init__(
        self,
        message: dict[str, Any] | UIMessage | None = None,
        *,
        on_data: Callable[[dict[str, Any]], None] | None = None,
        on_error: Callable[[UIMessageStreamErrorChunk], None] | None = None,
        errors: Literal["raise", "collect"] = "raise",
        defer_tool_input: bool = False,
    ) -> None:
        self.defer_tool_input = defer_tool_input
        self._unsettled: dict[Any, tuple[int, PartialJsonBuffer]] = {}
        self.on_data = callback(on_data, "on_data")
        self.on_error = callback(on_error, "on_error")
        self.collect = check_error_mode(errors, ("raise", "collect")) == "collect"
        self.problems: list[UIMessageStreamError] = []
        self.finish_reason: str | None = None
        self.chunk_count = 0
        self._handlers: dict[str, Callable[[dict[str, Any]], list[MessageChange]]] = {
            "text-start": self._text_start,
            "text-delta": self._text_delta,
            "text-end": self._text_end,
            "reasoning-start": self._reasoning_start,
            "reasoning-delta": self._reasoning_delta,
            "reasoning-end": self._reasoning_end,
            "custom": self._custom,
            "file": self._file,
            "reasoning-file": self._file,
            "source-url": self._source_url,
            "source-document": self._source_document,
            "tool-input-start": self._tool_input_start,
            "tool-input-delta": self._tool_input_delta,
            "tool-input-available": self._tool_input_available,
            "tool-input-error": self._tool_input_error,
            "tool-approval-request": self._tool_approval_request,
            "tool-approval-response": self._tool_approval_response,
            "tool-output-denied": self._tool_output_denied,
            "tool-output-available": self._tool_output_available,
            "tool-output-error": self._tool_output_error,
            "steering-message": self._steering_message,
            "start-step": self._start_step,
            "finish-step": self._ignore,
            "reset-step": self._reset_step,
            "start": self._start,
            "finish": self._finish,
            "message-metadata": self._message_metadata,
            "error": self._error,
            "abort": self._ignore,
        }
        if isinstance(message, BaseModel):
            message = message.model_dump(mode="json")  # a UIMessage model
        if message is not None and not isinstance(message, dict):
            raise UIMessageValidationError("message", "expected a UIMessage (an object)")
        if message is not None and message.get("role") == "assistant":
            parts = message.get("parts")
            if type(parts) is not list or not all(type(part) is dict for part in parts):
                raise UIMessageValidationError("message.parts", "expected an array of objects")
            try:
                self._reset(copy_json(message))
            except Exception as exc:
                raise UIMessageValidationError("message", internal_failure(exc)) from None
        else:
            self._reset(
                {"id": "" if message is None else message.get("id", ""), "role": "assistant", "parts": []}
            )

    @property
    def message(self) -> dict[str, Any]:
        """The message so far (the live dict: copy it to keep a snapshot; ``settle()`` first when deferring)."""
        return self._message

    def settle(self) -> None:
        """Parse the tool inputs whose deltas were deferred (``defer_tool_input``) into their parts."""
        unsettled = self._unsettled
        self._unsettled = {}
        for index, buffer in unsettled.values():
            value, state = buffer.parse()
            _assign(self._parts[index], "input", _MISSING if state == "failed-parse" else value)

    def push(self, chunk: dict[str, Any]) -> list[MessageChange]:
        """Apply one chunk; return the changes it made (empty when it changed nothing)."""
        self._chunk = chunk
        self._chunk_index = self.chunk_count
        self.chunk_count += 1
        chunk_type = chunk.get("type") if type(chunk) is dict else None
        if self._unsettled and chunk_type != "tool-input-delta":
            self.settle()  # every other chunk sees (and may read or replace) the parsed inputs
        handler = self._handlers.get(chunk_type) if type(chunk_type) is str else None
        try:
            if handler is not None:
                return handler(chunk)
            if type(chunk_type) is not str:
                raise self._stream_error("chunk has no string 'type'", "")
            if chunk_type.startswith("data-"):
                return self._data(chunk)
        except UIMessageStreamError as error:
            if not self.collect:
                raise
            self.problems.append(error)  # every check runs before any change, so skipping the chunk is clean
        except UIMessageStreamErrorChunk:
            raise  # an on_error callback that ends the stream (read_ui_message_stream's terminate_on_error)
        except Exception as exc:
            # A value the reducer cannot take (nested too deeply, ...): said where, as the AI SDK's stream fails.
            failure = self._stream_error(f"malformed chunk ({internal_failure(exc)})", "")
            if not self.collect:
                raise failure from exc
            self.problems.append(failure)
            return [MessageChange("message")]  # the chunk may have changed the message part way: resend it
        return []  # unknown chunk types are ignored, as by the AI SDK

    # -- state -----------------------------------------------------------------------------------------------

    def _reset(self, message: dict[str, Any]) -> None:
        self._message = message
        parts: list[dict[str, Any]] = message["parts"]
        self._parts = parts
        self._active_text: dict[Any, int] = {}
        self._active_reasoning: dict[Any, int] = {}
        self._partial_tool_calls: dict[Any, _PartialToolCall] = {}
        self._step_start = 0
        for index in range(len(parts) - 1, -1, -1):
            if parts[index].get("type") == "step-start":
                self._step_start = index + 1
                break
        self._index_parts()
        for index in range(self._step_start, len(parts)):
            part = parts[index]
            part_type = part.get("type")
            dynamic = part_type == "dynamic-tool"
            if not (dynamic or (type(part_type) is str and part_type.startswith("tool-"))):
                continue
            if part.get("state") != "input-streaming":
                continue
            raw_input = part.get("rawInput")
            self._partial_tool_calls[_js_key(part.get("toolCallId", _MISSING))] = _PartialToolCall(
                PartialJsonBuffer("" if raw_input is None else raw_input),
                part.get("inputEncoding", _MISSING),
                part.get("toolName", _MISSING) if dynamic else str(part_type)[5:],
                dynamic,
                part.get("title", _MISSING),
                part.get("toolMetadata", _MISSING),
            )

    def _index_parts(self) -> None:
        """Rebuild the look-up tables from the parts (after a reset or parts were removed)."""
        self._step_static: dict[Any, int] = {}
        self._step_dynamic: dict[Any, int] = {}
        self._last_tool: dict[Any, int] = {}
        self._data_by_id: dict[tuple[str, Any], int] = {}
        step_start = self._step_start
        for index, part in enumerate(self._parts):
            part_type = part.get("type")
            if type(part_type) is not str:
                continue
            if part_type == "dynamic-tool" or part_type.startswith("tool-"):
                call_id = part.get("toolCallId")
                if _hashable(call_id):
                    self._last_tool[call_id] = index
                    if index >= step_start:
                        table = self._step_dynamic if part_type == "dynamic-tool" else self._step_static
                        table.setdefault(call_id, index)
            elif part_type.startswith("data-"):
                part_id = part.get("id")
                if part_id is not None and _hashable(part_id):
                    self._data_by_id.setdefault((part_type, part_id), index)

    def _stream_error(self, reason: str, chunk_id: Any) -> UIMessageStreamError:
        chunk = self._chunk
        chunk_type = chunk.get("type") if type(chunk) is dict else None
        return UIMessageStreamError(
            reason,
            chunk_index=self._chunk_index,
            chunk_type=chunk_type if type(chunk_type) is str else shown(chunk_type),
            chunk_id="" if chunk_id is None else chunk_id if type(chunk_id) is str else shown(chunk_id),
        )

    def _append(self, part: dict[str, Any]) -> MessageChange:
        parts = self._parts
        parts.append(part)
        return _part_change(len(parts) - 1)

    # -- text and reasoning ----------------------------------------------------------------------------------

    def _text_start(self, chunk: dict[str, Any]) -> list[MessageChange]:
        change = self._append(
            {
                "type": "text",
                "text": "",
                **_present("providerMetadata", chunk.get("providerMetadata", _MISSING)),
                "state": "streaming",
            }
        )
        self._active_text[_js_key(chunk.get("id", _MISSING))] = change.part_index
        return [change]

    def _text_delta(self, chunk: dict[str, Any]) -> list[MessageChange]:
        part_id = chunk.get("id", _MISSING)
        index = self._active_text.get(part_id if type(part_id) is str else _js_key(part_id), -1)
        if index < 0:
            raise self._stream_error(
                f"no text part with id {_shown_id(part_id)} (send text-start first)", chunk.get("id")
            )
        return self._append_text(index, chunk)

    def _reasoning_delta(self, chunk: dict[str, Any]) -> list[MessageChange]:
        part_id = chunk.get("id", _MISSING)
        index = self._active_reasoning.get(part_id if type(part_id) is str else _js_key(part_id), -1)
        if index < 0:
            raise self._stream_error(
                f"no reasoning part with id {_shown_id(part_id)} (send reasoning-start first)",
                chunk.get("id"),
            )
        return self._append_text(index, chunk)

    def _append_text(self, index: int, chunk: dict[str, Any]) -> list[MessageChange]:
        part = self._parts[index]
        delta = chunk.get("delta", _MISSING)
        if type(delta) is not str:
            delta = _appended_text(delta)
        text = part["text"]
        part["text"] = ""  # drop the dict's reference so CPython can grow the string in place
        if delta and "\udc00" <= delta[0] <= "\udfff" and text and "\ud800" <= text[-1] <= "\udbff":
            text = text[:-1] + join_surrogates(text[-1] + delta[0]) + delta[1:]  # an emoji's two halves
        else:
            text += delta
        part["text"] = text
        provider_metadata = chunk.get("providerMetadata")
        if provider_metadata is not None:
            part["providerMetadata"] = provider_metadata
            return [_part_change(index)]
        return [_text_change(index, delta)]

    def _text_end(self, chunk: dict[str, Any]) -> list[MessageChange]:
        part_id = chunk.get("id", _MISSING)
        index = self._active_text.pop(_js_key(part_id), -1)
        if index < 0:
            raise self._stream_error(
                f"no text part with id {_shown_id(part_id)} (send text-start first)", chunk.get("id")
            )
        part = self._parts[index]
        part["state"] = "done"
        citations = chunk.get("citations")
        if citations is not None:
            part["citations"] = citations
        provider_metadata = chunk.get("providerMetadata")
        if provider_metadata is not None:
            part["providerMetadata"] = provider_metadata
        return [_part_change(index)]

    def _reasoning_start(self, chunk: dict[str, Any]) -> list[MessageChange]:
        change = self._append(
            {
                "type": "reasoning",
                **_present("id", chunk.get("id", _MISSING)),
                "text": "",
                **_present("providerMetadata", chunk.get("providerMetadata", _MISSING)),
                "state": "streaming",
            }
        )
        self._active_reasoning[_js_key(chunk.get("id", _MISSING))] = change.part_index
        return [change]

    def _reasoning_end(self, chunk: dict[str, Any]) -> list[MessageChange]:
        part_id = chunk.get("id", _MISSING)
        index = self._active_reasoning.pop(_js_key(part_id), -1)
        if index < 0:
            raise self._stream_error(
                f"no reasoning part with id {_shown_id(part_id)} (send reasoning-start first)",
                chunk.get("id"),
            )
        part = self._parts[index]
        provider_metadata = chunk.get("providerMetadata")
        if provider_metadata is not None:
            part["providerMetadata"] = provider_metadata
        part["state"] = "done"
        return [_part_change(index)]

    # -- other content parts ---------------------------------------------------------------------------------

    def _custom(self, chunk: dict[str, Any]) -> list[MessageChange]:
        return [
            self._append(
                {
                    "type": "custom",
                    **_present("kind", chunk.get("kind", _MISSING)),
                    **_present("providerMetadata", chunk.get("providerMetadata", _MISSING)),
                }
            )
        ]

    def _file(self, chunk: dict[str, Any]) -> list[MessageChange]:
        part = {
            "type": chunk["type"],
            **_present("mediaType", chunk.get("mediaType", _MISSING)),
            **_present("url", chunk.get("url", _MISSING)),
        }
        provider_metadata = chunk.get("providerMetadata")
        if provider_metadata is not None:
            part["providerMetadata"] = provider_metadata
        return [self._append(part)]

    def _source_url(self, chunk: dict[str, Any]) -> list[MessageChange]:
        return [self._append(_pick(chunk, "source-url", ("sourceId", "url", "title", "providerMetadata")))]

    def _source_document(self, chunk: dict[str, Any]) -> list[MessageChange]:
        return [
            self._append(
                _pick(
                    chunk,
                    "source-document",
                    ("sourceId", "mediaType", "title", "filename", "providerMetadata"),
                )
            )
        ]

    def _steering_message(self, chunk: dict[str, Any]) -> list[MessageChange]:
        return [self._append(_pick(chunk, "steering-message", ("id", "parts")))]

    def _data(self, chunk: dict[str, Any]) -> list[MessageChange]:
        if chunk.get("transient"):
            if self.on_data is not None:
                self.on_data(chunk)
            return []
        part_id = chunk.get("id")
        index = -1
        if part_id is not None and _hashable(part_id):
            index = self._data_by_id.get((chunk["type"], part_id), -1)
        if index >= 0:
            _assign(self._parts[index], "data", chunk.get("data", _MISSING))
            change = _part_change(index)
        else:
            change = self._append(dict(chunk))
            if part_id is not None and _hashable(part_id):
                self._data_by_id[(chunk["type"], part_id)] = change.part_index
        if self.on_data is not None:
            self.on_data(chunk)
        return [change]

    # -- tools -----------------------------------------------------------------------------------------------

    def _update_tool(
        self,
        dynamic: bool,
        call_id: Any,
        tool_name: Any,
        state: str,
        index: int = -1,
        *,
        input: Any = _MISSING,
        output: Any = _MISSING,
        error_text: Any = _MISSING,
        raw_input: Any = _MISSING,
        input_encoding: Any = _MISSING,
        preliminary: Any = _MISSING,
        title: Any = _MISSING,
        tool_metadata: Any = _MISSING,
        provider_executed: Any = _MISSING,
        provider_metadata: Any = _MISSING,
    ) -> MessageChange:
        """The AI SDK's updateToolPart / updateDynamicToolPart: update the call's part or add one."""
        if index < 0 and _hashable(call_id):
            index = (self._step_dynamic if dynamic else self._step_static).get(call_id, -1)
        metadata_key = "resultProviderMetadata" if state in _RESULT_STATES else "callProviderMetadata"
        if index >= 0:
            part = self._parts[index]
            part["state"] = state
            if dynamic:
                _assign(part, "toolName", tool_name)
            else:
                part["type"] = _tool_type(tool_name)
            _assign(part, "input", input)
            _assign(part, "output", output)
            _assign(part, "errorText", error_text)
            _assign(part, "rawInput", raw_input)
            if input_encoding is not _MISSING and input_encoding is not None:
                part["inputEncoding"] = input_encoding
            else:
                part.pop("inputEncoding", None)
            _assign(part, "preliminary", preliminary)
            if title is not _MISSING:
                part["title"] = title
            if tool_metadata is not _MISSING:
                part["toolMetadata"] = tool_metadata
            if provider_executed is not _MISSING and provider_executed is not None:
                part["providerExecuted"] = provider_executed
            if provider_metadata is not _MISSING and provider_metadata is not None:
                part[metadata_key] = provider_metadata
            return _part_change(index)

        if input is _KEEP:  # a new part has no input to keep yet: settle() gives it one
            input = _MISSING
        if dynamic:
            part = {
                "type": "dynamic-tool",
                "toolName": tool_name,
                "toolCallId": call_id,
                "state": state,
                "input": input,
                "inputEncoding": input_encoding if input_encoding is not None else _MISSING,
                "output": output,
                "errorText": error_text,
                "preliminary": preliminary,
                "providerExecuted": provider_executed,
                "title": title,
                "toolMetadata": tool_metadata,
            }
        else:
            part = {
                "type": _tool_type(tool_name),
                "toolCallId": call_id,
                "state": state,
                "title": title,
                "toolMetadata": tool_metadata,
                "input": input,
                "inputEncoding": input_encoding if input_encoding is not None else _MISSING,
                "output": output,
                "rawInput": raw_input,
                "errorText": error_text,
                "providerExecuted": provider_executed,
                "preliminary": preliminary,
            }
        if provider_metadata is not _MISSING and provider_metadata is not None:
            part[metadata_key] = provider_metadata
        part = {key: value for key, value in part.items() if value is not _MISSING}
        change = self._append(part)
        if _hashable(call_id):
            index = change.part_index
            (self._step_dynamic if dynamic else self._step_static).setdefault(call_id, index)
            self._last_tool[call_id] = index
        return change

    def _step_tool_index(self, call_id: Any) -> int:
        """Index of the first tool part (static or dynamic) of the current step for ``call_id``, or -1."""
        if not _hashable(call_id):
            return -1
        static = self._step_static.get(call_id, -1)
        dynamic = self._step_dynamic.get(call_id, -1)
        if static < 0:
            return dynamic
        if dynamic < 0:
            return static
        return min(static, dynamic)

    def _tool_invocation(self, call_id: Any) -> int:
        """The AI SDK's getToolInvocation: this step's part for ``call_id``, else the message's last one."""
        index = self._step_tool_index(call_id)
        if index < 0 and _hashable(call_id):
            index = self._last_tool.get(call_id, -1)
        if index < 0:
            raise self._stream_error(f"no tool call with id {_shown_id(call_id)}", call_id)
        return index

    def _tool_input_start(self, chunk: dict[str, Any]) -> list[MessageChange]:
        call_id = chunk.get("toolCallId")
        input_encoding = chunk.get("inputEncoding", _MISSING)
        dynamic = chunk.get("dynamic", _MISSING)
        title = chunk.get("title", _MISSING)
        tool_metadata = chunk.get("toolMetadata", _MISSING)
        self._partial_tool_calls[_js_key(chunk.get("toolCallId", _MISSING))] = _PartialToolCall(
            PartialJsonBuffer(),
            input_encoding,
            chunk.get("toolName", _MISSING),
            dynamic,
            title,
            tool_metadata,
        )
        change = self._update_tool(
            bool(dynamic) and dynamic is not _MISSING,
            call_id,
            chunk.get("toolName", _MISSING),
            "input-streaming",
            input_encoding=input_encoding,
            provider_executed=chunk.get("providerExecuted", _MISSING),
            title=title,
            tool_metadata=tool_metadata,
            provider_metadata=chunk.get("providerMetadata", _MISSING),
        )
        return [change]

    def _tool_input_delta(self, chunk: dict[str, Any]) -> list[MessageChange]:
        call_id = chunk.get("toolCallId")
        key = call_id if type(call_id) is str else _js_key(chunk.get("toolCallId", _MISSING))
        partial = self._partial_tool_calls.get(key)
        if partial is None:
            raise self._stream_error(
                f"no tool call with id {_shown_id(call_id)} (send tool-input-start first)", call_id
            )
        delta = chunk.get("inputTextDelta", _MISSING)
        if type(delta) is not str:
            delta = _appended_text(delta)
        buffer = partial.buffer
        deferred = False
        if partial.input_encoding == "text":
            buffer.extend(delta)
            value = buffer.text
        elif self.defer_tool_input:
            unsettled = self._unsettled.get(key)
            if unsettled is not None:
                # The part is as this call's previous delta left it (any other chunk settles): only rawInput
                # grows. Dropping the part's reference first lets CPython grow the text in place.
                index = unsettled[0]
                part = self._parts[index]
                part["rawInput"] = ""
                buffer.extend(delta)
                part["rawInput"] = buffer.text
                return [_part_change(index)]
            buffer.extend(delta)
            value, deferred = _KEEP, True
        else:
            value, state = buffer.append(delta)
            if state == "failed-parse":
                value = _MISSING
        dynamic = partial.dynamic
        change = self._update_tool(
            bool(dynamic) and dynamic is not _MISSING,
            call_id,
            partial.tool_name,
            "input-streaming",
            input=value,
            raw_input=buffer.text,
            input_encoding=partial.input_encoding,
            title=partial.title,
            tool_metadata=partial.tool_metadata,
        )
        if deferred:
            self._unsettled[key] = (change.part_index, buffer)
        return [change]

    def _tool_input_available(self, chunk: dict[str, Any]) -> list[MessageChange]:
        return [
            self._update_tool(
                bool(chunk.get("dynamic")),
                chunk.get("toolCallId"),
                chunk.get("toolName", _MISSING),
                "input-available",
                input=chunk.get("input", _MISSING),
                provider_executed=chunk.get("providerExecuted", _MISSING),
                provider_metadata=chunk.get("providerMetadata", _MISSING),
                title=chunk.get("title", _MISSING),
                tool_metadata=chunk.get("toolMetadata", _MISSING),
            )
        ]

    def _tool_input_error(self, chunk: dict[str, Any]) -> list[MessageChange]:
        call_id = chunk.get("toolCallId")
        existing = self._step_tool_index(call_id)
        if existing >= 0:
            dynamic = self._parts[existing].get("type") == "dynamic-tool"
        else:
            dynamic = bool(chunk.get("dynamic"))
        return [
            self._update_tool(
                dynamic,
                call_id,
                chunk.get("toolName", _MISSING),
                "output-error",
                input=chunk.get("input", _MISSING),
                error_text=chunk.get("errorText", _MISSING),
                provider_executed=chunk.get("providerExecuted", _MISSING),
                provider_metadata=chunk.get("providerMetadata", _MISSING),
                tool_metadata=chunk.get("toolMetadata", _MISSING),
            )
        ]

    def _tool_approval_request(self, chunk: dict[str, Any]) -> list[MessageChange]:
        index = self._tool_invocation(chunk.get("toolCallId"))
        part = self._parts[index]
        part["state"] = "approval-requested"
        approval: dict[str, Any] = {}
        _set_present(approval, "id", chunk.get("approvalId", _MISSING))
        if chunk.get("approvalDescriptor") is not None:
            approval["descriptor"] = chunk["approvalDescriptor"]
        if "inputSchemaInput" in chunk:
            approval["inputSchemaInput"] = chunk["inputSchemaInput"]
        if chunk.get("reason") is not None:
            approval["requestReason"] = chunk["reason"]
        if chunk.get("isAutomatic") is True:
            approval["isAutomatic"] = True
        if chunk.get("signature") is not None:
            approval["signature"] = chunk["signature"]
        part["approval"] = approval
        return [_part_change(index)]

    def _tool_approval_response(self, chunk: dict[str, Any]) -> list[MessageChange]:
        approval_id = chunk.get("approvalId", _MISSING)
        index = -1
        for position, candidate in enumerate(self._parts):
            candidate_type = candidate.get("type")
            if type(candidate_type) is not str or not (
                candidate_type == "dynamic-tool" or candidate_type.startswith("tool-")
            ):
                continue
            candidate_approval = candidate.get("approval")
            if type(candidate_approval) is dict and candidate_approval.get("id", _MISSING) == approval_id:
                index = position
                break
        if index < 0:
            shown = "undefined" if approval_id is _MISSING else repr(approval_id)
            raise self._stream_error(f"no tool call with approval id {shown}", shown)
        part = self._parts[index]
        previous = part.get("approval")
        approval = dict(previous) if previous is not None else {}
        _set_present(approval, "id", chunk.get("approvalId", _MISSING))
        _set_present(approval, "approved", chunk.get("approved", _MISSING))
        if "approved" not in chunk:
            approval.pop("approved", None)
        if chunk.get("reason") is not None:
            approval["reason"] = chunk["reason"]
        part["state"] = "approval-responded"
        part["approval"] = approval
        if chunk.get("providerExecuted") is not None:
            part["providerExecuted"] = chunk["providerExecuted"]
        if chunk.get("providerMetadata") is not None:
            part["callProviderMetadata"] = chunk["providerMetadata"]
        return [_part_change(index)]

    def _tool_output_denied(self, chunk: dict[str, Any]) -> list[MessageChange]:
        index = self._tool_invocation(chunk.get("toolCallId"))
        self._parts[index]["state"] = "output-denied"
        return [_part_change(index)]

    def _tool_output_available(self, chunk: dict[str, Any]) -> list[MessageChange]:
        return [self._tool_output(chunk, "output-available")]

    def _tool_output_error(self, chunk: dict[str, Any]) -> list[MessageChange]:
        return [self._tool_output(chunk, "output-error")]

    def _tool_output(self, chunk: dict[str, Any], state: str) -> MessageChange:
        call_id = chunk.get("toolCallId")
        index = self._tool_invocation(call_id)
        part = self._parts[index]
        dynamic = part.get("type") == "dynamic-tool"
        tool_metadata = chunk.get("toolMetadata")
        if tool_metadata is None:
            tool_metadata = part.get("toolMetadata", _MISSING)
        if state == "output-available":
            extra = {
                "output": chunk.get("output", _MISSING),
                "preliminary": chunk.get("preliminary", _MISSING),
            }
        else:
            extra = {"error_text": chunk.get("errorText", _MISSING)}
            if not dynamic:
                extra["raw_input"] = part.get("rawInput", _MISSING)
        return self._update_tool(
            dynamic,
            call_id,
            part.get("toolName", _MISSING) if dynamic else part["type"][5:],
            state,
            index,
            input=part.get("input", _MISSING),
            provider_executed=chunk.get("providerExecuted", _MISSING),
            provider_metadata=chunk.get("providerMetadata", _MISSING),
            title=part.get("title", _MISSING),
            tool_metadata=tool_metadata,
            **extra,
        )

    # -- steps and the message -------------------------------------------------------------------------------

    def _start_step(self, chunk: dict[str, Any]) -> list[MessageChange]:
        change = self._append({"type": "step-start"})
        self._step_start = len(self._parts)
        self._step_static = {}
        self._step_dynamic = {}
        return [change]

    def _reset_step(self, chunk: dict[str, Any]) -> list[MessageChange]:
        self._active_text = {}
        self._active_reasoning = {}
        self._partial_tool_calls = {}
        if self._step_start >= len(self._parts):
            return []
        del self._parts[self._step_start :]
        self._index_parts()
        return [MessageChange("parts")]

    def _start(self, chunk: dict[str, Any]) -> list[MessageChange]:
        message_id = chunk.get("messageId")
        changes: list[MessageChange] = []
        if message_id is not None:
            if message_id != self._message.get("id", _MISSING):
                # A different message id starts a separate response (the AI SDK resets its state).
                self._reset({"id": message_id, "role": "assistant", "parts": []})
                self.finish_reason = None
            else:
                self._message["id"] = message_id
            changes.append(MessageChange("message"))
        if self._merge_metadata(chunk) and not changes:
            changes.append(MessageChange("metadata"))
        return changes

    def _finish(self, chunk: dict[str, Any]) -> list[MessageChange]:
        finish_reason = chunk.get("finishReason")
        if finish_reason is not None:
            self.finish_reason = finish_reason
        return self._message_metadata(chunk)

    def _message_metadata(self, chunk: dict[str, Any]) -> list[MessageChange]:
        return [MessageChange("metadata")] if self._merge_metadata(chunk) else []

    def _merge_metadata(self, chunk: dict[str, Any]) -> bool:
        metadata = chunk.get("messageMetadata")
        if metadata is None:
            return False
        current = self._message.get("metadata")
        self._message["metadata"] = metadata if current is None else deep_merge_metadata(current, metadata)
        return True

    def _error(self, chunk: dict[str, Any]) -> list[MessageChange]:
        if self.on_error is not None:
            self.on_error(UIMessageStreamErrorChunk(_error_text(chunk), chunk_index=self._chunk_index))
        return []

    def _ignore(self, chunk: dict[str, Any]) -> list[MessageChange]:
        return []


def _appended_text(value: Any) -> str:
    """What JavaScript's ``text += value`` appends for a non-string chunk field (absent is ``undefined``)."""
    return "undefined" if value is _MISSING else js_string(value)


def _tool_type(tool_name: Any) -> str:
    """The part type ``tool-${toolName}`` the AI SDK builds for a static tool call."""
    return "tool-" + (tool_name if type(tool_name) is str else _appended_text(tool_name))


def _error_text(chunk: dict[str, Any]) -> str:
    text = chunk.get("errorText", _MISSING)
    return text if type(text) is str else _appended_text(text)


def _js_key(value: Any) -> str:
    """The property key JavaScript makes of a chunk field (``state.activeTextParts[chunk.id]``): ``String(id)``.

    So ``1`` and ``"1"`` name one part, as in the AI SDK, and an id of any JSON type has a key.
    """
    if type(value) is str:
        return value
    return "undefined" if value is _MISSING else js_string(value)


def _shown_id(value: Any) -> str:
    return "undefined" if value is _MISSING else shown(value)


def _hashable(value: Any) -> bool:
    return value is None or type(value) in (str, int, float, bool)


def _present(key: str, value: Any) -> dict[str, Any]:
    return {} if value is _MISSING else {key: value}


def _set_present(target: dict[str, Any], key: str, value: Any) -> None:
    if value is not _MISSING:
        target[key] = value


def _pick(chunk: dict[str, Any], part_type: str, keys: tuple[str, ...]) -> dict[str, Any]:
    part = {"type": part_type}
    for key in keys:
        if key in chunk:
            part[key] = chunk[key]
    return part
