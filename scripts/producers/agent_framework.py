"""Microsoft Agent Framework through its own AG-UI integration, ``agent-framework-ag-ui``.

An ``agent_framework.Agent`` on ``OpenAIChatCompletionClient`` (the chat-completions client; ``OpenAIChatClient`` is
the Responses API) pointed at the scripted model through an ``AsyncOpenAI`` without retries, served by
``add_agent_framework_fastapi_endpoint``. Shared state needs a ``state_schema``: the ``state`` capture passes one
(the others do not, as a user without state would not), and its tool returns the integration's ``state_update``
(the weather as text, one more visit as state), which it sends as a STATE_SNAPSHOT after the result. The stock client drops the ``reasoning_content`` deltas of
vLLM and DeepSeek; Agent Framework documents ``response_parser`` as the hook for such fields, so the client gets
one that turns them into reasoning contents (what a user of such a server would write). OpenTelemetry is off.

``agent-framework-ag-ui`` pins ``ag-ui-protocol<0.2`` and agui-notebook needs ``>=1.0``, so agui-notebook goes in
without its dependencies (its ``apply_events``, which the recorder calls, runs on the older models):

    python -m venv /tmp/producers/agent_framework
    /tmp/producers/agent_framework/bin/pip install uvicorn httpx agent-framework-ag-ui agent-framework-openai
    /tmp/producers/agent_framework/bin/pip install --no-deps -e /work/main
    /tmp/producers/agent_framework/bin/pip install orjson msgspec anywidget ipywidgets traitlets pandas \
        markdown-it-py jsonschema latex2mathml
"""

from __future__ import annotations

import os
from typing import Any

from scripts.producers._common import Capture, weather_tool

FRAMEWORK = "agent_framework"
PACKAGES = (
    "agent-framework-core",
    "agent-framework-ag-ui",
    "agent-framework-openai",
    "ag-ui-protocol",
    "openai",
)
SKIPPED: dict[str, str] = {}

os.environ.setdefault("OPENAI_API_KEY", "sk-offline")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
os.environ.setdefault("ENABLE_OTEL", "false")

STATE_SCHEMA: dict[str, Any] = {
    "background": {"type": "string", "description": "The page's background colour."},
    "visits": {"type": "integer", "description": "How often the user came."},
}


def _reasoning_content(delta: Any, contents: list[Any]) -> list[Any]:
    """``contents`` with the delta's ``reasoning_content`` (vLLM, DeepSeek) first, as text reasoning."""
    from agent_framework import Content

    reasoning = getattr(delta, "reasoning_content", None)
    if not isinstance(reasoning, str) or not reasoning:
        return contents
    return [Content.from_text_reasoning(text=reasoning), *contents]


def _weather_tool(capture: Capture) -> Any:
    """The agent's ``get_weather``; in the ``state`` capture it also counts a visit through ``state_update``."""
    from agent_framework import tool
    from agent_framework_ag_ui import state_update

    weather = weather_tool(capture)
    if "visits" not in capture.state:
        return tool(weather, name="get_weather")

    def get_weather(city: str) -> Any:
        """Get the current weather in a city."""
        return state_update(weather(city), state={"visits": capture.state["visits"] + 1})

    return tool(get_weather, name="get_weather")


def build_app(capture: Capture, base_url: str) -> Any:
    """A FastAPI app serving an Agent Framework agent on ``POST /``."""
    from agent_framework import Agent
    from agent_framework.openai import OpenAIChatCompletionClient
    from agent_framework_ag_ui import add_agent_framework_fastapi_endpoint
    from fastapi import FastAPI
    from openai import AsyncOpenAI

    client = OpenAIChatCompletionClient(
        model="scripted",
        async_client=AsyncOpenAI(base_url=base_url, api_key="sk-offline", max_retries=0),
        response_parser=_reasoning_content,
    )
    core = Agent(
        client=client,
        name="weather",
        instructions="You answer questions about the weather.",
        tools=[_weather_tool(capture)],
    )
    app = FastAPI()
    add_agent_framework_fastapi_endpoint(
        app, core, "/", state_schema=STATE_SCHEMA if capture.state else None, single_user=True
    )
    return app
