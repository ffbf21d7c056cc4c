"""ChatWidget.save and ChatWidget.load: the saved conversation file."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agui_notebook import ChatLogError
from agui_notebook.chat._saved import SavedConversation
from agui_notebook.widget._chat import ChatWidget
from tests.widget.sample_agents import agui_agent

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
USER = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}


async def test_save_and_load_round_trip(tmp_path: Path) -> None:
    chat = ChatWidget(agui_agent, thread_id="thread-1", state={"total": 0})
    await chat.send_message("What is 1 + 2?")
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
        "version": 4,
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


async def test_branches_survive_save_and_load(tmp_path: Path) -> None:
    from tests.chat.test_branches import Scripted, texts

    agent = Scripted()
    chat = ChatWidget(agent, thread_id="thread-1")
    await chat.send_message("first")
    await chat.send_message("second")
    await chat.edit(chat.messages[2]["id"], "second, edited")
    await chat.regenerate(chat.messages[1]["id"])
    chat.select_branch(chat.messages[1]["id"], 0)  # back to the first answer and its edited follow-up
    path = tmp_path / "chat.json"
    chat.save(path)
    document = orjson.loads(path.read_bytes())
    assert document["version"] == 4 and document["messages"] == chat.messages
    assert sum("message" in node for node in document["branches"]["nodes"]) == 3  # the off-path ones only

    loaded = ChatWidget.load(path, agent=agent)
    assert loaded.messages == chat.messages
    assert (
        loaded.branch_points
        == chat.branch_points
        == [
            {"at": 1, "index": 0, "count": 2},
            {"at": 2, "index": 1, "count": 2},
        ]
    )
    assert [b.message_ids for b in loaded.branches(loaded.messages[2]["id"])] == [
        b.message_ids for b in chat.branches(chat.messages[2]["id"])
    ]
    loaded.select_branch(loaded.messages[2]["id"], 0)
    assert texts(loaded.messages) == ["first", "answer 1: first", "second", "answer 2: second"]
    await loaded.send_message("third")  # the loaded tree grows like the live one
    assert [m.content for m in agent.inputs[-1].messages][-1] == "third"
    assert len(agent.inputs[-1].messages) == 5


async def test_a_conversation_without_branches_saves_none(tmp_path: Path) -> None:
    chat = ChatWidget(agui_agent)
    await chat.send_message("hi")
    chat.save(tmp_path / "chat.json")
    assert "branches" not in orjson.loads((tmp_path / "chat.json").read_bytes())


def test_a_version_1_document_still_loads(tmp_path: Path) -> None:
    answer = {"id": "a1", "role": "assistant", "parts": [{"type": "text", "text": "hello"}]}
    document = {
        "format": "agui-notebook.chat",
        "version": 1,
        "threadId": "t1",
        "messages": [USER, answer],
        "state": {"n": 1},
        "events": [],
        "branches": "ignored: version 1 has none",
    }
    (tmp_path / "v1.json").write_bytes(orjson.dumps(document))
    loaded = ChatWidget.load(tmp_path / "v1.json")
    assert loaded.messages == [USER, answer] and loaded.thread_id == "t1" and loaded.state == {"n": 1}
    assert loaded.branch_points == [] and len(loaded.branches("a1")) == 1


@pytest.mark.parametrize(
    ("version", "problem"),
    [
        (
            5,
            "version 5 of the saved conversation format is newer than this agui-notebook reads (1 to 4): a newer agui-notebook wrote it",
        ),
        ("2", "version: '2' is not a version of the saved conversation format"),
        (0, "version: 0 is not a version of the saved conversation format"),
    ],
)
def test_a_version_this_package_does_not_know_is_refused(version: object, problem: str) -> None:
    data = orjson.dumps({"format": "agui-notebook.chat", "version": version, "messages": []})
    with pytest.raises(ChatLogError) as raised:
        SavedConversation.from_json(data, "chat.json")
    assert str(raised.value) == f"chat.json: {problem}" and isinstance(raised.value, ValueError)


@pytest.mark.parametrize(
    ("document", "problem"),
    [
        ({"messages": "hi"}, "messages: a str, not a list"),
        ({"messages": ["hi"]}, "messages[0]: a str, not a message object"),
        ({"events": {"a": 1}}, "events: a dict, not a list"),
        ({"threadId": 7}, "threadId: a int, not a str"),
    ],
)
def test_a_document_whose_fields_are_of_the_wrong_kind_names_the_field(document: dict, problem: str) -> None:
    data = orjson.dumps({"format": "agui-notebook.chat", "version": 1, **document})
    with pytest.raises(ChatLogError, match=rf"^chat\.json: {re.escape(problem)}$"):
        SavedConversation.from_json(data, "chat.json")


def test_a_file_that_cannot_be_read_is_named(tmp_path: Path) -> None:
    with pytest.raises(ChatLogError, match=r"missing\.json: cannot read the saved conversation"):
        ChatWidget.load(tmp_path / "missing.json")


def test_branches_that_do_not_fit_the_messages_are_refused() -> None:
    branches = {"selected": 0, "nodes": [{"parent": None, "selected": None, "at": 1}]}
    data = orjson.dumps(
        {"format": "agui-notebook.chat", "version": 2, "messages": [USER], "branches": branches}
    )
    with pytest.raises(
        ValueError, match=r"^chat\.json: branches\.nodes\[0\]\.at: 1 is not a free place in the 1"
    ):
        SavedConversation.from_json(data, "chat.json")


async def test_run_inputs_survive_save_and_load_with_each_message_once(tmp_path: Path) -> None:
    """The user's turns are in the run inputs, which the records keep as changes of the previous one: a loaded
    chat inspects and forks as the chat did, and a picture sent once is not written again at every turn."""
    from agui_notebook import fork, inspect_run, load_events

    chat = ChatWidget(agui_agent, thread_id="thread-1")
    picture = bytes(30_000)  # 40,000 characters of base64 in each run input that repeats it
    await chat.send_message("What is 1 + 2?", files=[(picture, "image/png")])
    await chat.send_message("And 2 + 3?")
    await chat.send_message("And 3 + 4?")
    path = tmp_path / "chat.json"
    chat.save(path)
    document = orjson.loads(path.read_bytes())
    assert "runInputs" not in document  # the run-start records hold them
    # The picture: in the messages, in the record of the turn that sent it, and in the first run's input.
    assert path.read_bytes().count(b"A" * 40_000) == 3
    loaded = ChatWidget.load(path, agent=agui_agent)
    assert loaded.run_inputs == chat.run_inputs
    assert inspect_run(loaded).messages == inspect_run(chat).messages
    assert [m["role"] for m in inspect_run(loaded).messages].count("user") == 3
    at = len(load_events(chat)) - 1
    assert fork(loaded, at=at).messages == fork(chat, at=at).messages
    assert [m.role for m in fork(loaded, at=at).messages].count("user") == 3


@pytest.mark.parametrize(
    "run_inputs",
    [{"messages": []}, {"messages": [], "inputs": [{"events": 0, "input": {"messages": [3]}}]},
     {"messages": [{"id": "u"}], "inputs": [{"events": 0, "input": {"messages": [-1]}}]},
     {"messages": [], "inputs": [{"events": -1, "input": {}}]}, [1, 2],
     {"messages": "ab", "inputs": [{"events": 0, "input": {"messages": [0]}}]},
     {"messages": [], "inputs": [{"events": 0, "input": [["messages", []]]}]},
     {"messages": [{"id": "x"}], "inputs": [{"events": 0, "input": {"threadId": "t", "runId": "r", "messages": [0],
      "tools": [], "context": [], "state": None, "forwardedProps": None}}]}],
)  # fmt: skip
def test_run_inputs_not_as_written_are_refused(run_inputs: object) -> None:
    data = orjson.dumps(
        {"format": "agui-notebook.chat", "version": 3, "messages": [], "runInputs": run_inputs}
    )
    with pytest.raises(ValueError, match=r"^chat\.json: runInputs are not as ChatWidget.save writes them"):
        SavedConversation.from_json(data, "chat.json")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["messages", "inputs", "events", "input", "id"]), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(run_inputs=json_values)
def test_any_run_inputs_read_as_written_or_are_refused_by_name(run_inputs: object) -> None:
    data = orjson.dumps(
        {"format": "agui-notebook.chat", "version": 3, "messages": [], "runInputs": run_inputs}
    )
    try:
        saved = SavedConversation.from_json(data, "chat.json")
    except ValueError as exc:
        assert str(exc).startswith("chat.json: runInputs are not as ChatWidget.save writes them")
        return
    for count, wire in saved.run_inputs:
        assert type(count) is int and count >= 0 and type(wire) is dict
        assert all(type(m) is dict for m in wire["messages"])
