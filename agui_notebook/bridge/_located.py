"""Where a conversion failed: the event or message a bridge entry point could not take, named by its place.

The converters run on plain dicts without checking them first (that would cost every call); when one fails
on input it cannot take, these helpers find the culprit and raise the package's error naming it:
:class:`~agui_notebook.EventParseError` with the event's index (and line), or
:class:`~agui_notebook.MessageValidationError` with the JSON path of the bad value.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any, Literal, TypeVar

from pydantic import BaseModel

from agui_notebook._errors import (
    AguiNotebookError,
    EventParseError,
    JsonValueError,
    MessageValidationError,
    internal_failure,
)
from agui_notebook._options import listed
from agui_notebook.agui._intake import iter_event_records, unprocessable_event
from agui_notebook.agui._thread import _MESSAGE_LIST, validated
from agui_notebook.ui._validate import validate_ui_messages

__all__ = ["conversion_errors", "locate_event_failure"]

Side = Literal["agui", "ui", "either"]
F = TypeVar("F", bound=Callable[..., Any])


def conversion_errors(side: Side, *, method: bool = False) -> Callable[[F], F]:
    """Make a message converter raise only the package's errors: a failure on its input becomes a
    :class:`MessageValidationError` naming the message (and, when the input is not valid, the bad value).

    ``side`` says what the converter takes: AG-UI messages, UIMessages, or ``"either"`` (told apart as
    ``to_openai_messages`` tells them); ``method`` skips ``self``.
    """

    def wrap(convert: F) -> F:
        @functools.wraps(convert)
        def converted(*args: Any, **kwargs: Any) -> Any:
            if len(args) <= method:  # no messages given (a default)
                return convert(*args, **kwargs)
            head, (messages, *rest) = (args[:1], args[1:]) if method else ((), args)
            items = listed(messages, "messages", "messages")
            try:
                return convert(*head, items, *rest, **kwargs)
            except AguiNotebookError:
                raise
            except Exception as exc:
                raise _message_failure(
                    items, exc, side, lambda one: convert(*head, one, *rest, **kwargs)
                ) from exc

        return converted  # type: ignore[return-value]  # functools.wraps keeps the signature: the same F

    return wrap


def _looks_like_ui(items: list[Any]) -> bool:
    return bool(items) and all(
        (isinstance(m, dict) and "parts" in m) or (not isinstance(m, dict) and hasattr(m, "parts"))
        for m in items
    )


def _message_failure(
    items: list[Any], exc: BaseException, side: Side, convert_one: Callable[[list[Any]], Any]
) -> MessageValidationError:
    if side == "either":
        side = "ui" if _looks_like_ui(items) else "agui"
    try:
        if side == "ui":
            validate_ui_messages(items)
        else:
            dicts = [
                m.model_dump(mode="json", by_alias=True) if isinstance(m, BaseModel) else m for m in items
            ]
            validated(_MESSAGE_LIST, dicts, "messages")
    except MessageValidationError as error:
        return error  # the input is not valid: the first bad value, by its path
    except Exception:
        pass
    for index, message in enumerate(items):  # valid, and still not convertible: which message?
        try:
            convert_one([message])
        except Exception as one:
            return MessageValidationError(
                f"messages[{index}]", f"cannot be converted ({internal_failure(one)})"
            )
    return MessageValidationError("messages", f"cannot be converted ({internal_failure(exc)})")


def locate_event_failure(
    source: Any, events: list[dict[str, Any]], exc: BaseException, fresh: Callable[[], Callable[[Any], Any]]
) -> EventParseError | JsonValueError:
    """The error for a conversion of ``events`` (read from ``source``) that failed with ``exc``.

    ``fresh()`` gives the push of a new converter; the events are pushed one at a time until one fails. When
    ``source`` can be read again the culprit is named by its index in the input (and its line); otherwise by
    its index among the events as read (chunks expanded).
    """
    push = fresh()
    if not isinstance(source, Iterator):
        for record in iter_event_records(source):
            if record.event is None:
                continue
            try:
                push(record.event)
            except Exception as error:
                return unprocessable_event(
                    record.event, error, index=record.index, source=record.source, line=record.line
                )
    else:
        for index, event in enumerate(events):
            try:
                push(event)
            except Exception as error:
                return unprocessable_event(event, error, index=index)
    return unprocessable_event(None, exc, index=len(events) - 1)
