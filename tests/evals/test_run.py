"""The Run view a scorer reads (evals/_run.py): built from the events frame and the tables."""

from __future__ import annotations

import asyncio

from agui_notebook import Chat
from agui_notebook.evals._run import Message, runs_of
from tests.evals.events import WEATHER, run


def test_each_run_has_its_events_answer_tool_calls_and_row() -> None:
    runs = runs_of(WEATHER)
    assert [(r.key, r.run_id, r.thread_id, r.source, r.text) for r in runs] == [
        ("r1", "r1", "t", "<events>", "Sunny in Paris."),
        ("r2", "r2", "t", "<events>", "I don't know."),
        ("r3", "r3", "t", "<events>", '{"city": "Oslo", "sky": "snow"}'),
    ]
    first = runs[0]
    assert [e["type"] for e in first.events][:2] == ["RUN_STARTED", "TOOL_CALL_START"]
    assert first.tool_calls["tool_name"].tolist() == ["get_weather"]
    assert first.tool_calls["args"].tolist() == [{"city": "Paris"}]
    assert first.row["status"] == "success"
    assert first.inspected.start == 0 and runs[1].inspected.start == len(
        run("r1", "Sunny in Paris.", tool="x")
    )
    assert first.input is None and first.question == ""
    assert repr(runs[1]) == "<Run 'r2' of '<events>': success, 3 events>"


def test_a_run_checks_with_expect() -> None:
    assert repr(runs_of(WEATHER)[0].expect().tool_called("get_weather", city="Paris")) == (
        "<expect run 'r1': 1 check passed>"
    )


def test_a_chats_run_has_its_input_and_question() -> None:
    def agent(run_input):  # type: ignore[no-untyped-def]
        yield "Hello!"

    async def main() -> Chat:
        chat = Chat(agent, store=None)
        await chat.send_message("Hi there")
        return chat

    chat = asyncio.run(main())
    (only,) = runs_of(chat)
    assert only is not None
    assert only.question == "Hi there"
    assert only.text == "Hello!"
    assert only.input is not None and only.input["messages"][-1]["role"] == "user"


def test_a_message_view_names_its_run() -> None:
    import agui_notebook as an

    row = an.messages_df(WEATHER).iloc[0]
    message = Message(row, runs_of(WEATHER)[0])
    assert (message.text, message.role, message.message_id) == ("Sunny in Paris.", "assistant", "m-r1")
    assert repr(message) == "<Message 'm-r1' (assistant) of run 'r1'>"
