"""LangGraph through its own AG-UI integration (``ag_ui_langgraph``: ``LangGraphAgent`` and its FastAPI endpoint).

The graph is the one LangGraph's AG-UI docs describe for frontend tools: a chat node binds the backend tool
(``get_weather``) and the client's tools (``state["tools"]``, which ``LangGraphAgent`` fills from
RunAgentInput.tools) to ``ChatOpenAI`` on the scripted model; a call to a backend tool goes to a ``ToolNode``, any
other call ends the run so the client answers it. The state carries the shared ``background`` and ``visits`` keys
(each model turn counts a visit when the client sent ``visits``). RAW events are on (the default) only in the
``text`` capture.

    python -m venv /tmp/producers/langgraph
    /tmp/producers/langgraph/bin/pip install -e /work/main uvicorn httpx "ag-ui-langgraph[fastapi]" langgraph \
        langchain-openai
"""

from __future__ import annotations

from typing import Any

from ag_ui_langgraph import LangGraphAgent, add_langgraph_fastapi_endpoint
from fastapi import FastAPI
from langchain_core.messages import AIMessage, SystemMessage
from langchain_core.tools import StructuredTool
from langchain_openai import ChatOpenAI
from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode

from scripts.producers._common import Capture, weather_tool

FRAMEWORK = "langgraph"
PACKAGES = ("langgraph", "ag-ui-langgraph", "langchain-core", "langchain-openai", "ag-ui-protocol")


class PageState(MessagesState):
    """The graph's state: the messages, the client's tools and the shared page state."""

    tools: list[dict[str, Any]]
    background: str
    visits: int


def build_app(capture: Capture, base_url: str) -> Any:
    """A FastAPI app serving the graph at ``POST /`` through ``add_langgraph_fastapi_endpoint``."""
    weather = StructuredTool.from_function(weather_tool(capture), name="get_weather")
    model = ChatOpenAI(
        model="scripted", base_url=base_url, api_key="scripted", max_retries=0, stream_usage=True
    )

    async def chat(state: PageState) -> dict[str, Any]:
        bound = model.bind_tools([weather, *(state.get("tools") or [])])
        system = SystemMessage(content="Answer questions about the weather.")
        answer = await bound.ainvoke([system, *state["messages"]])
        if "visits" in state:  # the shared-state capture: each model turn counts a visit
            return {"messages": [answer], "visits": state["visits"] + 1}
        return {"messages": [answer]}

    def route(state: PageState) -> str:
        last = state["messages"][-1]
        calls = last.tool_calls if isinstance(last, AIMessage) else []
        return "tools" if calls and all(call["name"] == "get_weather" for call in calls) else END

    graph = StateGraph(PageState)
    graph.add_node("chat", chat)
    graph.add_node("tools", ToolNode([weather]))
    graph.add_edge(START, "chat")
    graph.add_conditional_edges("chat", route, ["tools", END])
    graph.add_edge("tools", "chat")
    # RAW events and `rawEvent` copies (LangGraph's callbacks, the whole state each time) make a capture ten times
    # larger; the documented opt-out keeps the fixtures small, and the text capture keeps the default.
    agent = LangGraphAgent(
        name="weather",
        graph=graph.compile(checkpointer=MemorySaver()),
        emit_raw_events=capture.name == "text",
    )
    app = FastAPI()
    add_langgraph_fastapi_endpoint(app, agent, "/")
    return app
