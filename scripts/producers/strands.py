"""AWS Strands through its own AG-UI integration, ``ag-ui-strands`` (``StrandsAgent``, ``add_strands_fastapi_endpoint``).

The model is Strands' ``OpenAIModel`` pointed at the scripted model (no retries, so ``http_500`` fails at once);
the tool is a Strands ``@tool`` named ``get_weather`` around :func:`_common.weather_tool`. Strands' default
callback handler prints the streamed text to stdout, so it is off. Shared state: in the ``state`` capture a
``ToolBehavior(state_from_result=...)`` counts a visit when ``get_weather`` returns (the integration sends what the
hook returns as a STATE_SNAPSHOT); OpenTelemetry's "Failed to detach context"
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
SKIPPED: dict[str, str] = {}

os.environ.setdefault("OPENAI_API_KEY", "sk-offline")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
logging.getLogger("opentelemetry.context").setLevel(logging.CRITICAL)


def _count_visit(context: Any) -> dict[str, Any] | None:
    """The run's state with one more visit (``state_from_result``), or None when the client sent no ``visits``."""
    state = dict(context.input_data.state or {})
    if "visits" not in state:
        return None
    return {**state, "visits": state["visits"] + 1}


def build_app(capture: Capture, base_url: str) -> Any:
    """A FastAPI app serving a Strands agent on ``POST /``, its model the scripted one at ``base_url``."""
    from ag_ui_strands import StrandsAgent, StrandsAgentConfig, ToolBehavior, add_strands_fastapi_endpoint
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
    config = StrandsAgentConfig(tool_behaviors={"get_weather": ToolBehavior(state_from_result=_count_visit)})
    add_strands_fastapi_endpoint(app, StrandsAgent(core, name="weather", config=config), "/")
    return app
