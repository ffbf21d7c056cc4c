"""Frontend tools with a real LangGraph graph behind ``ag_ui_langgraph.LangGraphAgent``, offline.

The model is langchain's fake chat model, scripted from the conversation: asked a question, it calls the frontend
tool ``get_time``; shown a tool message, it answers with what the tool said. Two graphs, as LangGraph users build
them:

- the prebuilt ReAct agent, whose tool node does not know ``get_time``: it answers the call itself with an error
  (the answer arrives only in the state and the closing MESSAGES_SNAPSHOT), and the model answers that. The chat
  must not run the function again on top of it, nor start follow-up runs;
- a graph that ends its run on the model's tool call, as ag-ui-langgraph's frontend-tool examples do: the chat
  runs the function, and the follow-up run's input carries its result as the tool message of that call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("ag_ui_langgraph")

from ag_ui_langgraph import LangGraphAgent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessageChunk, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGenerationChunk
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool
from langgraph.checkpoint.memory import MemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import create_react_agent

from agui_notebook import Chat

pytestmark = pytest.mark.filterwarnings(
    "ignore:.*get_config_jsonschema.*",  # ag_ui_langgraph calls it, not us
    "ignore:.*create_react_agent.*",  # the prebuilt agent LangGraph users still have
)

QUESTION = "What time is it in UTC?"
NOT_A_TOOL = "Error: get_time is not a valid tool, try one of [lookup]."


class ScriptedModel(GenericFakeChatModel):
    """langchain's fake chat model, streaming a tool call of ``get_time`` to a question and an answer quoting the
    tool's message to a tool result."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:
        return self

    def _stream(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Iterator[ChatGenerationChunk]:
        if isinstance(messages[-1], HumanMessage):
            call = {"name": "get_time", "args": '{"tz": "UTC"}', "id": "call_t", "index": 0}
            chunks = [AIMessageChunk(content="", id="ai-call", tool_call_chunks=[call])]
        else:
            said = str(messages[-1].content)
            answer_id = f"ai-answer-{len(messages)}"
            chunks = [AIMessageChunk(content=piece, id=answer_id) for piece in ("The tool said: ", said)]
        for chunk in chunks:
            generation = ChatGenerationChunk(message=chunk)
            if run_manager is not None:
                run_manager.on_llm_new_token(str(chunk.content), chunk=generation)
            yield generation


@tool
def lookup(key: str) -> str:
    """Look a key up."""
    return "value"


def react_agent() -> LangGraphAgent:
    """The prebuilt ReAct agent with one backend tool: ``get_time`` is not one of its tools."""
    graph = create_react_agent(ScriptedModel(messages=iter(())), tools=[lookup], checkpointer=MemorySaver())
    return LangGraphAgent(name="react", graph=graph)


class State(MessagesState):
    tools: list[Any]
    """The frontend tools of the run input (ag-ui-langgraph puts them in the state)."""


def frontend_tool_graph() -> LangGraphAgent:
    """A graph whose run ends on the model's answer: a call of a frontend tool is left to the client."""
    model = ScriptedModel(messages=iter(()))

    async def call_model(state: State, config: RunnableConfig) -> dict[str, Any]:
        return {"messages": [await model.ainvoke(state["messages"], config)]}

    graph = StateGraph(State)
    graph.add_node("model", call_model)
    graph.add_edge(START, "model")
    graph.add_edge("model", END)
    return LangGraphAgent(name="frontend", graph=graph.compile(checkpointer=MemorySaver()))


def _tool_parts(chat: Chat) -> list[tuple[str, str, Any]]:
    """Every tool part of the conversation: (its type, its state, its output or error)."""
    return [
        (part["type"], part["state"], part.get("output", part.get("errorText")))
        for message in chat.messages
        for part in message["parts"]
        if "toolCallId" in part
    ]


def _texts(chat: Chat) -> list[str]:
    return [
        p["text"]
        for m in chat.messages
        if m["role"] == "assistant"
        for p in m["parts"]
        if p["type"] == "text" and p["text"]
    ]


async def test_a_frontend_tool_call_the_graph_answered_is_not_run_again() -> None:
    ran: list[str] = []

    def get_time(tz: str) -> str:
        """The current time in a time zone."""
        ran.append(tz)
        return "12:00"

    chat = Chat(react_agent(), store=None, tools=[get_time])
    assert await asyncio.wait_for(chat.send_message(QUESTION), 60) == "success"
    assert ran == []
    assert len(chat.run_inputs) == 1  # no follow-up run
    # The graph's own answer to the call: a tool message with status "error" in its snapshot.
    [(kind, state, _)] = _tool_parts(chat)
    assert (kind, state) == ("tool-get_time", "output-error")
    assert _texts(chat) == [f"The tool said: {NOT_A_TOOL}"]
    assert (chat.status, chat.error) == ("ready", "")


async def test_a_frontend_tool_result_reaches_the_next_run_input() -> None:
    ran: list[str] = []

    def get_time(tz: str) -> str:
        """The current time in a time zone."""
        ran.append(tz)
        return "12:00"

    chat = Chat(frontend_tool_graph(), store=None, tools=[get_time])
    assert await asyncio.wait_for(chat.send_message(QUESTION), 60) == "success"
    assert ran == ["UTC"]
    assert len(chat.run_inputs) == 2  # the turn's run, then the one follow-up with the result
    follow_up = chat.run_inputs[1][1]["messages"]
    assert [(m["role"], m.get("toolCallId"), m["content"]) for m in follow_up if m["role"] == "tool"] == [
        ("tool", "call_t", "12:00")
    ]
    calls = [c["id"] for m in follow_up if m["role"] == "assistant" for c in m.get("toolCalls") or ()]
    assert calls == ["call_t"]
    assert _tool_parts(chat) == [("tool-get_time", "output-available", "12:00")]
    assert _texts(chat) == ["The tool said: 12:00"]
