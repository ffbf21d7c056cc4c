"""Private: see agui_notebook/__init__.py for the public API.

The AI SDK side: UIMessage models and validation, partial JSON, and the UI message stream reducer. Sibling
subpackages (the bridge, the widget) import from here.
"""

from ._changes import ChangeKind, MessageChange
from ._chunk_source import ChunkDecodeError, ChunkSource, aiter_ui_chunks, iter_ui_chunks
from ._partial_json import PartialJsonBuffer, PartialJsonState, parse_partial_json
from ._parts import (
    CustomContentUIPart,
    DataUIPart,
    DynamicToolUIPart,
    FileUIPart,
    ProviderMetadata,
    ReasoningFileUIPart,
    ReasoningUIPart,
    SourceDocumentUIPart,
    SourceUrlUIPart,
    SteeringMessageUIPart,
    StepStartUIPart,
    TextUIPart,
    ToolApproval,
    ToolState,
    ToolUIPart,
    UIMessage,
    UIMessagePart,
    UIPart,
    UnknownUIPart,
)
from ._stream import (
    UIMessageStreamError,
    UIMessageStreamErrorChunk,
    UIMessageStreamReducer,
    merge_metadata,
    read_ui_message_stream,
    ui_message_from_chunks,
)
from ._validate import (
    SafeValidationResult,
    UIMessageValidationError,
    get_tool_name,
    is_tool_output_error_part,
    is_tool_ui_part,
    safe_validate_ui_messages,
    validate_ui_messages,
)

__all__ = [
    "ChangeKind",
    "ChunkDecodeError",
    "ChunkSource",
    "CustomContentUIPart",
    "DataUIPart",
    "DynamicToolUIPart",
    "FileUIPart",
    "MessageChange",
    "PartialJsonBuffer",
    "PartialJsonState",
    "ProviderMetadata",
    "ReasoningFileUIPart",
    "ReasoningUIPart",
    "SafeValidationResult",
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
    "UIMessageStreamError",
    "UIMessageStreamErrorChunk",
    "UIMessageStreamReducer",
    "UIMessageValidationError",
    "UIPart",
    "UnknownUIPart",
    "aiter_ui_chunks",
    "get_tool_name",
    "is_tool_output_error_part",
    "is_tool_ui_part",
    "iter_ui_chunks",
    "merge_metadata",
    "parse_partial_json",
    "read_ui_message_stream",
    "safe_validate_ui_messages",
    "ui_message_from_chunks",
    "validate_ui_messages",
]
