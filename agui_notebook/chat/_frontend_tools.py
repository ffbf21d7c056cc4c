"""Frontend tools answered by Python: plain functions the agent calls, run by the widget between runs.

``ChatWidget(agent, tools=[get_time])`` declares each function in every run's ``RunAgentInput.tools`` (its JSON
schema from the signature and docstring, ``ui/_typed.py``). When a run ends with calls to them (``RUN_FINISHED``
with ``outcome.pendingToolCallIds``, or calls left without a result), the widget checks each call's arguments
against the signature, runs the function (a sync one in a worker thread, an async one on the loop), puts the
result (``output-available``) or the error (``output-error``) on the tool part and starts the follow-up run
with the tool messages itself, as the AI SDK's ``sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls``
does. A tool made with ``frontend_tool(fn, approval=True)`` asks first, on the tool card: approved, it runs;
denied, the part ends ``output-denied`` and the follow-up run tells the agent (a tool message with the reason).

>>> def get_time(tz: str = "UTC") -> str:
...     '''The current time in a time zone.'''
...     return "12:00"
>>> frontend_tool(get_time, approval=True).declaration["description"]
'The current time in a time zone.'
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import threading
from collections.abc import Callable, Coroutine, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from pydantic import BaseModel

from agui_notebook._errors import JsonValueError, OptionError, ToolLoopError
from agui_notebook._types import JSON
from agui_notebook.bridge._conversation import RunOutcome, ended_as
from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._typed import BadToolArguments, ToolFunction, tool_function
from agui_notebook.widget._agents import _Worker
from agui_notebook.wire._values import json_value

if TYPE_CHECKING:
    from agui_notebook.widget._chat import ChatWidget

__all__ = [
    "APPROVAL_PREFIX",
    "MAX_FOLLOW_UPS",
    "FrontendTool",
    "FrontendTools",
    "drive_turn",
    "frontend_tool",
]

MAX_FOLLOW_UPS = 10
"""Follow-up runs the widget starts by itself for one user turn (``chat.max_follow_ups``); calls in the run after
the last one are not run: they end ``output-error`` and the turn ends with a :class:`~agui_notebook.ToolLoopError`."""

APPROVAL_PREFIX = "frontend-tool:"
"""The approval id of a frontend tool's call is this and the call id (AG-UI interrupt approvals have their own)."""

STOPPED = "Stopped"
"""The error of a call whose function was running when ``stop()`` came."""


@dataclass(frozen=True, eq=False, repr=False)
class FrontendTool(ToolFunction):
    """A Python function offered to the agent as a frontend tool; ``approval`` makes the widget ask first."""

    approval: bool = False

    def __repr__(self) -> str:
        return f"FrontendTool({self.name!r}{', approval=True' if self.approval else ''})"


@overload
def frontend_tool(
    function: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    approval: bool = False,
) -> FrontendTool: ...
@overload
def frontend_tool(
    function: None = None, *, name: str | None = None, description: str | None = None, approval: bool = False
) -> Callable[[Callable[..., Any]], FrontendTool]: ...
def frontend_tool(
    function: Callable[..., Any] | None = None,
    *,
    name: str | None = None,
    description: str | None = None,
    approval: bool = False,
) -> FrontendTool | Callable[[Callable[..., Any]], FrontendTool]:
    """A frontend tool for ``ChatWidget(tools=[...])``: ``function`` described by its signature and docstring.

    ``name`` and ``description`` replace the function's name and the docstring's first paragraph; with
    ``approval=True`` the widget shows the approval card before each call runs. A plain function in ``tools=``
    is ``frontend_tool(function)``. Works as a decorator too (``@frontend_tool(approval=True)``); the result
    keeps the function as ``.function``. A signature that cannot be described raises
    :class:`~agui_notebook.OptionError` naming the function and the parameter.

    >>> @frontend_tool(approval=True)
    ... def delete_file(path: str) -> str:
    ...     '''Delete a file in the notebook's folder.'''
    ...     return f"deleted {path}"
    >>> delete_file, delete_file.parameters["required"]
    (FrontendTool('delete_file', approval=True), ['path'])
    """
    if function is None:
        return functools.partial(frontend_tool, name=name, description=description, approval=approval)  # type: ignore[return-value]
    described = tool_function(function, name=name, description=description)
    fields = {k: getattr(described, k) for k in described.__dataclass_fields__}
    return FrontendTool(**fields, approval=bool(approval))


def _is_function(tool: Any) -> bool:
    """Whether an entry of ``tools=`` is a function to run (not an AG-UI ``Tool`` declaration or its dict)."""
    return callable(tool) and not isinstance(tool, (Mapping, BaseModel, type))


@dataclass
class _Call:
    """A call of a frontend tool waiting for the widget: where its part is, and what to do with it."""

    tool: FrontendTool
    call_id: str
    state: str
    part: dict[str, JSON]


class FrontendTools:
    """The tools of one widget: every declaration sent with a run, and the functions the widget answers."""

    def __init__(self, tools: Iterable[Any], declare: Callable[[Any, int], dict[str, JSON]]) -> None:
        self.declarations: list[dict[str, JSON]] = []
        self.functions: dict[str, FrontendTool] = {}
        for index, tool in enumerate(tools):
            if isinstance(tool, FrontendTool):
                function = tool
            elif isinstance(tool, ToolFunction) or _is_function(tool):
                function = frontend_tool(tool.function if isinstance(tool, ToolFunction) else tool)
            else:
                self.declarations.append(declare(tool, index))
                continue
            if function.name in self.functions:
                raise OptionError(f"tools[{index}]: a second tool named {function.name!r}")
            self.functions[function.name] = function
            self.declarations.append(json_value(function.declaration, f"tools[{index}]"))
        names = [d.get("name") for d in self.declarations]
        for name in self.functions:
            if names.count(name) > 1:
                raise OptionError(f"tools: {name!r} is both a function and a declaration")

    def open_calls(self, messages: list[dict[str, JSON]]) -> list[_Call]:
        """Calls of the functions in the current turn (after the last user message) the widget has to answer:
        those left ``input-available``, and those whose approval the user answered."""
        start = next(
            (i + 1 for i in range(len(messages) - 1, -1, -1) if messages[i].get("role") == "user"), 0
        )
        calls = []
        for message in messages[start:]:
            if message.get("role") != "assistant":
                continue
            for part in message.get("parts") or ():
                kind = part.get("type")
                if type(kind) is not str:
                    continue
                name = (
                    kind[5:]
                    if kind.startswith("tool-")
                    else part.get("toolName")
                    if kind == "dynamic-tool"
                    else None
                )
                tool = self.functions.get(name) if type(name) is str else None
                if tool is None or part.get("providerExecuted") or type(part.get("toolCallId")) is not str:
                    continue
                state = part.get("state")
                if state == "input-available" or (state == "approval-responded" and _ours(part)):
                    calls.append(_Call(tool, part["toolCallId"], state, part))  # type: ignore[arg-type]
        return calls

    def cancel_waiting(self, messages: list[dict[str, JSON]]) -> list[MessageChange]:
        """End every frontend-tool approval still waiting (the user sent a new message): ``output-denied``, marked
        cancelled (the card says so); the next run's input answers the call like any denied one."""
        changes = []
        for mi, message in enumerate(messages):
            parts = message.get("parts") or []
            for pi, part in enumerate(parts):
                if part.get("state") == "approval-requested" and _ours(part):
                    approval = {**part["approval"], "approved": False}  # type: ignore[dict-item]
                    parts[pi] = ended_as(
                        {**part, "state": "output-denied", "approval": approval}, "cancelled"
                    )
                    changes.append(MessageChange("part", mi, pi))
        return changes


def _ours(part: Mapping[str, Any]) -> bool:
    approval = part.get("approval")
    return type(approval) is dict and str(approval.get("id", "")).startswith(APPROVAL_PREFIX)


# -- the turn --------------------------------------------------------------------------------------------------------


async def drive_turn(chat: ChatWidget, first: Coroutine[Any, Any, RunOutcome] | None) -> RunOutcome:
    """Run ``first`` (a run's ``_drive``), then answer its frontend-tool calls and follow up, until a run ends
    without such calls; ``None`` starts by answering (the user just answered the approvals). Returns the outcome
    of the last run (``"interrupt"`` while an approval waits, ``"cancelled"`` when stopped mid-call)."""
    outcome: RunOutcome = await first if first is not None else "success"
    follow_ups = 0
    tools = chat._frontend_tools
    while outcome == "success":
        calls = tools.open_calls(chat._conversation.messages)
        if not calls:
            break
        asking = [c for c in calls if c.state == "input-available" and c.tool.approval]
        running = [c for c in calls if c.state != "input-available" or not c.tool.approval]
        if follow_ups >= chat.max_follow_ups:
            return _too_many_follow_ups(chat, calls)
        if running and not await _answer(chat, running):
            return "cancelled"
        if asking:
            _ask(chat, asking)
            return "interrupt"
        if chat._conversation.pending_approvals():  # an AG-UI approval of the same answer still waits
            chat._finish("", None)
            return "interrupt"
        follow_ups += 1
        source = chat._begin_follow_up(resume=chat._resume_entries())
        outcome = await chat._drive(source)
    return outcome


def _set_part(chat: ChatWidget, call_id: str, change: Callable[[dict[str, JSON]], dict[str, JSON]]) -> None:
    """Replace the part of ``call_id`` (the newest one) by ``change(part)`` and patch the views."""
    messages = chat._conversation.messages
    for mi in range(len(messages) - 1, -1, -1):
        parts = messages[mi].get("parts") or []
        for pi in range(len(parts) - 1, -1, -1):
            if parts[pi].get("toolCallId") == call_id and str(parts[pi].get("type", "")).startswith(
                ("tool-", "dynamic-tool")
            ):
                parts[pi] = change(parts[pi])
                chat._patch([MessageChange("part", mi, pi)])
                return


def _failed(text: str, ended: str | None = None) -> Callable[[dict[str, JSON]], dict[str, JSON]]:
    def change(part: dict[str, JSON]) -> dict[str, JSON]:
        failed = {k: v for k, v in part.items() if k != "output"}
        failed.update(state="output-error", errorText=text)
        return ended_as(failed, ended) if ended else failed

    return change


async def _answer(chat: ChatWidget, calls: list[_Call]) -> bool:
    """Run the calls (together); each part ends with its result or error. False when stopped."""
    chat._set_status("streaming", "")
    settled: set[str] = set()

    def settle(call: _Call, change: Callable[[dict[str, JSON]], dict[str, JSON]]) -> None:
        settled.add(call.call_id)
        _set_part(chat, call.call_id, change)

    async def answer(call: _Call) -> None:
        name = call.tool.name
        if call.state == "approval-responded" and call.part["approval"].get("approved") is False:  # type: ignore[union-attr]
            settle(call, lambda part: {**part, "state": "output-denied"})
            return
        try:
            args, kwargs = call.tool.call_arguments(call.part.get("input"))
        except BadToolArguments as exc:
            settle(call, _failed(f"invalid arguments for {name}: {exc}"))
            return
        try:
            output = json_value(await _run(call.tool.function, args, kwargs), f"the result of {name}")
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
        chat._finish("", None)
        if not chat._stopping:
            raise  # cancelled by someone else: the widget is tidy, let it go on
        return False
    return True


def _ask(chat: ChatWidget, calls: list[_Call]) -> None:
    """Show the approval card on each call (state ``approval-requested``); the user's answer resumes the turn."""
    for call in calls:
        approval = {
            "id": APPROVAL_PREFIX + call.call_id,
            "requestReason": f"The agent wants to run {call.tool.name} in this notebook's kernel.",
        }
        _set_part(
            chat,
            call.call_id,
            lambda part, a=approval: {**part, "state": "approval-requested", "approval": a},
        )
    chat._finish("", None)


def _too_many_follow_ups(chat: ChatWidget, calls: list[_Call]) -> RunOutcome:
    text = (
        f"the agent called frontend tools again after {chat.max_follow_ups} automatic follow-up runs; "
        f"stopped before running {', '.join(sorted({c.tool.name for c in calls}))} "
        "(chat.max_follow_ups sets the limit; send a message to go on)"
    )
    for call in calls:
        _set_part(chat, call.call_id, _failed(f"Not run: {text}"))
    error = ToolLoopError(text)
    chat._finish(text, error)
    if chat.raise_errors:
        raise error
    return "error"


def _runs_on_the_loop(function: Any) -> bool:
    target = function
    while isinstance(target, functools.partial):
        target = target.func
    if not inspect.isfunction(target) and not inspect.ismethod(target) and callable(target):
        target = type(target).__call__
    return inspect.iscoroutinefunction(target)


async def _run(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Call a tool function: an async one on the loop, a sync one in a worker thread (stopped with the run)."""
    if _runs_on_the_loop(function):
        result = function(*args, **kwargs)
    else:
        worker = _Worker(asyncio.get_running_loop(), threading.Event(), function)
        worker.start(lambda: (function(*args, **kwargs),))  # a one-item stream: the return value
        result = None
        try:
            async for _received_ns, value in worker.items():
                result = value
        finally:
            worker.interrupt()
    while inspect.isawaitable(result):
        result = await result
    return result
