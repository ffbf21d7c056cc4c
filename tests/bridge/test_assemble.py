"""The incremental assembler: AG-UI events in, UIMessages and exact change records out."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from agui_notebook.agui._intake import wire_event_list
from agui_notebook.bridge._assemble import (
    StreamedMessage,
    UIMessageAssembler,
    ui_chunks_from_events,
    ui_message_dicts_from_events,
)
from agui_notebook.ui._changes import MessageChange
from tests.support.pydantic_ai_runs import SCENARIOS, capture
from tests.ui.test_changes import apply_changes


def assemble_with_mirror(events: list[dict[str, Any]]) -> UIMessageAssembler:
    assembler = UIMessageAssembler()
    mirror: list[dict[str, Any]] = []
    for event in events:
        apply_changes(mirror, assembler.messages, assembler.push(event))
        assert mirror == assembler.messages, f"after {event['type']}"
    apply_changes(mirror, assembler.messages, assembler.close())
    assert mirror == assembler.messages
    return assembler


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_changes_describe_every_step_exactly(name: str) -> None:
    run = asyncio.run(capture(name))
    assembler = assemble_with_mirror(run.agui_events)
    assert assembler.chunks == list(ui_chunks_from_events(run.agui_events))


RUN = [{"type": "RUN_STARTED", "threadId": "t1", "runId": "r1", "timestamp": 1000}]
USER_MESSAGE = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}


def test_text_deltas_are_text_changes() -> None:
    assembler = UIMessageAssembler()
    changes = []
    for event in [
        *RUN,
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hel"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "lo"},
    ]:
        changes.extend(assembler.push(event))
    assert changes[-1] == MessageChange("text", 0, 1, "lo")
    assert assembler.messages == [
        {
            "id": "r1",
            "role": "assistant",
            "metadata": {"ag-ui": {"threadId": "t1", "runId": "r1", "startedAt": 1000}},
            "parts": [
                {"type": "step-start"},
                {
                    "type": "text",
                    "text": "Hello",
                    "providerMetadata": {"ag-ui": {"messageId": "m"}},
                    "state": "streaming",
                },
            ],
        }
    ]


def test_run_info_lands_in_metadata() -> None:
    usage = [{"provider": "demo", "model": "demo-1", "inputTokens": 12, "outputTokens": 5}]
    events = [
        *RUN,
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "ok"},
        {
            "type": "RUN_FINISHED",
            "threadId": "t1",
            "runId": "r1",
            "timestamp": 1500,
            "outcome": {"type": "success"},
            "usage": usage,
        },
    ]
    (message,) = ui_message_dicts_from_events(events)
    assert message["metadata"] == {
        "ag-ui": {
            "threadId": "t1",
            "runId": "r1",
            "startedAt": 1000,
            "outcome": {"type": "success"},
            "usage": usage,
            "finishedAt": 1500,
        }
    }
    assert message["parts"][1]["text"] == "ok"
    assert message["parts"][1]["state"] == "done"


def test_run_error_keeps_what_was_rendered() -> None:
    events = [
        *RUN,
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "partial"},
        {"type": "RUN_ERROR", "message": "model overloaded", "code": "overloaded"},
    ]
    (message,) = ui_message_dicts_from_events(events)
    assert message["metadata"]["ag-ui"]["error"] == {"message": "model overloaded", "code": "overloaded"}
    assert message["parts"][1]["text"] == "partial"


def test_activity_is_a_data_part_updated_in_place() -> None:
    events = [
        *RUN,
        {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "plan",
            "activityType": "plan",
            "content": {"steps": [{"t": "a", "done": False}]},
        },
        {
            "type": "ACTIVITY_DELTA",
            "messageId": "plan",
            "activityType": "plan",
            "patch": [{"op": "replace", "path": "/steps/0/done", "value": True}],
        },
        {
            "type": "ACTIVITY_DELTA",
            "messageId": "plan",
            "activityType": "plan",
            "patch": [{"op": "add", "path": "/steps/-", "value": {"t": "b", "done": False}}],
        },
    ]
    assembler = assemble_with_mirror(events)
    (message,) = assembler.messages
    assert message["parts"] == [
        {
            "type": "data-plan",
            "id": "plan",
            "data": {"steps": [{"t": "a", "done": True}, {"t": "b", "done": False}]},
        }
    ]


def test_encrypted_reasoning_lands_on_its_part() -> None:
    events = [
        *RUN,
        {"type": "REASONING_START", "messageId": "r"},
        {"type": "REASONING_MESSAGE_START", "messageId": "r", "role": "reasoning"},
        {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r", "delta": "thinking"},
        {"type": "REASONING_MESSAGE_END", "messageId": "r"},
        {
            "type": "REASONING_ENCRYPTED_VALUE",
            "subtype": "message",
            "entityId": "r",
            "encryptedValue": "sig==",
        },
        {"type": "REASONING_END", "messageId": "r"},
    ]
    assembler = assemble_with_mirror(events)
    reasoning = assembler.messages[0]["parts"][1]
    assert reasoning["text"] == "thinking"
    assert reasoning["state"] == "done"
    assert reasoning["providerMetadata"] == {"ag-ui": {"messageId": "r", "encryptedValue": "sig=="}}


def test_tool_input_streams_as_partial_json_then_bad_json_is_an_input_error() -> None:
    assembler = UIMessageAssembler()
    for event in [
        *RUN,
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "search"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"query": "pari'},
    ]:
        assembler.push(event)
    tool = assembler.messages[0]["parts"][1]
    assert tool["state"] == "input-streaming"
    assert tool["input"] == {"query": "pari"}
    assembler.push({"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": "s"})
    assembler.push({"type": "TOOL_CALL_END", "toolCallId": "c"})
    tool = assembler.messages[0]["parts"][1]
    assert tool["state"] == "output-error"
    assert tool["errorText"].startswith("tool call arguments are not valid JSON")


def test_streamed_user_message_and_history_order() -> None:
    events = [
        {
            "type": "RUN_STARTED",
            "threadId": "t1",
            "runId": "r1",
            "input": {
                "threadId": "t1",
                "runId": "r1",
                "messages": [{"id": "u1", "role": "user", "content": "hi"}],
            },
        },
        {"type": "TEXT_MESSAGE_START", "messageId": "a", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a", "delta": "Hello"},
        {"type": "TEXT_MESSAGE_END", "messageId": "a"},
        {"type": "TEXT_MESSAGE_START", "messageId": "u2", "role": "user"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "u2", "delta": "and more"},
        {"type": "TEXT_MESSAGE_END", "messageId": "u2"},
        {"type": "TEXT_MESSAGE_START", "messageId": "b", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "b", "delta": "Sure"},
        {"type": "TEXT_MESSAGE_END", "messageId": "b"},
        {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"},
    ]
    assembler = assemble_with_mirror(events)
    assert [(m["id"], m["role"]) for m in assembler.messages] == [
        ("u1", "user"),
        ("r1", "assistant"),
        ("u2", "user"),
        ("r1-2", "assistant"),
    ]
    assert assembler.messages[2]["parts"] == [{"type": "text", "text": "and more"}]


def test_history_arriving_later_is_appended_as_ag_ui_client_does() -> None:
    """The client keeps what it has in order and appends the snapshot's new messages (here: the user's)."""
    from agui_notebook.agui._apply import apply_events
    from agui_notebook.bridge._messages import to_agui_messages_wire

    first_run = [
        *RUN,
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "a1", "role": "assistant", "delta": "Hi"},
        {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"},
    ]
    snapshot = {
        "type": "MESSAGES_SNAPSHOT",
        "messages": [
            {"id": "u1", "role": "user", "content": "hello"},
            {"id": "a1", "role": "assistant", "content": "Hi"},
        ],
    }
    assembler = assemble_with_mirror([*first_run, snapshot])
    assert [m["id"] for m in assembler.messages] == ["r1", "u1"]
    assert to_agui_messages_wire(assembler.messages) == apply_events([*first_run, snapshot]).message_dicts


def test_cancelled_run_aborts() -> None:
    events = [
        *RUN,
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "a1", "role": "assistant", "delta": "Hi"},
        {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1", "outcome": {"type": "cancelled"}},
    ]
    assert list(ui_chunks_from_events(events))[-1] == {"type": "abort", "reason": "cancelled"}


def test_events_without_run_started_open_a_message() -> None:
    (message,) = ui_message_dicts_from_events(
        [{"type": "TEXT_MESSAGE_CHUNK", "messageId": "a1", "delta": "Hi"}]
    )
    assert message["role"] == "assistant"
    assert [p["type"] for p in message["parts"]] == ["step-start", "text"]


def test_jsonl_bytes_are_accepted() -> None:
    blob = b'{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","delta":"x"}\n'
    (message,) = ui_message_dicts_from_events(blob)
    assert message["parts"][1]["text"] == "x"


def test_ui_part_activities_become_source_and_file_parts() -> None:
    source = {"type": "source-url", "sourceId": "s1", "url": "https://example.com/doc", "title": "Doc"}
    image = {"type": "file", "mediaType": "image/png", "url": "data:image/png;base64,iVBORw0KGgo="}
    events = [
        *RUN,
        {"type": "ACTIVITY_SNAPSHOT", "messageId": "x1", "activityType": "ui-part", "content": source},
        {"type": "ACTIVITY_SNAPSHOT", "messageId": "x2", "activityType": "ui-part", "content": image},
    ]
    (message,) = assemble_with_mirror(events).messages
    assert message["parts"] == [
        {**source, "providerMetadata": {"ag-ui": {"messageId": "x1"}}},
        {**image, "providerMetadata": {"ag-ui": {"messageId": "x2"}}},
    ]
    # and they go back to the same activity messages
    from agui_notebook.bridge._messages import to_agui_messages_wire

    assert to_agui_messages_wire([message])[-2:] == [
        {"id": "x1", "role": "activity", "activityType": "ui-part", "content": source},
        {"id": "x2", "role": "activity", "activityType": "ui-part", "content": image},
    ]


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_one_shot_merging_of_deltas_builds_the_same_messages(name: str) -> None:
    run = asyncio.run(capture(name))
    one_by_one = UIMessageAssembler()
    for event in run.agui_events:
        one_by_one.push(event)
    one_by_one.close()
    assert ui_message_dicts_from_events(run.agui_events) == one_by_one.messages


def test_interleaved_deltas_are_merged_only_when_consecutive() -> None:
    from agui_notebook.bridge._assemble import merge_consecutive_deltas

    events = [
        {"type": "TOOL_CALL_ARGS", "toolCallId": "a", "delta": '{"x":'},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "b", "delta": "{"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "a", "delta": " 1"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "a", "delta": "}"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a", "delta": "x"},
    ]
    assert list(merge_consecutive_deltas(events)) == [
        events[0],
        events[1],
        {"type": "TOOL_CALL_ARGS", "toolCallId": "a", "delta": " 1}"},
        events[4],
    ]


def test_resume_after_reload_continues_the_saved_message() -> None:
    """A conversation saved mid-approval (no events kept) still resumes onto its tool part."""
    first = [
        *RUN,
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "delete_file"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"path": "/tmp/x"}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {
            "type": "RUN_FINISHED",
            "threadId": "t1",
            "runId": "r1",
            "outcome": {
                "type": "interrupt",
                "interrupts": [{"id": "int-c", "reason": "tool_call", "toolCallId": "c"}],
            },
        },
    ]
    saved = ui_message_dicts_from_events(first)
    resumed = [
        {
            "type": "RUN_STARTED",
            "threadId": "t1",
            "runId": "r2",
            "input": {
                "threadId": "t1",
                "runId": "r2",
                "messages": [],
                "resume": [{"interruptId": "int-c", "status": "resolved", "payload": {"approved": True}}],
            },
        },
        {"type": "TOOL_CALL_RESULT", "messageId": "res", "toolCallId": "c", "content": "deleted"},
        {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r2", "outcome": {"type": "success"}},
    ]
    messages = ui_message_dicts_from_events(resumed, messages=saved)
    assert [m["id"] for m in messages] == ["r1"]
    tool = messages[0]["parts"][1]
    assert tool["state"] == "output-available"
    assert tool["approval"] == {"id": "int-c", "approved": True}
    assert tool["output"] == "deleted"


def test_custom_events_accumulate_in_metadata() -> None:
    events = [
        *RUN,
        {"type": "CUSTOM", "name": "progress", "value": 1},
        {"type": "CUSTOM", "name": "progress", "value": 2},
    ]
    (message,) = assemble_with_mirror(events).messages
    assert message["metadata"]["ag-ui"]["custom"] == [
        {"name": "progress", "value": 1},
        {"name": "progress", "value": 2},
    ]


@pytest.mark.parametrize("error", [None, "the user closed the dialog"])
def test_a_front_end_tool_result_in_the_next_run_input_lands_on_its_call(error: str | None) -> None:
    """A client runs a front-end tool between runs and sends its result as a tool message in the next input."""
    first = [
        *RUN,
        {"type": "TEXT_MESSAGE_START", "messageId": "a1", "role": "assistant"},
        {"type": "TEXT_MESSAGE_END", "messageId": "a1"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "confirm", "parentMessageId": "a1"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"q": "ok?"}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1", "outcome": {"type": "success"}},
    ]
    tool_message = {"id": "t1-result", "role": "tool", "toolCallId": "c", "content": '{"confirmed": true}'}
    if error is not None:
        tool_message["error"] = error
    history = [
        {"id": "a1", "role": "assistant", "toolCalls": [
            {"id": "c", "type": "function", "function": {"name": "confirm", "arguments": '{"q": "ok?"}'}}
        ]},
        tool_message,
    ]  # fmt: skip
    second = [
        {"type": "RUN_STARTED", "threadId": "t1", "runId": "r2", "input": {"threadId": "t1", "runId": "r2", "messages": history}},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "a2", "role": "assistant", "delta": "Thanks."},
        {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r2"},
    ]  # fmt: skip
    messages = assemble_with_mirror([*first, *second]).messages
    assert [m["id"] for m in messages] == ["r1", "r2"]
    tool = messages[0]["parts"][1]
    if error is None:
        assert tool["state"] == "output-available"
        assert tool["output"] == {"confirmed": True}
    else:
        assert tool["state"] == "output-error"
        assert tool["errorText"] == error
    assert messages[1]["parts"][-1]["text"] == "Thanks."


@pytest.mark.parametrize("name", ["parallel_tools", "reasoning_tool_text", "several_rounds"])
def test_deferred_tool_inputs_settle_to_the_eager_messages(name: str) -> None:
    """The widget's assembler parses streamed tool arguments when it is read, not per delta."""
    path = Path(__file__).resolve().parent.parent / "fixtures" / "agui" / f"{name}.jsonl"
    eager, deferred = UIMessageAssembler(), UIMessageAssembler(defer_tool_input=True)
    deferred_args = 0
    for event in wire_event_list(path):
        assert deferred.push(event) == eager.push(event)
        if event["type"] == "TOOL_CALL_ARGS":
            deferred_args += deferred.messages != eager.messages  # unsettled: input not parsed yet
        deferred.settle()
        assert deferred.messages == eager.messages
    assert deferred_args > 0


# ---------------------------------------------------------------------------------------------- StreamedMessage


def test_a_streamed_message_works_on_its_own_copy_in_the_list() -> None:
    asked = {"id": "a1", "role": "assistant", "parts": [{"type": "text", "text": "Hi", "state": "done"}]}
    messages = [USER_MESSAGE, asked]
    stream = StreamedMessage(messages, 1)
    assert messages[1] == asked and messages[1] is not asked
    changes = stream.push({"type": "text-start", "id": "t"}) + stream.push(
        {"type": "text-delta", "id": "t", "delta": "More"}
    )
    assert changes == [MessageChange("part", 1, 1), MessageChange("text", 1, 1, "More")]
    # The caller's dict is left alone.
    assert asked["parts"] == [{"type": "text", "text": "Hi", "state": "done"}]
    assert messages[1]["parts"][-1] == {"type": "text", "text": "More", "state": "streaming"}


def test_a_start_chunk_with_a_new_id_replaces_an_empty_message_and_follows_a_full_one() -> None:
    messages = [USER_MESSAGE, {"id": "placeholder", "role": "assistant", "parts": []}]
    stream = StreamedMessage(messages, 1)
    assert stream.push({"type": "start", "messageId": "a1"}) == [MessageChange("message", 1)]
    assert [m["id"] for m in messages] == ["u1", "a1"]
    stream.push({"type": "text-start", "id": "t"})
    # A second answer in the same stream is a message of its own, after the first, as the AI SDK chat has it.
    assert stream.push({"type": "start", "messageId": "a2"}) == [MessageChange("message", 2)]
    assert stream.push({"type": "text-start", "id": "t"}) == [MessageChange("part", 2, 0)]
    assert [(m["id"], len(m["parts"])) for m in messages] == [("u1", 1), ("a1", 1), ("a2", 1)]
    assert stream.index == 2


# ---------------------------------------------------------------------------------------------- metadata
METADATA_EVENTS: list[dict[str, Any]] = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
    {"type": "TEXT_MESSAGE_START", "messageId": "u1", "role": "user", "metadata": {"lang": "en"}},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "u1", "delta": "hi", "metadata": {"typed": True}},
    {"type": "TEXT_MESSAGE_END", "messageId": "u1"},
    {"type": "REASONING_START", "messageId": "rs"},
    {"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning", "metadata": {"model": "m"}},
    {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "think", "metadata": {"step": 1}},
    {"type": "REASONING_MESSAGE_END", "messageId": "r1", "metadata": {"step": 2}},
    {"type": "REASONING_END", "messageId": "rs"},
    {
        "type": "TEXT_MESSAGE_START",
        "messageId": "a1",
        "role": "assistant",
        "metadata": {"model": "m", "n": 1},
    },
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": "Calling", "metadata": {"n": 2}},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a1", "delta": " a tool."},
    {"type": "TEXT_MESSAGE_END", "messageId": "a1", "metadata": {"done": True}},
    {
        "type": "TOOL_CALL_START",
        "toolCallId": "c1",
        "toolCallName": "f",
        "parentMessageId": "a1",
        "metadata": {"origin": "model"},
    },
    {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"x": 1}', "metadata": {"args": "streamed"}},
    {"type": "TOOL_CALL_END", "toolCallId": "c1", "metadata": {"ended": True}},
    {"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "c1", "encryptedValue": "enc"},
    {
        "type": "TOOL_CALL_RESULT",
        "messageId": "t1",
        "toolCallId": "c1",
        "content": "[1, 2]",
        "metadata": {"cached": False},
    },
    {
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": "act",
        "activityType": "plan",
        "content": {"steps": []},
        "metadata": {"v": 1},
    },
    {
        "type": "ACTIVITY_DELTA",
        "messageId": "act",
        "activityType": "plan",
        "patch": [{"op": "add", "path": "/steps/-", "value": "a"}],
        "metadata": {"v": 2, "w": 1},
    },
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
]


def _metadata_by_id(messages: list[dict[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for message in messages:
        found[message["id"]] = message.get("metadata")
        for call in message.get("toolCalls") or ():
            found[call["id"]] = (call.get("metadata"), call.get("encryptedValue"))
    return found


def test_event_metadata_reaches_the_ui_messages_and_their_agui_form() -> None:
    from agui_notebook.agui._apply import apply_events
    from agui_notebook.bridge._messages import to_agui_messages_wire

    reference = _metadata_by_id(apply_events(METADATA_EVENTS).message_dicts)
    assert reference["a1"] == {"model": "m", "n": 2, "done": True}  # AG-UI's shallow merge
    assembler = assemble_with_mirror(METADATA_EVENTS)
    ours = _metadata_by_id(to_agui_messages_wire(assembler.messages))
    assert ours == reference
    user, answer = assembler.messages[-2:]  # (the run opened an assistant message before the user spoke)
    assert user["metadata"] == {"ag-ui": {"metadata": {"lang": "en", "typed": True}}}
    parts = {p["type"]: p for p in answer["parts"]}
    assert parts["text"]["providerMetadata"] == {"ag-ui": {"messageId": "a1", "metadata": reference["a1"]}}
    assert parts["reasoning"]["providerMetadata"]["ag-ui"]["metadata"] == {"model": "m", "step": 2}
    tool = parts["tool-f"]
    assert tool["callProviderMetadata"] == {
        "ag-ui": {
            "parentMessageId": "a1",
            "metadata": {"origin": "model", "args": "streamed", "ended": True},
            "encryptedValue": "enc",
        }
    }
    assert tool["resultProviderMetadata"]["ag-ui"]["metadata"] == {"cached": False}
    assert parts["data-plan"]["providerMetadata"] == {"ag-ui": {"metadata": {"v": 2, "w": 1}}}
    assert parts["data-plan"]["data"] == {"steps": ["a"]}
    # The one-shot conversion merges runs of deltas: never one that carries metadata.
    assert ui_message_dicts_from_events(METADATA_EVENTS) == assembler.messages
