"""parts_df: one row per UIMessage part, from dicts, models or a chat."""

from __future__ import annotations

from agui_notebook import ChatWidget, parts_df, ui_messages_from_events
from agui_notebook.logs.tables._parts import COLUMNS
from tests.widget.sample_agents import agui_agent

TURN = {
    "id": "a1",
    "role": "assistant",
    "parts": [
        {"type": "step-start"},
        {"type": "reasoning", "text": "Need  the\nweather.", "state": "done"},
        {
            "type": "tool-weather",
            "toolCallId": "c1",
            "state": "output-available",
            "input": {"city": "Paris"},
            "output": [1, 2],
        },
        {
            "type": "dynamic-tool",
            "toolName": "send",
            "toolCallId": "c2",
            "state": "output-denied",
            "input": {},
            "approval": {"id": "p", "approved": False, "reason": "not now"},
        },
        {"type": "tool-fail", "toolCallId": "c3", "state": "output-error", "input": {}, "errorText": "boom"},
        {"type": "data-plan", "data": {"steps": [{"title": "a", "status": "completed"}]}},
        {
            "type": "file",
            "mediaType": "image/png",
            "filename": "chart.png",
            "url": "data:image/png;base64,AA==",
        },
        {"type": "source-url", "sourceId": "s", "url": "https://example.com/a"},
        {"type": "text", "text": "x" * 200, "state": "streaming"},
    ],
}


def test_every_part_kind_has_its_row() -> None:
    table = parts_df([{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}, TURN])
    assert list(table.columns) == COLUMNS
    assert table["message_id"].tolist() == ["u1"] + ["a1"] * 9
    assert table["part"].tolist() == [0, *range(9)]
    rows = table.set_index(["message_id", "part"])["summary"]
    assert rows["a1", 1] == "Need the weather."
    assert rows["a1", 2] == '{"city":"Paris"} -> [1,2]'
    assert rows["a1", 3] == "{} -> denied: not now"
    assert rows["a1", 4] == "{} -> error: boom"
    assert rows["a1", 5] == '{"steps":[{"title":"a","status":"completed"}]}'
    assert rows["a1", 6] == "image/png chart.png"
    assert rows["a1", 7] == "https://example.com/a"
    assert rows["a1", 8] == "x" * 79 + "…"
    tools = table[table["tool_call_id"] != ""]
    assert tools["tool_name"].tolist() == ["weather", "send", "fail"]
    assert table["state"].iloc[0] == "" and table["state"].iloc[-1] == "streaming"


def test_models_one_message_and_a_chat() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "role": "assistant", "delta": "Hello"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    models = ui_messages_from_events(events)
    assert parts_df(models)["summary"].tolist() == ["", "Hello"]
    assert parts_df(TURN).shape[0] == 9
    assert parts_df(TURN, summary_chars=10)["summary"].iloc[-1] == "x" * 9 + "…"
    assert parts_df([]).columns.tolist() == COLUMNS


async def test_a_chat_gives_its_messages() -> None:
    chat = ChatWidget(agui_agent)
    await chat.send_message("What is 1 + 2?")
    table = parts_df(chat)
    assert table["role"].iloc[0] == "user" and table["summary"].iloc[0] == "What is 1 + 2?"
    assert len(table) == sum(len(m["parts"]) for m in chat.messages)
