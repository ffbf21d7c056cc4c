"""How a ChatWidget comes to show a chat: the built front end, its options, and the chat of its cell.

A widget made in a notebook cell opens the cell's log (``chat/_identity.py``). When the cell runs again in the same
kernel, that log's chat is already open: the new widget shows it (taking this run's agent and tools) and the
widget the earlier run made is closed, its output having gone with the cell's. A widget given ``store=`` shows the
chat open on that log, if there is one, and leaves the other views of it alone: they stay in step.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import urlsplit

import anywidget

from agui_notebook._errors import OptionError, warn
from agui_notebook._options import listed, typed
from agui_notebook._shown import shown
from agui_notebook.chat._chat import DEFAULT_STORE, Chat
from agui_notebook.chat._identity import default_log_path
from agui_notebook.widget._static_copy import display_path

__all__ = [
    "BUNDLE",
    "bundle_missing",
    "chat_attribute",
    "chat_method",
    "chat_property",
    "checked_origins",
    "ipywidgets_send",
    "load_bundle",
    "open_chat",
    "store_trait",
    "view_options",
]

THEMES = ("auto", "light", "dark")

BUNDLE = Path(__file__).resolve().parent.parent / "static" / "widget.js"
"""The built front end (``cd js && npm run build``)."""

P = ParamSpec("P")
R = TypeVar("R")
W = TypeVar("W")


def load_bundle(base: Any, cls: Any) -> None:
    """Give ``base`` (and a subclass ``cls`` without its own) the front end built after this module was imported."""
    if base._esm is None:
        if not BUNDLE.is_file():
            raise bundle_missing()
        base._esm = BUNDLE.read_text()
        if cls is not base and "_esm" not in cls.__dict__:
            cls._esm = base._esm


def bundle_missing() -> FileNotFoundError:
    return FileNotFoundError(
        f"the ChatWidget front end is not built ({BUNDLE} is missing): run `cd js && npm install && npm run build` "
        "in the agui-notebook source tree, or reinstall the package (pip install agui-notebook)"
    )


def chat_method(method: Callable[Concatenate[Chat, P], R]) -> Callable[Concatenate[Any, P], R]:
    """A method of the widget that is its chat's method (with the chat method's signature and docstring)."""

    @functools.wraps(method)
    def call(self: Any, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return method(self.chat, *args, **kwargs)

    return call


def chat_property(name: str) -> Any:
    """A read-only property of the widget that is its chat's property of that name."""
    getter = getattr(Chat, name).fget
    return property(lambda self: getter(self.chat), doc=getter.__doc__)


def chat_attribute(name: str, doc: str, then: Callable[[Any], object] | None = None) -> Any:
    """A property of the widget that reads and writes its chat's attribute of that name (``then(widget)`` after
    each write)."""

    def write(self: Any, value: Any) -> None:
        setattr(self.chat, name, value)
        if then is not None:
            then(self)

    return property(
        lambda self: getattr(self.chat, name), write, doc=f"{doc[0].upper()}{doc[1:]} (``Chat.{name}``)"
    )


SEND_IS_IPYWIDGETS = (
    "ChatWidget.send sends a custom message to the widget's front end (ipywidgets); to send a user message use "
    "chat.send_message(text)"
)


def ipywidgets_send(widget: Any, content: Any, buffers: Any = None) -> None:
    """ipywidgets' ``Widget.send``: a custom message to the front end (``send_message`` sends the user's text).

    ChatWidget keeps the method's meaning (``focus()`` and ``blur()`` send through it) and only warns when given a
    string, most likely meant as the user's text (``send`` was that before 0.2)."""
    if isinstance(content, str):
        warn(SEND_IS_IPYWIDGETS, UserWarning)
    anywidget.AnyWidget.send(widget, content, buffers)


def checked_origins(origins: Any) -> list[str]:
    """``trusted_origins`` as given, each an http(s) origin (any URL stands for its origin)."""
    entries = _strings(origins, "trusted_origins")
    for entry in entries:
        try:
            url = urlsplit(entry)
            fine = url.scheme.lower() in ("http", "https") and bool(url.hostname)
        except ValueError:  # an unclosed IPv6 bracket, a bad port
            fine = False
        if not fine:
            raise OptionError(
                f"trusted_origins: {shown(entry)} is not an http(s) origin such as 'https://images.example'"
            )
    return entries


def _strings(value: Any, name: str) -> list[str]:
    items = listed(value, name, "strings")
    for index, item in enumerate(items):
        typed(item, f"{name}[{index}]", str, "a string")
    return items


def view_options(
    *,
    title: Any,
    placeholder: Any,
    height: Any,
    show_reasoning: Any,
    theme: Any,
    suggestions: Any,
    trusted_origins: Any,
    show_metrics: Any,
    builtin_renderers: Any,
) -> dict[str, Any]:
    """A ChatWidget's look options checked (the family's errors, naming the option), as its traits take them."""
    if theme not in THEMES:
        raise OptionError(f"theme must be one of {', '.join(map(repr, THEMES))}, not {shown(theme)}")
    return {
        "title": typed(title, "title", (str, type(None)), "a string or None") or "",
        "placeholder": typed(placeholder, "placeholder", str, "a string"),
        "height": typed(height, "height", (str, int), "a CSS length (a string) or a number of pixels"),
        "show_reasoning": typed(show_reasoning, "show_reasoning", bool, "True or False"),
        "theme": theme,
        "suggestions": _strings(suggestions, "suggestions"),
        "trusted_origins": checked_origins(trusted_origins),
        "show_metrics": typed(show_metrics, "show_metrics", bool, "True or False"),
        "builtin_renderers": typed(builtin_renderers, "builtin_renderers", bool, "True or False"),
    }


def store_trait(chat: Chat) -> dict[str, Any]:
    """Where a chat's log is, as the views show it (the ``store`` trait)."""
    path = chat.store
    return {
        "kind": "memory" if path is None else "file",
        "path": None if path is None else display_path(path),
        "readOnly": chat.read_only,
    }


def open_chat(agent: Any, options: dict[str, Any], *, store: Any, **first: Any) -> tuple[Chat, str | None]:
    """The chat a new widget shows, and the cell key it was opened by (None for an explicit ``store``)."""
    if isinstance(agent, Chat):
        return agent, None
    path = default_log_path() if store is DEFAULT_STORE else store
    cell = str(Path(path).resolve()) if store is DEFAULT_STORE and path is not None else None
    opened = Chat.opened(path) if path is not None else None
    if opened is None:
        return Chat(agent, store=path, **first, **options), cell
    opened.configure(agent=agent, **options)
    for view in opened.views:
        close = getattr(view, "close", None)
        if cell is not None and getattr(view, "cell", None) == cell and callable(close):
            close()  # the widget an earlier run of the same cell made: its output is gone
    return opened, cell
