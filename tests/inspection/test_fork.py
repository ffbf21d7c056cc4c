"""fork: the run input after events[:n] is apply_events(events[:n]), edited; chat.fork runs it on a branch."""

from __future__ import annotations

import asyncio
import functools
import json
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_ai.messages import ToolReturnPart, UserPromptPart

from agui_notebook import (
    ChatWidget,
    EventParseError,
    ForkInputWarning,
    InputTypeError,
    OptionError,
    apply_events,
    fork,
    load_events,
)
from tests.logs.samples import CAPTURES, known_events
from tests.support.pydantic_ai_runs import PROMPT, SCENARIOS, capture_approval, make_agent

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"

# The recorded logs here are server-side captures: their forks have no user message (tested apart below).
pytestmark = pytest.mark.filterwarnings("ignore::agui_notebook.ForkInputWarning")


@functools.cache
def recorded_logs() -> dict[str, tuple[Any, list[dict[str, Any]]]]:
    """Recorded logs as (what fork reads, the events apply_events is given)."""
    logs: dict[str, tuple[Any, list[dict[str, Any]]]] = {}
    for path in sorted((FIXTURES / "agui").glob("*.jsonl")):
        logs[path.stem] = (path, [json.loads(line) for line in path.read_text().splitlines() if line])
    recorded = CAPTURES / "pydantic_ai_runs.jsonl"
    logs["recorder"] = (recorded, [json.loads(line)["event"] for line in recorded.read_text().splitlines()])
    logs["known"] = (known_events(), known_events())
    approval = asyncio.run(capture_approval(approved=True)).agui_events  # the resumed run carries its input
    logs["approval"] = (approval, approval)
    assert sorted(logs) == LOG_NAMES
    return logs


LOG_NAMES = ["approval", "known", "parallel_tools", "reasoning_tool_text", "recorder", "several_rounds"]


def comparable(run_input: Any) -> dict[str, Any]:
    """A run input without its fresh run id."""
    return run_input.model_dump(mode="json", by_alias=True, exclude_none=True, exclude={"run_id"})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_fork_is_what_apply_events_gives_for_the_first_n_events(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(LOG_NAMES))
    source, events = recorded_logs()[name]
    n = data.draw(st.integers(0, len(events)))
    thread = apply_events(events[:n])
    run_input = fork(source, at=n)
    assert run_input.messages == [m for m in thread.messages if m.role != "activity"]
    assert run_input.state == thread.state
    first_thread = next(e["threadId"] for e in events if "threadId" in e)  # before any run: the log's first
    assert run_input.thread_id == (thread.thread_id or first_thread)


def test_every_fork_of_a_log_has_a_fresh_run_id_on_the_same_thread() -> None:
    source, _events = recorded_logs()["several_rounds"]
    first, second = fork(source, at=5), fork(source)
    assert first.thread_id == second.thread_id == "thread-1"
    assert len({first.run_id, second.run_id, "run-1"}) == 3
    assert comparable(fork(load_events(source))) == comparable(second)  # a frame forks as its log does


def test_a_message_and_a_tool_result_are_edited_by_id() -> None:
    events = recorded_logs()["approval"][1]
    n = next(i for i, e in enumerate(events) if e["type"] == "TOOL_CALL_RESULT") + 1
    run_input = fork(events, at=n, messages={"user-1": "Delete /tmp/y"}, tool_results={"call_d": {"ok": 1}})
    by_role = {m.role: m for m in run_input.messages}
    assert by_role["user"].content == "Delete /tmp/y"
    assert by_role["tool"].content == '{"ok":1}'  # a result that is not text is written as JSON
    untouched = fork(events, at=n)
    assert [m.content for m in untouched.messages if m.role == "user"] == ["Delete /tmp/x"]
    assert fork(events, at=n, state={"mode": "dry"}).state == {"mode": "dry"}


def test_an_id_that_names_nothing_says_what_there_is() -> None:
    events = recorded_logs()["approval"][1]
    n = [i for i, e in enumerate(events) if e["type"] == "RUN_STARTED"][
        1
    ] + 1  # the resumed run's input is in
    with pytest.raises(OptionError) as caught:
        fork(events, at=n, tool_results={"call_x": "no"})
    assert str(caught.value) == (
        f"fork: no tool result for call 'call_x' in the conversation after event {n} (results: none)"
    )
    with pytest.raises(OptionError) as caught:
        fork(events, at=n, messages={"nope": "x"})
    answer = events[1]["messageId"]  # the first run's answer; the input's user message joins after it
    assert str(caught.value) == (
        f"fork: no message 'nope' in the conversation after event {n} (messages: {answer!r}, 'user-1')"
    )
    with pytest.raises(OptionError, match=r"^fork: at=99 is not a number of events from 0 to \d+$"):
        fork(events, at=99)


def _scripted_chat(received: list[Any]) -> ChatWidget:
    def agent(run_input):
        received.append(run_input)
        turn = len(received)
        ids = {"threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "RUN_STARTED", **ids}
        yield {
            "type": "TOOL_CALL_START",
            "toolCallId": f"c{turn}",
            "toolCallName": "weather",
            "parentMessageId": f"a{turn}",
        }
        yield {"type": "TOOL_CALL_ARGS", "toolCallId": f"c{turn}", "delta": '{"city": "Paris"}'}
        yield {"type": "TOOL_CALL_END", "toolCallId": f"c{turn}"}
        yield {
            "type": "TOOL_CALL_RESULT",
            "messageId": f"r{turn}",
            "toolCallId": f"c{turn}",
            "content": "sunny",
        }
        yield {"type": "TEXT_MESSAGE_CHUNK", "messageId": f"m{turn}", "delta": f"Answer {turn}."}
        yield {"type": "RUN_FINISHED", **ids}

    return ChatWidget(agent)


def test_chat_fork_sends_the_forked_input_to_the_agent_and_keeps_the_old_turns_as_a_branch() -> None:
    received: list[Any] = []

    async def run() -> ChatWidget:
        chat = _scripted_chat(received)
        await chat.send_message("Weather?")
        await chat.send_message("And tomorrow?")
        types = load_events(chat)["type"].tolist()
        assert types.count("RUN_STARTED") == 2 and len(types) == len(chat.events)
        at = types.index("TOOL_CALL_RESULT") + 1  # after the first run's tool result
        # The user's question, the call and an edited result.
        expected = fork(chat, at=at, tool_results={"c1": "storm"})
        assert [(m.role, getattr(m, "content", None)) for m in expected.messages] == [
            ("user", "Weather?"),
            ("assistant", None),
            ("tool", "storm"),
        ]
        await chat.fork(at=at, tool_results={"c1": "storm"})
        assert comparable(received[-1]) == comparable(expected)
        assert received[-1].thread_id == chat.thread_id
        return chat

    chat = asyncio.run(run())
    messages = chat.messages
    assert [m["role"] for m in messages] == ["user", "assistant", "assistant"]
    assert messages[1]["parts"][-1]["output"] == "storm"
    assert messages[2]["parts"][-1]["text"] == "Answer 3."
    old, new = chat.branches(messages[1]["id"])
    assert (old.selected, new.selected) == (False, True)
    assert [m["role"] for m in old.messages] == ["assistant", "user", "assistant"]  # the old turns, kept
    assert chat.branch_points == [{"at": 1, "index": 1, "count": 2}]


def test_chat_fork_at_a_run_start_asks_the_agent_again_from_that_runs_input() -> None:
    received: list[Any] = []

    async def run() -> ChatWidget:
        chat = _scripted_chat(received)
        await chat.send_message("Weather?")
        await chat.send_message("And tomorrow?")
        types = load_events(chat)["type"].tolist()
        second_run = [i for i, t in enumerate(types) if t == "RUN_STARTED"][1]
        await chat.fork(at=second_run, messages={received[1].messages[-1].id: "And in Oslo?"})
        return chat

    chat = asyncio.run(run())
    assert [m.content for m in received[-1].messages if m.role == "user"] == ["Weather?", "And in Oslo?"]
    assert received[-1].messages[:-1] == received[1].messages[:-1]
    assert [m["role"] for m in chat.messages] == ["user", "assistant", "user", "assistant"]


def test_chat_fork_is_refused_while_busy_and_without_an_agent() -> None:
    async def run() -> None:
        chat = ChatWidget(None)
        with pytest.raises(Exception, match="has no agent"):
            chat.fork(at=0)

    asyncio.run(run())


def test_a_pydantic_ai_agent_answers_the_forked_input() -> None:
    seen: list[list[Any]] = []

    async def stream(messages, info):
        seen.append(messages)
        async for item in SCENARIOS["several_rounds"](messages, info):
            yield item

    async def run() -> ChatWidget:
        chat = ChatWidget(make_agent(stream))
        await chat.send_message(PROMPT)
        frame = load_events(chat)
        n = int((frame["type"] == "TOOL_CALL_RESULT").to_numpy().nonzero()[0][0]) + 1
        expected = fork(chat, at=n, tool_results={"call_r1": "stormy"})
        calls = len(seen)
        outcome = await chat.fork(at=n, tool_results={"call_r1": "stormy"})
        assert outcome == "success"
        first_request = seen[calls]
        parts = [part for message in first_request for part in message.parts]
        assert [p.content for p in parts if isinstance(p, UserPromptPart)] == [PROMPT]
        returned = [p for p in parts if isinstance(p, ToolReturnPart)]
        assert [(p.tool_call_id, p.content) for p in returned] == [("call_r1", "stormy")]
        assert [m.role for m in expected.messages] == ["user", "assistant", "tool"]
        return chat

    chat = asyncio.run(run())
    last = chat.messages[-1]
    assert last["parts"][-1]["text"] == "It is noon in Rome and sunny."
    assert len(chat.branches(chat.messages[1]["id"])) == 2


def test_a_fork_of_a_server_side_log_warns_that_no_user_message_is_there_and_takes_its_history() -> None:
    log = CAPTURES / "pydantic_ai_runs.jsonl"  # record(agent.run(...)): only what the agent streamed
    with pytest.warns(ForkInputWarning, match=r"no user message .* fork\(\.\.\., history=\[\.\.\.\]\)"):
        bare = fork(log, at=9)
    assert [m.role for m in bare.messages] == ["assistant"]
    asked = {"id": "u0", "role": "user", "content": "Say hello."}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_input = fork(log, at=9, history=[asked])
    assert [(m.role, m.id) for m in run_input.messages] == [
        ("user", "u0"),
        ("assistant", bare.messages[0].id),
    ]
    assert run_input.messages[1] == bare.messages[0]
    with pytest.raises(InputTypeError, match="history must be a list of AG-UI messages"):
        fork(log, at=9, history="Say hello.")


def test_a_fork_of_a_log_with_the_users_turns_does_not_warn() -> None:
    source, _ = recorded_logs()["approval"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run_input = fork(source)
    assert any(m.role == "user" for m in run_input.messages)


def test_fork_at_n_reads_no_further_than_it_needs(tmp_path: Path) -> None:
    source, events = recorded_logs()["recorder"]
    lines = source.read_text().splitlines()
    big = tmp_path / "run.jsonl"
    # The recorded log, then a tail of megabytes of garbage that a whole read would stop at.
    big.write_text("\n".join(lines) + "\n" + "not json at all\n" * 400_000)
    with pytest.raises(EventParseError):
        load_events(big)
    for n in (0, 9, 40, len(events) - 1):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ForkInputWarning)
            assert comparable(fork(big, at=n)) == comparable(fork(source, at=n))
