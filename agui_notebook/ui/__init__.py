"""``agui_notebook.ui``: AI SDK UIMessages: the part models, validation, the UI message stream reducer
(``UIMessageStreamReducer``), partial JSON (``PartialJsonBuffer``) and the change records (``MessageChange``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agui_notebook._lazy import lazy_namespace

_EXPORTS: dict[str, str] = {
    "MessageChange": "agui_notebook.ui._changes",
    "aiter_ui_chunks": "agui_notebook.ui._chunk_source",
    "iter_ui_chunks": "agui_notebook.ui._chunk_source",
    "PartialJsonBuffer": "agui_notebook.ui._partial_json",
    "parse_partial_json": "agui_notebook.ui._partial_json",
    "CustomContentUIPart": "agui_notebook.ui._parts",
    "DataUIPart": "agui_notebook.ui._parts",
    "DynamicToolUIPart": "agui_notebook.ui._parts",
    "FileUIPart": "agui_notebook.ui._parts",
    "ReasoningFileUIPart": "agui_notebook.ui._parts",
    "ReasoningUIPart": "agui_notebook.ui._parts",
    "SourceDocumentUIPart": "agui_notebook.ui._parts",
    "SourceUrlUIPart": "agui_notebook.ui._parts",
    "SteeringMessageUIPart": "agui_notebook.ui._parts",
    "StepStartUIPart": "agui_notebook.ui._parts",
    "TextUIPart": "agui_notebook.ui._parts",
    "ToolApproval": "agui_notebook.ui._parts",
    "ToolState": "agui_notebook.ui._parts",
    "ToolUIPart": "agui_notebook.ui._parts",
    "UIMessage": "agui_notebook.ui._parts",
    "UIMessagePart": "agui_notebook.ui._parts",
    "UIPart": "agui_notebook.ui._parts",
    "UnknownUIPart": "agui_notebook.ui._parts",
    "read_ui_message_stream": "agui_notebook.ui._read_stream",
    "ui_message_from_chunks": "agui_notebook.ui._read_stream",
    "UIMessageStreamReducer": "agui_notebook.ui._reducer",
    "ui_tools": "agui_notebook.ui._typed",
    "SafeValidationResult": "agui_notebook.ui._validate",
    "get_tool_name": "agui_notebook.ui._validate",
    "is_tool_output_error_part": "agui_notebook.ui._validate",
    "is_tool_ui_part": "agui_notebook.ui._validate",
    "safe_validate_ui_messages": "agui_notebook.ui._validate",
    "validate_ui_messages": "agui_notebook.ui._validate",
}

__all__ = sorted(_EXPORTS)

if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_namespace(__name__, _EXPORTS)

if TYPE_CHECKING:
    from agui_notebook.ui._changes import MessageChange as MessageChange
    from agui_notebook.ui._chunk_source import (
        aiter_ui_chunks as aiter_ui_chunks,
        iter_ui_chunks as iter_ui_chunks,
    )
    from agui_notebook.ui._partial_json import (
        PartialJsonBuffer as PartialJsonBuffer,
        parse_partial_json as parse_partial_json,
    )
    from agui_notebook.ui._parts import (
        CustomContentUIPart as CustomContentUIPart,
        DataUIPart as DataUIPart,
        DynamicToolUIPart as DynamicToolUIPart,
        FileUIPart as FileUIPart,
        ReasoningFileUIPart as ReasoningFileUIPart,
        ReasoningUIPart as ReasoningUIPart,
        SourceDocumentUIPart as SourceDocumentUIPart,
        SourceUrlUIPart as SourceUrlUIPart,
        SteeringMessageUIPart as SteeringMessageUIPart,
        StepStartUIPart as StepStartUIPart,
        TextUIPart as TextUIPart,
        ToolApproval as ToolApproval,
        ToolState as ToolState,
        ToolUIPart as ToolUIPart,
        UIMessage as UIMessage,
        UIMessagePart as UIMessagePart,
        UIPart as UIPart,
        UnknownUIPart as UnknownUIPart,
    )
    from agui_notebook.ui._read_stream import (
        read_ui_message_stream as read_ui_message_stream,
        ui_message_from_chunks as ui_message_from_chunks,
    )
    from agui_notebook.ui._reducer import UIMessageStreamReducer as UIMessageStreamReducer
    from agui_notebook.ui._typed import ui_tools as ui_tools
    from agui_notebook.ui._validate import (
        SafeValidationResult as SafeValidationResult,
        get_tool_name as get_tool_name,
        is_tool_output_error_part as is_tool_output_error_part,
        is_tool_ui_part as is_tool_ui_part,
        safe_validate_ui_messages as safe_validate_ui_messages,
        validate_ui_messages as validate_ui_messages,
    )
