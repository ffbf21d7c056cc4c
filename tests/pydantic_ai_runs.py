"""Real offline agent runs: the same pydantic-ai run streamed as AG-UI events and as AI SDK chunks.

Each scenario drives a ``FunctionModel`` (no network, no API key) through pydantic-ai's ``AGUIAdapter`` and
``VercelAIAdapter`` so tests can compare our reading of one stream with the reference reading of the other.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from ag_ui.core import RunAgentInput, UserMessage
from pydantic_ai import Agent, ModelRetry
from pydantic_ai.messages import ModelMessage, RetryPromptPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaThinkingPart, DeltaToolCall, FunctionModel
from pydantic_ai.ui.ag_ui import AGUIAdapter
from pydantic_ai.ui.vercel_ai import VercelAIAdapter

StreamFunction = Callable[[list[ModelMessage], AgentInfo], AsyncIterator[Any]]


def _tool_rounds(messages: list[ModelMessage]) -> int:
    """How many tool-result requests the conversation already holds (the model's turn number)."""
    return sum(
        1
        for m in messages
        if any(isinstance(p, ToolReturnPart | RetryPromptPart) for p in getattr(m, "parts", ()))
    )


async def _text_only(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    for piece in ["Hello", ", world", "! Here is a list:\n\n", "- one\n", "- two\n"]:
        yield piece


async def _reasoning_tool_text(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    if _tool_rounds(messages):
        yield "The weather in Paris is "
        yield "**sunny**, 21 °C."
        return
    yield {0: DeltaThinkingPart(content="The user wants")}
    yield {0: DeltaThinkingPart(content=" the weather.")}
    yield {1: DeltaToolCall(name="get_weather", json_args='{"city":', tool_call_id="call_w1")}
    yield {1: DeltaToolCall(json_args=' "Paris"}')}


async def _parallel_tools(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    if _tool_rounds(messages):
        yield "Paris is sunny and Oslo is snowy."
        return
    yield "Checking both cities."
    yield {1: DeltaToolCall(name="get_weather", json_args='{"city": "Paris"}', tool_call_id="call_p")}
    yield {2: DeltaToolCall(name="get_weather", json_args='{"city": ', tool_call_id="call_o")}
    yield {2: DeltaToolCall(json_args='"Oslo"}')}


async def _several_rounds(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    rounds = _tool_rounds(messages)
    if rounds == 0:
        yield {0: DeltaToolCall(name="get_weather", json_args='{"city": "Rome"}', tool_call_id="call_r1")}
    elif rounds == 1:
        yield {0: DeltaThinkingPart(content="Now the time.")}
        yield {1: DeltaToolCall(name="get_time", json_args='{"tz": "Europe/Rome"}', tool_call_id="call_r2")}
    else:
        yield "It is noon in Rome and sunny."


async def _string_result(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    if _tool_rounds(messages):
        yield "Done."
        return
    yield {0: DeltaToolCall(name="get_time", json_args='{"tz": "UTC"}', tool_call_id="call_s")}


async def _failing_tool(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    if _tool_rounds(messages):
        yield "The lookup failed, sorry."
        return
    yield {0: DeltaToolCall(name="flaky_lookup", json_args='{"key": "x"}', tool_call_id="call_f")}


SCENARIOS: dict[str, StreamFunction] = {
    "text": _text_only,
    "reasoning_tool_text": _reasoning_tool_text,
    "parallel_tools": _parallel_tools,
    "several_rounds": _several_rounds,
    "string_result": _string_result,
    "failing_tool": _failing_tool,
}


def make_agent(stream_function: StreamFunction) -> Agent:
    """An agent with a few deterministic tools, driven by ``stream_function``."""
    agent = Agent(FunctionModel(stream_function=stream_function))

    @agent.tool_plain
    def get_weather(city: str) -> dict[str, Any]:
        """Weather for a city."""
        return {"city": city, "sky": "sunny" if city != "Oslo" else "snowy", "temp_c": 21}

    @agent.tool_plain
    def get_time(tz: str) -> str:
        """Time in a time zone."""
        return "12:00"

    @agent.tool_plain(retries=0)
    def flaky_lookup(key: str) -> str:
        """Always asks the model to retry."""
        raise ModelRetry(f"lookup of {key!r} failed: backend unavailable")

    return agent


@dataclass
class CapturedRun:
    """One scenario streamed both ways."""

    name: str
    agui_events: list[dict[str, Any]]
    ai_sdk_chunks: list[dict[str, Any]]


PROMPT = "What's the weather?"


async def capture(name: str) -> CapturedRun:
    """Run scenario ``name`` through both adapters and return the wire dicts of each stream."""
    agent = make_agent(SCENARIOS[name])
    run_input = RunAgentInput(
        thread_id="thread-1",
        run_id="run-1",
        messages=[UserMessage(id="user-1", content=PROMPT)],
        state=None,
        tools=[],
        context=[],
        forwarded_props=None,
    )
    agui = [
        json.loads(event.model_dump_json(by_alias=True, exclude_none=True))
        async for event in AGUIAdapter(agent=agent, run_input=run_input).run_stream()
    ]
    body = {
        "trigger": "submit-message",
        "id": "thread-1",
        "messages": [{"id": "user-1", "role": "user", "parts": [{"type": "text", "text": PROMPT}]}],
    }
    vercel = VercelAIAdapter(
        agent=agent, run_input=VercelAIAdapter.build_run_input(json.dumps(body).encode()), sdk_version=7
    )
    chunks = [
        json.loads(chunk.model_dump_json(by_alias=True, exclude_none=True))
        async for chunk in vercel.run_stream()
    ]
    return CapturedRun(name, agui, [c for c in chunks if c.get("type") != "done"])


def capture_all() -> list[CapturedRun]:
    """Every scenario, captured once."""

    async def run() -> list[CapturedRun]:
        return [await capture(name) for name in SCENARIOS]

    return asyncio.run(run())


if __name__ == "__main__":
    for captured in capture_all():
        print("==", captured.name)
        for event in captured.agui_events:
            print("  AGUI", json.dumps(event)[:200])
        for chunk in captured.ai_sdk_chunks:
            print("  VAI ", json.dumps(chunk)[:200])
