"""Feedback on answers: ``chat.feedback`` and the view's ``feedback`` request, kept in the message's metadata,
recorded in ``chat.events`` and read by ``messages_df``; it survives save/load and never reaches the agent."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook import load_events, messages_df
from agui_notebook.chat._feedback import message_feedback
from agui_notebook.logs._kinds import FEEDBACK_EVENT_NAME
from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._requests import BAD_REQUEST
from tests.support.pydantic_ai_runs import SCENARIOS, make_agent
from tests.widget.front_end import FrontEnd, assert_in_sync
from tests.widget.sample_agents import agui_agent, chunk_agent

ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"


def _feedback_records(chat: ChatWidget) -> list[dict[str, Any]]:
    return [
        r["event"]["value"]
        for r in chat.events
        if r["event"].get("type") == "CUSTOM" and r["event"].get("name") == FEEDBACK_EVENT_NAME
    ]


async def test_a_rating_is_kept_in_the_metadata_the_events_and_messages_df() -> None:
    chat = ChatWidget(agui_agent)
    view = FrontEnd(chat)
    assert await chat.send_message("sum") == "success"
    answer = chat.messages[1]
    chat.feedback(answer["id"], "down", "It should show the steps")
    entry = chat.messages[1]["metadata"]["agui-notebook"]["feedback"]
    assert entry["rating"] == "down" and entry["comment"] == "It should show the steps"
    assert re.fullmatch(ISO, entry["at"])
    assert chat.messages[1]["metadata"]["ag-ui"]["runId"] == "run-a"  # the rest of the metadata stays
    assert view.ops()[-1][0] == "meta"  # one small op, not the whole message
    assert_in_sync(view, chat)
    records = _feedback_records(chat)
    assert records == [
        {
            "messageId": "run-a",
            "messageIds": ["r1", "m2"],
            "rating": "down",
            "comment": "It should show the steps",
            "at": entry["at"],
        }
    ]
    table = messages_df(chat)
    assert table[["message_id", "feedback", "feedback_comment"]].values.tolist() == [
        ["r1", "down", "It should show the steps"],
        ["m2", "down", "It should show the steps"],
    ]
    # Changing the rating: the last one wins; taking it back clears metadata and columns.
    chat.feedback(answer["id"], "up")
    assert message_feedback(chat.messages[1]) == {
        "rating": "up",
        "at": chat.events[-1]["event"]["value"]["at"],
    }
    assert messages_df(chat)["feedback"].tolist() == ["up", "up"]
    chat.feedback(answer["id"], None)
    assert "agui-notebook" not in chat.messages[1]["metadata"]
    assert messages_df(chat)["feedback"].isna().all()
    assert [r["rating"] for r in _feedback_records(chat)] == ["down", "up", None]
    assert_in_sync(view, chat)


async def test_the_view_sends_a_feedback_request() -> None:
    chat = ChatWidget(agui_agent)
    view = FrontEnd(chat)
    assert await chat.send_message("sum") == "success"
    view.request({"kind": "feedback", "messageId": "run-a", "rating": "up"})
    assert message_feedback(chat.messages[1])["rating"] == "up"
    view.request({"kind": "feedback", "messageId": "run-a", "rating": "down", "comment": "wrong"})
    assert message_feedback(chat.messages[1])["comment"] == "wrong"
    assert view.state["messages"][1]["metadata"]["agui-notebook"]["feedback"]["comment"] == "wrong"
    assert chat.error == ""
    view.request({"kind": "feedback", "messageId": "run-a", "rating": "meh"})
    assert chat.error.startswith(BAD_REQUEST)
    view.request({"kind": "feedback", "messageId": "nope", "rating": "up"})
    assert "no message 'nope' in the conversation or its branches" in chat.error
    assert message_feedback(chat.messages[1])["rating"] == "down"  # refused requests change nothing


async def test_only_answers_are_rated_with_a_known_rating() -> None:
    chat = ChatWidget(agui_agent)
    FrontEnd(chat)
    assert await chat.send_message("sum") == "success"
    user_id = chat.messages[0]["id"]
    with pytest.raises(ValueError, match="is a user message, not an answer"):
        chat.feedback(user_id, "up")
    with pytest.raises(KeyError, match="no message 'x' in the conversation or its branches"):
        chat.feedback("x", "up")
    with pytest.raises(ValueError, match="rating must be 'up', 'down' or None"):
        chat.feedback("run-a", "👍")
    with pytest.raises(ValueError, match="a comment needs a rating"):
        chat.feedback("run-a", None, "why")
    assert _feedback_records(chat) == []


async def test_feedback_survives_save_and_load_and_stays_out_of_the_run_input(tmp_path: Path) -> None:
    inputs: list[RunAgentInput] = []

    def agent(run_input: RunAgentInput) -> Any:
        inputs.append(run_input)
        yield from agui_agent(run_input)

    chat = ChatWidget(agent)
    FrontEnd(chat)
    assert await chat.send_message("sum") == "success"
    chat.feedback("run-a", "up")
    chat.save(tmp_path / "chat.json")
    loaded = ChatWidget.load(tmp_path / "chat.json", agent=agent)
    assert message_feedback(loaded.messages[1])["rating"] == "up"
    assert messages_df(loaded)["feedback"].tolist() == ["up", "up"]
    # The recorded log, written to a file, reads back the same.
    path = tmp_path / "events.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in loaded.events))
    assert messages_df(str(path))["feedback"].tolist() == ["up", "up"]
    names = [e.get("name") for e in load_events(str(path))["event"] if e["type"] == "CUSTOM"]
    assert names.count("agui-notebook/feedback") == 1
    assert await loaded.send_message("again") == "success"
    sent = inputs[-1].model_dump_json()
    assert "feedback" not in sent and "agui-notebook" not in sent


async def test_an_ai_sdk_answer_is_rated_through_its_run() -> None:
    chat = ChatWidget(chunk_agent)
    FrontEnd(chat)
    assert await chat.send_message("hi") == "success"
    answer = chat.messages[1]
    chat.feedback(answer["id"], "down")
    table = messages_df(chat)
    assert set(table["run_id"]) == {answer["id"]}
    assert table["feedback"].tolist() == ["down"] * len(table)


async def test_a_pydantic_ai_answer_is_rated() -> None:
    chat = ChatWidget(make_agent(SCENARIOS["reasoning_tool_text"]))
    FrontEnd(chat)
    assert await chat.send_message("weather?") == "success"
    assert await chat.send_message("and tomorrow?") == "success"
    first, second = chat.messages[1], chat.messages[3]
    chat.feedback(first["id"], "up")
    chat.feedback(second["id"], "down", "no forecast")
    table = messages_df(chat)
    shown = [
        (r, f if isinstance(f, str) else None, c if isinstance(c, str) else None)
        for r, f, c in zip(table["role"], table["feedback"], table["feedback_comment"], strict=True)
    ]
    # pydantic-ai opens an empty text message before the tool call: it makes no part, so no rating reaches it.
    assert shown == [("reasoning", "up", None), ("assistant", None, None), ("assistant", "up", None),
                     ("assistant", "down", "no forecast")]  # fmt: skip
    assert table["run_id"].tolist()[-1] == second["metadata"]["ag-ui"]["runId"]
    assert table["run_id"].tolist()[0] == first["metadata"]["ag-ui"]["runId"]


async def test_agents_send_suggestions_as_a_data_suggestions_part() -> None:
    def agui(run_input: RunAgentInput) -> Any:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": "r1"}
        yield {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Sunny."}
        yield {"type": "TEXT_MESSAGE_END", "messageId": "m1"}
        yield {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "s1",
            "activityType": "suggestions",
            "content": {"suggestions": ["What about tomorrow?"]},
        }
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": "r1"}

    def chunks(run_input: RunAgentInput) -> Any:
        yield {"type": "start", "messageId": "msg-s"}
        yield {"type": "text-start", "id": "t"}
        yield {"type": "text-delta", "id": "t", "delta": "Sunny."}
        yield {"type": "text-end", "id": "t"}
        yield {"type": "data-suggestions", "data": [{"title": "Rome?", "message": "Compare with Rome"}]}
        yield {"type": "finish"}

    for agent, data in [
        (agui, {"suggestions": ["What about tomorrow?"]}),
        (chunks, [{"title": "Rome?", "message": "Compare with Rome"}]),
    ]:
        chat = ChatWidget(agent)
        view = FrontEnd(chat)
        assert await chat.send_message("weather?") == "success"
        parts = [p for p in chat.messages[-1]["parts"] if p["type"] == "data-suggestions"]
        assert [p["data"] for p in parts] == [data]
        assert_in_sync(view, chat)


async def test_an_earlier_answer_can_be_rated_while_the_agent_writes_the_next() -> None:
    release = asyncio.Event()

    async def agent(run_input: RunAgentInput) -> Any:
        run_id = f"run-{len(run_input.messages)}"
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_id}
        yield {"type": "TEXT_MESSAGE_START", "messageId": f"m-{run_id}", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": f"m-{run_id}", "delta": "Working"}
        if len(run_input.messages) > 1:
            await release.wait()
        yield {"type": "TEXT_MESSAGE_END", "messageId": f"m-{run_id}"}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_id}

    chat = ChatWidget(agent)
    view = FrontEnd(chat)
    assert await chat.send_message("one") == "success"
    task = chat.send_message("two")
    for _ in range(500):  # bounded: the answer being written shows within a few ms
        if len(chat.chat.live_messages) == 4:
            break
        await asyncio.sleep(0.01)
    assert chat.chat.live_messages[3]["role"] == "assistant" and chat.busy
    chat.feedback(chat.messages[1]["id"], "up")
    assert message_feedback(chat.chat.live_messages[1])["rating"] == "up"
    with pytest.raises(RuntimeError, match="still writing"):
        chat.feedback(chat.chat.live_messages[3]["id"], "down")
    release.set()
    assert await task == "success"
    assert message_feedback(chat.messages[1])["rating"] == "up"
    assert message_feedback(chat.messages[3]) is None
    assert_in_sync(view, chat)
