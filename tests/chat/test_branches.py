"""Edit, regenerate and branches: the message tree (chat/_branches.py) and ChatWidget's use of it.

The widget tests drive real agents (a scripted one recording its run inputs, and a pydantic-ai agent whose
FunctionModel records what the model was given) and check, through the Python replica of the front end, that
the views, the saved trait and the run inputs only ever hold the selected path.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from ag_ui.core import RunAgentInput
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, UserPromptPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from agui_notebook import Branch
from agui_notebook.chat._branches import MessageTree, edited_parts
from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._requests import BUSY_NOTICE
from tests.widget.front_end import FrontEnd, assert_in_sync


def msg(message_id: str, role: str = "user", text: str | None = None) -> dict[str, Any]:
    return {"id": message_id, "role": role, "parts": [{"type": "text", "text": text or message_id}]}


def ids(messages: list[dict[str, Any]]) -> list[str]:
    return [m["id"] for m in messages]


def texts(messages: list[dict[str, Any]]) -> list[str]:
    return [" ".join(p["text"] for p in m["parts"] if p["type"] == "text") for m in messages]


def points(tree: MessageTree) -> list[tuple[int, int, int]]:
    return [(p["at"], p["index"], p["count"]) for p in tree.points()]


# ---------------------------------------------------------------------------------------------- the tree


def test_a_conversation_without_forks_is_one_path() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant")])
    assert ids(tree.messages) == ["u1", "a1"]
    assert tree.points() == [] and not tree.forked
    assert [(b.index, b.selected, b.message_ids) for b in tree.branches(1)] == [(0, True, ("a1",))]


def test_regenerating_twice_makes_three_alternatives_the_newest_selected() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant", "first")])
    for number, answer in ((2, "second"), (3, "third")):
        tree.sync(tree.messages)
        tree.cut(1)
        assert points(tree) == [(1, number - 1, number)]  # counted while the new answer is being written
        tree.sync([*tree.messages, msg(f"a{number}", "assistant", answer)])
    assert points(tree) == [(1, 2, 3)]
    assert [(b.index, b.selected, b.message_ids, b.preview) for b in tree.branches(1)] == [
        (0, False, ("a1",), "first"),
        (1, False, ("a2",), "second"),
        (2, True, ("a3",), "third"),
    ]
    assert ids(tree.select(1, 0)) == ["u1", "a1"]
    assert points(tree) == [(1, 0, 3)]


def test_an_edit_forks_at_the_user_message_and_keeps_what_followed() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant"), msg("u2"), msg("a2", "assistant")])
    tree.cut(2)
    tree.sync([*tree.messages, msg("u2b"), msg("a2b", "assistant")])
    assert points(tree) == [(2, 1, 2)]
    old = tree.branches(2)[0]
    assert old.message_ids == ("u2", "a2") and texts(old.messages) == ["u2", "a2"]
    assert ids(tree.select(2, 0)) == ["u1", "a1", "u2", "a2"]


def test_editing_inside_an_older_branch_nests_and_each_fork_remembers_its_choice() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant"), msg("u2"), msg("a2", "assistant")])
    tree.cut(0)  # edit the first question
    tree.sync([msg("u1b"), msg("a1b", "assistant")])
    tree.select(0, 0)  # back to the original conversation
    tree.cut(2)  # and edit its second question there
    tree.sync([*tree.messages, msg("u2c"), msg("a2c", "assistant")])
    assert ids(tree.messages) == ["u1", "a1", "u2c", "a2c"]
    assert points(tree) == [(0, 0, 2), (2, 1, 2)]
    tree.select(0, 1)
    assert ids(tree.messages) == ["u1b", "a1b"] and points(tree) == [(0, 1, 2)]
    # Back at the first fork, the choice made inside the original branch is still there.
    assert ids(tree.select(0, 0)) == ["u1", "a1", "u2c", "a2c"]
    assert [b.message_ids for b in tree.branches(0)] == [("u1", "a1", "u2c", "a2c"), ("u1b", "a1b")]


def test_selecting_a_branch_then_sending_continues_the_selected_path() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant")])
    tree.cut(1)
    tree.sync([*tree.messages, msg("a2", "assistant")])
    tree.select(1, 0)
    tree.sync([*tree.messages, msg("u3"), msg("a3", "assistant")])
    assert ids(tree.messages) == ["u1", "a1", "u3", "a3"]
    assert [b.message_ids for b in tree.branches(1)] == [("a1", "u3", "a3"), ("a2",)]


def test_a_cut_no_message_filled_gives_the_old_branch_back() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant"), msg("u2"), msg("a2", "assistant")])
    tree.cut(1)
    assert ids(tree.messages) == ["u1"] and points(tree) == [(1, 1, 2)]
    assert tree.settle() is True
    assert ids(tree.messages) == ["u1", "a1", "u2", "a2"] and points(tree) == []
    assert tree.settle() is False


def test_alternatives_may_share_a_message_id() -> None:
    tree = MessageTree([msg("u1"), msg("msg-1", "assistant", "one")])
    tree.cut(1)
    tree.sync([*tree.messages, msg("msg-1", "assistant", "two")])
    tree.sync([*tree.messages, msg("u2"), msg("msg-1", "assistant", "three")])
    assert tree.position("msg-1") == 3  # the latest of the path's
    assert [b.preview for b in tree.branches(1)] == ["one", "two"]
    assert texts(tree.select(1, 0)) == ["u1", "one"]


def test_the_path_follows_the_live_list_in_place() -> None:
    streamed = msg("a1", "assistant", "partial")
    tree = MessageTree([msg("u1"), streamed])
    grown = {**streamed, "id": "a1-final", "parts": [{"type": "text", "text": "whole"}]}
    tree.sync(
        [tree.messages[0], grown]
    )  # a message that changed (even its id) while it streamed is the same node
    assert tree.messages[1] is grown and not tree.forked


def test_an_agent_dropping_messages_drops_them_from_the_tree() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant"), msg("u2")])
    tree.sync(tree.messages[:2])  # a MESSAGES_SNAPSHOT without the last message
    assert ids(tree.messages) == ["u1", "a1"] and not tree.forked


def test_a_message_left_behind_is_a_copy_no_run_can_change() -> None:
    live = [msg("u1"), msg("a1", "assistant", "old")]
    tree = MessageTree(live)
    tree.cut(1)
    live[1]["parts"][0]["text"] = "changed in place"
    assert tree.branches(0)[0].messages[1]["parts"][0]["text"] == "old"


def test_places_out_of_range_are_errors() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant")])
    with pytest.raises(IndexError, match="branch 1 does not exist at message 1: there are 1"):
        tree.select(1, 1)
    with pytest.raises(IndexError, match="no message 5 in the conversation"):
        tree.branches(5)
    with pytest.raises(IndexError, match="cannot cut the conversation at 3"):
        tree.cut(3)
    with pytest.raises(KeyError, match="no message 'nope' in the conversation"):
        tree.position("nope")


def test_the_saved_tree_round_trips_with_every_selection() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant"), msg("u2"), msg("a2", "assistant")])
    tree.cut(2)
    tree.sync([*tree.messages, msg("u2b"), msg("a2b", "assistant")])
    tree.cut(1)
    tree.sync([*tree.messages, msg("a1c", "assistant")])
    tree.select(1, 0)  # the original answer, whose edited follow-up is still selected inside it
    saved = tree.to_saved()
    on_path = [n for n in saved["nodes"] if "at" in n]
    assert [n["at"] for n in on_path] == [0, 1, 2, 3]
    assert all("message" not in n for n in on_path)  # path messages are saved once, in "messages"
    back = MessageTree.from_saved(tree.messages, saved, "chat.json")
    assert ids(back.messages) == ["u1", "a1", "u2b", "a2b"]
    assert back.points() == tree.points() and back.to_saved() == saved
    assert ids(back.select(2, 0)) == ["u1", "a1", "u2", "a2"]
    assert ids(back.select(1, 1)) == ["u1", "a1c"]


def test_a_tree_saved_while_a_cut_waits_is_restored_on_load() -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant")])
    tree.cut(1)
    back = MessageTree.from_saved(tree.messages, tree.to_saved(), "chat.json")
    assert back.settle() and ids(back.messages) == ["u1", "a1"]


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda s: s.update(nodes=None), r"branches: not an object with a 'nodes' list"),
        (
            lambda s: s["nodes"][1].update(parent=5),
            r"branches\.nodes\[1\]\.parent: 5 is not the number of an earlier",
        ),
        (
            lambda s: s["nodes"][0].update(at=7),
            r"branches\.nodes\[0\]\.at: 7 is not a free place in the 2 messages",
        ),
        (lambda s: s["nodes"][1].update(message=3), r"branches\.nodes\[1\]\.message: not a message object"),
        (lambda s: s.update(selected=1), r"branches\.selected: 1 is not the number of one of its children"),
        (lambda s: s["nodes"][0].update(selected=1), r"branches: the selected branches do not lead through"),
    ],
)
def test_a_malformed_saved_tree_names_the_bad_value(change: Any, problem: str) -> None:
    tree = MessageTree([msg("u1"), msg("a1", "assistant")])
    tree.cut(1)
    tree.sync([*tree.messages, msg("a2", "assistant")])
    saved = tree.to_saved()
    change(saved)
    with pytest.raises(ValueError, match=rf"^chat\.json: {problem}"):
        MessageTree.from_saved(tree.messages, saved, "chat.json")


OPERATIONS = st.lists(
    st.tuples(st.sampled_from(["append", "cut", "select", "settle"]), st.integers(0, 50), st.integers(0, 50)),
    max_size=40,
)


@settings(max_examples=200, deadline=None)
@given(OPERATIONS)
def test_random_edits_regenerations_and_switches_lose_nothing(operations: list[tuple[str, int, int]]) -> None:
    """Whatever the user does, every message ever added stays in the tree, each fork's picker agrees with its
    branches, and the saved tree reads back as it was."""
    tree = MessageTree()
    made: list[str] = []
    for kind, a, b in operations:
        path = tree.messages
        if kind == "append":
            made.append(f"m{len(made)}")
            tree.sync([*path, msg(made[-1])])
        elif kind == "cut":
            tree.cut(a % (len(path) + 1))
        elif kind == "select" and path:
            at = a % len(path)
            index = b % len(tree.branches(at))
            tree.select(at, index)
            assert tree.branches(at)[index].selected
            assert ids(tree.messages[at:]) == list(tree.branches(at)[index].message_ids)
        elif kind == "settle":
            tree.settle()
        saved = tree.to_saved()
        kept = [n["message"]["id"] for n in saved["nodes"] if "message" in n] + ids(tree.messages)
        assert sorted(kept) == sorted(made)
        assert MessageTree.from_saved(tree.messages, saved, "t").to_saved() == saved
        for point in tree.points():
            if point["at"] < len(tree.messages):
                branches = tree.branches(point["at"])
                assert len(branches) == point["count"]
                assert [b.index for b in branches if b.selected] == [point["index"]]
        assert tree.forked == (tree.points() != [])


def test_edited_parts_keep_the_attachments_unless_told_otherwise() -> None:
    image = {"type": "file", "mediaType": "image/png", "url": "data:image/png;base64,AAAA"}
    data = {"type": "data-note", "data": {"x": 1}}
    old = {"parts": [image, {"type": "text", "text": "a"}, data, {"type": "text", "text": "b"}]}
    assert edited_parts(old, "new") == [image, {"type": "text", "text": "new"}, data]
    assert edited_parts(old, "") == [image, data]
    assert edited_parts({"parts": [image]}, "caption") == [image, {"type": "text", "text": "caption"}]
    other = {"type": "file", "mediaType": "text/plain", "url": "data:,x"}
    assert edited_parts(old, "new", files=[other]) == [other, {"type": "text", "text": "new"}]
    assert edited_parts(old, "new", files=[]) == [{"type": "text", "text": "new"}]


# ---------------------------------------------------------------------------------------------- the widget


class Scripted:
    """An agent answering ``answer N: <last user text>`` and keeping every run input."""

    def __init__(self, message_id: str | None = None) -> None:
        self.inputs: list[RunAgentInput] = []
        self.message_id = message_id  # reuse one message id for every answer, as scripted agents do

    def __call__(self, run_input: RunAgentInput) -> Iterator[Any]:
        self.inputs.append(run_input)
        question = next(m for m in reversed(run_input.messages) if m.role == "user")
        content = question.content if isinstance(question.content, str) else "[media]"
        text = f"answer {len(self.inputs)}: {content}"
        if self.message_id is None:
            yield text
            return
        yield {"type": "start", "messageId": self.message_id}
        yield {"type": "text-start", "id": "t"}
        yield {"type": "text-delta", "id": "t", "delta": text}
        yield {"type": "text-end", "id": "t"}
        yield {"type": "finish"}

    def sent(self, run: int = -1) -> list[tuple[str, str]]:
        """(role, content) of the messages run ``run`` was given."""
        return [
            (m.role, m.content if isinstance(m.content, str) else "[media]")
            for m in self.inputs[run].messages
        ]


async def conversation(agent: Any, *questions: str) -> tuple[ChatWidget, FrontEnd]:
    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    for question in questions:
        assert await chat.send_message(question) == "success"
    return chat, view


async def test_edit_runs_from_the_edited_message_with_only_the_selected_path() -> None:
    agent = Scripted()
    chat, view = await conversation(agent, "first", "second")
    second = chat.messages[2]["id"]
    assert await chat.edit(second, "second, edited") == "success"
    assert texts(chat.messages) == ["first", "answer 1: first", "second, edited", "answer 3: second, edited"]
    assert agent.sent() == [("user", "first"), ("assistant", "answer 1: first"), ("user", "second, edited")]
    assert [m.content for m in chat.agui_messages] == texts(chat.messages)
    assert [m.role for m in chat.ui_messages] == ["user", "assistant", "user", "assistant"]
    assert chat.branch_points == [{"at": 2, "index": 1, "count": 2}]
    old, new = chat.branches(chat.messages[2]["id"])
    assert isinstance(old, Branch)
    assert (old.index, old.selected, old.preview) == (0, False, "second")
    assert old.message_ids[0] == second and texts(old.messages) == ["second", "answer 2: second"]
    assert (new.index, new.selected, texts(new.messages)[0]) == (1, True, "second, edited")
    assert_in_sync(view, chat)
    assert view.trait_updates("branch_points")[-1] == chat.branch_points


async def test_select_branch_shows_the_other_path_and_the_next_send_continues_it() -> None:
    agent = Scripted()
    chat, view = await conversation(agent, "first", "second")
    await chat.edit(chat.messages[2]["id"], "other")
    sent_before = len(view.sent)
    chat.select_branch(chat.messages[2]["id"], 0)
    assert texts(chat.messages) == ["first", "answer 1: first", "second", "answer 2: second"]
    assert chat.branch_points == [{"at": 2, "index": 0, "count": 2}]
    snapshots = [d for d in view.sent[sent_before:] if d["method"] == "custom"]
    assert [d["content"]["kind"] for d in snapshots] == ["snapshot"]  # the views replace their messages
    assert_in_sync(view, chat)
    assert await chat.send_message("third") == "success"
    assert agent.sent() == [
        ("user", "first"), ("assistant", "answer 1: first"), ("user", "second"),
        ("assistant", "answer 2: second"), ("user", "third"),
    ]  # fmt: skip
    original, edited = chat.branches(chat.messages[2]["id"])
    assert texts(original.messages) == ["second", "answer 2: second", "third", "answer 4: third"]
    assert texts(edited.messages) == ["other", "answer 3: other"]  # untouched
    assert_in_sync(view, chat)


async def test_regenerate_an_older_answer_keeps_the_later_turns_as_a_branch() -> None:
    agent = Scripted()
    chat, view = await conversation(agent, "first", "second")
    first_answer = chat.messages[1]["id"]
    assert await chat.regenerate(first_answer) == "success"
    assert texts(chat.messages) == ["first", "answer 3: first"]
    assert agent.sent() == [("user", "first")]
    assert chat.branch_points == [{"at": 1, "index": 1, "count": 2}]
    old = chat.branches(chat.messages[1]["id"])[0]
    assert texts(old.messages) == ["answer 1: first", "second", "answer 2: second"]
    assert_in_sync(view, chat)


async def test_regenerating_twice_is_one_of_three_and_the_default_is_the_last_answer() -> None:
    agent = Scripted(message_id="msg-1")  # every answer has the same id
    chat, view = await conversation(agent, "question")
    await chat.regenerate()
    await chat.regenerate()
    assert texts(chat.messages) == ["question", "answer 3: question"]
    assert chat.branch_points == [{"at": 1, "index": 2, "count": 3}]
    assert [b.preview for b in chat.branches("msg-1")] == [
        "answer 1: question",
        "answer 2: question",
        "answer 3: question",
    ]
    chat.select_branch("msg-1", 0)
    assert texts(chat.messages) == ["question", "answer 1: question"]
    assert all(inputs.messages[-1].role == "user" for inputs in agent.inputs)
    assert_in_sync(view, chat)


async def test_only_assistant_messages_regenerate_and_only_user_messages_edit() -> None:
    chat, _ = await conversation(Scripted(), "q")
    user_id, answer_id = ids(chat.messages)
    with pytest.raises(ValueError, match=r"is a user message: only assistant messages can be regenerated"):
        chat.regenerate(user_id)
    with pytest.raises(ValueError, match=r"is a assistant message: only user messages can be edited"):
        chat.edit(answer_id, "x")
    with pytest.raises(KeyError, match="no message 'missing' in the conversation"):
        chat.edit("missing", "x")
    with pytest.raises(ValueError, match="nothing to send"):
        chat.edit(user_id, "")
    assert ids(chat.messages) == [user_id, answer_id] and chat.branch_points == []


async def test_edit_keeps_the_attachments_unless_files_are_given() -> None:
    agent = Scripted()
    chat = ChatWidget(agent)
    await chat.send_message("describe", files=[(b"\x89PNG", "image/png")])
    question = chat.messages[0]
    await chat.edit(question["id"], "describe it again")
    assert [p["type"] for p in chat.messages[0]["parts"]] == ["file", "text"]
    assert chat.messages[0]["parts"][0] == question["parts"][0]
    assert agent.sent() == [("user", "[media]")]
    await chat.edit(chat.messages[0]["id"], "no picture", files=[])
    assert chat.messages[0]["parts"] == [{"type": "text", "text": "no picture"}]
    assert agent.sent() == [("user", "no picture")]
    assert chat.branch_points == [{"at": 0, "index": 2, "count": 3}]


async def test_a_regeneration_stopped_before_it_answered_gives_the_old_answer_back() -> None:
    answered = asyncio.Event()

    async def agent(run_input: RunAgentInput) -> AsyncIterator[str]:
        if len(run_input.messages) == 1 and answered.is_set():
            await asyncio.sleep(30)  # the regeneration never starts answering
        answered.set()
        yield "the answer"

    chat, view = await conversation(agent, "q")
    before = chat.messages
    task = chat.regenerate()
    await asyncio.sleep(0.05)
    assert ids(chat.messages) == [before[0]["id"]] and chat.branch_points == [
        {"at": 1, "index": 1, "count": 2}
    ]
    chat.stop()
    assert await task == "cancelled"
    assert chat.messages == before and chat.branch_points == []
    assert_in_sync(view, chat)


async def test_a_run_in_progress_refuses_edits_and_switches() -> None:
    release = asyncio.Event()

    async def agent(run_input: RunAgentInput) -> AsyncIterator[str]:
        yield "partial"
        await release.wait()

    chat, view = await conversation(Scripted(), "q")
    await chat.regenerate()
    chat.agent = agent
    question, answer = ids(chat.messages)
    task = chat.send_message("slow")
    while chat.status != "streaming":
        await asyncio.sleep(0.005)
    for call in (
        lambda: chat.edit(question, "x"),
        lambda: chat.regenerate(answer),
        lambda: chat.select_branch(answer, 0),
    ):
        with pytest.raises(
            RuntimeError, match="while the agent is answering: await the current run or call stop"
        ):
            call()
    for request in (
        {"kind": "edit", "messageId": question, "at": 0, "text": "x"},
        {"kind": "select_branch", "messageId": answer, "at": 1, "index": 0},
        {"kind": "regenerate", "messageId": answer, "at": 1},
    ):
        view.request(request)
        assert chat.error == BUSY_NOTICE
    release.set()
    assert await task == "success"
    assert len(chat.messages) == 4 and chat.branch_points == [{"at": 1, "index": 1, "count": 2}]
    chat.branches(answer)  # reading is fine at any time


async def test_the_views_requests_name_the_message_and_its_place() -> None:
    agent = Scripted(message_id="msg-1")
    chat, view = await conversation(agent, "one", "two")
    assert ids(chat.messages)[1::2] == ["msg-1", "msg-1"]
    view.request({"kind": "regenerate", "messageId": "msg-1", "at": 1})  # the first of two with that id
    assert await chat.task == "success"
    assert texts(chat.messages) == ["one", "answer 3: one"]
    view.request({"kind": "select_branch", "messageId": "msg-1", "at": 1, "index": 0})
    assert texts(chat.messages) == ["one", "answer 1: one", "two", "answer 2: two"]
    view.request({"kind": "edit", "messageId": chat.messages[0]["id"], "at": 0, "text": "uno"})
    assert await chat.task == "success"
    assert texts(chat.messages) == ["uno", "answer 4: uno"]
    assert chat.branch_points == [{"at": 0, "index": 1, "count": 2}]
    view.request({"kind": "regenerate"})  # Retry: the last answer
    assert await chat.task == "success"
    assert chat.branch_points == [{"at": 0, "index": 1, "count": 2}, {"at": 1, "index": 1, "count": 2}]
    assert_in_sync(view, chat)


@pytest.mark.parametrize(
    ("request_", "error"),
    [
        ({"kind": "edit", "messageId": 3, "text": "x"}, "edit: messageId is int, not a string"),
        ({"kind": "edit", "messageId": "m"}, "edit: text is NoneType, not a string"),
        (
            {"kind": "select_branch", "messageId": "m", "index": "0"},
            "select_branch: index is str, not an integer",
        ),
        (
            {"kind": "select_branch", "messageId": "m", "index": True},
            "select_branch: index is bool, not an integer",
        ),
        ({"kind": "regenerate", "messageId": ["m"]}, "regenerate: messageId is list, not a string"),
        (
            {"kind": "select_branch", "messageId": "nope", "index": 0},
            "MessageNotFoundError: no message 'nope' in the conversation or its branches",
        ),
    ],
)
async def test_requests_the_kernel_cannot_read_change_nothing(request_: dict[str, Any], error: str) -> None:
    chat, view = await conversation(Scripted(), "q")
    before = chat.messages
    view.request(request_)
    assert chat.error.endswith(error) and chat.messages == before and chat.task.done()  # type: ignore[union-attr]
    assert_in_sync(view, chat)


async def test_clear_and_messages_set_from_python_start_a_tree_without_branches() -> None:
    chat, view = await conversation(Scripted(), "q")
    await chat.regenerate()
    assert chat.branch_points != []
    chat.messages = [msg("u9"), msg("a9", "assistant")]
    assert chat.branch_points == [] and [len(chat.branches(i)) for i in ("u9", "a9")] == [1, 1]
    await chat.regenerate("a9")
    assert chat.branch_points == [{"at": 1, "index": 1, "count": 2}]
    chat.clear()
    assert chat.branch_points == [] and chat.messages == []
    assert view.trait_updates("branch_points")[-1] == []


async def test_every_branchs_events_stay_in_the_events() -> None:
    chat, _ = await conversation(Scripted(message_id="m"), "q")
    await chat.regenerate()
    chat.select_branch("m", 0)
    assert [r["event"]["type"] for r in chat.events].count("start") == 2


# ---------------------------------------------------------------------------------------------- pydantic-ai


def recording_agent() -> tuple[Agent, list[list[str]]]:
    """A pydantic-ai agent whose model answers with the user prompts it was given (and records them)."""
    prompts: list[list[str]] = []

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        seen = [
            part.content
            for message in messages
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, UserPromptPart) and isinstance(part.content, str)
        ]
        prompts.append(seen)
        yield f"heard {len(seen)}: " + " / ".join(seen)

    return Agent(FunctionModel(stream_function=stream)), prompts


async def test_a_pydantic_ai_agent_sees_only_the_selected_path() -> None:
    agent, prompts = recording_agent()
    chat, view = await conversation(agent, "alpha", "beta")
    assert texts(chat.messages)[3] == "heard 2: alpha / beta"
    await chat.edit(chat.messages[2]["id"], "gamma")
    assert prompts[-1] == ["alpha", "gamma"]
    await chat.regenerate(chat.messages[1]["id"])
    assert prompts[-1] == ["alpha"]
    chat.select_branch(chat.messages[1]["id"], 0)  # the first answer, with its edited follow-up selected
    assert texts(chat.messages) == ["alpha", "heard 1: alpha", "gamma", "heard 2: alpha / gamma"]
    await chat.send_message("delta")
    assert prompts[-1] == ["alpha", "gamma", "delta"]
    chat.select_branch(chat.messages[2]["id"], 0)  # the unedited "beta"
    await chat.regenerate()
    assert prompts[-1] == ["alpha", "beta"]
    assert texts(chat.messages)[2:] == ["beta", "heard 2: alpha / beta"]
    assert chat.branch_points == [
        {"at": 1, "index": 0, "count": 2},
        {"at": 2, "index": 0, "count": 2},
        {"at": 3, "index": 1, "count": 2},
    ]
    assert_in_sync(view, chat)


# ---------------------------------------------------------------------------------------------- the saved notebook


async def test_the_static_copy_and_the_widget_state_follow_the_selected_path() -> None:
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    chat = ChatWidget(Scripted(), title="Chat")
    with capture_output():
        InteractiveShell.instance().display_formatter.format(chat)
    await chat.send_message("first")
    with capture_output() as edited:
        await chat.edit(chat.messages[0]["id"], "second")
    assert [o.data["text/plain"] for o in edited.outputs][
        -1
    ] == "Chat\nuser: second\nassistant: answer 2: second"
    with capture_output() as switched:
        chat.select_branch(chat.messages[0]["id"], 0)
    assert [o.data["text/plain"] for o in switched.outputs] == [
        "Chat\nuser: first\nassistant: answer 1: first"
    ]
    # The HTML copy keeps the other version, folded under the message where the conversation forked.
    html = switched.outputs[-1].data["text/html"]
    assert "This is version 1 of 2 · version 2 below</summary>" in html
    folded = html.split('<details class="agui-static-versions">', 1)[1].split("</details>", 1)[0]
    assert "<strong>Version 2</strong>" in folded and "second" in folded and "answer 2: second" in folded
    assert html.count('<details class="agui-static-versions">') == 1
    state = chat.get_state()  # what "Save Widget State" writes into the notebook: no copy of the conversation
    assert state["branch_points"] == [{"at": 0, "index": 0, "count": 2}]
    assert "messages" not in state and texts(chat.messages) == ["first", "answer 1: first"]


async def test_an_approval_waiting_in_a_branch_left_behind_can_be_answered_once_selected_again() -> None:
    from tests.support.pydantic_ai_runs import make_approval_agent

    chat = ChatWidget(make_approval_agent())
    view = FrontEnd(chat)
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    answer_id = chat.messages[1]["id"]
    assert await chat.regenerate() == "interrupt"  # the new answer asks again; the old one still waits, aside
    old = chat.branches(chat.messages[1]["id"])[0]
    assert old.message_ids == (answer_id,)
    assert old.messages[0]["parts"][-1]["state"] == "approval-requested"
    chat.select_branch(chat.messages[1]["id"], 0)
    assert chat.messages[1]["id"] == answer_id
    assert await chat.answer_approval("int-call_d", True) == "success"
    assert [m["role"] for m in chat.messages] == ["user", "assistant"]  # the old answer continued
    assert chat.messages[1]["parts"][-1]["text"] == "Deleted `/tmp/x`."
    tool = next(p for p in chat.messages[1]["parts"] if p["type"] == "tool-delete_file")
    assert tool["state"] == "output-available"
    other = chat.branches(answer_id)[1]
    assert other.messages[0]["parts"][-1]["state"] == "approval-requested"  # the other branch is as it was
    assert_in_sync(view, chat)
