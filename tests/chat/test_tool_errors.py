"""A tool that raises shows its exception's type and traceback, as a failing agent does.

A pydantic-ai agent run in the kernel goes through pydantic-ai's AG-UI adapter, whose RUN_ERROR carries only
``str(error)``: the chat's adapter adds the type (``code``) and the traceback (``rawEvent``), and the chat shows
them (the message's error, ``error_details``), in the log too. An agent that sends a RUN_ERROR with a traceback in
its ``rawEvent`` over AG-UI gets the same details.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import RunAgentInput
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from agui_notebook import Chat
from agui_notebook._errors import AgentRunError
from agui_notebook.chat._records import record_kind


def _failing_tool_agent() -> Agent:
    async def call_the_tool(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        yield {0: DeltaToolCall(name="lookup_db", json_args='{"key": "orders"}', tool_call_id="call_db")}

    agent = Agent(FunctionModel(stream_function=call_the_tool, model_name="function:call_the_tool"))

    @agent.tool_plain
    def lookup_db(key: str) -> str:
        """Look a key up in the database."""
        raise ValueError("database unreachable")

    return agent


def _run_end(chat: Chat) -> dict[str, Any]:
    ends = [r["event"]["value"] for r in chat.events if record_kind(r["event"]) == "run-end"]
    return ends[-1]


async def test_a_pydantic_ai_tool_that_raises_shows_its_type_and_traceback(tmp_path: Path) -> None:
    agent = _failing_tool_agent()
    chat = Chat(agent, store=tmp_path / "log.jsonl")
    assert await chat.send_message("How many orders?") == "error"
    assert (chat.status, chat.error) == ("error", "database unreachable")
    assert isinstance(chat.exception, AgentRunError) and chat.exception.code == "ValueError"
    details = chat.error_details
    assert details.startswith("Traceback (most recent call last):")
    assert details.endswith("ValueError: database unreachable\n")
    assert ", in lookup_db\n" in details  # the tool's own frame: where it was raised
    answer = chat.messages[-1]
    assert answer["metadata"]["ag-ui"]["error"] == {"message": "database unreachable", "code": "ValueError"}
    tool = [p for p in answer["parts"] if p["type"] == "tool-lookup_db"]
    assert [(p["state"], p["errorText"]) for p in tool] == [("output-error", "database unreachable")]
    end = _run_end(chat)
    assert (end["outcome"], end["error"], end["code"], end["details"]) == (
        "error",
        "database unreachable",
        "ValueError",
        details,
    )
    chat.close()

    again = Chat(agent, store=tmp_path / "log.jsonl")
    assert (again.status, again.error, again.error_details) == ("error", "database unreachable", details)


TRACEBACK = 'Traceback (most recent call last):\n  File "tools.py", line 3, in lookup_db\nValueError: database unreachable\n'


def _reports_a_traceback(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
    yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
    raw = {"exception": "ValueError", "traceback": TRACEBACK}
    yield {"type": "RUN_ERROR", "message": "database unreachable", "code": "ValueError", "rawEvent": raw}


def _reports_no_traceback(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
    yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
    yield {"type": "RUN_ERROR", "message": "database unreachable"}


async def test_a_run_error_with_a_traceback_over_ag_ui_shows_it_as_the_details() -> None:
    chat = Chat(_reports_a_traceback, store=None)
    assert await chat.send_message("How many orders?") == "error"
    assert (chat.error, chat.error_details) == ("database unreachable", TRACEBACK)
    assert isinstance(chat.exception, AgentRunError) and chat.exception.code == "ValueError"

    plain = Chat(_reports_no_traceback, store=None)  # pydantic-ai's adapter over HTTP: the message alone
    assert await plain.send_message("How many orders?") == "error"
    assert (plain.error, plain.error_details) == ("database unreachable", "")
    assert isinstance(plain.exception, AgentRunError) and plain.exception.code is None


PRODUCERS = Path(__file__).parent.parent / "fixtures" / "producers"

# What each framework's own AG-UI integration sends when its tool raises ValueError("database unreachable"):
# (the run's outcome, its error, its code); a framework that answers the call with an error result goes on.
FAILING_TOOL = {
    "adk": ("error", "database unreachable", "BACKGROUND_EXECUTION_ERROR"),
    "crewai": (
        "error",
        "thread=thread-1 run=run-1: CrewAI flow failed; see server logs",
        "AGUI_CREWAI_FLOW_ERROR_VALUEERROR",
    ),
    "langgraph": ("error", "database unreachable", None),
    "pydantic_ai": ("error", "database unreachable", None),
    "agent_framework": ("success", "", None),
    "agno": ("success", "", None),
    "langroid": ("success", "", None),
    "llamaindex": ("success", "", None),
    "strands": ("success", "", None),
}


@pytest.mark.parametrize("framework", sorted(FAILING_TOOL))
async def test_a_failing_tool_over_ag_ui_keeps_what_the_framework_sent(framework: str) -> None:
    """Over AG-UI no framework sends a traceback; the code those that send one give (ADK's, CrewAI's, which names
    the exception's type) is the error's code, in the chat, the answer's metadata and the log."""
    capture = PRODUCERS / framework / "failing_tool.jsonl"
    chat = Chat(None, store=None)
    outcome, error, code = FAILING_TOOL[framework]
    assert await chat.play(capture) == outcome
    assert (chat.error, chat.error_details) == (error, "")
    end = _run_end(chat)
    assert (end["outcome"], end.get("error", ""), end.get("code")) == (outcome, error, code)
    if outcome == "error":
        assert isinstance(chat.exception, AgentRunError) and chat.exception.code == code
        reported = chat.messages[-1]["metadata"]["ag-ui"]["error"]
        assert reported == {"message": error, **({"code": code} if code else {})}
