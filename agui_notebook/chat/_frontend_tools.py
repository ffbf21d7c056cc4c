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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, overload

from pydantic import BaseModel

from agui_notebook._errors import InputTypeError, OptionError
from agui_notebook._options import keyword_options, typed
from agui_notebook._shown import shown
from agui_notebook._types import JSON
from agui_notebook.bridge._conversation import ended_as
from agui_notebook.chat._agents import Worker
from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._typed import ToolFunction, tool_function
from agui_notebook.wire._values import json_value

__all__ = [
    "APPROVAL_PREFIX",
    "MAX_FOLLOW_UPS",
    "STOPPED",
    "FrontendTool",
    "FrontendTools",
    "ToolCall",
    "cancel_waiting_approvals",
    "frontend_tool",
    "run_tool",
]

MAX_FOLLOW_UPS = 10
"""Follow-up runs the widget starts by itself for one user turn (``chat.max_follow_ups``); calls in the run after
the last one are not run: they end ``output-error`` and the turn ends with a :class:`~agui_notebook.ToolLoopError`."""

APPROVAL_PREFIX = "frontend-tool:"
"""The approval id of a frontend tool's call is this and the call id (AG-UI interrupt approvals have their own)."""

STOPPED = "Stopped"
"""The error of a call whose function was running when ``stop()`` came."""


_ANSWERED = frozenset({"output-available", "output-error", "output-denied"})
"""The states of a tool part whose call has its answer."""


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
@keyword_options
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
    typed(name, "name", (str, type(None)), "a string or None")
    typed(description, "description", (str, type(None)), "a string or None")
    typed(approval, "approval", bool, "True or False")
    if function is None:
        return functools.partial(frontend_tool, name=name, description=description, approval=approval)
    if not callable(function) or isinstance(function, type):
        raise InputTypeError(f"frontend_tool takes a function, not {shown(function)}")
    described = tool_function(function, name=name, description=description)
    fields = {k: getattr(described, k) for k in described.__dataclass_fields__}
    return FrontendTool(**fields, approval=bool(approval))


def _is_function(tool: Any) -> bool:
    """Whether an entry of ``tools=`` is a function to run (not an AG-UI ``Tool`` declaration or its dict)."""
    return callable(tool) and not isinstance(tool, (Mapping, BaseModel, type))


@dataclass
class ToolCall:
    """A call of a frontend tool waiting for the chat: its tool, call id, part state and part."""

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

    def open_calls(self, messages: list[dict[str, JSON]]) -> list[ToolCall]:
        """Calls of the functions in the current turn (after the last user message) the widget has to answer:
        those left ``input-available``, and those whose approval the user answered. A call the run already
        answered (a part of the same call id holds a result, an error or a denial: the agent took it for one of
        its own tools, as LangGraph's prebuilt agent does with a tool it does not know) is not run again."""
        start = next(
            (i + 1 for i in range(len(messages) - 1, -1, -1) if messages[i].get("role") == "user"), 0
        )
        answered = {
            part.get("toolCallId")
            for message in messages[start:]
            for part in message.get("parts") or ()
            if part.get("state") in _ANSWERED
        }
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
                call_id = part.get("toolCallId")
                if (
                    tool is None
                    or part.get("providerExecuted")
                    or type(call_id) is not str
                    or call_id in answered
                ):
                    continue
                state = part.get("state")
                if state == "input-available" or (state == "approval-responded" and _ours(part)):
                    calls.append(ToolCall(tool, call_id, state, part))
        return calls


def cancel_waiting_approvals(messages: list[dict[str, JSON]]) -> list[MessageChange]:
    """End every frontend-tool approval still waiting (the user sent a new message): ``output-denied``, marked
    cancelled (the card says so); the next run's input answers the call like any denied one."""
    changes = []
    for mi, message in enumerate(messages):
        parts = message.get("parts") or []
        for pi, part in enumerate(parts):
            if part.get("state") == "approval-requested" and _ours(part):
                approval = {**part["approval"], "approved": False}
                parts[pi] = ended_as({**part, "state": "output-denied", "approval": approval}, "cancelled")
                changes.append(MessageChange("part", mi, pi))
    return changes


def _ours(part: Mapping[str, Any]) -> bool:
    approval = part.get("approval")
    return type(approval) is dict and str(approval.get("id", "")).startswith(APPROVAL_PREFIX)


def _runs_on_the_loop(function: Any) -> bool:
    target = function
    while isinstance(target, functools.partial):
        target = target.func
    if not inspect.isfunction(target) and not inspect.ismethod(target) and callable(target):
        target = type(target).__call__
    return inspect.iscoroutinefunction(target)


async def run_tool(function: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Call a tool function: an async one on the loop, a sync one in a worker thread (stopped with the run)."""
    if _runs_on_the_loop(function):
        result = function(*args, **kwargs)
    else:
        worker = Worker(asyncio.get_running_loop(), threading.Event(), function)
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
