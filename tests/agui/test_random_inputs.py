"""Hostile input to every public reader, reducer and checker of agui/: only the package's errors, each located.

Random event sequences of the real shapes with random values (huge ints, deep nesting, lone surrogates, NaN,
unhashable ids), as objects and as JSONL/SSE bytes cut anywhere. ``verify_events`` never raises; skipping
``apply_events`` and ``EventReducer`` never raise on content; strict ``apply_events`` and the readers raise
``ProtocolError``/``EventParseError`` naming the event.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agui_notebook import (
    AguiNotebookError,
    aapply_events,
    aparse_events,
    apply_events,
    averify_events,
    iter_wire_events,
    parse_events,
    verify_events,
)
from agui_notebook.agui import EventReducer, apply_json_patch
from tests.support.hostile import (
    DEEP_500,
    DEEP_LIST,
    HUGE_INT,
    MESSAGES,
    PATCHES,
    RANDOM_INPUT_SETTINGS,
    RUN_STARTED,
    VALUES,
    async_slices,
    event_sequences,
    raises_only_located,
    text_form,
)
from tests.wire.streams import cuts

SETTINGS = RANDOM_INPUT_SETTINGS


def _check_problems(problems: list[Any]) -> None:
    for problem in problems:
        assert isinstance(problem.index, int)
        assert problem.describe()


def _check_thread(thread: Any) -> None:
    assert isinstance(thread.message_dicts, list)
    for run in thread.runs:
        assert run.event_count >= 0
    # The models are a validation: a located package error when the messages are not valid AG-UI messages.
    raises_only_located(lambda: thread.messages)
    raises_only_located(lambda: thread.interrupts)


def _every_entry_point(source: Any, replay: Any) -> None:
    """Run every agui entry point on ``source`` (``replay()`` gives a fresh copy for each)."""
    _check_problems(verify_events(replay()))
    _check_problems(verify_events(replay(), validate=False))
    _check_problems(verify_events(replay(), rules="spec"))
    _check_thread(apply_events(replay()))
    strict = raises_only_located(lambda: apply_events(replay(), errors="raise"))
    if not isinstance(strict, AguiNotebookError):
        _check_thread(strict)
    raises_only_located(lambda: list(iter_wire_events(replay())))
    raises_only_located(lambda: list(iter_wire_events(replay(), expand_chunks=False, upgrade_legacy=False)))
    raises_only_located(lambda: parse_events(replay()))
    reducer = EventReducer()
    for event in replay() if isinstance(source, list) else ():
        reducer.feed(event)
    _check_thread(reducer.result())


@SETTINGS
@given(event_sequences())
def test_event_objects(events: list[Any]) -> None:
    _every_entry_point(events, lambda: copy.deepcopy(events) if _shallow(events) else list(events))


@SETTINGS
@given(event_sequences(max_size=6), st.booleans(), st.data())
def test_event_text_cut_anywhere(events: list[Any], sse: bool, data: st.DataObject) -> None:
    blob = text_form(events, sse=sse)
    pieces = data.draw(cuts(blob))
    _every_entry_point(blob, lambda: blob)
    _every_entry_point(pieces, lambda: list(pieces))
    _check_problems(asyncio.run(averify_events(async_slices(pieces))))
    _check_thread(asyncio.run(aapply_events(async_slices(pieces))))
    strict = raises_only_located(lambda: asyncio.run(aapply_events(async_slices(pieces), errors="raise")))
    if not isinstance(strict, AguiNotebookError):
        _check_thread(strict)
    raises_only_located(lambda: asyncio.run(aparse_events(async_slices(pieces))))


@SETTINGS
@given(event_sequences(max_size=6), MESSAGES, VALUES)
def test_starting_messages_and_state(events: list[Any], messages: list[Any], state: Any) -> None:
    _check_problems(verify_events(list(events), messages=messages, state=state))
    _check_thread(apply_events(list(events), messages=messages, state=state))
    strict = raises_only_located(
        lambda: apply_events(list(events), messages=messages, state=state, errors="raise")
    )
    if not isinstance(strict, AguiNotebookError):
        _check_thread(strict)


@SETTINGS
@given(VALUES, PATCHES)
def test_json_patches(document: Any, patch: Any) -> None:
    raises_only_located(lambda: apply_json_patch(document, patch))
    raises_only_located(
        lambda: apply_json_patch(
            copy.deepcopy(document) if _shallow([document]) else document, patch, in_place=True
        )
    )


def _shallow(values: list[Any]) -> bool:
    """Whether ``copy.deepcopy`` can copy these (it recurses: not through 10,000 levels)."""
    pending = list(values)
    seen = 0
    while pending:
        value = pending.pop()
        seen += 1
        if seen > 2000 or value is DEEP_LIST:
            return False
        if isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return True


# -- the cases from the issue, one by one -------------------------------------------------------------------------

R, F = RUN_STARTED, {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"}
CASES: dict[str, list[Any]] = {
    "list-message-id": [
        R,
        {"type": "TEXT_MESSAGE_START", "messageId": ["x"]},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": ["x"], "delta": "a"},
        F,
    ],
    "dict-tool-call-id": [
        R,
        {"type": "TOOL_CALL_START", "toolCallId": {"a": 1}, "toolCallName": "f"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": {"a": 1}, "delta": "{}"},
        {"type": "TOOL_CALL_RESULT", "messageId": "t", "toolCallId": {"a": 1}, "content": "x"},
        F,
    ],
    "snapshot-tool-calls-not-a-list": [
        R,
        {"type": "MESSAGES_SNAPSHOT", "messages": [{"id": "a", "role": "assistant", "toolCalls": 5}]},
        F,
    ],
    "input-tool-calls-not-a-list": [
        {**R, "input": {"messages": [{"id": "a", "role": "assistant", "toolCalls": 5}]}},
        F,
    ],
    "huge-int-id": [R, {"type": "TEXT_MESSAGE_CONTENT", "messageId": HUGE_INT, "delta": "x"}, F],
    "deep-patch-copy-and-test": [
        R,
        {"type": "STATE_SNAPSHOT", "snapshot": DEEP_500},
        {"type": "STATE_DELTA", "delta": [{"op": "copy", "from": "/x", "path": "/y"}]},
        {"type": "STATE_DELTA", "delta": [{"op": "test", "path": "/x", "value": DEEP_500["x"]}]},
        {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/z", "value": DEEP_500}]},
        F,
    ],
    "deep-delta": [
        R,
        {"type": "TEXT_MESSAGE_START", "messageId": "m"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": DEEP_LIST},
        F,
    ],
    "interrupts-not-a-list": [R, {**F, "outcome": {"type": "interrupt", "interrupts": 5}}],
    "step-name-list": [
        R,
        {"type": "STEP_STARTED", "stepName": ["a"]},
        {"type": "STEP_FINISHED", "stepName": ["a"]},
        F,
    ],
}


@pytest.mark.parametrize("name", list(CASES))
def test_issue_cases(name: str) -> None:
    events = CASES[name]
    problems = verify_events(events)
    assert any(p.severity == "error" for p in problems) or name.startswith("deep-patch")
    _every_entry_point(events, lambda: list(events))


def test_a_deep_patch_copy_and_test_apply_as_the_client_does() -> None:
    thread = apply_events(CASES["deep-patch-copy-and-test"], errors="raise")
    assert set(thread.state) == {"x", "y", "z"}
    assert thread.state["y"] == DEEP_500["x"] and thread.state["y"] is not DEEP_500["x"]


def test_strict_replay_names_the_malformed_event() -> None:
    with pytest.raises(AguiNotebookError, match=r"^event 1 \(TEXT_MESSAGE_START\): messageId: ") as caught:
        apply_events(CASES["list-message-id"], errors="raise")
    assert caught.value.index == 1
