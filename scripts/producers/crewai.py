"""CrewAI through its own AG-UI integration (``ag_ui_crewai``: ``add_crewai_flow_fastapi_endpoint``).

The flow is the one the integration's examples describe: a ``Flow[CopilotKitState]`` whose start method streams
a LiteLLM completion (``openai/scripted`` on the scripted model, no retries) through ``copilotkit_stream``, with
the backend tool ``get_weather`` and the client's tools (``state.copilotkit.actions``, which the endpoint fills
from RunAgentInput.tools). The flow runs a backend call itself and reports it with ``copilotkit_emit_tool_result``
(a raising tool fails the flow, as any exception in a flow method does); a call to a client tool ends the run so
the client answers it. Shared state: ``background`` and ``visits`` fields on the flow state, a visit counted per
tool call and sent with ``copilotkit_emit_state``.

    python -m venv /tmp/producers/crewai
    /tmp/producers/crewai/bin/pip install -e /work/main uvicorn httpx ag-ui-crewai crewai
"""

from __future__ import annotations

import json
import os
from typing import Any

# LiteLLM fetches its model price list from the network at import unless told to use its local copy; CrewAI's
# telemetry is off so nothing but the scripted model is called.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")

from ag_ui_crewai import CopilotKitState, add_crewai_flow_fastapi_endpoint
from ag_ui_crewai.sdk import copilotkit_emit_state, copilotkit_emit_tool_result, copilotkit_stream
from crewai.flow.flow import Flow, start
from fastapi import FastAPI
from litellm import acompletion

from scripts.producers._common import Capture, weather_tool

FRAMEWORK = "crewai"
PACKAGES = ("crewai", "ag-ui-crewai", "litellm", "ag-ui-protocol")
MAX_ROUNDS = 4

WEATHER_SCHEMA: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Get the current weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}


class PageState(CopilotKitState):
    """The flow's state: CopilotKit's (messages, client tools) and the shared page state."""

    background: str = "white"
    visits: int = 0


def build_app(capture: Capture, base_url: str) -> Any:
    """A FastAPI app serving the flow at ``POST /`` through ``add_crewai_flow_fastapi_endpoint``."""
    weather = weather_tool(capture)

    class WeatherFlow(Flow[PageState]):
        @start()
        async def chat(self) -> None:
            for _ in range(MAX_ROUNDS):
                response = await copilotkit_stream(
                    await acompletion(
                        model="openai/scripted",
                        api_base=base_url,
                        api_key="scripted",
                        num_retries=0,
                        messages=[
                            {"role": "system", "content": "Answer questions about the weather."},
                            *self.state.messages,
                        ],
                        tools=[WEATHER_SCHEMA, *self.state.copilotkit.actions],
                        stream=True,
                    )
                )
                message = response.choices[0].message
                self.state.messages.append(message)
                calls = message.tool_calls or []
                if not calls or any(call.function.name != "get_weather" for call in calls):
                    return  # an answer, or a client tool for the client to run
                for call in calls:
                    result = weather(**json.loads(call.function.arguments))
                    self.state.messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
                    await copilotkit_emit_tool_result(call.id, result)
                    if capture.state:
                        self.state.visits += 1
                        await copilotkit_emit_state(self.state)

    app = FastAPI()
    add_crewai_flow_fastapi_endpoint(app, WeatherFlow(), "/")
    return app
