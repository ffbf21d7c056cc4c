"""The offline demo agent streams a complete, well-formed showcase run and answers its approval."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook.agui._intake import to_wire_event
from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.bridge._messages import to_agui_messages_wire
from agui_notebook.demo import DemoAgent, demo_input
from tests.support.demo_expectations import RESUMED_PART_TYPES, SHOWCASE_PART_TYPES


def run_demo(run_input: RunAgentInput) -> list[dict[str, Any]]:
    async def collect() -> list[dict[str, Any]]:
        return [to_wire_event(event) async for event in DemoAgent(speed=0).run(run_input)]

    return asyncio.run(collect())


def test_showcase_run_has_every_kind_of_part() -> None:
    events = run_demo(demo_input("What's the weather in Rome?"))
    messages = ui_message_dicts_from_events(events)
    assert [m["role"] for m in messages] == ["user", "assistant"]
    parts = messages[1]["parts"]
    assert [p["type"] for p in parts] == SHOWCASE_PART_TYPES
    assert parts[0]["data"]["steps"][-1] == {"title": "Write the answer", "status": "done"}
    assert parts[3]["input"] == {"city": "Rome", "units": "metric"}
    assert parts[3]["output"]["temp_c"] == 21
    assert "```python" in parts[5]["text"] and "| Temperature | 21 °C |" in parts[5]["text"]
    assert parts[7]["url"].startswith("data:image/png;base64,iVBORw0KGgo")
    assert parts[8]["state"] == "approval-requested"
    usage = messages[1]["metadata"]["ag-ui"]["usage"][0]
    assert usage["totalTokens"] == usage["inputTokens"] + usage["outputTokens"]


@pytest.mark.parametrize(("approved", "reply"), [(True, "Done: the report"), (False, "No problem")])
def test_resuming_answers_the_approval(approved: bool, reply: str) -> None:
    first = run_demo(demo_input("Weather in Oslo?", run_id="run-1"))
    messages = ui_message_dicts_from_events(first)
    interrupt = first[-1]["outcome"]["interrupts"][0]
    resumed_input = RunAgentInput.model_validate(
        {
            "threadId": "demo-thread",
            "runId": "run-2",
            "messages": [m for m in to_agui_messages_wire(messages) if m["role"] != "activity"],
            "resume": [
                {"interruptId": interrupt["id"], "status": "resolved", "payload": {"approved": approved}}
            ],
        }
    )
    messages = ui_message_dicts_from_events(first + run_demo(resumed_input))
    assert [m["role"] for m in messages] == ["user", "assistant"]
    assert [p["type"] for p in messages[1]["parts"]] == RESUMED_PART_TYPES
    tool = next(p for p in messages[1]["parts"] if p["type"] == "tool-send_report")
    assert tool["state"] == ("output-available" if approved else "output-denied")
    assert tool["approval"]["approved"] is approved
    assert messages[1]["parts"][-2]["text"].startswith(reply)
    assert [c["title"] for c in messages[1]["parts"][-1]["data"]["suggestions"]][:1] == ["Compare with Rome"]
    assert messages[1]["metadata"]["ag-ui"]["outcome"] == {"type": "success"}


def test_real_timing_is_paced() -> None:
    agent = DemoAgent(speed=0.02)

    async def timed() -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        async for _ in agent.run(demo_input("hi")):
            pass
        return loop.time() - start

    assert asyncio.run(timed()) > 0.05


def test_answers_the_latest_question_when_files_are_attached() -> None:
    # A message with attachments carries its text as a content part list, not a string.
    first = run_demo(demo_input("What's the weather in Rome?", run_id="run-1"))
    messages = ui_message_dicts_from_events(first)
    messages.append(
        {
            "id": "user-2",
            "role": "user",
            "parts": [
                {"type": "text", "text": "And the weather in Oslo?"},
                {
                    "type": "file",
                    "mediaType": "image/png",
                    "url": "data:image/png;base64,iVBOR",
                    "filename": "a.png",
                },
            ],
        }
    )
    second_input = RunAgentInput.model_validate(
        {
            "threadId": "demo-thread",
            "runId": "run-2",
            "messages": [m for m in to_agui_messages_wire(messages) if m["role"] != "activity"],
        }
    )
    second = ui_message_dicts_from_events(run_demo(second_input))
    tool = next(p for p in second[-1]["parts"] if p["type"] == "tool-get_weather")
    assert tool["input"] == {"city": "Oslo", "units": "metric"}


def test_a_cancelled_approval_is_no_answer_the_new_question_is() -> None:
    first = run_demo(demo_input("Weather in Oslo?", run_id="run-1"))
    interrupt = first[-1]["outcome"]["interrupts"][0]
    messages = to_agui_messages_wire(ui_message_dicts_from_events(first))
    asked_again = RunAgentInput.model_validate(
        {
            "threadId": "demo-thread",
            "runId": "run-2",
            "messages": [
                *(m for m in messages if m["role"] != "activity"),
                {"id": "user-2", "role": "user", "content": "And the weather in Lisbon?"},
            ],
            "resume": [{"interruptId": interrupt["id"], "status": "cancelled"}],
        }
    )
    answer = ui_message_dicts_from_events(run_demo(asked_again))[-1]
    texts = " ".join(p["text"] for p in answer["parts"] if p["type"] == "text")
    assert "Lisbon" in texts and "No problem" not in texts


def test_a_conversation_forked_after_the_weather_tool_is_answered_from_its_result() -> None:
    """What ``fork(..., tool_results={call: ...})`` gives the agent: the answer reads the edited result."""
    first = run_demo(demo_input("What's the weather in Rome?", run_id="run-1"))
    result = next(i for i, e in enumerate(first) if e["type"] == "TOOL_CALL_RESULT")
    from agui_notebook import fork

    snowy = '{"city": "Rome", "sky": "snow", "temp_c": -2}'
    forked = fork(first, at=result + 1, tool_results={first[result]["toolCallId"]: snowy})
    events = run_demo(forked)
    assert [e["type"] for e in events][:2] == ["RUN_STARTED", "TEXT_MESSAGE_START"]
    text = "".join(e.get("delta", "") for e in events if e["type"] == "TEXT_MESSAGE_CONTENT")
    assert "It is **snow** in Rome" in text and "| Temperature | -2 °C |" in text
    assert "Wind" not in text and "Shall I send" not in text
    assert events[-1]["type"] == "RUN_FINISHED"


# ---------------------------------------------------------------------------------------------- the other topics


async def test_a_trip_is_planned_through_a_form_the_kernel_checks() -> None:
    from agui_notebook import Chat, InterruptPayloadError
    from agui_notebook.demo import TRIP_SCHEMA

    chat = Chat(DemoAgent(speed=0), store=None)
    assert await chat.send_message("Plan a trip to Lisbon") == "interrupt"
    card = chat.messages[1]["parts"][-1]
    asked = card["data"]["interrupt"]
    assert (card["type"], asked["reason"], asked["message"]) == (
        "data-interrupt",
        "input",
        "Tell me about your trip to Lisbon.",
    )
    assert asked["responseSchema"]["properties"]["destination"]["default"] == "Lisbon"
    assert asked["responseSchema"]["required"] == TRIP_SCHEMA["required"]
    with pytest.raises(InterruptPayloadError, match="nights"):
        chat.answer_interrupt(card["id"], {"destination": "Lisbon", "nights": 40})
    answer = {"destination": "Lisbon", "nights": 2, "travellers": 1, "pace": "packed", "start": "2027-05-01"}
    assert await chat.answer_interrupt(card["id"], answer) == "success"
    itinerary = chat.messages[1]["parts"][-2]["text"]
    assert itinerary.startswith("## Lisbon: 2 nights from 2027-05-01\n\nA packed plan for you:")
    assert itinerary.count("**Day ") == 3
    assert chat.messages[1]["parts"][-1]["type"] == "data-suggestions"


async def test_a_packing_list_grows_in_the_shared_state_and_keeps_what_the_user_set() -> None:
    from agui_notebook import Chat
    from agui_notebook.demo import PACKING

    chat = Chat(DemoAgent(speed=0), store=None)
    assert await chat.send_message("Make me a packing list") == "success"
    assert chat.state == {"packing": {"items": [{"item": item, "packed": False} for item in PACKING]}}
    assert "**6 things** now, 0 of them packed" in chat.messages[1]["parts"][-1]["text"]
    state = chat.state
    state["packing"]["items"][0]["packed"] = True
    chat.state = state
    assert await chat.send_message("Anything to pack?") == "success"
    assert "**6 things** now (nothing new to add), 1 of them packed" in chat.messages[3]["parts"][-1]["text"]


async def test_an_attached_file_is_described_from_its_bytes() -> None:
    from agui_notebook import Chat
    from agui_notebook.demo import _png_gradient

    chat = Chat(DemoAgent(speed=0), store=None)
    csv_file = ("notes.csv", b"city,temp\nParis,21\nOslo,9\n", "text/csv")
    png_file = ("sky.png", _png_gradient(), "image/png")
    assert await chat.send_message("What is in this file?", files=[csv_file, png_file]) == "success"
    text = chat.messages[1]["parts"][-1]["text"]
    assert text.startswith("**notes.csv** is a table of 2 rows and 2 columns (`city`, `temp`):")
    assert "| Paris | 21 |" in text
    assert text.endswith(
        "**sky.png** is a PNG image of 96 × 48 pixels (" + f"{len(_png_gradient()):,} bytes)."
    )


def test_the_suggestions_ask_for_each_topic() -> None:
    from agui_notebook.demo import SUGGESTIONS

    assert SUGGESTIONS == [
        "What's the weather in Paris?",
        "Plan a trip to Lisbon",
        "Make me a packing list",
        "What is in this file?",
    ]
