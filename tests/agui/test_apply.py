"""apply_events against @ag-ui/client's defaultApplyEvents, driven through node on the same sequences; strict replay."""

from __future__ import annotations

import copy
import json
import warnings
from pathlib import Path
from typing import Any

import pytest

from agui_notebook._errors import EventLogWarning
from agui_notebook.agui._apply import ProtocolError, apply_events
from agui_notebook.agui._intake import EventParseError, wire_event_list
from agui_notebook.agui._verify import verify_events
from agui_notebook.chat._recorder import record
from tests.agui.apply_cases import CASES, USER, run, run_started, text, tool
from tests.support.node import run_node_reference

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


def test_a_recorder_log_gives_the_thread_of_its_events(tmp_path: Path) -> None:
    # Issue 31, defect 1: the JSONL fast path handed the reducer the recorder's lines, not their events (0 messages).
    events = CASES["tool-with-text-parent"]["events"]
    path = tmp_path / "run.jsonl"
    assert list(record(iter(events), path)) == events
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["event"] for r in records] == events
    expected = apply_events(events)
    for source in (path, str(path), path.read_bytes(), path.read_text(), records):
        thread = apply_events(source)
        assert (thread.message_dicts, thread.runs) == (expected.message_dicts, expected.runs)
    with path.open("rb") as handle:
        assert apply_events(handle).message_dicts == expected.message_dicts
    # Records among bare events (logs joined by hand) are each unwrapped, in the reader's fast path too.
    mixed = "\n".join(json.dumps(r if i % 2 else r["event"]) for i, r in enumerate(records))
    assert apply_events(mixed).message_dicts == expected.message_dicts
    assert wire_event_list(mixed) == events


def test_a_source_with_no_event_in_it_is_an_empty_thread_and_a_warning() -> None:
    # A Parquet table or a trace export is no stream of events: skipping every line of it is said, not silent.
    for source, why in [
        (b"PAR1\x15\x04", r"<text>:1: not JSON, JSONL or SSE \(starts with 'PAR1"),
        ('{"resourceSpans": []}\n', r"<text>:1: event has no string 'type'"),
        ([{"resourceSpans": []}], r"<events>: event 0: event has no string 'type'"),
    ]:
        with pytest.warns(EventLogWarning, match=rf"^apply_events: no AG-UI event could be read \({why}"):
            assert apply_events(source).message_dicts == []
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (
            apply_events("").message_dicts == apply_events([]).message_dicts == []
        )  # nothing to read: no warning
        text = "\n".join([json.dumps(run_started()), "{broken"])
        assert apply_events(text).runs[0].run_id == "run-1"  # a bad line among events: skipped in silence


def test_input_events_and_initial_messages_are_not_mutated() -> None:
    events = CASES["snapshot-then-stream-into-snapshot-message"]["events"]
    before = copy.deepcopy(events)
    initial = [copy.deepcopy(USER)]
    apply_events(events, messages=initial)
    apply_events(CASES["state-snapshot-and-deltas"]["events"])
    assert events == before
    assert initial == [USER]
    assert apply_events(events).message_dicts == apply_events(events).message_dicts


def test_unreadable_lines_are_skipped_when_lenient() -> None:
    good = CASES["text-simple"]["events"]
    text = "\n".join([json.dumps(good[0]), "{broken", *(json.dumps(e) for e in good[1:])])
    assert apply_events(text).message_dicts == [{"id": "m1", "role": "assistant", "content": "Hello"}]


# -- strict replay -------------------------------------------------------------------------------------------------


def test_strict_apply_raises_at_the_first_error_naming_the_event() -> None:
    events = run(text("m1", "a"), {"type": "TOOL_CALL_ARGS", "toolCallId": "c7", "delta": "{}"})
    with pytest.raises(
        ProtocolError, match=r"^event 4 \(TOOL_CALL_ARGS\): no active tool call 'c7'"
    ) as caught:
        apply_events(events, errors="raise")
    assert caught.value.index == 4
    assert caught.value.problem.rule == "tool-call-not-open"
    assert isinstance(caught.value, ValueError)
    assert apply_events(events).message_dicts == [{"id": "m1", "role": "assistant", "content": "a"}]


def test_strict_apply_raises_on_unreadable_input_and_passes_warnings() -> None:
    with pytest.raises(EventParseError, match=r"^<text>:2: invalid JSON"):
        apply_events(json.dumps(run_started()) + "\n{oops", errors="raise")
    thread = apply_events(run(tool("c1", "f", "{}"), tool("c1", "f")), errors="raise")  # only a warning
    assert thread.message_dicts[0]["toolCalls"][0]["function"]["arguments"] == "{}"


@pytest.mark.parametrize("name", [n for n in CASES if not n.startswith("invalid-")])
def test_strict_apply_gives_the_lenient_result_on_accepted_sequences(name: str) -> None:
    case = CASES[name]
    kwargs = {"messages": case.get("messages"), "state": case.get("state")}
    strict = apply_events(case["events"], errors="raise", **kwargs) if not _has_errors(case) else None
    if strict is not None:
        lenient = apply_events(case["events"], **kwargs)
        assert (strict.message_dicts, strict.state, strict.interrupt_dicts) == (
            lenient.message_dicts,
            lenient.state,
            lenient.interrupt_dicts,
        )


def _has_errors(case: dict[str, Any]) -> bool:
    return any(p.severity == "error" for p in verify_events(case["events"], messages=case.get("messages")))
