"""A scripted AG-UI agent for the generative-UI end-to-end test: a frontend tool, a data part, an interrupt form.

Imported by the notebook the test writes. The turn goes:

1. the user asks for a forecast: the agent calls the frontend tool ``get_forecast(city)`` and ends the run with
   the call unanswered (the widget runs the Python function and starts the follow-up run);
2. the follow-up run sees the tool result: it sends the days as a ``forecast`` activity (a ``data-forecast``
   part the notebook renders as a DataFrame), says so, and ends with an interrupt whose ``responseSchema`` asks
   how many nights to book;
3. the resumed run reads the form's payload and confirms the booking.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

DELAY = 0.05
SCHEMA = {
    "type": "object",
    "title": "Book a hotel",
    "properties": {
        "nights": {"type": "integer", "title": "Nights", "minimum": 1, "maximum": 14, "default": 2},
        "breakfast": {"type": "boolean", "title": "Breakfast included"},
    },
    "required": ["nights"],
}


def forecast_for(city: str) -> list[dict[str, Any]]:
    """What the notebook's ``get_forecast`` frontend tool returns: three days, warmer in Lyon."""
    base = 24 if city.lower() == "lyon" else 19
    return [
        {"day": "Mon", "temp_c": base, "sky": "sunny"},
        {"day": "Tue", "temp_c": base + 2, "sky": "cloudy"},
        {"day": "Wed", "temp_c": base - 1, "sky": "rain"},
    ]


def _city(run_input: Any) -> str:
    users = [m for m in run_input.messages if m.role == "user"]
    text = users[-1].content if users else ""
    text = text if isinstance(text, str) else " ".join(getattr(p, "text", "") for p in text)
    return text.rsplit(" ", 1)[-1].strip("?.! ") or "Paris"


def _text(message_id: str, words: list[str]) -> Iterator[dict[str, Any]]:
    yield {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant"}
    for word in words:
        time.sleep(DELAY)
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": word}
    yield {"type": "TEXT_MESSAGE_END", "messageId": message_id}


def generative_agent(run_input: Any) -> Iterator[dict[str, Any]]:
    thread, run = run_input.thread_id, run_input.run_id
    city = _city(run_input)
    yield {"type": "RUN_STARTED", "threadId": thread, "runId": run}
    last = run_input.messages[-1] if run_input.messages else None
    if run_input.resume:
        entry = run_input.resume[0]
        if entry.status != "resolved":
            yield from _text(f"no-{run}", ["No booking, ", "then."])
        else:
            payload = entry.payload or {}
            extra = " with breakfast" if payload.get("breakfast") else ""
            yield from _text(
                f"booked-{run}", [f"Booked {payload.get('nights')} nights ", f"in {city}{extra}."]
            )
        yield {"type": "RUN_FINISHED", "threadId": thread, "runId": run}
        return
    if last is not None and last.role == "tool":
        days = json.loads(last.content)
        yield {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": f"forecast-{run}",
            "activityType": "forecast",
            "content": {"city": city, "days": days},
        }
        yield from _text(f"answer-{run}", [f"Here is the forecast for {city}. ", "Shall I book a hotel?"])
        yield {
            "type": "RUN_FINISHED",
            "threadId": thread,
            "runId": run,
            "outcome": {
                "type": "interrupt",
                "interrupts": [
                    {
                        "id": f"book-{run}",
                        "reason": "input_required",
                        "message": f"How long do you stay in {city}?",
                        "responseSchema": SCHEMA,
                    }
                ],
            },
        }
        return
    call = f"call-{run}"
    yield {"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "get_forecast"}
    time.sleep(DELAY)
    yield {"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": json.dumps({"city": city})}
    yield {"type": "TOOL_CALL_END", "toolCallId": call}
    yield {"type": "RUN_FINISHED", "threadId": thread, "runId": run}
