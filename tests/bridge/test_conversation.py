"""The conversation engine: runs of AG-UI events, AI SDK chunks or text into UIMessages, state and changes."""

from __future__ import annotations

import copy
from collections.abc import Iterable
from types import MappingProxyType
from typing import Any

import pytest
from ag_ui.core import EventType, TextMessageContentEvent, TextMessageStartEvent
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from agui_notebook.bridge._conversation import (
    ConversationReducer,
    RunStreamError,
    StateUpdateWarning,
    classify_item,
)
from agui_notebook.chat._recorder import EventRecorder
from agui_notebook.ui._changes import MessageChange
from tests.ui.test_changes import apply_changes

USER = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}


def run(
    conversation: ConversationReducer,
    items: Iterable[Any],
    outcome: Any = "success",
    *,
    run_id: str = "r1",
    resume: Iterable[dict[str, Any]] = (),
) -> list[tuple[str, int, int, str]]:
    """One whole run; the changes it reported, as ``(kind, message, part, delta)``."""
    conversation.begin_run(run_id=run_id, thread_id="t1", resume=resume)
    changes: list[MessageChange] = []
    for item in items:
        changes += conversation.push(item, 0)
    changes += conversation.end_run(outcome)
    return [(c.kind, c.message_index, c.part_index, c.delta) for c in changes]


# ---------------------------------------------------------------------------------------------- stream kinds


def test_ag_ui_events_build_the_answer_and_the_state() -> None:
    conversation = ConversationReducer([USER], state={"n": 0})
    changes = run(
        conversation,
        [
            {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"},
            {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hel"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "lo"},
            {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
            {"type": "STATE_SNAPSHOT", "snapshot": {"n": 1}},
            {"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/n", "value": 2}]},
            {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"},
        ],
    )
    assert conversation.messages == [
        USER,
        {
            "id": "r1",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {"type": "text", "text": "Hello", "providerMetadata": {"ag-ui": {"messageId": "m1"}}, "state": "done"},
            ],
            "metadata": {"ag-ui": {"threadId": "t1", "runId": "r1"}},
        },
    ]  # fmt: skip
    assert changes == [
        ("message", 1, -1, ""), ("message", 1, -1, ""), ("part", 1, 0, ""), ("part", 1, 1, ""),
        ("text", 1, 1, "Hel"), ("text", 1, 1, "lo"), ("part", 1, 1, ""),
    ]  # fmt: skip
    assert conversation.state == {"n": 2}
    assert (conversation.last_run.errors, conversation.last_run.interrupted) == ([], False)


def test_ai_sdk_chunks_build_the_answer() -> None:
    conversation = ConversationReducer()
    changes = run(
        conversation,
        [
            {"type": "start", "messageId": "a1"},
            {"type": "text-start", "id": "t"},
            {"type": "text-delta", "id": "t", "delta": "Hi"},
            {"type": "text-end", "id": "t"},
            {"type": "finish"},
        ],
    )
    assert conversation.messages == [
        {"id": "a1", "role": "assistant", "parts": [{"type": "text", "text": "Hi", "state": "done"}]}
    ]
    # The run's placeholder is replaced by the message the `start` chunk names.
    assert changes == [
        ("message", 0, -1, ""), ("message", 0, -1, ""), ("part", 0, 0, ""), ("text", 0, 0, "Hi"), ("part", 0, 0, ""),
    ]  # fmt: skip


def test_plain_text_is_one_text_part_per_stretch() -> None:
    conversation = ConversationReducer()
    changes = run(conversation, ["Hello", ", world"])
    assert conversation.messages == [
        {
            "id": "r1",
            "role": "assistant",
            "parts": [{"type": "step-start"}, {"type": "text", "text": "Hello, world", "state": "done"}],
        }
    ]
    assert changes == [
        ("message", 0, -1, ""), ("message", 0, -1, ""), ("part", 0, 0, ""), ("part", 0, 1, ""),
        ("text", 0, 1, "Hello"), ("text", 0, 1, ", world"), ("part", 0, 1, ""),
    ]  # fmt: skip


def test_text_around_a_chunk_makes_two_text_parts() -> None:
    conversation = ConversationReducer()
    changes = run(conversation, ["Hello", {"type": "data-plan", "data": {"steps": 1}}, "more"])
    assert conversation.messages[0]["parts"] == [
        {"type": "step-start"},
        {"type": "text", "text": "Hello", "state": "done"},
        {"type": "data-plan", "data": {"steps": 1}},
        {"type": "text", "text": "more", "state": "done"},
    ]
    assert changes[5:] == [
        ("part", 0, 1, ""), ("part", 0, 2, ""), ("part", 0, 3, ""), ("text", 0, 3, "more"), ("part", 0, 3, ""),
    ]  # fmt: skip


def test_text_then_events_make_two_messages_of_the_run() -> None:
    conversation = ConversationReducer()
    recorder = EventRecorder()
    conversation.recorder = recorder
    run(
        conversation,
        ["Hello", {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "ev"}],
    )
    assert conversation.messages == [
        {"id": "r1", "role": "assistant", "parts": [{"type": "step-start"}, {"type": "text", "text": "Hello", "state": "done"}]},
        {
            "id": "r1",
            "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {"type": "text", "text": "ev", "providerMetadata": {"ag-ui": {"messageId": "m"}}, "state": "streaming"},
            ],
            "metadata": {"ag-ui": {"threadId": "t1", "runId": "r1"}},
        },
    ]  # fmt: skip
    assert [r["event"]["type"] for r in recorder.events] == [
        "start", "start-step", "text-start", "text-delta", "TEXT_MESSAGE_CHUNK", "text-end", "finish-step", "finish",
    ]  # fmt: skip


# ---------------------------------------------------------------------------------------------- approvals


INTERRUPTING_RUN = [
    {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "delete_file"},
    {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"path": "/tmp/x"}'},
    {"type": "TOOL_CALL_END", "toolCallId": "c"},
    {
        "type": "RUN_FINISHED",
        "threadId": "t1",
        "runId": "r1",
        "outcome": {
            "type": "interrupt",
            "interrupts": [{"id": "int-c", "reason": "tool_call", "toolCallId": "c", "message": "Delete?"}],
        },
    },
]


def test_an_approval_interrupt_is_answered_and_the_next_run_resumes_the_message() -> None:
    conversation = ConversationReducer([USER])
    run(conversation, INTERRUPTING_RUN)
    assert conversation.last_run.interrupted
    tool = conversation.messages[1]["parts"][1]
    assert (tool["state"], tool["approval"]) == (
        "approval-requested",
        {"id": "int-c", "requestReason": "Delete?"},
    )
    assert (conversation.pending_approvals(), conversation.resume_entries()) == (["int-c"], [])

    assert conversation.answer_approval("int-c", True) == [MessageChange("part", 1, 1)]
    assert conversation.pending_approvals() == []
    resume = conversation.resume_entries()
    assert resume == [{"interruptId": "int-c", "status": "resolved", "payload": {"approved": True}}]
    with pytest.raises(KeyError, match="approval 'int-c' was already answered"):
        conversation.answer_approval("int-c", False)

    changes = run(
        conversation,
        [
            {"type": "TOOL_CALL_RESULT", "messageId": "res", "toolCallId": "c", "content": "deleted"},
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m2", "role": "assistant", "delta": "Done."},
        ],
        run_id="r2",
        resume=resume,
    )
    assert [m["id"] for m in conversation.messages] == ["u1", "r1"]  # the answer continues
    assert conversation.messages[1]["parts"] == [
        {"type": "step-start"},
        {
            "type": "tool-delete_file",
            "toolCallId": "c",
            "state": "output-available",
            "input": {"path": "/tmp/x"},
            "approval": {"id": "int-c", "requestReason": "Delete?", "approved": True},
            "output": "deleted",
            "resultProviderMetadata": {"ag-ui": {"messageId": "res"}},
        },
        {"type": "step-start"},
        {"type": "text", "text": "Done.", "providerMetadata": {"ag-ui": {"messageId": "m2"}}, "state": "streaming"},
    ]  # fmt: skip
    assert conversation.messages[1]["metadata"] == {
        "ag-ui": {"threadId": "t1", "runId": "r2", "outcome": None, "resumedAt": None}
    }
    assert changes == [
        ("message", 1, -1, ""), ("metadata", 1, -1, ""), ("part", 1, 1, ""), ("part", 1, 1, ""),
        ("part", 1, 2, ""), ("part", 1, 3, ""), ("text", 1, 3, "Done."),
    ]  # fmt: skip
    assert not conversation.last_run.interrupted


def test_a_denied_chunk_approval_resumes_with_text_on_the_same_message() -> None:
    conversation = ConversationReducer([USER])
    run(
        conversation,
        [
            {"type": "start", "messageId": "a1"},
            {
                "type": "tool-input-available",
                "toolCallId": "c",
                "toolName": "delete_file",
                "input": {"path": "/x"},
            },
            {"type": "tool-approval-request", "approvalId": "ap1", "toolCallId": "c"},
            {"type": "finish"},
        ],
    )
    assert conversation.last_run.interrupted
    conversation.answer_approval("ap1", False, reason="no")
    resume = conversation.resume_entries()
    assert resume == [
        {"interruptId": "ap1", "status": "resolved", "payload": {"approved": False, "reason": "no"}}
    ]
    changes = run(conversation, ["OK, kept it."], run_id="r2", resume=resume)
    assert conversation.messages[1] == {
        "id": "a1",
        "role": "assistant",
        "parts": [
            {
                "type": "tool-delete_file",
                "toolCallId": "c",
                "state": "approval-responded",
                "input": {"path": "/x"},
                "approval": {"id": "ap1", "approved": False, "reason": "no"},
            },
            {"type": "step-start"},
            {"type": "text", "text": "OK, kept it.", "state": "done"},
        ],
    }
    # The continued message is not announced again: only its new parts are.
    assert changes == [
        ("message", 1, -1, ""), ("part", 1, 1, ""), ("part", 1, 2, ""), ("text", 1, 2, "OK, kept it."), ("part", 1, 2, ""),
    ]  # fmt: skip


ASKING = [
    {"type": "start", "messageId": "a1"},
    {"type": "tool-input-available", "toolCallId": "c", "toolName": "delete_file", "input": {"path": "/x"}},
    {"type": "tool-approval-request", "approvalId": "ap1", "toolCallId": "c"},
    {"type": "finish"},
]


def test_cancelling_a_pending_approval_gives_a_cancelled_entry_and_ends_the_call_denied() -> None:
    conversation = ConversationReducer([USER])
    run(conversation, ASKING)
    changes, entries = conversation.cancel_approvals()
    assert entries == [{"interruptId": "ap1", "status": "cancelled"}]
    assert changes == [MessageChange("part", 1, 0)]
    cancelled = {
        "type": "tool-delete_file",
        "toolCallId": "c",
        "state": "approval-responded",
        "input": {"path": "/x"},
        "approval": {"id": "ap1", "approved": False},
        "callProviderMetadata": {"ag-ui": {"ended": "cancelled"}},
    }
    assert conversation.messages[1]["parts"] == [cancelled]
    assert conversation.pending_approvals() == []
    assert conversation.cancel_approvals() == ([], [])  # nothing is left to cancel
    with pytest.raises(KeyError, match="approval 'ap1' was cancelled: a new message was sent before it"):
        conversation.answer_approval("ap1", True)
    conversation.append({"id": "u2", "role": "user", "parts": [{"type": "text", "text": "other"}]})
    # The agent answered the new message and said nothing of the call: once the run is over it is denied.
    run(conversation, ["Something else."], run_id="r2")
    assert conversation.messages[1]["parts"] == [{**cancelled, "state": "output-denied"}]
    assert [m["role"] for m in conversation.messages] == ["user", "assistant", "user", "assistant"]


def test_an_approval_of_an_earlier_answer_cannot_be_answered() -> None:
    asked = {**ASKING[0], "messageId": "a0"}
    conversation = ConversationReducer([USER])
    run(conversation, [asked, *ASKING[1:]])
    conversation.append({"id": "u2", "role": "user", "parts": [{"type": "text", "text": "other"}]})
    run(conversation, ["Something else."], run_id="r2")
    with pytest.raises(KeyError, match="approval 'ap1' belongs to an earlier answer, not the last one"):
        conversation.answer_approval("ap1", True)
    assert conversation.messages[1]["parts"][0]["state"] == "approval-requested"


def test_answering_an_unknown_approval_is_a_key_error() -> None:
    with pytest.raises(KeyError, match="no tool call is waiting for approval 'nope'"):
        ConversationReducer([USER]).answer_approval("nope", True)


# ---------------------------------------------------------------------------------------------- state


def test_a_state_delta_that_does_not_apply_warns_and_keeps_the_state() -> None:
    conversation = ConversationReducer(state={"a": 1})
    conversation.begin_run(run_id="r1", thread_id="t1")
    with pytest.warns(StateUpdateWarning) as caught:
        conversation.push(
            {"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/missing/x", "value": 2}]}
        )
    assert str(caught[0].message) == (
        "item 0 (STATE_DELTA): operation 0 (replace '/missing/x'): path does not exist; the state is unchanged"
    )
    assert caught[0].filename == __file__  # the warning points at the caller of push()
    conversation.end_run("success")
    assert conversation.state == {"a": 1}
    assert conversation.last_run.errors == []


# ---------------------------------------------------------------------------------------------- end of a run


def test_a_run_that_streamed_nothing_shows_nothing_unless_it_failed() -> None:
    for outcome in ("success", "cancelled", "interrupt"):
        conversation = ConversationReducer()
        assert run(conversation, [], outcome) == []
        assert conversation.messages == []
    conversation = ConversationReducer()
    recorder = EventRecorder()
    conversation.recorder = recorder
    conversation.begin_run(run_id="r1", thread_id="t1")
    conversation.end_run("error", "boom", "E1")
    assert conversation.messages == [
        {
            "id": "r1",
            "role": "assistant",
            "parts": [],
            "metadata": {
                "ag-ui": {"threadId": "t1", "runId": "r1", "error": {"message": "boom", "code": "E1"}}
            },
        }
    ]
    # The client ended the run, so the log says so.
    assert [r["event"] for r in recorder.events] == [{"type": "RUN_ERROR", "message": "boom", "code": "E1"}]


def test_cancelling_an_event_run_finishes_it_as_cancelled() -> None:
    conversation = ConversationReducer()
    recorder = EventRecorder()
    conversation.recorder = recorder
    changes = run(
        conversation, [{"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}], "cancelled"
    )
    assert conversation.messages[0]["metadata"] == {
        "ag-ui": {"threadId": "t1", "runId": "r1", "outcome": {"type": "cancelled"}}
    }
    assert changes == [("message", 0, -1, ""), ("message", 0, -1, ""), ("metadata", 0, -1, "")]
    assert recorder.events[-1]["event"] == {
        "type": "RUN_FINISHED",
        "threadId": "t1",
        "runId": "r1",
        "outcome": {"type": "cancelled"},
    }


def test_cancelling_a_text_run_aborts_its_chunk_stream() -> None:
    conversation = ConversationReducer()
    recorder = EventRecorder()
    conversation.recorder = recorder
    run(conversation, ["part"], "cancelled")
    assert conversation.messages[0]["parts"] == [
        {"type": "step-start"},
        {"type": "text", "text": "part", "state": "done"},
    ]
    assert [r["event"] for r in recorder.events] == [
        {"type": "start", "messageId": "r1"},
        {"type": "start-step"},
        {"type": "text-start", "id": "text"},
        {"type": "text-delta", "id": "text", "delta": "part"},
        {"type": "text-end", "id": "text"},
        {"type": "abort", "reason": "cancelled"},
    ]


def test_a_failed_text_run_ends_with_the_error_on_the_message() -> None:
    conversation = ConversationReducer()
    recorder = EventRecorder()
    conversation.recorder = recorder
    conversation.begin_run(run_id="r1", thread_id="t1")
    conversation.push("part")
    conversation.end_run("error", "boom", "E1")
    assert conversation.messages[0]["metadata"] == {"ag-ui": {"error": {"message": "boom", "code": "E1"}}}
    assert conversation.last_run.errors == ["boom"]
    assert [r["event"]["type"] for r in recorder.events][-4:] == [
        "message-metadata",
        "error",
        "finish-step",
        "finish",
    ]


def test_a_run_error_event_is_a_run_error() -> None:
    conversation = ConversationReducer()
    run(
        conversation,
        [
            {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"},
            {"type": "RUN_ERROR", "message": "rate limited", "code": "429"},
        ],
    )
    assert conversation.last_run.errors == ["rate limited"]
    assert conversation.messages[0]["metadata"]["ag-ui"]["error"] == {
        "message": "rate limited",
        "code": "429",
    }


def test_a_reused_run_id_does_not_continue_an_old_answer() -> None:
    old = {"id": "r-old", "role": "assistant", "parts": [{"type": "text", "text": "old", "state": "done"}]}
    conversation = ConversationReducer([USER, old])
    run(
        conversation,
        [
            {"type": "RUN_STARTED", "threadId": "t1", "runId": "r-old"},
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "new"},
            {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r-old"},
        ],
        run_id="r2",
    )
    assert [m["id"] for m in conversation.messages] == ["u1", "r-old", "r2"]
    assert conversation.messages[1] == old


# ---------------------------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("items", "index", "message"),
    [
        (
            [{"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}, 42],
            1,
            "item 1: expected an AG-UI event, an AI SDK chunk (dict) or str text, got int",
        ),
        (
            [{"type": "start"}, {"type": "text-delta", "id": "x", "delta": "a"}],
            1,
            "item 1 (text-delta): no text part with id 'x' (send text-start first)",
        ),
        (
            [
                {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
                {"type": "TEXT_MESSAGE_CONTENT", "messageId": "q", "delta": "a"},
            ],
            1,
            "event 1 (TEXT_MESSAGE_CONTENT): no active text message 'q'; send TEXT_MESSAGE_START first",
        ),
        ([{"type": 3}], 0, "item 0: a stream item needs a string 'type', got 3"),
        ([{"no": "type"}], 0, "item 0: a stream item needs a string 'type', got None"),
    ],
)
def test_a_malformed_item_raises_with_its_index(items: list[Any], index: int, message: str) -> None:
    conversation = ConversationReducer()
    conversation.begin_run(run_id="r1", thread_id="t1")
    with pytest.raises(RunStreamError) as caught:
        for item in items:
            conversation.push(item)
    assert (caught.value.index, str(caught.value)) == (index, message)
    conversation.end_run("error", "malformed", "STREAM_ERROR")  # what was shown stays, with the error on it
    assert conversation.messages[-1]["metadata"]["ag-ui"]["error"] == {
        "message": "malformed",
        "code": "STREAM_ERROR",
    }


def test_an_unknown_event_type_is_dropped_as_ag_ui_client_drops_it() -> None:
    conversation = ConversationReducer()
    run(
        conversation,
        [
            {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
            {"type": "NOT_AN_AG_UI_EVENT", "value": 1},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "kept"},
        ],
    )
    assert conversation.messages[0]["parts"][-1]["text"] == "kept"


def test_pushing_outside_a_run_is_refused() -> None:
    with pytest.raises(RuntimeError, match=r"push\(\) outside a run: call begin_run\(\) first"):
        ConversationReducer().push("text")
    assert ConversationReducer().end_run("success") == []


# ---------------------------------------------------------------------------------------------- recording


def test_the_recorder_gets_every_item_with_its_receive_time() -> None:
    conversation = ConversationReducer()
    recorder = EventRecorder(clock=conversation.clock)
    conversation.recorder = recorder
    conversation.begin_run(run_id="r1", thread_id="t1")
    conversation.push(TextMessageStartEvent(message_id="m"), 10)  # a model, recorded as wire JSON
    conversation.push("y", 20)
    assert recorder.events == [
        {"received_ns": 10, "event": {"type": "TEXT_MESSAGE_START", "messageId": "m"}},
        {"received_ns": 20, "event": {"type": "start", "messageId": "r1"}},
        {"received_ns": 20, "event": {"type": "start-step"}},
        {"received_ns": 20, "event": {"type": "text-start", "id": "text"}},
        {"received_ns": 20, "event": {"type": "text-delta", "id": "text", "delta": "y"}},
    ]
    assert conversation.clock() == 20


# ---------------------------------------------------------------------------------------------- the list


def test_append_truncate_and_replace_all() -> None:
    conversation = ConversationReducer([USER])
    assistant = {"id": "a1", "role": "assistant", "parts": []}
    assert conversation.append(assistant) == [MessageChange("message", 1)]
    conversation.truncate(1)
    assert conversation.messages == [USER]
    conversation.replace_all([assistant])
    assert conversation.messages == [assistant]


# ---------------------------------------------------------------------------------------------- classify_item


class _Name(str):
    """A str subclass (a name a library hands out) is text too."""


class _Chunk(BaseModel):
    type: str
    delta: str | None = None


@pytest.mark.parametrize(
    ("item", "expected"),
    [
        ("text", ("text", "text")),
        (TextMessageContentEvent(message_id="m", delta="a"), ("event", {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "a"})),
        ({"type": EventType.TEXT_MESSAGE_END, "messageId": "m"}, ("event", {"type": "TEXT_MESSAGE_END", "messageId": "m"})),
        ({"type": "THINKING_START"}, ("event", {"type": "THINKING_START"})),
        ({"type": "NOT_AN_AG_UI_EVENT"}, ("event", {"type": "NOT_AN_AG_UI_EVENT"})),
        (_Chunk(type="text-delta", delta="a"), ("chunk", {"type": "text-delta", "delta": "a"})),
        (MappingProxyType({"type": "data-x", "data": 1}), ("chunk", {"type": "data-x", "data": 1})),
        ({"type": "future-chunk"}, ("chunk", {"type": "future-chunk"})),
        (_Name("red"), ("text", "red")),
    ],
)  # fmt: skip
def test_classify_item(item: Any, expected: tuple[str, Any]) -> None:
    assert classify_item(item) == expected


def test_classify_item_refuses_what_no_stream_carries() -> None:
    with pytest.raises(TypeError, match="a stream item needs a string 'type', got ''"):
        classify_item({"type": ""})
    with pytest.raises(TypeError, match=r"expected an AG-UI event, an AI SDK chunk .* got bytes"):
        classify_item(b"text")


# ---------------------------------------------------------------------------------------------- data kept
def test_event_metadata_reaches_the_live_conversation_and_the_next_run_input() -> None:
    from agui_notebook.agui._apply import apply_events
    from agui_notebook.bridge._messages import to_agui_messages_wire
    from tests.bridge.test_assemble import METADATA_EVENTS

    def metadata_of(messages: list[dict[str, Any]]) -> dict[str, Any]:
        found = {m["id"]: m.get("metadata") for m in messages}
        found.update({c["id"]: c.get("metadata") for m in messages for c in m.get("toolCalls") or ()})
        return found

    conversation = ConversationReducer()
    run(conversation, METADATA_EVENTS)
    assert conversation.last_run is not None and conversation.last_run.errors == []
    assert metadata_of(to_agui_messages_wire(conversation.messages)) == metadata_of(
        apply_events(METADATA_EVENTS).message_dicts
    )


# ---------------------------------------------------------------------------------------------- MESSAGES_SNAPSHOT
def _call(call_id: str, name: str = "f", arguments: str = '{"a":1}') -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


_U1 = {"id": "u1", "role": "user", "content": "hi"}
_STREAMED = [
    {
        "type": "RUN_STARTED",
        "threadId": "t1",
        "runId": "r1",
        "input": {"threadId": "t1", "runId": "r1", "messages": [_U1]},
    },
    {"type": "REASONING_START", "messageId": "rs"},
    {"type": "REASONING_MESSAGE_START", "messageId": "think", "role": "reasoning"},
    {"type": "REASONING_MESSAGE_CONTENT", "messageId": "think", "delta": "hmm"},
    {"type": "REASONING_MESSAGE_END", "messageId": "think"},
    {"type": "REASONING_END", "messageId": "rs"},
    {"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": "Helo"},
    {"type": "TEXT_MESSAGE_END", "messageId": "a1"},
    {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": "a1"},
    {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"a":1}'},
    {"type": "TOOL_CALL_END", "toolCallId": "c1"},
    {"type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "c1", "content": "x"},
    {"type": "ACTIVITY_SNAPSHOT", "messageId": "plan", "activityType": "plan", "content": {"steps": 1}},
]
_FINISHED = {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}


def _snapshot(*messages: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "MESSAGES_SNAPSHOT", "messages": list(messages), **extra}


SNAPSHOT_CASES: dict[str, list[dict[str, Any]]] = {
    "corrects text and a result": [
        *_STREAMED,
        _snapshot(
            _U1,
            {"id": "a1", "role": "assistant", "content": "Hello", "toolCalls": [_call("c1")]},
            {"id": "t1", "role": "tool", "toolCallId": "c1", "content": "y"},
        ),
        _FINISHED,
    ],
    "removes a call and its result": [
        *_STREAMED,
        _snapshot(_U1, {"id": "a1", "role": "assistant", "content": "Hello"}),
        _FINISHED,
    ],
    "removes the user message and appends history": [
        *_STREAMED,
        _snapshot(
            {"id": "a1", "role": "assistant", "content": "Helo", "toolCalls": [_call("c1")]},
            {"id": "t1", "role": "tool", "toolCallId": "c1", "content": "x"},
            {"id": "u0", "role": "user", "content": "earlier"},
        ),
        _FINISHED,
    ],
    "output after the snapshot comes after it": [
        *_STREAMED,
        _snapshot(
            _U1,
            {"id": "a1", "role": "assistant", "content": "Hello"},
            {"id": "u0", "role": "user", "content": "new"},
        ),
        {"type": "TEXT_MESSAGE_START", "messageId": "a2", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a2", "delta": "after"},
        {"type": "TEXT_MESSAGE_END", "messageId": "a2"},
        _FINISHED,
    ],
    "history at the start of a run": [
        {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"},
        _snapshot(
            {"id": "u0", "role": "user", "content": "old"},
            {"id": "a0", "role": "assistant", "content": "old answer"},
            _U1,
        ),
        {"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": "new answer"},
        {"type": "TEXT_MESSAGE_END", "messageId": "a1"},
        _FINISHED,
    ],
    "a snapshot that owns activities replaces them": [
        *_STREAMED,
        _snapshot(
            _U1,
            {"id": "a1", "role": "assistant", "content": "Helo"},
            {"id": "think", "role": "reasoning", "content": "hmm!"},
            metadata={"@ag-ui/client": {"authoritativeActivityTypes": ["plan"]}},
        ),
        _FINISHED,
    ],
    "the same messages again change nothing": [
        *_STREAMED,
        _snapshot(
            _U1,
            {"id": "think", "role": "reasoning", "content": "hmm"},
            {"id": "a1", "role": "assistant", "content": "Helo", "toolCalls": [_call("c1")]},
            {"id": "t1", "role": "tool", "toolCallId": "c1", "content": "x"},
            {"id": "plan", "role": "activity", "activityType": "plan", "content": {"steps": 1}},
        ),
        _FINISHED,
    ],
}


@pytest.fixture(scope="module")
def client_snapshots() -> dict[str, Any]:
    from tests.support.node import run_node_reference

    cases = [{"events": events, "messages": [_U1]} for events in SNAPSHOT_CASES.values()]
    results = run_node_reference("agui_apply.mjs", {"mode": "runAgent", "cases": cases})
    return dict(zip(SNAPSHOT_CASES, results, strict=True))


@pytest.mark.node
@pytest.mark.parametrize("name", list(SNAPSHOT_CASES))
def test_messages_snapshot_replaces_the_live_conversation_as_ag_ui_client_does(
    name: str, client_snapshots: dict[str, Any]
) -> None:
    from agui_notebook.agui._apply import apply_events
    from agui_notebook.bridge._messages import to_agui_messages_wire, to_ui_messages

    events = SNAPSHOT_CASES[name]
    theirs = client_snapshots[name]
    assert theirs.get("error") is None
    assert apply_events(events, messages=[_U1]).message_dicts == theirs["messages"]
    conversation = ConversationReducer(to_ui_messages([_U1]))
    mirror = copy.deepcopy(conversation.messages)
    conversation.begin_run(run_id="r1", thread_id="t1")
    for event in events:
        apply_changes(mirror, conversation.messages, conversation.push(event, 0))
    apply_changes(mirror, conversation.messages, conversation.end_run("success"))
    assert conversation.last_run is not None and conversation.last_run.errors == []
    assert to_agui_messages_wire(conversation.messages) == theirs["messages"]
    assert mirror == conversation.messages  # the change records describe the replacement exactly


async def test_a_snapshot_that_removes_messages_reaches_the_front_end() -> None:
    """The widget's patches cut the list when a snapshot drops messages (the ``length`` change)."""
    from agui_notebook.bridge._messages import to_agui_messages_wire
    from agui_notebook.widget._chat import ChatWidget
    from tests.widget.front_end import FrontEnd, assert_in_sync

    events = SNAPSHOT_CASES["removes the user message and appends history"]

    async def agent(run_input: Any) -> Any:
        for event in events:
            yield (
                {**event, "runId": run_input.run_id}
                if event["type"] in ("RUN_STARTED", "RUN_FINISHED")
                else event
            )

    chat = ChatWidget(agent, thread_id="t1")
    view = FrontEnd(chat)
    assert await chat.send_message("hi") == "success", chat.error
    assert [m["role"] for m in to_agui_messages_wire(chat.messages)] == [
        "reasoning",
        "assistant",
        "tool",
        "activity",
        "user",
    ]
    assert_in_sync(view, chat)
    assert any(
        op[0] == "len"
        for sent in view.sent
        if sent.get("method") == "custom"
        for op in sent["content"].get("ops", [])
    )


_AFTER = [
    {"type": "TEXT_MESSAGE_START", "messageId": "late", "role": "assistant"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "late", "delta": "later"},
    {"type": "TEXT_MESSAGE_END", "messageId": "late"},
]


@st.composite
def _snapshots(draw: st.DrawFn) -> dict[str, Any]:
    from agui_notebook.agui._apply import apply_events

    streamed = apply_events(_STREAMED, messages=[_U1]).message_dicts
    kept = draw(st.lists(st.sampled_from(streamed), unique_by=lambda m: m["id"], max_size=len(streamed)))
    messages = []
    for message in kept:
        if message["role"] in ("user", "assistant", "reasoning", "tool") and draw(st.booleans()):
            message = {**message, "content": draw(st.sampled_from(["", "edited", "Hello"]))}
        if message["role"] == "assistant" and draw(st.booleans()):
            message = {k: v for k, v in message.items() if k != "toolCalls"}
        messages.append(message)
    for n in range(draw(st.integers(0, 2))):
        messages.insert(
            draw(st.integers(0, len(messages))), {"id": f"new{n}", "role": "user", "content": f"new {n}"}
        )
    extra = {}
    if draw(st.booleans()):
        extra["metadata"] = {
            "@ag-ui/client": {"authoritativeActivityTypes": draw(st.sampled_from([[], ["plan"], None]))}
        }
    return _snapshot(*messages, **extra)


@settings(max_examples=150, deadline=None)
@given(snapshot=_snapshots(), after=st.booleans())
def test_any_snapshot_leaves_the_conversation_the_reference_reducer_leaves(
    snapshot: dict[str, Any], after: bool
) -> None:
    from agui_notebook.agui._apply import apply_events
    from agui_notebook.bridge._messages import to_agui_messages_wire, to_ui_messages

    events = [*_STREAMED, snapshot, *(_AFTER if after else []), _FINISHED]
    conversation = ConversationReducer(to_ui_messages([_U1]))
    mirror = copy.deepcopy(conversation.messages)
    conversation.begin_run(run_id="r1", thread_id="t1")
    for event in events:
        apply_changes(mirror, conversation.messages, conversation.push(event, 0))
    apply_changes(mirror, conversation.messages, conversation.end_run("success"))
    assert conversation.last_run is not None and conversation.last_run.errors == []
    assert to_agui_messages_wire(conversation.messages) == apply_events(events, messages=[_U1]).message_dicts
    assert mirror == conversation.messages


# ---------------------------------------------------------------------------------------------- one engine
@pytest.mark.parametrize(
    ("failure", "failed", "cancelled"),
    [
        ("retries", "Tool 'lookup_db' exceeded max retries count of 0", "Cancelled: lookup_db failed"),
        ("raise", "search backend down", "search backend down"),
    ],
)
def test_a_failing_pydantic_ai_tool_shows_the_same_live_and_offline(
    failure: str, failed: str, cancelled: str
) -> None:
    """The live chat and ``ui_messages_from_events`` build one message from one stream: the call that failed
    shows the run's error (pydantic-ai closes every open call with one text), its sibling is cancelled."""
    import asyncio

    from agui_notebook.bridge._assemble import ui_message_dicts_from_events
    from tests.support.pydantic_ai_runs import agui_run, make_sibling_failure_agent

    events = asyncio.run(agui_run(make_sibling_failure_agent(failure)))
    conversation = ConversationReducer()
    run(conversation, events, "error", run_id="run-1")
    offline = ui_message_dicts_from_events(events)
    assert conversation.messages == offline
    calls = {p["toolCallId"]: p for p in offline[-1]["parts"] if "toolCallId" in p}
    assert calls["call_l"]["state"] == "output-error"
    assert calls["call_l"]["errorText"].startswith(failed)
    assert calls["call_s"]["errorText"].startswith(cancelled)


def test_a_result_for_a_call_never_shown_is_the_same_live_and_offline() -> None:
    from agui_notebook.bridge._assemble import ui_message_dicts_from_events

    events = [
        {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"},
        {"type": "TOOL_CALL_RESULT", "toolCallId": "c9", "messageId": "tr", "content": "sunny"},
        {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"},
    ]
    conversation = ConversationReducer()
    run(conversation, events)
    assert conversation.messages == ui_message_dicts_from_events(events)
    (part,) = conversation.messages[0]["parts"]
    assert part["type"] == "dynamic-tool"
    assert part["toolName"] == "unknown"
    assert part["input"] is None
    assert part["output"] == "sunny"
