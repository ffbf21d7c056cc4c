"""Chat: a conversation with an agent, with no widget in it; every view of it (``ChatWidget``) is a listener.

A chat keeps its threads in a log (``store``): each change is a record appended as it happens, and a chat opened
on an existing log is the conversation it holds, exactly as it was shown (``_thread.py``). In a notebook cell the
log is, by default, ``.agui-chats/<notebook>/<cell id>.jsonl`` beside the notebook (``_identity.py``), so running
the cell again (or restarting the kernel and running all) goes on with the same conversation; elsewhere the chat
lives in memory unless ``store=`` names a file.

>>> import asyncio
>>> def agent(run_input):
...     yield "Hello from "
...     yield "the agent."
>>> async def main():
...     chat = Chat(agent, store=None)
...     outcome = await chat.send_message("Hi!")
...     return outcome, [m["role"] for m in chat.messages]
>>> asyncio.run(main())
('success', ['user', 'assistant'])
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
import weakref
from collections.abc import AsyncGenerator, Coroutine, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypedDict

from ag_ui.core import RunAgentInput, Tool
from pydantic import BaseModel, ValidationError

from agui_notebook._errors import (
    AgentError,
    ChatLogError,
    ChatStateError,
    InputTypeError,
    InterruptPayloadError,
    MessageIndexError,
    MessageNotFoundError,
    OptionError,
)
from agui_notebook._options import count, file_path, keyword_options, listed, typed
from agui_notebook._shown import model_problem, shown
from agui_notebook._types import JSON
from agui_notebook.bridge._conversation import RunOutcome
from agui_notebook.bridge._messages import to_agui_messages, to_agui_messages_wire, to_ui_messages
from agui_notebook.chat._agents import check_agent
from agui_notebook.chat._attachments import file_part
from agui_notebook.chat._branches import Branch, edited_parts
from agui_notebook.chat._context import (
    CONTEXT_BUDGET,
    ContextSource,
    checked_budget,
    context_preview,
    context_sources,
    forwarded_props,
    is_computed,
    resolve_context,
)
from agui_notebook.chat._feedback import check_rating, iso_utc
from agui_notebook.chat._frontend_tools import MAX_FOLLOW_UPS, FrontendTools
from agui_notebook.chat._identity import default_log_path
from agui_notebook.chat._interrupts import is_approval_id, pending_interrupts
from agui_notebook.chat._listeners import ChatListener, Listeners
from agui_notebook.chat._playback import playback_items
from agui_notebook.chat._recorder import RecordedEvent
from agui_notebook.chat._records import LOG_VERSION, record_kind
from agui_notebook.chat._run import RunStatus, TurnRunner, model_wire, show_ended
from agui_notebook.chat._saved import SavedConversation
from agui_notebook.chat._store import ChatLog
from agui_notebook.chat._thread import ChatThread, RunInputs, ThreadChange, thread_title
from agui_notebook.ui._validate import validate_ui_messages
from agui_notebook.wire._json import copy_json
from agui_notebook.wire._values import json_value

__all__ = ["DEFAULT_STORE", "Chat", "ThreadInfo"]


class _DefaultStore:
    def __repr__(self) -> str:
        return "DEFAULT_STORE"


DEFAULT_STORE: Any = _DefaultStore()
"""``store=`` by default: the notebook cell's log beside the notebook, or memory outside a notebook."""

_OPEN: weakref.WeakValueDictionary[str, Chat] = weakref.WeakValueDictionary()
"""The chats of this process by the resolved path of their log (two chats must not write one log)."""


class ThreadInfo(TypedDict):
    """One thread of a chat as the thread list shows it (JSON: ``pd.DataFrame(chat.threads)`` reads well)."""

    id: str
    title: str
    updated: str | None
    """When its last record was written (ISO 8601, UTC), None for a thread with none."""
    turns: int
    """How many messages the user sent in it."""
    bytes: int
    """The size of its lines in the log."""
    current: bool


def _as_ui_messages(messages: Any, *, check: bool = True) -> list[dict[str, JSON]]:
    """UIMessage dicts (fresh JSON copies) from UIMessage dicts/models, or from AG-UI messages (converted);
    UIMessages that do not have the AI SDK's shape are refused (``check``), naming the bad value's path."""
    items: list[Any] = []
    for index, message in enumerate(listed(messages, "messages", "messages")):
        if not isinstance(message, (Mapping, BaseModel)):
            raise InputTypeError(
                f"messages[{index}] must be a message (a dict or a pydantic model), not {type(message).__name__}"
            )
        wire = dict(message) if isinstance(message, Mapping) else model_wire(message)
        items.append(copy_json(json_value(wire, f"messages[{index}]")))
    if items and all(isinstance(m, dict) and "parts" not in m for m in items):
        return to_ui_messages(items)
    if items and check:
        validate_ui_messages(
            items
        )  # the models it returns drop keys the chat keeps: only its verdict is used
    return items


def _tool_wire(tool: Any, index: int) -> dict[str, JSON]:
    """An AG-UI tool declaration of ``tools=``, as the JSON a run input carries."""
    where = f"tools[{index}]"
    if not isinstance(tool, (Mapping, BaseModel)):
        raise InputTypeError(
            f"{where} must be a function, a frontend_tool or an AG-UI tool declaration (a dict or "
            f"ag_ui.core.Tool), not {type(tool).__name__}"
        )
    wire = json_value(dict(tool) if isinstance(tool, Mapping) else model_wire(tool), where)
    try:
        Tool.model_validate(wire)
    except ValidationError as exc:
        raise OptionError(f"{where} is not an AG-UI tool declaration: {model_problem(exc)}") from None
    return wire  # a Tool's JSON: an object


def _log_path(store: Any) -> Path | None:
    """The log ``store=`` names: a path, None (memory only), or by default the notebook cell's."""
    if store is DEFAULT_STORE:
        return default_log_path()
    if store is None:
        return None
    return Path(file_path(store, "store"))


def _message_id(value: Any) -> str:
    return typed(value, "message_id", str, "a message id (a string)")


def _thread_id(value: Any) -> str:
    return typed(value, "thread_id", str, "a thread id (a string)")


def _place(at: Any, messages: list[dict[str, JSON]]) -> int:
    """``at``, a place on the path of ``messages``, else the family's error (the range it has)."""
    typed(at, "at", int, "a place in the conversation (a whole number)")
    if not 0 <= at < len(messages):
        raise MessageIndexError(f"no message {shown(at)} in the conversation (it has {len(messages)})")
    return int(at)


def _run_input(value: Any) -> RunAgentInput:
    """``value`` as a ``RunAgentInput`` (a model, or its camelCase dict), else the family's error."""
    if isinstance(value, RunAgentInput):
        return value
    typed(value, "run_input", Mapping, "a RunAgentInput (what fork() builds) or its dict")
    try:
        return RunAgentInput.model_validate(dict(value))
    except ValidationError as exc:
        raise OptionError(f"run_input is not a RunAgentInput: {model_problem(exc)}") from None


def _log_key(path: Path | None) -> str | None:
    """The key of the open chats' registry: the log's resolved path."""
    if path is None:
        return None
    try:
        return str(path.resolve())
    except (OSError, RuntimeError) as exc:  # a symbolic link loop, a name too long
        raise ChatLogError(f"{path}: cannot hold a chat log ({exc})") from None


def _checked_message_type(message_type: Any) -> type[BaseModel] | None:
    if message_type is not None and not (
        isinstance(message_type, type) and issubclass(message_type, BaseModel)
    ):
        raise InputTypeError(
            f"message_type must be a UIMessage model class (UIMessage[...]) or None, not {shown(message_type)}"
        )
    return message_type


def _checked_props(value: Any) -> Any:
    """``forwarded_props=`` checked where it can be before a run: a JSON object, a callable, or None."""
    if value is None or is_computed(value):
        return value
    return forwarded_props(value)


def _fresh_id() -> str:
    return uuid.uuid4().hex


def _loop() -> asyncio.AbstractEventLoop:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        raise ChatStateError(
            "a chat runs its agent on a running event loop (a Jupyter kernel, or inside `async def`); "
            "none is running here"
        ) from None


class Chat:
    """A conversation with an agent: the message tree, the run loop, state, feedback and the log, headless.

    ``agent`` is a callable taking an AG-UI ``RunAgentInput`` and streaming AG-UI events, AI SDK chunks or text;
    an object with a ``run(input)`` method (``HttpAgent``, ``ag_ui_langgraph.LangGraphAgent``); or a pydantic-ai
    ``Agent``. ``messages`` (UIMessages, or AG-UI messages) and ``state`` start a new log's first thread
    (``thread_id`` names it); a log that holds a conversation already goes on with it. ``tools`` are AG-UI tool
    declarations sent with every run, and Python functions the chat runs itself when the agent calls them
    (``frontend_tool``). ``store`` is the log: a path, ``None`` (memory only) or, by default, the notebook cell's
    log (``_identity.py``). ``message_type`` (a typed ``UIMessage[...]``) is what ``ui_messages`` validates.
    ``raise_errors=True`` makes a failed run raise its exception from ``await chat.send_message(...)``.
    ``context`` is what the agent sees of the notebook (AG-UI context entries, whose values may be DataFrames,
    figures, any object or a callable evaluated at each run, each described within ``context_budget``
    characters: ``_context.py``); ``forwarded_props`` (a JSON object, or a callable giving one) goes with every
    run as ``forwardedProps``.
    """

    @keyword_options
    def __init__(
        self,
        agent: Any = None,
        *,
        messages: Iterable[Any] = (),
        thread_id: str | None = None,
        tools: Iterable[Any] = (),
        state: JSON = None,
        store: str | os.PathLike[str] | None = DEFAULT_STORE,
        raise_errors: bool = False,
        message_type: type[BaseModel] | None = None,
        max_follow_ups: int = MAX_FOLLOW_UPS,
        context: Any = None,
        forwarded_props: Any = None,
        context_budget: int = CONTEXT_BUDGET,
    ) -> None:
        check_agent(agent)
        path = _log_path(store)
        key = _log_key(path)
        if key is not None and key in _OPEN:
            raise OptionError(
                f"store: {path} is the log of another chat in this kernel; use that chat (ChatWidget(chat) shows "
                "it again) or close() it first"
            )
        self.agent = agent
        self.raise_errors = typed(raise_errors, "raise_errors", bool, "True or False")
        """Whether a failed run raises its exception from the run's task (``await chat.send_message(...)``)."""
        self.max_follow_ups = count(max_follow_ups, "max_follow_ups")
        """Follow-up runs the chat starts by itself (frontend tools answered) per user turn."""
        self.message_type = _checked_message_type(message_type)
        typed(thread_id, "thread_id", (str, type(None)), "a string or None")
        self._tools = FrontendTools(listed(tools, "tools", "tools"), _tool_wire)
        self.context_budget = checked_budget(context_budget)
        """Characters each context entry may send (its description is cut there, with a note)."""
        self._context = context_sources(context)
        self._forwarded_props = _checked_props(forwarded_props)
        self._context_sent: list[dict[str, JSON]] | None = None
        self._initial_state = copy_json(json_value(state, "state"))
        self._views = Listeners()
        self._status = RunStatus()
        self._task: asyncio.Task[RunOutcome] | None = None
        self._runner: TurnRunner | None = None
        self._log = ChatLog(path)
        self._threads: dict[str, ChatThread] = {}
        self._turn_counts: dict[str, tuple[list[RecordedEvent], int, int]] = {}  # (records, counted, turns)
        initial = _as_ui_messages(messages, check=message_type is None)
        if message_type is not None:
            self._typed(initial)  # a given message that does not validate is refused at once
        if self._log.threads and self._log.current is not None:
            self._thread = self._load(self._log.current)
            self._thread.finish_replay()
            show_ended(self._status, self._thread.ended)  # the last run's end, as it was shown
        else:
            self._thread = self._new_thread(thread_id or _fresh_id(), initial, self._initial_state)
        if key is not None:
            _OPEN[key] = self

    # ------------------------------------------------------------------------------------------ views
    def subscribe(self, view: ChatListener) -> None:
        """Tell ``view`` every change from now on (``_listeners.py``)."""
        self._views.add(typed(view, "view", ChatListener, "a ChatListener (subclass it: chat/_listeners.py)"))

    def unsubscribe(self, view: ChatListener) -> None:
        self._views.remove(view)

    @property
    def views(self) -> tuple[ChatListener, ...]:
        """The views subscribed, in order."""
        return tuple(self._views)

    # ------------------------------------------------------------------------------------------ what it holds
    @property
    def tools(self) -> list[dict[str, JSON]]:
        """The AG-UI tool declarations sent with every run (frontend tools included)."""
        return self._tools.declarations

    @property
    def frontend_tools(self) -> FrontendTools:
        return self._tools

    @property
    def context(self) -> list[dict[str, Any]]:
        """What the agent sees of the notebook: the context entries (``{"description", "value"}``) as given,
        values not yet described (assign entries or a ``{description: value}`` mapping to replace them)."""
        return [{"description": s.description, "value": s.value} for s in self._context]

    @context.setter
    def context(self, value: Any) -> None:
        self._context = context_sources(value)
        self._context_sent = None
        self._views.context_changed()

    @property
    def forwarded_props(self) -> Any:
        """What goes with every run as ``forwardedProps`` (a JSON object, or a callable giving one)."""
        return self._forwarded_props

    @forwarded_props.setter
    def forwarded_props(self, value: Any) -> None:
        self._forwarded_props = _checked_props(value)

    @property
    def context_sent(self) -> list[dict[str, JSON]]:
        """What each context entry sent at the last run (``{description, kind, chars, cut, dynamic}``; ``cut``
        counts the characters the budget left out); before a run, what it would send (``chars`` is None for a
        callable, evaluated only at a run)."""
        if self._context_sent is not None:
            return copy_json(self._context_sent)
        return context_preview(self._context, self.context_budget)

    @property
    def messages(self) -> list[dict[str, JSON]]:
        """The conversation shown (the selected path of its branches): a JSON copy of its UIMessages."""
        return copy_json(self._thread.messages)

    @messages.setter
    def messages(self, messages: Iterable[Any]) -> None:
        self._refuse("replace the messages")
        self._changed(self._thread.replace(_as_ui_messages(messages)))
        self._views.branches_changed()

    @property
    def live_messages(self) -> list[dict[str, JSON]]:
        """The live list runs stream into (views read it; do not change it)."""
        return self._thread.messages

    @property
    def ui_messages(self) -> list[Any]:
        """The conversation as ``UIMessage`` models (of ``message_type`` when one was given): a message that does
        not validate raises :class:`UIMessageValidationError` naming the message, the part and the field."""
        if self.message_type is not None:
            return self._typed(self._thread.messages)
        from agui_notebook.ui._parts import UIMessage

        return [UIMessage.model_validate(m) for m in self._thread.messages]

    def _typed(self, messages: list[dict[str, JSON]]) -> list[Any]:
        from agui_notebook.ui._validate import model_of

        return [model_of(self.message_type, m, f"messages[{i}]") for i, m in enumerate(messages)]

    @property
    def agui_messages(self) -> list[Any]:
        """The conversation as AG-UI ``Message`` models (what the next run's input carries)."""
        return to_agui_messages(self._thread.messages)

    @property
    def state(self) -> JSON:
        """The AG-UI shared state: sent with every run, changed by the agent's STATE events and by assigning it
        (JSON by the one rule; refused while the agent answers)."""
        return self._thread.state

    @state.setter
    def state(self, value: JSON) -> None:
        self._refuse("change the state")
        self._thread.set_state(copy_json(json_value(value, "state")))
        self._views.state_changed("python", [])

    @property
    def events(self) -> list[RecordedEvent]:
        """The current thread's records in order: every event or chunk the agent streamed, with its receive
        time, and the chat's own records (``_records.py``); ``load_events(chat)`` reads them."""
        return self._thread.records

    @property
    def run_inputs(self) -> RunInputs:
        """Every ``RunAgentInput`` the current thread sent (wire JSON), with the number of records before its run."""
        return self._thread.run_inputs

    @property
    def store(self) -> Path | None:
        """The log's path (None: memory only)."""
        return self._log.path

    @property
    def read_only(self) -> bool:
        """Whether the log is held by another kernel (the chat shows it but takes no change)."""
        return self._log.read_only

    @property
    def status(self) -> str:
        """``"ready"``, ``"submitted"`` (waiting for the first item), ``"streaming"`` or ``"error"``."""
        return self._status.status

    @property
    def error(self) -> str:
        """The last run's error (or a refused request's), in one line; ``""`` when there is none."""
        return self._status.error

    @property
    def error_details(self) -> str:
        return self._status.details

    @property
    def exception(self) -> BaseException | None:
        """The exception that ended the last failed run (an :class:`AgentRunError` when the agent reported it)."""
        return self._status.exception

    @property
    def warnings(self) -> list[str]:
        """Problems the last run survived (the first ``MAX_WARNINGS``, then a count of the rest)."""
        return self._status.shown_warnings

    @property
    def task(self) -> asyncio.Task[RunOutcome] | None:
        """The current (or last) run's task: ``await chat.task`` waits for a run started from a view."""
        return self._task

    @property
    def busy(self) -> bool:
        """Whether a run is in progress."""
        return self._task is not None and not self._task.done()

    @property
    def thread_id(self) -> str:
        return self._thread.id

    @property
    def branch_points(self) -> list[dict[str, int]]:
        """The forks along the path, for pickers: ``{"at", "index", "count"}`` for each message ``at`` that has
        alternatives (``_branches.py``)."""
        self._thread.tree_messages()
        return self._thread.tree.points()

    def branch_versions(self) -> dict[int, tuple[int, list[list[dict[str, JSON]]]]]:
        """The other versions of each fork along the path: ``{place: (index of the version shown, the other
        versions' messages from the fork on)}`` (what a saved copy folds under the message)."""
        thread = self._thread
        thread.tree_messages()
        versions = {}
        for point in thread.tree.points():
            at = point["at"]
            if at < len(thread.messages):
                others = [b.messages for b in thread.tree.branches(at) if not b.selected]
                versions[at] = (point["index"], others)
        return versions

    def warn(self, text: str) -> None:
        """Add ``text`` to the warnings of the run shown (a renderer that failed, say), once: a warning shown
        already is not added again, however often its cause comes back."""
        typed(text, "text", str, "a string")
        if text not in self._status.warnings:
            self._status.warnings.append(text)
            self._views.warnings_changed()

    @keyword_options
    def configure(
        self,
        *,
        agent: Any = None,
        tools: Iterable[Any] = (),
        raise_errors: bool | None = None,
        max_follow_ups: int | None = None,
        context: Any = None,
        forwarded_props: Any = None,
        context_budget: int | None = None,
    ) -> None:
        """Take another agent, tools, context and run options: what a notebook cell run again gives the chat it
        opens again (``agent``, ``tools``, ``context`` and ``forwarded_props`` are replaced; the rest kept when
        None). Refused while the agent answers."""
        self._refuse("change the agent")
        check_agent(agent)
        declared = FrontendTools(listed(tools, "tools", "tools"), _tool_wire)
        sources, props = context_sources(context), _checked_props(forwarded_props)
        budget = self.context_budget if context_budget is None else checked_budget(context_budget)
        self._tools, self.agent, self._forwarded_props, self.context_budget = declared, agent, props, budget
        self.context = [{"description": s.description, "value": s.value} for s in sources]
        if raise_errors is not None:
            self.raise_errors = typed(raise_errors, "raise_errors", bool, "True or False")
        if max_follow_ups is not None:
            self.max_follow_ups = count(max_follow_ups, "max_follow_ups")

    def thread_messages(self, thread_id: str) -> list[dict[str, JSON]]:
        """The conversation of another thread (a JSON copy of its selected path)."""
        self._known(_thread_id(thread_id))
        return copy_json(self._load(thread_id).messages)

    def set_error(self, text: str) -> None:
        """Show ``text`` as the chat's error without changing its status (a refused request from a view)."""
        self._status.error = typed(text, "text", str, "a string")
        self._views.status_changed()

    def __repr__(self) -> str:
        where = "memory" if self.store is None else str(self.store)
        return f"<Chat {len(self._thread.messages)} messages, status={self.status!r}, store={where}>"

    # ------------------------------------------------------------------------------------------ refusals
    def _refuse(self, action: str) -> None:
        if self.busy:
            raise ChatStateError(
                f"cannot {action} while the agent is answering: await the current run or call stop()"
            )
        if self._log.read_only:
            raise ChatStateError(f"cannot {action}: this chat's log {self.store} is open in another kernel")

    def _refuse_without_agent(self) -> None:
        if self.agent is None:
            raise AgentError("this chat has no agent: pass it as the first argument or set chat.agent")

    def _changed(self, change: ThreadChange) -> None:
        self._views.messages_changed(change.changes)
        if change.reset:
            self._views.messages_reset()

    # ------------------------------------------------------------------------------------------ the user's turns
    def send_message(
        self, text: str = "", *, files: Iterable[Any] = (), context: Any = None
    ) -> asyncio.Task[RunOutcome]:
        """Append the user's message and start a run; returns the run's task (await it for the outcome).

        ``files`` are paths, ``(data, media_type)`` or ``(name, data, media_type)`` tuples, or file part dicts;
        they become data URLs in ``file`` parts (and AG-UI media content in the run input). ``context`` adds
        entries (as ``Chat(context=)`` takes them) to this turn's runs only. Approvals and interrupts still
        waiting are cancelled: the run carries a ``cancelled`` resume entry for each.
        """
        self._refuse("send a message")
        self._refuse_without_agent()
        typed(text, "text", str, "a string")
        extra = context_sources(context)
        parts = [file_part(f) for f in listed(files, "files", "files")]
        if text:
            parts.append({"type": "text", "text": text})
        if not parts:
            raise OptionError("nothing to send: give some text or files")
        loop = _loop()
        change, cancelled = self._thread.send({"id": _fresh_id(), "role": "user", "parts": parts})
        self._changed(change)
        self._views.threads_changed()
        # The new message starts a new answer; the entries only tell the agent the old question is gone.
        return self._start(loop, resume=cancelled, continues=False, runner=self._new_runner(extra))

    def regenerate(self, message_id: str | None = None) -> asyncio.Task[RunOutcome]:
        """Run the agent again in place of an assistant message (by default the answer to the last user message);
        the old answer, and whatever followed it, stays as a branch (``branches``, ``select_branch``)."""
        self._refuse("regenerate")
        self._refuse_without_agent()
        at = None
        if message_id is not None:
            at = self._reveal(_message_id(message_id))
        return self.regenerate_at(at)

    def regenerate_at(self, at: int | None) -> asyncio.Task[RunOutcome]:
        """``regenerate`` for the message at place ``at`` of the path (None: the answer to the last question)."""
        self._refuse("regenerate")
        self._refuse_without_agent()
        messages = self._thread.messages
        if at is None:
            last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
            if last_user < 0:
                raise ChatStateError("nothing to regenerate: the conversation has no user message")
            at = last_user + 1
        elif messages[_place(at, messages)].get("role") != "assistant":
            raise OptionError(
                f"message {at} is a {messages[at].get('role')} message: only assistant messages can be "
                "regenerated (edit a user message instead)"
            )
        loop = _loop()
        if at < len(messages):
            self._changed(self._thread.cut(at))
            self._views.branches_changed()
        return self._start(loop)

    def edit(
        self, message_id: str, text: str, *, files: Iterable[Any] | None = None
    ) -> asyncio.Task[RunOutcome]:
        """Replace a user message with one saying ``text`` and run the agent from there; the old message and what
        followed it stay as a branch. ``files=None`` keeps the message's attachments (and other non-text parts);
        ``files=[...]`` (as for ``send_message``) replaces them, ``files=[]`` drops them."""
        self._refuse("edit a message")
        self._refuse_without_agent()
        return self.edit_at(self._reveal(_message_id(message_id)), text, files)

    def edit_at(self, at: int, text: str, files: Iterable[Any] | None = None) -> asyncio.Task[RunOutcome]:
        """``edit`` for the message at place ``at`` of the path."""
        self._refuse("edit a message")
        self._refuse_without_agent()
        messages = self._thread.messages
        if messages[_place(at, messages)].get("role") != "user":
            raise OptionError(
                f"message {at} is a {messages[at].get('role')} message: only user messages can be edited"
            )
        typed(text, "text", str, "a string")
        new_files = None if files is None else [file_part(f) for f in listed(files, "files", "files")]
        parts = edited_parts(messages[at], text, new_files)
        if not parts:
            raise OptionError("nothing to send: give some text or files")
        loop = _loop()
        self._changed(self._thread.cut(at))
        self._changed(self._thread.append([{"id": _fresh_id(), "role": "user", "parts": parts}]))
        self._views.branches_changed()
        return self._start(loop)

    def branches(self, message_id: str) -> list[Branch]:
        """The alternatives at the fork where message ``message_id`` sits (any message of the tree, shown or
        not), oldest first (one when it never forked): edits of a user message, or regenerations of an answer,
        each with what followed it."""
        thread = self._thread
        thread.tree_messages()
        return thread.tree.branches_of(thread.tree.find(_message_id(message_id)))

    def select_branch(self, message_id: str, index: int) -> None:
        """Show alternative ``index`` (0 the oldest) of the fork where message ``message_id`` sits (any message of
        the tree): it becomes the conversation, the path the next run's input carries; the others are kept."""
        self._refuse("switch branches")
        typed(index, "index", int, "a whole number")
        thread = self._thread
        thread.tree_messages()
        node = thread.tree.find(_message_id(message_id))
        if not thread.tree.on_path(node):
            self._reveal(message_id)
        self.select_at(thread.tree.place(node), index)

    def select_at(self, at: int, index: int) -> None:
        """``select_branch`` for the fork at place ``at`` of the path."""
        self._refuse("switch branches")
        _place(at, self._thread.messages)
        change = self._thread.select(at, typed(index, "index", int, "a whole number"))
        self._changed(change)
        self._views.branches_changed()

    def place_of(self, message_id: str) -> int:
        """The place on the path of message ``message_id`` (any message of the tree: a message on another branch
        has its branch shown first); :class:`MessageNotFoundError` when no message has this id."""
        return self._reveal(_message_id(message_id))

    def _reveal(self, message_id: str) -> int:
        """The place of ``message_id`` on the path, after showing its branch when it is on another one."""
        at, change = self._thread.reveal(message_id)
        if change.reset:
            self._changed(change)
            self._views.branches_changed()
        return at

    def answer_approval(
        self, approval_id: str, approved: bool, *, reason: str | None = None
    ) -> asyncio.Task[RunOutcome] | None:
        """Answer a tool call's approval request; once every request of the answer is answered, resume the run.

        Returns the resumed run's task, or None while other approvals of the same answer are still open.
        """
        self._refuse("answer an approval")
        self._refuse_without_agent()
        typed(approval_id, "approval_id", str, "a string")
        typed(approved, "approved", bool, "True or False")
        typed(reason, "reason", (str, type(None)), "a string or None")
        loop = _loop()
        self._changed(self._thread.answer_approval(approval_id, approved, reason))
        return self._resume_when_answered(loop)

    def answer_interrupt(
        self, interrupt_id: str, payload: JSON = None, *, cancel: bool = False
    ) -> asyncio.Task[RunOutcome] | None:
        """Answer an interrupt the last run ended with (what the form's Submit and Dismiss do).

        ``payload`` is checked against the interrupt's ``responseSchema`` (an :class:`InterruptPayloadError`
        names the field it refuses, or says the interrupt has expired); ``cancel=True`` dismisses it instead. A
        tool approval takes ``{"approved": bool, "reason"?: str}``, as :meth:`answer_approval`. Once every
        interrupt and approval of the answer is answered the run resumes: returns its task, or None while others
        are still open. :class:`MessageNotFoundError` when no open interrupt of the last answer has this id.
        """
        self._refuse("answer an interrupt")
        self._refuse_without_agent()
        typed(interrupt_id, "interrupt_id", str, "a string")
        typed(cancel, "cancel", bool, "True or False")
        loop = _loop()
        if is_approval_id(self._thread.messages, interrupt_id):
            answer = payload if isinstance(payload, Mapping) else {}
            if cancel or type(answer.get("approved")) is not bool:
                raise InterruptPayloadError(
                    f"interrupt {shown(interrupt_id)} is a tool approval: payload.approved: must be true or false",
                    interrupt_id=interrupt_id,
                    path="payload.approved",
                )
            reason = answer.get("reason")
            return self.answer_approval(
                interrupt_id, answer["approved"], reason=reason if isinstance(reason, str) else None
            )
        payload = copy_json(json_value(payload, "payload"))
        self._changed(self._thread.answer_interrupt(interrupt_id, payload, cancel=cancel))
        return self._resume_when_answered(loop)

    def _resume_when_answered(self, loop: asyncio.AbstractEventLoop) -> asyncio.Task[RunOutcome] | None:
        """Resume once nothing of the last answer waits any more; until then show the answer given."""
        thread = self._thread
        if thread.conversation.pending_approvals() or pending_interrupts(thread.messages):
            return None
        if any(c.state == "approval-responded" for c in self._tools.open_calls(thread.messages)):
            # Frontend tools the user answered: run (or deny) them, then the follow-up run resumes the rest.
            runner = self._new_runner()
            return self._create_task(loop, runner, runner.turn(None), "agui-notebook frontend tools")
        runner = self._new_runner()
        return self._start(loop, resume=runner.resume_entries(), runner=runner)

    def feedback(self, message_id: str, rating: str | None, comment: str | None = None) -> None:
        """Rate an answer (any assistant message of the tree, by id): ``"up"``, ``"down"`` (with an optional
        ``comment``) or ``None`` to take the rating back; what the 👍/👎 buttons do.

        The rating is kept in the message's metadata (``metadata["agui-notebook"]["feedback"]``) and recorded as
        an ``agui-notebook/feedback`` record, which ``messages_df`` reads into its ``feedback`` columns.

        >>> chat.feedback(chat.messages[-1]["id"], "down", "It missed the question")  # doctest: +SKIP
        """
        check_rating(rating, comment)
        if self._log.read_only:
            self._refuse("rate an answer")
        thread = self._thread
        thread.tree_messages()
        message = thread.tree.find(_message_id(message_id)).message
        if message.get("role") != "assistant":
            raise OptionError(
                f"feedback: message {message_id!r} is a {message.get('role')} message, not an answer"
            )
        if self.busy and thread.messages and thread.messages[-1] is message:
            raise ChatStateError("cannot rate the answer the agent is still writing: wait for it to finish")
        _, change = thread.feedback(message_id, rating, comment, time.time_ns())
        self._changed(change)

    def play(self, stream: Any, *, speed: float | None = None) -> asyncio.Task[RunOutcome]:
        """Render a recorded or prepared stream without an agent; returns the task.

        ``stream`` is AG-UI events or AI SDK chunks (an iterable, async iterable, or a log file path: JSONL,
        SSE, a JSON array, or a recorder log with receive times). ``speed=1.0`` replays at the recorded pace
        (receive times, else event timestamps), ``2.0`` twice as fast; ``None`` renders at once.
        """
        self._refuse("play a stream")
        if speed is not None and not (isinstance(speed, int | float) and speed > 0):
            raise OptionError(
                f"speed must be a positive number of times the recorded pace, got {shown(speed)}"
            )
        loop = _loop()
        return self._start(loop, source=playback_items(stream, speed))

    def branch_from(self, run_input: Any) -> asyncio.Task[RunOutcome]:
        """Run the agent on ``run_input`` (what :func:`~agui_notebook.fork` builds), the conversation it carries
        shown on a new branch: the messages it shares with the path stay, from the first that differs on the old
        ones become a branch and its own take their place; the state becomes its state."""
        self._refuse("fork the conversation")
        self._refuse_without_agent()
        loop = _loop()
        run_input = _run_input(run_input)
        wire = model_wire(run_input)
        forked = to_ui_messages(wire["messages"])
        thread = self._thread
        path = thread.messages
        shared = 0
        while shared < min(len(path), len(forked)) and to_agui_messages_wire(
            [path[shared]]
        ) == to_agui_messages_wire([forked[shared]]):
            shared += 1
        if shared < len(path):
            self._changed(thread.cut(shared))
        if forked[shared:]:
            self._changed(thread.append(forked[shared:]))
        thread.set_state(copy_json(wire.get("state")))
        self._views.state_changed("python", [])
        self._views.branches_changed()
        return self._start(loop, run_input=run_input)

    def stop(self) -> None:
        """Stop the current run (within 200 ms, sync agents too); what was streamed stays, the outcome is
        ``"cancelled"``."""
        task, runner = self._task, self._runner
        if task is None or task.done() or runner is None:
            return
        runner.stopping = True
        runner.stop_event.set()
        # A task cancelled before its first step would skip the tidying up: it sees the event instead.
        if runner.begun:
            task.cancel()

    # ------------------------------------------------------------------------------------------ runs
    def _new_runner(self, extra_context: list[ContextSource] | None = None) -> TurnRunner:
        thread = self._thread
        extra = extra_context or []
        return TurnRunner(
            thread=thread,
            views=self._views,
            status=self._status,
            agent=self.agent,
            tools=self._tools,
            run_input=lambda run_id, resume: self._run_input(run_id, resume, extra),
            max_follow_ups=self.max_follow_ups,
            raise_errors=self.raise_errors,
            shown=lambda: self._thread is thread,
        )

    def next_run_input(self, *, resume: Iterable[dict[str, JSON]] = ()) -> Any:
        """The ``RunAgentInput`` the next run would send (a fresh run id): the path as AG-UI messages (activity
        stays on the client), the tools, the state and ``resume`` entries."""
        entries = json_value(listed(resume, "resume", "resume entries"), "resume")
        try:
            return self._run_input(_fresh_id(), entries)
        except ValidationError as exc:
            raise OptionError(f"resume: not AG-UI resume entries: {model_problem(exc)}") from None

    def _run_input(
        self, run_id: str, resume: list[dict[str, JSON]], extra_context: Sequence[ContextSource] = ()
    ) -> Any:
        """The next run's input; the context's callables are called here, once per run."""
        entries, sent = resolve_context([*self._context, *extra_context], self.context_budget)
        props = forwarded_props(self._forwarded_props)
        wire: dict[str, JSON] = {
            "threadId": self._thread.id,
            "runId": run_id,
            "messages": self._thread.run_input_messages(),
            "tools": self.tools,
            "context": entries,
            "protocolVersion": "1.0",
        }
        if self._thread.state is not None:
            wire["state"] = self._thread.state
        if resume:
            wire["resume"] = resume
        if props is not None:
            wire["forwardedProps"] = props
        run_input = RunAgentInput.model_validate(wire)
        if sent != self._context_sent:
            self._context_sent = sent
            self._views.context_changed()
        return run_input

    def _start(
        self,
        loop: asyncio.AbstractEventLoop,
        *,
        resume: list[dict[str, JSON]] | None = None,
        continues: bool = True,
        source: AsyncGenerator[tuple[int | None, Any], None] | None = None,
        run_input: Any = None,
        runner: TurnRunner | None = None,
    ) -> asyncio.Task[RunOutcome]:
        runner = runner or self._new_runner()
        played = source is not None
        items = runner.begin(resume=resume, continues=continues, source=source, run_input=run_input)
        run = runner.drive(items) if played else runner.turn(items)
        return self._create_task(loop, runner, run, "agui-notebook run")

    def _create_task(
        self,
        loop: asyncio.AbstractEventLoop,
        runner: TurnRunner,
        run: Coroutine[Any, Any, RunOutcome],
        name: str,
    ) -> asyncio.Task[RunOutcome]:
        """The task of a turn; ``stop()`` before its first step leaves it to find the stop event set."""
        self._runner = runner

        async def begun() -> RunOutcome:
            runner.begun = True
            return await run

        self._task = loop.create_task(begun(), name=name)
        return self._task

    # ------------------------------------------------------------------------------------------ threads
    def _writer(self, thread_id: str) -> Any:
        log = self._log

        def write(entry: RecordedEvent, deferred: bool) -> list[RecordedEvent]:
            return log.append(thread_id, entry, deferred=deferred)

        return write

    def _new_thread(self, thread_id: str, messages: list[dict[str, JSON]], state: JSON) -> ChatThread:
        thread = ChatThread(
            thread_id, messages=messages, state=copy_json(state), write=self._writer(thread_id)
        )
        thread.open(version=LOG_VERSION)
        self._threads[thread_id] = thread
        return thread

    def _load(self, thread_id: str) -> ChatThread:
        thread = self._threads.get(thread_id)
        if thread is None:
            thread = ChatThread.replay(thread_id, self._log.records(thread_id), write=self._writer(thread_id))
            self._threads[thread_id] = thread
        return thread

    @property
    def threads(self) -> list[ThreadInfo]:
        """The chat's threads, the most recently changed first."""
        sizes = {lines.id: lines.bytes for lines in self._log.threads}
        ids = list(dict.fromkeys([*sizes, *self._threads]))
        out: list[ThreadInfo] = []
        order: list[int] = []
        for thread_id in ids:
            loaded = self._threads.get(thread_id)
            if loaded is not None:
                records, title = loaded.records, loaded.shown_title
            else:
                records = self._log.records(thread_id)
                lines = next(t for t in self._log.threads if t.id == thread_id)
                title = lines.title or _first_question(records)
            updated = next((r["received_ns"] for r in reversed(records) if r.get("received_ns")), None)
            order.append(updated or 0)
            out.append(
                ThreadInfo(
                    id=thread_id,
                    title=title,
                    updated=iso_utc(updated) if updated else None,
                    turns=self._turns(thread_id, records),
                    bytes=sizes.get(thread_id, 0),
                    current=thread_id == self._thread.id,
                )
            )
        ranked = sorted(range(len(out)), key=lambda i: order[i], reverse=True)
        return [out[i] for i in ranked]

    def _forget(self, thread_id: str) -> None:
        """Delete a thread from the log and from what the chat keeps of it."""
        self._log.delete_thread(thread_id)
        self._threads.pop(thread_id, None)
        self._turn_counts.pop(thread_id, None)

    def _turns(self, thread_id: str, records: list[RecordedEvent]) -> int:
        """The user's turns in ``records``, counting only the records added since the last count (the thread
        list is asked for at every run's end: a long conversation must not be read whole each time)."""
        seen, counted, turns = self._turn_counts.get(thread_id, (records, 0, 0))
        if seen is not records or counted > len(records):  # other records (a reload, a clear): count again
            counted, turns = 0, 0
        turns += sum(1 for r in records[counted:] if record_kind(r["event"]) == "send")
        self._turn_counts[thread_id] = (records, len(records), turns)
        return turns

    def new_thread(self, *, stop: bool = False) -> str:
        """Start a new conversation in the same log (the others stay: ``threads``, ``switch_thread``); returns its
        id. While the agent answers it is refused, unless ``stop=True`` stops the run first."""
        self._stop_for("start a new chat", typed(stop, "stop", bool, "True or False"))
        thread = self._new_thread(_fresh_id(), [], self._initial_state)
        self._show(thread)
        return thread.id

    def switch_thread(self, thread_id: str, *, stop: bool = False) -> None:
        """Show the thread ``thread_id`` again (refused while the agent answers, unless ``stop=True``)."""
        self._stop_for("switch threads", typed(stop, "stop", bool, "True or False"))
        if _thread_id(thread_id) == self._thread.id:
            return
        self._known(thread_id)
        thread = self._load(thread_id)
        thread.open(version=LOG_VERSION, switch=True)
        thread.finish_replay()
        self._show(thread)

    def rename_thread(self, thread_id: str, title: str) -> None:
        """Give a thread a title of its own (``""`` names it by its first question again)."""
        typed(title, "title", str, "a string")
        if self._log.read_only:
            self._refuse("rename a thread")
        self._known(_thread_id(thread_id))
        self._load(thread_id).rename(" ".join(title.split())[:200])
        self._views.threads_changed()

    def delete_thread(self, thread_id: str, *, stop: bool = False) -> None:
        """Delete a thread and remove its lines from the log (there is no undo). Deleting the thread shown shows
        the most recent other one (a new one when there is none)."""
        self._known(_thread_id(thread_id))
        typed(stop, "stop", bool, "True or False")
        if thread_id == self._thread.id:
            self._stop_for("delete the thread", stop)
            others = [t for t in self.threads if t["id"] != thread_id]
            if others:
                self.switch_thread(others[0]["id"])
            else:
                self.new_thread()
        elif self._log.read_only:
            self._refuse("delete a thread")
        self._forget(thread_id)
        self._views.threads_changed()

    def clear(self) -> None:
        """Delete the conversation shown and start an empty one (destructive: its lines leave the log; use
        ``new_thread`` to keep it). A run in progress is stopped first."""
        self.stop()
        old = self._thread.id
        self._runner, self._task = None, None
        thread = self._new_thread(_fresh_id(), [], self._initial_state)
        self._forget(old)
        self._show(thread)

    def _known(self, thread_id: str) -> None:
        if thread_id not in self._threads and all(t.id != thread_id for t in self._log.threads):
            known = ", ".join(shown(t["id"]) for t in self.threads[:5]) or "none"
            raise MessageNotFoundError(f"no thread {shown(thread_id)} in this chat (threads: {known})")

    def _stop_for(self, action: str, stop: bool) -> None:
        if self.busy:
            if not stop:
                raise ChatStateError(
                    f"cannot {action} while the agent is answering: stop() first (or pass stop=True)"
                )
            self.stop()
            self._task = None
            self._runner = None
            self._status.status = "ready"
        if self._log.read_only:
            raise ChatStateError(f"cannot {action}: this chat's log {self.store} is open in another kernel")

    def _show(self, thread: ChatThread) -> None:
        self._thread = thread
        show_ended(self._status, thread.ended)
        self._views.messages_reset()
        self._views.status_changed()
        self._views.warnings_changed()
        self._views.state_changed("thread", [])
        self._views.branches_changed()
        self._views.threads_changed()

    # ------------------------------------------------------------------------------------------ files
    def save(self, path: str | os.PathLike[str]) -> None:
        """Save the conversation shown (messages, thread id, state, records, branches, run inputs) as one JSON
        document; ``Chat.load`` reads it (the log keeps every thread: this is a copy to share)."""
        file_path(path, "path")
        thread = self._thread
        thread.tree_messages()
        branches = thread.tree.to_saved() if thread.tree.forked else None
        SavedConversation(
            thread.id, thread.tree.messages, thread.state, thread.records, branches, list(thread.run_inputs)
        ).write(path)

    @classmethod
    def load(cls, path: str | os.PathLike[str], agent: Any = None, **options: Any) -> Chat:
        """A chat holding the conversation ``save`` wrote (``agent`` and options as for the constructor; in
        memory unless ``store=`` names a log, which gets the conversation as a new thread)."""
        saved = SavedConversation.read(file_path(path, "path"))
        options.setdefault("store", None)
        chat = cls(agent, **options)
        made = chat._thread
        thread_id = saved.thread_id or _fresh_id()
        if any(record_kind(r["event"]) for r in saved.events if isinstance(r, dict)):
            # Saved with its records: they are the conversation, replayed as a log is (and written to one).
            thread = ChatThread.replay(thread_id, saved.events, write=chat._writer(thread_id))
            for record in thread.records:
                chat._log.append(thread_id, record)
        else:  # an older save: its messages and branches, with the events it recorded beside them
            thread = chat._new_thread(thread_id, [], saved.state)
            thread.replace(saved.messages, saved.branches)
            thread.records[:0] = saved.events
            thread.run_inputs = list(saved.run_inputs)
        chat._threads[thread_id] = thread
        chat._show(thread)
        if made.id != thread_id and not made.turns():  # the empty thread the constructor made for nothing
            chat._forget(made.id)
        return chat

    def close(self) -> None:
        """Stop a run in progress, let go of the log (its lock) and of every view."""
        self.stop()
        self._log.close()
        key = _log_key(self.store)
        if key is not None and _OPEN.get(key) is self:
            del _OPEN[key]
        for view in list(self._views):
            self._views.remove(view)

    @classmethod
    def opened(cls, store: str | os.PathLike[str]) -> Chat | None:
        """The chat of this process whose log is ``store``, if one is open."""
        key = _log_key(_log_path(store))
        return _OPEN.get(key) if key is not None else None


def _first_question(records: list[RecordedEvent]) -> str:
    for record in records:
        event = record["event"]
        if record_kind(event) == "send":
            return thread_title([event["value"].get("message")])
    return thread_title([])
