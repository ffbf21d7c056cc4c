"""verify_events(rules="spec") against ag-ui-validate, run live on its published fixture corpus and on ours.

The corpus ships in the ag-ui-validate wheel (``ag_ui_validate/spec/fixtures``): ``valid/*.jsonl`` (streams
with no findings, bar style hints), ``invalid/<RULE>-<name>/stream.jsonl`` (one rule each, with an optional
``options.json``) and ``invalid/<RULE>-<name>/scenario.json`` (an HTTP body as timed chunks, for the transport
rules). Each fixture is read from the installed package and fed to both validators; the findings must agree:
the same rules (ours named by code, mapped through SPEC_RULES), the same severities, the same event indexes,
in the same order.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from ag_ui_validate import RULES as VALIDATOR_RULES
from ag_ui_validate import ValidatorOptions, create_validator
from ag_ui_validate.transport import TransportOptions, validate_body
from hypothesis import given, settings
from hypothesis import strategies as st

from agui_notebook import OptionError, averify_events, verify_events
from agui_notebook.agui._spec_rules import SPEC_RULES

CORPUS = Path(str(files("ag_ui_validate") / "spec" / "fixtures"))
PROJECT_FIXTURES = Path(__file__).parents[1] / "fixtures"

NOT_CHECKED = {
    "AGUI305": "needs the features a producer declares out of band; verify_events takes no such declaration",
    "AGUI501": "SSE framing: our one wire reader reads a bare JSON line in SSE text as an event, not a bad frame",
    "AGUI505": "the Content-Type of a live response",
    "AGUI506": "keepalive timing of a live response",
    "AGUI507": "chunk timing of a live response",
    "AGUI508": "an abnormal disconnect of a live response",
}
"""ag-ui-validate rules the spec level leaves out, and why (the transport rules need a live connection)."""

Finding = tuple[str, str, int]  # (ag-ui-validate rule, severity, event index)


def corpus_fixtures() -> list[Path]:
    valid = sorted((CORPUS / "valid").glob("*.jsonl"))
    invalid = sorted(p for p in (CORPUS / "invalid").iterdir() if p.is_dir())
    return [*valid, *invalid]


def fixture_body(fixture: Path) -> tuple[str, dict[str, Any]]:
    """The stream a fixture holds, as text, and the validator options it asks for."""
    if fixture.is_file():
        return fixture.read_text(encoding="utf-8"), {}
    options_file = fixture / "options.json"
    options = json.loads(options_file.read_text()) if options_file.exists() else {}
    stream = fixture / "stream.jsonl"
    if stream.exists():
        return stream.read_text(encoding="utf-8"), options
    scenario = json.loads((fixture / "scenario.json").read_text())
    return "".join(chunk["text"] for chunk in scenario["chunks"]), options


def validator_findings(text: str, options: dict[str, Any], *, sse: bool) -> list[Finding]:
    """What ag-ui-validate reports, run as its corpus README says (lines fed raw; SSE bodies as a recording)."""
    validator_options = ValidatorOptions(features=options.get("features"))
    if sse:

        async def body() -> AsyncIterator[bytes]:
            yield text.encode()

        result = asyncio.run(
            validate_body(body(), None, TransportOptions(validator=validator_options, recorded=True))
        )
        diagnostics = result.report.diagnostics
    else:
        validator = create_validator(validator_options)
        for line in text.splitlines():
            if line.strip():
                validator.feed(line)
        validator.finalize()
        diagnostics = validator.report().diagnostics
    return [(d.rule, d.severity, d.event_index) for d in diagnostics if d.rule not in NOT_CHECKED]


def our_findings(events: Any) -> list[Finding]:
    return [(SPEC_RULES[p.code][2], p.severity, p.index) for p in verify_events(events, rules="spec")]


@pytest.mark.parametrize("fixture", corpus_fixtures(), ids=lambda p: p.name)
def test_corpus_fixture_matches_ag_ui_validate(fixture: Path) -> None:
    text, options = fixture_body(fixture)
    sse = text.startswith("data:")
    theirs = validator_findings(text, options, sse=sse)
    assert our_findings(text) == theirs
    rule = fixture.name.split("-")[0]
    if fixture.is_dir() and rule not in NOT_CHECKED:
        assert rule in {finding[0] for finding in theirs}  # the fixture exercises its rule


def test_corpus_is_the_installed_one() -> None:
    fixtures = corpus_fixtures()
    assert len(fixtures) >= 50
    assert CORPUS / "invalid" / "AGUI003-run-never-terminated" in fixtures


def test_every_validator_rule_is_checked_or_said_why_not() -> None:
    ours = {validator_rule for _, _, validator_rule in SPEC_RULES.values()}
    assert set(VALIDATOR_RULES) == ours | set(NOT_CHECKED)
    assert not ours & set(NOT_CHECKED)
    for code, (severity, _, validator_rule) in SPEC_RULES.items():
        if code != "draft-event-type":  # AGUI503 reports a draft type at info
            assert severity == VALIDATOR_RULES[validator_rule].severity, code


RS = {"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "timestamp": 1}
RF = {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"}
RS2 = {"type": "RUN_STARTED", "threadId": "t", "runId": "r2"}
RF2 = {"type": "RUN_FINISHED", "threadId": "t", "runId": "r2"}
RE = {"type": "RUN_ERROR", "message": "boom"}


def text_message(message_id: str = "m1", **extra: Any) -> list[dict[str, Any]]:
    return [
        {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant", **extra},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": "hi", **extra},
        {"type": "TEXT_MESSAGE_END", "messageId": message_id, **extra},
    ]


def tool_call(call_id: str = "c1", arguments: str = "{}") -> list[dict[str, Any]]:
    return [
        {"type": "TOOL_CALL_START", "toolCallId": call_id, "toolCallName": "f"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": call_id, "delta": arguments},
        {"type": "TOOL_CALL_END", "toolCallId": call_id},
    ]


def result(call_id: str = "c1") -> dict[str, Any]:
    return {"type": "TOOL_CALL_RESULT", "toolCallId": call_id, "messageId": f"t-{call_id}", "content": "ok"}


def state_delta(*operations: dict[str, Any]) -> dict[str, Any]:
    return {"type": "STATE_DELTA", "delta": list(operations)}


# Streams of our own, for what the corpus leaves out: each with the findings we expect, checked live against
# ag-ui-validate too.
OWN_CASES: dict[str, tuple[list[Any], list[tuple[str, int]]]] = {
    "clean two runs reusing ids": (
        [RS, *text_message(), *tool_call(), result(), RF, RS2, *text_message(), *tool_call(), result(), RF2],
        [],
    ),
    "result in the next run": ([RS, *tool_call(), RF, RS2, result(), RF2], [("unknown-tool-call", 6)]),
    "result for a call in MESSAGES_SNAPSHOT": (
        [
            RS,
            {
                "type": "MESSAGES_SNAPSHOT",
                "messages": [
                    {
                        "id": "a",
                        "role": "assistant",
                        "toolCalls": [
                            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                        ],
                    }
                ],
            },
            result(),
            RF,
        ],
        [],
    ),
    "stream stops with things open": (
        [RS, text_message()[0], tool_call()[0], {"type": "STEP_STARTED", "stepName": "s"}],
        [
            ("run-not-terminated", -1),
            ("text-not-ended", -1),
            ("tool-call-not-ended", -1),
            ("step-not-finished", -1),
        ],
    ),
    "open things after RUN_ERROR are debris": ([RS, text_message()[0], tool_call()[0], RE], []),
    "several events after the end": (
        [RS, RF, *text_message()],
        [("event-after-run-end", 2), ("event-after-run-end", 3), ("event-after-run-end", 4)],
    ),
    "RUN_FINISHED after RUN_ERROR": ([RS, RE, RF], [("finished-and-errored", 2)]),
    "no RUN_STARTED until later": ([*text_message(), RS, RF], [("first-event", 0)]),
    "no RUN_STARTED and no end": (
        [text_message()[0]],
        [("first-event", 0), ("run-not-terminated", -1), ("text-not-ended", -1), ("no-timestamps", -1)],
    ),
    "args not JSON at end of stream": (
        [RS, *tool_call(arguments="{")],
        [("invalid-tool-arguments", 3), ("run-not-terminated", -1)],
    ),
    "args trailing text": ([RS, *tool_call(arguments="{} x"), RF], [("invalid-tool-arguments", 3)]),
    "args empty": ([RS, *tool_call(arguments=""), RF], []),
    "tool call chunk with bad JSON, closed by the next event": (
        [
            RS,
            {"type": "TOOL_CALL_CHUNK", "toolCallId": "c", "toolCallName": "f", "delta": "{"},
            *text_message(),
            RF,
        ],
        [("invalid-tool-arguments", 2)],
    ),
    "text chunk left open at the end": (
        [RS, {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "x"}],
        [("run-not-terminated", -1)],
    ),
    "reused tool call id while open": ([RS, tool_call()[0], *tool_call(), RF], [("reused-tool-call-id", 2)]),
    "reused message id": (
        [RS, *text_message(), *text_message(), RF],
        [("reused-message-id", 4), ("text-content-not-open", 5), ("text-end-not-open", 6)],
    ),
    "state in a later run has no snapshot": (
        [
            RS,
            {"type": "STATE_SNAPSHOT", "snapshot": {"a": 1}},
            RF,
            RS2,
            state_delta({"op": "replace", "path": "/a", "value": 2}),
            RF2,
        ],
        [("delta-before-snapshot", 4)],
    ),
    "snapshot after deltas, a failed one counted": (
        [
            RS,
            {"type": "STATE_SNAPSHOT", "snapshot": {}},
            state_delta({"op": "remove", "path": "/x"}),
            {"type": "STATE_SNAPSHOT", "snapshot": {}},
            RF,
        ],
        [("state-patch-failed", 2), ("snapshot-discards-deltas", 3)],
    ),
    "patch op without value": (
        [RS, {"type": "STATE_SNAPSHOT", "snapshot": {}}, state_delta({"op": "add", "path": "/a"}), RF],
        [("invalid-state-patch", 2)],
    ),
    "step opened twice, finished once": (
        [
            RS,
            {"type": "STEP_STARTED", "stepName": "s"},
            {"type": "STEP_STARTED", "stepName": "s"},
            {"type": "STEP_FINISHED", "stepName": "s"},
            RF,
        ],
        [("step-not-finished", 4)],
    ),
    "reasoning left open": (
        [
            RS,
            {"type": "REASONING_START", "messageId": "r"},
            {"type": "REASONING_MESSAGE_START", "messageId": "rm", "role": "reasoning"},
            RF,
        ],
        [("reasoning-not-ended", 3), ("reasoning-not-ended", 3)],
    ),
    "subagent id reused after it finished": (
        [
            RS,
            {"type": "SUBAGENT_STARTED", "subagentRunId": "s", "name": "n"},
            {"type": "SUBAGENT_FINISHED", "subagentRunId": "s"},
            {"type": "SUBAGENT_STARTED", "subagentRunId": "s", "name": "n"},
            RF,
        ],
        [("subagent-already-started", 3)],
    ),
    "continuation under another subagent": (
        [RS, *text_message()[:1], {**text_message()[1], "subagentRunId": "s2"}, text_message()[2], RF],
        [("attribution-mismatch", 2)],
    ),
    "parent message of a later run": (
        [
            RS,
            *text_message(),
            RF,
            RS2,
            {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "parentMessageId": "m1"},
            {"type": "TOOL_CALL_END", "toolCallId": "c"},
            RF2,
        ],
        [("unknown-parent-message", 6)],
    ),
    "case typo in a type": (
        [RS, {"type": "runFinished", "threadId": "t", "runId": "r1"}],
        [("unknown-event-type", 1), ("run-not-terminated", -1)],
    ),
    "draft event type": (
        [RS, {"type": "META", "metaType": "x", "payload": {}}, RF],
        [("draft-event-type", 1)],
    ),
    "null optional field": (
        [RS, {**text_message()[0], "subagentRunId": None}, RF],
        [("schema", 1), ("text-not-ended", 2)],
    ),
    "mistyped id skips the event": (
        [RS, {"type": "TEXT_MESSAGE_START", "messageId": 5}, RF],
        [("schema", 1)],
    ),
    "no type": ([RS, {"foo": 1}, RF], [("schema", 1)]),
    "not an object": ([RS, "[1, 2]", RF], [("invalid-json", 1)]),
    "RAW wrapping a typed event": (
        [RS, {"type": "RAW", "event": {"type": "CUSTOM"}}, {"type": "RAW", "event": {"type": "vendor"}}, RF],
        [("raw-wraps-typed-event", 1)],
    ),
    "CUSTOM names": (
        [RS, *({"type": "CUSTOM", "name": name, "value": 1} for name in ("a.b", "a:b", "a/b", "a-b")), RF],
        [("custom-name-not-namespaced", 4)],
    ),
    "null timestamp is no timestamp": ([{**RS, "timestamp": None}, RF], [("no-timestamps", -1)]),
    "tool call chunk without a name still makes the call": (
        [RS, {"type": "TOOL_CALL_CHUNK", "toolCallId": "c1", "delta": "{"}, *tool_call(), RF],
        [
            ("schema", 1),
            ("invalid-tool-arguments", 2),
            ("reused-tool-call-id", 2),
            ("tool-args-not-open", 3),
            ("tool-end-not-open", 4),
        ],
    ),
    "result content of the wrong kind": ([RS, *tool_call(), {**result(), "content": 5}, RF], [("schema", 4)]),
    "no timestamps": ([{k: v for k, v in RS.items() if k != "timestamp"}, RF], [("no-timestamps", -1)]),
}


def as_lines(events: list[Any]) -> str:
    return "".join((e if isinstance(e, str) else json.dumps(e)) + "\n" for e in events)


@pytest.mark.parametrize("name", list(OWN_CASES))
def test_own_case(name: str) -> None:
    events, expected = OWN_CASES[name]
    text = as_lines(events)
    problems = verify_events(text, rules="spec")
    assert [(p.code, p.index) for p in problems] == expected
    assert our_findings(text) == validator_findings(text, {}, sse=False)


# Where we part from ag-ui-validate 0.4 on purpose: (events, our findings, why).
DIVERGENCES: dict[str, tuple[list[Any], list[tuple[str, int]], str]] = {
    "tool result content parts": (
        [RS, *tool_call(), {**result(), "content": [{"type": "text", "text": "ok"}]}, RF],
        [],
        "AG-UI 1.0 (ag_ui.core 1.0) lets TOOL_CALL_RESULT carry content parts; the validator's table wants a string",
    ),
    "activity content that is no object": (
        [RS, {"type": "ACTIVITY_SNAPSHOT", "messageId": "a", "activityType": "x", "content": []}, RF],
        [("schema", 1)],
        "ag_ui.core 1.0 types ACTIVITY_SNAPSHOT content as an object; the validator's table takes any value",
    ),
    "NaN arguments": (
        [RS, *tool_call(arguments="NaN"), RF],
        [("invalid-tool-arguments", 3)],
        "JSON.parse (the TypeScript validator, @ag-ui/client) rejects NaN; the Python port's json.loads reads it",
    ),
}


@pytest.mark.parametrize("name", list(DIVERGENCES))
def test_divergence(name: str) -> None:
    events, expected, _ = DIVERGENCES[name]
    text = as_lines(events)
    assert [(p.code, p.index) for p in verify_events(text, rules="spec")] == expected
    assert our_findings(text) != validator_findings(text, {}, sse=False)  # still a divergence: else drop it


CAPTURES = sorted((PROJECT_FIXTURES / "agui").glob("*.jsonl")) + sorted(
    (PROJECT_FIXTURES / "agui").glob("*.sse")
)


@pytest.mark.parametrize("capture", CAPTURES, ids=lambda p: p.name)
def test_pydantic_ai_captures_match_ag_ui_validate(capture: Path) -> None:
    text = capture.read_text(encoding="utf-8")
    assert our_findings(capture) == validator_findings(text, {}, sse=capture.suffix == ".sse")


def test_problems_are_located_and_carry_a_code() -> None:
    text = as_lines([RS, *tool_call(arguments="{oops"), RF, RE])
    problems = verify_events(text, rules="spec")
    assert [(p.code, p.rule, p.severity, p.index, p.event_type, p.line) for p in problems] == [
        ("invalid-tool-arguments", "invalid-tool-arguments", "error", 3, "TOOL_CALL_END", 4),
        ("finished-and-errored", "finished-and-errored", "error", 5, "RUN_ERROR", 6),
    ]
    assert (
        problems[0]
        .describe()
        .startswith("<text>:4: event 3 (TOOL_CALL_END): the arguments of tool call 'c1'")
    )


def test_client_rules_stay_the_default() -> None:
    events = [RS, RF, RE]
    assert verify_events(events) == verify_events(events, rules="client") == []
    assert [p.code for p in verify_events(events, rules="spec")] == ["finished-and-errored"]


def test_async_spec_rules() -> None:
    async def events() -> AsyncIterator[dict[str, Any]]:
        for event in (RS, *tool_call()):
            yield event

    problems = asyncio.run(averify_events(events(), rules="spec"))
    assert [(p.code, p.index) for p in problems] == [("run-not-terminated", -1)]


def test_validate_false_skips_field_checks() -> None:
    events = [RS, {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "robot"}, RF]
    assert [p.code for p in verify_events(events, rules="spec")] == ["schema", "text-not-ended"]
    assert [p.code for p in verify_events(events, rules="spec", validate=False)] == ["text-not-ended"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rules": "strict"}, "rules must be 'client' or 'spec', not 'strict'"),
        ({"rules": "spec", "messages": []}, "rules='spec' judges the stream alone"),
        ({"rules": "spec", "state": {}}, "rules='spec' judges the stream alone"),
    ],
)
def test_bad_options(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(")):
        verify_events([RS, RF], **kwargs)


def event_pool() -> list[dict[str, Any]]:
    """Events over two ids and two subagents, to combine at random: every family the rules follow."""
    pool: list[dict[str, Any]] = [RS, RF, RS2, RF2, RE]
    for i in ("a", "b"):
        for tag in ({}, {"subagentRunId": "s1"}, {"subagentRunId": "s2"}):
            pool += [
                {"type": "TEXT_MESSAGE_START", "messageId": i, "role": "assistant", **tag},
                {"type": "TEXT_MESSAGE_CONTENT", "messageId": i, "delta": "x", **tag},
                {"type": "TEXT_MESSAGE_END", "messageId": i, **tag},
                {"type": "TOOL_CALL_START", "toolCallId": i, "toolCallName": "f", **tag},
                {"type": "TOOL_CALL_END", "toolCallId": i, **tag},
                {"type": "TOOL_CALL_RESULT", "toolCallId": i, "messageId": "t", "content": "ok", **tag},
                {"type": "STEP_STARTED", "stepName": i, **tag},
                {"type": "STEP_FINISHED", "stepName": i, **tag},
                {"type": "REASONING_MESSAGE_CHUNK", "messageId": i, "delta": "x", **tag},
                {"type": "TEXT_MESSAGE_CHUNK", "messageId": i, "delta": "x", **tag},
            ]
            pool += [
                {"type": "TOOL_CALL_ARGS", "toolCallId": i, "delta": delta, **tag}
                for delta in ("{}", "{", "}", "")
            ]
            pool += [
                {"type": "TOOL_CALL_CHUNK", "toolCallId": i, "toolCallName": "f", "delta": d, **tag}
                for d in ("{}", "{")
            ]
        pool += [
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": i, "delta": ""},
            {"type": "TOOL_CALL_START", "toolCallId": i, "toolCallName": "f", "parentMessageId": "a"},
            {"type": "REASONING_START", "messageId": i},
            {"type": "REASONING_END", "messageId": i},
            {"type": "REASONING_MESSAGE_START", "messageId": i, "role": "reasoning"},
            {"type": "REASONING_MESSAGE_CONTENT", "messageId": i, "delta": "x"},
            {"type": "REASONING_MESSAGE_END", "messageId": i},
        ]
    for s in ("s1", "s2"):
        pool += [
            {"type": "SUBAGENT_STARTED", "subagentRunId": s, "name": "n"},
            {"type": "SUBAGENT_STARTED", "subagentRunId": s, "name": "n", "parentSubagentRunId": "s1"},
            {"type": "SUBAGENT_FINISHED", "subagentRunId": s},
            {"type": "SUBAGENT_ERROR", "subagentRunId": s, "message": "x"},
        ]
    pool += [
        {"type": "STATE_SNAPSHOT", "snapshot": {"a": 1}},
        *(
            state_delta(*operations)
            for operations in (
                [],
                [{"op": "add", "path": "/b", "value": 1}],
                [{"op": "remove", "path": "/b"}],
                [{"op": "add", "path": "/b"}],
            )
        ),
        {
            "type": "MESSAGES_SNAPSHOT",
            "messages": [
                {
                    "id": "a",
                    "role": "assistant",
                    "toolCalls": [
                        {"id": "b", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                    ],
                }
            ],
        },
        {"type": "CUSTOM", "name": "x", "value": 1},
        {"type": "RAW", "event": {"type": "CUSTOM"}},
        # fields of the wrong kind, or missing: the rules follow what still names something
        {"type": "TOOL_CALL_CHUNK", "toolCallId": "a", "delta": "{"},
        {"type": "TOOL_CALL_CHUNK", "toolCallId": "b", "toolCallName": 5, "delta": "{}"},
        {"type": "TOOL_CALL_RESULT", "toolCallId": "a", "messageId": "t", "content": 5},
        {"type": "TOOL_CALL_END", "toolCallId": ["a"]},
        {"type": "TEXT_MESSAGE_START", "messageId": "a", "role": "robot"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "a"},
        {"type": "STEP_STARTED", "stepName": None},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": {}},
        {"type": "STATE_DELTA", "delta": 1},
        {"type": "SUBAGENT_STARTED", "subagentRunId": "s1"},
    ]
    return pool


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(event_pool()), st.booleans()), max_size=16))
def test_random_streams_match_ag_ui_validate(draws: list[tuple[dict[str, Any], bool]]) -> None:
    events = [{**event, "timestamp": 1} if stamped else event for event, stamped in draws]
    text = as_lines(events)
    assert our_findings(text) == validator_findings(text, {}, sse=False)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=6,
)
FIELDS = [
    "messageId",
    "toolCallId",
    "toolCallName",
    "delta",
    "stepName",
    "subagentRunId",
    "parentMessageId",
    "parentSubagentRunId",
    "runId",
    "threadId",
    "snapshot",
    "messages",
    "event",
    "name",
    "timestamp",
    "role",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.builds(
            lambda event_type, fields: {"type": event_type, **fields},
            st.sampled_from(sorted({e["type"] for e in event_pool()} | {"META", "X"})),
            st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=5),
        ),
        max_size=12,
    )
)
def test_spec_rules_never_raise(events: list[dict[str, Any]]) -> None:
    problems = verify_events(events, rules="spec")
    assert all(p.severity == SPEC_RULES[p.code][0] for p in problems)
