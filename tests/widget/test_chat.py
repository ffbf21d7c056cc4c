"""ChatWidget without a browser: real agents drive it; a Python replica of the front end applies what it sends.

``FrontEnd`` (front_end.py) applies everything the widget sends exactly as js/src/sync.js does, so every test can
check that the live patches rebuild the chat's conversation.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import datetime
import decimal
import json
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from ag_ui.core import RunAgentInput, TextMessageContentEvent, TextMessageEndEvent, TextMessageStartEvent
from pydantic import BaseModel

from agui_notebook import (
    AgentRunError,
    ChatStateError,
    InputTypeError,
    JsonValueError,
    OptionError,
    StateUpdateWarning,
)
from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.bridge._messages import to_agui_messages_wire
from agui_notebook.chat._run import MAX_WARNINGS
from agui_notebook.widget import _opening
from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._requests import BUSY_NOTICE
from tests.support.pydantic_ai_runs import SCENARIOS, make_agent, make_approval_agent
from tests.widget.front_end import FrontEnd, assert_in_sync
from tests.widget.sample_agents import AGUI_ANSWER, CHUNK_ANSWER, agui_agent, chunk_agent, streamed

# ---------------------------------------------------------------------------------------------- helpers


def _input(thread_id: str) -> RunAgentInput:
    return RunAgentInput(thread_id=thread_id, run_id="r", messages=[])


def user(text: str, message_id: str) -> dict[str, Any]:
    return {"id": message_id, "role": "user", "parts": [{"type": "text", "text": text}]}


def without_provider_metadata(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Parts without the AG-UI ids pydantic-ai draws at random for every run."""
    keys = ("providerMetadata", "callProviderMetadata", "resultProviderMetadata")
    return [
        {k: v for k, v in part.items() if k not in keys and not (k == "id" and part["type"] == "reasoning")}
        for part in message["parts"]
    ]


# ---------------------------------------------------------------------------------------------- streams


async def test_a_generator_of_agui_events_builds_the_answer() -> None:
    chat = ChatWidget(agui_agent, thread_id="thread-1")
    view = FrontEnd(chat)
    assert await chat.send_message("What is 1 + 2?") == "success"
    question = chat.messages[0]
    assert chat.messages == [user("What is 1 + 2?", question["id"]), AGUI_ANSWER]
    assert chat.state == {"total": 3, "count": 1}
    assert (chat.status, chat.error) == ("ready", "")
    assert_in_sync(view, chat)
    assert view.trait_updates("status") == ["submitted", "streaming", "ready"]
    # The conversation reaches the views only as the snapshot they asked for and patches: never a whole trait.
    assert view.trait_updates("messages") == []


async def test_a_generator_of_ai_sdk_chunks_builds_the_answer() -> None:
    chat = ChatWidget(chunk_agent)
    view = FrontEnd(chat)
    assert await chat.send_message("hi") == "success"
    assert chat.messages[1] == CHUNK_ANSWER
    assert_in_sync(view, chat)
    assert streamed(chat) == list(chunk_agent(None))  # type: ignore[arg-type]


async def test_plain_strings_are_text_deltas() -> None:
    async def agent(run_input: RunAgentInput) -> AsyncIterator[str]:
        for piece in ["Hello", ", ", "world"]:
            yield piece
            await asyncio.sleep(0)

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("hi") == "success"
    answer = chat.messages[1]
    assert answer == {
        "id": answer["id"],
        "role": "assistant",
        "parts": [{"type": "step-start"}, {"type": "text", "text": "Hello, world", "state": "done"}],
    }
    assert [e["type"] for e in streamed(chat)] == [
        "start", "start-step", "text-start", "text-delta", "text-delta", "text-delta", "text-end", "finish-step", "finish",
    ]  # fmt: skip
    assert_in_sync(view, chat)


async def test_ag_ui_event_models_from_an_object_with_run() -> None:
    class Agent:
        async def run(self, run_input: RunAgentInput) -> AsyncIterator[Any]:
            yield TextMessageStartEvent(message_id="m1", role="assistant")
            yield TextMessageContentEvent(message_id="m1", delta="model events")
            yield TextMessageEndEvent(message_id="m1")

    chat = ChatWidget(Agent())
    assert await chat.send_message("hi") == "success"
    answer = chat.messages[1]
    # No RUN_STARTED/RUN_FINISHED in the stream: the widget opens and closes the run itself.
    assert answer["parts"] == [
        {"type": "step-start"},
        {
            "type": "text",
            "text": "model events",
            "providerMetadata": {"ag-ui": {"messageId": "m1"}},
            "state": "done",
        },
    ]
    assert answer["id"] == answer["metadata"]["ag-ui"]["runId"]
    assert [e["type"] for e in streamed(chat)] == [
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
    ]


async def test_a_pydantic_ai_agent_with_a_function_model() -> None:
    chat = ChatWidget(make_agent(SCENARIOS["reasoning_tool_text"]))
    view = FrontEnd(chat)
    assert await chat.send_message("What's the weather?") == "success"
    assert without_provider_metadata(chat.messages[1]) == [
        {"type": "step-start"},
        {"type": "reasoning", "text": "The user wants the weather.", "state": "done"},
        {
            "type": "tool-get_weather",
            "toolCallId": "call_w1",
            "state": "output-available",
            "input": {"city": "Paris"},
            "output": {"city": "Paris", "sky": "sunny", "temp_c": 21},
        },
        {"type": "step-start"},
        {"type": "text", "text": "The weather in Paris is **sunny**, 21 °C.", "state": "done"},
    ]
    # What the widget shows is what the bridge makes of the events it recorded.
    replay = ui_message_dicts_from_events(streamed(chat))
    assert replay[0]["parts"] == chat.messages[1]["parts"]
    assert_in_sync(view, chat)


async def test_the_run_input_carries_the_conversation_tools_state_and_files(tmp_path: Path) -> None:
    inputs: list[RunAgentInput] = []

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        inputs.append(run_input)
        yield "ok"

    image = tmp_path / "dot.png"
    image.write_bytes(b"\x89PNG")
    tool = {
        "name": "confirm",
        "description": "Ask the user",
        "parameters": {"type": "object", "properties": {}},
    }
    chat = ChatWidget(agent, thread_id="thread-9", tools=[tool], state={"step": 1})
    await chat.send_message(
        "Look", files=[image, (b"hello", "text/plain"), ("notes.md", b"# hi", "text/markdown")]
    )
    await chat.send_message("Again")
    first, second = inputs
    assert chat.messages[0]["parts"] == [
        {
            "type": "file",
            "mediaType": "image/png",
            "filename": "dot.png",
            "url": "data:image/png;base64,iVBORw==",
        },
        {"type": "file", "mediaType": "text/plain", "url": "data:text/plain;base64,aGVsbG8="},
        {
            "type": "file",
            "mediaType": "text/markdown",
            "filename": "notes.md",
            "url": "data:text/markdown;base64,IyBoaQ==",
        },
        {"type": "text", "text": "Look"},
    ]
    wire = first.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert wire["threadId"] == "thread-9" and wire["state"] == {"step": 1} and wire["tools"] == [tool]
    assert wire["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "data", "value": "iVBORw==", "mimeType": "image/png"}, "metadata": {"filename": "dot.png"}},
        {"type": "document", "source": {"type": "data", "value": "aGVsbG8=", "mimeType": "text/plain"}},
        {"type": "document", "source": {"type": "data", "value": "IyBoaQ==", "mimeType": "text/markdown"}, "metadata": {"filename": "notes.md"}},
        {"type": "text", "text": "Look"},
    ]  # fmt: skip
    assert [m.role for m in second.messages] == ["user", "assistant", "user"]
    assert second.messages[1].content == "ok"
    assert first.run_id != second.run_id
    assert [m.role for m in chat.agui_messages] == ["user", "assistant", "user", "assistant"]
    assert [m.role for m in chat.ui_messages] == ["user", "assistant", "user", "assistant"]


async def test_activity_stays_on_the_client() -> None:
    """Plans, sources and other activity are shown but not sent back to the agent (as @ag-ui/client does)."""
    inputs: list[RunAgentInput] = []

    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        inputs.append(run_input)
        yield {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "plan",
            "activityType": "plan",
            "content": {"steps": []},
        }
        yield {
            "type": "TEXT_MESSAGE_CHUNK",
            "messageId": f"a{len(inputs)}",
            "role": "assistant",
            "delta": "ok",
        }

    chat = ChatWidget(agent)
    await chat.send_message("one")
    await chat.send_message("two")
    assert [p["type"] for p in chat.messages[1]["parts"]] == ["data-plan", "step-start", "text"]
    assert [m.role for m in inputs[1].messages] == ["user", "assistant", "user"]


# ---------------------------------------------------------------------------------------------- approvals


@pytest.mark.parametrize("approved", [True, False])
async def test_approval_from_the_front_end_resumes_the_run(approved: bool) -> None:
    chat = ChatWidget(make_approval_agent())
    view = FrontEnd(chat)
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    assert chat.status == "ready"
    tool = chat.messages[1]["parts"][-1]
    assert (tool["type"], tool["state"], tool["input"]) == (
        "tool-delete_file",
        "approval-requested",
        {"path": "/tmp/x"},
    )
    assert tool["approval"] == {
        "id": "int-call_d",
        "requestReason": 'Approve delete_file({"path":"/tmp/x"})?',
    }

    inputs: list[RunAgentInput] = []
    real = chat.agent

    def recording(run_input: RunAgentInput) -> Any:
        inputs.append(run_input)
        from pydantic_ai.ui.ag_ui import AGUIAdapter

        return AGUIAdapter(agent=real, run_input=run_input).run_stream()

    chat.agent = recording
    answer = {"kind": "approval", "approvalId": "int-call_d", "approved": approved}
    if not approved:
        answer["reason"] = "not now"
    view.request(answer)
    # The answer shows at once, before the agent says anything.
    part = view.state["messages"][1]["parts"][-1]
    assert part["state"] == "approval-responded" and part["approval"]["approved"] is approved
    assert await chat.task == "success"
    payload = {"approved": approved} if approved else {"approved": False, "reason": "not now"}
    assert [r.model_dump(by_alias=True, exclude_none=True) for r in inputs[0].resume] == [
        {"interruptId": "int-call_d", "status": "resolved", "payload": payload}
    ]
    assert [m["role"] for m in chat.messages] == ["user", "assistant"]  # the same answer continues
    tool = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-delete_file")
    if approved:
        assert tool["state"] == "output-available" and tool["output"] == "deleted /tmp/x"
        assert tool["approval"] == {"id": "int-call_d", "requestReason": 'Approve delete_file({"path":"/tmp/x"})?', "approved": True}  # fmt: skip
    else:
        assert tool["state"] == "output-denied"
        assert tool["approval"]["reason"] == "not now"
    assert chat.messages[1]["parts"][-1]["text"] == "Deleted `/tmp/x`."
    assert chat.messages[1]["metadata"]["ag-ui"]["outcome"] == {"type": "success"}
    assert_in_sync(view, chat)


@pytest.mark.node
async def test_ai_sdk_chunks_with_an_approval_match_the_ai_sdk(node_reference: Any) -> None:
    """pydantic-ai's Vercel AI adapter as the agent: the widget reads its chunks as the AI SDK does."""
    from pydantic_ai.ui.vercel_ai import VercelAIAdapter

    agent = make_approval_agent()

    def vercel(run_input: RunAgentInput) -> Any:
        body = {"trigger": "submit-message", "id": run_input.thread_id, "messages": chat.messages}
        run = VercelAIAdapter.build_run_input(json.dumps(body).encode())
        return VercelAIAdapter(agent=agent, run_input=run, sdk_version=7).run_stream()

    chat = ChatWidget(vercel)
    view = FrontEnd(chat)
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    asked = copy.deepcopy(chat.messages[1])
    first_chunks = streamed(chat)
    tool = asked["parts"][-1]
    assert (tool["state"], tool["approval"]) == ("approval-requested", {"id": "call_d"})
    assert await chat.answer_approval("call_d", True) == "success"
    resumed_chunks = streamed(chat)[len(first_chunks) :]
    answered = copy.deepcopy(asked)
    answered["parts"][-1].update(state="approval-responded", approval={"id": "call_d", "approved": True})
    first, final = node_reference(
        "ui_messages_from_chunk_streams.mjs",
        {
            "streams": [
                {"chunks": first_chunks, "message": {"id": asked["id"], "role": "assistant", "parts": []}},
                {"chunks": resumed_chunks, "message": answered},
            ]
        },
    )
    assert first["message"] == asked
    assert final["message"] == chat.messages[1]
    assert chat.messages[1]["parts"][2]["state"] == "output-available"
    assert_in_sync(view, chat)


async def test_two_approvals_resume_once_both_are_answered() -> None:
    from pydantic_ai import Agent, DeferredToolRequests
    from pydantic_ai.messages import ModelMessage, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

    async def model(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        if any(isinstance(p, ToolReturnPart) for m in messages for p in getattr(m, "parts", ())):
            yield "Handled both."
            return
        yield {0: DeltaToolCall(name="delete_file", json_args='{"path": "/a"}', tool_call_id="call_a")}
        yield {1: DeltaToolCall(name="delete_file", json_args='{"path": "/b"}', tool_call_id="call_b")}

    agent = Agent(FunctionModel(stream_function=model), output_type=[str, DeferredToolRequests])

    @agent.tool_plain(requires_approval=True)
    def delete_file(path: str) -> str:
        """Delete a file."""
        return f"deleted {path}"

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("Delete /a and /b") == "interrupt"
    asked = [p for p in chat.messages[1]["parts"] if p["type"] == "tool-delete_file"]
    assert [(p["toolCallId"], p["state"]) for p in asked] == [
        ("call_a", "approval-requested"),
        ("call_b", "approval-requested"),
    ]
    assert chat.answer_approval(asked[0]["approval"]["id"], True) is None  # waits for the other answer
    assert view.state["messages"][1]["parts"][-2]["state"] == "approval-responded"
    assert chat.messages[1]["parts"][-2]["state"] == "approval-responded"
    with pytest.raises(KeyError, match="already answered"):
        chat.answer_approval(asked[0]["approval"]["id"], False)
    assert await chat.answer_approval(asked[1]["approval"]["id"], False, reason="keep /b") == "success"
    done = {p["toolCallId"]: p for p in chat.messages[1]["parts"] if p["type"] == "tool-delete_file"}
    assert (done["call_a"]["state"], done["call_a"]["output"]) == ("output-available", "deleted /a")
    assert done["call_b"]["state"] == "output-denied"
    assert done["call_b"]["approval"]["reason"] == "keep /b"
    assert chat.messages[1]["parts"][-1]["text"] == "Handled both."
    assert_in_sync(view, chat)


async def test_denying_the_demo_report_ends_the_call_denied_with_its_reason() -> None:
    from agui_notebook.demo import DemoAgent

    chat = ChatWidget(DemoAgent(speed=0))
    view = FrontEnd(chat)
    assert await chat.send_message("Weather in Oslo?") == "interrupt"
    asked = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-send_report")
    assert asked["state"] == "approval-requested"
    assert (
        await chat.answer_approval(asked["approval"]["id"], False, reason="not to the whole team")
        == "success"
    )
    tool = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-send_report")
    assert tool["state"] == "output-denied"
    assert "output" not in tool
    assert tool["approval"] == {**asked["approval"], "approved": False, "reason": "not to the whole team"}
    assert chat.messages[1]["parts"][-2]["text"] == "No problem, I did not send anything."
    assert_in_sync(view, chat)


async def test_a_new_message_cancels_the_pending_approval_and_its_old_button_does_nothing() -> None:
    from pydantic_ai.ui.ag_ui import AGUIAdapter

    approval_agent = make_approval_agent()
    inputs: list[RunAgentInput] = []

    def recording(run_input: RunAgentInput) -> Any:
        inputs.append(run_input)
        return AGUIAdapter(agent=approval_agent, run_input=run_input).run_stream()

    chat = ChatWidget(recording)
    view = FrontEnd(chat)
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    task = chat.send_message("Never mind: what time is it?")
    # At once, before the agent answers: the card is no longer asking.
    shown = next(p for p in view.state["messages"][1]["parts"] if p["type"] == "tool-delete_file")
    assert shown["state"] == "approval-responded"
    assert shown["approval"]["approved"] is False
    assert shown["callProviderMetadata"]["ag-ui"]["ended"] == "cancelled"
    assert await task == "success"
    assert [r.model_dump(by_alias=True, exclude_none=True) for r in inputs[1].resume] == [
        {"interruptId": "int-call_d", "status": "cancelled"}
    ]
    # The call stays unanswered in the history: the cancelled entry is its answer (pydantic-ai denies it).
    assert [m.role for m in inputs[1].messages] == ["user", "assistant", "user"]
    assert [m["role"] for m in chat.messages] == ["user", "assistant", "user", "assistant"]
    tool = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-delete_file")
    assert tool["state"] == "output-denied"
    assert tool["callProviderMetadata"]["ag-ui"]["ended"] == "cancelled"

    # The old Approve, clicked late: refused visibly, nothing changes and no run starts.
    before = copy.deepcopy(chat.messages)
    view.request({"kind": "approval", "approvalId": "int-call_d", "approved": True})
    assert (
        chat.error
        == "MessageNotFoundError: approval 'int-call_d' was cancelled: a new message was sent before it"
    )
    assert not chat.busy and len(inputs) == 2
    assert chat.messages == before
    assert_in_sync(view, chat)


async def test_a_new_message_to_the_demo_starts_a_new_answer_though_its_run_input_echoes_the_entries() -> (
    None
):
    from agui_notebook.demo import DemoAgent

    chat = ChatWidget(DemoAgent(speed=0))
    view = FrontEnd(chat)
    assert await chat.send_message("Weather in Oslo?") == "interrupt"
    assert (
        await chat.send_message("And the weather in Bergen?") == "interrupt"
    )  # a new answer, with its own approval
    assert any("Bergen" in part.get("text", "") for part in chat.messages[3]["parts"])
    started = [r["event"] for r in chat.events if r["event"]["type"] == "RUN_STARTED"][-1]
    assert [e["status"] for e in started["input"]["resume"]] == ["cancelled"]  # recorded as the agent sent it
    assert [m["role"] for m in chat.messages] == ["user", "assistant", "user", "assistant"]
    tool = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-send_report")
    assert tool["state"] == "output-denied"
    assert tool["approval"] == {"id": tool["approval"]["id"], "requestReason": tool["approval"]["requestReason"], "approved": False}  # fmt: skip
    assert tool["callProviderMetadata"]["ag-ui"]["ended"] == "cancelled"
    assert_in_sync(view, chat)


async def test_answering_an_unknown_approval_is_an_error() -> None:
    chat = ChatWidget(agui_agent)
    with pytest.raises(KeyError, match="no tool call is waiting for approval 'nope'"):
        chat.answer_approval("nope", True)


# ---------------------------------------------------------------------------------------------- stop


async def test_stop_ends_a_slow_sync_agent_within_200_ms() -> None:
    finished = threading.Event()

    def slow(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        try:
            yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
            yield {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}
            for i in range(100):
                yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": f"{i} "}
                time.sleep(1.0)
        finally:
            finished.set()

    chat = ChatWidget(slow)
    view = FrontEnd(chat)
    task = chat.send_message("count")
    while "0 " not in json.dumps(chat.chat.live_messages):
        await asyncio.sleep(0.01)
    stopped_at = time.monotonic()
    view.request({"kind": "stop"})
    assert await task == "cancelled"
    latency = time.monotonic() - stopped_at
    assert latency < 0.2, f"stop took {latency * 1000:.0f} ms"
    assert (chat.status, chat.error) == ("ready", "")
    answer = chat.messages[1]
    assert answer["parts"][-1]["text"] == "0 "
    assert answer["metadata"]["ag-ui"]["outcome"] == {"type": "cancelled"}
    assert streamed(chat)[-1] == {
        "type": "RUN_FINISHED",
        "threadId": chat.thread_id,
        "runId": answer["id"],
        "outcome": {"type": "cancelled"},
    }
    assert chat.events[-1]["event"]["name"] == "agui-notebook/run-end"
    assert_in_sync(view, chat)
    assert await asyncio.to_thread(finished.wait, 3.0)  # the worker closed the generator at its next item


async def test_stop_cancels_an_async_agent() -> None:
    async def agent(run_input: RunAgentInput) -> AsyncIterator[str]:
        yield "partial"
        await asyncio.sleep(30)
        yield "never"

    chat = ChatWidget(agent)
    task = chat.send_message("go")
    while chat.status != "streaming":
        await asyncio.sleep(0.005)
    started = time.monotonic()
    chat.stop()
    assert await task == "cancelled"
    assert time.monotonic() - started < 0.2
    assert chat.messages[1]["parts"][-1] == {"type": "text", "text": "partial", "state": "done"}


STOPPED_MID_EVERYTHING = {
    "events": [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "REASONING_START", "messageId": "rs"},
        {"type": "REASONING_MESSAGE_START", "messageId": "rs", "role": "reasoning"},
        {"type": "REASONING_MESSAGE_CONTENT", "messageId": "rs", "delta": "think"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "| a | b |\n| --"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "search", "parentMessageId": "m"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"q": "par'},
    ],
    "chunks": [
        {"type": "start", "messageId": "m"},
        {"type": "start-step"},
        {"type": "reasoning-start", "id": "r"},
        {"type": "reasoning-delta", "id": "r", "delta": "think"},
        {"type": "text-start", "id": "t"},
        {"type": "text-delta", "id": "t", "delta": "| a | b |\n| --"},
        {"type": "tool-input-start", "toolCallId": "c", "toolName": "search"},
        {"type": "tool-input-delta", "toolCallId": "c", "inputTextDelta": '{"q": "par'},
    ],
}


@pytest.mark.parametrize("kind", sorted(STOPPED_MID_EVERYTHING))
async def test_stop_finishes_every_streaming_part(kind: str) -> None:
    items = STOPPED_MID_EVERYTHING[kind]

    async def agent(run_input: RunAgentInput) -> AsyncIterator[dict[str, Any]]:
        for item in items:
            yield item
        await asyncio.sleep(30)

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    task = chat.send_message("go")
    while len(chat.events) < len(items):
        await asyncio.sleep(0.005)
    chat.stop()
    assert await task == "cancelled"
    parts = chat.messages[1]["parts"]
    assert [(p["type"], p.get("state")) for p in parts] == [
        ("step-start", None),
        ("reasoning", "done"),
        ("text", "done"),
        ("tool-search", "output-error"),
    ]
    tool = parts[3]
    assert tool["errorText"] == "Stopped before its arguments were complete"
    assert tool["callProviderMetadata"]["ag-ui"]["ended"] == "stopped"
    assert (tool["input"], tool["rawInput"]) == ({"q": "par"}, '{"q": "par')
    assert_in_sync(view, chat)
    # The next run's input has an answer for the stopped call, as every model API wants.
    tool_messages = [m for m in to_agui_messages_wire(chat.messages) if m["role"] == "tool"]
    assert [(m["toolCallId"], m["error"]) for m in tool_messages] == [
        ("c", "Stopped before its arguments were complete")
    ]


async def test_the_kernel_loop_stays_free_while_a_sync_agent_blocks() -> None:
    def blocking(run_input: RunAgentInput) -> Iterator[str]:
        time.sleep(0.3)
        yield "done"

    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    ticking = asyncio.create_task(ticker())
    chat = ChatWidget(blocking)
    await chat.send_message("go")
    ticking.cancel()
    assert ticks >= 10


# ---------------------------------------------------------------------------------------------- failures


async def test_an_agent_that_raises_shows_the_error_and_leaves_the_widget_usable() -> None:
    calls = 0

    def flaky(run_input: RunAgentInput) -> Iterator[str]:
        nonlocal calls
        calls += 1
        yield "Working on it"
        if calls == 1:
            raise ConnectionError("model endpoint unreachable")
        yield "... done"

    chat = ChatWidget(flaky)
    view = FrontEnd(chat)
    assert await chat.send_message("go") == "error"
    assert (chat.status, chat.error) == ("error", "ConnectionError: model endpoint unreachable")
    assert isinstance(chat.exception, ConnectionError)
    answer = chat.messages[1]
    assert answer["parts"][-1]["text"] == "Working on it"
    assert answer["metadata"] == {
        "ag-ui": {
            "error": {"message": "ConnectionError: model endpoint unreachable", "code": "ConnectionError"}
        }
    }
    assert_in_sync(view, chat)
    assert await chat.send_message("again") == "success"
    assert (chat.status, chat.error) == ("ready", "")
    assert chat.messages[-1]["parts"][-1]["text"] == "Working on it... done"
    assert_in_sync(view, chat)


async def test_an_agent_that_fails_before_streaming_gets_an_error_message() -> None:
    async def broken(run_input: RunAgentInput) -> AsyncIterator[str]:
        raise RuntimeError("no API key")
        yield ""  # pragma: no cover

    chat = ChatWidget(broken)
    assert await chat.send_message("go") == "error"
    answer = chat.messages[1]
    assert answer["role"] == "assistant"
    assert answer["metadata"]["ag-ui"]["error"] == {
        "message": "RuntimeError: no API key",
        "code": "RuntimeError",
    }
    assert chat.error == "RuntimeError: no API key"


async def test_a_run_error_event_sets_the_error_status() -> None:
    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "RUN_ERROR", "message": "rate limited", "code": "429"}

    chat = ChatWidget(agent)
    assert await chat.send_message("go") == "error"
    assert (chat.status, chat.error) == ("error", "rate limited")
    assert chat.messages[1]["metadata"]["ag-ui"]["error"] == {"message": "rate limited", "code": "429"}
    assert isinstance(chat.exception, AgentRunError)
    assert (str(chat.exception), chat.exception.code) == ("rate limited", "429")

    strict = ChatWidget(agent, raise_errors=True)
    with pytest.raises(AgentRunError, match="rate limited") as raised:
        await strict.send_message("go")
    assert raised.value.code == "429"
    assert (strict.status, strict.error, strict.busy) == ("error", "rate limited", False)


async def test_raise_errors_re_raises_the_agents_exception_once_the_widget_is_tidy() -> None:
    def failing(run_input: RunAgentInput) -> Iterator[str]:
        yield "Working on it"
        raise ConnectionError("model endpoint unreachable")

    chat = ChatWidget(failing, raise_errors=True)
    view = FrontEnd(chat)
    with pytest.raises(ConnectionError, match="model endpoint unreachable") as raised:
        await chat.send_message("go")
    assert raised.value is chat.exception
    assert (chat.status, chat.error) == ("error", "ConnectionError: model endpoint unreachable")
    assert "ConnectionError: model endpoint unreachable" in chat.error_details
    assert chat.messages[1]["parts"][-1] == {"type": "text", "text": "Working on it", "state": "done"}
    assert_in_sync(view, chat)
    chat.agent = lambda run_input: iter(["fine"])
    assert await chat.send_message("again") == "success"  # and the widget goes on


async def test_a_malformed_chunk_stream_shows_where_and_keeps_what_was_rendered() -> None:
    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        yield {"type": "start", "messageId": "a1"}
        yield {"type": "text-start", "id": "t1"}
        yield {"type": "text-delta", "id": "t1", "delta": "Kept"}
        yield {"type": "text-delta", "id": "t9", "delta": "lost"}
        yield {"type": "text-delta", "id": "t1", "delta": "never read"}

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("go") == "error"
    assert (
        chat.error
        == "malformed stream: item 3 (text-delta): no text part with id 't9' (send text-start first)"
    )
    # What was rendered stays, finished: the failed run leaves nothing that looks busy.
    assert chat.messages[1]["parts"][0] == {"type": "text", "text": "Kept", "state": "done"}
    assert_in_sync(view, chat)


async def test_a_malformed_event_stream_names_the_item() -> None:
    def agent(run_input: RunAgentInput) -> Iterator[Any]:
        yield {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Kept"}
        yield 42

    chat = ChatWidget(agent)
    assert await chat.send_message("go") == "error"
    assert (
        chat.error
        == "malformed stream: item 2: expected an AG-UI event, an AI SDK chunk (dict) or str text, got int"
    )
    assert chat.messages[1]["parts"][-1]["text"] == "Kept"


async def test_an_item_whose_type_is_not_a_string_names_the_item() -> None:
    def agent(run_input: RunAgentInput) -> Iterator[Any]:
        yield "Kept"
        yield {"type": ["text-delta"], "delta": "x"}

    chat = ChatWidget(agent)
    assert await chat.send_message("go") == "error"
    assert chat.error == "malformed stream: item 1: a stream item needs a string 'type', got ['text-delta']"
    assert chat.messages[1]["parts"][-1]["text"] == "Kept"


async def test_events_out_of_order_are_caught_by_the_reference_rules() -> None:
    def agent(run_input: RunAgentInput) -> Iterator[Any]:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Kept"}
        yield {"type": "NOT_AN_AG_UI_EVENT", "value": 1}  # dropped, as @ag-ui/client drops it
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "other", "delta": "refused"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "never read"}

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("go") == "error"
    assert chat.error == (
        "malformed stream: event 4 (TEXT_MESSAGE_CONTENT): no active text message 'other'; "
        "send TEXT_MESSAGE_START first"
    )
    assert chat.messages[1]["parts"][-1] == {
        "type": "text",
        "text": "Kept",
        "providerMetadata": {"ag-ui": {"messageId": "m"}},
        "state": "done",  # the failed run leaves nothing streaming
    }
    assert chat.messages[1]["metadata"]["ag-ui"]["error"]["code"] == "STREAM_ERROR"
    assert_in_sync(view, chat)


async def test_sending_while_busy_is_refused() -> None:
    release = threading.Event()

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        yield "..."
        release.wait(5)

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    task = chat.send_message("first")
    with pytest.raises(RuntimeError, match="cannot send a message while the agent is answering"):
        chat.send_message("second")
    view.request({"kind": "send", "text": "from the view", "files": []})
    assert chat.error == BUSY_NOTICE
    assert "from the view" not in json.dumps(chat.chat.live_messages)
    assert chat.status in ("submitted", "streaming")
    release.set()
    assert await task == "success"
    assert chat.error == ""


async def test_a_widget_without_an_agent_plays_but_does_not_send() -> None:
    chat = ChatWidget()
    view = FrontEnd(chat)
    with pytest.raises(
        TypeError, match=r"this chat has no agent: pass it as the first argument or set chat.agent"
    ):
        chat.send_message("hi")
    view.request({"kind": "send", "text": "hi", "files": []})
    assert chat.error.startswith("AgentError: this chat has no agent")
    assert chat.messages == [] and chat.status == "ready"
    assert await chat.play(list(chunk_agent(None))) == "success"  # type: ignore[arg-type]
    assert chat.messages == [CHUNK_ANSWER] and chat.error == ""


async def test_a_missing_bundle_says_how_to_build_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(_opening, "BUNDLE", tmp_path / "widget.js")
    monkeypatch.setattr(ChatWidget, "_esm", None)
    with pytest.raises(FileNotFoundError, match=r"cd js && npm install && npm run build"):
        ChatWidget()


# ---------------------------------------------------------------------------------------------- front-end requests


async def test_send_from_the_view_with_files_and_regenerate() -> None:
    answers = iter(["first answer", "second answer"])

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        yield next(answers)

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    image = {"mediaType": "image/png", "filename": "a.png", "url": "data:image/png;base64,AAAA"}
    view.request({"kind": "send", "text": "describe", "files": [image]})
    assert await chat.task == "success"
    assert chat.messages[0]["parts"] == [{"type": "file", **image}, {"type": "text", "text": "describe"}]
    assert chat.messages[1]["parts"][-1]["text"] == "first answer"
    view.request({"kind": "regenerate"})
    assert await chat.task == "success"
    assert [m["role"] for m in chat.messages] == ["user", "assistant"]
    assert chat.messages[1]["parts"][-1]["text"] == "second answer"
    assert ["len", 1] in view.ops()
    assert_in_sync(view, chat)


async def test_resync_answers_with_a_snapshot() -> None:
    chat = ChatWidget(chunk_agent)
    view = FrontEnd(chat)
    await chat.send_message("hi")
    view.state["messages"] = []  # a view that lost track
    view.request({"kind": "resync"})
    snapshot = view.sent[-1]["content"]
    assert snapshot["kind"] == "snapshot" and snapshot["seq"] == view.patches()[-1]["seq"] + 1
    assert_in_sync(view, chat)
    await chat.send_message("again")  # patches continue after the snapshot's seq
    assert_in_sync(view, chat)


async def test_a_long_run_is_batched_and_never_resends_the_conversation() -> None:
    async def agent(run_input: RunAgentInput) -> AsyncIterator[str]:
        for i in range(2000):
            yield f"{i} "
            if i % 100 == 0:
                await asyncio.sleep(0.05)

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    started = time.monotonic()
    await chat.send_message("count")
    elapsed = time.monotonic() - started
    patches = view.patches()
    assert len(patches) <= elapsed * 30 + 4  # at most ~30 patch messages a second, whatever the event rate
    assert view.trait_updates("messages") == []  # and no periodic re-send of the whole conversation
    assert [d["content"]["kind"] for d in view.sent if d["method"] == "custom"].count("snapshot") == 1
    assert chat.messages[1]["parts"][-1]["text"] == "".join(f"{i} " for i in range(2000))
    assert_in_sync(view, chat)


# ---------------------------------------------------------------------------------------------- the recorded events


async def test_the_events_load_into_the_log_tables() -> None:
    from agui_notebook.logs._load import load_events

    chat = ChatWidget(agui_agent, thread_id="thread-1")
    await chat.send_message("What is 1 + 2?")
    frame = load_events(chat)
    streamed_types = [e["type"] for e in agui_agent(_input("thread-1"))]
    # The chat's own records (the thread, the user's message, the run's start and end) are CUSTOM rows.
    assert frame["type"].tolist() == ["CUSTOM", "CUSTOM", "CUSTOM", *streamed_types, "CUSTOM"]
    assert set(frame["run_id"].dropna()) == {"run-a"}
    assert frame["t"].dropna().is_monotonic_increasing


async def test_clear_starts_a_new_conversation() -> None:
    chat = ChatWidget(agui_agent, state={"total": 0})
    view = FrontEnd(chat)
    thread = chat.thread_id
    await chat.send_message("hi")
    chat.clear()
    assert chat.messages == [] and streamed(chat) == [] and chat.state == {"total": 0}
    assert chat.thread_id != thread and [t["id"] for t in chat.threads] == [chat.thread_id]
    assert_in_sync(view, chat)
    snapshot = [
        d["content"] for d in view.sent if d["method"] == "custom" and d["content"]["kind"] == "snapshot"
    ][-1]
    assert (snapshot["kind"], snapshot["messages"], snapshot["threadId"]) == ("snapshot", [], chat.thread_id)


async def test_clear_while_streaming_drops_the_rest_of_the_run() -> None:
    async def agent(run_input: RunAgentInput) -> AsyncIterator[str]:
        yield "partial"
        await asyncio.sleep(30)

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    task = chat.send_message("go")
    while chat.status != "streaming":
        await asyncio.sleep(0.005)
    chat.clear()
    assert await task == "cancelled"
    assert (chat.messages, chat.status, streamed(chat)) == ([], "ready", [])
    assert_in_sync(view, chat)


async def test_assigning_messages_replaces_the_conversation() -> None:
    chat = ChatWidget(chunk_agent)
    view = FrontEnd(chat)
    await chat.send_message("hi")
    chat.messages = [user("start over", "u9")]
    assert view.sent[-1]["content"]["kind"] == "snapshot"
    assert_in_sync(view, chat)
    await chat.regenerate()
    assert [m["id"] for m in chat.messages] == ["u9", "msg-1"]
    assert_in_sync(view, chat)
    task = chat.send_message("busy now")
    with pytest.raises(ChatStateError, match="while the agent is answering"):
        chat.messages = []
    await task


async def test_an_empty_send_from_the_view_is_explained() -> None:
    chat = ChatWidget(chunk_agent)
    view = FrontEnd(chat)
    view.request({"kind": "send", "text": "", "files": []})
    assert (chat.status, chat.error) == ("ready", "OptionError: nothing to send: give some text or files")
    assert chat.messages == [] and chat.task is None
    assert_in_sync(view, chat)


async def test_messages_given_as_ag_ui_messages_are_converted() -> None:
    chat = ChatWidget(
        messages=[
            {"id": "u1", "role": "user", "content": "hi"},
            {"id": "a1", "role": "assistant", "content": "hello"},
        ]
    )
    assert chat.messages == [
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]},
        {
            "id": "a1",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {
                    "type": "text",
                    "text": "hello",
                    "state": "done",
                    "providerMetadata": {"ag-ui": {"messageId": "a1"}},
                },
            ],
        },
    ]


# ---------------------------------------------------------------------------------------------- values that are not plain JSON


class Forecast(BaseModel):
    city: str
    at: datetime.datetime


@dataclasses.dataclass
class Reading:
    sensor: str
    value: float


NOT_PLAIN = {
    "numpy int": (np.int64(42), 42),
    "numpy float": (np.float32(0.5), 0.5),
    "numpy array": (np.array([1, 2]), [1, 2]),
    "decimal": (decimal.Decimal("9.75"), 9.75),
    "timestamp": (pd.Timestamp("2026-12-01T09:30:00Z"), "2026-12-01T09:30:00+00:00"),
    "datetime": (datetime.datetime(2026, 12, 1, 9, 30), "2026-12-01T09:30:00"),
    "date": (datetime.date(2026, 12, 1), "2026-12-01"),
    "time": (datetime.time(9, 30), "09:30:00"),
    "bytes": (b"\x89PNG", "iVBORw=="),
    "set": ({"b", "a"}, ["a", "b"]),
    "big int": (2**64, 1.8446744073709552e19),
    "nan": (float("nan"), None),
    "pydantic model": (
        Forecast(city="Oslo", at=datetime.datetime(2026, 12, 1, tzinfo=datetime.timezone.utc)),
        {"city": "Oslo", "at": "2026-12-01T00:00:00Z"},
    ),
    "dataclass": (Reading("t1", 1.5), {"sensor": "t1", "value": 1.5}),
}


def tool_output_agent(value: Any) -> Any:
    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        yield {"type": "start", "messageId": f"a-{run_input.run_id}"}
        yield {"type": "text-start", "id": "t"}
        yield {"type": "text-delta", "id": "t", "delta": "Looked it up."}
        yield {"type": "text-end", "id": "t"}
        yield {"type": "tool-input-available", "toolCallId": "c1", "toolName": "lookup", "input": {"q": 1}}
        yield {
            "type": "tool-output-available",
            "toolCallId": "c1",
            "output": {"value": value, "rows": [value]},
        }
        yield {"type": "data-stats", "data": {"value": value}}
        yield {"type": "finish"}

    return agent


@pytest.mark.parametrize(("value", "expected"), NOT_PLAIN.values(), ids=NOT_PLAIN.keys())
async def test_values_that_are_not_plain_json_are_converted_by_the_one_rule(
    value: Any, expected: Any
) -> None:
    chat = ChatWidget(tool_output_agent(value))
    view = FrontEnd(chat)
    assert await chat.send_message("look it up") == "success"
    tool, data = chat.messages[1]["parts"][-2:]
    assert tool["output"] == {"value": expected, "rows": [expected]}
    assert data == {"type": "data-stats", "data": {"value": expected}}
    assert chat.chat.live_messages[1]["parts"][-2]["output"] == tool["output"]  # what the next run sends
    assert (chat.status, chat.error) == ("ready", "")
    assert_in_sync(view, chat)
    assert await chat.send_message("again") == "success"
    assert_in_sync(view, chat)


async def test_state_events_and_event_models_carry_converted_values() -> None:
    from ag_ui.core import CustomEvent

    def agent(run_input: RunAgentInput) -> Iterator[Any]:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "STATE_SNAPSHOT", "snapshot": {"total": np.int64(3), "at": datetime.date(2026, 1, 2)}}
        yield {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/mean", "value": np.float64(1.5)}]}
        yield CustomEvent(name="progress", value={"done": np.int32(7)})
        yield {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "ok"}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_input.run_id}

    chat = ChatWidget(agent, state={"start": decimal.Decimal("2")})
    view = FrontEnd(chat)
    assert chat.state == {"start": 2}
    assert await chat.send_message("go") == "success"
    assert chat.state == {"total": 3, "at": "2026-01-02", "mean": 1.5}
    assert [e for e in streamed(chat) if e["type"] == "CUSTOM"] == [
        {"type": "CUSTOM", "name": "progress", "value": {"done": 7}}
    ]
    assert chat.save is not None and json.loads(json.dumps(chat.events))  # the log is JSON too
    assert_in_sync(view, chat)


async def test_messages_and_state_given_to_the_widget_are_converted() -> None:
    chat = ChatWidget(
        messages=[
            {"id": "a1", "role": "assistant", "parts": [{"type": "data-x", "data": {"n": np.int64(1)}}]}
        ]
    )
    assert chat.messages[0]["parts"][0]["data"] == {"n": 1}
    chat.state = {"when": datetime.date(2026, 1, 1)}
    assert chat.state == {"when": "2026-01-01"}
    with pytest.raises(JsonValueError, match=r"^state\.bad: a <class 'object'> is not JSON$"):
        chat.state = {"bad": object()}
    with pytest.raises(
        JsonValueError, match=r"^messages\[0\]\.parts\[0\]\.data: a <class 'object'> is not JSON$"
    ):
        ChatWidget(
            messages=[{"id": "a", "role": "assistant", "parts": [{"type": "data-x", "data": object()}]}]
        )


async def test_a_value_with_no_json_form_ends_the_run_naming_its_path_and_the_next_send_works() -> None:
    calls = 0

    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        nonlocal calls
        calls += 1
        yield from tool_output_agent(object() if calls == 1 else "fine")(run_input)

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("look it up") == "error"
    assert chat.status == "error"
    assert chat.error == "chunk 5 (tool-output-available) .output.value: a <class 'object'> is not JSON"
    assert isinstance(chat.exception, JsonValueError)
    assert chat.messages[1]["parts"][0]["text"] == "Looked it up."  # the partial answer is kept
    assert_in_sync(view, chat)
    assert await chat.send_message("again") == "success"
    assert chat.messages[-1]["parts"][-2]["output"] == {"value": "fine", "rows": ["fine"]}
    assert (chat.status, chat.error, chat.exception) == ("ready", "", None)
    assert_in_sync(view, chat)


# ---------------------------------------------------------------------------------------------- the widget never wedges


def sync_breaks_on_partial(chat: ChatWidget) -> None:
    """Make the first message to the views that carries the partial answer fail, as a comm that cannot send it."""
    real = chat._send_custom
    failed = False

    def send(content: dict[str, Any]) -> None:
        nonlocal failed
        if not failed and "partial" in json.dumps(content):
            failed = True
            raise ValueError("the comm cannot encode this message")
        real(content)

    chat._send_custom = send  # type: ignore[method-assign]


@pytest.mark.parametrize(
    "where",
    ["call", "before the first item", "mid-stream", "async mid-stream", "tool output"],
)
async def test_any_failure_ends_the_run_with_one_error_and_the_next_send_works(where: str) -> None:
    runs = 0

    def sync_agent(run_input: RunAgentInput) -> Any:
        nonlocal runs
        runs += 1
        if runs == 1 and where == "call":
            raise RuntimeError("boom")

        def stream() -> Iterator[Any]:
            if runs == 1 and where == "before the first item":
                raise RuntimeError("boom")
            yield {"type": "TEXT_MESSAGE_START", "messageId": f"m{runs}", "role": "assistant"}
            yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": f"m{runs}", "delta": "partial"}
            if runs == 1 and where == "mid-stream":
                raise RuntimeError("boom")
            if runs == 1 and where == "tool output":
                yield {
                    "type": "TOOL_CALL_START",
                    "toolCallId": "c",
                    "toolCallName": "f",
                    "parentMessageId": "m1",
                }
                yield {"type": "TOOL_CALL_END", "toolCallId": "c"}
                yield {"type": "TOOL_CALL_RESULT", "messageId": "r", "toolCallId": "c", "content": object()}
            yield {"type": "TEXT_MESSAGE_END", "messageId": f"m{runs}"}

        return stream()

    async def async_agent(run_input: RunAgentInput) -> AsyncIterator[Any]:
        nonlocal runs
        runs += 1
        yield "partial"
        await asyncio.sleep(0)
        if runs == 1:
            raise RuntimeError("boom")

    chat = ChatWidget(async_agent if where == "async mid-stream" else sync_agent)
    view = FrontEnd(chat)
    assert await chat.send_message("go") == "error"
    assert chat.status == "error" and chat.error
    assert chat.exception is not None
    assert "Traceback" in chat.error_details
    assert type(chat.exception).__name__ in chat.error_details
    if where in ("mid-stream", "async mid-stream", "tool output"):
        assert "partial" in json.dumps(chat.messages[1]["parts"])
    if where == "tool output":
        assert chat.error.startswith("event 4 (TOOL_CALL_RESULT) .content: a <class 'object'> is not JSON")
    # The view shows what the kernel holds, whatever failed.
    assert view.state["messages"] == chat.messages
    assert (view.state["status"], view.state["error"]) == ("error", chat.error)
    assert await chat.send_message("again") == "success"
    assert (chat.status, chat.error, chat.error_details, chat.exception) == ("ready", "", "", None)
    assert "partial" in json.dumps(chat.messages[-1]["parts"])
    assert_in_sync(view, chat)


async def test_a_message_the_comm_refuses_is_sent_again_and_the_run_goes_on() -> None:
    """A view that cannot be sent a patch gets it again (what cannot be carried replaced); the run is not its."""

    def agent(run_input: RunAgentInput) -> Iterator[Any]:
        yield "partial"
        yield " answer"

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    sync_breaks_on_partial(chat)
    assert await chat.send_message("go") == "success"
    assert chat.messages[1]["parts"][-1]["text"] == "partial answer"
    assert_in_sync(view, chat)


async def test_a_string_the_comm_cannot_encode_does_not_wedge_the_widget() -> None:
    """A lone surrogate (half an emoji from a JS producer) cannot be sent: the views get U+FFFD in its place,
    the conversation (and its log) keep what arrived, and the run goes on."""
    runs = 0

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        nonlocal runs
        runs += 1
        yield "smile "
        if runs == 1:
            yield "\ud83d"

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("go") == "success"
    assert chat.messages[1]["parts"][-1]["text"] == "smile \ud83d"
    assert view.state["messages"][1]["parts"][-1]["text"] == "smile \ufffd"
    assert await chat.send_message("again") == "success"
    assert view.state["messages"][3] == chat.messages[3]


async def test_garbage_from_the_front_end_is_refused_visibly_and_changes_nothing() -> None:
    chat = ChatWidget(chunk_agent)
    view = FrontEnd(chat)
    await chat.send_message("hi")
    before = copy.deepcopy(chat.messages)
    for content in [
        {"kind": "send", "text": ["not", "text"], "files": []},
        {"kind": "send", "text": "x", "files": "nope"},
        {"kind": "send", "text": "x", "files": [{"url": 5, "mediaType": None}]},
        {"kind": "approval", "approvalId": None, "approved": "yes"},
        {"kind": "approval", "approvalId": "a", "approved": "no"},
        {"kind": 17},
        ["not", "an", "object"],
    ]:
        chat.error = ""
        view.request(content)  # type: ignore[arg-type]
        assert chat.task is None or chat.task.done()
        if isinstance(content, dict) and content["kind"] in ("send", "approval"):
            assert chat.error.startswith("the widget sent a request the kernel cannot read:"), content
    assert chat.messages == before and chat.status == "ready"
    assert await chat.send_message("still works") == "success"
    assert_in_sync(view, chat)


async def test_garbage_from_the_front_end_during_a_run_leaves_the_run_alone() -> None:
    release = threading.Event()

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        yield "..."
        release.wait(5)
        yield " done"

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    task = chat.send_message("go")
    await asyncio.sleep(0.05)
    view.request({"kind": "approval", "approvalId": 3, "approved": []})
    view.request({"kind": "resync", "extra": object()})
    release.set()
    assert await task == "success"
    assert chat.messages[1]["parts"][-1]["text"] == "... done"
    assert_in_sync(view, chat)


# ---------------------------------------------------------------------------------------------- stop, whatever the agent does


def blocking_call(run_input: RunAgentInput) -> list[dict[str, Any]]:
    """Work done before the stream is returned (a blocking LLM call)."""
    time.sleep(2)
    return [{"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "too late"}]


def flooding(run_input: RunAgentInput) -> Iterator[str]:
    while True:
        yield "x"


async def never_awaiting(run_input: RunAgentInput) -> AsyncIterator[str]:
    while True:
        yield "x"


def computing(run_input: RunAgentInput) -> list[str]:
    n = 0
    while True:
        n += 1


@pytest.mark.parametrize(
    "agent", [blocking_call, flooding, never_awaiting, computing], ids=lambda a: a.__name__
)
async def test_stop_ends_an_agent_that_blocks_floods_or_never_awaits(agent: Any) -> None:
    from tests.chat.test_agents import Ticker

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    ticker = Ticker()
    task = chat.send_message("go")
    loop = asyncio.get_running_loop()
    asked_at: list[float] = []
    loop.call_later(0.3, lambda: (asked_at.append(time.monotonic()), view.request({"kind": "stop"})))
    assert await asyncio.wait_for(task, 5) == "cancelled"
    latency = time.monotonic() - asked_at[0]
    await asyncio.sleep(0.05)
    ticker.stop()
    # Bounds a loaded machine keeps: with both cores busy beside the suite, the scheduler alone has stretched the
    # stop to a few hundred ms and one loop turn past a second (1.1 s seen while the flooding agent ran). What
    # they tell apart is an agent on the loop, which would hold it for the whole run: forever, so that stop could
    # never run, and the loop would not have turned while the agent streamed.
    assert latency < 1.0, f"stop took {latency * 1000:.0f} ms"
    assert (chat.status, chat.error) == ("ready", "")
    assert ticker.ticks >= 5, f"the loop turned {ticker.ticks} times while the agent ran"
    assert ticker.longest_gap < 3.0, f"the loop stalled for {ticker.longest_gap * 1000:.0f} ms"
    assert_in_sync(view, chat)
    assert "too late" not in json.dumps(chat.messages)
    chat.agent = chunk_agent
    assert await chat.send_message("next") == "success"  # the abandoned worker does not disturb the next run
    assert chat.messages[-1] == CHUNK_ANSWER


# ---------------------------------------------------------------------------------------------- visible warnings


async def test_an_unknown_event_type_is_a_visible_warning_not_a_silent_blank_reply() -> None:
    runs = 0

    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        nonlocal runs
        runs += 1
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        start = "TEXT_MESSAGE_STRAT" if runs == 1 else "TEXT_MESSAGE_START"
        yield {"type": start, "messageId": f"m{runs}", "role": "assistant"}
        if runs == 2:
            yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m2", "delta": "fixed"}
            yield {"type": "TEXT_MESSAGE_END", "messageId": "m2"}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_input.run_id}

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("hi") == "success"  # @ag-ui/client drops the event and finishes the run
    assert chat.warnings == [
        "event 1 (TEXT_MESSAGE_STRAT): unknown event type 'TEXT_MESSAGE_STRAT'; the event is ignored"
    ]
    assert view.trait_updates("warnings")[-1] == chat.warnings
    assert await chat.send_message("again") == "success"
    assert chat.warnings == []  # warnings belong to the run that had them
    assert view.trait_updates("warnings")[-1] == []


async def test_unknown_chunk_types_and_tolerated_protocol_problems_are_warnings() -> None:
    def chunks(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        yield {"type": "start", "messageId": "a1"}
        yield {"type": "text-start", "id": "t"}
        yield {"type": "text-dleta", "id": "t", "delta": "lost"}
        yield {"type": "data-plan", "data": {"steps": 1}}  # data-* chunks are known
        yield {"type": "text-end", "id": "t"}
        yield {"type": "finish"}

    chat = ChatWidget(chunks)
    assert await chat.send_message("hi") == "success"
    assert chat.warnings == ["chunk 2 (text-dleta): unknown chunk type (ignored, as the AI SDK ignores it)"]

    def events(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/missing", "value": 1}]}
        yield {"type": "TOOL_CALL_RESULT", "messageId": "r", "toolCallId": "nobody", "content": "?"}
        yield {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "ok"}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_input.run_id}

    chat = ChatWidget(events, state={})
    with pytest.warns(StateUpdateWarning):
        assert await chat.send_message("hi") == "success"
    assert chat.warnings == [
        "event 1 (STATE_DELTA): state patch does not apply: operation 0 (replace '/missing'): path does not exist",
        "event 2 (TOOL_CALL_RESULT): result for tool call 'nobody', which the thread never made",
    ]
    assert chat.state == {}


async def test_warnings_are_capped_with_a_count_of_the_rest() -> None:
    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        yield {"type": "start", "messageId": "a1"}
        for i in range(MAX_WARNINGS + 5):
            yield {"type": f"typo-{i}"}
        yield {"type": "finish"}

    chat = ChatWidget(agent)
    assert await chat.send_message("hi") == "success"
    assert len(chat.warnings) == MAX_WARNINGS + 1
    assert chat.warnings[-1] == "… and 5 more warnings"


def test_a_keyboard_interrupt_tidies_the_widget_then_propagates() -> None:
    """Interrupting the kernel mid-run (a KeyboardInterrupt out of the event loop) leaves a usable widget."""
    import subprocess
    import sys

    script = """
import asyncio, json
from agui_notebook.widget._chat import ChatWidget

async def agent(run_input):
    yield "partial"
    raise KeyboardInterrupt

chat = ChatWidget(agent)
chat.comm.send = lambda *args, **kwargs: None
async def main():
    await chat.send_message("go")

try:
    asyncio.run(main())
except KeyboardInterrupt:
    pass
print(json.dumps([chat.status, chat.messages[1]["parts"][-1]["text"], chat.busy]))
"""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == ["ready", "partial", False]


@pytest.mark.parametrize(
    "entry", ["images.example", "ftp://images.example", "https://", "data:image/png,", ""]
)
def test_trusted_origins_must_be_http_origins(entry):
    with pytest.raises(OptionError, match=r"^trusted_origins: .* is not an http\(s\) origin"):
        ChatWidget(trusted_origins=["https://ok.example", entry])
    chat = ChatWidget(trusted_origins=["https://images.example/any/path", "http://127.0.0.1:8000"])
    assert chat.trusted_origins == ["https://images.example/any/path", "http://127.0.0.1:8000"]


async def test_the_clear_request_of_a_view_starts_a_new_conversation() -> None:
    chat = ChatWidget(agui_agent)
    view = FrontEnd(chat)
    thread = chat.thread_id
    await chat.send_message("hi")
    view.request({"kind": "clear"})
    assert chat.messages == [] and streamed(chat) == [] and chat.error == ""
    assert chat.thread_id != thread
    assert_in_sync(view, chat)


def test_suggestions_are_example_prompts_for_the_empty_state() -> None:
    chat = ChatWidget(agui_agent, suggestions=["Weather in Paris?", "Plan a trip"])
    assert chat.suggestions == ["Weather in Paris?", "Plan a trip"]
    assert ChatWidget(agui_agent).suggestions == []
    assert chat.trait_metadata("suggestions", "sync") is True
    with pytest.raises(InputTypeError, match=r"suggestions\[0\] must be a string, not int"):
        ChatWidget(suggestions=[1])


def test_a_widget_without_an_agent_is_replay_only() -> None:
    chat = ChatWidget()
    assert chat.replay_only is True and chat.trait_metadata("replay_only", "sync") is True
    chat.agent = agui_agent
    assert chat.replay_only is False
    chat.agent = None
    assert chat.replay_only is True
    assert ChatWidget(agui_agent).replay_only is False


async def test_stop_right_after_send_before_the_run_has_started() -> None:
    chat = ChatWidget(agui_agent)
    view = FrontEnd(chat)
    task = chat.send_message("What is 1 + 2?")
    chat.stop()  # the run's task has not run a step yet
    assert await task == "cancelled"
    assert (chat.status, chat.error) == ("ready", "")
    assert_in_sync(view, chat)
    assert await chat.send_message("What is 1 + 2?") == "success"
