"""pydantic-ai through its own AG-UI adapter (``pydantic_ai.ui.ag_ui.AGUIAdapter``), on the scripted model.

The agent uses ``OpenAIChatModel`` against the scripted model (no retries, so ``http_500`` fails at once); the
app is a Starlette route that hands each request to ``AGUIAdapter.dispatch_request``. Shared state: the agent's
deps are ``StateDeps`` (the adapter fills them from RunAgentInput.state), and in the ``state`` capture the
tool counts a visit and sends the new state as a STATE_SNAPSHOT (pydantic-ai's documented way); frontend tools come from
RunAgentInput.tools, which the adapter forwards to the model by itself.

    python -m venv /tmp/producers/pydantic_ai
    /tmp/producers/pydantic_ai/bin/pip install -e /work/main uvicorn httpx "pydantic-ai-slim[ag-ui,openai]"
"""

from __future__ import annotations

from typing import Any

from ag_ui.core import StateSnapshotEvent
from openai import AsyncOpenAI
from pydantic import BaseModel
from pydantic_ai import Agent, RunContext, ToolReturn
from pydantic_ai.models.openai import OpenAIChatModel
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.ui import StateDeps
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from scripts.producers._common import Capture, get_weather, weather_tool

FRAMEWORK = "pydantic_ai"
PACKAGES = ("pydantic-ai-slim", "ag-ui-protocol", "openai")


class PageState(BaseModel):
    """The shared state the client sends (``_common.INITIAL_STATE``)."""

    background: str = "white"
    visits: int = 0


def build_app(capture: Capture, base_url: str) -> Any:
    """A Starlette app whose ``POST /`` runs the agent through ``AGUIAdapter``."""
    client = AsyncOpenAI(base_url=base_url, api_key="scripted", max_retries=0)
    model = OpenAIChatModel("scripted", provider=OpenAIProvider(openai_client=client))
    agent: Agent[StateDeps[PageState], str] = Agent(
        model, deps_type=StateDeps[PageState], instructions="Answer questions about the weather."
    )
    if capture.state:

        @agent.tool(name="get_weather")
        async def weather_with_state(ctx: RunContext[StateDeps[PageState]], city: str) -> ToolReturn:
            """Get the current weather in a city (and count the visit in the shared state)."""
            ctx.deps.state.visits += 1
            snapshot = StateSnapshotEvent(snapshot=ctx.deps.state.model_dump())
            return ToolReturn(return_value=get_weather(city), metadata=[snapshot])
    else:
        agent.tool_plain(name="get_weather")(weather_tool(capture))

    async def run(request: Request) -> Response:
        return await AGUIAdapter.dispatch_request(request, agent=agent, deps=StateDeps(PageState()))

    return Starlette(routes=[Route("/", run, methods=["POST"])])
