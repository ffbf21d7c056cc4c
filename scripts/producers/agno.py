"""Agno through its own AG-UI interface, ``agno.os.interfaces.agui.AGUI`` (its router's ``POST {prefix}/agui``).

An Agno ``Agent`` on ``OpenAILike`` (Agno's OpenAI-compatible chat-completions model) pointed at the scripted model
without retries, its telemetry off, with an ``InMemoryDb`` and ``add_history_to_context=True``: the interface reads
only the last user message of a RunAgentInput and takes the history from the agent's own session store, and a
frontend tool's result can only resume a run kept in a database ("Frontend tool resume requires a database"). The interface's route is ``/agui`` under the router's prefix, so the app passes
the recorder's ``POST /`` on to it. In the ``state`` capture the tool counts a visit in the run's ``session_state`` (Agno hands a tool
its ``RunContext`` when it asks for one). ``jsonpatch`` is installed so that Agno can compute its state deltas (without
it, it logs a warning and sends none).

    python -m venv /tmp/producers/agno
    /tmp/producers/agno/bin/pip install -e /work/main uvicorn httpx agno ag-ui-protocol openai fastapi \
        sqlalchemy jsonpatch
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from agno.run import RunContext  # at module level: Agno resolves a tool's annotations in its module's globals

from scripts.producers._common import Capture, weather_tool

FRAMEWORK = "agno"
PACKAGES = ("agno", "ag-ui-protocol", "openai")
SKIPPED: dict[str, str] = {}

os.environ.setdefault("OPENAI_API_KEY", "sk-offline")
os.environ.setdefault("AGNO_TELEMETRY", "false")


def _named_get_weather(function: Callable[[str], str]) -> Callable[..., str]:
    """``function`` under the name ``get_weather`` (Agno names a tool after its function), counting a visit."""

    def get_weather(city: str, run_context: RunContext) -> str:
        """Get the current weather in a city."""
        state = run_context.session_state
        if state is not None and "visits" in state:  # the shared-state capture: Agno streams the change
            state["visits"] = state["visits"] + 1
        return function(city)

    return get_weather


def build_app(capture: Capture, base_url: str) -> Any:
    """A FastAPI app with Agno's AG-UI router, ``POST /`` passed on to its ``POST /agui``."""
    from agno.agent import Agent
    from agno.db.in_memory import InMemoryDb
    from agno.models.openai import OpenAILike
    from agno.os.interfaces.agui import AGUI
    from fastapi import FastAPI

    model = OpenAILike(id="scripted", base_url=base_url, api_key="sk-offline", max_retries=0)
    agent = Agent(
        name="weather",
        model=model,
        tools=[_named_get_weather(weather_tool(capture))],
        instructions="You answer questions about the weather.",
        telemetry=False,
        db=InMemoryDb(),
        add_history_to_context=True,
    )
    app = FastAPI()
    app.include_router(AGUI(agent=agent).get_router())

    async def root_to_agui(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/":
            scope = {**scope, "path": "/agui", "raw_path": b"/agui"}
        await app(scope, receive, send)

    return root_to_agui
