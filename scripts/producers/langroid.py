"""Langroid through its own AG-UI integration, ``ag-ui-langroid`` (``LangroidAgent``, ``add_langroid_fastapi_endpoint``).

A Langroid ``ChatAgent`` on ``OpenAIGPTConfig(api_base=...)`` pointed at the scripted model, with OpenAI tool calls
(``use_tools_api``). The integration runs a backend tool by calling the agent's method named after the tool with
the tool's ``ToolMessage``, so the agent is a ``ChatAgent`` subclass with a ``get_weather`` method (a tool without
such a method is taken for a frontend tool). Offline needs two things: tiktoken downloads its encodings on first
use, so ``tiktoken.get_encoding`` is replaced by a byte-counting stand-in (Langroid only counts tokens with it);
and Langroid's console output is quieted. Shared state: a ``ToolBehavior(state_from_args=...)`` counts a visit when
the client sent ``visits`` (the integration declares ``state_from_result`` but never calls it; it sends what
``state_from_args`` returns as a STATE_SNAPSHOT).

    python -m venv /tmp/producers/langroid
    /tmp/producers/langroid/bin/pip install -e /work/main uvicorn httpx ag-ui-langroid langroid
"""

from __future__ import annotations

import os
from typing import Any

from scripts.producers._common import Capture, weather_tool

FRAMEWORK = "langroid"
PACKAGES = ("langroid", "ag-ui-langroid", "ag-ui-protocol", "openai")
SKIPPED: dict[str, str] = {}

os.environ.setdefault("OPENAI_API_KEY", "sk-offline")


class _ByteEncoding:
    """A stand-in for a tiktoken encoding that needs no download: one token per UTF-8 byte."""

    name = "offline-bytes"

    def encode(self, text: str, **_: Any) -> list[int]:
        return list(text.encode())

    def decode(self, tokens: list[int], **_: Any) -> str:
        return bytes(tokens).decode(errors="replace")


def _offline_tiktoken() -> None:
    import tiktoken

    tiktoken.get_encoding = lambda *_, **__: _ByteEncoding()
    tiktoken.encoding_for_model = lambda *_, **__: _ByteEncoding()


def _count_visit(context: Any) -> dict[str, Any] | None:
    """The run's state with one more visit, or None when the client sent no ``visits``."""
    state = dict(context.input_data.state or {})
    if "visits" not in state:
        return None
    return {**state, "visits": state["visits"] + 1}


def build_app(capture: Capture, base_url: str) -> Any:
    """A FastAPI app serving a Langroid ``ChatAgent`` through ``LangroidAgent`` on ``POST /``."""
    _offline_tiktoken()
    import langroid as lr
    import langroid.language_models as lm
    from ag_ui_langroid import LangroidAgent, LangroidAgentConfig, add_langroid_fastapi_endpoint
    from ag_ui_langroid.types import ToolBehavior
    from fastapi import FastAPI
    from langroid.agent.tool_message import ToolMessage
    from langroid.language_models.base import RetryParams
    from langroid.utils.configuration import settings

    settings.quiet = True
    weather = weather_tool(capture)

    class GetWeather(ToolMessage):  # type: ignore[misc]
        request: str = "get_weather"
        purpose: str = "Get the current weather in a <city>."
        city: str

    class WeatherAgent(lr.ChatAgent):  # type: ignore[misc]
        def get_weather(self, message: GetWeather) -> str:
            return weather(message.city)

    llm = lm.OpenAIGPTConfig(
        chat_model="scripted",
        api_base=base_url,
        api_key="sk-offline",
        stream=True,
        retry_params=RetryParams(max_retries=0),  # else http_500 retries five times, with backoff
    )
    config = lr.ChatAgentConfig(
        name="weather",
        llm=llm,
        system_message="You answer questions about the weather.",
        use_tools=False,
        use_functions_api=True,
        use_tools_api=True,
    )
    core = WeatherAgent(config)
    core.enable_message(GetWeather)
    app = FastAPI()
    config = LangroidAgentConfig(tool_behaviors={"get_weather": ToolBehavior(state_from_args=_count_visit)})
    add_langroid_fastapi_endpoint(app, LangroidAgent(core, name="weather", config=config), "/")
    return app
