"""ChunkExpander against @ag-ui/client's transformChunks, run through node on the same event sequences."""

from __future__ import annotations

from typing import Any

import pytest

from agui_notebook.agui._expand import ChunkExpander, ChunkExpansionError

RUN_STARTED = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}
RUN_FINISHED = {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}


def text(delta: str | None = None, **fields: Any) -> dict[str, Any]:
    event = {"type": "TEXT_MESSAGE_CHUNK", **fields}
    if delta is not None:
        event["delta"] = delta
    return event


def tool(delta: str | None = None, **fields: Any) -> dict[str, Any]:
    event = {"type": "TOOL_CALL_CHUNK", **fields}
    if delta is not None:
        event["delta"] = delta
    return event


def reasoning(delta: str | None = None, **fields: Any) -> dict[str, Any]:
    event = {"type": "REASONING_MESSAGE_CHUNK", **fields}
    if delta is not None:
        event["delta"] = delta
    return event


CASES: dict[str, list[dict[str, Any]]] = {
    "text-continuations": [RUN_STARTED, text("Hel", messageId="m1"), text("lo"), text("!"), RUN_FINISHED],
    "text-role-name": [
        text("a", messageId="m1", role="user", name="ann"),
        text("b", role="user"),
        RUN_FINISHED,
    ],
    "text-new-id-closes-previous": [
        text("a", messageId="m1"),
        text("b", messageId="m2"),
        text("c", messageId="m2"),
    ],
    "text-back-to-closed-id": [
        text("a", messageId="m1"),
        text("b", messageId="m2"),
        text("c", messageId="m1"),
    ],
    "text-opener-without-delta": [text(messageId="m1"), text("x"), RUN_FINISHED],
    "text-metadata-only-continuation": [
        text("a", messageId="m1", metadata={"k": 1}),
        text(metadata={"usage": 3}),
        RUN_FINISHED,
    ],
    "text-raw-event-only": [text(messageId="m1", rawEvent={"p": 1}), text(rawEvent={"p": 2})],
    "text-unknown-property-rides-content": [text("a", messageId="m1", extra=1), text("b", other=True)],
    "text-unknown-property-on-opener-only": [text(messageId="m1", extra=1)],
    "text-unknown-property-only-continuation": [text("a", messageId="m1"), text(extra=2)],
    "text-closed-by-explicit-event": [
        text("a", messageId="m1"),
        {"type": "STATE_SNAPSHOT", "snapshot": {}},
        text("b", messageId="m2"),
        {"type": "CUSTOM", "name": "c", "value": 1},
    ],
    "text-not-closed-by-raw-or-activity": [
        text("a", messageId="m1"),
        {"type": "RAW", "event": {}},
        {"type": "ACTIVITY_SNAPSHOT", "messageId": "a1", "activityType": "x", "content": {}},
        text("b"),
    ],
    "text-closed-by-messages-snapshot": [
        text("a", messageId="m1"),
        {"type": "MESSAGES_SNAPSHOT", "messages": []},
    ],
    "text-then-tool-same-lane": [
        text("a", messageId="m1"),
        tool('{"a"', toolCallId="c1", toolCallName="f", parentMessageId="m1"),
        tool(":1}"),
        text("b", messageId="m2"),
        RUN_FINISHED,
    ],
    "tool-metadata-and-raw": [
        tool(toolCallId="c1", toolCallName="f", metadata={"a": 1}),
        tool("{}", rawEvent=[1]),
        tool(metadata={"b": 2}),
        RUN_FINISHED,
    ],
    "tool-repeat-agreeing-name": [tool("{", toolCallId="c1", toolCallName="f"), tool("}", toolCallName="f")],
    "reasoning-stream": [
        {"type": "REASONING_START", "messageId": "r0"},
        reasoning("think", messageId="r1"),
        reasoning("ing"),
        {"type": "REASONING_END", "messageId": "r0"},
        RUN_FINISHED,
    ],
    "reasoning-metadata-only": [reasoning(messageId="r1", metadata={"m": 1}), reasoning(metadata={"n": 2})],
    "subagent-lanes-interleaved": [
        RUN_STARTED,
        text("p", messageId="m1"),
        text("s", messageId="m2", subagentRunId="s1"),
        text("p2"),
        text("s2", subagentRunId="s1"),
        {"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"},
        text("p3"),
        RUN_FINISHED,
    ],
    "subagent-opener-only-tagging": [
        text("s", messageId="m2", subagentRunId="s1"),
        text("more"),
        RUN_FINISHED,
    ],
    "subagent-continuation-by-id": [
        tool("{", toolCallId="c1", toolCallName="f", subagentRunId="s1"),
        tool("}", toolCallId="c1"),
        {"type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "c1", "content": "ok"},
        {"type": "SUBAGENT_ERROR", "subagentRunId": "s1", "message": "boom"},
    ],
    "explicit-event-closes-only-its-lane": [
        text("p", messageId="m1"),
        text("s", messageId="m2", subagentRunId="s1"),
        {"type": "STEP_STARTED", "stepName": "x", "subagentRunId": "s1"},
        text("p again"),
        RUN_FINISHED,
    ],
    "error-first-text-without-id": [RUN_STARTED, text("a")],
    "error-first-tool-without-name": [tool("{", toolCallId="c1")],
    "error-first-reasoning-without-id": [reasoning("x")],
    "error-conflicting-role": [text("a", messageId="m1"), text("b", role="user")],
    "error-conflicting-tool-name": [
        tool("{", toolCallId="c1", toolCallName="f"),
        tool("}", toolCallName="g"),
    ],
    "error-conflicting-parent": [
        tool("{", toolCallId="c1", toolCallName="f", parentMessageId="p1"),
        tool("}", parentMessageId="p2"),
    ],
    "error-tag-disagrees-with-lane": [
        text("a", messageId="m1", subagentRunId="s1"),
        text("b", messageId="m1", subagentRunId="s2"),
    ],
    "error-ambiguous-continuation": [
        text("a", messageId="m1", subagentRunId="s1"),
        text("b", messageId="m2", subagentRunId="s2"),
        text("c"),
    ],
}


def expand(events: list[dict[str, Any]]) -> dict[str, Any]:
    expander = ChunkExpander()
    out: list[dict[str, Any]] = []
    try:
        for event in events:
            out.extend(expander.feed(event))
    except ChunkExpansionError as exc:
        return {"events": out, "error": str(exc)}
    return {"events": out}


@pytest.fixture(scope="module")
def reference(request: pytest.FixtureRequest) -> dict[str, dict[str, Any]]:
    from tests.support.node import run_node_reference

    results = run_node_reference("agui_chunks.mjs", {"cases": list(CASES.values())})
    return dict(zip(CASES, results, strict=True))


@pytest.mark.node
@pytest.mark.parametrize("name", list(CASES))
def test_expansion_matches_transform_chunks(name: str, reference: dict[str, dict[str, Any]]) -> None:
    ours = expand(CASES[name])
    theirs = reference[name]
    assert ours["events"] == theirs["events"]
    assert ("error" in ours) == ("error" in theirs), (ours.get("error"), theirs.get("error"))


def test_end_of_input_closes_nothing() -> None:
    assert [e["type"] for e in expand([text("a", messageId="m1")])["events"]] == [
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
    ]


def test_error_messages_name_the_problem() -> None:
    assert expand(CASES["error-conflicting-role"])["error"] == (
        "cannot continue text message 'm1': chunk role 'user' does not match the open stream's role 'assistant'"
    )
    assert (
        expand(CASES["error-first-tool-without-name"])["error"]
        == "first TOOL_CALL_CHUNK must have a toolCallName"
    )
