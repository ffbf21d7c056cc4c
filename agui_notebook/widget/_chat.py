"""ChatWidget: a live chat with any agent in a notebook, its conversation kept as AI SDK UIMessages.

>>> def agent(run_input):
...     yield "Hello from "
...     yield "the agent."
>>> chat = ChatWidget(agent, title="Demo")  # doctest: +SKIP
>>> chat  # doctest: +SKIP
>>> await chat.send("Hi!")  # doctest: +SKIP
'success'

The kernel stays free while an agent answers: async agents run on the kernel's event loop, sync ones (the call
and the iteration) in a worker thread. Streamed changes reach the front end as small patches (docs/widget.md);
the ``messages`` trait, which the notebook saves, is set when a run ends and every few seconds during long ones.
Every value entering the widget is JSON by the rule of ``wire/_values.py``; whatever fails in a run ends that run
with status ``error`` and the widget stays usable.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
import traceback
import uuid
from collections.abc import AsyncIterator, Coroutine, Iterable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anywidget
import traitlets
from pydantic import BaseModel

from agui_notebook._errors import AgentRunError, InterruptPayloadError, JsonValueError, OptionError
from agui_notebook._types import JSON
from agui_notebook.agui._intake import to_wire_event
from agui_notebook.bridge._conversation import ConversationReducer, RunOutcome, RunStreamError
from agui_notebook.bridge._messages import to_agui_messages, to_agui_messages_wire, to_ui_messages
from agui_notebook.logs._record import EventRecorder, feedback_event
from agui_notebook.ui._changes import MessageChange
from agui_notebook.ui._chunk_types import classify_type, is_ui_chunk_type
from agui_notebook.widget._agents import AgentError, aiter_agent_items
from agui_notebook.widget._attachments import file_part
from agui_notebook.widget._branches import Branch, MessageTree, edited_parts
from agui_notebook.widget._feedback import (
    agui_message_ids,
    check_rating,
    feedback_entry,
    iso_utc,
    with_feedback,
)
from agui_notebook.widget._frontend_tools import MAX_FOLLOW_UPS, FrontendTools, drive_turn
from agui_notebook.widget._interrupts import (
    answer_interrupt,
    cancel_open_interrupts,
    interrupt_resume_entries,
    is_approval_id,
    pending_interrupts,
    resend_interrupt,
    show_interrupts,
)
from agui_notebook.widget._metrics import METRICS_SYNC_SECONDS, MessageMetrics
from agui_notebook.widget._patches import PatchBatcher
from agui_notebook.widget._playback import playback_items
from agui_notebook.widget._renderers import PartRenderers, RendererRegistry
from agui_notebook.widget._saved import SavedConversation
from agui_notebook.widget._state_changes import STATE_SYNC_RATE, StateChanges
from agui_notebook.widget._static_copy import StaticCopy
from agui_notebook.widget._static_html import static_bundle
from agui_notebook.wire._json import copy_json
from agui_notebook.wire._values import is_plain_json, json_value

__all__ = ["BUNDLE", "ChatWidget"]

BUNDLE = Path(__file__).resolve().parent.parent / "static" / "widget.js"
"""The built front end (``cd js && npm run build``)."""

TRAIT_SYNC_SECONDS = 3.0
"""During a long run the ``messages`` trait (what the notebook saves) is refreshed this often."""

BUSY = frozenset({"submitted", "streaming"})
BUSY_NOTICE = "The agent is still answering: wait for it to finish or press Stop."
BAD_REQUEST = "the widget sent a request the kernel cannot read"

YIELD_SECONDS = 0.02
"""A run hands the event loop back at least this often, even to an async agent that never awaits."""

MAX_WARNINGS = 20
"""Warnings kept per run (the count of the rest is the last line)."""

MAX_DETAILS_CHARS = 20_000
"""The traceback shown in the front end's details view keeps its last this many characters."""


def _bundle_missing() -> FileNotFoundError:
    return FileNotFoundError(
        f"the ChatWidget front end is not built ({BUNDLE} is missing): run `cd js && npm install && npm run build` "
        "in the agui-notebook source tree, or reinstall the package (pip install agui-notebook)"
    )


def _fresh_id() -> str:
    return uuid.uuid4().hex


def _json_copy(value: JSON) -> JSON:
    """A deep copy of JSON data (fast, and what the front end will see)."""
    return copy_json(value)


def _model_wire(model: BaseModel) -> Any:
    """A protocol model's camelCase wire dict; values pydantic cannot write as JSON are left to ``json_value``."""
    try:
        return model.model_dump(mode="json", by_alias=True, exclude_none=True)
    except Exception:
        return model.model_dump(by_alias=True, exclude_none=True)


def _as_ui_messages(messages: Iterable[Any]) -> list[dict[str, JSON]]:
    """UIMessage dicts (fresh JSON copies) from UIMessage dicts/models, or from AG-UI messages (converted)."""
    items = [
        _json_copy(json_value(m if isinstance(m, Mapping) else _model_wire(m), f"messages[{i}]"))
        for i, m in enumerate(messages)
    ]
    if items and all(isinstance(m, dict) and "parts" not in m for m in items):
        return to_ui_messages(items)
    return items


def _tool_wire(tool: Any, index: int) -> dict[str, JSON]:
    return json_value(dict(tool) if isinstance(tool, Mapping) else _model_wire(tool), f"tools[{index}]")


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
    if isinstance(exc, (JsonValueError, _SyncFailed)):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def _details(exc: BaseException | None) -> str:
    """The traceback of ``exc`` for the front end's details view (its end, when it is long)."""
    if exc is None:
        return ""
    cause = exc.__cause__ if isinstance(exc, _SyncFailed) and exc.__cause__ is not None else exc
    text = "".join(traceback.format_exception(type(cause), cause, cause.__traceback__))
    return text if len(text) <= MAX_DETAILS_CHARS else "…" + text[-MAX_DETAILS_CHARS:]


def _sendable(value: Any) -> Any:
    """``value`` with whatever the comm cannot carry replaced: lone surrogates by U+FFFD, other odd values by the
    JSON rule, or a short note where it has none (used only to recover after a failed sync)."""
    if type(value) is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
        return value
    if type(value) is dict:
        return {_sendable(k): _sendable(v) for k, v in value.items()}
    if type(value) is list:
        return [_sendable(v) for v in value]
    if is_plain_json(value):
        return value
    try:
        return _sendable(json_value(value))
    except JsonValueError:
        return f"<{type(value).__name__}: not JSON>"


class _SyncFailed(Exception):
    """The front end could not be sent the conversation (the comm failed to encode or send it); never escapes."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(
            f"the conversation cannot be sent to the front end ({type(cause).__name__}: {cause})"
        )


class ChatWidget(anywidget.AnyWidget):
    """A chat with an agent, rendered live in the notebook.

    ``agent`` is a callable taking an AG-UI ``RunAgentInput`` and streaming AG-UI events, AI SDK chunks or text;
    an object with a ``run(input)`` method (``HttpAgent``, ``ag_ui_langgraph.LangGraphAgent``); or a pydantic-ai
    ``Agent``. ``messages`` are UIMessages (dicts or models) or AG-UI messages to start from; ``tools`` are AG-UI
    tool definitions sent with every run, and plain Python functions (or ``frontend_tool(fn, approval=True)``)
    the widget runs when the agent calls them, starting the follow-up run itself (docs/widget.md, "Frontend
    tools"); ``state`` is the AG-UI shared state the first run starts from. ``message_type`` (a typed
    ``UIMessage[...]``) is what ``ui_messages`` validates and returns.

    A run that fails leaves ``status == "error"``, the error in ``error``, its traceback in ``error_details`` and
    the exception in ``exception`` (an :class:`AgentRunError` when the agent itself reported the failure);
    problems a run survived are in ``warnings``. The next run clears them. ``await chat.send(...)`` returns the
    outcome (``"error"``); with ``raise_errors=True`` it raises the exception instead, for scripts and tests.

    >>> chat = ChatWidget(lambda run_input: iter(["Hi"]), title="Demo")  # doctest: +SKIP
    """

    _esm = BUNDLE if BUNDLE.is_file() else None

    messages = traitlets.List(traitlets.Dict()).tag(sync=True)
    status = traitlets.Enum(("ready", "submitted", "streaming", "error"), default_value="ready").tag(
        sync=True
    )
    error = traitlets.Unicode("").tag(sync=True)
    error_details = traitlets.Unicode("").tag(sync=True)
    warnings = traitlets.List(traitlets.Unicode()).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    placeholder = traitlets.Unicode("Send a message").tag(sync=True)
    height = traitlets.Union([traitlets.Unicode(), traitlets.Int()], default_value="32rem").tag(sync=True)
    show_reasoning = traitlets.Bool(True).tag(sync=True)
    theme = traitlets.Enum(("auto", "light", "dark"), default_value="auto").tag(sync=True)
    trusted_origins = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Origins (``"https://images.example"``; any URL stands for its origin) whose http(s) images, audio and video
    in messages load at once. From anywhere else they wait behind a "Load" placeholder showing their origin, so an
    agent cannot make the browser send requests (or data) to a URL of its choosing without a click."""
    suggestions = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Example prompts shown as chips while the conversation is empty; a click sends one."""
    state = traitlets.Any(None, allow_none=True).tag(sync=True)
    """The AG-UI shared state: sent with every run, updated by the agent's STATE_SNAPSHOT/STATE_DELTA events
    (``chat.observe(fn, "state")`` sees them: at most ``STATE_SYNC_RATE`` times a second during a run, and when
    it ends) and by ``chat.state = {...}`` (JSON by the one rule; refused while the agent answers)."""
    state_changes = traitlets.Dict().tag(sync=True)
    """What the last change of ``state`` changed (``widget/_state_changes.py``): ``{"seq", "source", "updates",
    "changes": [{"op": "add" | "replace" | "remove", "path": <JSON Pointer>}], "truncated"}``."""
    replay_only = traitlets.Bool(True).tag(sync=True)
    """Whether the views hide the input and the approval controls: true while the widget has no agent (set
    ``agent`` and it turns false). Set it yourself to show a conversation read-only with an agent attached."""
    rendered = traitlets.Dict().tag(sync=True)
    """What the Python renderers made of the parts, ``{"{message id}/{part index}": entry}`` (``_renderers.py``);
    written by the widget only."""
    frontend_renderers = traitlets.Dict(traitlets.Unicode()).tag(sync=True)
    """The ES module renderers, ``{part type: module source}`` (set through ``renderers``)."""
    builtin_renderers = traitlets.Bool(True).tag(sync=True)
    """Whether plans show as checklists and lists of records as tables (a renderer of your own wins)."""
    branch_points = traitlets.List(traitlets.Dict()).tag(sync=True)
    """The forks along the conversation, for the views' ‹ 1/2 › pickers: ``{"at", "index", "count"}`` for each
    message ``at`` that has alternatives (``_branches.py``); set by the widget, saved with the notebook."""
    show_metrics = traitlets.Bool(False).tag(sync=True)
    """Whether the views show the live metrics strip under each answer (TTFT, rates, gaps: ``_metrics.py``)."""
    message_metrics = traitlets.Dict().tag(sync=True)
    """``{assistant message id: metrics}`` from ``chat.events`` (``widget/_metrics.py``); set by the widget while
    ``show_metrics`` is on (at most every ``METRICS_SYNC_SECONDS`` during a run), saved with the notebook."""

    def __init__(
        self,
        agent: Any = None,
        *,
        messages: Iterable[Any] = (),
        thread_id: str | None = None,
        tools: Iterable[Any] = (),
        state: JSON = None,
        title: str | None = None,
        placeholder: str = "Send a message",
        height: str | int = "32rem",
        show_reasoning: bool = True,
        theme: str = "auto",
        raise_errors: bool = False,
        renderers: Mapping[str, Any] | None = None,
        message_type: type[BaseModel] | None = None,
        show_metrics: bool = False,
        **kwargs: Any,
    ) -> None:
        cls = type(self)
        if ChatWidget._esm is None:
            if not BUNDLE.is_file():
                raise _bundle_missing()
            from anywidget._util import try_file_contents

            ChatWidget._esm = try_file_contents(BUNDLE)  # built after this module was imported
            if cls is not ChatWidget and "_esm" not in cls.__dict__:
                cls._esm = ChatWidget._esm
        initial = _as_ui_messages(messages)
        self._message_type = message_type
        if message_type is not None:
            self._typed(initial)  # a given message that does not validate is refused at once
        self._syncing = True
        super().__init__(
            messages=_json_copy(initial),
            title=title or "",
            placeholder=placeholder,
            height=height,
            show_reasoning=show_reasoning,
            theme=theme,
            show_metrics=show_metrics,
            **kwargs,
        )
        self._syncing = False
        self.agent = agent
        self.raise_errors = raise_errors
        """Whether a failed run raises its exception from the run's task (``await chat.send(...)``)."""
        self.thread_id: str = thread_id or _fresh_id()
        self._frontend_tools = FrontendTools(tools, _tool_wire)
        self.tools: list[dict[str, JSON]] = self._frontend_tools.declarations
        self.max_follow_ups = MAX_FOLLOW_UPS
        """Follow-up runs started by the widget itself (frontend tools answered) per user turn."""
        state = _json_copy(json_value(state, "state"))
        self._initial_state = _json_copy(state)
        self._recorder = EventRecorder(clock=self._clock)
        # Per run the widget started: how many events came before it, and its input (``fork`` reads them).
        self._run_inputs: list[tuple[int, dict[str, JSON]]] = []
        self._conversation = ConversationReducer(initial, state=_json_copy(state), recorder=self._recorder)
        self._batcher = PatchBatcher(self._conversation.messages)
        self._metrics = MessageMetrics(self._recorder.events)
        self._metrics_from = 0  # the first message the run in progress may stream into
        self._metrics_synced_at = 0.0
        self._tree = MessageTree(self._conversation.messages)  # the branches; its path is the conversation
        self._task: asyncio.Task[RunOutcome] | None = None
        self._task_begun = False  # whether the run's task has run its first step (so stop() may cancel it)
        self._state_changes = StateChanges()
        self._state_handle: asyncio.TimerHandle | None = None
        self._state_synced_at = 0.0
        self._syncing = True
        try:
            self.state = _json_copy(state)
        finally:
            self._syncing = False
        self._stop = threading.Event()
        self._stopping = False
        self._flush_handle: asyncio.TimerHandle | None = None
        self._trait_synced_at = time.monotonic()
        self._view_status: tuple[str, str] = ("ready", "")  # what the last status op told the views
        self._views_stale = False  # a message to the views failed: the next one is a snapshot
        self._sync_failure: _SyncFailed | None = None  # a scheduled flush failed during the run
        self._run_warnings: list[str] = []
        self.exception: BaseException | None = None
        """The exception that ended the last failed run; its traceback is ``error_details`` (the details view)."""
        self._static = StaticCopy(self.model_id, self._static_copy)
        self._renderers = PartRenderers(self._settled_messages, self._publish_rendered, self._renderer_failed)
        for part_type, renderer in (renderers or {}).items():
            self._renderers.register(part_type, renderer)
        self.on_msg(self._on_front_end_message)

    @property
    def agent(self) -> Any:
        """What answers the messages; ``None`` makes the widget replay-only (its views hide the input)."""
        return self._agent

    @agent.setter
    def agent(self, value: Any) -> None:
        self._agent = value
        self.replay_only = value is None

    # ------------------------------------------------------------------------------------------ renderers
    @property
    def renderers(self) -> RendererRegistry:
        """The registered renderers, part type -> function or ES module source (``del`` one to unregister)."""
        return RendererRegistry(self._renderers)

    def renderer(self, part_type: str) -> Any:
        """Register ``fn(part) -> object`` for parts of ``part_type`` (a decorator); ``renderer(t)(None)`` unregisters.

        >>> @chat.renderer("data-weather")  # doctest: +SKIP
        ... def weather(part):
        ...     return pd.DataFrame([part["data"]])
        """

        def register(fn: Any) -> Any:
            self._renderers.register(part_type, fn)
            return fn

        return register

    def _settled_messages(self) -> list[dict[str, Any]]:
        """The live messages with the tool inputs streamed so far parsed (what renderers are shown)."""
        self._conversation.settle()
        return self._conversation.messages

    def _publish_rendered(self, rendered: dict[str, JSON], frontend: dict[str, str]) -> None:
        with self.hold_sync():
            self.rendered = rendered
            if frontend != self.frontend_renderers:
                self.frontend_renderers = frontend
        if not self.busy:
            self._refresh_static()

    def _renderer_failed(self, text: str) -> None:
        if text not in self._run_warnings:  # once, however often the part is rendered again
            self._warn(text)

    def __repr__(self) -> str:
        return f"<ChatWidget {len(self.messages)} messages, status={self.status!r}, agent={self.agent!r}>"

    # ------------------------------------------------------------------------------------------ state
    @property
    def ui_messages(self) -> list[Any]:
        """The conversation as ``UIMessage`` models (agui_notebook.ui), of ``message_type`` when one was given:
        a message that does not validate raises :class:`UIMessageValidationError` naming the message, the part
        and the field (``messages[1].parts[2].input.tz: ...``)."""
        if self._message_type is not None:
            return self._typed(self._conversation.messages)
        from agui_notebook.ui._parts import UIMessage

        return [UIMessage.model_validate(m) for m in self._conversation.messages]

    def _typed(self, messages: list[dict[str, JSON]]) -> list[Any]:
        from agui_notebook.ui._validate import model_of

        return [model_of(self._message_type, m, f"messages[{i}]") for i, m in enumerate(messages)]

    @property
    def agui_messages(self) -> list[Any]:
        """The conversation as AG-UI ``Message`` models (what the next run's input carries)."""
        return to_agui_messages(self._conversation.messages)

    @traitlets.validate("state")
    def _validate_state(self, proposal: Any) -> JSON:
        if self._syncing:
            return proposal["value"]
        self._refuse_when_busy("change the state")
        return _json_copy(json_value(proposal["value"], "state"))

    @traitlets.observe("state")
    def _state_replaced(self, change: Any) -> None:
        if self._syncing or not hasattr(self, "_conversation"):
            return
        self._conversation.state = _json_copy(change["new"])
        self._conversation.state_updates.clear()
        self._set_state_changes(self._state_changes.take(change["old"], change["new"], [], "python"))

    @property
    def events(self) -> list[dict[str, JSON]]:
        """Every event or chunk received, ``{"received_ns", "event"}`` records in arrival order (for ``load_events``)."""
        return self._recorder.events

    @property
    def task(self) -> asyncio.Task[RunOutcome] | None:
        """The current (or last) run's task: ``await chat.task`` waits for a run started from the widget."""
        return self._task

    @property
    def busy(self) -> bool:
        """Whether a run is in progress."""
        return self._task is not None and not self._task.done()

    def _clock(self) -> int:
        return self._conversation.clock()

    @traitlets.validate("trusted_origins")
    def _validate_trusted_origins(self, proposal: Any) -> list[str]:
        for entry in proposal["value"]:
            url = urlsplit(entry)
            if url.scheme.lower() not in ("http", "https") or not url.hostname:
                raise OptionError(
                    f"trusted_origins: {entry!r} is not an http(s) origin such as 'https://images.example'"
                )
        return proposal["value"]

    @traitlets.validate("messages")
    def _validate_messages(self, proposal: Any) -> list[dict[str, JSON]]:
        if not self._syncing and self.busy:
            raise traitlets.TraitError(
                "cannot replace the messages while the agent is answering; call stop() first"
            )
        if self._syncing:
            return proposal["value"]
        return _as_ui_messages(proposal["value"])  # what the views and the notebook get is JSON

    @traitlets.observe("messages")
    def _messages_replaced(self, change: Any) -> None:
        if self._syncing or not hasattr(self, "_conversation"):
            return
        self._conversation.replace_all(_json_copy(change["new"]))
        self._batcher.messages = self._conversation.messages
        self._tree = MessageTree(self._conversation.messages)  # messages set from Python: no branches
        self._sync_branch_points()
        self._views_stale = True
        self._flush()
        self._renderers.refresh()
        self._refresh_static()

    # ------------------------------------------------------------------------------------------ user actions
    def send(self, text: str, *, files: Iterable[Any] = ()) -> asyncio.Task[RunOutcome]:  # type: ignore[override]
        """Append the user's message and start a run; returns the run's task (await it for the outcome).

        ``files`` are paths, ``(data, media_type)`` or ``(name, data, media_type)`` tuples, or file part dicts;
        they become data URLs in ``file`` parts (and AG-UI media content in the run input). Approvals still
        waiting are cancelled: the run carries an AG-UI ``cancelled`` resume entry for each, and their cards
        say "Cancelled" (no Approve button stays that would do nothing).
        """
        self._refuse_when_busy("send a message")
        self._refuse_without_agent()
        parts = [file_part(f) for f in files]
        if text:
            parts.append({"type": "text", "text": text})
        if not parts:
            raise ValueError("nothing to send: give some text or files")
        loop = self._loop()
        waiting = self._frontend_tools.cancel_waiting(self._conversation.messages)
        changes, cancelled = self._conversation.cancel_approvals()
        more, cancelled_interrupts = cancel_open_interrupts(self._conversation.messages)
        changes, cancelled = changes + more, cancelled + cancelled_interrupts
        changes = waiting + changes
        message = {"id": _fresh_id(), "role": "user", "parts": parts}
        changes += self._conversation.append(message)
        # The new message starts a new answer; the entries only tell the agent the old question is gone.
        return self._start_run(loop, changes, resume=cancelled, continues=False)

    def regenerate(self, message_id: str | None = None) -> asyncio.Task[RunOutcome]:
        """Run the agent again in place of an assistant message (by default the answer to the last user message);
        the old answer, and whatever followed it, stays as a branch (``branches``, ``select_branch``)."""
        self._refuse_when_busy("regenerate")
        self._refuse_without_agent()
        return self._regenerate_at(None if message_id is None else self._branch_tree().position(message_id))

    def edit(
        self, message_id: str, text: str, *, files: Iterable[Any] | None = None
    ) -> asyncio.Task[RunOutcome]:
        """Replace a user message with one saying ``text`` and run the agent from there; the old message and what
        followed it stay as a branch. ``files=None`` keeps the message's attachments (and other non-text parts);
        ``files=[...]`` (as for ``send``) replaces them, ``files=[]`` drops them."""
        self._refuse_when_busy("edit a message")
        self._refuse_without_agent()
        return self._edit_at(self._branch_tree().position(message_id), text, files)

    def branches(self, message_id: str) -> list[Branch]:
        """The alternatives at the fork where message ``message_id`` sits, oldest first (one when it never forked):
        edits of a user message, or regenerations of an assistant message, each with what followed it."""
        tree = self._branch_tree()
        return tree.branches(tree.position(message_id))

    def select_branch(self, message_id: str, index: int) -> None:
        """Show alternative ``index`` (0 the oldest) of the fork where message ``message_id`` sits: it becomes
        ``messages``, the path the next run's input carries; the others are kept."""
        self._refuse_when_busy("switch branches")
        self._select_at(self._branch_tree().position(message_id), index)

    def _regenerate_at(self, at: int | None) -> asyncio.Task[RunOutcome]:
        self._refuse_when_busy("regenerate")
        self._refuse_without_agent()
        messages = self._conversation.messages
        if at is None:
            last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
            if last_user < 0:
                raise RuntimeError("nothing to regenerate: the conversation has no user message")
            at = last_user + 1
        elif messages[at].get("role") != "assistant":
            raise ValueError(
                f"message {messages[at].get('id')!r} is a {messages[at].get('role')} message: "
                "only assistant messages can be regenerated (edit a user message instead)"
            )
        loop = self._loop()
        if at < len(messages):
            self._fork(at)
        return self._start_run(loop, [])

    def _edit_at(self, at: int, text: str, files: Iterable[Any] | None) -> asyncio.Task[RunOutcome]:
        self._refuse_when_busy("edit a message")
        self._refuse_without_agent()
        old = self._conversation.messages[at]
        if old.get("role") != "user":
            raise ValueError(
                f"message {old.get('id')!r} is a {old.get('role')} message: only user messages can be edited"
            )
        parts = edited_parts(old, text, None if files is None else [file_part(f) for f in files])
        if not parts:
            raise ValueError("nothing to send: give some text or files")
        loop = self._loop()
        self._fork(at)
        changes = self._conversation.append({"id": _fresh_id(), "role": "user", "parts": parts})
        return self._start_run(loop, changes)

    def fork(
        self,
        at: int | None = None,
        *,
        messages: Mapping[str, Any] | None = None,
        tool_results: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> asyncio.Task[RunOutcome]:
        """Continue the conversation as it stood after the first ``at`` events of ``load_events(chat)``, with the
        agent, on a new branch: ``messages`` and ``tool_results`` edit it first (ids to new content; ``state=``
        replaces the state), as :func:`~agui_notebook.fork` builds the run input the agent receives."""
        from agui_notebook.inspection._fork import fork_chat

        return fork_chat(self, at, messages=messages, tool_results=tool_results, **options)

    def _select_at(self, at: int, index: int) -> None:
        self._refuse_when_busy("switch branches")
        self._show_path(self._branch_tree().select(at, index))

    def _branch_tree(self) -> MessageTree:
        """The branches, their path brought up to date with the live conversation."""
        self._tree.sync(self._conversation.messages)
        return self._tree

    def _fork(self, at: int) -> None:
        """Stop the conversation before message ``at`` to run again from there; the rest stays as a branch."""
        self._branch_tree().cut(at)
        self._conversation.truncate(at)
        self._batcher.truncate(at)
        self._sync_branch_points()

    def _show_path(self, messages: list[dict[str, JSON]]) -> None:
        """Make ``messages`` (another path of the tree) the conversation, in the views and the traits."""
        self._conversation.replace_all(messages)
        self._batcher.messages = self._conversation.messages
        self._views_stale = True
        self._set_view_status("ready", "")
        self._flush()
        self._renderers.refresh()
        self._sync_traits("ready", "", "")
        self._sync_branch_points()

    def _settle_branches(self) -> None:
        """After a run: a regeneration that produced no message gives the old answer back."""
        if self._branch_tree().settle():
            self._conversation.replace_all(self._tree.messages)
            self._batcher.messages = self._conversation.messages
            self._views_stale = True
            self._renderers.refresh()
        self._sync_branch_points()

    def _sync_branch_points(self) -> None:
        points = self._tree.points()
        if points != self.branch_points:
            self.branch_points = points

    def answer_approval(
        self, approval_id: str, approved: bool, *, reason: str | None = None
    ) -> asyncio.Task[RunOutcome] | None:
        """Answer a tool call's approval request; once every request of the answer is answered, resume the run.

        Returns the resumed run's task, or None while other approvals of the same answer are still open.
        """
        self._refuse_when_busy("answer an approval")
        self._refuse_without_agent()
        loop = self._loop()
        changes = self._conversation.answer_approval(approval_id, approved, reason)
        return self._resume_when_answered(loop, changes)

    def answer_interrupt(
        self, interrupt_id: str, payload: JSON = None, *, cancel: bool = False
    ) -> asyncio.Task[RunOutcome] | None:
        """Answer an interrupt the last run ended with (what the form's Submit and Dismiss do).

        ``payload`` is checked against the interrupt's ``responseSchema`` (an :class:`InterruptPayloadError`
        names the field it refuses, or says the interrupt has expired); ``cancel=True`` dismisses it instead
        (``{"status": "cancelled"}``). A tool approval takes ``{"approved": bool, "reason"?: str}``, as
        :meth:`answer_approval`. Once every interrupt and approval of the answer is answered the run resumes with
        all their entries: returns its task, or None while others are still open. ``KeyError`` when no open
        interrupt of the last answer has this id.
        """
        self._refuse_when_busy("answer an interrupt")
        self._refuse_without_agent()
        loop = self._loop()
        if is_approval_id(self._conversation.messages, interrupt_id):
            answer = payload if isinstance(payload, Mapping) else {}
            if cancel or type(answer.get("approved")) is not bool:
                raise InterruptPayloadError(
                    f"interrupt {interrupt_id!r} is a tool approval: payload.approved: must be true or false",
                    interrupt_id=interrupt_id,
                    path="payload.approved",
                )
            reason = answer.get("reason")
            return self.answer_approval(
                interrupt_id, answer["approved"], reason=reason if isinstance(reason, str) else None
            )
        payload = _json_copy(json_value(payload, "payload"))
        changes = answer_interrupt(self._conversation.messages, interrupt_id, payload, cancel=cancel)
        return self._resume_when_answered(loop, changes)

    def _resume_when_answered(
        self, loop: asyncio.AbstractEventLoop, changes: list[MessageChange]
    ) -> asyncio.Task[RunOutcome] | None:
        """Resume once nothing of the last answer waits any more; until then show the answer given."""
        messages = self._conversation.messages
        if self._conversation.pending_approvals() or pending_interrupts(messages):
            self._patch(changes)
            self._flush()
            self._sync_traits(self.status, self.error)
            return None
        if any(
            c.state == "approval-responded"
            for c in self._frontend_tools.open_calls(self._conversation.messages)
        ):
            # Frontend tools the user answered: run (or deny) them, then the follow-up run resumes the rest.
            self._stop, self._stopping = threading.Event(), False
            self._patch(changes)
            self._task = self._create_task(loop, drive_turn(self, None), "agui-notebook frontend tools")
            return self._task
        return self._start_run(loop, changes, resume=self._resume_entries())

    def _resume_entries(self) -> list[dict[str, JSON]]:
        """The resume entries of the last answer: its answered approvals, then its answered interrupts."""
        return self._conversation.resume_entries() + interrupt_resume_entries(self._conversation.messages)

    def play(self, stream: Any, *, speed: float | None = None) -> asyncio.Task[RunOutcome]:
        """Render a recorded or prepared stream without an agent; returns the task.

        ``stream`` is AG-UI events or AI SDK chunks (an iterable, async iterable, or a log file path: JSONL,
        SSE, a JSON array, or an EventRecorder log with receive times). ``speed=1.0`` replays at the recorded
        pace (receive times, else event timestamps), ``2.0`` twice as fast; ``None`` renders at once.
        """
        self._refuse_when_busy("play a stream")
        if speed is not None and speed <= 0:
            raise ValueError(f"speed must be positive, got {speed}")
        loop = self._loop()
        return self._start_run(loop, [], source=playback_items(stream, speed))

    def stop(self) -> None:
        """Stop the current run (within 200 ms, sync agents too); what was streamed stays, the outcome is cancelled."""
        task = self._task
        if task is None or task.done():
            return
        self._stopping = True
        self._stop.set()
        if (
            self._task_begun
        ):  # a task cancelled before its first step would skip the tidying up: it sees _stop
            task.cancel()

    def clear(self) -> None:
        """Start a new conversation: no messages, events or error, the initial state, a new thread id.

        A run in progress is stopped and its remaining output dropped.
        """
        self.stop()
        self._conversation.replace_all([])
        self._conversation.state = _json_copy(self._initial_state)
        self._conversation.state_updates.clear()
        self._set_state(_json_copy(self._initial_state), {})
        self._batcher.messages = self._conversation.messages
        self._tree = MessageTree()
        self._sync_branch_points()
        self._recorder.events.clear()
        self._metrics.clear()
        self._sync_metrics(force=True)
        self._run_inputs.clear()
        self.thread_id = _fresh_id()
        self.exception = None
        self._run_warnings = []
        self._warn()
        self._batcher.truncate(0)
        self._set_view_status("ready", "")
        self._flush()
        self._renderers.refresh()
        self._sync_traits("ready", "", "")

    def feedback(self, message_id: str, rating: str | None, comment: str | None = None) -> None:
        """Rate an assistant message: ``"up"``, ``"down"`` (with an optional ``comment``) or ``None`` to take the
        rating back; what the 👍/👎 buttons do.

        The rating is kept in the message's metadata (``metadata["agui-notebook"]["feedback"]``, see
        ``widget/_feedback.py``), so it is saved with the conversation, and recorded in ``chat.events`` as a
        CUSTOM ``agui-notebook/feedback`` event, which ``messages_df`` reads into its ``feedback`` columns.

        >>> chat.feedback(chat.messages[-1]["id"], "down", "It missed the question")  # doctest: +SKIP
        """
        check_rating(rating, comment)
        messages = self._conversation.messages
        index = next((i for i, m in enumerate(messages) if m.get("id") == message_id), None)
        if index is None:
            raise KeyError(f"feedback: no message with id {message_id!r}")
        message = messages[index]
        if message.get("role") != "assistant":
            raise ValueError(
                f"feedback: message {message_id!r} is a {message.get('role')} message, not an answer"
            )
        if self.busy and index == len(messages) - 1:
            raise RuntimeError("cannot rate the answer the agent is still writing: wait for it to finish")
        at_ns = time.time_ns()
        comment = comment or None
        metadata = with_feedback(
            message.get("metadata"), None if rating is None else feedback_entry(rating, comment, at_ns)
        )
        if metadata:
            message["metadata"] = metadata
        else:
            message.pop("metadata", None)
        self._recorder.add(
            feedback_event(
                message_id, rating, comment=comment, at=iso_utc(at_ns), message_ids=agui_message_ids(message)
            )
        )
        self._patch([MessageChange("metadata", index)])
        self._flush()
        self._sync_traits(self.status, self.error)

    # ------------------------------------------------------------------------------------------ persistence
    def _ipython_display_(self, **kwargs: Any) -> None:
        """Show the live widget, then its static copy (``_static_html.py``), which each finished run updates.

        The copy is what a saved notebook shows without a kernel (JupyterLab, Notebook 7, nbconvert, nbviewer,
        GitHub); the live view's stylesheet hides it while the widget runs.
        """
        self._static.display(self, **kwargs)

    def _static_copy(self) -> dict[str, str]:
        """The static copy's bundle: the conversation, its rendered parts and the other versions of its forks."""
        versions = {}
        for point in self._tree.points():
            at = point["at"]
            if at < len(self._conversation.messages):
                others = [b.messages for b in self._tree.branches(at) if not b.selected]
                versions[at] = (point["index"], others)
        return static_bundle(
            self._conversation.messages,
            title=self.title,
            render_part=self._renderers.static_part_html,
            versions=versions,
        )

    def _refresh_static(self) -> None:
        """Bring the displayed static copy up to date."""
        self._static.update()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Save the conversation (messages, thread id, state, events, branches, run inputs) as JSON;
        ``ChatWidget.load`` reads it."""
        tree = self._branch_tree()
        branches = tree.to_saved() if tree.forked else None
        SavedConversation(
            self.thread_id, tree.messages, self.state, self.events, branches, list(self._run_inputs)
        ).write(path)

    @classmethod
    def load(cls, path: str | os.PathLike[str], agent: Any = None, **kwargs: Any) -> ChatWidget:
        """A widget with the conversation saved by ``save`` (``agent`` and other arguments as for the constructor)."""
        saved = SavedConversation.read(path)
        chat = cls(agent, messages=saved.messages, thread_id=saved.thread_id, state=saved.state, **kwargs)
        chat._recorder.events.extend(saved.events)
        chat._run_inputs.extend(saved.run_inputs)
        if saved.branches is not None:
            chat._tree = MessageTree.from_saved(chat._conversation.messages, saved.branches, os.fspath(path))
            chat._settle_branches()
        return chat

    # ------------------------------------------------------------------------------------------ runs
    def _refuse_without_agent(self) -> None:
        if self.agent is None:
            raise AgentError("this ChatWidget has no agent: pass ChatWidget(agent=...) or set chat.agent")

    def _refuse_when_busy(self, action: str) -> None:
        if self.busy:
            raise RuntimeError(
                f"cannot {action} while the agent is answering: await the current run or call stop()"
            )

    @staticmethod
    def _loop() -> asyncio.AbstractEventLoop:
        try:
            return asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(
                "ChatWidget runs agents on a running event loop (a Jupyter kernel, or inside `async def`); "
                "none is running here"
            ) from None

    def _run_input(self, run_id: str, resume: list[dict[str, JSON]]) -> Any:
        from ag_ui.core import RunAgentInput

        wire: dict[str, JSON] = {
            "threadId": self.thread_id,
            "runId": run_id,
            # Activity messages stay on the client, as @ag-ui/client's run input leaves them out.
            "messages": [
                m for m in to_agui_messages_wire(self._conversation.messages) if m["role"] != "activity"
            ],
            "tools": self.tools,
            "context": [],
            "protocolVersion": "1.0",
        }
        if self.state is not None:
            wire["state"] = self.state
        if resume:
            wire["resume"] = resume
        return RunAgentInput.model_validate(wire)

    def _start_run(
        self,
        loop: asyncio.AbstractEventLoop,
        changes: list[MessageChange],
        *,
        resume: list[dict[str, JSON]] | None = None,
        continues: bool = True,
        source: AsyncIterator[tuple[int | None, Any]] | None = None,
        run_input: Any = None,
    ) -> asyncio.Task[RunOutcome]:
        agent_run = source is None
        run_id, source = self._prepare_run(
            changes, resume=resume, continues=continues, source=source, run_input=run_input
        )
        run = self._drive(source)
        if agent_run and self._frontend_tools.functions:
            run = drive_turn(self, run)  # the run, then the frontend tools it calls and the follow-up runs
        self._task = self._create_task(loop, run, f"agui-notebook run {run_id}")
        return self._task

    def _create_task(
        self, loop: asyncio.AbstractEventLoop, run: Coroutine[Any, Any, RunOutcome], name: str
    ) -> asyncio.Task[RunOutcome]:
        """The task of a run; ``stop()`` before its first step leaves it to find ``_stop`` set (see ``_drive``)."""
        self._task_begun = False

        async def begun() -> RunOutcome:
            self._task_begun = True
            return await run

        return loop.create_task(begun(), name=name)

    def _begin_follow_up(self, resume: list[dict[str, JSON]]) -> AsyncIterator[tuple[int | None, Any]]:
        """Start the run that follows answered frontend tools (inside the current task); returns its items."""
        return self._prepare_run([], resume=resume, continues=True, source=None)[1]

    def _prepare_run(
        self,
        changes: list[MessageChange],
        *,
        resume: list[dict[str, JSON]] | None,
        continues: bool,
        source: AsyncIterator[tuple[int | None, Any]] | None,
        run_input: Any = None,
    ) -> tuple[str, AsyncIterator[tuple[int | None, Any]]]:
        run_id = _fresh_id() if run_input is None else run_input.run_id
        resume = resume or []
        self._stop = threading.Event()
        self._stopping = False
        self._sync_failure = None
        self._run_warnings = []
        self._warn()  # the last run's warnings go
        self.exception = None
        if source is None:
            try:
                run_input = self._run_input(run_id, resume) if run_input is None else run_input
            except Exception as exc:
                self._patch(changes)
                self._finish(f"cannot build the run input: {type(exc).__name__}: {exc}", exc)
                raise
            self._run_inputs.append((len(self.events), _model_wire(run_input)))
            source = aiter_agent_items(self.agent, run_input, self._stop)
        self._conversation.begin_run(
            run_id=run_id, thread_id=self.thread_id, resume=resume if continues else []
        )
        self._begin_metrics(time.time_ns() if run_input is not None else None, bool(resume and continues))
        self._batcher.messages = self._conversation.messages
        self._batcher.extend(changes)
        self._set_view_status("submitted", "")
        self._flush()
        self._sync_traits("submitted", "")  # ``chat.messages`` holds the user's turn while the agent answers
        return run_id, source

    async def _drive(self, source: AsyncIterator[tuple[int | None, Any]]) -> RunOutcome:
        """Apply the run's items as they arrive; whatever fails, end the run and leave the widget usable."""
        outcome: RunOutcome = "success"
        failure: BaseException | None = None
        interrupt: BaseException | None = None  # KeyboardInterrupt / SystemExit: tidy up, then let it go on
        cancelled = False
        run = self._conversation.run
        problems = run.checker.problems if run is not None else []
        known = 0
        index = 0
        checked_types: set[str] = set()  # item types already classified (and warned about when unknown)
        handed_back = time.monotonic()
        try:
            if self._stop.is_set():  # stopped before the run's task ran at all
                raise asyncio.CancelledError
            async with contextlib.aclosing(source):
                async for received_ns, item in source:
                    if self.status == "submitted":
                        self._set_status("streaming", "")
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
                    self._patch(self._conversation.push(item, received_ns))
                    if self._conversation.state_updates:
                        self._state_updated()
                    if len(problems) != known:  # the checker tolerated something: show it on the run
                        self._warn(*(p.describe() for p in problems[known:]))
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
        if self._sync_failure is not None and failure is None:
            outcome, failure, cancelled = "error", self._sync_failure, False
        error = _describe(failure) if failure is not None else ""
        code = None
        if failure is not None:
            code = "STREAM_ERROR" if isinstance(failure, RunStreamError) else type(failure).__name__
        try:
            self._patch(self._conversation.end_run(outcome, error, code))
            self._patch(show_interrupts(self._conversation.messages))
        except Exception as exc:  # the end of the run could not be shown: that is the run's failure now
            failure = failure or exc
            outcome, error = "error", error or _describe(exc)
        self._end_metrics()
        last = self._conversation.last_run
        reported = False  # the agent itself said the run failed (no exception on our side)
        if outcome == "success" and last is not None and last.errors:
            outcome, error = "error", "; ".join(e for e in last.errors if e) or "the agent reported an error"
            reported = True
        elif outcome == "success" and last is not None and last.interrupted:
            outcome = "interrupt"
        self._settle_branches()
        if not self._finish(error if outcome == "error" else "", failure):
            outcome = "error"  # the end of the run could not be sent: the widget shows that failure instead
        elif reported:
            self.exception = AgentRunError(error, code=self._reported_code())
        if interrupt is not None:
            raise interrupt
        if cancelled and not self._stopping:
            raise asyncio.CancelledError  # cancelled by someone else: honour it once the widget is tidy
        if outcome == "error" and self.raise_errors and self.exception is not None:
            raise self.exception
        return outcome

    def _reported_code(self) -> str | None:
        """The ``code`` of the error the agent reported on the last answer (a RUN_ERROR's), if it gave one."""
        messages = self._conversation.messages
        metadata = messages[-1].get("metadata") if messages else None
        ours = metadata.get("ag-ui") if type(metadata) is dict else None
        error = ours.get("error") if type(ours) is dict else None
        code = error.get("code") if type(error) is dict else None
        return code if type(code) is str else None

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
                self._warn(
                    f"chunk {index} ({item_type}): unknown chunk type (ignored, as the AI SDK ignores it)"
                )
        if is_plain_json(item):
            return item
        return json_value(item, _item_where(item, index))

    def _warn(self, *texts: str) -> None:
        """Show protocol problems the run survived as warnings on the run (the ``warnings`` trait)."""
        warnings = self._run_warnings
        for text in texts:
            warnings.append(text)
        shown = warnings[:MAX_WARNINGS]
        if len(warnings) > MAX_WARNINGS:
            shown.append(f"… and {len(warnings) - MAX_WARNINGS} more warnings")
        self._syncing = True
        try:
            self.warnings = shown
        finally:
            self._syncing = False

    def _finish(self, error: str, failure: BaseException | None) -> bool:
        """End a run in the widget: status, error, details and the saved messages, in one consistent step.

        Returns False when that could not be sent and the widget recovered (then showing that failure).
        """
        status = "error" if error else "ready"
        self.exception = (
            failure.__cause__ if isinstance(failure, _SyncFailed) and failure.__cause__ else failure
        )
        details = _details(failure) if error else ""
        try:
            # Views see the last patch before the traits say the run is over, so the trait state and the patched
            # state agree whenever the status is not busy.
            self._set_view_status(status, error)
            self._flush()
            self._flush_renderers()
            self._sync_traits(status, error, details)
        except _SyncFailed as exc:
            self._recover(exc, error)
            return False
        return True

    def _flush_renderers(self) -> None:
        """The parts' last renders once a run is over (renderers' own failures are caught where they run)."""
        try:
            self._renderers.flush()
        except Exception as exc:  # the outputs could not be sent: say so, the run's outcome stands
            self._warn(f"rendered outputs could not be sent: {type(exc).__name__}: {exc}")

    def _recover(self, failure: _SyncFailed, run_error: str) -> None:
        """The conversation could not be sent: replace what the comm cannot carry, then show the failure."""
        self.exception = failure.__cause__ or failure
        error = run_error or str(failure)
        self._conversation.replace_all(_sendable(self._conversation.messages))
        self._batcher.messages = self._conversation.messages
        self._views_stale = True
        try:
            self._set_view_status("error", error)
            self._flush()
            self._sync_traits("error", error, _details(failure))
        except _SyncFailed:  # the comm itself is broken: the plain-string traits are all that may still go
            self._syncing = True
            try:
                with self.hold_sync():
                    self.status, self.error = "error", error
            finally:
                self._syncing = False

    # ------------------------------------------------------------------------------------------ live sync
    def _patch(self, changes: list[MessageChange]) -> None:
        if not changes:
            return
        self._batcher.extend(changes)
        self._schedule_flush()
        self._renderers.changed(changes)
        if time.monotonic() - self._trait_synced_at >= TRAIT_SYNC_SECONDS:
            self._flush()
            self._sync_traits(self.status, self.error)

    def _set_view_status(self, status: str, error: str) -> None:
        self._view_status = (status, error)
        self._batcher.set_status(status, error)

    def _set_status(self, status: str, error: str) -> None:
        self._set_view_status(status, error)
        self._syncing = True
        try:
            with self.hold_sync():
                self.status = status
                self.error = error
        finally:
            self._syncing = False

    def _schedule_flush(self) -> None:
        delay = self._batcher.delay()
        if delay is None:
            return
        if delay == 0.0:
            self._flush()
            return
        if self._flush_handle is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self._flush()
                return
            self._flush_handle = loop.call_later(delay, self._scheduled_flush)

    def _state_updated(self) -> None:
        """The agent changed the state: sync the trait now, or once ``1 / STATE_SYNC_RATE`` s passed since the last."""
        if self._state_handle is not None:
            return
        wait = self._state_synced_at + 1.0 / STATE_SYNC_RATE - time.monotonic()
        if wait <= 0:
            self._sync_state()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._sync_state()
            return
        self._state_handle = loop.call_later(wait, self._scheduled_state_sync)

    def _scheduled_state_sync(self) -> None:
        self._state_handle = None
        try:
            self._sync_state()
        except Exception as exc:  # as for a scheduled flush: the run's failure
            self._sync_failure = exc if isinstance(exc, _SyncFailed) else _SyncFailed(exc)
            if self.busy:
                self._task.cancel()  # type: ignore[union-attr]

    def _sync_state(self) -> None:
        """Bring the ``state`` trait up to the conversation's state, with what the updates since the last sync
        changed in ``state_changes``."""
        if self._state_handle is not None:
            self._state_handle.cancel()
            self._state_handle = None
        updates = self._conversation.state_updates
        if not updates:
            return
        after = _json_copy(self._conversation.state)
        changes = self._state_changes.take(self.state, after, list(updates), "agent")
        updates.clear()
        try:
            self._set_state(after, changes)
        except Exception:
            # What the comm cannot carry (a lone surrogate: half an emoji) is replaced, as for the messages.
            try:
                self._set_state(_sendable(after), changes)
            except Exception as exc:
                raise _SyncFailed(exc) from exc

    def _set_state(self, state: JSON, changes: dict[str, JSON]) -> None:
        self._syncing = True
        try:
            with self.hold_sync():
                self.state = state
                self.state_changes = changes
        finally:
            self._syncing = False
        self._state_synced_at = time.monotonic()

    def _set_state_changes(self, changes: dict[str, JSON]) -> None:
        self._syncing = True
        try:
            self.state_changes = changes
        finally:
            self._syncing = False

    def _scheduled_flush(self) -> None:
        """A flush from the loop's timer: a failure there is the run's failure (it ends the run)."""
        self._flush_handle = None
        try:
            self._flush()
        except _SyncFailed as exc:
            self._sync_failure = exc
            if self.busy:
                self._task.cancel()  # type: ignore[union-attr]

    def _flush(self) -> None:
        """Send the views what changed: the pending patch, or a snapshot when a message to them was lost."""
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        self._conversation.settle()  # the patch reads the parts: parse the tool inputs streamed since the last one
        if self._views_stale:
            message: dict[str, Any] | None = self._batcher.snapshot(*self._view_status)
        else:
            message = self._batcher.flush()
        self._sync_metrics()
        if message is None:
            return
        try:
            self._send_custom(message)
        except Exception as exc:
            self._views_stale = True  # the views missed this one: the next message resets them
            raise _SyncFailed(exc) from exc
        self._views_stale = False

    def _begin_metrics(self, sent_ns: int | None, resumes: bool) -> None:
        messages = self._conversation.messages
        resumed = resumes and bool(messages) and messages[-1].get("role") == "assistant"
        self._metrics_from = len(messages) - 1 if resumed else len(messages)
        self._metrics.begin_run(sent_ns)

    def _metrics_message_id(self) -> str | None:
        """The assistant message the run in progress streams into (None before it has one)."""
        messages = self._conversation.messages
        if len(messages) > self._metrics_from and messages[-1].get("role") == "assistant":
            message_id = messages[-1].get("id")
            return message_id if type(message_id) is str else None
        return None

    def _end_metrics(self) -> None:
        self._metrics.assign(self._metrics_message_id())
        self._metrics.end_run()
        self._sync_metrics(force=True)

    @traitlets.observe("show_metrics")
    def _show_metrics_changed(self, change: Any) -> None:
        if change["new"] and hasattr(self, "_metrics"):
            self._sync_metrics(force=True)

    def _sync_metrics(self, *, force: bool = False) -> None:
        """Bring ``message_metrics`` up to the events recorded (only while ``show_metrics`` is on)."""
        if not self.show_metrics:
            return
        if not force and time.monotonic() - self._metrics_synced_at < METRICS_SYNC_SECONDS:
            return
        metrics = self._metrics
        metrics.read()
        metrics.assign(self._metrics_message_id())
        if not metrics.changed and not force:
            return
        self._metrics_synced_at = time.monotonic()
        try:
            self.message_metrics = metrics.as_trait()
        except Exception as exc:  # the comm could not carry it: as for the patches, the run's failure
            raise _SyncFailed(exc) from exc

    def _sync_traits(self, status: str, error: str, details: str | None = None) -> None:
        self._sync_state()
        try:
            messages = _json_copy(self._conversation.messages)
        except Exception as exc:
            raise _SyncFailed(exc) from exc
        self._syncing = True
        try:
            with self.hold_sync():
                self.messages = messages
                self.status = status
                self.error = error
                if details is not None:
                    self.error_details = details
        except Exception as exc:
            raise _SyncFailed(exc) from exc
        finally:
            self._syncing = False
        self._trait_synced_at = time.monotonic()
        if status not in BUSY:
            self._refresh_static()

    def _send_custom(self, content: dict[str, JSON]) -> None:
        """Send a custom message to the front end (ipywidgets' ``Widget.send``, which ``send`` shadows here)."""
        anywidget.AnyWidget.send(self, content)

    # ------------------------------------------------------------------------------------------ front end
    def _on_front_end_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A request from a view; one that cannot be read or honoured is explained in the widget, never raised."""
        try:
            self._handle_request(content)
        except _BadRequest as exc:
            self._show_error(f"{BAD_REQUEST}: {exc}")
        except Exception as exc:  # a request the kernel cannot honour: say why in the widget
            self._show_error(f"{type(exc).__name__}: {exc}")

    def _handle_request(self, content: Any) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("kind")
        if kind == "resync":
            self._views_stale = True
            self._flush()
        elif kind == "stop":
            self.stop()
        elif kind == "clear":
            self.clear()
        elif kind == "feedback":
            message_id, rating, comment = (content.get(k) for k in ("messageId", "rating", "comment"))
            if not isinstance(message_id, str) or rating not in ("up", "down", None):
                raise _BadRequest("feedback: needs a string messageId and a rating 'up', 'down' or null")
            if comment is not None and not isinstance(comment, str):
                raise _BadRequest(f"feedback: comment is {type(comment).__name__}, not a string")
            self.feedback(message_id, rating, comment)
        elif self.busy and kind in ("send", "regenerate", "approval", "interrupt", "edit", "select_branch"):
            self._show_error(BUSY_NOTICE)
        elif kind == "send":
            text = content.get("text")
            files = content.get("files")
            if text is not None and not isinstance(text, str):
                raise _BadRequest(f"send: text is {type(text).__name__}, not a string")
            if files is not None and not isinstance(files, list):
                raise _BadRequest(f"send: files is {type(files).__name__}, not a list")
            parts = []
            for index, file in enumerate(files or []):
                try:
                    if not isinstance(file, Mapping):
                        raise TypeError(f"a {type(file).__name__}, not a file part")
                    parts.append(file_part(file))
                except (TypeError, ValueError) as exc:
                    raise _BadRequest(f"send: files[{index}]: {exc}") from None
            self.send(text or "", files=parts)
        elif kind == "regenerate":
            at = self._requested_place(content, required=False)
            self._regenerate_at(at)
        elif kind == "edit":
            text = content.get("text")
            if not isinstance(text, str):
                raise _BadRequest(f"edit: text is {type(text).__name__}, not a string")
            self._edit_at(self._requested_place(content), text, None)
        elif kind == "select_branch":
            index = content.get("index")
            if type(index) is not int:
                raise _BadRequest(f"select_branch: index is {type(index).__name__}, not an integer")
            self._select_at(self._requested_place(content), index)
        elif kind == "approval":
            approval_id, approved, reason = (content.get(k) for k in ("approvalId", "approved", "reason"))
            if not isinstance(approval_id, str) or not isinstance(approved, bool):
                raise _BadRequest("approval: needs a string approvalId and a boolean approved")
            if reason is not None and not isinstance(reason, str):
                raise _BadRequest(f"approval: reason is {type(reason).__name__}, not a string")
            self.answer_approval(approval_id, approved, reason=reason)
        elif kind == "interrupt":
            interrupt_id, status = content.get("interruptId"), content.get("status")
            if not isinstance(interrupt_id, str) or status not in ("resolved", "cancelled"):
                raise _BadRequest(
                    "interrupt: needs a string interruptId and a status 'resolved' or 'cancelled'"
                )
            try:
                self.answer_interrupt(interrupt_id, content.get("payload"), cancel=status == "cancelled")
            except Exception:
                # Refused: the card waits for its part to change before it takes an answer again.
                self._patch(resend_interrupt(self._conversation.messages, interrupt_id))
                raise

    def _requested_place(self, content: dict[str, Any], *, required: bool = True) -> Any:
        """The place of the message a request names by ``messageId`` (and ``at``, its place in the view, which
        tells apart messages that share an id); None when the request names none and need not."""
        message_id, at = content.get("messageId"), content.get("at")
        kind = content.get("kind")
        if message_id is None and not required:
            return None
        if not isinstance(message_id, str):
            raise _BadRequest(f"{kind}: messageId is {type(message_id).__name__}, not a string")
        messages = self._conversation.messages
        if type(at) is int and 0 <= at < len(messages) and messages[at].get("id") == message_id:
            return at
        return self._branch_tree().position(message_id)

    def _show_error(self, text: str) -> None:
        """Explain a refused request; the status (and a run in progress) is left as it is."""
        self._set_status(self.status, text)
        with contextlib.suppress(_SyncFailed):  # the next message to the views is a snapshot then
            self._flush()


class _BadRequest(Exception):
    """A request from a view that is not one the protocol defines (docs/widget.md, JS -> Python)."""
