"""What ChatWidget can talk to: every kind of agent becomes "call with a RunAgentInput, get a stream".

An agent may be

- a callable taking an AG-UI ``RunAgentInput`` and returning a sync or async iterable (or a coroutine that
  returns one) of AG-UI events (``ag_ui.core`` models or wire dicts), AI SDK UI-message chunks (dicts with a
  lowercase ``type`` such as ``"text-delta"``) or plain ``str`` text deltas;
- any object with a ``run(run_input)`` method that does the same (``ag_ui_langgraph.LangGraphAgent``,
  :class:`~agui_notebook.widget._http.HttpAgent`);
- a pydantic-ai ``Agent``, run through pydantic-ai's own AG-UI adapter.

:func:`aiter_agent_items` drives the stream: async streams run on the caller's event loop, sync ones in a
worker thread that checks a stop flag between items, so the kernel stays free and ``stop()`` is prompt.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import threading
import time
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable
from typing import Any

from agui_notebook._errors import AgentError

__all__ = ["AgentError", "aiter_agent_items", "call_agent", "describe_agent", "is_pydantic_ai_agent"]

_DONE = object()


def is_pydantic_ai_agent(agent: Any) -> bool:
    """Whether ``agent`` is a pydantic-ai agent (checked without importing pydantic-ai)."""
    if not any(cls.__module__.split(".", 1)[0] == "pydantic_ai" for cls in type(agent).__mro__):
        return False
    from pydantic_ai.agent import AbstractAgent

    return isinstance(agent, AbstractAgent)


def describe_agent(agent: Any) -> str:
    """A short name for the agent, for messages: ``'pydantic-ai Agent'``, ``'HttpAgent(...)'``, ``'my_fn'``."""
    if agent is None:
        return "no agent"
    if is_pydantic_ai_agent(agent):
        return "pydantic-ai Agent"
    name = getattr(agent, "__qualname__", None) or getattr(agent, "__name__", None)
    return name if isinstance(name, str) else repr(agent)


def _pydantic_ai_stream(agent: Any, run_input: Any) -> AsyncIterable[Any]:
    try:
        from pydantic_ai.ui.ag_ui import AGUIAdapter
    except ImportError as exc:  # pydantic-ai without its AG-UI extra
        raise ImportError(
            f"running a pydantic-ai Agent needs its AG-UI adapter ({exc}): pip install 'agui-notebook[pydantic-ai]'"
        ) from None
    return AGUIAdapter(agent=agent, run_input=run_input).run_stream()


def call_agent(agent: Any, run_input: Any) -> Any:
    """Start one run: returns what the agent returned (a stream, or a coroutine that gives one).

    >>> def echo(run_input):
    ...     yield "you said: " + run_input.messages[-1].content
    >>> from ag_ui.core import RunAgentInput, UserMessage
    >>> run_input = RunAgentInput(thread_id="t", run_id="r", messages=[UserMessage(id="u", content="hi")])
    >>> list(call_agent(echo, run_input))
    ['you said: hi']
    """
    if agent is None:
        raise AgentError("this ChatWidget has no agent: pass ChatWidget(agent=...) or set chat.agent")
    if is_pydantic_ai_agent(agent):
        # Checked before ``run``: a pydantic-ai Agent's own ``run`` returns a result, not events.
        return _pydantic_ai_stream(agent, run_input)
    run = getattr(agent, "run", None)
    if callable(run) and not inspect.isfunction(agent) and not inspect.ismethod(agent):
        return run(run_input)
    if callable(agent):
        return agent(run_input)
    raise AgentError(
        f"cannot run {type(agent).__name__!r}: an agent is a callable taking a RunAgentInput, an object with a "
        "run(input) method, a pydantic-ai Agent or an HttpAgent"
    )


async def _resolve(result: Any, agent: Any) -> Any:
    """Await coroutines until a stream remains; a lone string becomes a one-item stream."""
    while inspect.isawaitable(result) and not isinstance(result, AsyncIterable):
        result = await result
    if isinstance(result, (str, dict)):
        return [result]
    if isinstance(result, (AsyncIterable, Iterable)):
        return result
    raise AgentError(
        f"{describe_agent(agent)} returned {type(result).__name__}, not a stream of events, chunks or text"
    )


async def aiter_agent_items(
    agent: Any, run_input: Any, stop: threading.Event | None = None
) -> AsyncIterator[tuple[int, Any]]:
    """Run ``agent`` on ``run_input``; yield ``(received_ns, item)`` for every item it streams.

    Async streams are iterated on the running loop. Sync streams are iterated in a daemon worker thread that
    feeds an ``asyncio.Queue`` and checks ``stop`` between items; cancelling this generator sets ``stop``, so
    a slow sync agent stops at its next item and the caller does not wait for it.
    """
    stream = await _resolve(call_agent(agent, run_input), agent)
    if isinstance(stream, AsyncIterable):
        iterator = aiter(stream)
        try:
            async for item in iterator:
                yield time.time_ns(), item
        finally:
            close = getattr(iterator, "aclose", None)
            if close is not None:
                await close()
        return
    stop = stop if stop is not None else threading.Event()
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[int, Any, BaseException | None]] = asyncio.Queue()
    worker = threading.Thread(
        target=_drain_sync, args=(stream, stop, loop, queue.put_nowait), name="agui-agent", daemon=True
    )
    worker.start()
    try:
        while True:
            received_ns, item, error = await queue.get()
            if error is not None:
                raise error
            if item is _DONE:
                return
            yield received_ns, item
    finally:
        stop.set()


def _drain_sync(
    stream: Iterable[Any],
    stop: threading.Event,
    loop: asyncio.AbstractEventLoop,
    put: Callable[[tuple[int, Any, BaseException | None]], None],
) -> None:
    """Worker thread: iterate a sync stream into the loop's queue until it ends, fails or ``stop`` is set."""

    def deliver(entry: tuple[int, Any, BaseException | None]) -> bool:
        try:
            loop.call_soon_threadsafe(put, entry)
        except RuntimeError:  # the loop is closed: nobody is listening any more
            return False
        return True

    iterator = iter(stream)
    try:
        for item in iterator:
            if stop.is_set() or not deliver((time.time_ns(), item, None)):
                break
        else:
            deliver((time.time_ns(), _DONE, None))
    except BaseException as exc:  # the agent's own error, reported on the loop side
        deliver((time.time_ns(), None, exc))
    finally:
        close = getattr(iterator, "close", None)
        if close is not None:
            # A generator that fails while closing: the run is over anyway.
            with contextlib.suppress(Exception):
                close()
