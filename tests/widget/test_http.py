"""HttpAgent against a real AG-UI server: pydantic-ai's AGUIAdapter behind starlette, served by uvicorn."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from ag_ui.core import RunAgentInput, UserMessage
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._http import HttpAgent, HttpAgentError
from tests.support.loopback import serve_on_loopback
from tests.support.pydantic_ai_runs import SCENARIOS, make_agent, make_approval_agent

TOKEN = "Bearer test-token"
RELEASE_TIMEOUT = 5.0

# Set by the test when the client has received the first text delta; the model waits for it before going on,
# so the run only finishes quickly when the client reads the response incrementally.
first_delta_seen = threading.Event()


async def _waits_for_client(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    yield "first"
    released = await asyncio.to_thread(first_delta_seen.wait, RELEASE_TIMEOUT)
    yield " second" if released else " (client did not stream)"


def _app() -> Starlette:
    agents: dict[str, Agent] = {
        "weather": make_agent(SCENARIOS["reasoning_tool_text"]),
        "approval": make_approval_agent(),
        "incremental": Agent(FunctionModel(stream_function=_waits_for_client)),
    }

    async def run(request: Request) -> Response:
        if request.headers.get("authorization") != TOKEN:
            return JSONResponse({"detail": "missing token"}, status_code=401)
        return await AGUIAdapter.dispatch_request(request, agent=agents[request.path_params["name"]])

    return Starlette(routes=[Route("/agents/{name}", run, methods=["POST"])])


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """The AG-UI test server on 127.0.0.1, stopped after the module's tests."""
    with serve_on_loopback(_app()) as url:
        yield url


def run_input(text: str = "What's the weather?", **fields: Any) -> RunAgentInput:
    return RunAgentInput(
        thread_id="thread-1",
        run_id="run-1",
        messages=[UserMessage(id="user-1", content=text)],
        **fields,
    )


def shape(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What must match between two runs of the same scenario (message ids and timestamps are fresh per run)."""
    return [
        (e["type"], e.get("delta"), e.get("toolCallName"), e.get("toolCallId"), e.get("content"))
        for e in events
    ]


async def test_http_agent_yields_the_servers_events(server_url: str) -> None:
    agent = HttpAgent(f"{server_url}/agents/weather", headers={"Authorization": TOKEN})
    received = [event async for event in agent.run(run_input())]
    direct = [
        event.model_dump(mode="json", by_alias=True, exclude_none=True)
        async for event in AGUIAdapter(
            agent=make_agent(SCENARIOS["reasoning_tool_text"]), run_input=run_input()
        ).run_stream()
    ]
    assert shape(received) == shape(direct)
    assert received[0] == {
        "type": "RUN_STARTED",
        "timestamp": received[0]["timestamp"],
        "threadId": "thread-1",
        "runId": "run-1",
        "protocolVersion": "1.0",
    }
    assert received[-1]["type"] == "RUN_FINISHED"
    assert "".join(e["delta"] for e in received if e["type"] == "TEXT_MESSAGE_CONTENT") == (
        "The weather in Paris is **sunny**, 21 °C."
    )


async def test_http_agent_reads_the_stream_incrementally(server_url: str) -> None:
    first_delta_seen.clear()
    agent = HttpAgent(f"{server_url}/agents/incremental", headers={"Authorization": TOKEN})
    deltas = []
    started = time.monotonic()
    async for event in agent.run(run_input("hi")):
        if event["type"] == "TEXT_MESSAGE_CONTENT":
            deltas.append(event["delta"])
            first_delta_seen.set()
    assert deltas == ["first", " second"]
    assert time.monotonic() - started < RELEASE_TIMEOUT


async def test_http_agent_reports_an_error_status_with_the_body(server_url: str) -> None:
    agent = HttpAgent(f"{server_url}/agents/weather")
    with pytest.raises(HttpAgentError) as caught:
        [event async for event in agent.run(run_input())]
    assert caught.value.status == 401
    assert str(caught.value) == f'POST {server_url}/agents/weather: HTTP 401: {{"detail":"missing token"}}'


async def test_chat_widget_runs_an_http_agent(server_url: str) -> None:
    chat = ChatWidget(HttpAgent(f"{server_url}/agents/weather", headers={"Authorization": TOKEN}))
    outcome = await chat.send("What's the weather?")
    assert outcome == "success"
    assert chat.status == "ready"
    user, answer = chat.messages
    assert user["parts"] == [{"type": "text", "text": "What's the weather?"}]
    assert [p["type"] for p in answer["parts"]] == [
        "step-start",
        "reasoning",
        "tool-get_weather",
        "step-start",
        "text",
    ]
    assert answer["parts"][2]["state"] == "output-available"
    assert answer["parts"][2]["output"] == {"city": "Paris", "sky": "sunny", "temp_c": 21}
    assert answer["parts"][-1]["text"] == "The weather in Paris is **sunny**, 21 °C."
    assert [r["event"]["type"] for r in chat.events][:1] == ["RUN_STARTED"]
    assert chat.events[-1]["event"]["type"] == "RUN_FINISHED"


async def test_chat_widget_approval_round_trip_over_http(server_url: str) -> None:
    chat = ChatWidget(HttpAgent(f"{server_url}/agents/approval", headers={"Authorization": TOKEN}))
    assert await chat.send("Delete /tmp/x") == "interrupt"
    tool = chat.messages[-1]["parts"][-1]
    assert (tool["type"], tool["state"]) == ("tool-delete_file", "approval-requested")
    assert await chat.answer_approval(tool["approval"]["id"], True) == "success"
    assert [m["role"] for m in chat.messages] == ["user", "assistant"]
    tool = next(p for p in chat.messages[-1]["parts"] if p["type"] == "tool-delete_file")
    assert tool["state"] == "output-available"
    assert tool["output"] == "deleted /tmp/x"
    assert chat.messages[-1]["parts"][-1]["text"] == "Deleted `/tmp/x`."
