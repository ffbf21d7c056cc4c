"""LlamaIndex through its own AG-UI integration (``llama_index.protocols.ag_ui``: ``get_ag_ui_workflow_router``).

The router runs LlamaIndex's ``AGUIChatWorkflow`` with ``OpenAILike`` on the scripted model (a function-calling
chat model, no retries) and ``get_weather`` as its backend tool; the client's tools (RunAgentInput.tools) are
passed through as frontend tools by the workflow itself. The router answers ``POST /run``; the workflow reads
the shared state from RunAgentInput.state and sends it back as STATE_SNAPSHOT.

    python -m venv /tmp/producers/llamaindex
    /tmp/producers/llamaindex/bin/pip install -e /work/main uvicorn httpx llama-index-protocols-ag-ui \
        llama-index-llms-openai-like llama-index-core
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from llama_index.core.tools import FunctionTool
from llama_index.llms.openai_like import OpenAILike
from llama_index.protocols.ag_ui.router import get_ag_ui_workflow_router

from scripts.producers._common import Capture, weather_tool

FRAMEWORK = "llamaindex"
PACKAGES = (
    "llama-index-core",
    "llama-index-protocols-ag-ui",
    "llama-index-llms-openai-like",
    "ag-ui-protocol",
)
PATH = "/run"


def build_app(capture: Capture, base_url: str) -> Any:
    """A FastAPI app with LlamaIndex's AG-UI router (``POST /run``)."""
    llm = OpenAILike(
        model="scripted",
        api_base=base_url,
        api_key="scripted",
        is_chat_model=True,
        is_function_calling_model=True,
        context_window=32_000,
        max_retries=0,
    )
    weather = FunctionTool.from_defaults(weather_tool(capture), name="get_weather")
    router = get_ag_ui_workflow_router(
        llm=llm,
        backend_tools=[weather],
        initial_state=dict(capture.state),
        system_prompt="Answer questions about the weather.",
    )
    app = FastAPI()
    app.include_router(router)
    return app
