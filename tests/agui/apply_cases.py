"""Event sequences for the reducer's differential tests, one per behaviour of @ag-ui/client's defaultApplyEvents."""

from __future__ import annotations

from typing import Any

T, R = "thread-1", "run-1"


def run_started(run_id: str = R, **fields: Any) -> dict[str, Any]:
    return {"type": "RUN_STARTED", "threadId": T, "runId": run_id, **fields}


def run_finished(run_id: str = R, **fields: Any) -> dict[str, Any]:
    return {"type": "RUN_FINISHED", "threadId": T, "runId": run_id, **fields}


def text(message_id: str, *deltas: Any, role: str | None = None, **fields: Any) -> list[dict[str, Any]]:
    start = {"type": "TEXT_MESSAGE_START", "messageId": message_id, **fields}
    if role is not None:
        start["role"] = role
    return [
        start,
        *({"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": d} for d in deltas),
        {"type": "TEXT_MESSAGE_END", "messageId": message_id},
    ]


def tool(
    call_id: str, name: str, *deltas: Any, parent: str | None = None, **fields: Any
) -> list[dict[str, Any]]:
    start = {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": name, **fields}
    if parent is not None:
        start["parentMessageId"] = parent
    return [
        start,
        *({"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": d} for d in deltas),
        {"type": "TOOL_CALL_END", "toolCallId": call_id},
    ]


def result(call_id: str, message_id: str, content: Any = "ok", **fields: Any) -> dict[str, Any]:
    return {
        "type": "TOOL_CALL_RESULT",
        "messageId": message_id,
        "toolCallId": call_id,
        "content": content,
        **fields,
    }


def reasoning(message_id: str, *deltas: Any, **fields: Any) -> list[dict[str, Any]]:
    return [
        {"type": "REASONING_START", "messageId": message_id},
        {"type": "REASONING_MESSAGE_START", "messageId": message_id, "role": "reasoning", **fields},
        *({"type": "REASONING_MESSAGE_CONTENT", "messageId": message_id, "delta": d} for d in deltas),
        {"type": "REASONING_MESSAGE_END", "messageId": message_id},
        {"type": "REASONING_END", "messageId": message_id},
    ]


def activity(
    message_id: str, content: dict[str, Any], activity_type: str = "plan", **fields: Any
) -> dict[str, Any]:
    return {
        "type": "ACTIVITY_SNAPSHOT",
        "messageId": message_id,
        "activityType": activity_type,
        "content": content,
        **fields,
    }


def activity_delta(
    message_id: str, patch: list[Any], activity_type: str = "plan", **fields: Any
) -> dict[str, Any]:
    return {
        "type": "ACTIVITY_DELTA",
        "messageId": message_id,
        "activityType": activity_type,
        "patch": patch,
        **fields,
    }


def run(*parts: Any, run_id: str = R, finished: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = [run_started(run_id)]
    for part in parts:
        events.extend(part if isinstance(part, list) else [part])
    events.append(finished if finished is not None else run_finished(run_id))
    return events


def flat(*parts: Any) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for part in parts:
        events.extend(part if isinstance(part, list) else [part])
    return events


USER = {"id": "u1", "role": "user", "content": "What's the weather?"}
SNAPSHOT_HISTORY = [
    USER,
    {
        "id": "a1",
        "role": "assistant",
        "content": "Let me check.",
        "toolCalls": [
            {
                "id": "c1",
                "type": "function",
                "function": {"name": "weather", "arguments": '{"city":"Paris"}'},
            },
        ],
    },
    {"id": "t1", "role": "tool", "toolCallId": "c1", "content": "sunny"},
]

CASES: dict[str, dict[str, Any]] = {
    # -- text ---------------------------------------------------------------------------------------------------
    "text-simple": {"events": run(text("m1", "Hel", "lo"))},
    "text-roles-and-name": {
        "events": run(
            text("m1", "be brief", role="system"),
            text("m2", "hi", role="user", name="ann"),
            text("m3", "dev", role="developer"),
        )
    },
    "text-empty-deltas": {"events": run(text("m1", "", "a", ""))},
    "text-reopened-id-appends": {"events": run(text("m1", "a"), text("m1", "b"))},
    "text-into-initial-user-message": {"events": run(text("u1", "!")), "messages": [USER]},
    "text-into-user-parts": {
        "events": run(text("u2", "x")),
        "messages": [{"id": "u2", "role": "user", "content": [{"type": "text", "text": "hi"}]}],
    },
    "text-on-activity-id-dropped": {
        "events": run(activity("m1", {"a": 1}), text("m1", "text", metadata={"k": 1}))
    },
    "text-subagent-tag": {
        "events": run(
            {"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "helper"},
            text("m1", "x", subagentRunId="s1"),
            {"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"},
        )
    },
    "text-unicode": {"events": run(text("m1", "héllo ", "🌍", " 世界"))},
    # -- tool calls ---------------------------------------------------------------------------------------------
    "tool-with-text-parent": {
        "events": run(
            text("m1", "Checking."),
            tool("c1", "weather", '{"city":', '"Paris"}', parent="m1"),
            result("c1", "t1", "sunny"),
        )
    },
    "tool-without-parent": {"events": run(tool("c1", "weather", "{}"), result("c1", "t1"))},
    "tool-parent-not-found": {
        "events": run(tool("c1", "weather", "{}", parent="m9"), tool("c2", "time", "{}", parent="m9"))
    },
    "tool-parent-is-user": {"events": run(tool("c1", "weather", "{}", parent="u1")), "messages": [USER]},
    "tool-empty-parent-id": {"events": run(tool("c1", "weather", "{}", parent=""))},
    "tool-parallel-results-in-order": {
        "events": run(
            text("m1", "Both."),
            tool("c1", "weather", '{"city":"Paris"}', parent="m1"),
            tool("c2", "weather", '{"city":"Oslo"}', parent="m1"),
            result("c2", "t2", "snowy"),
            result("c1", "t1", "sunny"),
        )
    },
    "tool-result-after-follow-up-text": {
        "events": run(
            text("m1", "."), tool("c1", "f", "{}", parent="m1"), text("m2", "meanwhile"), result("c1", "t1")
        )
    },
    "tool-result-for-unknown-call": {"events": run(text("m1", "x"), result("c9", "t9", "orphan"))},
    "tool-result-parts-and-role": {
        "events": run(
            tool("c1", "img", "{}"),
            result(
                "c1",
                "t1",
                [
                    {"type": "text", "text": "see"},
                    {"type": "image", "source": {"type": "url", "value": "https://x/y.png"}},
                ],
                role="tool",
            ),
        )
    },
    "tool-replayed-start-renames": {"events": run(tool("c1", "old", '{"a":1}'), tool("c1", "new"))},
    "tool-args-interleaved": {
        "events": run(
            {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"},
            {"type": "TOOL_CALL_START", "toolCallId": "c2", "toolCallName": "g"},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"a"'},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c2", "delta": '{"b"'},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": ":1}"},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c2", "delta": ":2}"},
            {"type": "TOOL_CALL_END", "toolCallId": "c2"},
            {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        )
    },
    "tool-args-on-snapshot-call": {
        "events": flat(
            run_started(),
            {"type": "MESSAGES_SNAPSHOT", "messages": SNAPSHOT_HISTORY},
            {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "weather"},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": " "},
            {"type": "TOOL_CALL_END", "toolCallId": "c1"},
            run_finished(),
        )
    },
    "tool-subagent-created-assistant": {
        "events": run(
            {"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "h"},
            tool("c1", "f", "{}", subagentRunId="s1"),
            {"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"},
        )
    },
    # -- state --------------------------------------------------------------------------------------------------
    "state-snapshot-and-deltas": {
        "events": run(
            {"type": "STATE_SNAPSHOT", "snapshot": {"todo": ["a"], "done": [], "n": 0}},
            {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/todo/-", "value": "b"}]},
            {
                "type": "STATE_DELTA",
                "delta": [
                    {"op": "move", "from": "/todo/0", "path": "/done/-"},
                    {"op": "replace", "path": "/n", "value": 1},
                ],
            },
            {
                "type": "STATE_DELTA",
                "delta": [{"op": "test", "path": "/n", "value": 1}, {"op": "remove", "path": "/todo"}],
            },
        )
    },
    "state-failing-delta-is-atomic": {
        "events": run(
            {"type": "STATE_SNAPSHOT", "snapshot": {"a": 1}},
            {
                "type": "STATE_DELTA",
                "delta": [{"op": "add", "path": "/b", "value": 2}, {"op": "remove", "path": "/zz"}],
            },
            {
                "type": "STATE_DELTA",
                "delta": [{"op": "test", "path": "/a", "value": 2}, {"op": "add", "path": "/c", "value": 3}],
            },
            {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/d", "value": 4}]},
        )
    },
    "state-delta-on-initial-state": {
        "events": run({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/x", "value": [1]}]}),
        "state": {"keep": True},
    },
    "state-root-replace-and-falsy-snapshot": {
        "events": run(
            {"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "", "value": [1, 2]}]},
            {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/0", "value": 0}]},
            {"type": "STATE_SNAPSHOT", "snapshot": 0},
        )
    },
    "invalid-state-snapshot-without-snapshot": {
        # The client's reducer sets its working state to undefined, which is no state change: the state it
        # shows stays, and the next patch applies to nothing (only a root replacement succeeds).
        "events": run(
            {"type": "STATE_SNAPSHOT", "snapshot": {"a": 1}},
            {"type": "STATE_SNAPSHOT"},
            {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/x", "value": 2}]},
        ),
        "state": {"s": 0},
    },
    "invalid-state-snapshot-without-snapshot-then-root-patch": {
        "events": run(
            {"type": "STATE_SNAPSHOT"},
            {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "", "value": {"z": 1}}]},
        ),
        "state": {"s": 0},
    },
    "invalid-reasoning-message-start-without-role": {
        "events": run(
            {"type": "REASONING_START", "messageId": "r1"},
            {"type": "REASONING_MESSAGE_START", "messageId": "m1"},
            {"type": "REASONING_MESSAGE_CONTENT", "messageId": "m1", "delta": "hm"},
            {"type": "REASONING_MESSAGE_END", "messageId": "m1"},
            {"type": "REASONING_END", "messageId": "r1"},
        )
    },
    "invalid-state-delta-not-an-array": {
        "events": run(
            {"type": "STATE_SNAPSHOT", "snapshot": {"a": 1}},
            {"type": "STATE_DELTA", "delta": {"op": "add", "path": "/b", "value": 1}},
        )
    },
    # -- messages snapshots -------------------------------------------------------------------------------------
    "snapshot-replaces-and-appends": {
        "events": run(
            text("a1", "draft"),
            {"type": "MESSAGES_SNAPSHOT", "messages": SNAPSHOT_HISTORY},
            text("m2", "after"),
        ),
        "messages": [USER],
    },
    "snapshot-drops-messages-it-omits": {
        "events": run(text("m1", "gone"), {"type": "MESSAGES_SNAPSHOT", "messages": [USER]})
    },
    "snapshot-keeps-local-reasoning-and-activity": {
        "events": run(
            reasoning("r1", "thinking"),
            activity("act1", {"step": 1}),
            text("m1", "answer"),
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [USER, {"id": "m1", "role": "assistant", "content": "answer (final)"}],
            },
        )
    },
    "snapshot-with-reasoning-owns-reasoning": {
        "events": run(
            reasoning("r1", "streamed"),
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [USER, {"id": "r-canonical", "role": "reasoning", "content": "streamed"}],
            },
        )
    },
    "snapshot-with-activity-owns-activity": {
        "events": run(
            activity("act1", {"a": 1}),
            activity("act2", {"b": 1}, activity_type="search"),
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [{"id": "act3", "role": "activity", "activityType": "plan", "content": {}}],
            },
        )
    },
    "snapshot-authoritative-activity-types": {
        "events": run(
            activity("act1", {"a": 1}),
            activity("act2", {"b": 1}, activity_type="search"),
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [],
                "metadata": {"@ag-ui/client": {"authoritativeActivityTypes": ["plan"]}},
            },
        )
    },
    "snapshot-authoritative-null-owns-all": {
        "events": run(
            activity("act1", {"a": 1}),
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [],
                "metadata": {"@ag-ui/client": {"authoritativeActivityTypes": None}},
            },
        )
    },
    "snapshot-authoritative-invalid-owns-none": {
        "events": run(
            activity("act1", {"a": 1}),
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [{"id": "act9", "role": "activity", "activityType": "plan", "content": {}}],
                "metadata": {"@ag-ui/client": "yes"},
            },
        )
    },
    "snapshot-then-stream-into-snapshot-message": {
        "events": flat(
            run_started(),
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [USER, {"id": "m1", "role": "assistant", "content": "Hel"}],
            },
            {"type": "TEXT_MESSAGE_START", "messageId": "m1"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "lo"},
            {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
            run_finished(),
        )
    },
    "snapshot-legacy-binary-part": {
        "events": run(
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [
                    {
                        "id": "u1",
                        "role": "user",
                        "content": [
                            {"type": "text", "text": "look"},
                            {"type": "binary", "mimeType": "image/png", "data": "iVBOR", "filename": "a.png"},
                            {"type": "binary", "mimeType": "application/pdf", "url": "https://x/doc.pdf"},
                        ],
                    }
                ],
            },
        )
    },
    # -- activities ---------------------------------------------------------------------------------------------
    "activity-snapshot-and-deltas": {
        "events": run(
            activity("act1", {"steps": [{"title": "search", "done": False}]}),
            activity_delta("act1", [{"op": "replace", "path": "/steps/0/done", "value": True}]),
            activity_delta(
                "act1",
                [{"op": "add", "path": "/steps/-", "value": {"title": "write", "done": False}}],
                activity_type="plan-v2",
            ),
        )
    },
    "activity-replace-false-keeps-content": {
        "events": run(
            activity("act1", {"a": 1}), activity("act1", {"b": 2}, replace=False, metadata={"m": 1})
        )
    },
    "activity-replace-true-replaces": {
        "events": run(
            activity("act1", {"a": 1}, metadata={"x": 1}),
            activity("act1", {"b": 2}, activity_type="other", replace=True, metadata={"y": 2}),
        )
    },
    "activity-replace-on-text-message": {
        "events": run(text("m1", "x"), activity("m1", {"a": 1}), text("m2", "y"))
    },
    "activity-no-replace-on-text-message": {
        "events": run(text("m1", "x"), activity("m1", {"a": 1}, replace=False))
    },
    "activity-failing-delta-keeps-metadata": {
        "events": run(
            activity("act1", {"a": 1}),
            activity_delta("act1", [{"op": "remove", "path": "/zz"}], metadata={"usage": 1}),
        )
    },
    "activity-delta-unknown-and-non-activity": {
        "events": run(
            text("m1", "x"),
            activity_delta("m1", [{"op": "add", "path": "/a", "value": 1}]),
            activity_delta("nope", []),
        )
    },
    "activity-subagent-reowned-by-replace": {
        "events": run(activity("act1", {"a": 1}, subagentRunId="s1"), activity("act1", {"a": 2}))
    },
    # -- reasoning and encrypted values -------------------------------------------------------------------------
    "reasoning-message": {
        "events": run(reasoning("r1", "The user ", "wants weather."), text("m1", "Sunny."))
    },
    "reasoning-encrypted-on-message-and-tool-call": {
        "events": run(
            reasoning("r1", "x"),
            {
                "type": "REASONING_ENCRYPTED_VALUE",
                "subtype": "message",
                "entityId": "r1",
                "encryptedValue": "enc-r",
            },
            text("m1", "a"),
            tool("c1", "f", "{}", parent="m1"),
            {
                "type": "REASONING_ENCRYPTED_VALUE",
                "subtype": "tool-call",
                "entityId": "c1",
                "encryptedValue": "enc-c",
            },
            {
                "type": "REASONING_ENCRYPTED_VALUE",
                "subtype": "message",
                "entityId": "m1",
                "encryptedValue": "enc-m",
            },
        )
    },
    "reasoning-encrypted-on-activity-and-unknown": {
        "events": run(
            activity("act1", {}),
            {
                "type": "REASONING_ENCRYPTED_VALUE",
                "subtype": "message",
                "entityId": "act1",
                "encryptedValue": "x",
            },
            {
                "type": "REASONING_ENCRYPTED_VALUE",
                "subtype": "tool-call",
                "entityId": "nope",
                "encryptedValue": "y",
            },
        )
    },
    # -- metadata -----------------------------------------------------------------------------------------------
    "metadata-accumulates-per-key": {
        "events": run(
            {"type": "TEXT_MESSAGE_START", "messageId": "m1", "metadata": {"a": 1, "b": {"x": 1}}},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "x", "metadata": {"b": {"y": 2}}},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "y"},
            {"type": "TEXT_MESSAGE_END", "messageId": "m1", "metadata": {"usage": {"out": 2}, "ag-ui": [1]}},
        )
    },
    "metadata-on-tool-calls-not-parent": {
        "events": run(
            text("m1", "x"),
            {
                "type": "TOOL_CALL_START",
                "toolCallId": "c1",
                "toolCallName": "f",
                "parentMessageId": "m1",
                "metadata": {"s": 1},
            },
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{}", "metadata": {"a": 1}},
            {"type": "TOOL_CALL_END", "toolCallId": "c1", "metadata": {"e": 1}},
            result("c1", "t1", metadata={"r": 1}),
        )
    },
    "metadata-on-reasoning-and-run-events-ignored": {
        "events": flat(
            run_started(metadata={"run": 1}),
            {"type": "REASONING_MESSAGE_START", "messageId": "r1", "role": "reasoning", "metadata": {"a": 1}},
            {"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "x", "metadata": {"b": 1}},
            {"type": "REASONING_MESSAGE_END", "messageId": "r1", "metadata": {"c": 1}},
            {"type": "STATE_SNAPSHOT", "snapshot": {}, "metadata": {"s": 1}},
            {"type": "STEP_STARTED", "stepName": "s", "metadata": {"x": 1}},
            {"type": "STEP_FINISHED", "stepName": "s"},
            run_finished(metadata={"done": 1}),
        )
    },
    "metadata-empty-object": {
        "events": run(
            {"type": "TEXT_MESSAGE_START", "messageId": "m1", "metadata": {}},
            {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
        )
    },
    # -- runs and interrupts ------------------------------------------------------------------------------------
    "interrupt-outcome": {
        "events": run(
            text("m1", "Need approval."),
            tool("c1", "delete", "{}", parent="m1"),
            finished=run_finished(
                outcome={
                    "type": "interrupt",
                    "interrupts": [
                        {
                            "id": "i1",
                            "reason": "tool_approval",
                            "toolCallId": "c1",
                            "message": "Delete?",
                            "responseSchema": {"type": "object"},
                        },
                        {"id": "i2", "reason": "input", "metadata": {"k": 1}},
                    ],
                }
            ),
        )
    },
    "interrupt-then-resumed-run-clears": {
        "events": flat(
            run(
                text("m1", "?"),
                finished=run_finished(
                    outcome={"type": "interrupt", "interrupts": [{"id": "i1", "reason": "x"}]}
                ),
            ),
            run(text("m2", "done"), run_id="run-2"),
        )
    },
    "interrupt-survives-run-error": {
        "events": flat(
            run(
                finished=run_finished(
                    outcome={"type": "interrupt", "interrupts": [{"id": "i1", "reason": "x"}]}
                )
            ),
            run_started("run-2"),
            {"type": "RUN_ERROR", "message": "boom"},
        )
    },
    "cancelled-outcome": {
        "events": run(text("m1", "par"), finished=run_finished(outcome={"type": "cancelled"}))
    },
    "several-runs-with-input-echo": {
        "events": flat(
            run(text("m1", "first")),
            run_started(
                "run-2",
                input={
                    "threadId": T,
                    "runId": "run-2",
                    "messages": [
                        USER,
                        {"id": "m1", "role": "assistant", "content": "first (echo)"},
                        {"id": "u2", "role": "user", "content": "again"},
                    ],
                },
            ),
            text("m2", "second"),
            run_finished("run-2"),
        )
    },
    "run-error-mid-stream": {
        "events": flat(
            run_started(),
            text("m1", "par"),
            {"type": "RUN_ERROR", "message": "model exploded", "code": "500"},
        )
    },
    "steps-and-custom-and-raw": {
        "events": run(
            {"type": "STEP_STARTED", "stepName": "plan"},
            {"type": "CUSTOM", "name": "x", "value": {"y": 1}},
            {"type": "RAW", "event": {"provider": "native"}, "source": "openai"},
            text("m1", "x"),
            {"type": "STEP_FINISHED", "stepName": "plan"},
        )
    },
    "subagents-nested": {
        "events": run(
            {
                "type": "SUBAGENT_STARTED",
                "subagentRunId": "s1",
                "name": "researcher",
                "parentToolCallId": "c0",
            },
            {
                "type": "SUBAGENT_STARTED",
                "subagentRunId": "s2",
                "name": "reader",
                "parentSubagentRunId": "s1",
            },
            text("m1", "inner", subagentRunId="s2"),
            {
                "type": "SUBAGENT_FINISHED",
                "subagentRunId": "s2",
                "outcome": {"type": "success"},
                "result": {"n": 1},
            },
            {"type": "SUBAGENT_ERROR", "subagentRunId": "s1", "message": "gave up"},
        )
    },
    # -- chunks and legacy shapes -------------------------------------------------------------------------------
    "chunks-text-tool-reasoning": {
        "events": run(
            {"type": "REASONING_MESSAGE_CHUNK", "messageId": "r1", "delta": "hm"},
            {"type": "REASONING_MESSAGE_CHUNK", "delta": "m"},
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "Let me "},
            {"type": "TEXT_MESSAGE_CHUNK", "delta": "check.", "metadata": {"k": 1}},
            {
                "type": "TOOL_CALL_CHUNK",
                "toolCallId": "c1",
                "toolCallName": "f",
                "parentMessageId": "m1",
                "delta": '{"a"',
            },
            {"type": "TOOL_CALL_CHUNK", "delta": ":1}"},
            {"type": "TOOL_CALL_CHUNK", "metadata": {"final": True}},
            result("c1", "t1"),
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m2", "delta": "Done."},
        )
    },
    "chunks-subagent-lanes": {
        "events": run(
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "p"},
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m2", "delta": "s", "subagentRunId": "s1"},
            {"type": "TEXT_MESSAGE_CHUNK", "delta": "p2"},
            {"type": "TEXT_MESSAGE_CHUNK", "delta": "s2", "subagentRunId": "s1"},
        )
    },
    "legacy-thinking-events": {
        "events": run(
            {"type": "THINKING_START", "title": "plan"},
            {"type": "THINKING_TEXT_MESSAGE_START"},
            {"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "old "},
            {"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "style"},
            {"type": "THINKING_TEXT_MESSAGE_END"},
            {"type": "THINKING_END"},
            text("m1", "ok"),
        )
    },
    "legacy-nulls": {
        "events": flat(
            run_started(rawEvent=None),
            {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": None},
            {"type": "TOOL_CALL_END", "toolCallId": "c1"},
            run_finished(outcome=None, result=None),
        )
    },
    # -- streams cut off mid-way --------------------------------------------------------------------------------
    "cut-mid-text": {
        "events": [
            run_started(),
            {"type": "TEXT_MESSAGE_START", "messageId": "m1"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "par"},
        ]
    },
    "cut-mid-tool-args": {
        "events": [
            run_started(),
            *text("m1", "x"),
            {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f", "parentMessageId": "m1"},
            {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"ci'},
        ]
    },
    "cut-mid-chunks": {
        "events": [
            run_started(),
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "a"},
            {"type": "TEXT_MESSAGE_CHUNK", "delta": "b"},
        ]
    },
    "cut-after-run-started": {"events": [run_started()]},
    "empty": {"events": []},
    # -- sequences the client's verification rejects (compared with the bare reducer) ---------------------------
    "invalid-content-without-start": {
        "events": run({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "x"}, text("m2", "ok"))
    },
    "invalid-no-run-started": {"events": flat(text("m1", "x"), tool("c1", "f", "{}", parent="m1"))},
    "invalid-args-for-unknown-call": {
        "events": run({"type": "TOOL_CALL_ARGS", "toolCallId": "c9", "delta": "{}"}, text("m1", "x"))
    },
    "invalid-events-after-finish": {"events": flat(run(text("m1", "a")), text("m2", "after"))},
    "unknown-event-type-dropped": {
        "events": run({"type": "TEXT_MESSAGE_DELTA", "messageId": "m1", "delta": "x"}, text("m1", "ok"))
    },
    "invalid-chunk-without-id": {
        "events": run(text("m0", "before"), {"type": "TEXT_MESSAGE_CHUNK", "delta": "x"}, text("m1", "after"))
    },
    "invalid-null-subagent-interrupt": {
        "events": run(
            finished=run_finished(
                outcome={
                    "type": "interrupt",
                    "interrupts": [{"id": "i1", "reason": "x", "subagentRunId": None}],
                }
            )
        )
    },
    "invalid-snapshot-null-subagent": {
        "events": run(
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [{"id": "u1", "role": "user", "content": "x", "subagentRunId": None}],
            }
        )
    },
    "invalid-non-string-deltas": {
        # The schema wants string deltas; the reducer appends any other JSON value as `${delta}` does.
        "events": run(
            text(
                "m1",
                "n=",
                1.0,
                1e22,
                1e-7,
                12345678901234567890,
                -0.0,
                [1, None, [2.5]],
                {"a": 1},
                True,
                None,
            ),
            tool("c1", "f", 2.0, [3, 4.5], parent="m1"),
            reasoning("r1", 0.5, 100.0),
        )
    },
    "invalid-run-finished-with-open-message": {
        "events": flat(
            run_started(), {"type": "TEXT_MESSAGE_START", "messageId": "m1"}, run_finished(), text("m2", "x")
        )
    },
}
