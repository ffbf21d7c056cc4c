"""Google ADK through its own AG-UI integration, ``ag-ui-adk`` (``ADKAgent``, ``add_adk_fastapi_endpoint``).

The model is ADK's ``LiteLlm("openai/scripted", api_base=...)`` pointed at the scripted model (no retries, usage
asked for); the agent's tools are ``get_weather`` and ``AGUIToolset()``, the placeholder that ``ADKAgent``
replaces with the client's frontend tools on each run. ``ADKAgent`` keeps its defaults (no MESSAGES_SNAPSHOT): what a user
who follows its README gets, except for one in-memory session service per app: without one, every ``ADKAgent`` of
the process shares one session manager, and a later capture's run on the same thread and message ids ends at once
with no events (ADK takes the user's message as already answered). LiteLLM's telemetry and its cost map download are off.

    python -m venv /tmp/producers/adk
    /tmp/producers/adk/bin/pip install -e /work/main uvicorn httpx ag-ui-adk litellm
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from scripts.producers._common import Capture, weather_tool

FRAMEWORK = "adk"
PACKAGES = ("google-adk", "ag-ui-adk", "ag-ui-protocol", "litellm", "openai")
SKIPPED: dict[str, str] = {}

os.environ.setdefault("OPENAI_API_KEY", "sk-offline")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # LiteLLM would fetch its price list at import
os.environ.setdefault("LITELLM_TELEMETRY", "False")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
os.environ.setdefault("GOOGLE_GENAI_DISABLE_TELEMETRY", "1")


def _named_get_weather(function: Callable[[str], str]) -> Callable[..., str]:
    """``function`` under the name ``get_weather`` (ADK names a tool after its function), counting a visit."""
    from google.adk.tools import ToolContext

    def get_weather(city: str, tool_context: ToolContext) -> str:
        """Get the current weather in a city."""
        if "visits" in tool_context.state:  # the shared-state capture: ADK sends the change as state
            tool_context.state["visits"] = tool_context.state["visits"] + 1
        return function(city)

    return get_weather


def build_app(capture: Capture, base_url: str) -> Any:
    """A FastAPI app serving an ADK ``LlmAgent`` through ``ADKAgent`` on ``POST /``."""
    from ag_ui_adk import ADKAgent, AGUIToolset, add_adk_fastapi_endpoint
    from fastapi import FastAPI
    from google.adk.agents import LlmAgent
    from google.adk.models.lite_llm import LiteLlm
    from google.adk.sessions import InMemorySessionService

    model = LiteLlm(
        model="openai/scripted",
        api_base=base_url,
        api_key="sk-offline",
        num_retries=0,
        stream_options={"include_usage": True},
    )
    core = LlmAgent(
        name="weather",
        model=model,
        instruction="You answer questions about the weather.",
        tools=[_named_get_weather(weather_tool(capture)), AGUIToolset()],
    )
    app = FastAPI()
    agent = ADKAgent(
        adk_agent=core, app_name="weather", user_id="user", session_service=InMemorySessionService()
    )
    add_adk_fastapi_endpoint(app, agent, path="/")
    return app
