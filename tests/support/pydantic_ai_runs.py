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
from pydantic_ai import Agent, DeferredToolRequests, ModelRetry
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


async def _needs_approval(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    if _tool_rounds(messages):
        yield "Deleted "
        yield "`/tmp/x`."
        return
    yield "I will delete it."
    yield {1: DeltaToolCall(name="delete_file", json_args='{"path": "/tmp/x"}', tool_call_id="call_d")}


def make_approval_agent() -> Agent:
    """An agent whose only tool needs the user's approval before it runs."""
    agent = Agent(FunctionModel(stream_function=_needs_approval), output_type=[str, DeferredToolRequests])

    @agent.tool_plain(requires_approval=True)
    def delete_file(path: str) -> str:
        """Delete a file."""
        return f"deleted {path}"

    return agent


@dataclass
class CapturedApproval:
    """A run that stops for approval, then the run that resumes it, streamed both ways."""

    agui_events: list[dict[str, Any]]  # both runs, one after the other
    first_run_chunks: list[dict[str, Any]]
    resumed_run_chunks: list[dict[str, Any]]
    approved: bool


async def capture_approval(approved: bool) -> CapturedApproval:
    """Run the approval scenario through both adapters, answering the approval with ``approved``."""
    agent = make_approval_agent()
    user = UserMessage(id="user-1", content="Delete /tmp/x")
    first_input = RunAgentInput(
        thread_id="thread-1",
        run_id="run-1",
        messages=[user],
        state=None,
        tools=[],
        context=[],
        forwarded_props=None,
        protocol_version="1.0",
    )
    first = [
        json.loads(e.model_dump_json(by_alias=True, exclude_none=True))
        async for e in AGUIAdapter(agent=agent, run_input=first_input).run_stream()
    ]
    interrupt = first[-1]["outcome"]["interrupts"][0]
    history = [user.model_dump(mode="json", by_alias=True, exclude_none=True)]
    calls = {}
    text = ""
    for event in first:
        if event["type"] == "TEXT_MESSAGE_CONTENT":
            text += event["delta"]
        if event["type"] == "TOOL_CALL_START":
            calls = {
                "id": event["toolCallId"],
                "name": event["toolCallName"],
                "args": "",
                "parent": event["parentMessageId"],
            }
        if event["type"] == "TOOL_CALL_ARGS":
            calls["args"] += event["delta"]
    history.append(
        {
            "id": calls["parent"],
            "role": "assistant",
            "content": text,
            "toolCalls": [
                {
                    "id": calls["id"],
                    "type": "function",
                    "function": {"name": calls["name"], "arguments": calls["args"]},
                }
            ],
        }
    )
    resumed_input = RunAgentInput.model_validate(
        {
            "threadId": "thread-1",
            "runId": "run-2",
            "messages": history,
            "tools": [],
            "context": [],
            "protocolVersion": "1.0",
            "resume": [
                {"interruptId": interrupt["id"], "status": "resolved", "payload": {"approved": approved}}
            ],
        }
    )
    resumed = [
        json.loads(e.model_dump_json(by_alias=True, exclude_none=True))
        async for e in AGUIAdapter(agent=agent, run_input=resumed_input).run_stream()
    ]
    # The AG-UI client puts the run input on RUN_STARTED, as a recorder on the client side sees it.
    resumed[0]["input"] = resumed_input.model_dump(mode="json", by_alias=True, exclude_none=True)

    user_ui = {"id": "user-1", "role": "user", "parts": [{"type": "text", "text": "Delete /tmp/x"}]}
    body = {"trigger": "submit-message", "id": "thread-1", "messages": [user_ui]}
    adapter = VercelAIAdapter(
        agent=agent, run_input=VercelAIAdapter.build_run_input(json.dumps(body).encode()), sdk_version=7
    )
    first_chunks = [
        json.loads(c.model_dump_json(by_alias=True, exclude_none=True)) async for c in adapter.run_stream()
    ]
    return CapturedApproval(
        agui_events=first + resumed,
        first_run_chunks=[c for c in first_chunks if c.get("type") != "done"],
        resumed_run_chunks=[],
        approved=approved,
    )


async def resume_vercel(agent: Agent, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stream the Vercel side of a resumed run, given the UIMessages after the user's approval answer."""
    body = {"trigger": "submit-message", "id": "thread-1", "messages": messages}
    adapter = VercelAIAdapter(
        agent=agent, run_input=VercelAIAdapter.build_run_input(json.dumps(body).encode()), sdk_version=7
    )
    chunks = [
        json.loads(c.model_dump_json(by_alias=True, exclude_none=True)) async for c in adapter.run_stream()
    ]
    return [c for c in chunks if c.get("type") != "done"]


def make_sibling_failure_agent(failure: str) -> Agent:
    """An agent that calls ``slow_search`` and ``lookup_db`` together; ``lookup_db`` fails while the search
    still runs, so pydantic-ai cancels the search. ``failure``: ``"retries"`` (a ``ModelRetry`` past its
    retries: the RUN_ERROR names the tool) or ``"raise"`` (an exception whose message names no tool).

    The model's second turn answers in text (only reached when nothing failed)."""

    async def two_tools(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        if _tool_rounds(messages):
            yield "Done."
            return
        yield {1: DeltaToolCall(name="slow_search", json_args='{"q": "a"}', tool_call_id="call_s")}
        yield {2: DeltaToolCall(name="lookup_db", json_args='{"k": "b"}', tool_call_id="call_l")}

    agent = Agent(FunctionModel(stream_function=two_tools, model_name="function:two_tools"))

    @agent.tool_plain
    async def slow_search(q: str) -> str:
        """A search that takes a while."""
        await asyncio.sleep(5)
        return "found"

    @agent.tool_plain(retries=0)
    async def lookup_db(k: str) -> str:
        """A lookup that fails."""
        if failure == "retries":
            raise ModelRetry("db says no")
        raise RuntimeError("search backend down")

    return agent


def make_answer_or_fail_agent() -> Agent:
    """An agent (model ``function:answer_or_fail``) that answers in text, unless the prompt asks for a lookup:
    then its tool raises and the run ends with RUN_ERROR."""

    async def answer_or_fail(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        prompt = str(getattr(messages[-1].parts[-1], "content", ""))
        if "lookup" in prompt:
            yield {0: DeltaToolCall(name="lookup_db", json_args='{"k": "b"}', tool_call_id="call_l")}
            return
        yield "Hello."

    agent = Agent(FunctionModel(stream_function=answer_or_fail, model_name="function:answer_or_fail"))

    @agent.tool_plain
    def lookup_db(k: str) -> str:
        """A lookup whose backend is down."""
        raise RuntimeError("search backend down")

    return agent


async def agui_run(
    agent: Agent,
    run_id: str = "run-1",
    prompt: str = PROMPT,
    include_usage: bool = False,
    thread_id: str = "thread-1",
) -> list[dict[str, Any]]:
    """One run of ``agent`` streamed as AG-UI wire dicts (``include_usage``: RUN_FINISHED reports usage)."""
    run_input = RunAgentInput(
        thread_id=thread_id,
        run_id=run_id,
        messages=[UserMessage(id=f"user-{run_id}", content=prompt)],
        state=None,
        tools=[],
        context=[],
        forwarded_props=None,
    )
    return [
        json.loads(event.model_dump_json(by_alias=True, exclude_none=True))
        async for event in AGUIAdapter(
            agent=agent, run_input=run_input, include_usage=include_usage
        ).run_stream()
    ]
