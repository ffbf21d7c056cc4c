"""The shared state the state panel shows: the ``state`` trait, its observers, ``state_changes`` and the run input.

Also the module behind ``state_changes`` (widget/_state_changes.py): delta paths, snapshot differences, appends.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from ag_ui.core import RunAgentInput, StateDeltaEvent, StateSnapshotEvent
from pydantic_ai import Agent, ToolReturn
from pydantic_ai.messages import ModelMessage, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from agui_notebook import JsonValueError
from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._state_changes import MAX_CHANGES, StateChanges
from tests.widget.front_end import FrontEnd
from tests.widget.sample_agents import agui_agent


def _run(thread_id: str, run_id: str = "r") -> list[dict[str, Any]]:
    return [{"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id}]


def _end(thread_id: str, run_id: str = "r") -> dict[str, Any]:
    return {"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id}


def _delta(*ops: dict[str, Any]) -> dict[str, Any]:
    return {"type": "STATE_DELTA", "delta": list(ops)}


# ---------------------------------------------------------------------------------------------- the trait


async def test_state_is_a_synced_trait_that_observers_see_on_agent_updates() -> None:
    async def agent(run_input: RunAgentInput) -> AsyncIterator[dict[str, Any]]:
        for event in _run(run_input.thread_id):
            yield event
        yield {"type": "STATE_SNAPSHOT", "snapshot": {"steps": [], "done": False}}
        await asyncio.sleep(0.15)  # longer than 1 / STATE_SYNC_RATE: each update is synced on its own
        yield _delta({"op": "add", "path": "/steps/-", "value": "plan"})
        await asyncio.sleep(0.15)
        yield _delta({"op": "replace", "path": "/done", "value": True})
        yield _end(run_input.thread_id)

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    seen: list[Any] = []
    chat.observe(lambda change: seen.append(change["new"]), "state")
    assert await chat.send_message("plan it") == "success"
    assert seen == [
        {"steps": [], "done": False},
        {"steps": ["plan"], "done": False},
        {"steps": ["plan"], "done": True},
    ]
    assert chat.state == {"steps": ["plan"], "done": True}
    assert chat.trait_metadata("state", "sync") is True
    # What the views got: the state on every sync, with what changed.
    assert view.trait_updates("state")[-1] == {"steps": ["plan"], "done": True}
    changes = view.trait_updates("state_changes")
    assert [c["source"] for c in changes] == ["snapshot", "delta", "delta"]
    assert changes[1]["changes"] == [{"op": "add", "path": "/steps/0"}]
    assert changes[2]["changes"] == [{"op": "replace", "path": "/done"}]
    assert changes[0]["changes"] == [{"op": "add", "path": ""}]  # the first state: everything is new


async def test_a_flood_of_deltas_is_synced_at_most_ten_times_a_second() -> None:
    async def agent(run_input: RunAgentInput) -> AsyncIterator[dict[str, Any]]:
        for event in _run(run_input.thread_id):
            yield event
        yield {"type": "STATE_SNAPSHOT", "snapshot": {"n": 0, "keys": {f"k{i}": i for i in range(10_000)}}}
        for n in range(1, 401):
            yield _delta({"op": "replace", "path": "/n", "value": n})
            if n % 50 == 0:
                await asyncio.sleep(0.01)
        yield _end(run_input.thread_id)

    chat = ChatWidget(agent)
    FrontEnd(chat)
    fired: list[int] = []
    chat.observe(lambda change: fired.append(change["new"]["n"]), "state")
    started = time.monotonic()
    assert await chat.send_message("count") == "success"
    elapsed = time.monotonic() - started
    assert fired[-1] == 400 and chat.state["n"] == 400 and len(chat.state["keys"]) == 10_000
    assert 2 <= len(fired) <= elapsed * 10 + 2, (len(fired), elapsed)
    assert fired == sorted(fired)
    last = chat.state_changes
    assert last["source"] == "delta" and last["changes"] == [{"op": "replace", "path": "/n"}]
    assert last["updates"] >= 1


async def test_setting_the_state_from_python_is_json_observed_and_goes_with_the_next_run() -> None:
    inputs: list[Any] = []

    def agent(run_input: RunAgentInput) -> Any:
        inputs.append(run_input.state)
        yield from _run(run_input.thread_id)
        yield _delta({"op": "add", "path": "/seen", "value": True})
        yield _end(run_input.thread_id)

    chat = ChatWidget(agent, state={"user": "ada"})
    view = FrontEnd(chat)
    seen: list[Any] = []
    chat.observe(lambda change: seen.append(change["new"]), "state")
    chat.state = {"user": "ada", "limit": np.int64(3), "ratio": float("nan")}
    assert chat.state == {"user": "ada", "limit": 3, "ratio": None}
    assert seen == [{"user": "ada", "limit": 3, "ratio": None}]
    assert view.trait_updates("state")[-1] == {"user": "ada", "limit": 3, "ratio": None}
    assert chat.state_changes["source"] == "python"
    assert chat.state_changes["changes"] == [{"op": "add", "path": "/limit"}, {"op": "add", "path": "/ratio"}]
    assert await chat.send_message("go") == "success"
    assert inputs == [{"user": "ada", "limit": 3, "ratio": None}]
    assert chat.state == {"user": "ada", "limit": 3, "ratio": None, "seen": True}
    assert await chat.send_message("again") == "success"
    assert inputs[1] == {"user": "ada", "limit": 3, "ratio": None, "seen": True}
    with pytest.raises(JsonValueError, match=r"state\.bad"):
        chat.state = {"bad": object()}
    assert chat.state["seen"] is True


async def test_the_state_cannot_change_from_python_while_the_agent_answers() -> None:
    release = asyncio.Event()

    async def agent(run_input: RunAgentInput) -> AsyncIterator[dict[str, Any]]:
        for event in _run(run_input.thread_id):
            yield event
        await release.wait()
        yield _end(run_input.thread_id)

    chat = ChatWidget(agent, state={"a": 1})
    FrontEnd(chat)
    task = chat.send_message("hi")
    await asyncio.sleep(0.05)
    with pytest.raises(Exception, match="cannot change the state while the agent is answering"):
        chat.state = {"a": 2}
    release.set()
    assert await task == "success"
    assert chat.state == {"a": 1}


async def test_a_pydantic_ai_tool_that_returns_state_events_updates_the_panel() -> None:
    def rounds(messages: list[ModelMessage]) -> int:
        return sum(1 for m in messages for p in getattr(m, "parts", ()) if isinstance(p, ToolReturnPart))

    async def model(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        if rounds(messages):
            yield "Added milk."
            return
        yield {0: DeltaToolCall(name="add_item", json_args='{"item": "milk"}', tool_call_id="call_1")}

    agent = Agent(FunctionModel(stream_function=model))

    @agent.tool_plain
    def add_item(item: str) -> ToolReturn:
        """Add an item to the shopping list."""
        return ToolReturn(
            return_value=f"added {item}",
            metadata=[
                StateSnapshotEvent(snapshot={"items": []}),
                StateDeltaEvent(delta=[{"op": "add", "path": "/items/-", "value": item}]),
            ],
        )

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("add milk") == "success"
    assert chat.state == {"items": ["milk"]}
    assert view.trait_updates("state")[-1] == {"items": ["milk"]}
    # The snapshot is synced at once (the first update after a quiet spell), the delta with the run's end.
    changes = view.trait_updates("state_changes")
    assert [(c["source"], c["changes"]) for c in changes] == [
        ("snapshot", [{"op": "add", "path": ""}]),
        ("delta", [{"op": "add", "path": "/items/0"}]),
    ]


async def test_save_load_and_clear_keep_the_state_rules(tmp_path: Path) -> None:
    chat = ChatWidget(agui_agent, state={"start": True})
    FrontEnd(chat)
    assert await chat.send_message("sum") == "success"
    assert chat.state == {"total": 3, "count": 1}
    chat.save(tmp_path / "chat.json")
    loaded = ChatWidget.load(tmp_path / "chat.json", agent=agui_agent)
    assert loaded.state == {"total": 3, "count": 1}
    assert loaded.get_state("state")["state"] == {"total": 3, "count": 1}  # what the notebook saves
    seen: list[Any] = []
    chat.observe(lambda change: seen.append(change["new"]), "state")
    chat.clear()
    assert chat.state == {"start": True} and seen == [{"start": True}]
    assert chat.state_changes == {}


# ---------------------------------------------------------------------------------------------- changes


def test_delta_paths_merge_per_path_and_appends_get_their_index() -> None:
    changes = StateChanges()
    updates = [
        _delta({"op": "add", "path": "/list/-", "value": 1}, {"op": "add", "path": "/list/-", "value": 2}),
        _delta({"op": "remove", "path": "/gone"}, {"op": "add", "path": "/gone", "value": 0}),
        _delta({"op": "move", "from": "/a", "path": "/b"}, {"op": "test", "path": "/b", "value": 1}),
        _delta({"op": "add", "path": "/new", "value": 1}, {"op": "replace", "path": "/new", "value": 2}),
    ]
    after = {"list": [0, 1, 2], "gone": 0, "b": 1, "new": 2}
    taken = changes.take(None, after, updates, "agent")
    assert taken["changes"] == [
        {"op": "add", "path": "/list/1"},
        {"op": "add", "path": "/list/2"},
        {"op": "replace", "path": "/gone"},
        {"op": "remove", "path": "/a"},
        {"op": "add", "path": "/b"},
        {"op": "add", "path": "/new"},
    ]
    assert (taken["seq"], taken["source"], taken["updates"], taken["truncated"]) == (1, "delta", 4, False)
    assert changes.take(after, after, [], "python")["seq"] == 2


def test_a_snapshot_is_told_apart_by_the_difference_it_made() -> None:
    before = {"a": {"x": 1, "y": [1, 2, 3]}, "b": "same", "c~/d": 1, "flag": 1}
    after = {"a": {"x": 2, "y": [1, 2]}, "b": "same", "e": None, "flag": True}
    taken = StateChanges().take(before, after, [{"type": "STATE_SNAPSHOT", "snapshot": after}], "agent")
    assert taken["source"] == "snapshot"
    assert taken["changes"] == [
        {"op": "replace", "path": "/a/x"},
        {"op": "remove", "path": "/a/y/2"},
        {"op": "remove", "path": "/c~0~1d"},
        {"op": "replace", "path": "/flag"},  # 1 and true are not the same JSON
        {"op": "add", "path": "/e"},
    ]


def test_a_huge_difference_is_truncated() -> None:
    before = {f"k{i}": i for i in range(5_000)}
    after = {f"k{i}": -i - 1 for i in range(5_000)}
    started = time.perf_counter()
    taken = StateChanges().take(before, after, [], "python")
    assert time.perf_counter() - started < 0.5
    assert taken["truncated"] is True and len(taken["changes"]) == MAX_CHANGES


async def test_a_state_the_comm_cannot_carry_is_sent_with_replacements() -> None:
    async def agent(run_input: RunAgentInput) -> AsyncIterator[dict[str, Any]]:
        for event in _run(run_input.thread_id):
            yield event
        yield {"type": "STATE_SNAPSHOT", "snapshot": {"half_emoji": "\ud83d", "ok": 1}}
        yield _end(run_input.thread_id)

    chat = ChatWidget(agent)
    view = FrontEnd(chat)  # serializes what it is sent as the comm does: a lone surrogate cannot be encoded
    assert await chat.send_message("hi") == "success"
    assert chat.status == "ready" and not chat.busy
    assert view.trait_updates("state")[-1] == {"half_emoji": "\ufffd", "ok": 1}
    assert await chat.send_message("again") == "success"  # the widget stays usable
