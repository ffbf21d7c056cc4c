"""agui-notebook: prototype, watch and analyse AI agents in Jupyter.

Three parts, one public surface (every other module is private):

- **Core**: AG-UI events and AI SDK UI-message streams in, AI SDK ``UIMessage``s out, exactly as the reference
  clients build them; conversions between AG-UI, UIMessage and OpenAI messages; validation and protocol checks.
- **Chat** and **ChatWidget**: a conversation with any Python agent (event generators, pydantic-ai agents,
  ``run(input)`` objects such as LangGraph's AG-UI agent, remote AG-UI servers through ``HttpAgent``), kept in a
  log beside the notebook, and its live view in the notebook.
- **Logs**: recorded event logs as pandas tables (runs, messages, chunks, tool calls, reasoning), serving-style
  latency summaries and plots.
- **Inspect**: assertions over a recorded run (``expect``), two runs compared (``diff_runs``) and the run input
  continuing a conversation from any event (``fork``), and a run scrubbed event by event (``inspect_run``).

The top level holds what a notebook user types. Each room has a namespace of its own for the rest, the types and
the machinery: ``agui_notebook.agui`` (AG-UI events: ``EventReducer``, ``ThreadState``, ``Problem`` ...),
``agui_notebook.ui`` (AI SDK UIMessages: the part models, ``UIMessageStreamReducer``, ``PartialJsonBuffer`` ...),
``agui_notebook.bridge`` (the conversions), ``agui_notebook.logs`` (the tables, plots and exports) and
``agui_notebook.inspection`` (``Inspector`` ...). A name that moved there still works here, with a
``DeprecationWarning`` naming its new place.

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

from typing import TYPE_CHECKING

from agui_notebook._lazy import Moved, lazy_namespace
from agui_notebook._version import __version__

# Public name -> the private module that defines it. Nothing is imported until a name is first used, so the
# core (``ui_messages_from_events``, ``apply_events``, ``verify_events`` ...) never loads pandas or the widget.
_EXPORTS: dict[str, str] = {
    "AgentError": "agui_notebook._errors",
    "AgentRunError": "agui_notebook._errors",
    "AguiNotebookError": "agui_notebook._errors",
    "AguiNotebookWarning": "agui_notebook._errors",
    "ChatLogError": "agui_notebook._errors",
    "ChatStateError": "agui_notebook._errors",
    "ChunkDecodeError": "agui_notebook._errors",
    "ChunkExpansionError": "agui_notebook._errors",
    "ContextError": "agui_notebook._errors",
    "EventLogWarning": "agui_notebook._errors",
    "EventParseError": "agui_notebook._errors",
    "ForkInputWarning": "agui_notebook._errors",
    "HttpAgentError": "agui_notebook._errors",
    "InputTypeError": "agui_notebook._errors",
    "InterruptPayloadError": "agui_notebook._errors",
    "JsonPatchError": "agui_notebook._errors",
    "JsonValueError": "agui_notebook._errors",
    "MessageIndexError": "agui_notebook._errors",
    "MessageNotFoundError": "agui_notebook._errors",
    "MessageValidationError": "agui_notebook._errors",
    "OptionError": "agui_notebook._errors",
    "OptionalDependencyError": "agui_notebook._errors",
    "PatchError": "agui_notebook._errors",
    "ProtocolError": "agui_notebook._errors",
    "RendererOutputError": "agui_notebook._errors",
    "RunStreamError": "agui_notebook._errors",
    "ScorerError": "agui_notebook._errors",
    "SeekError": "agui_notebook._errors",
    "SourceError": "agui_notebook._errors",
    "SourceFolderError": "agui_notebook._errors",
    "SourceNotFoundError": "agui_notebook._errors",
    "StateUpdateWarning": "agui_notebook._errors",
    "ToolLoopError": "agui_notebook._errors",
    "UIMessageStreamError": "agui_notebook._errors",
    "UIMessageStreamErrorChunk": "agui_notebook._errors",
    "UIMessageValidationError": "agui_notebook._errors",
    "WorkerError": "agui_notebook._errors",
    "aapply_events": "agui_notebook.agui._apply",
    "apply_events": "agui_notebook.agui._apply",
    "aparse_events": "agui_notebook.agui._intake",
    "iter_wire_events": "agui_notebook.agui._intake",
    "parse_events": "agui_notebook.agui._intake",
    "averify_events": "agui_notebook.agui._verify",
    "verify_events": "agui_notebook.agui._verify",
    "UIMessageAssembler": "agui_notebook.bridge._assemble",
    "aui_chunks_from_events": "agui_notebook.bridge._assemble",
    "ui_chunks_from_events": "agui_notebook.bridge._assemble",
    "ui_messages_from_events": "agui_notebook.bridge._assemble",
    "to_agui_messages": "agui_notebook.bridge._messages",
    "to_openai_messages": "agui_notebook.bridge._messages",
    "to_ui_messages": "agui_notebook.bridge._messages",
    "DemoAgent": "agui_notebook.demo",
    "diff_runs": "agui_notebook.inspection._diff",
    "expect": "agui_notebook.inspection._expect",
    "fork": "agui_notebook.inspection._fork",
    "inspect_run": "agui_notebook.widget._inspector",
    "load_events": "agui_notebook.logs._load",
    "plot_reasoning_lengths": "agui_notebook.logs._plots",
    "plot_run_timeline": "agui_notebook.logs._plots",
    "plot_token_stream": "agui_notebook.logs._plots",
    "plot_tool_latency": "agui_notebook.logs._plots",
    "EventRecorder": "agui_notebook.chat._recorder",
    "record": "agui_notebook.chat._recorder",
    "summarize": "agui_notebook.logs._summary",
    "totals_df": "agui_notebook.logs._summary",
    "chunks_df": "agui_notebook.logs.tables._chunks",
    "messages_df": "agui_notebook.logs.tables._messages",
    "parts_df": "agui_notebook.logs.tables._parts",
    "reasoning_df": "agui_notebook.logs.tables._reasoning",
    "runs_df": "agui_notebook.logs.tables._runs",
    "tool_calls_df": "agui_notebook.logs.tables._tool_calls",
    "aiter_ui_chunks": "agui_notebook.ui._chunk_source",
    "iter_ui_chunks": "agui_notebook.ui._chunk_source",
    "UIMessage": "agui_notebook.ui._parts",
    "read_ui_message_stream": "agui_notebook.ui._read_stream",
    "ui_message_from_chunks": "agui_notebook.ui._read_stream",
    "ui_tools": "agui_notebook.ui._typed",
    "safe_validate_ui_messages": "agui_notebook.ui._validate",
    "validate_ui_messages": "agui_notebook.ui._validate",
    "Branch": "agui_notebook.chat._branches",
    "Chat": "agui_notebook.chat._chat",
    "ChatWidget": "agui_notebook.widget._chat",
    "FrontendTool": "agui_notebook.chat._frontend_tools",
    "frontend_tool": "agui_notebook.chat._frontend_tools",
    "HttpAgent": "agui_notebook.chat._http",
}

ROOMS = frozenset({"agui", "ui", "bridge", "logs", "inspection", "evals"})
"""The rooms with a public namespace (``agui_notebook.logs.to_parquet``), imported when first named."""

# Names that left the top level for their room's namespace (or a new name): they still work, and warn.
_MOVED: dict[str, Moved] = {
    "CustomContentUIPart": Moved(
        "agui_notebook.ui.CustomContentUIPart", "agui_notebook.ui._parts", "CustomContentUIPart"
    ),
    "DataUIPart": Moved("agui_notebook.ui.DataUIPart", "agui_notebook.ui._parts", "DataUIPart"),
    "DynamicToolUIPart": Moved(
        "agui_notebook.ui.DynamicToolUIPart", "agui_notebook.ui._parts", "DynamicToolUIPart"
    ),
    "EventReducer": Moved("agui_notebook.agui.EventReducer", "agui_notebook.agui._reducer", "EventReducer"),
    "FileUIPart": Moved("agui_notebook.ui.FileUIPart", "agui_notebook.ui._parts", "FileUIPart"),
    "Inspector": Moved("agui_notebook.inspection.Inspector", "agui_notebook.widget._inspector", "Inspector"),
    "MessageChange": Moved("agui_notebook.ui.MessageChange", "agui_notebook.ui._changes", "MessageChange"),
    "PartialJsonBuffer": Moved(
        "agui_notebook.ui.PartialJsonBuffer", "agui_notebook.ui._partial_json", "PartialJsonBuffer"
    ),
    "Problem": Moved("agui_notebook.agui.Problem", "agui_notebook.agui._problem", "Problem"),
    "ReasoningFileUIPart": Moved(
        "agui_notebook.ui.ReasoningFileUIPart", "agui_notebook.ui._parts", "ReasoningFileUIPart"
    ),
    "ReasoningUIPart": Moved(
        "agui_notebook.ui.ReasoningUIPart", "agui_notebook.ui._parts", "ReasoningUIPart"
    ),
    "RecordedEvent": Moved(
        "agui_notebook.logs.RecordedEvent", "agui_notebook.chat._recorder", "RecordedEvent"
    ),
    "RunInfo": Moved("agui_notebook.agui.RunInfo", "agui_notebook.agui._thread", "RunInfo"),
    "SafeValidationResult": Moved(
        "agui_notebook.ui.SafeValidationResult", "agui_notebook.ui._validate", "SafeValidationResult"
    ),
    "SourceDocumentUIPart": Moved(
        "agui_notebook.ui.SourceDocumentUIPart", "agui_notebook.ui._parts", "SourceDocumentUIPart"
    ),
    "SourceUrlUIPart": Moved(
        "agui_notebook.ui.SourceUrlUIPart", "agui_notebook.ui._parts", "SourceUrlUIPart"
    ),
    "SteeringMessageUIPart": Moved(
        "agui_notebook.ui.SteeringMessageUIPart", "agui_notebook.ui._parts", "SteeringMessageUIPart"
    ),
    "StepStartUIPart": Moved(
        "agui_notebook.ui.StepStartUIPart", "agui_notebook.ui._parts", "StepStartUIPart"
    ),
    "TextUIPart": Moved("agui_notebook.ui.TextUIPart", "agui_notebook.ui._parts", "TextUIPart"),
    "ThreadState": Moved("agui_notebook.agui.ThreadState", "agui_notebook.agui._thread", "ThreadState"),
    "ToolApproval": Moved("agui_notebook.ui.ToolApproval", "agui_notebook.ui._parts", "ToolApproval"),
    "ToolState": Moved("agui_notebook.ui.ToolState", "agui_notebook.ui._parts", "ToolState"),
    "ToolUIPart": Moved("agui_notebook.ui.ToolUIPart", "agui_notebook.ui._parts", "ToolUIPart"),
    "UIMessagePart": Moved("agui_notebook.ui.UIMessagePart", "agui_notebook.ui._parts", "UIMessagePart"),
    "UIMessageStreamReducer": Moved(
        "agui_notebook.ui.UIMessageStreamReducer", "agui_notebook.ui._reducer", "UIMessageStreamReducer"
    ),
    "UIPart": Moved("agui_notebook.ui.UIPart", "agui_notebook.ui._parts", "UIPart"),
    "UnknownUIPart": Moved("agui_notebook.ui.UnknownUIPart", "agui_notebook.ui._parts", "UnknownUIPart"),
    "apply_json_patch": Moved(
        "agui_notebook.agui.apply_json_patch", "agui_notebook.agui._patch", "apply_json_patch"
    ),
    "export_otel": Moved("agui_notebook.logs.export_otel", "agui_notebook.logs._otel", "export_otel"),
    "get_tool_name": Moved("agui_notebook.ui.get_tool_name", "agui_notebook.ui._validate", "get_tool_name"),
    "is_tool_output_error_part": Moved(
        "agui_notebook.ui.is_tool_output_error_part",
        "agui_notebook.ui._validate",
        "is_tool_output_error_part",
    ),
    "is_tool_ui_part": Moved(
        "agui_notebook.ui.is_tool_ui_part", "agui_notebook.ui._validate", "is_tool_ui_part"
    ),
    "parse_partial_json": Moved(
        "agui_notebook.ui.parse_partial_json", "agui_notebook.ui._partial_json", "parse_partial_json"
    ),
    "to_otel_spans": Moved("agui_notebook.logs.to_otel_spans", "agui_notebook.logs._otel", "to_otel_spans"),
    "to_parquet": Moved("agui_notebook.logs.to_parquet", "agui_notebook.logs._parquet", "to_parquet"),
    "to_wire_event": Moved("agui_notebook.agui.to_wire_event", "agui_notebook.agui._intake", "to_wire_event"),
    "inspect": Moved(
        "agui_notebook.inspect_run (it shadowed the standard library's inspect)",
        "agui_notebook.widget._inspector",
        "inspect_run",
    ),
}

__all__ = [*sorted(_EXPORTS), "__version__"]

if not TYPE_CHECKING:  # type checkers read the imports below instead (so they still reject unknown names)
    __getattr__, __dir__ = lazy_namespace(__name__, _EXPORTS, rooms=ROOMS, moved=_MOVED)

if TYPE_CHECKING:  # the same names, for type checkers and editors (a test keeps the two lists equal)
    from agui_notebook._errors import (
        AgentError as AgentError,
        AgentRunError as AgentRunError,
        AguiNotebookError as AguiNotebookError,
        AguiNotebookWarning as AguiNotebookWarning,
        ChatLogError as ChatLogError,
        ChatStateError as ChatStateError,
        ChunkDecodeError as ChunkDecodeError,
        ChunkExpansionError as ChunkExpansionError,
        ContextError as ContextError,
        EventLogWarning as EventLogWarning,
        EventParseError as EventParseError,
        ForkInputWarning as ForkInputWarning,
        HttpAgentError as HttpAgentError,
        InputTypeError as InputTypeError,
        InterruptPayloadError as InterruptPayloadError,
        JsonPatchError as JsonPatchError,
        JsonValueError as JsonValueError,
        MessageIndexError as MessageIndexError,
        MessageNotFoundError as MessageNotFoundError,
        MessageValidationError as MessageValidationError,
        OptionError as OptionError,
        OptionalDependencyError as OptionalDependencyError,
        PatchError as PatchError,
        ProtocolError as ProtocolError,
        RendererOutputError as RendererOutputError,
        RunStreamError as RunStreamError,
        ScorerError as ScorerError,
        SeekError as SeekError,
        SourceError as SourceError,
        SourceFolderError as SourceFolderError,
        SourceNotFoundError as SourceNotFoundError,
        StateUpdateWarning as StateUpdateWarning,
        ToolLoopError as ToolLoopError,
        UIMessageStreamError as UIMessageStreamError,
        UIMessageStreamErrorChunk as UIMessageStreamErrorChunk,
        UIMessageValidationError as UIMessageValidationError,
        WorkerError as WorkerError,
    )
    from agui_notebook.agui._apply import aapply_events as aapply_events, apply_events as apply_events
    from agui_notebook.agui._intake import (
        aparse_events as aparse_events,
        iter_wire_events as iter_wire_events,
        parse_events as parse_events,
        to_wire_event as to_wire_event,
    )
    from agui_notebook.agui._patch import apply_json_patch as apply_json_patch
    from agui_notebook.agui._problem import Problem as Problem
    from agui_notebook.agui._reducer import EventReducer as EventReducer
    from agui_notebook.agui._thread import RunInfo as RunInfo, ThreadState as ThreadState
    from agui_notebook.agui._verify import averify_events as averify_events, verify_events as verify_events
    from agui_notebook.bridge._assemble import (
        UIMessageAssembler as UIMessageAssembler,
        aui_chunks_from_events as aui_chunks_from_events,
        ui_chunks_from_events as ui_chunks_from_events,
        ui_messages_from_events as ui_messages_from_events,
    )
    from agui_notebook.bridge._messages import (
        to_agui_messages as to_agui_messages,
        to_openai_messages as to_openai_messages,
        to_ui_messages as to_ui_messages,
    )
    from agui_notebook.chat._branches import Branch as Branch
    from agui_notebook.chat._chat import Chat as Chat
    from agui_notebook.chat._frontend_tools import (
        FrontendTool as FrontendTool,
        frontend_tool as frontend_tool,
    )
    from agui_notebook.chat._http import HttpAgent as HttpAgent
    from agui_notebook.chat._recorder import (
        EventRecorder as EventRecorder,
        RecordedEvent as RecordedEvent,
        record as record,
    )
    from agui_notebook.demo import DemoAgent as DemoAgent
    from agui_notebook.inspection._diff import diff_runs as diff_runs
    from agui_notebook.inspection._expect import expect as expect
    from agui_notebook.inspection._fork import fork as fork
    from agui_notebook.widget._inspector import Inspector as Inspector, inspect_run as inspect_run
    from agui_notebook.logs._load import load_events as load_events
    from agui_notebook.logs._otel import export_otel as export_otel, to_otel_spans as to_otel_spans
    from agui_notebook.logs._parquet import to_parquet as to_parquet
    from agui_notebook.logs._plots import (
        plot_reasoning_lengths as plot_reasoning_lengths,
        plot_run_timeline as plot_run_timeline,
        plot_token_stream as plot_token_stream,
        plot_tool_latency as plot_tool_latency,
    )
    from agui_notebook.logs._summary import summarize as summarize, totals_df as totals_df
    from agui_notebook.logs.tables._chunks import chunks_df as chunks_df
    from agui_notebook.logs.tables._messages import messages_df as messages_df
    from agui_notebook.logs.tables._parts import parts_df as parts_df
    from agui_notebook.logs.tables._reasoning import reasoning_df as reasoning_df
    from agui_notebook.logs.tables._runs import runs_df as runs_df
    from agui_notebook.logs.tables._tool_calls import tool_calls_df as tool_calls_df
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
    from agui_notebook.widget._chat import ChatWidget as ChatWidget
    from agui_notebook.widget._inspector import inspect_run as inspect
