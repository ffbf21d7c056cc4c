"""Real UI message streams from pydantic-ai's VercelAIAdapter, with an offline FunctionModel.

``capture_sse(scenario)`` runs the agent and returns the SSE text the adapter sends to an AI SDK client. The
saved captures in tests/fixtures/ui_streams/pydantic_ai_*.sse were made with it (run this file to redo them).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from pydantic_ai import Agent, ModelRetry
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, DeltaThinkingPart, DeltaToolCall, FunctionModel
from pydantic_ai.ui.vercel_ai import VercelAIAdapter
from pydantic_ai.ui.vercel_ai.request_types import SubmitMessage, TextUIPart, UIMessage

SCENARIOS = ("tools", "error")


async def _model(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[object]:
    """Step 1: think, talk, call two tools; step 2 (after a retry): call again; step 3: answer."""
    model_calls = sum(1 for message in messages if message.kind == "response")
    if model_calls == 0:
        yield {0: DeltaThinkingPart(content="The user wants ")}
        yield {0: DeltaThinkingPart(content="the weather.")}
        yield "Let me "
        yield "check."
        yield {2: DeltaToolCall(name="get_weather", json_args='{"ci', tool_call_id="call_1")}
        yield {2: DeltaToolCall(json_args='ty": "Par')}
        yield {2: DeltaToolCall(json_args='is", "days": [1, ')}
        yield {2: DeltaToolCall(json_args="2]}")}
        yield {3: DeltaToolCall(name="flaky", json_args='{"attempt": 1}', tool_call_id="call_2")}
    elif model_calls == 1:
        yield {0: DeltaToolCall(name="flaky", json_args='{"attempt": 2}', tool_call_id="call_3")}
    else:
        yield "It is "
        yield "21°C in **Paris**."


def _agent(scenario: str) -> Agent:
    agent = Agent(FunctionModel(stream_function=_model))

    @agent.tool_plain
    def get_weather(city: str, days: list[int]) -> dict:
        return {"city": city, "temperature": 21, "days": days}

    @agent.tool_plain
    def flaky(attempt: int) -> str:
        if attempt == 1:
            if scenario == "error":
                raise RuntimeError("tool exploded")
            raise ModelRetry("try again")
        return "ok"

    return agent


async def capture_sse(scenario: str) -> str:
    """Run the scenario's agent through VercelAIAdapter (AI SDK 6/7 wire) and return the SSE text."""
    run_input = SubmitMessage(
        id="request-1",
        messages=[UIMessage(id="user-1", role="user", parts=[TextUIPart(text="Weather in Paris?")])],
    )
    adapter = VercelAIAdapter(agent=_agent(scenario), run_input=run_input, sdk_version=7)
    return "".join([piece async for piece in adapter.encode_stream(adapter.run_stream())])


if __name__ == "__main__":  # regenerate the saved captures: python tests/ui/pydantic_ai_streams.py
    import asyncio
    from pathlib import Path

    fixtures = Path(__file__).resolve().parent.parent / "fixtures" / "ui_streams"
    for scenario in SCENARIOS:
        (fixtures / f"pydantic_ai_{scenario}.sse").write_text(asyncio.run(capture_sse(scenario)))
