"""agui-notebook: prototype, watch and analyse AI agents in Jupyter.

Three parts, one public surface (every other module is private):

- **Core**: AG-UI events and AI SDK UI-message streams in, AI SDK ``UIMessage``s out, exactly as the reference
  clients build them; conversions between AG-UI, UIMessage and OpenAI messages; validation and protocol checks.
- **ChatWidget**: a live chat in the notebook for any Python agent (event generators, pydantic-ai agents,
  ``run(input)`` objects such as LangGraph's AG-UI agent, remote AG-UI servers through ``HttpAgent``).
- **Logs**: recorded event logs as pandas tables (runs, messages, chunks, tool calls, reasoning), serving-style
  latency summaries and plots.

>>> from agui_notebook import ui_messages_from_events
>>> events = [
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "Hello!"},
...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
... ]
>>> [(part.type, getattr(part, "text", None)) for part in ui_messages_from_events(events)[0].parts]
[('step-start', None), ('text', 'Hello!')]
"""

from __future__ import annotations

from agui_notebook.agui._apply import ProtocolError, aapply_events, apply_events
from agui_notebook.agui._intake import (
    EventParseError,
    aparse_events,
    iter_wire_events,
    parse_events,
    to_wire_event,
)
from agui_notebook.agui._patch import JsonPatchError, apply_json_patch
from agui_notebook.agui._reducer import EventReducer
from agui_notebook.agui._thread import RunInfo, ThreadState
from agui_notebook.agui._verify import Problem, averify_events, verify_events
from agui_notebook.bridge._assemble import (
    UIMessageAssembler,
    aui_chunks_from_events,
    ui_chunks_from_events,
    ui_messages_from_events,
)
from agui_notebook.bridge._messages import to_agui_messages, to_openai_messages, to_ui_messages
from agui_notebook.demo import DemoAgent
from agui_notebook.logs._errors import EventLogWarning
from agui_notebook.logs._load import load_events
from agui_notebook.logs._plots import (
    plot_reasoning_lengths,
    plot_run_timeline,
    plot_token_stream,
    plot_tool_latency,
)
from agui_notebook.logs._record import EventRecorder, RecordedEvent, record
from agui_notebook.logs._summary import summarize
from agui_notebook.logs.tables._chunks import chunks_df
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._reasoning import reasoning_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._chunk_source import ChunkDecodeError, aiter_ui_chunks, iter_ui_chunks
from agui_notebook.ui._partial_json import PartialJsonBuffer, parse_partial_json
from agui_notebook.ui._parts import (
    CustomContentUIPart,
    DataUIPart,
    DynamicToolUIPart,
    FileUIPart,
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
from agui_notebook.ui._read_stream import read_ui_message_stream, ui_message_from_chunks
from agui_notebook.ui._reducer import UIMessageStreamError, UIMessageStreamErrorChunk, UIMessageStreamReducer
from agui_notebook.ui._validate import (
    SafeValidationResult,
    UIMessageValidationError,
    get_tool_name,
    is_tool_output_error_part,
    is_tool_ui_part,
    safe_validate_ui_messages,
    validate_ui_messages,
)
from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._http import HttpAgent, HttpAgentError

__version__ = "0.1.0"

__all__ = [
    "ChatWidget",
    "ChunkDecodeError",
    "CustomContentUIPart",
    "DataUIPart",
    "DemoAgent",
    "DynamicToolUIPart",
    "EventLogWarning",
    "EventParseError",
    "EventRecorder",
    "EventReducer",
    "FileUIPart",
    "HttpAgent",
    "HttpAgentError",
    "JsonPatchError",
    "MessageChange",
    "PartialJsonBuffer",
    "Problem",
    "ProtocolError",
    "ReasoningFileUIPart",
    "ReasoningUIPart",
    "RecordedEvent",
    "RunInfo",
    "SafeValidationResult",
    "SourceDocumentUIPart",
    "SourceUrlUIPart",
    "SteeringMessageUIPart",
    "StepStartUIPart",
    "TextUIPart",
    "ThreadState",
    "ToolApproval",
    "ToolState",
    "ToolUIPart",
    "UIMessage",
    "UIMessageAssembler",
    "UIMessagePart",
    "UIMessageStreamError",
    "UIMessageStreamErrorChunk",
    "UIMessageStreamReducer",
    "UIMessageValidationError",
    "UIPart",
    "UnknownUIPart",
    "__version__",
    "aapply_events",
    "aiter_ui_chunks",
    "aparse_events",
    "apply_events",
    "apply_json_patch",
    "aui_chunks_from_events",
    "averify_events",
    "chunks_df",
    "get_tool_name",
    "is_tool_output_error_part",
    "is_tool_ui_part",
    "iter_ui_chunks",
    "iter_wire_events",
    "load_events",
    "messages_df",
    "parse_events",
    "parse_partial_json",
    "plot_reasoning_lengths",
    "plot_run_timeline",
    "plot_token_stream",
    "plot_tool_latency",
    "read_ui_message_stream",
    "reasoning_df",
    "record",
    "runs_df",
    "safe_validate_ui_messages",
    "summarize",
    "to_agui_messages",
    "to_openai_messages",
    "to_ui_messages",
    "to_wire_event",
    "tool_calls_df",
    "ui_chunks_from_events",
    "ui_message_from_chunks",
    "ui_messages_from_events",
    "validate_ui_messages",
    "verify_events",
]
