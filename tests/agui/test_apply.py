"""apply_events against @ag-ui/client's defaultApplyEvents, driven through node on the same sequences."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import AssistantMessage, Interrupt, ToolMessage, UserMessage

from agui_notebook.agui._apply import EventReducer, apply_events
from tests.agui.apply_cases import CASES, USER
from tests.conftest import run_node_reference

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "agui"
CAPTURES = ["reasoning_tool_text", "parallel_tools", "several_rounds"]


def _strings_in(value: Any, found: set[str]) -> set[str]:
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings_in(item, found)
    elif isinstance(value, list):
        for item in value:
            _strings_in(item, found)
    return found


def normalised(result: dict[str, Any], case: dict[str, Any]) -> dict[str, Any]:
    """Rename ids neither side was given (minted for legacy THINKING_* spans) by order of appearance."""
    known = _strings_in(case, set())
    minted: dict[str, str] = {}
    messages = copy.deepcopy(result["messages"])
    for message in messages:
        if message.get("id") not in known:
            message["id"] = minted.setdefault(message["id"], f"minted-{len(minted)}")
    return {"messages": messages, "state": result["state"], "interrupts": result["interrupts"]}


def ours(case: dict[str, Any]) -> dict[str, Any]:
    thread = apply_events(
        copy.deepcopy(case["events"]), messages=case.get("messages"), state=case.get("state")
    )
    return {"messages": thread.message_dicts, "state": thread.state, "interrupts": thread.interrupt_dicts}


@pytest.fixture(scope="module")
def bare_reducer() -> dict[str, dict[str, Any]]:
    results = run_node_reference("agui_apply.mjs", {"mode": "reducer", "cases": list(CASES.values())})
    return dict(zip(CASES, results, strict=True))


@pytest.fixture(scope="module")
def run_agent() -> dict[str, dict[str, Any]]:
    cases = list(CASES.values()) + [{"events": _capture(name)} for name in CAPTURES]
    results = run_node_reference("agui_apply.mjs", {"mode": "runAgent", "cases": cases})
    return dict(zip([*CASES, *CAPTURES], results, strict=True))


def _capture(name: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (FIXTURES / f"{name}.jsonl").read_text().splitlines()]


@pytest.mark.node
@pytest.mark.parametrize("name", list(CASES))
def test_matches_the_reducer_behind_the_compatibility_boundary(
    name: str, bare_reducer: dict[str, Any]
) -> None:
    case = CASES[name]
    theirs = bare_reducer[name]
    if theirs.get("error"):
        # The reference stops where chunk expansion fails; the lenient replay skips that chunk and goes on.
        assert name == "invalid-chunk-without-id"
        return
    assert normalised(ours(case), case) == normalised(theirs, case)


@pytest.mark.node
@pytest.mark.parametrize("name", [n for n in CASES if not n.startswith("invalid-")])
def test_matches_run_agent_on_sequences_it_accepts(name: str, run_agent: dict[str, Any]) -> None:
    case = CASES[name]
    theirs = run_agent[name]
    assert theirs.get("error") is None
    assert normalised(ours(case), case) == normalised(theirs, case)


@pytest.mark.node
@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("invalid-")])
def test_run_agent_rejects_the_invalid_sequences(name: str, run_agent: dict[str, Any]) -> None:
    # What the lenient replay is compared against above is the bare reducer; runAgent stops the run instead.
    assert run_agent[name].get("error")


@pytest.mark.node
@pytest.mark.parametrize("name", CAPTURES)
def test_real_pydantic_ai_captures_match_run_agent(name: str, run_agent: dict[str, Any]) -> None:
    thread = apply_events(FIXTURES / f"{name}.jsonl")
    theirs = run_agent[name]
    assert theirs.get("error") is None
    assert thread.message_dicts == theirs["messages"]
    assert thread.state == theirs["state"]
    assert apply_events(FIXTURES / f"{name}.sse").message_dicts == thread.message_dicts


# -- our own surface -------------------------------------------------------------------------------------------


def test_every_source_form_gives_the_same_thread() -> None:
    events = CASES["tool-with-text-parent"]["events"]
    jsonl = "\n".join(json.dumps(e) for e in events)
    expected = apply_events(events).message_dicts
    assert apply_events(jsonl).message_dicts == expected
    assert apply_events(jsonl.encode()).message_dicts == expected
    assert apply_events(iter(events)).message_dicts == expected
    assert expected == [
        {
            "id": "m1",
            "role": "assistant",
            "content": "Checking.",
            "toolCalls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city":"Paris"}'},
                }
            ],
        },
        {"id": "t1", "toolCallId": "c1", "role": "tool", "content": "sunny"},
    ]


def test_messages_are_models_and_interrupts_too() -> None:
    thread = apply_events(CASES["interrupt-outcome"]["events"], messages=[UserMessage(id="u0", content="hi")])
    assert [type(m) for m in thread.messages] == [UserMessage, AssistantMessage]
    assert thread.messages[1].tool_calls[0].function.name == "delete"
    assert [type(i) for i in thread.interrupts] == [Interrupt, Interrupt]
    assert thread.interrupts[0].tool_call_id == "c1"
    assert thread.outcome == "interrupt"
    assert isinstance(apply_events(CASES["tool-without-parent"]["events"]).messages[1], ToolMessage)


def test_input_events_and_initial_messages_are_not_mutated() -> None:
    events = CASES["snapshot-then-stream-into-snapshot-message"]["events"]
    before = copy.deepcopy(events)
    initial = [copy.deepcopy(USER)]
    apply_events(events, messages=initial)
    apply_events(CASES["state-snapshot-and-deltas"]["events"])
    assert events == before
    assert initial == [USER]
    assert apply_events(events).message_dicts == apply_events(events).message_dicts


def test_run_records() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "timestamp": 1000},
        {"type": "STEP_STARTED", "stepName": "plan", "timestamp": 1001},
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"},
        {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        {"type": "STEP_FINISHED", "stepName": "plan", "timestamp": 1005},
        {"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "helper"},
        {"type": "SUBAGENT_FINISHED", "subagentRunId": "s1", "result": 3},
        {
            "type": "RUN_FINISHED",
            "threadId": "t",
            "runId": "r1",
            "timestamp": 1500,
            "result": {"ok": True},
            "usage": [{"provider": "openai", "model": "m", "inputTokens": 10, "outputTokens": 5}],
        },
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r2", "timestamp": 2000},
        {"type": "RUN_ERROR", "message": "boom", "code": "E1", "timestamp": 2100},
    ]
    first, second = apply_events(events).runs
    assert (first.run_id, first.outcome, first.result, first.duration_ms, first.event_count) == (
        "r1",
        "success",
        {"ok": True},
        500,
        8,
    )
    assert first.pending_tool_call_ids == ["c1"]
    assert first.usage == [{"provider": "openai", "model": "m", "inputTokens": 10, "outputTokens": 5}]
    assert [(s.name, s.start_index, s.end_index, s.finished_at) for s in first.steps] == [
        ("plan", 1, 4, 1005)
    ]
    assert [(s.subagent_run_id, s.name, s.outcome, s.result) for s in first.subagents] == [
        ("s1", "helper", "success", 3)
    ]
    assert (
        second.run_id,
        second.outcome,
        second.error,
        second.error_code,
        second.start_index,
        second.end_index,
    ) == (
        "r2",
        "error",
        "boom",
        "E1",
        8,
        9,
    )


def test_the_reducer_reads_a_live_stream_event_by_event() -> None:
    reducer = EventReducer()
    for event in CASES["text-simple"]["events"][:3]:
        reducer.feed(event)
    assert reducer.result().message_dicts == [{"id": "m1", "role": "assistant", "content": "Hel"}]
    for event in CASES["text-simple"]["events"][3:]:
        reducer.feed(event)
    assert reducer.result().message_dicts == [{"id": "m1", "role": "assistant", "content": "Hello"}]
    assert reducer.result().runs[0].outcome == "success"


def test_unreadable_lines_are_skipped_when_lenient() -> None:
    good = CASES["text-simple"]["events"]
    text = "\n".join([json.dumps(good[0]), "{broken", *(json.dumps(e) for e in good[1:])])
    assert apply_events(text).message_dicts == [{"id": "m1", "role": "assistant", "content": "Hello"}]
