"""Every span attribute name the OpenTelemetry export and import use, in one place.

The GenAI semantic conventions' names come from ``opentelemetry-semantic-conventions`` and OpenInference's from
``openinference-semantic-conventions`` (never spelled out here); pydantic-ai's own names (its instrumentation
format 2, its aggregated usage) and agui-notebook's (``agui_notebook.*``) are declared below. Both packages come
with ``pip install 'agui-notebook[otel]'``.
"""

from __future__ import annotations

from typing import Final

from agui_notebook._errors import OptionalDependencyError

try:
    from openinference.semconv.trace import (
        MessageAttributes,
        OpenInferenceSpanKindValues,
        SpanAttributes,
        ToolCallAttributes,
    )
    from opentelemetry.semconv._incubating.attributes import gen_ai_attributes as gen_ai
    from opentelemetry.semconv._incubating.attributes.gen_ai_attributes import GenAiOperationNameValues
    from opentelemetry.semconv.attributes.error_attributes import ERROR_TYPE
    from opentelemetry.semconv.attributes.exception_attributes import EXCEPTION_MESSAGE
except ImportError:
    raise OptionalDependencyError(
        "OpenTelemetry spans need opentelemetry-sdk and openinference-semantic-conventions:"
        " pip install 'agui-notebook[otel]'"
    ) from None

__all__ = [
    "AGENT_CALL_ID", "AGENT_NAME", "AGENT_OPERATIONS", "AGGREGATED_USAGE", "CHAT", "CONVERSATION_ID",
    "ERROR_TYPE", "EVENTS", "EXCEPTION_EVENT", "EXCEPTION_MESSAGE", "EXECUTE_TOOL", "FINISH_REASONS",
    "INPUT_MESSAGES", "INVOKE_AGENT", "LINK", "MODEL_OPERATIONS", "NO_TIMES", "OI", "OI_AGENT", "OI_KIND",
    "OI_LLM", "OI_MESSAGE", "OI_TOOL", "OI_TOOL_CALL", "OPERATION", "OUTPUT_MESSAGES", "PROVIDER",
    "PYDANTIC_AI_V2", "REQUEST_MODEL", "RESPONSE_MODEL", "RUN_ID", "RUN_INTERRUPTS", "RUN_PARENT_ID",
    "RUN_STATUS", "SOURCE", "STEP_INDEX", "STEP_NAME", "SYSTEM_INSTRUCTIONS", "TIME_TO_FIRST_CHUNK",
    "TOOL_ARGUMENTS", "TOOL_CALL_ID", "TOOL_NAME", "TOOL_OPERATIONS", "TOOL_RESULT", "TOOL_STATUS",
    "UNFINISHED", "USAGE", "USAGE_MODELS",
]  # fmt: skip

# --- the GenAI semantic conventions ----------------------------------------------------------------------------

OPERATION: Final = gen_ai.GEN_AI_OPERATION_NAME
AGENT_NAME: Final = gen_ai.GEN_AI_AGENT_NAME
PROVIDER: Final = gen_ai.GEN_AI_PROVIDER_NAME
CONVERSATION_ID: Final = gen_ai.GEN_AI_CONVERSATION_ID
REQUEST_MODEL: Final = gen_ai.GEN_AI_REQUEST_MODEL
RESPONSE_MODEL: Final = gen_ai.GEN_AI_RESPONSE_MODEL
TIME_TO_FIRST_CHUNK: Final = gen_ai.GEN_AI_RESPONSE_TIME_TO_FIRST_CHUNK
FINISH_REASONS: Final = gen_ai.GEN_AI_RESPONSE_FINISH_REASONS
INPUT_MESSAGES: Final = gen_ai.GEN_AI_INPUT_MESSAGES
OUTPUT_MESSAGES: Final = gen_ai.GEN_AI_OUTPUT_MESSAGES
SYSTEM_INSTRUCTIONS: Final = gen_ai.GEN_AI_SYSTEM_INSTRUCTIONS
TOOL_NAME: Final = gen_ai.GEN_AI_TOOL_NAME
TOOL_CALL_ID: Final = gen_ai.GEN_AI_TOOL_CALL_ID
TOOL_ARGUMENTS: Final = gen_ai.GEN_AI_TOOL_CALL_ARGUMENTS
TOOL_RESULT: Final = gen_ai.GEN_AI_TOOL_CALL_RESULT

USAGE: Final = {
    "inputTokens": gen_ai.GEN_AI_USAGE_INPUT_TOKENS,
    "outputTokens": gen_ai.GEN_AI_USAGE_OUTPUT_TOKENS,
    "reasoningTokens": gen_ai.GEN_AI_USAGE_REASONING_OUTPUT_TOKENS,
    "cachedInputTokens": gen_ai.GEN_AI_USAGE_CACHE_READ_INPUT_TOKENS,
}
"""The token counts of a span, by the AG-UI ``usage`` entry key each becomes (no total: the conventions have
none)."""

INVOKE_AGENT: Final = GenAiOperationNameValues.INVOKE_AGENT.value
CHAT: Final = GenAiOperationNameValues.CHAT.value
EXECUTE_TOOL: Final = GenAiOperationNameValues.EXECUTE_TOOL.value
AGENT_OPERATIONS: Final = frozenset({INVOKE_AGENT})
MODEL_OPERATIONS: Final = frozenset(
    {
        CHAT,
        GenAiOperationNameValues.TEXT_COMPLETION.value,
        GenAiOperationNameValues.GENERATE_CONTENT.value,
    }
)
TOOL_OPERATIONS: Final = frozenset({EXECUTE_TOOL})

EXCEPTION_EVENT: Final = "exception"
"""The name of the span event an exception is recorded as (the conventions' exception event)."""

# --- pydantic-ai's own ------------------------------------------------------------------------------------------

AGENT_CALL_ID: Final = "gen_ai.agent.call.id"
"""pydantic-ai: the run every span of an agent run belongs to (not in the conventions)."""
AGGREGATED_USAGE: Final = {
    key: name.replace("gen_ai.usage.", "gen_ai.aggregated_usage.", 1) for key, name in USAGE.items()
}
"""pydantic-ai: the run's usage on its agent span (``gen_ai.aggregated_usage.*``, beside its chat spans' own)."""
PYDANTIC_AI_V2: Final = {
    "agent_span": "agent run",
    "tool_span": "running tool",
    "tool_arguments": "tool_arguments",
    "tool_result": "tool_response",
    "model": "model_name",
}
"""pydantic-ai's instrumentation format 2: span names and attributes before it followed the conventions."""

# --- OpenInference -----------------------------------------------------------------------------------------------

OI = SpanAttributes
OI_MESSAGE = MessageAttributes
OI_TOOL_CALL = ToolCallAttributes
OI_KIND: Final = SpanAttributes.OPENINFERENCE_SPAN_KIND
OI_AGENT: Final = OpenInferenceSpanKindValues.AGENT.value
OI_LLM: Final = OpenInferenceSpanKindValues.LLM.value
OI_TOOL: Final = OpenInferenceSpanKindValues.TOOL.value

# --- agui-notebook's own, which carry what the conventions do not --------------------------------------------

RUN_ID: Final = "agui_notebook.run.id"
"""The AG-UI ``runId`` of an ``invoke_agent`` span."""
RUN_PARENT_ID: Final = "agui_notebook.run.parent_id"
SOURCE: Final = "agui_notebook.source"
EVENTS: Final = "agui_notebook.events"
STEP_INDEX: Final = "agui_notebook.step.index"
STEP_NAME: Final = "agui_notebook.step.name"
LINK: Final = "agui_notebook.link"
"""What a link says it is (``parent_run``: the run a run's ``parentRunId`` names)."""
RUN_STATUS: Final = "agui_notebook.run.status"
"""``runs_df``'s status: ``interrupt`` and ``cancelled`` have no span status of their own."""
RUN_INTERRUPTS: Final = "agui_notebook.run.interrupts"
USAGE_MODELS: Final = "agui_notebook.usage.models"
TOOL_STATUS: Final = "agui_notebook.tool.status"
UNFINISHED: Final = "agui_notebook.span.unfinished"
"""True on a span whose end is not in the log (a run without RUN_FINISHED, a step never finished, a tool
call without a result): it ends at the last event seen of its run."""
NO_TIMES: Final = "agui_notebook.span.untimed"
"""True on a span none of whose events has a time: it is placed at the epoch (or at its parent's start)."""
