"""Random event sequences (colliding ids, any order, snapshots, failing patches) against the client's reducer."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from agui_notebook.agui._apply import apply_events
from tests.support.node import run_node_reference

MESSAGE_IDS = ["m1", "m2", "m3", "act1", "c1"]
TOOL_CALL_IDS = ["c1", "c2", "c3"]
ROLES = ["assistant", "user", "system", None]


def _metadata(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.25:
        return {"metadata": rng.choice([{"a": rng.randint(0, 3)}, {"b": [1]}, {}])}
    return {}


def _patch(rng: random.Random) -> list[dict[str, Any]]:
    return rng.choice(
        [
            [{"op": "add", "path": "/x", "value": rng.randint(0, 9)}],
            [{"op": "add", "path": "/list", "value": []}, {"op": "add", "path": "/list/-", "value": "v"}],
            [{"op": "replace", "path": "/x", "value": "r"}],
            [{"op": "remove", "path": "/x"}],
            [{"op": "add", "path": "/list/0", "value": 1}],
            [{"op": "test", "path": "/x", "value": 1}, {"op": "add", "path": "/y", "value": True}],
            [{"op": "move", "from": "/x", "path": "/z"}],
        ]
    )


def _snapshot_messages(rng: random.Random) -> list[dict[str, Any]]:
    pool = [
        {"id": "m1", "role": "assistant", "content": "snap"},
        {"id": "m2", "role": "user", "content": [{"type": "text", "text": "hi"}]},
        {
            "id": "a9",
            "role": "assistant",
            "toolCalls": [{"id": "c2", "type": "function", "function": {"name": "g", "arguments": "{}"}}],
        },
        {"id": "t9", "role": "tool", "toolCallId": "c2", "content": "x"},
        {"id": "r9", "role": "reasoning", "content": "why"},
        {"id": "act1", "role": "activity", "activityType": "plan", "content": {"s": 1}},
    ]
    return [copy.deepcopy(m) for m in pool if rng.random() < 0.4]


def random_sequence(rng: random.Random, length: int) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for _ in range(length):
        kind = rng.randrange(20)
        mid, cid = rng.choice(MESSAGE_IDS), rng.choice(TOOL_CALL_IDS)
        meta = _metadata(rng)
        if kind == 0:
            event = {"type": "TEXT_MESSAGE_START", "messageId": mid, **meta}
            role = rng.choice(ROLES)
            if role:
                event["role"] = role
        elif kind in (1, 2):
            event = {
                "type": "TEXT_MESSAGE_CONTENT",
                "messageId": mid,
                "delta": rng.choice(["a", "b ", "", "é"]),
                **meta,
            }
        elif kind == 3:
            event = {"type": "TEXT_MESSAGE_END", "messageId": mid, **meta}
        elif kind == 4:
            event = {
                "type": "TOOL_CALL_START",
                "toolCallId": cid,
                "toolCallName": rng.choice(["f", "g"]),
                **meta,
            }
            if rng.random() < 0.6:
                event["parentMessageId"] = mid
        elif kind in (5, 6):
            event = {
                "type": "TOOL_CALL_ARGS",
                "toolCallId": cid,
                "delta": rng.choice(["{", "}", '"k"', ":1"]),
                **meta,
            }
        elif kind == 7:
            event = {"type": "TOOL_CALL_END", "toolCallId": cid, **meta}
        elif kind == 8:
            event = {
                "type": "TOOL_CALL_RESULT",
                "toolCallId": cid,
                "messageId": rng.choice(["t1", "t2", "m1"]),
                "content": "r",
                **meta,
            }
        elif kind == 9:
            event = {
                "type": "REASONING_MESSAGE_START",
                "messageId": rng.choice(["r1", "r2", mid]),
                "role": "reasoning",
                **meta,
            }
        elif kind == 10:
            event = {
                "type": "REASONING_MESSAGE_CONTENT",
                "messageId": rng.choice(["r1", "r2", mid]),
                "delta": "t",
                **meta,
            }
        elif kind == 11:
            subtype = rng.choice(["message", "tool-call"])
            entity = rng.choice(MESSAGE_IDS + TOOL_CALL_IDS + ["r1"])
            event = {
                "type": "REASONING_ENCRYPTED_VALUE",
                "subtype": subtype,
                "entityId": entity,
                "encryptedValue": "e",
            }
        elif kind == 12:
            event = {
                "type": "ACTIVITY_SNAPSHOT",
                "messageId": rng.choice(["act1", "act2", mid]),
                "activityType": "plan",
                "content": {"x": 1},
                **meta,
            }
            if rng.random() < 0.5:
                event["replace"] = rng.choice([True, False])
        elif kind == 13:
            event = {
                "type": "ACTIVITY_DELTA",
                "messageId": rng.choice(["act1", "act2"]),
                "activityType": rng.choice(["plan", "plan2"]),
                "patch": _patch(rng),
                **meta,
            }
        elif kind == 14:
            event = {"type": "STATE_SNAPSHOT", "snapshot": rng.choice([{"x": 1}, {"list": []}, {}])}
        elif kind == 15:
            event = {"type": "STATE_DELTA", "delta": _patch(rng)}
        elif kind == 16:
            event = {"type": "MESSAGES_SNAPSHOT", "messages": _snapshot_messages(rng)}
            if rng.random() < 0.2:
                event["metadata"] = {
                    "@ag-ui/client": {"authoritativeActivityTypes": rng.choice([None, ["plan"], []])}
                }
        elif kind == 17:
            event = {"type": "RUN_STARTED", "threadId": "t", "runId": "r"}
            if rng.random() < 0.4:
                event["input"] = {"threadId": "t", "runId": "r", "messages": _snapshot_messages(rng)}
        elif kind == 18:
            outcome = rng.choice(
                [
                    None,
                    {"type": "success"},
                    {"type": "cancelled"},
                    {"type": "interrupt", "interrupts": [{"id": "i1", "reason": "x"}]},
                ]
            )
            event = {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}
            if outcome:
                event["outcome"] = outcome
        else:
            chunk = rng.choice(["TEXT_MESSAGE_CHUNK", "TOOL_CALL_CHUNK", "REASONING_MESSAGE_CHUNK"])
            if chunk == "TOOL_CALL_CHUNK":
                event = {"type": chunk, "toolCallId": cid, "toolCallName": "f", "delta": "x", **meta}
            else:
                event = {"type": chunk, "messageId": rng.choice(["m1", "m4", "r3"]), "delta": "k", **meta}
        events.append(event)
    return events


SEQUENCES = [random_sequence(random.Random(seed), random.Random(seed).randint(5, 60)) for seed in range(300)]


@pytest.fixture(scope="module")
def reference() -> list[dict[str, Any]]:
    return run_node_reference(
        "agui_apply.mjs", {"mode": "reducer", "cases": [{"events": s} for s in SEQUENCES]}
    )


@pytest.mark.node
def test_random_sequences_match_the_reference_reducer(reference: list[dict[str, Any]]) -> None:
    mismatches = []
    for seed, (events, theirs) in enumerate(zip(SEQUENCES, reference, strict=True)):
        if theirs.get("error"):
            continue  # chunk expansion stopped the reference; the lenient replay goes on
        thread = apply_events(copy.deepcopy(events))
        ours = {"messages": thread.message_dicts, "state": thread.state, "interrupts": thread.interrupt_dicts}
        if ours != {k: theirs[k] for k in ("messages", "state", "interrupts")}:
            mismatches.append(seed)
    assert mismatches == []
    assert sum(1 for r in reference if not r.get("error")) > 250
