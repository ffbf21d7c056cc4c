"""ChatWidget: a live view of a chat (``chat/_chat.py``) in the notebook, over a chat of its own or one given.

>>> def agent(run_input):
...     yield "Hello from "
...     yield "the agent."
>>> chat = ChatWidget(agent, title="Demo")  # doctest: +SKIP
>>> chat  # doctest: +SKIP
>>> await chat.send_message("Hi!")  # doctest: +SKIP
'success'

The widget holds no conversation of its own: it syncs the chat's changes to its views as patches
(``_live.py``), maps each request of a view to the chat through a handler table (``_requests.py``), and keeps
the static copy a saved notebook shows (``_static_copy.py``). Any number of widgets can show one chat and stay in
step: a second ``ChatWidget(chat)`` is another view of the same conversation.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import os
import warnings
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import urlsplit

import anywidget
import traitlets

from agui_notebook._errors import OptionError
from agui_notebook._types import JSON
from agui_notebook.chat._chat import DEFAULT_STORE, Chat
from agui_notebook.chat._frontend_tools import MAX_FOLLOW_UPS
from agui_notebook.chat._identity import default_log_path
from agui_notebook.chat._listeners import ChatListener
from agui_notebook.chat._run import BUSY
from agui_notebook.ui._changes import MessageChange
from agui_notebook.widget._live import LiveSync, sendable
from agui_notebook.widget._metrics import LiveMetrics
from agui_notebook.widget._renderers import PartRenderers, RendererRegistry
from agui_notebook.widget._requests import BAD_REQUEST, BUSY_KINDS, BUSY_NOTICE, HANDLERS, BadRequest
from agui_notebook.widget._state_changes import StateSync
from agui_notebook.widget._static_copy import StaticCopy, StaticRows, chat_note
from agui_notebook.widget._static_html import static_bundle
from agui_notebook.wire._json import copy_json

__all__ = ["BUNDLE", "ChatWidget", "bundle_missing"]

BUNDLE = Path(__file__).resolve().parent.parent / "static" / "widget.js"
"""The built front end (``cd js && npm run build``)."""

P = ParamSpec("P")
R = TypeVar("R")


def bundle_missing() -> FileNotFoundError:
    return FileNotFoundError(
        f"the ChatWidget front end is not built ({BUNDLE} is missing): run `cd js && npm install && npm run build` "
        "in the agui-notebook source tree, or reinstall the package (pip install agui-notebook)"
    )


def _of_chat(method: Callable[Concatenate[Chat, P], R]) -> Callable[Concatenate[ChatWidget, P], R]:
    """A method of the widget that is the chat's method (its signature and docstring)."""

    @functools.wraps(method)
    def call(self: ChatWidget, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return method(self.chat, *args, **kwargs)

    return call


def _chat_property(name: str) -> Any:
    """A read-only property of the widget that is the chat's property of that name."""
    getter = getattr(Chat, name).fget
    return property(lambda self: getter(self.chat), doc=getter.__doc__)


def _display_path(path: Path | None) -> str | None:
    if path is None:
        return None
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)


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
    theme = traitlets.Enum(("auto", "light", "dark"), default_value="auto").tag(sync=True)
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
        **unknown: Any,
    ) -> None:
        if unknown:
            _refuse_options(unknown)
        if ChatWidget._esm is None:
            if not BUNDLE.is_file():
                raise bundle_missing()
            ChatWidget._esm = BUNDLE.read_text()  # built after this module was imported
            if type(self) is not ChatWidget and "_esm" not in type(self).__dict__:
                type(self)._esm = ChatWidget._esm
        self._syncing = True
        super().__init__(
            title=title or "", placeholder=placeholder, height=height, show_reasoning=show_reasoning,
            theme=theme, suggestions=list(suggestions), trusted_origins=list(trusted_origins),
            show_metrics=show_metrics, builtin_renderers=builtin_renderers,
        )  # fmt: skip
        self._syncing = False
        options = {"tools": tools, "raise_errors": raise_errors, "max_follow_ups": max_follow_ups}
        self.chat = agent if isinstance(agent, Chat) else _open_chat(
            agent, options, messages=messages, thread_id=thread_id, state=state, store=store,
            message_type=message_type,
        )  # fmt: skip
        """The :class:`Chat` this widget shows."""
        self._live = LiveSync(lambda: self.chat.live_messages, self._send_custom, lambda: self.chat.thread_id)
        self._state = StateSync(lambda: self.chat.state, self._publish_state)
        self._metrics = LiveMetrics(self.chat.events, self._publish_metrics)
        self._static = StaticCopy(self.model_id, self._static_copy)
        self._rows = StaticRows()
        self._renderers = PartRenderers(lambda: self.chat.live_messages, self._publish_rendered, self._warn)
        for part_type, renderer in (renderers or {}).items():
            self._renderers.register(part_type, renderer)
        self._sync_traits(status=True, warnings=True, branches=True, threads=True)
        self._publish_state(copy_json(self.chat.state), {})
        self.chat.subscribe(self)
        self.on_msg(self._on_front_end_message)

    # ------------------------------------------------------------------------------------------ the chat's API
    send_message = _of_chat(Chat.send_message)
    regenerate = _of_chat(Chat.regenerate)
    edit = _of_chat(Chat.edit)
    branches = _of_chat(Chat.branches)
    select_branch = _of_chat(Chat.select_branch)
    answer_approval = _of_chat(Chat.answer_approval)
    answer_interrupt = _of_chat(Chat.answer_interrupt)
    feedback = _of_chat(Chat.feedback)
    play = _of_chat(Chat.play)
    stop = _of_chat(Chat.stop)
    clear = _of_chat(Chat.clear)
    new_thread = _of_chat(Chat.new_thread)
    switch_thread = _of_chat(Chat.switch_thread)
    rename_thread = _of_chat(Chat.rename_thread)
    delete_thread = _of_chat(Chat.delete_thread)
    save = _of_chat(Chat.save)
    ui_messages = _chat_property("ui_messages")
    agui_messages = _chat_property("agui_messages")
    events = _chat_property("events")
    run_inputs = _chat_property("run_inputs")
    exception = _chat_property("exception")
    task = _chat_property("task")
    busy = _chat_property("busy")
    tools = _chat_property("tools")

    @property
    def messages(self) -> list[dict[str, JSON]]:
        """The conversation shown: a JSON copy of its UIMessages (assign UIMessages or AG-UI messages to replace it)."""
        return self.chat.messages

    @messages.setter
    def messages(self, value: Iterable[Any]) -> None:
        self.chat.messages = value

    @property
    def raise_errors(self) -> bool:
        """Whether a failed run raises its exception from ``await chat.send_message(...)`` (``Chat.raise_errors``)."""
        return self.chat.raise_errors

    @raise_errors.setter
    def raise_errors(self, value: bool) -> None:
        self.chat.raise_errors = value

    @property
    def max_follow_ups(self) -> int:
        """Follow-up runs started by the chat itself per user turn (``Chat.max_follow_ups``)."""
        return self.chat.max_follow_ups

    @max_follow_ups.setter
    def max_follow_ups(self, value: int) -> None:
        self.chat.max_follow_ups = value

    @property
    def agent(self) -> Any:
        """What answers the messages; ``None`` makes the widget replay-only (its views hide the input)."""
        return self.chat.agent

    @agent.setter
    def agent(self, value: Any) -> None:
        self.chat.agent = value
        self._sync_traits()

    def fork(self, at: int | None = None, **options: Any) -> Any:
        """Continue the conversation as it stood after the first ``at`` events of ``load_events(chat)``, on a new
        branch: ``messages=``, ``tool_results=`` and ``state=`` edit it first, as :func:`~agui_notebook.fork`
        builds the run input the agent then receives (``chat.branch_from``)."""
        from agui_notebook.inspection._fork import fork

        return self.chat.branch_from(fork(self.chat, at, **options))

    @classmethod
    def load(cls, path: str | os.PathLike[str], agent: Any = None, **options: Any) -> ChatWidget:
        """A widget showing the conversation ``save`` wrote (see :meth:`Chat.load`)."""
        chat_options = {
            k: options.pop(k) for k in ("tools", "raise_errors", "message_type", "store") if k in options
        }
        return cls(Chat.load(path, agent, **chat_options), **options)

    def send(self, content: Any, buffers: Any = None) -> None:
        """ipywidgets' ``Widget.send``: a custom message to the front end (``send_message`` sends the user's text)."""
        if isinstance(content, str):
            warnings.warn(
                "ChatWidget.send sends a custom message to the widget's front end (ipywidgets); to send a user "
                "message use chat.send_message(text)",
                UserWarning,
                stacklevel=2,
            )
        super().send(content, buffers)

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

    def _warn(self, text: str) -> None:
        if text not in self.chat.warnings:  # once, however often the part is rendered again
            self.chat.warn(text)

    def __repr__(self) -> str:
        return f"<ChatWidget {len(self.chat.live_messages)} messages, status={self.status!r}, agent={self.agent!r}>"

    # ------------------------------------------------------------------------------------------ the chat's changes
    def messages_changed(self, changes: list[MessageChange]) -> None:
        self._live.changed(changes, now=not self.chat.busy)
        self._rows.changed(changes)
        self._renderers.changed(changes)
        if self.show_metrics:
            self._metrics.sync(self.chat.live_messages)

    def messages_reset(self) -> None:
        self._live.reset()
        self._rows.reset()
        self._renderers.refresh()
        if self._metrics.metrics._records is not self.chat.events:
            self._metrics = LiveMetrics(self.chat.events, self._publish_metrics)
            self._publish_metrics({})
        self._static.update()

    def status_changed(self) -> None:
        self._live.set_status(self.chat.status, self.chat.error)
        self._live.flush()  # the views see the last patch before the traits say the run is over
        if self.chat.status not in BUSY:
            self._state.flush()
            self._flush_renderers()
        self._sync_traits(status=True)
        if self.chat.status not in BUSY:
            self._static.update()

    def warnings_changed(self) -> None:
        self._sync_traits(warnings=True)

    def state_changed(self, source: str, updates: list[dict[str, JSON]]) -> None:
        self._state.changed(source, updates)

    def branches_changed(self) -> None:
        self._sync_traits(branches=True)

    def threads_changed(self) -> None:
        self._sync_traits(threads=True)

    def run_begun(self, sent_ns: int | None, resumes: bool) -> None:
        self._metrics.run_begun(self.chat.live_messages, sent_ns, resumes)

    def run_ended(self) -> None:
        self._metrics.run_ended(self.chat.live_messages)
        if self.show_metrics:
            self._metrics.sync(self.chat.live_messages, force=True)

    def _flush_renderers(self) -> None:
        """The parts' last renders once a run is over (renderers' own failures are caught where they run)."""
        try:
            self._renderers.flush()
        except Exception as exc:  # the outputs could not be sent: say so, the run's outcome stands
            self.chat.warn(f"rendered outputs could not be sent: {type(exc).__name__}: {exc}")

    # ------------------------------------------------------------------------------------------ traits
    def _sync_traits(
        self, *, status: bool = False, warnings: bool = False, branches: bool = False, threads: bool = False
    ) -> None:
        """Bring the synced traits named up to the chat (and ``replay_only`` always)."""
        chat = self.chat
        self._syncing = True
        try:
            with self.hold_sync():
                if status:
                    self.status, self.error, self.error_details = chat.status, chat.error, chat.error_details
                if warnings:
                    self.warnings = chat.warnings
                if branches and (points := chat.branch_points) != self.branch_points:
                    self.branch_points = points
                if threads:
                    self.threads = chat.threads
                    self.thread_id = chat.thread_id
                    self.store = {
                        "kind": "memory" if chat.store is None else "file",
                        "path": _display_path(chat.store),
                        "readOnly": chat.read_only,
                    }
                self.replay_only = chat.agent is None or chat.read_only
        finally:
            self._syncing = False

    def _publish_state(self, state: JSON, changes: dict[str, JSON]) -> None:
        self._syncing = True
        try:
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

    @traitlets.validate("thread_id")
    def _validate_thread_id(self, proposal: Any) -> str:
        if not self._syncing and hasattr(self, "chat"):
            self.chat.switch_thread(proposal["value"])
        return proposal["value"]

    @traitlets.validate("trusted_origins")
    def _validate_trusted_origins(self, proposal: Any) -> list[str]:
        for entry in proposal["value"]:
            url = urlsplit(entry)
            if url.scheme.lower() not in ("http", "https") or not url.hostname:
                raise OptionError(
                    f"trusted_origins: {entry!r} is not an http(s) origin such as 'https://images.example'"
                )
        return proposal["value"]

    # ------------------------------------------------------------------------------------------ the saved copy
    def _ipython_display_(self, **kwargs: Any) -> None:
        """Show the live widget, then its static copy (``_static_html.py``), which each finished turn updates:
        what a saved notebook shows without a kernel (nbconvert, GitHub, an untrusted notebook)."""
        self._static.display(self, **kwargs)

    def _static_copy(self) -> dict[str, str]:
        """The copy: the conversation shown, kept rendered per message; when it is a new, empty one, the last
        conversation before it (a saved notebook never trades a conversation for "No messages yet.")."""
        chat = self.chat
        threads = chat.threads
        note = chat_note(chat.store, chat.read_only)
        if not chat.live_messages:
            earlier = next((t for t in threads if not t["current"] and t["turns"]), None)
            if earlier is not None:
                return static_bundle(
                    chat.thread_messages(earlier["id"]), title=self.title or earlier["title"], threads=threads,
                    note=f"{note} A new conversation was started after this one, “{earlier['title']}”.",
                )  # fmt: skip
        return self._rows.bundle(
            chat.live_messages, render_part=self._renderers.static_part_html, versions=chat.branch_versions(),
            title=self.title, note=note, threads=threads,
        )  # fmt: skip

    # ------------------------------------------------------------------------------------------ the views
    def _send_custom(self, content: dict[str, Any]) -> None:
        anywidget.AnyWidget.send(self, content)

    def resync(self) -> None:
        self._live.resync()

    def _on_front_end_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A request from a view; one that cannot be read or honoured is explained in the widget, never raised."""
        if not isinstance(content, dict):
            return
        handler = HANDLERS.get(content.get("kind"))  # type: ignore[arg-type]
        if handler is None:
            return
        try:
            if self.chat.busy and content.get("kind") in BUSY_KINDS:
                self.chat.set_error(BUSY_NOTICE)
                return
            handler(self.chat, content, self)
        except BadRequest as exc:
            self.chat.set_error(f"{BAD_REQUEST}: {exc}")
        except Exception as exc:  # a request the kernel cannot honour: say why in the widget
            self.chat.set_error(f"{type(exc).__name__}: {exc}")

    def close(self) -> None:
        """Close the widget (its views go); the chat, and every other view of it, stay."""
        if "chat" in self.__dict__:  # not when the constructor failed
            self.chat.unsubscribe(self)
            for part in (self._live, self._state, self._renderers):
                part.close()
        super().close()


def _refuse_options(unknown: Mapping[str, Any]) -> None:
    """Unknown keyword options are an :class:`OptionError` naming the closest valid one."""
    valid = [n for n in inspect.signature(ChatWidget.__init__).parameters if n not in ("self", "unknown")]
    name = next(iter(unknown))
    close = difflib.get_close_matches(name, valid, n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f" (options: {', '.join(valid)})"
    raise OptionError(f"ChatWidget: unknown option {name!r}{hint}")


def _open_chat(agent: Any, options: dict[str, Any], **first: Any) -> Chat:
    """The chat a widget made in a notebook cell shows: the open chat of the same log (the cell run again; it
    takes this run's agent and tools), else a new one on it."""
    store = first.pop("store")
    path = default_log_path() if store is DEFAULT_STORE else store
    opened = Chat.opened(path) if path is not None else None
    if opened is not None:
        opened.configure(agent=agent, **options)
        return opened
    return Chat(agent, store=path, **first, **options)
