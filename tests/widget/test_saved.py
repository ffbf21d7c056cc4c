"""ChatWidget.save and ChatWidget.load: the saved conversation file."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._saved import SavedConversation
from tests.widget.sample_agents import agui_agent

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
USER = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}


async def test_save_and_load_round_trip(tmp_path: Path) -> None:
    chat = ChatWidget(agui_agent, thread_id="thread-1", state={"total": 0})
    await chat.send("What is 1 + 2?")
    path = tmp_path / "chat.json"
    chat.save(path)
    loaded = ChatWidget.load(path, agent=agui_agent, title="Restored")
    assert loaded.messages == chat.messages
    assert loaded.thread_id == "thread-1"
    assert loaded.state == {"total": 3, "count": 1}
    assert loaded.events == chat.events
    assert loaded.title == "Restored"
    with pytest.raises(ValueError, match="not a saved ChatWidget conversation"):
        ChatWidget.load(FIXTURES / "agui" / "reasoning_tool_text.jsonl")


def test_the_saved_document() -> None:
    events = [{"received_ns": 1, "event": {"type": "start"}}]
    saved = SavedConversation(thread_id="t1", messages=[USER], state={"step": 2}, events=events)
    assert orjson.loads(saved.to_json()) == {
        "format": "agui-notebook.chat",
        "version": 1,
        "threadId": "t1",
        "messages": [USER],
        "state": {"step": 2},
        "events": events,
    }
    assert SavedConversation.from_json(saved.to_json(), "chat.json") == saved


def test_missing_parts_of_a_saved_document_are_empty() -> None:
    saved = SavedConversation.from_json(b'{"format": "agui-notebook.chat", "messages": null}', "chat.json")
    assert saved == SavedConversation(thread_id=None, messages=[], state=None, events=[])


@pytest.mark.parametrize("data", [b"not json", b"[]", b'{"format": "other"}'])
def test_anything_else_is_not_a_saved_conversation(data: bytes) -> None:
    with pytest.raises(
        ValueError,
        match=r"^chat\.json: not a saved ChatWidget conversation \(no format 'agui-notebook\.chat'\)$",
    ):
        SavedConversation.from_json(data, "chat.json")


def test_read_and_write_a_file(tmp_path: Path) -> None:
    saved = SavedConversation(thread_id="t1", messages=[USER], state=None, events=[])
    saved.write(tmp_path / "chat.json")
    assert SavedConversation.read(tmp_path / "chat.json") == saved
    assert (tmp_path / "chat.json").read_bytes() == saved.to_json()


def test_events_javascript_would_write_are_saved() -> None:
    """A recorded event holds what a JavaScript producer sent: a lone surrogate, an integer beyond 64 bits."""
    events = [{"received_ns": 1, "event": {"type": "TEXT_MESSAGE_CONTENT", "delta": "\ud83d", "n": 2**70}}]
    saved = SavedConversation(thread_id="t1", messages=[USER], state=None, events=events)
    back = SavedConversation.from_json(saved.to_json(), "chat.json")
    assert back.events == [
        {"received_ns": 1, "event": {"type": "TEXT_MESSAGE_CONTENT", "delta": "\ud83d", "n": 2.0**70}}
    ]
