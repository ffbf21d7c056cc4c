"""verify_events: each rule on its own, and against what @ag-ui/client's runAgent pipeline rejects."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from agui_notebook.agui._problem import Problem
from agui_notebook.agui._verify import RULES, averify_events, verify_events
from tests.agui.apply_cases import (
    CASES,
    activity,
    activity_delta,
    flat,
    reasoning,
    result,
    run,
    run_finished,
    run_started,
    text,
    tool,
)
from tests.support.node import run_node_reference

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "agui"

SUB_START = {"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "helper"}
SUB_END = {"type": "SUBAGENT_FINISHED", "subagentRunId": "s1"}

# name -> (events, the rules verify_events must report, in order)
RULE_CASES: dict[str, tuple[list[dict[str, Any]], list[str]]] = {
    "clean": (run(text("m1", "a"), tool("c1", "f", "{}", parent="m1"), result("c1", "t1")), []),
    "first-event": (flat(text("m1", "a"), run_finished()), ["first-event"]),
    "first-event-run-error-allowed": (
        [{"type": "RUN_ERROR", "message": "x"}, run_started(), run_finished()],
        [],
    ),
    "run-already-active": (flat(run_started(), run_started("run-2"), run_finished()), ["run-already-active"]),
    "after-run-finished": (flat(run(), text("m1", "a"), text("m2", "b")), ["after-run-finished"]),
    "after-run-finished-then-error-ok": (flat(run(), {"type": "RUN_ERROR", "message": "late"}), []),
    "after-run-error": (
        flat(run_started(), {"type": "RUN_ERROR", "message": "x"}, text("m1", "a")),
        ["after-run-error"],
    ),
    "new-run-after-error": (
        flat(run_started(), {"type": "RUN_ERROR", "message": "x"}, run(text("m1", "a"), run_id="run-2")),
        [],
    ),
    "text-already-open": (
        run({"type": "TEXT_MESSAGE_START", "messageId": "m1"}, text("m1", "a")),
        ["text-already-open"],
    ),
    "text-not-open": (
        run({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "x"}),
        ["text-not-open"],
    ),
    "text-end-not-open": (run({"type": "TEXT_MESSAGE_END", "messageId": "m1"}), ["text-not-open"]),
    "tool-call-already-open": (
        run({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"}, tool("c1", "f")),
        ["tool-call-already-open"],
    ),
    "tool-call-not-open": (
        run({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{}"}),
        ["tool-call-not-open"],
    ),
    "reasoning-already-open": (
        run({"type": "REASONING_START", "messageId": "r1"}, reasoning("r1", "x")),
        ["reasoning-already-open"],
    ),
    "reasoning-not-open": (
        run({"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1", "delta": "x"}),
        ["reasoning-not-open"],
    ),
    "reasoning-span-end-not-open": (
        run({"type": "REASONING_END", "messageId": "r1"}),
        ["reasoning-not-open"],
    ),
    "run-finished-while-open": (
        flat(
            run_started(),
            {"type": "TEXT_MESSAGE_START", "messageId": "m1"},
            {"type": "STEP_STARTED", "stepName": "s"},
            run_finished(),
        ),
        ["run-finished-while-open"],
    ),
    "run-not-finished": (
        flat(run_started(), {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"}),
        ["run-not-finished"],
    ),
    "step-already-active": (
        run(
            {"type": "STEP_STARTED", "stepName": "s"},
            {"type": "STEP_STARTED", "stepName": "s"},
            {"type": "STEP_FINISHED", "stepName": "s"},
        ),
        ["step-already-active"],
    ),
    "step-not-started": (run({"type": "STEP_FINISHED", "stepName": "s"}), ["step-not-started"]),
    "step-wrong-owner": (
        run(
            SUB_START,
            {"type": "STEP_STARTED", "stepName": "s"},
            {"type": "STEP_FINISHED", "stepName": "s", "subagentRunId": "s1"},
            {"type": "STEP_FINISHED", "stepName": "s"},
            SUB_END,
        ),
        ["step-wrong-owner"],
    ),
    "same-step-name-in-parent-and-subagent": (
        run(
            SUB_START,
            {"type": "STEP_STARTED", "stepName": "s"},
            {"type": "STEP_STARTED", "stepName": "s", "subagentRunId": "s1"},
            {"type": "STEP_FINISHED", "stepName": "s", "subagentRunId": "s1"},
            {"type": "STEP_FINISHED", "stepName": "s"},
            SUB_END,
        ),
        [],
    ),
    "subagent-already-active": (run(SUB_START, SUB_START, SUB_END), ["subagent-already-active"]),
    "subagent-id-reused": (
        run(SUB_START, SUB_END, SUB_START, SUB_END),
        ["subagent-id-reused", "subagent-not-active"],
    ),
    "subagent-unknown-parent": (run({**SUB_START, "parentSubagentRunId": "s0"}), ["subagent-unknown-parent"]),
    "subagent-not-active": (run(SUB_END), ["subagent-not-active"]),
    "subagent-open-at-run-finished": (run(SUB_START), ["run-finished-while-open"]),
    "attribution-mismatch-content": (
        run(
            {"type": "TEXT_MESSAGE_START", "messageId": "m1"},
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "x", "subagentRunId": "s1"},
            {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
        ),
        ["attribution-mismatch"],
    ),
    "attribution-mismatch-tool-parent": (
        run(text("m1", "x"), tool("c1", "f", "{}", parent="m1", subagentRunId="s1")),
        ["attribution-mismatch", "tool-call-not-open", "tool-call-not-open"],
    ),
    "attribution-mismatch-activity": (
        run(activity("a1", {}, subagentRunId="s1"), activity_delta("a1", [], subagentRunId="s2")),
        ["attribution-mismatch"],
    ),
    "attribution-mismatch-encrypted": (
        run(
            {
                "type": "REASONING_MESSAGE_START",
                "messageId": "r1",
                "role": "reasoning",
                "subagentRunId": "s1",
            },
            {"type": "REASONING_MESSAGE_END", "messageId": "r1"},
            {
                "type": "REASONING_ENCRYPTED_VALUE",
                "subtype": "message",
                "entityId": "r1",
                "encryptedValue": "e",
                "subagentRunId": "s2",
            },
        ),
        ["attribution-mismatch"],
    ),
    "attribution-first-opener-owns-span-and-message": (
        run(reasoning("r1", "x", subagentRunId="s1")),
        ["attribution-mismatch", "reasoning-not-open", "reasoning-not-open"],
    ),
    "null-subagent-run-id": (run(text("m1", "x", subagentRunId=None)), ["null-subagent-run-id"]),
    "null-subagent-in-snapshot": (
        run(
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [{"id": "u1", "role": "user", "content": "x", "subagentRunId": None}],
            }
        ),
        ["null-subagent-run-id"],
    ),
    "unknown-tool-call": (run(result("c9", "t9")), ["unknown-tool-call"]),
    "tool-call-from-initial-messages-is-known": (run(result("c1", "t1")), []),
    "duplicate-tool-result": (
        run(tool("c1", "f", "{}"), result("c1", "t1"), result("c1", "t2")),
        ["duplicate-tool-result"],
    ),
    "result-before-tool-call-end": (
        run(
            {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"},
            result("c1", "t1"),
            {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        ),
        ["result-before-tool-call-end"],
    ),
    "reused-message-id": (run(text("m1", "a"), text("m1", "b")), ["reused-message-id"]),
    "reused-tool-call-id": (run(tool("c1", "f", "{}"), tool("c1", "f")), ["reused-tool-call-id"]),
    "invalid-tool-arguments": (run(tool("c1", "f", '{"a":')), ["invalid-tool-arguments"]),
    "activity-id-collision": (
        run(activity("m1", {}), text("m1", "x")),
        ["activity-id-collision", "activity-id-collision", "activity-id-collision"],
    ),
    "unknown-entity": (
        run(
            {
                "type": "REASONING_ENCRYPTED_VALUE",
                "subtype": "tool-call",
                "entityId": "c9",
                "encryptedValue": "e",
            }
        ),
        ["unknown-entity"],
    ),
    "state-patch-failed": (
        run(
            {"type": "STATE_SNAPSHOT", "snapshot": {}},
            {"type": "STATE_DELTA", "delta": [{"op": "remove", "path": "/x"}]},
        ),
        ["state-patch-failed"],
    ),
    "activity-patch-failed": (
        run(activity("a1", {}), activity_delta("a1", [{"op": "replace", "path": "/x", "value": 1}])),
        ["activity-patch-failed"],
    ),
    "activity-delta-unknown-message": (run(activity_delta("a1", [])), ["activity-delta-unknown-message"]),
    "unknown-event-type": (run({"type": "TEXT_MESSAGE_DELTA", "delta": "x"}), ["unknown-event-type"]),
    "schema": (run({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1"}), ["schema", "text-not-open"]),
    "schema-interrupt-outcome-without-interrupts": (
        run(finished=run_finished(outcome={"type": "interrupt", "interrupts": []})),
        ["schema"],
    ),
    "null-field": (run(text("m1", "x", name=None)), ["null-field"]),
    "unknown-field": (run(text("m1", "x", colour="red")), ["unknown-field"]),
    "deprecated-shape": (
        run({"type": "THINKING_START"}, {"type": "THINKING_END"}),
        ["deprecated-shape", "deprecated-shape"],
    ),
    "chunk-expansion": (run({"type": "TOOL_CALL_CHUNK", "delta": "{}"}), ["chunk-expansion"]),
    "chunks-expand-before-checks": (
        run(
            {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "delta": "a"},
            {"type": "TEXT_MESSAGE_CHUNK", "delta": "b"},
        ),
        [],
    ),
}
INITIAL = {
    "tool-call-from-initial-messages-is-known": [
        {
            "id": "a1",
            "role": "assistant",
            "toolCalls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        }
    ]
}


@pytest.mark.parametrize("name", list(RULE_CASES))
def test_each_rule(name: str) -> None:
    events, rules = RULE_CASES[name]
    problems = verify_events(events, messages=INITIAL.get(name))
    assert [p.rule for p in problems] == rules


def test_every_rule_has_a_case() -> None:
    covered = {rule for _, rules in RULE_CASES.values() for rule in rules}
    assert set(RULES) - covered == {"invalid-json", "not-an-event", "unknown-format", "malformed-event"}


def test_an_event_the_checks_cannot_take_is_a_located_problem() -> None:
    # Without the schema check nothing else says what is wrong with a list as an id.
    events = run({"type": "TEXT_MESSAGE_START", "messageId": ["x"]})
    problems = verify_events(events, validate=False)
    assert [(p.rule, p.index) for p in problems] == [("malformed-event", 1)]
    assert problems[0].describe() == (
        "event 1 (TEXT_MESSAGE_START): the event cannot be checked (TypeError: unhashable type: 'list')"
    )
    # With it, the schema problem is the one reported.
    assert [(p.rule, p.message) for p in verify_events(events)] == [
        ("schema", "messageId: Input should be a valid string")
    ]


def test_a_source_that_fails_while_read_is_a_problem_not_an_exception() -> None:
    def failing() -> Any:
        yield run_started()
        raise OSError("connection reset")

    problems = verify_events(failing())
    assert [(p.rule, p.index) for p in problems] == [("unknown-format", -1), ("run-not-finished", -1)]
    assert problems[0].message == "the input cannot be read further (OSError: connection reset)"


def test_tool_arguments_are_read_as_json_parse_reads_them() -> None:
    assert verify_events(run(tool("c1", "f", '{"n": 1e400}'))) == []  # JSON.parse: Infinity
    (problem,) = verify_events(run(tool("c1", "f", '{"a":')))
    assert problem.message.startswith("arguments of tool call 'c1' are not JSON (")


def test_bad_input_is_a_located_problem_never_an_exception(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    lines = [json.dumps(e) for e in run(text("m1", "a"))]
    lines.insert(2, "{not json")
    lines.insert(4, "[1, 2]")
    path.write_text("\n".join(lines) + "\n")
    problems = verify_events(path)
    assert [(p.index, p.rule, p.line, p.severity) for p in problems] == [
        (2, "invalid-json", 3, "error"),
        (4, "not-an-event", 5, "error"),
    ]
    assert problems[0].describe().startswith(f"{path}:3: event 2: invalid JSON (")
    assert [p.rule for p in verify_events(b"hello\nworld")] == ["unknown-format"]


def test_problems_describe_their_location() -> None:
    problem = verify_events(run({"type": "TOOL_CALL_ARGS", "toolCallId": "c7", "delta": "{}"}))[0]
    assert problem == Problem(
        1,
        "tool-call-not-open",
        "error",
        "no active tool call 'c7'; send TOOL_CALL_START first",
        "TOOL_CALL_ARGS",
        "<events>",
    )
    assert (
        problem.describe() == "event 1 (TOOL_CALL_ARGS): no active tool call 'c7'; send TOOL_CALL_START first"
    )
    end = verify_events([run_started()])[0]
    assert end.describe() == "end of stream: the stream ends inside a run"


@pytest.mark.parametrize("name", ["reasoning_tool_text", "parallel_tools", "several_rounds"])
def test_real_captures_are_clean(name: str) -> None:
    assert verify_events(FIXTURES / f"{name}.jsonl") == []


async def test_async_verify() -> None:
    async def items() -> Any:
        for event in flat(text("m1", "x"), run_finished()):
            yield event

    assert [p.rule for p in await averify_events(items())] == ["first-event"]


# -- against the client ----------------------------------------------------------------------------------------------

# What each of the client's rejections means in our rules.
NATURE: list[tuple[str, set[str]]] = [
    (r"First event must be 'RUN_STARTED'", {"first-event"}),
    (r"while a run is still active", {"run-already-active"}),
    (r"has already finished with 'RUN_FINISHED'", {"after-run-finished"}),
    (r"has already errored", {"after-run-error"}),
    (r"subagentRunId: null", {"null-subagent-run-id"}),
    (r"A text message with ID .* already in progress", {"text-already-open"}),
    (r"No active text message", {"text-not-open"}),
    (r"A tool call with ID .* already in progress", {"tool-call-already-open"}),
    (r"No active tool call", {"tool-call-not-open"}),
    (r"reasoning (span|message) with ID .* already in progress", {"reasoning-already-open"}),
    (r"No active reasoning", {"reasoning-not-open"}),
    (r"Step .* is already active", {"step-already-active"}),
    (r"that was not started", {"step-not-started"}),
    (r"finished by whoever started it", {"step-wrong-owner"}),
    (
        r"while (steps|text messages|reasoning messages|reasoning spans|tool calls|subagents) are still active",
        {"run-finished-while-open"},
    ),
    (r"subagent '.*' is already active", {"subagent-already-active"}),
    (r"has already finished in this run", {"subagent-id-reused"}),
    (r"parentSubagentRunId .* has not been started", {"subagent-unknown-parent"}),
    (r"no active subagent found", {"subagent-not-active"}),
    (r"First \w+_CHUNK must have|Ambiguous", {"chunk-expansion"}),
    (r"Cannot continue", {"chunk-expansion", "attribution-mismatch"}),
    (r"does not match|is owned by", {"attribution-mismatch"}),
    (r"received null", {"null-field", "null-subagent-run-id", "schema"}),
    (r'"code": "(invalid_type|invalid_union|too_small|invalid_value|custom)"', {"schema"}),
]
# Where we report an error on a sequence the client accepts.
STRICTER = {
    "unknown-event-type": "the client drops an unknown event with a console warning",
    "state-patch-failed": "the client warns and keeps the old state",
    "activity-patch-failed": "the client warns and keeps the old content",
}

DIFFERENTIAL = {
    **{n: c["events"] for n, c in CASES.items() if "messages" not in c},
    **{n: e for n, (e, _) in RULE_CASES.items() if n not in INITIAL},
}


@pytest.fixture(scope="module")
def rejections() -> dict[str, dict[str, Any]]:
    results = run_node_reference(
        "agui_verify.mjs", {"mode": "runAgent", "cases": list(DIFFERENTIAL.values())}
    )
    return dict(zip(DIFFERENTIAL, results, strict=True))


@pytest.mark.node
@pytest.mark.parametrize("name", list(DIFFERENTIAL))
def test_every_rejection_of_the_client_is_an_error_of_the_same_nature(
    name: str, rejections: dict[str, Any]
) -> None:
    theirs = rejections[name]
    errors = [p for p in verify_events(DIFFERENTIAL[name]) if p.severity == "error"]
    if "error" not in theirs:
        assert {p.rule for p in errors} <= set(STRICTER), [p.describe() for p in errors]
        return
    expected = next((rules for pattern, rules in NATURE if re.search(pattern, theirs["error"])), None)
    assert expected is not None, f"unmapped client error: {theirs['error']}"
    at_index = {p.rule for p in errors if p.index == theirs["index"]}
    assert at_index & expected, (theirs, [p.describe() for p in errors])
    earlier = {p.rule for p in errors if 0 <= p.index < theirs["index"]}
    assert earlier <= set(STRICTER), earlier


@pytest.fixture(scope="module")
def random_rejections() -> list[dict[str, Any]]:
    from tests.agui.test_apply_random import SEQUENCES

    return run_node_reference("agui_verify.mjs", {"mode": "runAgent", "cases": SEQUENCES})


@pytest.mark.node
def test_random_sequences_are_rejected_alike(random_rejections: list[dict[str, Any]]) -> None:
    from tests.agui.test_apply_random import SEQUENCES

    mismatches = []
    for seed, (events, theirs) in enumerate(zip(SEQUENCES, random_rejections, strict=True)):
        errors = [p for p in verify_events(events) if p.severity == "error"]
        if "error" not in theirs:
            if not {p.rule for p in errors} <= set(STRICTER):
                mismatches.append((seed, "stricter", [p.describe() for p in errors]))
            continue
        expected = next((rules for pattern, rules in NATURE if re.search(pattern, theirs["error"])), set())
        first = {p.rule for p in errors if p.index == theirs["index"]}
        earlier = {p.rule for p in errors if 0 <= p.index < theirs["index"]}
        if not first & expected or not earlier <= set(STRICTER):
            mismatches.append((seed, theirs, [p.describe() for p in errors][:4]))
    assert mismatches == []
    assert sum("error" in r for r in random_rejections) > 200
