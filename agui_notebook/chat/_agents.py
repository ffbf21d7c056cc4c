"""What ChatWidget can talk to: every kind of agent becomes "call with a RunAgentInput, get a stream".

An agent may be

- a callable taking an AG-UI ``RunAgentInput`` and returning a sync or async iterable (or a coroutine that
  returns one) of AG-UI events (``ag_ui.core`` models or wire dicts), AI SDK UI-message chunks (dicts with a
  lowercase ``type`` such as ``"text-delta"``) or plain ``str`` text deltas;
- any object with a ``run(run_input)`` method that does the same (``ag_ui_langgraph.LangGraphAgent``,
  :class:`~agui_notebook.chat._http.HttpAgent`);
- a pydantic-ai ``Agent``, run through pydantic-ai's own AG-UI adapter (its RUN_ERROR says what was raised:
  ``code`` the exception's type, ``rawEvent`` its type and traceback, ``RUN_ERROR_DETAILS``).

:func:`aiter_agent_items` drives the stream: async agents run on the caller's event loop; any other agent is
called, and its sync stream iterated, in a worker thread that checks a stop flag between items and is stopped
outright when the run is (:class:`AgentStopped`), so the kernel stays free and ``stop()`` is prompt.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import inspect
import threading
import time
import traceback
from collections.abc import AsyncGenerator, AsyncIterable, AsyncIterator, Callable, Iterable
from typing import Any

from agui_notebook._errors import AgentError, OptionalDependencyError
from agui_notebook.chat._context import context_instructions

__all__ = [
    "MAX_DETAILS_CHARS",
    "RUN_ERROR_DETAILS",
    "AgentError",
    "AgentStopped",
    "aiter_agent_items",
    "call_agent",
    "check_agent",
    "describe_agent",
    "is_pydantic_ai_agent",
    "reported_traceback",
    "runs_on_the_loop",
    "traceback_text",
]

_DONE = object()

MAX_DETAILS_CHARS = 20_000
"""A traceback shown in the details view keeps its last this many characters."""

RUN_ERROR_DETAILS = "traceback"
"""The key of a RUN_ERROR's ``rawEvent`` that holds the traceback of what failed (with ``"exception"``, its type's
name): what a pydantic-ai agent run in the kernel sends, its adapter sending only ``str(error)``, and what the chat
shows as the failed run's details from any agent that sends it."""


def traceback_text(exc: BaseException) -> str:
    """The traceback of ``exc`` as Python prints it (its end, when it is long).

    >>> try:
    ...     raise ValueError("database unreachable")
    ... except ValueError as exc:
    ...     traceback_text(exc).splitlines()[-1]
    'ValueError: database unreachable'
    """
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return text if len(text) <= MAX_DETAILS_CHARS else "…" + text[-MAX_DETAILS_CHARS:]


def reported_traceback(event: Any) -> str:
    """The traceback a RUN_ERROR (wire dict) carries in its ``rawEvent`` (``RUN_ERROR_DETAILS``), or ``""``.

    >>> reported_traceback({"type": "RUN_ERROR", "message": "x", "rawEvent": {"traceback": "Traceback ..."}})
    'Traceback ...'
    """
    raw = event.get("rawEvent") if type(event) is dict else None
    text = raw.get(RUN_ERROR_DETAILS) if type(raw) is dict else None
    if type(text) is not str:
        return ""
    return text if len(text) <= MAX_DETAILS_CHARS else "…" + text[-MAX_DETAILS_CHARS:]


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
    """The run of a pydantic-ai ``Agent`` in the kernel, through its AG-UI adapter. The adapter leaves AG-UI
    ``context`` to the application; here the application is the notebook, as trusted as the agent, so the
    entries reach the model as the run's extra instructions."""
    try:
        from pydantic_ai.ui.ag_ui import AGUIAdapter
    except ImportError as exc:  # pydantic-ai without its AG-UI extra
        raise OptionalDependencyError(
            f"running a pydantic-ai Agent needs its AG-UI adapter ({exc}): pip install 'agui-notebook[pydantic-ai]'"
        ) from None
    instructions = context_instructions(run_input.context)
    adapter = _error_details_adapter(AGUIAdapter)(agent=agent, run_input=run_input)
    return adapter.run_stream(instructions=instructions)


@functools.cache
def _error_details_adapter(base: type[Any]) -> type[Any]:
    """pydantic-ai's AG-UI adapter whose RUN_ERROR says what was raised (``RUN_ERROR_DETAILS``): the adapter sends
    ``str(error)`` only, so a tool's ``ValueError("database unreachable")`` would show neither its type nor where
    it was raised. The message stays the adapter's (the failed tool's card shows it, as over HTTP)."""
    from ag_ui.core import EventType

    class ErrorDetailsAdapter(base):  # type: ignore[misc]
        def build_event_stream(self) -> Any:
            stream = super().build_event_stream()
            on_error = stream.on_error

            async def with_details(error: Exception) -> AsyncIterator[Any]:
                async for event in on_error(error):
                    if getattr(event, "type", None) == EventType.RUN_ERROR:
                        raw = {"exception": type(error).__name__, RUN_ERROR_DETAILS: traceback_text(error)}
                        update: dict[str, Any] = {"raw_event": raw}
                        if not getattr(event, "code", None):
                            update["code"] = type(error).__name__
                        event = event.model_copy(update=update)
                    yield event

            # The stream's hook (``UIEventStream.on_error``), replaced on this one stream: its fields stay
            # pydantic-ai's own.
            stream.on_error = with_details
            return stream

    return ErrorDetailsAdapter


def check_agent(agent: Any) -> None:
    """Refuse, as :class:`AgentError`, what no run could call (None is no agent yet: fine)."""
    if (
        agent is None
        or is_pydantic_ai_agent(agent)
        or callable(agent)
        or callable(getattr(agent, "run", None))
    ):
        return
    raise AgentError(
        f"cannot run {type(agent).__name__!r}: an agent is a callable taking a RunAgentInput, an object with a "
        "run(input) method, a pydantic-ai Agent or an HttpAgent"
    )


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
    check_agent(agent)
    return agent(run_input)


def runs_on_the_loop(agent: Any) -> bool:
    """Whether calling ``agent`` only starts async work, so the call belongs on the event loop.

    True for pydantic-ai agents, async functions and async generator functions, and objects whose ``run`` or
    ``__call__`` is one; any other callable may do its work before it returns, so it is called in a worker thread.
    """
    if is_pydantic_ai_agent(agent):
        return True
    run = getattr(agent, "run", None)
    target = run if callable(run) and not inspect.isfunction(agent) and not inspect.ismethod(agent) else agent
    while isinstance(target, functools.partial):
        target = target.func
    if callable(target) and not inspect.isfunction(target) and not inspect.ismethod(target):
        target = type(target).__call__  # a callable object: what its call does
    return inspect.iscoroutinefunction(target) or inspect.isasyncgenfunction(target)


async def _resolve(result: Any, agent: Any) -> Any:
    """Await coroutines until a stream remains; a lone string becomes a one-item stream."""
    while inspect.isawaitable(result) and not isinstance(result, AsyncIterable):
        result = await result
    return _as_stream(result, agent)


def _as_stream(result: Any, agent: Any) -> Any:
    if isinstance(result, (str, dict)):
        return [result]
    if isinstance(result, (AsyncIterable, Iterable)):
        return result
    raise AgentError(
        f"{describe_agent(agent)} returned {type(result).__name__}, not a stream of events, chunks or text"
    )


async def aiter_agent_items(
    agent: Any, run_input: Any, stop: threading.Event | None = None
) -> AsyncGenerator[tuple[int, Any], None]:
    """Run ``agent`` on ``run_input``; yield ``(received_ns, item)`` for every item it streams.

    Async agents are called and iterated on the running loop. Any other agent is called in a daemon worker
    thread, which also iterates the sync stream it returns, feeding a bounded queue (a flooding agent waits for
    the loop) and checking ``stop`` between items; an async stream it returns comes back to the loop. Closing
    this generator (what cancelling the run does) sets ``stop`` and stops the worker: Python code running there
    gets :class:`AgentStopped` raised at once; a call blocked in C (``time.sleep``, a socket read) finishes in
    the background, then gets it, and nothing it returns is used.
    """
    stop = stop if stop is not None else threading.Event()
    if runs_on_the_loop(agent):
        stream = await _resolve(call_agent(agent, run_input), agent)
    else:
        worker = Worker(asyncio.get_running_loop(), stop, agent)
        handed_back = None
        try:
            worker.start(lambda: call_agent(agent, run_input))
            async for received_ns, item in worker.items():
                if item is _HANDOFF:  # the call returned an awaitable or an async stream: the loop's to run
                    handed_back = received_ns
                    break
                yield received_ns, item
        finally:
            if handed_back is None:
                worker.interrupt()
        if handed_back is None:
            return
        stream = await _resolve(handed_back, agent)
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
    worker = Worker(asyncio.get_running_loop(), stop, agent)  # a sync stream an async call returned
    try:
        worker.start(lambda: stream)
        async for pair in worker.items():
            yield pair
    finally:
        worker.interrupt()


_HANDOFF = object()
_QUEUE_SIZE = 256
"""Items a sync agent may stream ahead of the loop before its worker waits."""


class AgentStopped(BaseException):
    """Raised inside a sync agent's worker thread when its run is stopped (``ChatWidget.stop()``, a cancelled run).

    A ``BaseException`` on purpose, like ``KeyboardInterrupt``: an agent's own ``except Exception`` does not
    swallow it, while its ``finally`` blocks and context managers run. It is raised the moment the thread runs
    Python code again; a call blocked in C (``time.sleep``, a socket read) gets it when the call returns. It never
    leaves the worker thread (the run's outcome is ``cancelled``).
    """


class Worker:
    """A daemon thread running one sync agent: its call, then its stream, into a bounded queue on the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, stop: threading.Event, agent: Any) -> None:
        self.loop = loop
        self.stop = stop
        self.agent = agent
        self.queue: asyncio.Queue[tuple[Any, Any, BaseException | None]] = asyncio.Queue()
        self._slots = threading.Semaphore(_QUEUE_SIZE)
        self._guard = (
            threading.Lock()
        )  # held while deciding to interrupt, and while entering/leaving agent code
        self._in_agent = False
        self._interrupted = False
        self._thread: threading.Thread | None = None

    def start(self, call: Callable[[], Any]) -> None:
        """Start the thread: ``call()`` (the agent's call, agent code), then stream what it returned."""
        self._thread = threading.Thread(target=self._main, args=(call,), name="agui-agent", daemon=True)
        self._thread.start()

    async def items(self) -> AsyncIterator[tuple[Any, Any]]:
        """What the worker delivers, on the loop: ``(received_ns, item)``, or ``(result, _HANDOFF)``."""
        while True:
            received_ns, item, error = await self.queue.get()
            self._slots.release()
            if error is not None:
                raise error
            if item is _DONE:
                return
            yield received_ns, item

    def interrupt(self) -> None:
        """Stop the worker: set ``stop``, and raise :class:`AgentStopped` in agent code it is running."""
        self.stop.set()
        thread = self._thread
        with self._guard:
            if (
                not self._in_agent
                or self._interrupted
                or thread is None
                or thread.ident is None
                or not thread.is_alive()
            ):
                return
            self._interrupted = True
            ctypes.pythonapi.PyThreadState_SetAsyncExc(
                ctypes.c_ulong(thread.ident), ctypes.py_object(AgentStopped)
            )

    # -- in the worker thread ------------------------------------------------------------------------------------

    def _main(self, call: Callable[[], Any]) -> None:
        try:
            try:
                self._stream(self._agent_code(call))
            except AgentStopped:
                pass
            except BaseException as exc:  # the agent's own error, reported on the loop side
                self._deliver((time.time_ns(), None, exc))
        except AgentStopped:  # raised just as the worker left agent code
            pass

    def _agent_code(self, function: Callable[[], Any], *, closing: bool = False) -> Any:
        """Run a piece of the agent's code where :meth:`interrupt` may stop it (not started once stopped, except
        the stream's ``close()``, so the agent's ``finally`` blocks run)."""
        with self._guard:
            if self.stop.is_set() and not closing:
                raise AgentStopped
            self._in_agent = True
        try:
            return function()
        finally:
            with self._guard:
                self._in_agent = False

    def _stream(self, result: Any) -> None:
        """Deliver the items of what the agent's call returned; an async result goes back to the loop."""
        if isinstance(result, AsyncIterable) or inspect.isawaitable(result):
            self._deliver((result, _HANDOFF, None))
            return
        stream = _as_stream(result, self.agent)
        iterator = iter(stream)
        try:
            while True:
                try:
                    item = self._agent_code(lambda: next(iterator))
                except StopIteration:
                    break
                if not self._deliver((time.time_ns(), item, None)):
                    return
            self._deliver((time.time_ns(), _DONE, None))
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                # A generator that fails while closing: the run is over anyway.
                with contextlib.suppress(Exception):
                    self._agent_code(close, closing=True)

    def _deliver(self, entry: tuple[Any, Any, BaseException | None]) -> bool:
        """Queue ``entry`` on the loop once there is room; False when the run was stopped or the loop is gone."""
        while not self._slots.acquire(timeout=0.05):
            if self.stop.is_set():
                return False
        if self.stop.is_set():
            return False
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, entry)
        except RuntimeError:  # the loop is closed: nobody is listening any more
            return False
        return True
