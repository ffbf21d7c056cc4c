"""Where a conversion failed: converters name the bad message (and value), event entry points the bad event."""

from __future__ import annotations

from typing import Any

import pytest

from agui_notebook import EventParseError, MessageValidationError
from agui_notebook.bridge._located import conversion_errors, locate_event_failure


def test_an_invalid_message_is_named_by_the_path_of_its_bad_value():
    @conversion_errors("agui")
    def convert(messages: list[Any]) -> list[Any]:
        return [m["content"].upper() for m in messages]

    messages = [
        {"id": "u1", "role": "user", "content": "hi"},
        {"id": "a1", "role": "assistant", "toolCalls": 3},
    ]
    with pytest.raises(MessageValidationError, match=r"^messages\[1\]\.toolCalls") as caught:
        convert(messages)
    assert isinstance(caught.value.__cause__, KeyError)  # the converter's own failure stays attached


def test_a_valid_message_the_converter_cannot_take_is_named_by_its_index():
    @conversion_errors("ui")
    def convert(messages: list[Any]) -> list[Any]:
        return [m["parts"][0]["text"] for m in messages]

    messages = [
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]},
        {"id": "a1", "role": "assistant", "parts": []},
    ]
    with pytest.raises(MessageValidationError, match=r"^messages\[1\]: cannot be converted \(IndexError"):
        convert(messages)
    assert convert(messages[:1]) == ["hi"]


def test_the_package_s_own_errors_pass_through_unchanged():
    own = MessageValidationError("messages[0]", "already located")

    @conversion_errors("either")
    def convert(messages: list[Any]) -> None:
        raise own

    with pytest.raises(MessageValidationError) as caught:
        convert([])
    assert caught.value is own


class _Picky:
    """A converter that cannot take the event whose delta is a number."""

    def push(self, event: dict[str, Any]) -> None:
        if not isinstance(event.get("delta", ""), str):
            raise TypeError("can only concatenate str")


def test_the_event_that_failed_is_named_by_its_index_and_line_in_the_input():
    text = (
        '{"type":"RUN_STARTED","threadId":"t","runId":"r"}\n'
        '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"a"}\n'
        '{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":5}\n'
    )
    error = locate_event_failure(text, [], TypeError("boom"), lambda: _Picky().push)
    assert isinstance(error, EventParseError)
    assert (error.index, error.line) == (2, 3)
    assert "TEXT_MESSAGE_CONTENT" in str(error)


def test_events_read_once_are_named_by_their_place_among_the_events():
    events = [{"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": d} for d in ("a", "b", 7)]
    error = locate_event_failure(iter(events), events, TypeError("boom"), lambda: _Picky().push)
    assert error.index == 2
