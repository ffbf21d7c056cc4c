"""A widget's static copy in the notebook: shown right after its live view, kept up to date by display id.

The copy (a ``text/html`` and ``text/plain`` bundle, ``_static_html.py``) is what a saved notebook shows where no
widget front end runs: reopened without a kernel, ``jupyter nbconvert``, nbviewer, GitHub. The live view's
stylesheet hides it (``js/src/connection.js``). Each widget owns one ``StaticCopy`` and calls ``update`` when what
the copy shows has changed; nothing is published until the widget was displayed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agui_notebook.ui._changes import MessageChange
from agui_notebook.widget._static_html import (
    PartHtml,
    Versions,
    document_html,
    document_text,
    message_html,
    message_text,
    static_bundle,
)

__all__ = ["StaticCopy", "StaticRows", "chat_copy", "chat_note", "display_path"]

Bundle = dict[str, str]


class StaticCopy:
    """The static copy of the widget ``model_id``, made by ``build`` whenever it is shown or updated."""

    def __init__(self, model_id: str, build: Callable[[], Bundle]) -> None:
        self.display_id = f"agui-notebook-static-{model_id}"
        self._build = build
        self._displayed = False
        self._shown: Bundle | None = None

    @property
    def displayed(self) -> bool:
        """Whether the copy was shown (only then is there anything to update)."""
        return self._displayed

    def display(self, widget: Any, **kwargs: Any) -> None:
        """Display ``widget`` (its view only: no ``<Widget …>`` line beside the copy), then the copy."""
        from IPython.display import display

        bundle = widget._repr_mimebundle_(**kwargs)
        data, metadata = bundle if isinstance(bundle, tuple) else (bundle, {})
        display({k: v for k, v in data.items() if k != "text/plain"}, metadata=metadata, raw=True)  # type: ignore[no-untyped-call]
        self._displayed = True
        self._shown = self._build()
        display(self._shown, raw=True, display_id=self.display_id)  # type: ignore[no-untyped-call]

    def update(self) -> None:
        """Send the copy as it stands now (an ``update_display_data``), if it was displayed and has changed."""
        if not self._displayed:
            return
        bundle = self._build()
        if bundle == self._shown:
            return
        from IPython.display import update_display

        with contextlib.suppress(Exception):  # no kernel to publish to: nothing shows the copy either
            update_display(bundle, raw=True, display_id=self.display_id)  # type: ignore[no-untyped-call]
            self._shown = bundle


def chat_note(store: Path | None, read_only: bool = False) -> str:
    """The line under a chat's saved copy, true to where its conversation lives.

    >>> chat_note(None)
    "A saved copy of this chat. It lived in the kernel's memory: running the cell again starts a new conversation."
    """
    if store is None:
        return (
            "A saved copy of this chat. It lived in the kernel's memory: running the cell again starts a new "
            "conversation."
        )
    where = display_path(store)
    if read_only:
        return f"A saved copy of this chat, read from its log {where} (open in another kernel)."
    return (
        f"A saved copy of this chat. Its log is {where}: run the cell again to go on with the conversation."
    )


def display_path(path: Path) -> str:
    """A log's path as a user reads it: relative to the working folder when it is under it."""
    try:
        return os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return str(path)


class StaticRows:
    """A chat's saved copy kept rendered per message: a change renders again only the messages it touched
    (``changed``), a new path renders them all (``reset``); ``bundle`` puts the rows together."""

    def __init__(self) -> None:
        self._html: list[str | None] = []
        self._text: list[str | None] = []

    def changed(self, changes: list[MessageChange]) -> None:
        for change in changes:
            at = change.message_index
            if change.kind == "length":
                del self._html[at:], self._text[at:]
            elif at < len(self._html):
                self._html[at] = self._text[at] = None

    def reset(self) -> None:
        self._html, self._text = [], []

    def bundle(
        self,
        messages: list[dict[str, Any]],
        *,
        render_part: PartHtml | None,
        versions: Versions,
        **document: Any,
    ) -> Bundle:
        """The copy of ``messages``: the rows kept, those changed (and every fork's) rendered again."""
        html, text = self._html, self._text
        del html[len(messages) :], text[len(messages) :]
        html.extend([None] * (len(messages) - len(html)))
        text.extend([None] * (len(messages) - len(text)))
        for at, message in enumerate(messages):
            if html[at] is None or at in versions:
                html[at] = message_html(message, render_part=render_part, versions=versions.get(at))
                text[at] = message_text(message)
        title = document.pop("title", "")
        return {
            "text/html": document_html(html, title=title, **document),  # type: ignore[arg-type]
            "text/plain": document_text(text, title=title),  # type: ignore[arg-type]
        }


def chat_copy(chat: Any, rows: StaticRows, render_part: PartHtml | None, title: str) -> Bundle:
    """A chat's saved copy: the conversation shown (``rows`` kept per message); when that is a new, empty one,
    the last conversation before it, so a saved notebook never trades a conversation for "No messages yet."."""
    threads = chat.threads
    note = chat_note(chat.store, chat.read_only)
    if not chat.live_messages:
        earlier = next((t for t in threads if not t["current"] and t["turns"]), None)
        if earlier is not None:
            return static_bundle(
                chat.thread_messages(earlier["id"]), title=title or earlier["title"], threads=threads,
                note=f"{note} A new conversation was started after this one, “{earlier['title']}”.",
            )  # fmt: skip
    return rows.bundle(
        chat.live_messages, render_part=render_part, versions=chat.branch_versions(), title=title, note=note,
        threads=threads,
    )  # fmt: skip
