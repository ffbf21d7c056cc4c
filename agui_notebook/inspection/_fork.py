"""``fork``: the run input that continues a recorded conversation from any event, optionally edited.

The conversation after the first ``n`` events is exactly what ``apply_events(events[:n])`` gives (messages and
state); ``fork`` makes it a ``RunAgentInput`` with a fresh run id on the same thread, after replacing the
content of messages (by id) or tool results (by tool call id). Replaying it through an agent answers "what if
the tool had returned X" in one line; ``chat.fork(...)`` does that live in a ChatWidget, on a new branch
(``Chat.branch_from``).

>>> events = [
...     {"type": "RUN_STARTED", "threadId": "t1", "runId": "r1",
...      "input": {"threadId": "t1", "runId": "r1", "messages": [{"id": "u1", "role": "user", "content": "Hi"}]}},
...     {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "get_weather", "parentMessageId": "a1"},
...     {"type": "TOOL_CALL_END", "toolCallId": "c1"},
...     {"type": "TOOL_CALL_RESULT", "messageId": "t", "toolCallId": "c1", "content": "sunny"},
...     {"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"},
... ]
>>> run_input = fork(events, at=4, tool_results={"c1": "snowing"})
>>> run_input.thread_id, [(m.role, m.content) for m in run_input.messages]
('t1', [('user', 'Hi'), ('assistant', None), ('tool', 'snowing')])
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from agui_notebook._errors import ForkInputWarning, OptionError, warn
from agui_notebook._options import keyword_options, listed, typed
from agui_notebook._shown import model_problem, shown
from agui_notebook._types import JSON
from agui_notebook.agui._apply import apply_events
from agui_notebook.agui._thread import ThreadState
from agui_notebook.wire._json import copy_json, encode_json
from agui_notebook.wire._values import json_value

from ._source import PREFIX, chat_run_inputs, events_frame, events_frame_upto

if TYPE_CHECKING:
    from ag_ui.core import RunAgentInput

__all__ = ["fork"]


class _AsItStood:
    def __repr__(self) -> str:
        return "<the state as it stood>"


_KEEP: Any = _AsItStood()


@keyword_options
def fork(
    source: Any,
    at: int | None = None,
    *,
    messages: Mapping[str, Any] | None = None,
    tool_results: Mapping[str, Any] | None = None,
    state: JSON = _KEEP,
    tools: list[Any] | None = None,
    history: list[Any] | None = None,
) -> RunAgentInput:
    """The ``RunAgentInput`` continuing ``source`` as it stood after its first ``at`` events.

    ``source`` is a log path, an events frame, a list of events, a chat or a ChatWidget; its events are the rows
    of ``load_events(source)`` (AG-UI events as they are, AI SDK chunks as the events they are read as), and
    ``at`` counts them (``None``: all of them). The messages and state are ``apply_events(events[:at])``'s (a
    recorder on the client side puts each run's input on its RUN_STARTED, which brings the user's messages; a
    chat, and its log, hold the input of each run it started). Activity messages stay out, as ``@ag-ui/client`` leaves them out
    of a run input.

    ``messages`` maps message ids to new content, ``tool_results`` tool call ids to a new result content (a value
    that is not a string is written as JSON); ``state`` replaces the state; ``tools`` are the tool definitions to
    send (default: those of the last run input recorded, else none). The run id is fresh, the thread the last
    run's. An id that names no message is an :class:`OptionError`.
    """
    typed(messages, "messages", (Mapping, type(None)), "a mapping of message ids to new content, or None")
    typed(
        tool_results, "tool_results", (Mapping, type(None)), "a mapping of tool call ids to results, or None"
    )
    new_tools = None if tools is None else json_value(listed(tools, "tools", "tool declarations"), "tools")
    new_state = _KEEP if state is _KEEP else json_value(state, "state")
    start = None if history is None else listed(history, "history", "AG-UI messages")
    thread, thread_id, recorded_tools = _conversation(source, at, start)
    wire_messages = [copy_json(m) for m in thread.message_dicts if m.get("role") != "activity"]
    where = f"the conversation after event {at}" if at is not None else "the conversation"
    for message_id, content in (messages or {}).items():
        target = next((m for m in wire_messages if m.get("id") == message_id), None)
        if target is None:
            ids = ", ".join(shown(m.get("id")) for m in wire_messages) or "none"
            raise OptionError(f"fork: no message {shown(message_id)} in {where} (messages: {ids})")
        target["content"] = copy_json(json_value(content, f"messages[{shown(message_id)}]"))
    for call_id, content in (tool_results or {}).items():
        target = next(
            (m for m in wire_messages if m.get("role") == "tool" and m.get("toolCallId") == call_id), None
        )
        if target is None:
            results = [m.get("toolCallId") for m in wire_messages if m.get("role") == "tool"]
            calls = ", ".join(shown(c) for c in results) or "none"
            raise OptionError(f"fork: no tool result for call {shown(call_id)} in {where} (results: {calls})")
        value = json_value(content, f"tool_results[{shown(call_id)}]")
        target["content"] = value if isinstance(value, str) else encode_json(value)
    from ag_ui.core import RunAgentInput
    from pydantic import ValidationError

    wire: dict[str, Any] = {
        "threadId": thread_id or uuid.uuid4().hex,
        "runId": uuid.uuid4().hex,
        "messages": wire_messages,
        "tools": copy_json(recorded_tools if new_tools is None else new_tools),
        "context": [],
        "protocolVersion": "1.0",
    }
    if history is None and wire_messages and not any(m.get("role") == "user" for m in wire_messages):
        warn(
            f"fork: {where} has no user message (a log recorded on the server side holds only what the agent"
            " streamed): pass the run's input messages as fork(..., history=[...])",
            ForkInputWarning,
        )
    forked_state = thread.state if new_state is _KEEP else new_state
    if forked_state is not None:
        wire["state"] = copy_json(forked_state)
    try:
        return RunAgentInput.model_validate(wire)
    except ValidationError as exc:
        raise OptionError(f"fork: the run input is not valid: {model_problem(exc)}") from None


def _conversation(source: Any, at: int | None, history: Any) -> tuple[ThreadState, str | None, list[Any]]:
    """The thread after ``events[:at]`` (from ``history``), its thread id and the tools of the last run input
    recorded."""
    frame = events_frame(source) if at is None or isinstance(at, bool) else events_frame_upto(source, at)
    events = [e if isinstance(e, dict) else {} for e in frame["event"]]
    if at is None:
        at = len(events)
    if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(events):
        raise OptionError(f"fork: at={shown(at)} is not a number of events from 0 to {len(events)}")
    inputs = chat_run_inputs(source, frame)
    if inputs:
        return _chat_conversation(inputs, events, at, history)
    thread = apply_events(events[:at], messages=history)
    thread_id = thread.thread_id or _first_thread(events)
    if thread_id is None and frame.attrs.get(PREFIX):  # the first thread the log names is further on
        thread_id = _first_thread([e if isinstance(e, dict) else {} for e in events_frame(source)["event"]])
    tools: list[Any] = []
    for event in events[:at]:
        run_input = event.get("input") if event.get("type") == "RUN_STARTED" else None
        if isinstance(run_input, dict) and isinstance(run_input.get("tools"), list):
            tools = run_input["tools"]
    return thread, thread_id, tools


def _first_thread(events: list[dict[str, Any]]) -> str | None:
    return next((e["threadId"] for e in events if isinstance(e.get("threadId"), str)), None)


def _chat_conversation(
    inputs: dict[int, dict[str, Any]], events: list[dict[str, Any]], at: int, history: Any
) -> tuple[ThreadState, str | None, list[Any]]:
    """A chat's conversation after ``events[:at]`` (a chat, or its log): the input of the last run it started at
    or before that event (the user's turns are in run inputs, not in events), then that run's events up to ``at``."""
    begun = [row for row in inputs if row <= at]
    last = inputs[max(inputs)]
    if not begun:
        thread = apply_events(events[:at], messages=history)
    else:
        start = max(begun)
        run_input = inputs[start]
        thread = apply_events(events[start:at], messages=run_input["messages"], state=run_input.get("state"))
    tools = last.get("tools")
    return thread, last.get("threadId"), list(tools) if isinstance(tools, list) else []
