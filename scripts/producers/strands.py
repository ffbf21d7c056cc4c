"""AWS Strands through its own AG-UI integration, ``ag-ui-strands`` (``StrandsAgent``, ``add_strands_fastapi_endpoint``).

The model is Strands' ``OpenAIModel`` pointed at the scripted model (no retries, so ``http_500`` fails at once);
the tool is a Strands ``@tool`` named ``get_weather`` around :func:`_common.weather_tool`. Strands' default
callback handler prints the streamed text to stdout, so it is off; OpenTelemetry's "Failed to detach context"
logs (the integration steps the agent in one task per event) are silenced.

    python -m venv /tmp/producers/strands
    /tmp/producers/strands/bin/pip install -e /work/main uvicorn httpx ag-ui-strands "strands-agents[openai]"
"""

from __future__ import annotations

import logging
import os
from typing import Any

from scripts.producers._common import Capture, weather_tool

FRAMEWORK = "strands"
PACKAGES = ("strands-agents", "ag-ui-strands", "ag-ui-protocol", "openai")
CAPTURES = (
    "text",
    "tool",
    "parallel_tools",
    "failing_tool",
    "http_500",
    "frontend_tool",
    "reasoning",
    "state",
    "two_turns",
)
SKIPPED: dict[str, str] = {}

os.environ.setdefault("OPENAI_API_KEY", "sk-offline")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
logging.getLogger("opentelemetry.context").setLevel(logging.CRITICAL)


def build_app(capture: Capture, base_url: str) -> Any:
    """A FastAPI app serving a Strands agent on ``POST /``, its model the scripted one at ``base_url``."""
    from ag_ui_strands import StrandsAgent, add_strands_fastapi_endpoint
    from fastapi import FastAPI
    from strands import Agent, tool
    from strands.models.openai import OpenAIModel

    model = OpenAIModel(
        client_args={"base_url": base_url, "api_key": "sk-offline", "max_retries": 0}, model_id="scripted"
    )
    core = Agent(
        model=model,
        tools=[tool(name="get_weather")(weather_tool(capture))],
        system_prompt="You answer questions about the weather.",
        callback_handler=None,
    )
    app = FastAPI()
    add_strands_fastapi_endpoint(app, StrandsAgent(core, name="weather"), "/")
    return app
