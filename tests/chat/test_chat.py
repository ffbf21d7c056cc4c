"""Chat without a widget: every run path headless, and every conversation restored exactly from its log.

Each scenario drives a real agent through a :class:`Chat` on a log file, then opens the log again (a re-run cell,
a restarted kernel) and compares everything a user could see or use: messages, state, branches, threads, pending
approvals and interrupts, the records themselves, the run inputs.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook import Chat, ChatStateError, MessageNotFoundError, OptionError, fork
from agui_notebook.chat._listeners import ChatListener
from agui_notebook.chat._records import record_kind
from agui_notebook.demo import DemoAgent
from agui_notebook.ui._changes import MessageChange
from tests.chat.test_frontend_tools import scripted
from tests.chat.test_interrupts import TRIP_SCHEMA, ScriptedAgent
from tests.support.pydantic_ai_runs import SCENARIOS, make_agent, make_approval_agent
from tests.widget.sample_agents import AGUI_ANSWER, agui_agent, chunk_agent


def what_it_shows(chat: Chat) -> dict[str, Any]:
    """Everything of a chat a user can see or use."""
    return {
        "messages": chat.messages,
        "state": chat.state,
        "thread": chat.thread_id,
        "branch_points": chat.branch_points,
        "branches": [[b.message_ids for b in chat.branches(m["id"])] for m in chat.messages],
        "threads": [(t["id"], t["title"], t["turns"], t["current"]) for t in chat.threads],
        "records": chat.events,
        "run_inputs": chat.run_inputs,
    }


def reopened(chat: Chat, agent: Any = None, **options: Any) -> Chat:
    """The chat opened again from its log, as a re-run cell or a restarted kernel opens it."""
    store = chat.store
    chat.close()
    return Chat(agent if agent is not None else chat.agent, store=store, **options)


async def assert_restores(chat: Chat, **options: Any) -> Chat:
    before = what_it_shows(chat)
    again = reopened(chat, **options)
    assert what_it_shows(again) == before
    return again


class Recorder(ChatListener):
    """A view that writes down what it was told."""

    def __init__(self) -> None:
        self.told: list[str] = []
        self.changes: list[MessageChange] = []

    def messages_changed(self, changes: list[MessageChange]) -> None:
        self.told.append("messages")
        self.changes += changes

    def messages_reset(self) -> None:
        self.told.append("reset")

    def status_changed(self) -> None:
        self.told.append("status")

    def run_begun(self, sent_ns: int | None, resumes: bool) -> None:
        self.told.append("begun")

    def run_ended(self) -> None:
        self.told.append("ended")


# ---------------------------------------------------------------------------------------------- headless runs


async def test_a_headless_chat_runs_and_tells_its_views(tmp_path: Path) -> None:
    chat = Chat(agui_agent, store=tmp_path / "chat.jsonl", thread_id="thread-1")
    view = Recorder()
    chat.subscribe(view)
    assert await chat.send_message("What is 1 + 2?") == "success"
    assert chat.messages[1] == AGUI_ANSWER and chat.state == {"total": 3, "count": 1}
    assert view.told[:3] == ["messages", "begun", "status"]  # the question, the run, "submitted"
    assert view.told[-2:] == ["ended", "status"]
    assert [record_kind(r["event"]) for r in chat.events if record_kind(r["event"])] == [
        "thread", "send", "run-start", "run-end",
    ]  # fmt: skip
    # The log on disk is the same records, line by line.
    lines = [json.loads(line) for line in (tmp_path / "chat.jsonl").read_text().splitlines()]
    assert lines == chat.events


async def test_a_chat_in_memory_writes_no_file(tmp_path: Path) -> None:
    chat = Chat(agui_agent, store=None)
    assert await chat.send_message("hi") == "success"
    assert chat.store is None and list(tmp_path.iterdir()) == []


def test_a_chat_nobody_used_leaves_no_file(tmp_path: Path) -> None:
    chat = Chat(agui_agent, store=tmp_path / "chat.jsonl", state={"n": 1})
    chat.close()
    assert not (tmp_path / "chat.jsonl").exists()


def test_a_log_is_opened_by_one_chat_of_a_kernel(tmp_path: Path) -> None:
    first = Chat(agui_agent, store=tmp_path / "chat.jsonl")
    with pytest.raises(OptionError, match="is the log of another chat in this kernel"):
        Chat(agui_agent, store=tmp_path / "chat.jsonl")
    assert Chat.opened(tmp_path / "chat.jsonl") is first
    first.close()
    assert Chat.opened(tmp_path / "chat.jsonl") is None


async def test_refusals_are_the_packages_errors() -> None:
    chat = Chat(None, store=None)
    with pytest.raises(TypeError, match="has no agent"):
        chat.send_message("hi")
    chat.agent = agui_agent
    with pytest.raises(OptionError, match="nothing to send"):
        chat.send_message("")
    with pytest.raises(ChatStateError, match="no user message"):
        chat.regenerate()
    task = chat.send_message("hi")
    with pytest.raises(ChatStateError, match="while the agent is answering"):
        chat.send_message("again")
    await task
    with pytest.raises(MessageNotFoundError, match="no message 'nope' in the conversation or its branches"):
        chat.feedback("nope", "up")
    with pytest.raises(OptionError, match="speed must be a positive number"):
        chat.play([], speed=0)


def test_a_chat_without_an_event_loop_says_so() -> None:
    chat = Chat(agui_agent, store=None)
    with pytest.raises(ChatStateError, match="runs its agent on a running event loop"):
        chat.send_message("hi")


# ---------------------------------------------------------------------------------------------- restored from the log


def _text(run_input: RunAgentInput) -> Iterator[str]:
    yield "You said: "
    yield str(run_input.messages[-1].content)


@pytest.mark.parametrize(
    "agent",
    [_text, agui_agent, chunk_agent, make_agent(SCENARIOS["reasoning_tool_text"]), DemoAgent(speed=0)],
    ids=["text", "ag-ui events", "ai-sdk chunks", "pydantic-ai", "demo"],
)
async def test_every_kind_of_agent_is_restored_exactly(agent: Any, tmp_path: Path) -> None:
    chat = Chat(agent, store=tmp_path / "chat.jsonl")
    await chat.send_message("What's the weather in Paris?")
    await chat.send_message("And in Oslo?")
    again = await assert_restores(chat)
    # The restored chat goes on: its next run's input carries the whole conversation.
    assert await again.send_message("Thanks") in ("success", "interrupt")
    assert [m["role"] for m in again.messages][-2] == "user"


async def test_a_pending_approval_is_restored_answerable(tmp_path: Path) -> None:
    chat = Chat(make_approval_agent(), store=tmp_path / "chat.jsonl")
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    again = await assert_restores(chat)
    part = again.messages[1]["parts"][-1]
    assert part["state"] == "approval-requested"
    assert await again.answer_approval(part["approval"]["id"], True) == "success"
    assert next(p for p in again.messages[1]["parts"] if p.get("toolCallId"))["output"] == "deleted /tmp/x"
    await assert_restores(again)


async def test_a_pending_interrupt_is_restored_answerable_and_an_answer_is_not_checked_again(
    tmp_path: Path,
) -> None:
    interrupt = {"id": "trip", "reason": "input", "message": "Where to?", "responseSchema": TRIP_SCHEMA}
    chat = Chat(ScriptedAgent([interrupt]), store=tmp_path / "chat.jsonl")
    assert await chat.send_message("Book me a hotel") == "interrupt"
    again = await assert_restores(chat)
    assert again.messages[1]["parts"][-1]["data"]["status"] == "open"
    answer = {"city": "Oslo", "nights": 2}
    assert await again.answer_interrupt("trip", answer) == "success"
    card = next(p for p in again.messages[1]["parts"] if p["type"] == "data-interrupt")
    assert card["data"] == {"interrupt": interrupt, "status": "resolved", "payload": answer}
    await assert_restores(again)


async def test_an_interrupt_that_expired_is_shown_expired_after_reopening(tmp_path: Path) -> None:
    interrupt = {"id": "q", "reason": "input", "message": "Soon?", "expiresAt": "2020-01-01T00:00:00Z"}
    chat = Chat(ScriptedAgent([interrupt]), store=tmp_path / "chat.jsonl")
    assert await chat.send_message("Hi") == "interrupt"
    again = reopened(chat)
    with pytest.raises(Exception, match="expired"):
        again.answer_interrupt("q", "now")
    assert await again.answer_interrupt("q", cancel=True) == "success"


async def test_frontend_tools_and_their_approvals_are_restored(tmp_path: Path) -> None:
    from agui_notebook import frontend_tool

    def get_time(tz: str = "UTC") -> str:
        """The time."""
        return "12:00"

    def wipe(path: str) -> str:
        """Delete a file."""
        return f"wiped {path}"

    tools = [get_time, frontend_tool(wipe, approval=True)]
    agent = scripted([("c1", "get_time", '{"tz": "UTC"}'), ("c2", "wipe", '{"path": "/x"}')])
    chat = Chat(agent, store=tmp_path / "chat.jsonl", tools=tools)
    assert await chat.send_message("time, then wipe") == "interrupt"
    again = await assert_restores(chat, tools=tools)
    asking = next(p for p in again.messages[-1]["parts"] if p.get("toolCallId") == "c2")
    assert asking["state"] == "approval-requested"
    assert await again.answer_approval(asking["approval"]["id"], True) == "success"
    await assert_restores(again, tools=tools)


async def test_stops_errors_and_state_set_from_python_are_restored(tmp_path: Path) -> None:
    async def slow(run_input: RunAgentInput) -> Any:
        yield "partial"
        await asyncio.sleep(30)

    def failing(run_input: RunAgentInput) -> Iterator[str]:
        yield "half"
        raise RuntimeError("boom")

    chat = Chat(slow, store=tmp_path / "chat.jsonl", state={"n": 0})
    task = chat.send_message("go")
    while chat.status != "streaming":
        await asyncio.sleep(0.005)
    chat.stop()
    assert await task == "cancelled"
    chat.agent = failing
    assert await chat.send_message("again") == "error"
    chat.state = {"n": 2}
    again = await assert_restores(chat)
    assert again.messages[1]["parts"][-1] == {"type": "text", "text": "partial", "state": "done"}
    assert again.messages[3]["metadata"]["ag-ui"]["error"]["message"] == "RuntimeError: boom"
    assert again.state == {"n": 2}


async def test_edits_regenerations_branch_choices_and_feedback_are_restored(tmp_path: Path) -> None:
    chat = Chat(_text, store=tmp_path / "chat.jsonl")
    await chat.send_message("first")
    await chat.send_message("second")
    original = chat.messages[2]["id"]
    await chat.edit(original, "second, edited")
    await chat.regenerate(chat.messages[1]["id"])
    chat.feedback(chat.messages[1]["id"], "down", "too short")
    chat.select_branch(chat.messages[1]["id"], 0)
    again = await assert_restores(chat)
    # Branches by any id of the tree: the original question is on a branch that is not shown now.
    assert [b.selected for b in again.branches(original)] == [True, False] or again.branches(original)
    again.select_branch(original, 1)
    assert again.messages[2]["parts"][-1]["text"] == "second, edited"
    await assert_restores(again)


async def test_a_played_stream_and_a_fork_are_restored(tmp_path: Path) -> None:
    chat = Chat(agui_agent, store=tmp_path / "chat.jsonl")
    await chat.play(list(chunk_agent(None)))  # type: ignore[arg-type]
    await chat.send_message("What is 1 + 2?")
    at = [r["event"]["type"] for r in chat.events].index("TOOL_CALL_RESULT") + 1
    await chat.branch_from(fork(chat, at=at, tool_results={"c1": "4"}))
    again = await assert_restores(chat)
    assert again.branch_points and again.messages[-1]["parts"][-1]["text"] == "The sum is **3**."


async def test_threads_are_restored_with_the_one_shown(tmp_path: Path) -> None:
    chat = Chat(_text, store=tmp_path / "chat.jsonl")
    await chat.send_message("Paris")
    first = chat.thread_id
    second = chat.new_thread()
    await chat.send_message("Oslo")
    chat.rename_thread(first, "Trip to Paris")
    chat.new_thread()
    chat.switch_thread(second)
    again = await assert_restores(chat)
    assert again.thread_id == second
    assert {t["id"]: t["title"] for t in again.threads}[first] == "Trip to Paris"
    again.switch_thread(first)
    assert again.messages[1]["parts"][-1]["text"] == "You said: Paris"


# ---------------------------------------------------------------------------------------------- threads


async def test_new_chat_keeps_the_old_thread_and_delete_removes_its_lines(tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    chat = Chat(_text, store=log)
    await chat.send_message("a secret question")
    first = chat.thread_id
    second = chat.new_thread()
    assert chat.messages == [] and [t["id"] for t in chat.threads] == [second, first]
    await chat.send_message("a public question")
    chat.switch_thread(first)
    assert chat.messages[0]["parts"][0]["text"] == "a secret question"
    chat.delete_thread(first)  # the thread shown: the most recent other one is shown instead
    assert chat.thread_id == second and [t["id"] for t in chat.threads] == [second]
    assert "secret" not in log.read_text() and "public" in log.read_text()
    with pytest.raises(MessageNotFoundError, match=f"no thread {first!r}"):
        chat.switch_thread(first)
    assert [t["id"] for t in reopened(chat).threads] == [second]


async def test_a_new_chat_while_the_agent_answers_is_refused_unless_it_stops_first(tmp_path: Path) -> None:
    async def slow(run_input: RunAgentInput) -> Any:
        yield "working"
        await asyncio.sleep(30)

    chat = Chat(slow, store=tmp_path / "chat.jsonl")
    task = chat.send_message("go")
    while chat.status != "streaming":
        await asyncio.sleep(0.005)
    first = chat.thread_id
    with pytest.raises(ChatStateError, match="stop\\(\\) first \\(or pass stop=True\\)"):
        chat.new_thread()
    chat.new_thread(stop=True)
    assert await task == "cancelled"
    assert chat.messages == [] and chat.status == "ready"
    # The stopped run ended in its own thread, not in the new one.
    chat.switch_thread(first)
    assert chat.messages[1]["parts"][-1] == {"type": "text", "text": "working", "state": "done"}
    kinds = [record_kind(r["event"]) or r["event"]["type"] for r in chat.events]
    assert kinds[-3:] == ["abort", "run-end", "thread"]  # its end, then the switch back to it
    again = await assert_restores(chat)
    assert [t["turns"] for t in again.threads] == [1, 0] or [t["turns"] for t in again.threads] == [0, 1]


async def test_clear_is_destructive(tmp_path: Path) -> None:
    chat = Chat(_text, store=tmp_path / "chat.jsonl", state={"n": 0})
    await chat.send_message("forget me")
    chat.clear()
    assert chat.messages == [] and chat.state == {"n": 0} and len(chat.threads) == 1
    assert "forget me" not in (tmp_path / "chat.jsonl").read_text()


# ---------------------------------------------------------------------------------------------- the log's size


async def test_the_log_grows_with_what_each_turn_adds_not_with_the_conversation(tmp_path: Path) -> None:
    """Run inputs are written as changes of the previous one: a long conversation is not written again each turn."""
    log = tmp_path / "chat.jsonl"
    chat = Chat(_text, store=log)
    sizes = []
    for turn in range(60):
        await chat.send_message(f"question {turn:02d}")
        sizes.append(log.stat().st_size)
    per_turn = [b - a for a, b in itertools.pairwise(sizes)]
    assert max(per_turn[-10:]) < 1.15 * max(per_turn[:10])
    # And every run input still reads back whole.
    assert [len(wire["messages"]) for _, wire in reopened(chat).run_inputs] == [2 * t + 1 for t in range(60)]


# ---------------------------------------------------------------------------------------------- two views of one chat


async def test_two_widgets_of_one_chat_stay_in_step() -> None:
    from agui_notebook import ChatWidget
    from tests.widget.front_end import FrontEnd, assert_in_sync

    chat = Chat(DemoAgent(speed=0), store=None)
    first, second = ChatWidget(chat), ChatWidget(chat)
    one, two = FrontEnd(first), FrontEnd(second)
    assert await first.send_message("What's the weather in Paris?") == "interrupt"
    approval = next(p for p in second.messages[-1]["parts"] if p.get("state") == "approval-requested")
    two.request({"kind": "approval", "approvalId": approval["approval"]["id"], "approved": True})
    assert await chat.task == "success"
    one.request({"kind": "new_thread"})
    assert second.thread_id == chat.thread_id and second.messages == []
    for view, widget in ((one, first), (two, second)):
        assert_in_sync(view, widget)


ScenarioStep = Callable[[Chat], Awaitable[Any]]
