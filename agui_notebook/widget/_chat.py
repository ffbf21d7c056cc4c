"""ChatWidget: a live view of a chat (``chat/_chat.py``) in the notebook, over a chat of its own or one given.

>>> chat = ChatWidget(lambda run_input: iter(["Hello from ", "the agent."]), title="Demo")  # doctest: +SKIP
>>> await chat.send_message("Hi!")  # doctest: +SKIP
'success'

The widget holds no conversation of its own: it syncs the chat's changes to its views as patches
(``_live.py``), maps each request of a view to the chat through a handler table (``_requests.py``), and keeps
the static copy a saved notebook shows (``_static_copy.py``). Any number of widgets can show one chat and stay in
step: a second ``ChatWidget(chat)`` is another view of the same conversation.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import anywidget
import traitlets

from agui_notebook._options import keyword_options
from agui_notebook._types import JSON
from agui_notebook.chat._chat import DEFAULT_STORE, Chat
from agui_notebook.chat._context import CONTEXT_BUDGET
from agui_notebook.chat._frontend_tools import MAX_FOLLOW_UPS
from agui_notebook.chat._listeners import ChatListener
from agui_notebook.chat._run import BUSY
from agui_notebook.inspection._fork import fork
from agui_notebook.ui._changes import MessageChange
from agui_notebook.widget._live import LiveSync, sendable
from agui_notebook.widget._metrics import LiveMetrics
from agui_notebook.widget._opening import (
    BUNDLE,
    THEMES,
    bundle_missing,
    chat_attribute,
    chat_method,
    chat_property,
    checked_origins,
    ipywidgets_send,
    load_bundle,
    open_chat,
    store_trait,
    view_options,
)
from agui_notebook.widget._renderers import PartRenderers, RendererRegistry
from agui_notebook.widget._requests import handle_request
from agui_notebook.widget._state_changes import StateSync
from agui_notebook.widget._static_copy import StaticCopy, StaticRows, chat_copy
from agui_notebook.wire._json import copy_json

__all__ = ["BUNDLE", "ChatWidget", "bundle_missing"]


class ChatWidget(anywidget.AnyWidget, ChatListener):
    """A chat with an agent, rendered live in the notebook (``ChatWidget(agent, ...)``, or ``ChatWidget(chat)``
    for another view of a :class:`Chat`).

    ``agent``, ``messages``, ``thread_id``, ``tools``, ``state``, ``store``, ``raise_errors``, ``message_type`` and
    ``max_follow_ups`` are the :class:`Chat`'s; running the same cell again opens the same chat (its log), and the
    agent and tools of the cell run last are the ones it uses. The rest are how the views look: ``title``,
    ``placeholder``, ``height``, ``show_reasoning``, ``theme``, ``suggestions`` (example prompts in the empty chat),
    ``trusted_origins``, ``show_metrics``, ``builtin_renderers`` and ``renderers`` (part type -> function or ES
    module, see ``renderer``).
    """

    _esm = BUNDLE if BUNDLE.is_file() else None

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
    theme = traitlets.Enum(THEMES, default_value="auto").tag(sync=True)
    trusted_origins = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Origins whose http(s) images, audio and video load at once; from anywhere else they wait behind "Load"."""
    suggestions = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """Example prompts shown as chips while the conversation is empty; a click sends one."""
    state = traitlets.Any(None, allow_none=True).tag(sync=True)
    """The AG-UI shared state (``chat.state``): assign it to change it (refused while the agent answers)."""
    state_changes = traitlets.Dict().tag(sync=True)
    """What the last change of ``state`` changed (``widget/_state_changes.py``)."""
    replay_only = traitlets.Bool(True).tag(sync=True)
    """Whether the views hide the input and the approval controls (no agent, or a log another kernel holds)."""
    rendered = traitlets.Dict().tag(sync=True)
    """What the Python renderers made of the parts (``_renderers.py``); written by the widget only."""
    frontend_renderers = traitlets.Dict(traitlets.Unicode()).tag(sync=True)
    builtin_renderers = traitlets.Bool(True).tag(sync=True)
    """Whether plans show as checklists and lists of records as tables (a renderer of your own wins)."""
    branch_points = traitlets.List(traitlets.Dict()).tag(sync=True)
    """The forks along the conversation, for the views' ‹ 1/2 › pickers (``chat.branch_points``)."""
    show_metrics = traitlets.Bool(False).tag(sync=True)
    message_metrics = traitlets.Dict().tag(sync=True)
    """``{assistant message id: metrics}`` from the chat's records, while ``show_metrics`` is on."""
    threads = traitlets.List(traitlets.Dict()).tag(sync=True)
    """The chat's threads, most recently changed first (``chat.threads``)."""
    thread_id = traitlets.Unicode("").tag(sync=True)
    """The thread shown; assign another thread's id to switch to it."""
    store = traitlets.Dict().tag(sync=True)
    """Where the chat's log is: ``{"kind": "file" | "memory", "path", "readOnly"}``."""
    context = traitlets.Any([])
    """What the agent sees of the notebook (``chat.context``: its entries, values as given; not synced). Assign
    entries or a ``{description: value}`` mapping; it reads back as entries."""
    context_sent = traitlets.List(traitlets.Dict()).tag(sync=True)
    """What each context entry sent at the last run, for the views' context chip (``chat.context_sent``)."""

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
        message_type: Any = None,
        max_follow_ups: int = MAX_FOLLOW_UPS,
        context: Any = None,
        forwarded_props: Any = None,
        context_budget: int = CONTEXT_BUDGET,
        title: str | None = None,
        placeholder: str = "Send a message",
        height: str | int = "32rem",
        show_reasoning: bool = True,
        theme: str = "auto",
        suggestions: Iterable[str] = (),
        trusted_origins: Iterable[str] = (),
        show_metrics: bool = False,
        builtin_renderers: bool = True,
        renderers: Mapping[str, Any] | None = None,
    ) -> None:
        load_bundle(ChatWidget, type(self))
        self._syncing = True
        super().__init__(
            **view_options(
                title=title, placeholder=placeholder, height=height, show_reasoning=show_reasoning, theme=theme,
                suggestions=suggestions, trusted_origins=trusted_origins, show_metrics=show_metrics,
                builtin_renderers=builtin_renderers,
            )
        )  # fmt: skip
        self._syncing = False
        options = dict(tools=tools, raise_errors=raise_errors, max_follow_ups=max_follow_ups, context=context)
        options.update(forwarded_props=forwarded_props, context_budget=context_budget)
        self.chat, self.cell = open_chat(
            agent, options, messages=messages, thread_id=thread_id, state=state, store=store,
            message_type=message_type,
        )  # fmt: skip
        """The :class:`Chat` this widget shows (and the log of the notebook cell that made it, if one did)."""
        self._live = LiveSync(lambda: self.chat.live_messages, self._send_custom, lambda: self.chat.thread_id)
        self._state = StateSync(lambda: self.chat.state, self._publish_state)
        self._metrics = LiveMetrics(self.chat.events, self._publish_metrics)
        self._static = StaticCopy(self.model_id, self._static_copy)
        self._rows = StaticRows()
        self._renderers = PartRenderers(
            lambda: self.chat.live_messages, self._publish_rendered, self.chat.warn
        )
        self._renderers.register_all(renderers)
        self._sync_traits(status=True, warnings=True, branches=True, threads=True, context=True)
        self._publish_state(copy_json(self.chat.state), {})
        self.chat.subscribe(self)
        self.on_msg(self._on_front_end_message)

    # ------------------------------------------------------------------------------------------ the chat's API
    send_message = chat_method(Chat.send_message)
    regenerate = chat_method(Chat.regenerate)
    edit = chat_method(Chat.edit)
    branches = chat_method(Chat.branches)
    select_branch = chat_method(Chat.select_branch)
    answer_approval = chat_method(Chat.answer_approval)
    answer_interrupt = chat_method(Chat.answer_interrupt)
    feedback = chat_method(Chat.feedback)
    play = chat_method(Chat.play)
    stop = chat_method(Chat.stop)
    clear = chat_method(Chat.clear)
    new_thread = chat_method(Chat.new_thread)
    switch_thread = chat_method(Chat.switch_thread)
    rename_thread = chat_method(Chat.rename_thread)
    delete_thread = chat_method(Chat.delete_thread)
    save = chat_method(Chat.save)
    ui_messages = chat_property("ui_messages")
    agui_messages = chat_property("agui_messages")
    events = chat_property("events")
    run_inputs = chat_property("run_inputs")
    exception = chat_property("exception")
    task = chat_property("task")
    busy = chat_property("busy")
    tools = chat_property("tools")

    messages = chat_attribute("messages", "the conversation shown: a JSON copy of its UIMessages")
    forwarded_props = chat_attribute("forwarded_props", "what goes with every run as forwardedProps")
    raise_errors = chat_attribute("raise_errors", "whether a failed run raises its exception")
    max_follow_ups = chat_attribute("max_follow_ups", "follow-up runs the chat starts by itself per turn")

    agent = chat_attribute(
        "agent", "what answers; None makes the widget replay-only", then=lambda w: w._sync_traits()
    )

    def fork(self, at: int | None = None, **options: Any) -> Any:
        """Continue the conversation as it stood after the first ``at`` events of ``load_events(chat)``, on a new
        branch: ``messages=``, ``tool_results=`` and ``state=`` edit it first, as :func:`~agui_notebook.fork`
        builds the run input the agent then receives (``chat.branch_from``)."""
        return self.chat.branch_from(fork(self.chat, at, **options))

    @classmethod
    def load(cls, path: str | os.PathLike[str], agent: Any = None, **options: Any) -> ChatWidget:
        """A widget showing the conversation ``save`` wrote (see :meth:`Chat.load`)."""
        chat = {k: options.pop(k) for k in ("tools", "raise_errors", "message_type", "store") if k in options}
        return cls(Chat.load(path, agent, **chat), **options)

    send = ipywidgets_send

    # ------------------------------------------------------------------------------------------ renderers
    @property
    def renderers(self) -> RendererRegistry:
        """The registered renderers, part type -> function or ES module source (``del`` one to unregister)."""
        return RendererRegistry(self._renderers)

    def renderer(self, part_type: str) -> Callable[[Any], Any]:
        """Register ``fn(part) -> object`` for parts of ``part_type`` (a decorator); ``renderer(t)(None)`` unregisters.

        >>> @chat.renderer("data-weather")  # doctest: +SKIP
        ... def weather(part):
        ...     return pd.DataFrame([part["data"]])
        """

        def register(fn: Any) -> Any:
            self._renderers.register(part_type, fn)
            return fn

        return register

    def _publish_rendered(self, rendered: dict[str, JSON], frontend: dict[str, str]) -> None:
        with self.hold_sync():
            self.rendered = rendered
            if frontend != self.frontend_renderers:
                self.frontend_renderers = frontend
        self._rows.reset()  # the parts renderers drew read otherwise in the copy too
        if not self.chat.busy:
            self._static.update()

    def __repr__(self) -> str:
        return f"<ChatWidget {len(self.chat.live_messages)} messages, status={self.status!r}, agent={self.agent!r}>"

    # ------------------------------------------------------------------------------------------ the chat's changes
    def messages_changed(self, changes: list[MessageChange]) -> None:
        self._live.changed(changes, now=not self.chat.busy)
        self._rows.changed(changes)
        self._renderers.changed(changes)
        self._metrics.follow()
        if self.show_metrics:
            self._metrics.sync(self.chat.live_messages)

    def messages_reset(self) -> None:
        self._live.reset()
        self._rows.reset()
        self._renderers.refresh()
        if not self._metrics.reads(self.chat.events):  # another thread's records
            self._metrics = LiveMetrics(self.chat.events, self._publish_metrics)
            self._publish_metrics({})
        self._static.update()

    def status_changed(self) -> None:
        self._live.set_status(self.chat.status, self.chat.error)
        self._live.flush()  # the views see the last patch before the traits say the run is over
        if self.chat.status not in BUSY:
            self._state.flush()
            last = (("rendered outputs", self._renderers.flush), ("the saved copy", self._static.update))
            for what, send in last:  # the copy before the status: a save on "ready" keeps the turn
                try:
                    send()
                except Exception as exc:
                    self.chat.warn(f"{what} could not be sent: {type(exc).__name__}: {exc}")
        self._sync_traits(status=True)

    def warnings_changed(self) -> None:
        self._sync_traits(warnings=True)

    def state_changed(self, source: str, updates: list[dict[str, JSON]]) -> None:
        self._state.changed(source, updates)

    def branches_changed(self) -> None:
        self._sync_traits(branches=True)

    def threads_changed(self) -> None:
        self._sync_traits(threads=True)

    def context_changed(self) -> None:
        self._sync_traits(context=True)

    def run_begun(self, sent_ns: int | None, resumes: bool) -> None:
        self._metrics.run_begun(self.chat.live_messages, sent_ns, resumes)

    def run_ended(self) -> None:
        self._metrics.run_ended(self.chat.live_messages)
        if self.show_metrics:
            self._metrics.sync(self.chat.live_messages, force=True)

    # ------------------------------------------------------------------------------------------ traits
    def _sync_traits(self, *, status: bool = False, warnings: bool = False, **groups: bool) -> None:
        """Bring the traits named up to the chat (``replay_only`` always); texts as the comm can carry them."""
        branches, threads, context = (groups.get(name, False) for name in ("branches", "threads", "context"))
        chat = self.chat
        self._syncing = True
        try:
            with self.hold_sync():
                if status:
                    self.status, self.error, self.error_details = sendable(
                        [chat.status, chat.error, chat.error_details]
                    )
                if warnings:
                    self.warnings = sendable(chat.warnings)
                if branches and (points := chat.branch_points) != self.branch_points:
                    self.branch_points = points
                if threads:
                    self.threads = sendable([dict(info) for info in chat.threads])
                    self.thread_id = chat.thread_id
                    self.store = store_trait(chat)
                if context:
                    self.context, self.context_sent = chat.context, sendable(chat.context_sent)
                self.replay_only = chat.agent is None or chat.read_only
        finally:
            self._syncing = False

    def _publish_state(self, state: JSON, changes: dict[str, JSON]) -> None:
        self._syncing = True
        try:
            with self.hold_sync():
                self.state, self.state_changes = state, changes
        except Exception:  # what the comm cannot carry (half an emoji), replaced; the chat keeps it
            with self.hold_sync():
                self.state, self.state_changes = sendable(state), changes
        finally:
            self._syncing = False

    def _publish_metrics(self, metrics: dict[str, dict[str, JSON]]) -> None:
        if self.show_metrics:
            self.message_metrics = metrics

    @traitlets.observe("show_metrics")
    def _show_metrics_changed(self, change: Any) -> None:
        if change["new"] and hasattr(self, "_metrics"):
            self._metrics.sync(self.chat.live_messages, force=True)

    @traitlets.validate("state")
    def _validate_state(self, proposal: Any) -> JSON:
        if self._syncing:
            return proposal["value"]
        self.chat.state = proposal["value"]  # refused while busy; the chat tells every view (this one too)
        return self.chat.state

    @traitlets.validate("context")
    def _validate_context(self, proposal: Any) -> list[dict[str, Any]]:
        if not self._syncing and hasattr(self, "chat"):
            self.chat.context = proposal["value"]  # checked there; the chat tells every view (this one too)
        return self.chat.context if hasattr(self, "chat") else []

    @traitlets.validate("thread_id")
    def _validate_thread_id(self, proposal: Any) -> str:
        if not self._syncing and hasattr(self, "chat"):
            self.chat.switch_thread(proposal["value"])
        return proposal["value"]

    @traitlets.validate("trusted_origins")
    def _validate_trusted_origins(self, proposal: Any) -> list[str]:
        return checked_origins(proposal["value"])

    # ------------------------------------------------------------------------------------------ the saved copy
    def _ipython_display_(self, **kwargs: Any) -> None:
        """Show the live widget, then its static copy (``_static_html.py``), which each finished turn updates:
        what a saved notebook shows without a kernel (nbconvert, GitHub, an untrusted notebook)."""
        self._static.display(self, **kwargs)

    def _static_copy(self) -> dict[str, str]:
        return chat_copy(self.chat, self._rows, self._renderers.static_part_html, self.title)

    # ------------------------------------------------------------------------------------------ the views
    def _send_custom(self, content: dict[str, Any]) -> None:
        anywidget.AnyWidget.send(self, content)

    def resync(self) -> None:
        self._live.resync()

    def _on_front_end_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        handle_request(self.chat, content, self)

    def close(self) -> None:
        """Close the widget (its views go); the chat, and every other view of it, stay."""
        if "chat" in self.__dict__:  # not when the constructor failed
            self.chat.unsubscribe(self)
            for part in (self._live, self._state, self._renderers):
                part.close()
        super().close()
