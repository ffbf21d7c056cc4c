"""Interrupts in ChatWidget: every one shown, answered from Python or the view, resumed together, saved.

A scripted AG-UI agent ends its first run with interrupts and answers the run that resumes them with what the
resume entries said; pydantic-ai's AG-UI adapter is the real producer of tool-approval interrupts.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import RunAgentInput
from pydantic_ai import Agent, ApprovalRequired, DeferredToolRequests, RunContext
from pydantic_ai.models.function import FunctionModel

from agui_notebook import ChatWidget, InterruptPayloadError
from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.chat._interrupts import INTERRUPT_PART
from tests.support.node import run_node_reference
from tests.support.pydantic_ai_runs import _needs_approval, make_approval_agent
from tests.widget.front_end import FrontEnd, assert_in_sync

TRIP_SCHEMA = {
    "type": "object",
    "required": ["city", "nights"],
    "properties": {
        "city": {"type": "string", "title": "City", "minLength": 2},
        "nights": {"type": "integer", "minimum": 1, "maximum": 14},
        "email": {"type": "string", "format": "email"},
        "extras": {"type": "array", "items": {"enum": ["breakfast", "parking", "late checkout"]}},
        "room": {
            "type": "object",
            "required": ["beds"],
            "properties": {"beds": {"type": "integer", "enum": [1, 2]}, "smoking": {"type": "boolean"}},
        },
    },
}


def later(minutes: float) -> str:
    return (datetime.now(timezone.utc) + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


class ScriptedAgent:
    """Ends its first run with ``interrupts``; a resumed run says what each resume entry answered."""

    def __init__(self, interrupts: list[dict[str, Any]], *, tool_call: str | None = None) -> None:
        self.interrupts = interrupts
        self.tool_call = tool_call
        self.inputs: list[RunAgentInput] = []

    def __call__(self, run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        self.inputs.append(run_input)
        run_id = f"run-{len(self.inputs)}"
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_id}
        if not run_input.resume:
            yield {"type": "TEXT_MESSAGE_START", "messageId": f"{run_id}-t", "role": "assistant"}
            yield {
                "type": "TEXT_MESSAGE_CONTENT",
                "messageId": f"{run_id}-t",
                "delta": "I need a few details.",
            }
            yield {"type": "TEXT_MESSAGE_END", "messageId": f"{run_id}-t"}
            if self.tool_call:
                yield {"type": "TOOL_CALL_START", "toolCallId": self.tool_call, "toolCallName": "book"}
                yield {"type": "TOOL_CALL_ARGS", "toolCallId": self.tool_call, "delta": '{"hotel": "Grand"}'}
                yield {"type": "TOOL_CALL_END", "toolCallId": self.tool_call}
            outcome = {"type": "interrupt", "interrupts": self.interrupts}
            yield {
                "type": "RUN_FINISHED",
                "threadId": run_input.thread_id,
                "runId": run_id,
                "outcome": outcome,
            }
            return
        said = "; ".join(
            f"{e.interrupt_id} {e.status}"
            + (f" {json.dumps(e.payload, sort_keys=True)}" if e.payload is not None else "")
            for e in run_input.resume
        )
        yield {"type": "TEXT_MESSAGE_START", "messageId": f"{run_id}-t", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": f"{run_id}-t", "delta": f"Got: {said}"}
        yield {"type": "TEXT_MESSAGE_END", "messageId": f"{run_id}-t"}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_id}


def interrupt_parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in message["parts"] if p["type"] == INTERRUPT_PART]


def resume_of(run_input: RunAgentInput) -> list[dict[str, Any]]:
    return [e.model_dump(by_alias=True, exclude_none=True) for e in run_input.resume or ()]


# ---------------------------------------------------------------------------------------------- shown


async def test_an_interrupt_without_a_tool_call_is_a_card_at_the_end_of_the_answer() -> None:
    interrupt = {
        "id": "trip",
        "reason": "input_required",
        "message": "Where to?",
        "responseSchema": TRIP_SCHEMA,
    }
    chat = ChatWidget(ScriptedAgent([interrupt]))
    view = FrontEnd(chat)
    assert await chat.send_message("Book me a hotel") == "interrupt"
    answer = chat.messages[1]
    assert answer["parts"][-1] == {
        "type": "data-interrupt",
        "id": "trip",
        "data": {"interrupt": interrupt, "status": "open"},
    }
    assert [p["type"] for p in answer["parts"]] == ["step-start", "text", "data-interrupt"]
    assert_in_sync(view, chat)
    # The card is the client's: the next run input does not carry it as a message.
    assert "activity" not in [m["role"] for m in chat.chat.next_run_input().model_dump()["messages"]]


async def test_a_tool_call_interrupt_that_asks_for_something_else_is_a_form_too() -> None:
    """A toolCallId alone does not make an approval: the card's {approved, reason} must fit the schema."""
    asking = {"id": "q", "reason": "input", "toolCallId": "c1", "responseSchema": TRIP_SCHEMA}
    approving = {"id": "a", "reason": "tool_call", "toolCallId": "c1", "message": "Book it?"}
    chat = ChatWidget(ScriptedAgent([asking, approving], tool_call="c1"))
    assert await chat.send_message("Book") == "interrupt"
    parts = chat.messages[1]["parts"]
    tool = next(p for p in parts if p["type"] == "tool-book")
    assert (tool["state"], tool["approval"]) == (
        "approval-requested",
        {"id": "a", "requestReason": "Book it?"},
    )
    assert [p["id"] for p in interrupt_parts(chat.messages[1])] == ["q"]
    # The same rule in ui_messages_from_events (the bridge): only the approval goes on the tool part.
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "book"},
        {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        {
            "type": "RUN_FINISHED",
            "threadId": "t",
            "runId": "r",
            "outcome": {"type": "interrupt", "interrupts": [asking]},
        },
    ]
    assert ui_message_dicts_from_events(events)[0]["parts"][-1]["state"] == "input-available"


async def test_an_interrupt_naming_a_tool_call_the_answer_does_not_show_is_a_card() -> None:
    interrupt = {"id": "q", "reason": "tool_call", "toolCallId": "elsewhere", "message": "Approve it?"}
    agent = ScriptedAgent([interrupt])
    chat = ChatWidget(agent)
    assert await chat.send_message("Go") == "interrupt"
    assert interrupt_parts(chat.messages[1])[0]["data"]["interrupt"] == interrupt
    assert await chat.answer_interrupt("q", {"approved": True}) == "success"  # type: ignore[misc]
    assert resume_of(agent.inputs[1]) == [
        {"interruptId": "q", "status": "resolved", "payload": {"approved": True}}
    ]


# ---------------------------------------------------------------------------------------------- answered


async def test_answer_interrupt_resumes_with_the_payload_and_continues_the_answer() -> None:
    agent = ScriptedAgent([{"id": "trip", "reason": "input_required", "responseSchema": TRIP_SCHEMA}])
    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("Book me a hotel") == "interrupt"
    payload = {"city": "Oslo", "nights": 2, "extras": ["parking"], "room": {"beds": 2, "smoking": False}}
    task = chat.answer_interrupt("trip", payload)
    assert task is not None and await task == "success"
    assert resume_of(agent.inputs[1]) == [{"interruptId": "trip", "status": "resolved", "payload": payload}]
    # One answer: the card (now resolved, with the answer) and the continuation after it.
    assert [m["role"] for m in chat.messages] == ["user", "assistant"]
    parts = chat.messages[1]["parts"]
    assert [p["type"] for p in parts] == ["step-start", "text", "data-interrupt", "step-start", "text"]
    assert parts[2]["data"] == {"interrupt": agent.interrupts[0], "status": "resolved", "payload": payload}
    assert parts[-1]["text"] == f"Got: trip resolved {json.dumps(payload, sort_keys=True)}"
    # The resumed run's outcome replaces the interrupt, as for approvals: no card is added again.
    assert chat.messages[1]["metadata"]["ag-ui"]["outcome"] is None
    assert_in_sync(view, chat)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"nights": 2}, "interrupt 'trip': payload.city: is required"),
        ({"city": "O", "nights": 2}, "interrupt 'trip': payload.city: must be at least 2 characters"),
        ({"city": "Oslo", "nights": 15}, "interrupt 'trip': payload.nights: must be at most 14"),
        ({"city": "Oslo", "nights": 1.5}, "interrupt 'trip': payload.nights: must be a whole number"),
        (
            {"city": "Oslo", "nights": 1, "email": "ann@"},
            "interrupt 'trip': payload.email: must be an email address",
        ),
        (
            {"city": "Oslo", "nights": 1, "extras": ["spa"]},
            "interrupt 'trip': payload.extras[0]: must be one of: breakfast, parking, late checkout",
        ),
        ({"city": "Oslo", "nights": 1, "room": {}}, "interrupt 'trip': payload.room.beds: is required"),
        (
            {"city": "Oslo", "nights": 1, "room": {"beds": 3}},
            "interrupt 'trip': payload.room.beds: must be one of: 1, 2",
        ),
        (["Oslo"], "interrupt 'trip': payload: must be an object"),
        (None, "interrupt 'trip': payload: is required (its responseSchema asks for one)"),
    ],
)
async def test_a_payload_the_schema_refuses_names_the_field(payload: Any, message: str) -> None:
    agent = ScriptedAgent([{"id": "trip", "reason": "input_required", "responseSchema": TRIP_SCHEMA}])
    chat = ChatWidget(agent)
    assert await chat.send_message("Book") == "interrupt"
    before = copy.deepcopy(chat.messages)
    with pytest.raises(InterruptPayloadError) as raised:
        chat.answer_interrupt("trip", payload)
    assert str(raised.value) == message
    assert raised.value.interrupt_id == "trip"
    assert raised.value.path == message.split(": ")[1]
    assert isinstance(raised.value, ValueError)
    assert chat.messages == before and not chat.busy and len(agent.inputs) == 1


async def test_several_interrupts_resume_once_in_one_array_in_their_order() -> None:
    interrupts = [
        {"id": "city", "reason": "input", "responseSchema": {"type": "string", "minLength": 1}},
        {"id": "ok", "reason": "confirm", "message": "Go ahead?"},
        {"id": "size", "reason": "input", "responseSchema": {"enum": ["S", "M"]}},
    ]
    agent = ScriptedAgent(interrupts)
    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("Go") == "interrupt"
    assert chat.answer_interrupt("size", "M") is None
    assert view.state["messages"][1]["parts"][-1]["data"]["status"] == "resolved"  # shown at once
    assert chat.messages[1]["parts"][-1]["data"]["status"] == "resolved"  # and saved
    with pytest.raises(KeyError, match=r"interrupt 'size' was already answered \(resolved\)"):
        chat.answer_interrupt("size", "S")
    assert chat.answer_interrupt("city", "Oslo") is None
    task = chat.answer_interrupt("ok")  # no schema: Continue, with no payload
    assert task is not None and await task == "success"
    assert len(agent.inputs) == 2
    assert resume_of(agent.inputs[1]) == [
        {"interruptId": "city", "status": "resolved", "payload": "Oslo"},
        {"interruptId": "ok", "status": "resolved"},
        {"interruptId": "size", "status": "resolved", "payload": "M"},
    ]
    assert_in_sync(view, chat)


async def test_dismissing_sends_cancelled_and_the_view_can_do_both() -> None:
    interrupts = [
        {"id": "a", "reason": "input", "responseSchema": {"type": "boolean"}},
        {"id": "b", "reason": "x"},
    ]
    agent = ScriptedAgent(interrupts)
    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("Go") == "interrupt"
    view.request({"kind": "interrupt", "interruptId": "b", "status": "cancelled"})
    assert chat.error == "" and not chat.busy
    assert chat.messages[1]["parts"][-1]["data"] == {
        "interrupt": interrupts[1],
        "status": "cancelled",
        "cancelledBy": "user",
    }
    view.request({"kind": "interrupt", "interruptId": "a", "status": "resolved", "payload": "yes"})
    assert chat.error == "InterruptPayloadError: interrupt 'a': payload: must be true or false"
    assert not chat.busy
    # The view gets the card's part again, so the card takes an answer again.
    resent = [
        op
        for m in view.sent
        if m["method"] == "custom" and m["content"]["kind"] == "patch"
        for op in m["content"]["ops"]
    ]
    assert resent[-2:] == [["p", 1, 2, chat.messages[1]["parts"][2]], ["status", "ready", chat.error]]
    view.request({"kind": "interrupt", "interruptId": "a", "status": "resolved", "payload": True})
    assert chat.busy
    assert await chat.task == "success"
    assert resume_of(agent.inputs[1]) == [
        {"interruptId": "a", "status": "resolved", "payload": True},
        {"interruptId": "b", "status": "cancelled"},
    ]
    for bad in (
        {"kind": "interrupt", "interruptId": 3, "status": "resolved"},
        {"kind": "interrupt", "interruptId": "a", "status": "ok"},
    ):
        view.request(bad)
        assert chat.error.startswith("the widget sent a request the kernel cannot read: interrupt:")
    assert_in_sync(view, chat)


async def test_an_expired_interrupt_can_only_be_cancelled() -> None:
    past = (datetime.now(timezone.utc) - timedelta(seconds=1)).isoformat()
    agent = ScriptedAgent(
        [{"id": "late", "reason": "input", "expiresAt": past, "responseSchema": {"type": "string"}}]
    )
    chat = ChatWidget(agent)
    assert await chat.send_message("Go") == "interrupt"
    with pytest.raises(
        InterruptPayloadError,
        match=r"^interrupt 'late' expired at .* and can no longer be answered; cancel it to continue$",
    ):
        chat.answer_interrupt("late", "now")
    task = chat.answer_interrupt("late", cancel=True)
    assert task is not None and await task == "success"
    assert resume_of(agent.inputs[1]) == [{"interruptId": "late", "status": "cancelled"}]


async def test_one_not_yet_expired_is_answered() -> None:
    agent = ScriptedAgent([{"id": "soon", "reason": "input", "expiresAt": later(5)}])
    chat = ChatWidget(agent)
    assert await chat.send_message("Go") == "interrupt"
    assert await chat.answer_interrupt("soon", "a reply") == "success"  # type: ignore[misc]
    assert resume_of(agent.inputs[1]) == [{"interruptId": "soon", "status": "resolved", "payload": "a reply"}]


async def test_a_new_message_cancels_open_interrupts() -> None:
    agent = ScriptedAgent([{"id": "x", "reason": "input"}, {"id": "y", "reason": "input"}])
    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("Go") == "interrupt"
    assert chat.answer_interrupt("x", "half") is None
    task = chat.send_message("Forget it")
    assert view.state["messages"][1]["parts"][-1]["data"]["status"] == "cancelled"  # at once
    await task
    # Only the open one is cancelled; a new message is a new answer, not the continuation of the old one.
    assert resume_of(agent.inputs[1]) == [{"interruptId": "y", "status": "cancelled"}]
    assert [m["role"] for m in chat.messages] == ["user", "assistant", "user", "assistant"]
    assert [p["data"]["status"] for p in interrupt_parts(chat.messages[1])] == ["resolved", "cancelled"]
    assert chat.messages[1]["parts"][-1]["data"]["cancelledBy"] == "new-message"
    with pytest.raises(KeyError, match="interrupt 'y' was cancelled: a new message was sent before it"):
        chat.answer_interrupt("y", "late")
    assert_in_sync(view, chat)


async def test_an_unknown_interrupt_is_a_key_error() -> None:
    chat = ChatWidget(ScriptedAgent([{"id": "x", "reason": "input"}]))
    assert await chat.send_message("Go") == "interrupt"
    with pytest.raises(KeyError, match="no interrupt is waiting with id 'nope'"):
        chat.answer_interrupt("nope", 1)


# ---------------------------------------------------------------------------------------------- approvals too


async def test_an_approval_and_a_form_resume_together() -> None:
    interrupts = [
        {"id": "appr", "reason": "tool_call", "toolCallId": "c1", "message": "Book the Grand?"},
        {"id": "when", "reason": "input", "responseSchema": {"type": "string", "format": "date"}},
    ]
    agent = ScriptedAgent(interrupts, tool_call="c1")
    chat = ChatWidget(agent)
    assert await chat.send_message("Book") == "interrupt"
    assert chat.answer_approval("appr", True) is None  # the form is still open
    with pytest.raises(InterruptPayloadError, match=r"payload: must be a date \(YYYY-MM-DD\)"):
        chat.answer_interrupt("when", "2026-02-30")
    task = chat.answer_interrupt("when", "2026-12-24")
    assert task is not None and await task == "success"
    assert resume_of(agent.inputs[1]) == [
        {"interruptId": "appr", "status": "resolved", "payload": {"approved": True}},
        {"interruptId": "when", "status": "resolved", "payload": "2026-12-24"},
    ]


async def test_answer_interrupt_answers_a_pydantic_ai_approval() -> None:
    from pydantic_ai.ui.ag_ui import AGUIAdapter

    approval_agent = make_approval_agent()
    inputs: list[RunAgentInput] = []

    def recording(run_input: RunAgentInput) -> Any:
        inputs.append(run_input)
        return AGUIAdapter(agent=approval_agent, run_input=run_input).run_stream()

    chat = ChatWidget(recording)
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    # pydantic-ai's interrupt names the tool call and has a schema with `approved`: the tool card, no form.
    assert interrupt_parts(chat.messages[1]) == []
    with pytest.raises(
        InterruptPayloadError, match=r"tool approval: payload.approved: must be true or false"
    ):
        chat.answer_interrupt("int-call_d", {"approved": "yes"})
    assert await chat.answer_interrupt("int-call_d", {"approved": False, "reason": "no"}) == "success"  # type: ignore[misc]
    assert resume_of(inputs[1]) == [
        {"interruptId": "int-call_d", "status": "resolved", "payload": {"approved": False, "reason": "no"}}
    ]
    tool = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-delete_file")
    assert tool["state"] == "output-denied"
    with pytest.raises(
        KeyError, match=r"approval 'int-call_d' was already answered \(state 'output-denied'\)"
    ):
        chat.answer_interrupt("int-call_d", {"approved": True})


async def test_the_approval_card_gets_descriptor_is_automatic_and_signature_from_metadata() -> None:
    metadata = {
        "descriptor": {"risk": "high", "scope": ["bookings"]},
        "isAutomatic": True,
        "signature": "9f86d08",
    }
    agent = ScriptedAgent(
        [{"id": "appr", "reason": "tool_call", "toolCallId": "c1", "message": "Book?", "metadata": metadata}],
        tool_call="c1",
    )
    chat = ChatWidget(agent)
    assert await chat.send_message("Book") == "interrupt"
    tool = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-book")
    assert tool["approval"] == {
        "id": "appr",
        "descriptor": {"risk": "high", "scope": ["bookings"]},
        "requestReason": "Book?",
        "isAutomatic": True,
        "signature": "9f86d08",
    }


# ---------------------------------------------------------------------------------------------- saved


async def test_an_open_interrupt_survives_save_and_load_and_resumes_the_same_answer(tmp_path: Path) -> None:
    agent = ScriptedAgent(
        [{"id": "trip", "reason": "input", "message": "Where?", "responseSchema": TRIP_SCHEMA}]
    )
    chat = ChatWidget(agent)
    assert await chat.send_message("Book") == "interrupt"
    chat.save(tmp_path / "chat.json")

    again = ChatWidget.load(tmp_path / "chat.json", agent=agent)
    assert interrupt_parts(again.messages[1])[0]["data"]["status"] == "open"
    task = again.answer_interrupt("trip", {"city": "Rome", "nights": 3})
    assert task is not None and await task == "success"
    assert resume_of(agent.inputs[1]) == [
        {"interruptId": "trip", "status": "resolved", "payload": {"city": "Rome", "nights": 3}}
    ]
    assert [m["role"] for m in again.messages] == ["user", "assistant"]  # the loaded answer continues
    assert again.messages[1]["parts"][-1]["text"].startswith("Got: trip resolved")


# ---------------------------------------------------------------------------------------------- the reference


async def test_the_resume_input_is_what_ag_ui_client_accepts() -> None:
    """@ag-ui/client refuses a run whose resume leaves a pending interrupt out, or answers an expired one;
    the inputs the widget sends pass its check, and a partial one would not."""
    past = (datetime.now(timezone.utc) - timedelta(minutes=1)).isoformat()
    interrupts = [
        {"id": "a", "reason": "input", "responseSchema": {"type": "string"}},
        {"id": "b", "reason": "input", "expiresAt": past},
        {"id": "c", "reason": "input"},
    ]
    agent = ScriptedAgent(interrupts)
    chat = ChatWidget(agent)
    assert await chat.send_message("Go") == "interrupt"
    chat.answer_interrupt("a", "x")
    chat.answer_interrupt("b", cancel=True)
    await chat.answer_interrupt("c")  # type: ignore[misc]
    sent = resume_of(agent.inputs[1])
    cases = [
        {"pending": interrupts, "resume": sent},
        {"pending": interrupts, "resume": sent[:2]},
        {"pending": interrupts, "resume": [{**sent[1], "status": "resolved"}, sent[0], sent[2]]},
    ]
    results = run_node_reference("agui_resume.mjs", cases)
    assert results == [
        {"error": None},
        {"error": "Thread has 1 pending interrupt(s) not addressed by resume: c"},
        {
            "error": f"Interrupt b expired at {past} and can no longer be answered. Cancel it to continue the thread."
        },
    ]


async def test_pydantic_ai_approval_metadata_reaches_the_approval_card() -> None:
    """pydantic-ai puts ApprovalRequired(metadata=...) on the interrupt's metadata: the AI SDK's approval fields."""
    from pydantic_ai.ui.ag_ui import AGUIAdapter

    agent = Agent(FunctionModel(stream_function=_needs_approval), output_type=[str, DeferredToolRequests])

    @agent.tool
    def delete_file(ctx: RunContext[None], path: str) -> str:
        """Delete a file."""
        if not ctx.tool_call_approved:
            raise ApprovalRequired(
                metadata={"descriptor": {"path": path, "risk": "high"}, "signature": "sig-1"}
            )
        return f"deleted {path}"

    chat = ChatWidget(lambda run_input: AGUIAdapter(agent=agent, run_input=run_input).run_stream())
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    tool = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-delete_file")
    assert tool["approval"] == {
        "id": "int-call_d",
        "descriptor": {"path": "/tmp/x", "risk": "high"},
        "requestReason": 'Approve delete_file({"path":"/tmp/x"})?',
        "signature": "sig-1",
    }
    assert interrupt_parts(chat.messages[1]) == []
    assert await chat.answer_approval("int-call_d", True) == "success"  # type: ignore[misc]
    tool = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-delete_file")
    assert (tool["state"], tool["output"]) == ("output-available", "deleted /tmp/x")


async def test_the_interrupt_part_is_a_valid_ui_message_part() -> None:
    chat = ChatWidget(ScriptedAgent([{"id": "x", "reason": "input", "responseSchema": TRIP_SCHEMA}]))
    assert await chat.send_message("Go") == "interrupt"
    part = chat.ui_messages[1].parts[-1]
    assert (part.type, part.id) == ("data-interrupt", "x")
    assert [m.role for m in chat.agui_messages] == ["user", "assistant", "activity"]
