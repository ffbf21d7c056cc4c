"""UIMessage models of a reducer's message after every update, each costing one small validation.

``read_ui_message_stream`` yields one per update, as ``readUIMessageStream`` does; building each from scratch
would validate the whole message every time.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import TypeAdapter, ValidationError

from agui_notebook._errors import OptionError, UIMessageStreamError, UIMessageValidationError
from agui_notebook._shown import shown

from ._changes import MessageChange
from ._parts import UIMessage
from ._reducer import UIMessageStreamReducer
from ._validate import model_of

__all__ = ["SnapshotBuilder"]

_new_object = object.__new__
_set_attribute = object.__setattr__
_WITH_METADATA = frozenset({"id", "role", "metadata", "parts"})
_WITHOUT_METADATA = frozenset({"id", "role", "parts"})
_VALIDATORS: dict[type, tuple[TypeAdapter[Any], TypeAdapter[Any]]] = {}


class SnapshotBuilder:
    """Keeps a model of every part in step with the reducer's dicts, using the change records.

    Only the parts a chunk changed are validated again, so a snapshot costs one small validation plus a list
    copy, however long the message. Unchanged parts are shared between snapshots.
    """

    def __init__(self, reducer: UIMessageStreamReducer, message_type: type[UIMessage]) -> None:
        self._reducer = reducer
        self._message_type = message_type
        self._part_adapter, self._metadata_adapter = _validators(message_type)
        self._validate_part = self._part_adapter.validate_python
        self._models: list[Any] = []
        self._metadata: Any = None
        self.rebuild()

    def rebuild(self) -> None:
        """Validate every part again: after a change that replaced or removed parts."""
        message = self._reducer.message
        parts = message["parts"]
        self._models = [
            model_of(self._part_adapter, part, f"message.parts[{i}]") for i, part in enumerate(parts)
        ]
        if "metadata" in message:
            self._metadata = model_of(self._metadata_adapter, message["metadata"], "message.metadata")

    def apply(self, changes: list[MessageChange]) -> None:
        """Bring the models in step with what one chunk changed.

        A part the chunk left invalid for the model (a field of the wrong type) raises
        :class:`UIMessageStreamError` naming the chunk and the part's path.
        """
        try:
            self._apply(changes)
        except UIMessageValidationError as error:
            reducer = self._reducer
            chunk = reducer._chunk
            chunk_type = chunk.get("type") if type(chunk) is dict else None
            raise UIMessageStreamError(
                str(error),
                chunk_index=reducer.chunk_count - 1,
                chunk_type=chunk_type if type(chunk_type) is str else shown(chunk_type),
            ) from None

    def _apply(self, changes: list[MessageChange]) -> None:
        message = self._reducer.message
        models = self._models
        for change in changes:
            kind = change.kind
            if kind == "text" or kind == "part":
                index = change.part_index
                try:
                    model = self._validate_part(message["parts"][index])
                except ValidationError:
                    model_of(self._part_adapter, message["parts"][index], f"message.parts[{index}]")
                    raise
                if index == len(models):
                    models.append(model)
                else:
                    models[index] = model
            elif kind == "metadata":
                self._metadata = model_of(self._metadata_adapter, message["metadata"], "message.metadata")
            else:
                self.rebuild()

    def snapshot(self) -> UIMessage:
        """The message as a model: what ``model_construct`` builds, without its per-field work, per update."""
        message = self._reducer.message
        has_metadata = "metadata" in message
        snapshot = _new_object(self._message_type)
        fields = {
            "id": message.get("id"),
            "role": message.get("role"),
            "metadata": self._metadata if has_metadata else None,
            "parts": list(self._models),
        }
        _set_attribute(snapshot, "__dict__", fields)
        _set_attribute(
            snapshot, "__pydantic_fields_set__", set(_WITH_METADATA if has_metadata else _WITHOUT_METADATA)
        )
        _set_attribute(snapshot, "__pydantic_extra__", {})
        _set_attribute(snapshot, "__pydantic_private__", None)
        return snapshot


def _validators(message_type: type[UIMessage]) -> tuple[TypeAdapter[Any], TypeAdapter[Any]]:
    if not (isinstance(message_type, type) and issubclass(message_type, UIMessage)):
        raise OptionError(f"message_type= must be a UIMessage model, not {shown(message_type)}")
    validators = _VALIDATORS.get(message_type)
    if validators is None:
        fields = message_type.model_fields
        (part_type,) = typing.get_args(fields["parts"].annotation)
        metadata_type: Any = fields["metadata"].annotation or Any
        validators = (TypeAdapter(part_type), TypeAdapter(metadata_type))
        _VALIDATORS[message_type] = validators
    return validators
