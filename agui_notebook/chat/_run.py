"""The run loop of a chat: one user turn, from the run's first item to the last follow-up run.

A :class:`TurnRunner` drives a run's items into the thread as they arrive, tells the views what changed, and ends
the run however it ends (finished, interrupted for the user, stopped, failed) with the chat usable again. When
the run leaves calls to the chat's frontend tools, it runs them (asking first where the tool wants approval) and
starts the follow-up run itself, as the AI SDK's ``sendAutomaticallyWhen`` does, up to ``max_follow_ups`` times.

Whatever fails in a run ends that run with status ``error``: the error in one line (ours say where), the
traceback for the details view, the exception kept. Async agents run on the kernel's event loop and are handed
the loop back at least every ``YIELD_SECONDS``; sync agents run in a worker thread (``_agents.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import uuid
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from agui_notebook._errors import AgentRunError, JsonValueError, ToolLoopError
from agui_notebook._types import JSON
from agui_notebook.agui._intake import to_wire_event
from agui_notebook.bridge._conversation import RunOutcome, RunStreamError, ended_as
from agui_notebook.chat._agents import aiter_agent_items, traceback_text
from agui_notebook.chat._frontend_tools import APPROVAL_PREFIX, STOPPED, FrontendTools, ToolCall, run_tool
from agui_notebook.chat._interrupts import interrupt_resume_entries
from agui_notebook.chat._listeners import Listeners
from agui_notebook.chat._records import RunEnd
from agui_notebook.chat._thread import ChatThread, ThreadChange
from agui_notebook.ui._chunk_types import classify_type, is_ui_chunk_type
from agui_notebook.ui._typed import BadToolArguments
from agui_notebook.wire._values import is_plain_json, json_value

__all__ = ["BUSY", "MAX_WARNINGS", "YIELD_SECONDS", "RunStatus", "TurnRunner", "model_wire", "show_ended"]

BUSY = frozenset({"submitted", "streaming"})
"""The statuses of a chat whose agent is answering."""

YIELD_SECONDS = 0.02
"""A run hands the event loop back at least this often, even to an async agent that never awaits."""

MAX_WARNINGS = 20
"""Warnings shown per run (the count of the rest is the last line)."""


def model_wire(model: BaseModel) -> Any:
    """A protocol model's camelCase wire dict; values pydantic cannot write as JSON are left to ``json_value``."""
    try:
        return model.model_dump(mode="json", by_alias=True, exclude_none=True)
    except Exception:
        return model.model_dump(by_alias=True, exclude_none=True)


def _item_where(wire: Mapping[str, Any], index: int) -> str:
    """How errors name a stream item: ``event 12 (TOOL_CALL_RESULT)``, ``chunk 3 (text-delta)``."""
    item_type = wire.get("type")
    if type(item_type) is not str or not item_type:
        return f"item {index}"
    return f"{'event' if classify_type(item_type) == 'event' else 'chunk'} {index} ({item_type})"


def _describe(exc: BaseException) -> str:
    """The one line a failed run shows: our own errors say where; others their type too."""
    if isinstance(exc, RunStreamError):
        return f"malformed stream: {exc}"
    if isinstance(exc, JsonValueError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def _details(exc: BaseException | None) -> str:
    """The traceback of ``exc`` for the details view (its end, when it is long)."""
    return "" if exc is None else traceback_text(exc)


@dataclass
class RunStatus:
    """Where a chat stands: its status, the last run's error (with traceback and exception) and warnings."""

    status: str = "ready"
    error: str = ""
    details: str = ""
    exception: BaseException | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def shown_warnings(self) -> list[str]:
        """The warnings as the views list them: the first ``MAX_WARNINGS``, then a count of the rest."""
        shown = self.warnings[:MAX_WARNINGS]
        if len(self.warnings) > MAX_WARNINGS:
            shown.append(f"… and {len(self.warnings) - MAX_WARNINGS} more warnings")
        return shown


def show_ended(status: RunStatus, ended: RunEnd | None) -> None:
    """Show the end of a thread's last run as the live chat showed it (a chat opened on its log, a thread shown
    again): a failed run's status ``error``, its error and traceback; the warnings of any. The exception itself is
    not in the log: ``exception`` stays None."""
    failed = ended is not None and ended.outcome == "error"
    status.status = "error" if failed else "ready"
    status.error = ended.error if ended is not None and failed else ""
    status.details = ended.details if ended is not None and failed else ""
    status.warnings = list(ended.warnings) if ended is not None else []
    status.exception = None


_NOBODY = Listeners()

RunInputFactory = Callable[[str, list[dict[str, JSON]]], Any]
"""``(run id, resume entries) -> RunAgentInput`` for the next run of the thread."""


class TurnRunner:
    """One user turn of a chat's thread: runs, frontend tools and follow-ups (see the module docstring)."""

    def __init__(
        self,
        *,
        thread: ChatThread,
        views: Listeners,
        status: RunStatus,
        agent: Any,
        tools: FrontendTools,
        run_input: RunInputFactory,
        max_follow_ups: int,
        raise_errors: bool,
        shown: Callable[[], bool] = lambda: True,
    ) -> None:
        self.thread = thread
        self._views = views
        self._status = status
        self._shown = shown
        self.agent = agent
        self.tools = tools
        self.run_input = run_input
        self.max_follow_ups = max_follow_ups
        self.raise_errors = raise_errors
        self.stop_event = threading.Event()
        self.stopping = False
        """Set by ``Chat.stop``: a cancellation is the user's, not someone else's."""
        self.begun = False
        """Whether the turn's task has taken its first step (only then may ``stop`` cancel it)."""
        self._detached: RunStatus | None = None

    # ------------------------------------------------------------------------------------------ status
    @property
    def views(self) -> Listeners:
        """The chat's views while this turn's thread is shown; nobody once the user switched to another."""
        return self._views if self._shown() else _NOBODY

    @property
    def status(self) -> RunStatus:
        """The chat's status while this turn's thread is shown; a status of its own after a switch."""
        if not self._shown() and self._status is not self._detached:
            self._detached = RunStatus(warnings=list(self._status.warnings))
            self._status = self._detached
        return self._status

    def set_status(self, status: str, error: str = "") -> None:
        self.status.status, self.status.error = status, error
        self.views.status_changed()

    def warn(self, *texts: str) -> None:
        """Show problems the run survived as warnings on it."""
        self.status.warnings.extend(texts)
        self.views.warnings_changed()

    def finish(self, error: str, failure: BaseException | None, details: str = "") -> None:
        """End a run in the chat: status, error, traceback (``failure``'s, else ``details``) and exception in one
        step."""
        self.status.exception = failure
        self.status.details = (_details(failure) or details) if error else ""
        self.set_status("error" if error else "ready", error)

    def _changed(self, change: ThreadChange) -> None:
        self.views.messages_changed(change.changes)
        if change.reset:
            self.views.messages_reset()

    # ------------------------------------------------------------------------------------------ one run
    def begin(
        self,
        *,
        resume: list[dict[str, JSON]] | None = None,
        continues: bool = True,
        source: AsyncGenerator[tuple[int | None, Any], None] | None = None,
        run_input: Any = None,
    ) -> AsyncGenerator[tuple[int | None, Any], None]:
        """Start a run of the agent (or play ``source``): its input built and recorded, the status submitted;
        returns the items to ``drive``. A run input that cannot be built ends the turn at once (and raises)."""
        run_id = uuid.uuid4().hex if run_input is None else run_input.run_id
        resume = resume or []
        self.stop_event = threading.Event()
        self.stopping = False
        self.status.warnings = []
        self.status.exception = None
        self.views.warnings_changed()
        wire = None
        if source is None:
            try:
                run_input = self.run_input(run_id, resume) if run_input is None else run_input
            except Exception as exc:
                self.finish(f"cannot build the run input: {type(exc).__name__}: {exc}", exc)
                raise
            wire = model_wire(run_input)
            source = aiter_agent_items(self.agent, run_input, self.stop_event)
        self.thread.begin_run(run_id, resume=resume, continues=continues, run_input=wire)
        self.views.run_begun(time.time_ns() if wire is not None else None, bool(resume and continues))
        self.set_status("submitted")
        return source

    async def drive(self, source: AsyncGenerator[tuple[int | None, Any], None]) -> RunOutcome:
        """Apply the run's items as they arrive; whatever fails, end the run and leave the chat usable."""
        outcome: RunOutcome = "success"
        failure: BaseException | None = None
        interrupt: BaseException | None = None  # KeyboardInterrupt / SystemExit: tidy up, then let it go on
        cancelled = False
        thread, views = self.thread, self.views
        conversation = thread.conversation
        run = conversation.run
        problems = run.checker.problems if run is not None else []
        known = 0
        index = 0
        checked_types: set[str] = set()  # item types already classified (and warned about when unknown)
        handed_back = time.monotonic()
        try:
            if self.stop_event.is_set():  # stopped before the run's task ran at all
                raise asyncio.CancelledError
            async with contextlib.aclosing(source):
                async for received_ns, item in source:
                    if self.status.status == "submitted":
                        self.set_status("streaming")
                    kind = type(item)
                    if kind is not str:
                        # The fast path: a dict of a type seen before, holding plain JSON.
                        item_type = item.get("type") if kind is dict else None
                        if (
                            type(item_type) is not str
                            or item_type not in checked_types
                            or not is_plain_json(item)
                        ):
                            item = self._entering(item, index, checked_types)
                    index += 1
                    views.messages_changed(thread.push(item, received_ns).changes)
                    updates = conversation.state_updates
                    if updates:
                        taken = list(updates)
                        updates.clear()
                        views.state_changed("agent", taken)
                    if len(problems) != known:  # the checker tolerated something: show it on the run
                        self.warn(*(p.describe() for p in problems[known:]))
                        known = len(problems)
                    if not index & 63 and time.monotonic() - handed_back >= YIELD_SECONDS:
                        await asyncio.sleep(0)  # an agent that never awaits must not starve the loop (stop())
                        handed_back = time.monotonic()
        except asyncio.CancelledError:
            outcome, cancelled = "cancelled", True
        except Exception as exc:
            outcome, failure = "error", exc
        except BaseException as exc:
            outcome, cancelled, interrupt = "cancelled", True, exc
        error = _describe(failure) if failure is not None else ""
        code = None
        if failure is not None:
            code = "STREAM_ERROR" if isinstance(failure, RunStreamError) else type(failure).__name__
        given = list(self.status.shown_warnings)
        try:
            self._changed(
                thread.end_run(
                    outcome,
                    error,
                    code,
                    stopped=cancelled and (self.stopping or interrupt is not None),
                    details=_details(failure),
                    warnings=given,
                )
            )
        except Exception as exc:  # the end of the run could not be shown: that is the run's failure now
            failure = failure or exc
            outcome, error = "error", error or _describe(exc)
        views.branches_changed()
        views.run_ended()
        ended = thread.ended
        if ended is not None:  # how the run ended, the agent's word included (what the log says)
            outcome, error = ended.run_outcome, ended.error
            if len(ended.warnings) > len(given):
                self.warn(*ended.warnings[len(given) :])
        self.finish(error if outcome == "error" else "", failure, ended.details if ended is not None else "")
        if outcome == "error" and failure is None:  # the agent itself said the run failed
            self.status.exception = AgentRunError(error, code=ended.code if ended is not None else None)
        if interrupt is not None:
            raise interrupt
        if cancelled and not self.stopping:
            raise asyncio.CancelledError  # cancelled by someone else: honour it once the chat is tidy
        if outcome == "error" and self.raise_errors and self.status.exception is not None:
            raise self.status.exception
        return outcome

    def _entering(self, item: Any, index: int, checked_types: set[str]) -> Any:
        """A stream item as it enters the conversation: its values JSON by the one rule; an unknown chunk type is
        warned about (once per type)."""
        kind = type(item)
        if kind is str:
            return item
        if kind is not dict:
            if isinstance(item, BaseModel):
                if not type(item).__module__.startswith("ag_ui."):
                    return item  # other protocol models (pydantic-ai's chunks): the conversation reads them
                try:
                    item = to_wire_event(item)
                except Exception:  # a value pydantic cannot write as JSON: the rule below converts it
                    item = item.model_dump(by_alias=True, exclude_none=True)
            elif isinstance(item, Mapping):
                item = dict(item)
            else:
                return item  # not an item at all: the conversation says so
        item_type = item.get("type")
        if type(item_type) is str and item_type not in checked_types:
            checked_types.add(item_type)
            if not is_ui_chunk_type(item_type) and classify_type(item_type) == "chunk":
                self.warn(
                    f"chunk {index} ({item_type}): unknown chunk type (ignored, as the AI SDK ignores it)"
                )
        if is_plain_json(item):
            return item
        return json_value(item, _item_where(item, index))

    def resume_entries(self) -> list[dict[str, JSON]]:
        """The resume entries of the last answer: its answered approvals, then its answered interrupts."""
        return self.thread.conversation.resume_entries() + interrupt_resume_entries(self.thread.messages)

    # ------------------------------------------------------------------------------------------ the turn
    async def turn(self, first: AsyncGenerator[tuple[int | None, Any], None] | None) -> RunOutcome:
        """Drive ``first`` (a run's items), then answer its frontend-tool calls and follow up, until a run ends
        without such calls; ``None`` starts by answering (the user just answered their approvals). Returns the
        outcome of the last run (``"interrupt"`` while an approval waits, ``"cancelled"`` when stopped mid-call)."""
        outcome: RunOutcome = await self.drive(first) if first is not None else "success"
        if not self.tools.functions:
            return outcome
        follow_ups = 0
        while outcome == "success":
            calls = self.tools.open_calls(self.thread.messages)
            if not calls:
                break
            asking = [c for c in calls if c.state == "input-available" and c.tool.approval]
            running = [c for c in calls if c.state != "input-available" or not c.tool.approval]
            if follow_ups >= self.max_follow_ups:
                return self._too_many_follow_ups(calls)
            if running and not await self._answer(running):
                return "cancelled"
            if asking:
                self._ask(asking)
                return "interrupt"
            if (
                self.thread.conversation.pending_approvals()
            ):  # an AG-UI approval of the same answer still waits
                self.finish("", None)
                return "interrupt"
            follow_ups += 1
            outcome = await self.drive(self.begin(resume=self.resume_entries(), continues=True))
        return outcome

    def _set_part(self, call_id: str, change: Callable[[dict[str, JSON]], dict[str, JSON]]) -> None:
        """Replace the part of ``call_id`` (the newest one) by ``change(part)``, recorded and shown."""
        part = self.thread.tool_part(call_id)
        if part is not None:
            self._changed(self.thread.set_tool_part(call_id, change(part)))

    async def _answer(self, calls: list[ToolCall]) -> bool:
        """Run the calls (together); each part ends with its result or error. False when stopped."""
        self.set_status("streaming")
        settled: set[str] = set()

        def settle(call: ToolCall, change: Callable[[dict[str, JSON]], dict[str, JSON]]) -> None:
            settled.add(call.call_id)
            self._set_part(call.call_id, change)

        async def answer(call: ToolCall) -> None:
            name = call.tool.name
            if call.state == "approval-responded" and call.part["approval"].get("approved") is False:
                settle(call, lambda part: {**part, "state": "output-denied"})
                return
            try:
                args, kwargs = call.tool.call_arguments(call.part.get("input"))
            except BadToolArguments as exc:
                settle(call, _failed(f"invalid arguments for {name}: {exc}"))
                return
            try:
                output = json_value(await run_tool(call.tool.function, args, kwargs), f"the result of {name}")
            except JsonValueError as exc:
                settle(call, _failed(str(exc)))
                return
            except Exception as exc:
                settle(call, _failed(f"{type(exc).__name__}: {exc}"))
                return
            settle(call, lambda part: {**part, "state": "output-available", "output": output})

        try:
            await asyncio.gather(*(answer(call) for call in calls))
        except asyncio.CancelledError:
            for call in calls:
                if call.call_id not in settled:
                    settle(call, _failed(STOPPED, "stopped"))
            self.finish("", None)
            if not self.stopping:
                raise  # cancelled by someone else: the chat is tidy, let it go on
            return False
        return True

    def _ask(self, calls: list[ToolCall]) -> None:
        """Show the approval card on each call (state ``approval-requested``); the user's answer resumes the turn."""
        for call in calls:
            approval = {
                "id": APPROVAL_PREFIX + call.call_id,
                "requestReason": f"The agent wants to run {call.tool.name} in this notebook's kernel.",
            }
            self._set_part(call.call_id, _asked(approval))
        self.finish("", None)

    def _too_many_follow_ups(self, calls: list[ToolCall]) -> RunOutcome:
        text = (
            f"the agent called frontend tools again after {self.max_follow_ups} automatic follow-up runs; "
            f"stopped before running {', '.join(sorted({c.tool.name for c in calls}))} "
            "(chat.max_follow_ups sets the limit; send a message to go on)"
        )
        for call in calls:
            self._set_part(call.call_id, _failed(f"Not run: {text}"))
        error = ToolLoopError(text)
        self.finish(text, error)
        if self.raise_errors:
            raise error
        return "error"


def _asked(approval: dict[str, JSON]) -> Callable[[dict[str, JSON]], dict[str, JSON]]:
    def change(part: dict[str, JSON]) -> dict[str, JSON]:
        return {**part, "state": "approval-requested", "approval": approval}

    return change


def _failed(text: str, ended: str | None = None) -> Callable[[dict[str, JSON]], dict[str, JSON]]:
    def change(part: dict[str, JSON]) -> dict[str, JSON]:
        failed = {k: v for k, v in part.items() if k != "output"}
        failed.update(state="output-error", errorText=text)
        return ended_as(failed, ended) if ended else failed

    return change
