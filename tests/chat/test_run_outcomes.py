"""The log tells the truth about every run's outcome, and a chat opened on it shows that outcome again.

Each case drives a real (scripted) agent through a headless :class:`Chat` on a log file and checks, for one way a
run can end: what ``send_message`` returns, the status the chat shows, and the ``agui-notebook/run-end`` record;
then it opens the log in a new chat (a re-run cell, a restarted kernel) and checks that it shows the same.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook import Chat
from agui_notebook._errors import AgentRunError
from agui_notebook.chat._records import record_kind

UNTERMINATED = "the agent's stream ended without RUN_FINISHED or RUN_ERROR; the run is closed as finished"


def _started(run_input: RunAgentInput) -> dict[str, Any]:
    return {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}


def _finished(run_input: RunAgentInput, **more: Any) -> dict[str, Any]:
    return {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_input.run_id, **more}


def _answer(
    end: Callable[[RunAgentInput], dict[str, Any]] | None,
) -> Callable[[RunAgentInput], Iterator[Any]]:
    """An agent that says "hi", then ends with ``end`` (None: with nothing)."""

    def agent(run_input: RunAgentInput) -> Iterator[Any]:
        yield _started(run_input)
        yield {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "hi"}
        yield {"type": "TEXT_MESSAGE_END", "messageId": "m1"}
        if end is not None:
            yield end(run_input)

    return agent


def _raises(run_input: RunAgentInput) -> Iterator[Any]:
    yield _started(run_input)
    raise ValueError("database unreachable")


class _Waits:
    """An agent that says "hi" and then waits until it is stopped."""

    async def __call__(self, run_input: RunAgentInput) -> AsyncIterator[Any]:
        yield _started(run_input)
        yield {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "hi"}
        await asyncio.Event().wait()  # only stop() ends this


@dataclass
class Case:
    agent: Any
    returned: str
    """What ``send_message`` resolves to."""
    record: dict[str, Any]
    """The run-end record's value, without its run id and the messages it keeps."""
    status: str
    error: str
    warnings: list[str]
    ai_metadata: dict[str, Any]
    """The answer's ``metadata["ag-ui"]`` without its thread and run ids."""
    stop: bool = False


INTERRUPTS = [{"id": "i1", "reason": "input_required", "message": "Where to?"}]

CASES = {
    "success": Case(_answer(_finished), "success", {"outcome": "success"}, "ready", "", [], {}),
    "error": Case(
        _answer(lambda _: {"type": "RUN_ERROR", "message": "rate limited", "code": "429"}),
        "error",
        {"outcome": "error", "error": "rate limited", "code": "429"},
        "error",
        "rate limited",
        [],
        {"error": {"message": "rate limited", "code": "429"}},
    ),
    "cancelled": Case(
        _answer(lambda ri: _finished(ri, outcome={"type": "cancelled"})),
        "cancelled",
        {"outcome": "cancelled"},
        "ready",
        "",
        [],
        {"outcome": {"type": "cancelled"}},
    ),
    "stopped": Case(
        _Waits(),
        "cancelled",
        {"outcome": "stopped"},
        "ready",
        "",
        [],
        {"outcome": {"type": "cancelled"}},  # the client ended the run: its RUN_FINISHED says cancelled
        stop=True,
    ),
    "interrupted": Case(
        _answer(lambda ri: _finished(ri, outcome={"type": "interrupt", "interrupts": INTERRUPTS})),
        "interrupt",
        {"outcome": "interrupt"},
        "ready",
        "",
        [],
        {"outcome": {"type": "interrupt", "interrupts": INTERRUPTS}},
    ),
    "raises": Case(
        _raises,
        "error",
        {"outcome": "error", "error": "ValueError: database unreachable", "code": "ValueError"},
        "error",
        "ValueError: database unreachable",
        [],
        {"error": {"message": "ValueError: database unreachable", "code": "ValueError"}},
    ),
    "no terminal event": Case(
        _answer(None),
        "success",
        {"outcome": "success", "warnings": [UNTERMINATED]},
        "ready",
        "",
        [UNTERMINATED],
        {},
    ),
}


def _run_end(chat: Chat) -> dict[str, Any]:
    ends = [r["event"]["value"] for r in chat.events if record_kind(r["event"]) == "run-end"]
    assert len(ends) == 1
    return {k: v for k, v in ends[0].items() if k not in ("runId", "messages", "length")}


def _shown(chat: Chat) -> dict[str, Any]:
    return {
        "status": chat.status,
        "error": chat.error,
        "details": chat.error_details,
        "warnings": chat.warnings,
        "messages": chat.messages,
    }


@pytest.mark.parametrize("name", list(CASES))
async def test_the_log_tells_each_outcome_and_a_reopened_chat_shows_it(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    chat = Chat(case.agent, store=tmp_path / "log.jsonl")
    task = chat.send_message("hi")
    if case.stop:
        for _ in range(3000):  # at most 30 s: the agent sends "hi" at once
            if chat.messages[-1]["role"] == "assistant" and chat.messages[-1]["parts"]:
                break
            await asyncio.sleep(0.01)
        assert chat.status == "streaming"
        chat.stop()
    assert await asyncio.wait_for(task, 30) == case.returned
    details = chat.error_details
    record = dict(case.record)
    if name == "raises":
        assert details.startswith("Traceback (most recent call last):")
        assert details.endswith("ValueError: database unreachable\n")
        record["details"] = details
    else:
        assert details == ""
    assert _run_end(chat) == record
    assert (chat.status, chat.error, chat.warnings) == (case.status, case.error, case.warnings)
    metadata = dict(chat.messages[-1].get("metadata", {}).get("ag-ui", {}))
    metadata.pop("threadId", None), metadata.pop("runId", None)
    assert metadata == case.ai_metadata
    texts = [p["text"] for p in chat.messages[-1]["parts"] if p["type"] == "text"]
    assert texts == ([] if name == "raises" else ["hi"])  # what was streamed stays
    if name == "error":
        assert isinstance(chat.exception, AgentRunError) and chat.exception.code == "429"
    before = _shown(chat)
    chat.close()

    again = Chat(case.agent, store=tmp_path / "log.jsonl")
    assert _shown(again) == before
