"""Agent adapters: which call each kind of agent gets, and how its stream is driven (loop or worker thread)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from ag_ui.core import RunAgentInput, TextMessageContentEvent, UserMessage

from agui_notebook.chat._agents import (
    AgentError,
    aiter_agent_items,
    call_agent,
    describe_agent,
    is_pydantic_ai_agent,
)
from tests.support.pydantic_ai_runs import SCENARIOS, make_agent

RUN_INPUT = RunAgentInput(thread_id="t1", run_id="r1", messages=[UserMessage(id="u1", content="hi")])


async def items_of(agent: Any, stop: threading.Event | None = None) -> list[Any]:
    return [item async for _, item in aiter_agent_items(agent, RUN_INPUT, stop)]


def echo(run_input: RunAgentInput) -> Iterator[str]:
    yield "you said: "
    yield run_input.messages[-1].content


async def test_a_sync_generator_function_streams_through_the_worker_thread() -> None:
    threads = set()

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        threads.add(threading.current_thread().name)
        yield "a"
        yield "b"

    assert await items_of(agent) == ["a", "b"]
    assert threads == {"agui-agent"}


async def test_an_async_generator_function_streams_on_the_running_loop() -> None:
    loops = []

    async def agent(run_input: RunAgentInput) -> AsyncIterator[Any]:
        loops.append(asyncio.get_running_loop())
        yield TextMessageContentEvent(message_id="m1", delta="x")
        yield {"type": "text-delta", "id": "t", "delta": "y"}

    items = await items_of(agent)
    assert items == [
        TextMessageContentEvent(message_id="m1", delta="x"),
        {"type": "text-delta", "id": "t", "delta": "y"},
    ]
    assert loops == [asyncio.get_running_loop()]


async def test_coroutines_strings_and_lists_are_streams_too() -> None:
    async def returns_list(run_input: RunAgentInput) -> list[str]:
        return ["one", "two"]

    async def returns_text(run_input: RunAgentInput) -> str:
        return "whole answer"

    assert await items_of(returns_list) == ["one", "two"]
    assert await items_of(returns_text) == ["whole answer"]
    assert await items_of(lambda run_input: "plain") == ["plain"]


async def test_an_object_with_run_is_called_through_run() -> None:
    class Runner:
        def __call__(self, run_input: RunAgentInput) -> list[str]:
            return ["called"]

        async def run(self, run_input: RunAgentInput) -> AsyncIterator[str]:
            yield f"ran {run_input.run_id}"

    assert await items_of(Runner()) == ["ran r1"]


async def test_a_pydantic_ai_agent_goes_through_its_ag_ui_adapter() -> None:
    agent = make_agent(SCENARIOS["text"])
    assert is_pydantic_ai_agent(agent)
    assert not is_pydantic_ai_agent(echo)
    events = await items_of(agent)
    types = [type(e).__name__ for e in events]
    assert types[0] == "RunStartedEvent" and types[-1] == "RunFinishedEvent"
    assert "".join(e.delta for e in events if type(e).__name__ == "TextMessageContentEvent") == (
        "Hello, world! Here is a list:\n\n- one\n- two\n"
    )


async def test_receive_times_are_taken_when_items_arrive() -> None:
    def agent(run_input: RunAgentInput) -> Iterator[str]:
        yield "a"
        time.sleep(0.05)
        yield "b"

    times = [ns async for ns, _ in aiter_agent_items(agent, RUN_INPUT)]
    assert 0.04 < (times[1] - times[0]) / 1e9 < 1.0


async def test_a_sync_agents_error_is_raised_on_the_loop_side() -> None:
    def agent(run_input: RunAgentInput) -> Iterator[str]:
        yield "before"
        raise ValueError("backend down")

    received = []
    with pytest.raises(ValueError, match="backend down"):
        async for _, item in aiter_agent_items(agent, RUN_INPUT):
            received.append(item)
    assert received == ["before"]


async def test_closing_the_stream_stops_a_slow_sync_agent_in_its_sleep_or_at_its_next_item() -> None:
    produced: list[int] = []
    closed = threading.Event()

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        try:
            for i in range(100):
                produced.append(i)
                yield f"{i} "
                time.sleep(0.2)
        finally:
            closed.set()

    stop = threading.Event()
    stream = aiter_agent_items(agent, RUN_INPUT, stop)
    assert (await anext(stream))[1] == "0 "
    started = time.monotonic()
    await stream.aclose()  # what cancelling the run does
    assert time.monotonic() - started < 0.05
    assert stop.is_set()
    # AgentStopped is raised in the generator as soon as its sleep returns (or before it resumes at all), so
    # its ``finally`` runs and it streams nothing more.
    assert await asyncio.to_thread(closed.wait, 0.5)
    assert produced in ([0], [0, 1])


async def test_agents_that_are_not_callable_or_return_no_stream_are_refused() -> None:
    with pytest.raises(AgentError, match="no agent"):
        call_agent(None, RUN_INPUT)
    with pytest.raises(AgentError, match="cannot run 'int'"):
        call_agent(42, RUN_INPUT)
    with pytest.raises(AgentError, match="returned int, not a stream"):
        await items_of(lambda run_input: 7)


def test_describe_agent_names_what_it_got() -> None:
    assert describe_agent(echo) == "echo"
    assert describe_agent(None) == "no agent"
    assert describe_agent(make_agent(SCENARIOS["text"])) == "pydantic-ai Agent"


# ---------------------------------------------------------------------------------------------- sync agents, wholly off the loop


class Ticker:
    """Counts event-loop turns every 10 ms: how responsive the loop stayed while something ran."""

    def __init__(self) -> None:
        self.ticks = 0
        self.longest_gap = 0.0
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.01)
            now = time.monotonic()
            self.ticks += 1
            self.longest_gap = max(self.longest_gap, now - last)
            last = now

    def stop(self) -> None:
        self._task.cancel()


async def test_a_sync_agent_is_called_in_the_worker_thread_so_its_work_does_not_block_the_loop() -> None:
    threads = []

    def agent(run_input: RunAgentInput) -> list[str]:
        threads.append(threading.current_thread().name)
        time.sleep(0.3)  # the work is done before the stream is returned
        return ["late", "answer"]

    ticker = Ticker()
    assert await items_of(agent) == ["late", "answer"]
    ticker.stop()
    assert threads == ["agui-agent"]
    assert ticker.ticks >= 15 and ticker.longest_gap < 0.1


async def test_a_sync_callable_that_returns_an_async_stream_streams_it_on_the_loop() -> None:
    async def stream() -> AsyncIterator[str]:
        yield "from"
        await asyncio.sleep(0)
        yield " the loop"

    async def returns_coroutine() -> list[str]:
        return ["awaited"]

    assert await items_of(lambda run_input: stream()) == ["from", " the loop"]
    assert await items_of(lambda run_input: returns_coroutine()) == ["awaited"]


async def test_stopping_abandons_a_sync_call_that_blocks_in_c_and_discards_its_output() -> None:
    returned = threading.Event()

    def agent(run_input: RunAgentInput) -> list[str]:
        time.sleep(1.0)  # in C: nothing can interrupt it
        returned.set()
        return ["never shown"]

    stop = threading.Event()
    stream = aiter_agent_items(agent, RUN_INPUT, stop)
    waiting = asyncio.create_task(anext(stream))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await stream.aclose()
    assert time.monotonic() - started < 0.05
    assert stop.is_set()
    # The sleep ends in its own time; the thread is then stopped before returning anything.
    assert await asyncio.to_thread(returned.wait, 2.0) is False


async def test_stopping_ends_pure_python_work_in_the_worker_within_200_ms() -> None:
    ended = threading.Event()
    spins = 0

    def agent(run_input: RunAgentInput) -> list[str]:
        nonlocal spins
        try:
            while True:
                spins += 1
        finally:
            ended.set()

    stream = aiter_agent_items(agent, RUN_INPUT, threading.Event())
    waiting = asyncio.create_task(anext(stream))
    await asyncio.sleep(0.1)
    started = time.monotonic()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    await stream.aclose()
    assert await asyncio.to_thread(ended.wait, 0.5)
    assert time.monotonic() - started < 0.5
    assert spins > 0


async def test_a_flooding_sync_generator_keeps_the_loop_responsive_and_memory_bounded() -> None:
    produced = 0

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        nonlocal produced
        while True:
            produced += 1
            yield "x"

    ticker = Ticker()
    consumed = 0
    stream = aiter_agent_items(agent, RUN_INPUT, threading.Event())
    started = time.monotonic()
    async for _ in stream:
        consumed += 1
        if consumed % 500 == 0:
            await asyncio.sleep(0)
        if time.monotonic() - started > 0.3:
            break
    await stream.aclose()
    ticker.stop()
    assert consumed > 1000
    assert produced - consumed <= 300  # the worker waits for the loop: at most a queue's worth ahead
    assert ticker.ticks >= 10


async def test_a_sync_generator_stopped_between_items_is_closed_so_its_finally_runs() -> None:
    closed = threading.Event()
    release = threading.Event()

    def agent(run_input: RunAgentInput) -> Iterator[str]:
        try:
            yield "first"
            release.wait(2)  # the run is stopped while the worker is back in our code, delivering
            yield "second"
        finally:
            closed.set()

    stop = threading.Event()
    stream = aiter_agent_items(agent, RUN_INPUT, stop)
    assert (await anext(stream))[1] == "first"
    stop.set()
    release.set()
    await asyncio.sleep(0.1)
    await stream.aclose()
    assert await asyncio.to_thread(closed.wait, 1.0)
