"""Frontend tools answered by Python: real agents call them, the widget runs them and follows up by itself."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any, Literal

import pytest
from ag_ui.core import RunAgentInput
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, RetryPromptPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from agui_notebook import (
    AgentRunError,
    OptionError,
    ToolLoopError,
    UIMessage,
    UIMessageValidationError,
    frontend_tool,
    ui_tools,
)
from agui_notebook.chat._frontend_tools import APPROVAL_PREFIX, MAX_FOLLOW_UPS
from agui_notebook.widget._chat import ChatWidget
from tests.widget.front_end import FrontEnd, assert_in_sync

# ---------------------------------------------------------------------------------------------- agents


def get_time(tz: str, *, precise: bool = False) -> dict[str, Any]:
    """The current time in a time zone.

    Args:
        tz: An IANA time zone name.
        precise: Whether to give seconds.
    """
    return {"tz": tz, "time": "12:00:00" if precise else "12:00"}


def tool_returns(messages: list[ModelMessage]) -> list[ToolReturnPart | RetryPromptPart]:
    return [
        p
        for m in messages
        for p in getattr(m, "parts", ())
        if isinstance(p, ToolReturnPart | RetryPromptPart)
    ]


class TimeModel:
    """A pydantic-ai model that calls the frontend tool ``get_time`` once, then answers with what it returned."""

    def __init__(self, args: str = '{"tz": "Europe/Paris"}', tool: str = "get_time") -> None:
        self.args = args
        self.tool = tool
        self.declared: list[list[dict[str, Any]]] = []  # the tools each model call was offered
        self.returns: list[Any] = []

    async def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        self.declared.append(
            [
                {"name": t.name, "description": t.description, "parameters": t.parameters_json_schema}
                for t in info.function_tools
            ]
        )
        returns = tool_returns(messages)
        if returns:
            self.returns.append(returns[-1])
            yield f"Result: {returns[-1].content}"
            return
        yield "Let me look."
        yield {1: DeltaToolCall(name=self.tool, json_args=self.args, tool_call_id="call_t")}


def time_agent(model: TimeModel) -> Agent:
    return Agent(FunctionModel(stream_function=model))


def scripted(calls: list[tuple[str, str, str]], *, pending: bool = True, then: str = "Done."):
    """A hand-written AG-UI agent: its first run calls ``calls`` ((id, name, args)) and ends with them pending;
    a run whose input answers them says ``then``. Every run input is kept in ``.inputs``."""
    inputs: list[RunAgentInput] = []

    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        inputs.append(run_input)
        ids = {"threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "RUN_STARTED", **ids}
        if any(m.role == "tool" for m in run_input.messages):
            yield {
                "type": "TEXT_MESSAGE_CHUNK",
                "messageId": f"m-{run_input.run_id}",
                "role": "assistant",
                "delta": then,
            }
            yield {"type": "RUN_FINISHED", **ids}
            return
        for call_id, name, args in calls:
            yield {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": name}
            yield {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": args}
            yield {"type": "TOOL_CALL_END", "toolCallId": call_id}
        finished: dict[str, Any] = {"type": "RUN_FINISHED", **ids}
        if pending:
            finished["outcome"] = {"type": "success", "pendingToolCallIds": [c[0] for c in calls]}
        yield finished

    agent.inputs = inputs  # type: ignore[attr-defined]
    return agent


def tool_part(chat: ChatWidget, call_id: str) -> dict[str, Any]:
    return next((p for m in chat.messages for p in m["parts"] if p.get("toolCallId") == call_id), {})


def tool_messages(run_input: RunAgentInput) -> list[dict[str, Any]]:
    return [
        m.model_dump(by_alias=True, exclude_none=True, include={"role", "tool_call_id", "content", "error"})
        for m in run_input.messages
        if m.role == "tool"
    ]


# ---------------------------------------------------------------------------------------------- the round trip


async def test_a_pydantic_ai_agent_calls_a_python_function_and_answers_with_its_result() -> None:
    model = TimeModel()
    chat = ChatWidget(time_agent(model), tools=[get_time])
    view = FrontEnd(chat)
    assert await chat.send_message("What time is it in Paris?") == "success"
    # The agent was offered the function with the schema its signature and docstring give.
    assert model.declared[0] == [
        {
            "name": "get_time",
            "description": "The current time in a time zone.",
            "parameters": {
                "type": "object",
                "properties": {
                    "tz": {"type": "string", "description": "An IANA time zone name."},
                    "precise": {
                        "type": "boolean",
                        "default": False,
                        "description": "Whether to give seconds.",
                    },
                },
                "required": ["tz"],
            },
        }
    ]
    _user, asked, answered = chat.messages
    call = next(p for p in asked["parts"] if p["type"] == "tool-get_time")
    assert (call["state"], call["input"], call["output"]) == (
        "output-available",
        {"tz": "Europe/Paris"},
        {"tz": "Europe/Paris", "time": "12:00"},
    )
    # The follow-up run started by itself; its model read the function's result.
    assert model.returns[0].content == {"tz": "Europe/Paris", "time": "12:00"}
    assert [p["text"] for p in answered["parts"] if p["type"] == "text"] == [
        "Result: {'tz': 'Europe/Paris', 'time': '12:00'}"
    ]
    assert (chat.status, chat.error) == ("ready", "")
    assert_in_sync(view, chat)
    assert view.trait_updates("status")[-1] == "ready"


async def test_a_scripted_agent_ending_with_pending_tool_call_ids_gets_the_tool_messages() -> None:
    seen: list[tuple[str, str]] = []

    async def lookup(city: str, units: Literal["metric", "imperial"] = "metric") -> dict[str, Any]:
        """Look the weather up."""
        await asyncio.sleep(0.01)
        seen.append((city, units))
        return {"city": city, "temp": 21 if units == "metric" else 70}

    agent = scripted(
        [("c1", "lookup", '{"city": "Oslo"}'), ("c2", "lookup", '{"city": "Rome", "units": "imperial"}')]
    )
    chat = ChatWidget(agent, tools=[lookup])
    assert await chat.send_message("Weather?") == "success"
    assert sorted(seen) == [("Oslo", "metric"), ("Rome", "imperial")]
    first, follow_up = agent.inputs  # type: ignore[attr-defined]
    assert [t.name for t in first.tools] == ["lookup"]
    assert tool_messages(follow_up) == [
        {"role": "tool", "toolCallId": "c1", "content": '{"city":"Oslo","temp":21}'},
        {"role": "tool", "toolCallId": "c2", "content": '{"city":"Rome","temp":70}'},
    ]
    assert follow_up.resume is None
    assert chat.messages[-1]["parts"][-1]["text"] == "Done."


async def test_an_agent_streaming_ai_sdk_chunks_gets_its_static_and_dynamic_calls_answered() -> None:
    inputs: list[RunAgentInput] = []

    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        inputs.append(run_input)
        if any(m.role == "tool" for m in run_input.messages):
            yield "Both answered."
            return
        yield {"type": "start", "messageId": "a1"}
        yield {
            "type": "tool-input-available",
            "toolCallId": "s1",
            "toolName": "get_time",
            "input": {"tz": "UTC"},
        }
        yield {
            "type": "tool-input-available",
            "toolCallId": "d1",
            "toolName": "get_time",
            "input": {"tz": "Asia/Tokyo"},
            "dynamic": True,
        }
        yield {"type": "finish"}

    chat = ChatWidget(agent, tools=[get_time])
    assert await chat.send_message("time?") == "success"
    assert [(p["type"], p["state"], p["output"]["tz"]) for p in chat.messages[1]["parts"]] == [
        ("tool-get_time", "output-available", "UTC"),
        ("dynamic-tool", "output-available", "Asia/Tokyo"),
    ]
    assert [m["toolCallId"] for m in tool_messages(inputs[1])] == ["s1", "d1"]
    assert chat.messages[-1]["parts"][-1]["text"] == "Both answered."


async def test_calls_left_without_a_result_are_answered_too() -> None:
    agent = scripted([("c1", "get_time", '{"tz": "UTC"}')], pending=False)
    chat = ChatWidget(agent, tools=[get_time])
    assert await chat.send_message("time?") == "success"
    assert tool_part(chat, "c1")["output"] == {"tz": "UTC", "time": "12:00"}
    assert len(agent.inputs) == 2  # type: ignore[attr-defined]


async def test_declarations_and_functions_mix_and_calls_to_unknown_tools_stay_as_today() -> None:
    declared = {"name": "pick_color", "description": "Ask the user", "parameters": {"type": "object"}}
    agent = scripted([("c1", "pick_color", "{}")])
    chat = ChatWidget(agent, tools=[declared, get_time])
    assert [t["name"] for t in chat.tools] == ["pick_color", "get_time"]
    assert await chat.send_message("color?") == "success"
    assert len(agent.inputs) == 1  # type: ignore[attr-defined] - nothing to answer: no follow-up
    assert [t.name for t in agent.inputs[0].tools] == ["pick_color", "get_time"]  # type: ignore[attr-defined]
    assert tool_part(chat, "c1")["state"] == "input-available"


async def test_send_returns_the_outcome_of_the_last_run_and_raise_errors_raises_its_error() -> None:
    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        ids = {"threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "RUN_STARTED", **ids}
        if any(m.role == "tool" for m in run_input.messages):
            yield {"type": "RUN_ERROR", "message": "the model is overloaded", "code": "overloaded"}
            return
        yield {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "get_time"}
        yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"tz": "UTC"}'}
        yield {"type": "TOOL_CALL_END", "toolCallId": "c1"}
        yield {"type": "RUN_FINISHED", **ids}

    chat = ChatWidget(agent, tools=[get_time])
    assert await chat.send_message("time?") == "error"
    assert chat.error == "the model is overloaded"
    assert tool_part(chat, "c1")["state"] == "output-available"
    strict = ChatWidget(agent, tools=[get_time], raise_errors=True)
    with pytest.raises(AgentRunError, match="overloaded"):
        await strict.send_message("time?")


async def test_regenerate_and_edit_run_the_tools_again_and_keep_the_old_turn_as_a_branch() -> None:
    answers = iter(["12:00", "12:01", "12:02"])

    def clock(tz: str) -> str:
        return next(answers)

    agent = scripted([("c1", "clock", '{"tz": "UTC"}')])
    chat = ChatWidget(agent, tools=[clock])
    assert await chat.send_message("time?") == "success"
    first_answer = chat.messages[1]["id"]
    assert await chat.regenerate() == "success"
    assert tool_part(chat, "c1")["output"] == "12:01"
    assert len(chat.messages) == 3  # the call, answered, and the follow-up's answer
    assert [b.messages[0]["parts"][-1]["output"] for b in chat.branches(chat.messages[1]["id"])] == [
        "12:00",
        "12:01",
    ]
    assert chat.branches(chat.messages[1]["id"])[0].message_ids[0] == first_answer
    assert await chat.edit(chat.messages[0]["id"], "time, please?") == "success"
    assert tool_part(chat, "c1")["output"] == "12:02"
    assert len(agent.inputs) == 6  # type: ignore[attr-defined] - three turns of two runs


# ---------------------------------------------------------------------------------------------- running the function


async def test_a_sync_tool_runs_off_the_event_loop_which_stays_responsive() -> None:
    threads: list[int] = []
    spans: list[tuple[float, float]] = []

    def slow(seconds: float) -> str:
        """Work hard."""
        threads.append(threading.get_ident())
        begun = time.monotonic()
        while time.monotonic() - begun < seconds:  # pure-Python work: it holds its thread, not the loop
            sum(range(1000))
        spans.append((begun, time.monotonic()))
        return "done"

    ticks: list[float] = []

    async def ticker() -> None:
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.01)

    chat = ChatWidget(scripted([("c1", "slow", '{"seconds": 0.5}')]), tools=[slow])
    beat = asyncio.create_task(ticker())
    assert await chat.send_message("go") == "success"
    beat.cancel()
    assert threads and threads[0] != threading.get_ident()
    ((begun, ended),) = spans
    # Run on the loop, the function would have let no tick through while it worked.
    assert len([t for t in ticks if begun < t < ended]) >= 5
    assert tool_part(chat, "c1")["output"] == "done"


async def test_an_async_tool_runs_on_the_loop() -> None:
    threads: list[int] = []

    async def where() -> int:
        threads.append(threading.get_ident())
        await asyncio.sleep(0)
        return 7

    chat = ChatWidget(scripted([("c1", "where", "")]), tools=[where])
    assert await chat.send_message("go") == "success"
    assert threads == [threading.get_ident()]
    assert tool_part(chat, "c1")["output"] == 7


async def test_a_tool_that_raises_ends_output_error_and_the_agent_is_told() -> None:
    def get_weather(city: str) -> str:
        raise LookupError(f"no station near {city}")

    model = TimeModel(args='{"city": "Atlantis"}', tool="get_weather")
    chat = ChatWidget(time_agent(model), tools=[get_weather])
    assert await chat.send_message("Weather in Atlantis?") == "success"
    call = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-get_weather")
    assert (call["state"], call["errorText"]) == ("output-error", "LookupError: no station near Atlantis")
    assert "output" not in call
    assert model.returns[0].content == "LookupError: no station near Atlantis"
    assert model.returns[0].outcome == "failed"
    assert (chat.status, chat.error) == ("ready", "")


async def test_bad_arguments_are_not_passed_and_the_error_names_the_argument() -> None:
    called: list[Any] = []

    def add(a: int, b: int = 1) -> int:
        called.append((a, b))
        return a + b

    agent = scripted([("c1", "add", '{"a": "three"}'), ("c2", "add", '{"b": 2}'), ("c3", "add", '"7"')])
    chat = ChatWidget(agent, tools=[add])
    assert await chat.send_message("sum?") == "success"
    assert called == []
    assert [tool_part(chat, c)["errorText"] for c in ("c1", "c2", "c3")] == [
        "invalid arguments for add: a: Input should be a valid integer, unable to parse string as an integer",
        "invalid arguments for add: a: Field required",
        "invalid arguments for add: the arguments are a str, not a JSON object: '7'",
    ]
    assert [m["error"] for m in tool_messages(agent.inputs[1])] == [  # type: ignore[attr-defined]
        tool_part(chat, c)["errorText"] for c in ("c1", "c2", "c3")
    ]


async def test_results_become_json_by_the_one_rule_and_one_without_a_json_form_is_the_calls_error() -> None:
    import numpy as np

    def stats() -> dict[str, Any]:
        return {"mean": np.float64(0.5), "when": __import__("datetime").date(2026, 12, 1)}

    def broken() -> object:
        return object()

    agent = scripted([("c1", "stats", "{}"), ("c2", "broken", "{}")])
    chat = ChatWidget(agent, tools=[stats, broken])
    assert await chat.send_message("go") == "success"
    assert tool_part(chat, "c1")["output"] == {"mean": 0.5, "when": "2026-12-01"}
    assert tool_part(chat, "c2")["state"] == "output-error"
    assert tool_part(chat, "c2")["errorText"].startswith("the result of broken")


# ---------------------------------------------------------------------------------------------- the loop guard


async def test_an_agent_that_keeps_calling_is_stopped_after_max_follow_ups() -> None:
    runs: list[str] = []

    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        runs.append(run_input.run_id)
        call_id = f"c{len(runs)}"
        ids = {"threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "RUN_STARTED", **ids}
        yield {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": "get_time"}
        yield {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": '{"tz": "UTC"}'}
        yield {"type": "TOOL_CALL_END", "toolCallId": call_id}
        yield {"type": "RUN_FINISHED", **ids, "outcome": {"type": "success", "pendingToolCallIds": [call_id]}}

    assert MAX_FOLLOW_UPS == 10
    chat = ChatWidget(agent, tools=[get_time])
    chat.max_follow_ups = 3
    view = FrontEnd(chat)
    assert await chat.send_message("time?") == "error"
    assert len(runs) == 4  # the user's run and three follow-ups
    assert [tool_part(chat, f"c{i}")["state"] for i in range(1, 5)] == ["output-available"] * 3 + [
        "output-error"
    ]
    expected = (
        "the agent called frontend tools again after 3 automatic follow-up runs; stopped before running get_time "
        "(chat.max_follow_ups sets the limit; send a message to go on)"
    )
    assert tool_part(chat, "c4")["errorText"] == f"Not run: {expected}"
    assert (chat.status, chat.error) == ("error", expected)
    assert isinstance(chat.exception, ToolLoopError)
    assert_in_sync(view, chat)
    # A new message is a new turn: the count starts again.
    runs.clear()
    assert await chat.send_message("again") == "error"
    assert len(runs) == 4
    strict = ChatWidget(agent, tools=[get_time], raise_errors=True)
    strict.max_follow_ups = 0
    with pytest.raises(ToolLoopError, match="after 0 automatic follow-up runs"):
        await strict.send_message("time?")


# ---------------------------------------------------------------------------------------------- stopping


async def test_stop_while_a_sync_tool_runs_ends_it_all() -> None:
    entered, left = threading.Event(), threading.Event()

    def wait_forever() -> str:
        entered.set()
        try:
            while True:
                time.sleep(0.001)  # Python code between short C calls: the worker can stop it
        finally:
            left.set()

    agent = scripted([("c1", "wait_forever", "{}")])
    chat = ChatWidget(agent, tools=[wait_forever])
    view = FrontEnd(chat)
    task = chat.send_message("go")
    while not entered.is_set():
        await asyncio.sleep(0.005)
    assert chat.busy and chat.status == "streaming"
    started = time.monotonic()
    chat.stop()
    assert await task == "cancelled"
    assert time.monotonic() - started < 0.5  # at once, give or take a loaded 2-core machine
    part = tool_part(chat, "c1")
    assert (part["state"], part["errorText"], part["callProviderMetadata"]["ag-ui"]["ended"]) == (
        "output-error",
        "Stopped",
        "stopped",
    )
    assert (chat.status, chat.error, chat.busy) == ("ready", "", False)
    assert len(agent.inputs) == 1  # type: ignore[attr-defined] - no follow-up
    assert await asyncio.to_thread(left.wait, 2.0)  # the function's thread was stopped, its finally ran
    assert_in_sync(view, chat)


async def test_stop_while_an_async_tool_awaits_and_during_the_follow_up() -> None:
    async def nap() -> str:
        await asyncio.sleep(30)
        return "rested"

    chat = ChatWidget(scripted([("c1", "nap", "{}")]), tools=[nap])
    task = chat.send_message("go")
    while chat.status != "streaming" or tool_part(chat, "c1").get("state") != "input-available":
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.02)
    chat.stop()
    assert await task == "cancelled"
    assert tool_part(chat, "c1")["errorText"] == "Stopped"

    follow_up_started = asyncio.Event()

    async def slow_answer(run_input: RunAgentInput) -> AsyncIterator[dict[str, Any]]:
        ids = {"threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "RUN_STARTED", **ids}
        if any(m.role == "tool" for m in run_input.messages):
            yield {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m2", "role": "assistant", "delta": "Thinking"}
            follow_up_started.set()
            await asyncio.sleep(30)
        yield {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "get_time"}
        yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"tz": "UTC"}'}
        yield {"type": "TOOL_CALL_END", "toolCallId": "c1"}
        yield {"type": "RUN_FINISHED", **ids}

    chat = ChatWidget(slow_answer, tools=[get_time])
    task = chat.send_message("go")
    await follow_up_started.wait()
    chat.stop()
    assert await task == "cancelled"
    assert tool_part(chat, "c1")["state"] == "output-available"
    assert (chat.messages[-1]["parts"][-1]["text"], chat.messages[-1]["parts"][-1]["state"]) == (
        "Thinking",
        "done",
    )
    assert (chat.status, chat.busy) == ("ready", False)


# ---------------------------------------------------------------------------------------------- approvals


def delete_file(path: str) -> str:
    """Delete a file."""
    deleted.append(path)
    return f"deleted {path}"


deleted: list[str] = []


@pytest.fixture(autouse=True)
def _nothing_deleted() -> None:
    deleted.clear()


async def test_an_approved_call_runs_once_the_user_approves_from_the_card() -> None:
    agent = scripted([("c1", "delete_file", '{"path": "/tmp/x"}')], then="Deleted.")
    chat = ChatWidget(agent, tools=[frontend_tool(delete_file, approval=True)])
    view = FrontEnd(chat)
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    part = tool_part(chat, "c1")
    assert part["state"] == "approval-requested"
    assert part["approval"] == {
        "id": APPROVAL_PREFIX + "c1",
        "requestReason": "The agent wants to run delete_file in this notebook's kernel.",
    }
    assert deleted == [] and (chat.status, chat.busy) == ("ready", False)
    assert_in_sync(view, chat)
    view.request({"kind": "approval", "approvalId": APPROVAL_PREFIX + "c1", "approved": True})
    assert await chat.task == "success"
    assert deleted == ["/tmp/x"]
    part = tool_part(chat, "c1")
    assert (part["state"], part["output"], part["approval"]["approved"]) == (
        "output-available",
        "deleted /tmp/x",
        True,
    )
    follow_up = agent.inputs[-1]  # type: ignore[attr-defined]
    assert tool_messages(follow_up) == [{"role": "tool", "toolCallId": "c1", "content": "deleted /tmp/x"}]
    assert follow_up.resume is None  # a frontend tool's approval is no AG-UI interrupt
    assert chat.messages[-1]["parts"][-1]["text"] == "Deleted."
    assert_in_sync(view, chat)


async def test_a_denied_call_is_output_denied_and_the_agent_reads_the_reason() -> None:
    model = TimeModel(args='{"path": "/tmp/x"}', tool="delete_file")
    chat = ChatWidget(time_agent(model), tools=[frontend_tool(delete_file, approval=True)])
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    assert await chat.answer_approval(APPROVAL_PREFIX + "call_t", False, reason="keep it") == "success"  # type: ignore[misc]
    assert deleted == []
    part = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-delete_file")
    assert part["state"] == "output-denied"
    assert part["approval"]["approved"] is False and part["approval"]["reason"] == "keep it"
    # As the AI SDK does, the denial's reason is the tool result the model sees.
    assert (model.returns[0].content, model.returns[0].outcome) == ("keep it", "failed")
    assert chat.messages[-1]["parts"][-1]["text"] == "Result: keep it"


async def test_only_the_calls_that_need_approval_wait_and_several_are_answered_together() -> None:
    agent = scripted(
        [
            ("c1", "get_time", '{"tz": "UTC"}'),
            ("c2", "delete_file", '{"path": "/a"}'),
            ("c3", "delete_file", '{"path": "/b"}'),
        ]
    )
    chat = ChatWidget(agent, tools=[get_time, frontend_tool(delete_file, approval=True)])
    assert await chat.send_message("go") == "interrupt"
    assert [tool_part(chat, c)["state"] for c in ("c1", "c2", "c3")] == [
        "output-available",
        "approval-requested",
        "approval-requested",
    ]
    assert chat.answer_approval(APPROVAL_PREFIX + "c2", True) is None  # another still waits
    assert await chat.answer_approval(APPROVAL_PREFIX + "c3", False) == "success"  # type: ignore[misc]
    assert deleted == ["/a"]
    assert [m["content"] for m in tool_messages(agent.inputs[-1])] == [  # type: ignore[attr-defined]
        '{"tz":"UTC","time":"12:00"}',
        "deleted /a",
        "Tool call denied",
    ]


async def test_a_new_message_cancels_a_waiting_frontend_approval_without_a_resume_entry() -> None:
    agent = scripted([("c1", "delete_file", '{"path": "/tmp/x"}')])
    chat = ChatWidget(agent, tools=[frontend_tool(delete_file, approval=True)])
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    assert await chat.send_message("Never mind") == "success"
    part = tool_part(chat, "c1")
    assert part["state"] == "output-denied"
    assert part["callProviderMetadata"]["ag-ui"]["ended"] == "cancelled"
    run_input = agent.inputs[-1]  # type: ignore[attr-defined]
    assert run_input.resume is None
    assert tool_messages(run_input) == [
        {"role": "tool", "toolCallId": "c1", "content": "Tool call denied", "error": "denied"}
    ]
    assert deleted == []
    with pytest.raises(KeyError, match="was cancelled: a new message was sent before it"):
        chat.answer_approval(APPROVAL_PREFIX + "c1", True)


# ---------------------------------------------------------------------------------------------- construction


class Opaque:
    """A type pydantic has no schema for."""


def test_a_function_whose_signature_cannot_be_described_is_refused_at_construction() -> None:
    class Local:
        pass

    def takes_opaque(thing: Opaque) -> None: ...

    def takes_local(count: int, thing: Local) -> None: ...

    def takes_args(*names: str) -> None: ...

    with pytest.raises(OptionError, match=r"tool '.*takes_opaque': parameter 'thing' is annotated Opaque"):
        ChatWidget(None, tools=[takes_opaque])
    with pytest.raises(
        OptionError, match=r"takes_local': parameter 'thing': its annotation Local cannot be resolved"
    ):
        ChatWidget(None, tools=[takes_local])
    with pytest.raises(OptionError, match=r"parameter \*names cannot be described"):
        ChatWidget(None, tools=[takes_args])
    with pytest.raises(OptionError, match="a second tool named 'get_time'"):
        ChatWidget(None, tools=[get_time, frontend_tool(get_time, approval=True)])
    with pytest.raises(OptionError, match="'get_time' is both a function and a declaration"):
        ChatWidget(None, tools=[get_time, {"name": "get_time", "description": "Now.", "parameters": {}}])
    with pytest.raises(OptionError, match="not a tool name"):
        ChatWidget(None, tools=[lambda: 1])
    assert ChatWidget(None, tools=[frontend_tool(lambda: 1, name="one")]).tools[0]["name"] == "one"


# ---------------------------------------------------------------------------------------------- typed conversations


async def test_a_typed_widget_returns_typed_messages_and_names_what_does_not_validate() -> None:
    ChatMessage = UIMessage[Any, Any, ui_tools(get_time)]
    chat = ChatWidget(time_agent(TimeModel()), tools=[get_time], message_type=ChatMessage)
    assert await chat.send_message("What time is it in Paris?") == "success"
    messages = chat.ui_messages
    assert all(isinstance(m, ChatMessage) for m in messages)
    call = next(p for p in messages[1].parts if getattr(p, "tool_name", None) == "get_time")
    assert call.input.tz == "Europe/Paris" and call.input.precise is False
    assert call.output == {"tz": "Europe/Paris", "time": "12:00"}

    bad = {
        "id": "a",
        "role": "assistant",
        "parts": [
            {"type": "step-start"},
            {"type": "tool-get_time", "toolCallId": "c", "state": "input-available", "input": {"tz": 3}},
        ],
    }
    with pytest.raises(
        UIMessageValidationError,
        match=r"^messages\[0\]\.parts\[1\]\.input\.tz: Input should be a valid string$",
    ):
        ChatWidget(None, messages=[bad], message_type=ChatMessage)
    chat.messages = [*chat.messages, bad]  # through the trait: shown, and refused when read as typed
    with pytest.raises(UIMessageValidationError, match=r"^messages\[3\]\.parts\[1\]\.input\.tz"):
        chat.ui_messages  # noqa: B018
