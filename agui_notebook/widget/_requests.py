"""What a view may ask of the kernel, and what each request does: one handler per kind (docs/widget.md).

A request is a custom message ``{"kind": ..., ...}`` from the front end. Its handler checks its shape (a request
the protocol does not define is a :class:`BadRequest`, explained in the widget) and calls the chat. Requests
that would start or change a run are refused while the agent answers, with a notice, and the run goes on.

>>> sorted(HANDLERS)[:4]
['approval', 'clear', 'delete_thread', 'edit']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from agui_notebook.chat._attachments import file_part
from agui_notebook.chat._chat import Chat
from agui_notebook.chat._interrupts import resend_interrupt
from agui_notebook.ui._changes import MessageChange

__all__ = [
    "BAD_REQUEST",
    "BUSY_KINDS",
    "BUSY_NOTICE",
    "HANDLERS",
    "BadRequest",
    "RequestView",
    "handle_request",
]

BAD_REQUEST = "the widget sent a request the kernel cannot read"
BUSY_NOTICE = "The agent is still answering: wait for it to finish or press Stop."
BUSY_KINDS = frozenset({"send", "regenerate", "approval", "interrupt", "edit", "select_branch"})
"""Requests refused while the agent answers (the thread ones carry ``stop: true`` when the user agreed)."""


class BadRequest(Exception):
    """A request from a view that is not one the protocol defines (docs/widget.md, JS -> Python)."""


class RequestView(Protocol):
    """What a handler needs of the view that asked."""

    def resync(self) -> None: ...

    def messages_changed(self, changes: list[MessageChange]) -> None: ...


Handler = Callable[[Chat, dict[str, Any], RequestView], object]  # what a handler returns is not used


def _string(content: Mapping[str, Any], key: str, kind: str, *, optional: bool = False) -> Any:
    value = content.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise BadRequest(f"{kind}: {key} is {type(value).__name__}, not a string")
    return value


def _place(chat: Chat, content: Mapping[str, Any], *, required: bool = True) -> int | None:
    """The place of the message a request names by ``messageId`` (and ``at``, its place in the view, which
    tells apart messages that share an id); None when the request names none and need not."""
    kind = content.get("kind")
    message_id, at = content.get("messageId"), content.get("at")
    if message_id is None and not required:
        return None
    if not isinstance(message_id, str):
        raise BadRequest(f"{kind}: messageId is {type(message_id).__name__}, not a string")
    messages = chat.live_messages
    if type(at) is int and 0 <= at < len(messages) and messages[at].get("id") == message_id:
        return at
    return chat.place_of(message_id)


def _send(chat: Chat, content: dict[str, Any], view: RequestView) -> None:
    text = _string(content, "text", "send", optional=True)
    files = content.get("files")
    if files is not None and not isinstance(files, list):
        raise BadRequest(f"send: files is {type(files).__name__}, not a list")
    parts = []
    for index, file in enumerate(files or []):
        try:
            if not isinstance(file, Mapping):
                raise TypeError(f"a {type(file).__name__}, not a file part")
            parts.append(file_part(file))
        except (TypeError, ValueError) as exc:
            raise BadRequest(f"send: files[{index}]: {exc}") from None
    chat.send_message(text or "", files=parts)


def _feedback(chat: Chat, content: dict[str, Any], view: RequestView) -> None:
    message_id, rating = content.get("messageId"), content.get("rating")
    if not isinstance(message_id, str) or rating not in ("up", "down", None):
        raise BadRequest("feedback: needs a string messageId and a rating 'up', 'down' or null")
    chat.feedback(message_id, rating, _string(content, "comment", "feedback", optional=True))


def _edit(chat: Chat, content: dict[str, Any], view: RequestView) -> None:
    text = _string(content, "text", "edit")
    chat.edit_at(_place(chat, content), text)  # type: ignore[arg-type]


def _select_branch(chat: Chat, content: dict[str, Any], view: RequestView) -> None:
    index = content.get("index")
    if type(index) is not int:
        raise BadRequest(f"select_branch: index is {type(index).__name__}, not an integer")
    chat.select_at(_place(chat, content), index)  # type: ignore[arg-type]


def _approval(chat: Chat, content: dict[str, Any], view: RequestView) -> None:
    approval_id, approved = content.get("approvalId"), content.get("approved")
    if not isinstance(approval_id, str) or not isinstance(approved, bool):
        raise BadRequest("approval: needs a string approvalId and a boolean approved")
    chat.answer_approval(approval_id, approved, reason=_string(content, "reason", "approval", optional=True))


def _interrupt(chat: Chat, content: dict[str, Any], view: RequestView) -> None:
    interrupt_id, status = content.get("interruptId"), content.get("status")
    if not isinstance(interrupt_id, str) or status not in ("resolved", "cancelled"):
        raise BadRequest("interrupt: needs a string interruptId and a status 'resolved' or 'cancelled'")
    try:
        chat.answer_interrupt(interrupt_id, content.get("payload"), cancel=status == "cancelled")
    except Exception:
        # Refused: the card waits for its part to change before it takes an answer again.
        view.messages_changed(resend_interrupt(chat.live_messages, interrupt_id))
        raise


def _thread_id(content: Mapping[str, Any]) -> str:
    return _string(content, "threadId", str(content.get("kind")))


HANDLERS: dict[str, Handler] = {
    "resync": lambda chat, content, view: view.resync(),
    "stop": lambda chat, content, view: chat.stop(),
    "clear": lambda chat, content, view: chat.clear(),
    "send": _send,
    "feedback": _feedback,
    "regenerate": lambda chat, content, view: chat.regenerate_at(_place(chat, content, required=False)),
    "edit": _edit,
    "select_branch": _select_branch,
    "approval": _approval,
    "interrupt": _interrupt,
    "new_thread": lambda chat, content, view: chat.new_thread(stop=content.get("stop") is True),
    "switch_thread": lambda chat, content, view: chat.switch_thread(
        _thread_id(content), stop=content.get("stop") is True
    ),
    "rename_thread": lambda chat, content, view: chat.rename_thread(
        _thread_id(content), _string(content, "title", "rename_thread")
    ),
    "delete_thread": lambda chat, content, view: chat.delete_thread(
        _thread_id(content), stop=content.get("stop") is True
    ),
}
"""The handler of each request kind."""


def handle_request(chat: Chat, content: Any, view: RequestView) -> None:
    """Do what a view asked; a request that cannot be read or honoured is explained in the widget (the chat's
    ``error``, its status unchanged), never raised. Unknown kinds are ignored (a newer front end's)."""
    if not isinstance(content, dict):
        return
    handler = HANDLERS.get(content.get("kind"))  # type: ignore[arg-type]
    if handler is None:
        return
    try:
        if chat.busy and content.get("kind") in BUSY_KINDS:
            chat.set_error(BUSY_NOTICE)
            return
        handler(chat, content, view)
    except BadRequest as exc:
        chat.set_error(f"{BAD_REQUEST}: {exc}")
    except Exception as exc:  # a request the kernel cannot honour: say why in the widget
        chat.set_error(f"{type(exc).__name__}: {exc}")
