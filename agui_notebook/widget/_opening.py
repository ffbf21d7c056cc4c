"""How a ChatWidget comes to show a chat: the built front end, its options, and the chat of its cell.

A widget made in a notebook cell opens the cell's log (``chat/_identity.py``). When the cell runs again in the same
kernel, that log's chat is already open: the new widget shows it (taking this run's agent and tools) and the
widget the earlier run made is closed, its output having gone with the cell's. A widget given ``store=`` shows the
chat open on that log, if there is one, and leaves the other views of it alone: they stay in step.

>>> closest_option("show_metric", ["show_metrics", "title"])
"; did you mean 'show_metrics'?"
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import urlsplit

from agui_notebook._errors import OptionError
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
    "closest_option",
    "load_bundle",
    "open_chat",
    "refuse_options",
    "store_trait",
]

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


def chat_attribute(name: str, doc: str) -> Any:
    """A property of the widget that reads and writes its chat's attribute of that name."""
    return property(
        lambda self: getattr(self.chat, name),
        lambda self, value: setattr(self.chat, name, value),
        doc=f"{doc[0].upper()}{doc[1:]} (``Chat.{name}``).",
    )


def checked_origins(origins: list[str]) -> list[str]:
    """``trusted_origins`` as given, each an http(s) origin (any URL stands for its origin)."""
    for entry in origins:
        url = urlsplit(entry)
        if url.scheme.lower() not in ("http", "https") or not url.hostname:
            raise OptionError(
                f"trusted_origins: {entry!r} is not an http(s) origin such as 'https://images.example'"
            )
    return origins


def store_trait(chat: Chat) -> dict[str, Any]:
    """Where a chat's log is, as the views show it (the ``store`` trait)."""
    path = chat.store
    return {
        "kind": "memory" if path is None else "file",
        "path": None if path is None else display_path(path),
        "readOnly": chat.read_only,
    }


def closest_option(name: str, valid: Iterable[str]) -> str:
    """The hint that ends an unknown-option error: the closest valid name, else the list of them."""
    names = list(valid)
    close = difflib.get_close_matches(name, names, n=1)
    return f"; did you mean {close[0]!r}?" if close else f" (options: {', '.join(names)})"


def refuse_options(where: str, unknown: Mapping[str, Any], valid: Iterable[str]) -> None:
    """Unknown keyword options are an :class:`OptionError` naming the closest valid one."""
    name = next(iter(unknown))
    raise OptionError(f"{where}: unknown option {name!r}{closest_option(name, valid)}")


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
        if cell is not None and getattr(view, "cell", None) == cell:
            view.close()  # the widget an earlier run of the same cell made: its output is gone
    return opened, cell
