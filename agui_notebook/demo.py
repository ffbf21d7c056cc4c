"""The built-in offline demo agent: no API key, no network, realistic streaming.

It speaks AG-UI events, so everything downstream (the bridge, the widget, the logs) is exercised as with a real
agent. What it answers depends on the question (``SUGGESTIONS`` are one of each):

- **the weather** (the default): an activity plan updated step by step, reasoning, a tool call with streamed
  arguments and a JSON result, markdown with a table and code, a source, an image, suggestion chips, and a tool
  that asks for approval before it sends a report;
- **a trip** ("plan a trip to Lisbon"): an interrupt whose form asks for the trip's details, then an itinerary;
- **a packing list**: the list built in the shared state, item by item (the widget's state panel shows it), and
  kept: the next run reads what the state holds;
- **an attached file**: what it holds (a CSV's columns and first rows, a text's first lines, an image's size);

and token usage on every run.

>>> import asyncio
>>> from agui_notebook.demo import DemoAgent, demo_input
>>> async def types():
...     return [event.type.value async for event in DemoAgent(speed=0).run(demo_input("Weather in Paris?"))]
>>> asyncio.run(types())[:3]
['RUN_STARTED', 'ACTIVITY_SNAPSHOT', 'REASONING_START']
"""

from __future__ import annotations

import asyncio
import base64
import csv
import io
import json
import re
import struct
import time
import uuid
import zlib
from collections.abc import AsyncIterator
from typing import Any

from ag_ui.core import (
    ActivityDeltaEvent,
    ActivitySnapshotEvent,
    BaseEvent,
    Interrupt,
    ReasoningEndEvent,
    ReasoningMessageContentEvent,
    ReasoningMessageEndEvent,
    ReasoningMessageStartEvent,
    ReasoningStartEvent,
    RunAgentInput,
    RunFinishedEvent,
    RunFinishedInterruptOutcome,
    RunFinishedSuccessOutcome,
    RunStartedEvent,
    StateDeltaEvent,
    StateSnapshotEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    TextPart,
    TokenUsage,
    ToolCallArgsEvent,
    ToolCallEndEvent,
    ToolCallResultEvent,
    ToolCallStartEvent,
    UserMessage,
)

from agui_notebook._options import keyword_options

__all__ = ["SUGGESTIONS", "DemoAgent", "demo_input"]

APPROVAL_PREFIX = "approve-"
TRIP_PREFIX = "trip-"

SUGGESTIONS = [
    "What's the weather in Paris?",
    "Plan a trip to Lisbon",
    "Make me a packing list",
    "What is in this file?",
]
"""One question for each thing the demo shows (``ChatWidget(DemoAgent(), suggestions=SUGGESTIONS)``)."""

TRIP_SCHEMA: dict[str, Any] = {
    "title": "Trip details",
    "type": "object",
    "properties": {
        "destination": {"type": "string", "title": "Destination", "minLength": 2},
        "start": {"type": "string", "title": "First day", "format": "date"},
        "nights": {"type": "integer", "title": "Nights", "minimum": 1, "maximum": 14, "default": 3},
        "travellers": {"type": "integer", "title": "Travellers", "minimum": 1, "maximum": 8, "default": 2},
        "pace": {"type": "string", "title": "Pace", "enum": ["relaxed", "balanced", "packed"]},
    },
    "required": ["destination", "nights"],
}
"""What the trip's interrupt asks for: a form the widget draws from this schema, checked again by the kernel."""

PACKING = ["passport", "charger", "rain jacket", "walking shoes", "sunglasses", "a good book"]


def demo_input(text: str, *, thread_id: str = "demo-thread", run_id: str | None = None) -> RunAgentInput:
    """A ``RunAgentInput`` with one user message, for driving :class:`DemoAgent` by hand."""
    return RunAgentInput(
        thread_id=thread_id,
        run_id=run_id or f"run-{uuid.uuid4().hex[:8]}",
        messages=[UserMessage(id=f"user-{uuid.uuid4().hex[:8]}", content=text)],
        state={},
        tools=[],
        context=[],
        forwarded_props={},
    )


def _png_gradient(width: int = 96, height: int = 48) -> bytes:
    """A small PNG (a blue-to-orange gradient) built in code, so the demo ships no binary files."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            t = x / (width - 1)
            rows += bytes((int(40 + 200 * t), int(90 + 60 * (y / height)), int(220 - 180 * t)))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(bytes(rows)))
        + chunk(b"IEND", b"")
    )


def _words(text: str) -> list[str]:
    """Split text into word-sized deltas that keep their whitespace, like a model's tokens."""
    return re.findall(r"\s*\S+|\s+", text)


def _city(text: str) -> str:
    match = re.search(r"\bin ([A-Z][a-zA-Z]+)", text)
    return match.group(1) if match else "Paris"


def _latest_user_text(input: RunAgentInput) -> str:
    """The text of the newest user message: its string content, or its text parts when files came with it."""
    latest = next((m for m in reversed(input.messages) if m.role == "user"), None)
    if latest is None:
        return ""
    if isinstance(latest.content, str):
        return latest.content
    return "\n".join(part.text for part in latest.content if isinstance(part, TextPart))


def _latest_user_files(input: RunAgentInput) -> list[tuple[str, str, bytes | None]]:
    """``(name, media type, bytes or None for a URL)`` of each file the newest user message carries."""
    latest = next((m for m in reversed(input.messages) if m.role == "user"), None)
    if latest is None or isinstance(latest.content, str):
        return []
    files = []
    for part in latest.content:
        source = getattr(part, "source", None)
        if source is None:
            continue
        metadata = getattr(part, "metadata", None) or {}
        name = metadata.get("filename") if isinstance(metadata, dict) else None
        media_type = getattr(source, "mime_type", None) or "application/octet-stream"
        data = None
        if getattr(source, "type", None) == "data":
            try:
                data = base64.b64decode(source.value, validate=False)
            except (ValueError, TypeError):
                data = None
        files.append((name or f"a {getattr(part, 'type', 'file')}", media_type, data))
    return files


def _describe_file(name: str, media_type: str, data: bytes | None) -> str:
    """A paragraph (and a table or an excerpt) about one attached file, from its bytes."""
    if data is None:
        return f"**{name}** ({media_type}) is a link, which I cannot open offline."
    size = f"{len(data):,} bytes"
    if media_type == "image/png" and data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return f"**{name}** is a PNG image of {width} × {height} pixels ({size})."
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return (
            f"**{name}** is binary {media_type} data ({size}); I can only describe text, CSV and PNG files."
        )
    lines = text.splitlines()
    if media_type == "text/csv" or name.lower().endswith(".csv"):
        rows = list(csv.reader(io.StringIO(text)))
        if rows:
            header, body = rows[0], rows[1:]
            shown = "".join("| " + " | ".join(row) + " |\n" for row in body[:5])
            more = f"\n\n…and {len(body) - 5} more rows." if len(body) > 5 else ""
            return (
                f"**{name}** is a table of {len(body)} rows and {len(header)} columns "
                f"({', '.join(f'`{h}`' for h in header)}):\n\n"
                f"| {' | '.join(header)} |\n|{' --- |' * len(header)}\n{shown}{more}"
            )
    excerpt = "\n".join(lines[:8])
    more = f"\n\n…and {len(lines) - 8} more lines." if len(lines) > 8 else ""
    return f"**{name}** is text, {len(lines)} lines ({size}). It begins:\n\n```\n{excerpt}\n```{more}"


def _weather_result(input: RunAgentInput) -> dict[str, Any] | None:
    """The weather tool's result when the conversation ends with it (a forked run), else None."""
    last = input.messages[-1] if input.messages else None
    if last is None or last.role != "tool" or not isinstance(last.content, str):
        return None
    try:
        weather = json.loads(last.content)
    except ValueError:
        return None
    return weather if isinstance(weather, dict) and "sky" in weather and "temp_c" in weather else None


def _weather_answer(city: str, weather: dict[str, Any], *, offer_report: bool = True) -> str:
    """The demo's answer, written from the weather tool's result (and offering to send it as a report)."""
    rows = [("Temperature", f"{weather['temp_c']} °C")]
    if "wind_kmh" in weather:
        rows.append(("Wind", f"{weather['wind_kmh']} km/h"))
    if isinstance(weather.get("humidity"), (int, float)):
        rows.append(("Humidity", f"{round(weather['humidity'] * 100)} %"))
    table = "".join(f"| {name} | {value} |\n" for name, value in rows)
    return (
        f"## Weather in {city}\n\n"
        f"It is **{weather['sky']}** in {city} right now.\n\n"
        f"| Measure | Value |\n| --- | --- |\n{table}\n"
        "To fetch it yourself:\n\n"
        "```python\nimport httpx\n\n"
        f'weather = httpx.get("https://weather.example/api", params={{"city": "{city}"}}).json()\n'
        'print(weather["temp_c"])\n```'
        + ("\n\nShall I send this report to the team?" if offer_report else "")
    )


class DemoAgent:
    """An offline agent streaming AG-UI events with realistic timing.

    ``speed`` scales the pauses (1.0 ≈ a fast hosted model, 0 = no pauses, for tests). Plug it into a
    ``ChatWidget(agent=DemoAgent())`` or iterate ``run(input)`` yourself.
    """

    @keyword_options
    def __init__(self, *, speed: float = 1.0, model: str = "demo-1") -> None:
        self.speed = speed
        self.model = model

    async def _pause(self, seconds: float) -> None:
        if self.speed > 0:
            await asyncio.sleep(seconds * self.speed)

    @staticmethod
    def _now() -> int:
        return int(time.time() * 1000)

    async def run(self, input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        """Stream one run's events for ``input``."""
        yield RunStartedEvent(
            thread_id=input.thread_id, run_id=input.run_id, input=input, timestamp=self._now()
        )
        # A cancelled approval (the user asked something new instead) is no answer: the new question is.
        answers = [e for e in input.resume or () if e.status != "cancelled"]
        trip = next((e for e in answers if e.interrupt_id.startswith(TRIP_PREFIX)), None)
        approval = next((e for e in answers if e.interrupt_id.startswith(APPROVAL_PREFIX)), None)
        if trip is not None:
            async for event in self._itinerary(input, trip):
                yield event
            return
        if approval is not None:
            async for event in self._resumed(input, approval):
                yield event
            return
        text = _latest_user_text(input)
        files = _latest_user_files(input)
        if files and not re.search(r"\b(weather|trip|travel|pack)", text, re.IGNORECASE):
            async for event in self._about_files(input, files):
                yield event
            return
        if re.search(r"\b(trip|travel|itinerary)\b", text, re.IGNORECASE):
            async for event in self._ask_for_trip(input, text):
                yield event
            return
        if re.search(r"\bpack", text, re.IGNORECASE):
            async for event in self._packing_list(input):
                yield event
            return
        weather = _weather_result(input)
        if (
            weather is not None
        ):  # a conversation forked after the weather tool answered: answer from its result
            async for event in self._answered(input, weather):
                yield event
            return
        async for event in self._showcase(input, text):
            yield event

    async def _stream_text(self, message_id: str, text: str, per_word: float) -> AsyncIterator[BaseEvent]:
        yield TextMessageStartEvent(message_id=message_id, role="assistant", timestamp=self._now())
        for word in _words(text):
            await self._pause(per_word)
            yield TextMessageContentEvent(message_id=message_id, delta=word, timestamp=self._now())
        yield TextMessageEndEvent(message_id=message_id, timestamp=self._now())

    async def _tool_call(
        self, call_id: str, name: str, arguments: str, parent_id: str
    ) -> AsyncIterator[BaseEvent]:
        yield ToolCallStartEvent(
            tool_call_id=call_id, tool_call_name=name, parent_message_id=parent_id, timestamp=self._now()
        )
        for piece in re.findall(r".{1,6}", arguments, flags=re.S):
            await self._pause(0.03)
            yield ToolCallArgsEvent(tool_call_id=call_id, delta=piece, timestamp=self._now())
        yield ToolCallEndEvent(tool_call_id=call_id, timestamp=self._now())

    @staticmethod
    def _add_item(index: int, item: str) -> list[Any]:  # a JSON Patch operation (pydantic reads it)
        return [{"op": "add", "path": f"/packing/items/{index}", "value": {"item": item, "packed": False}}]

    def _plan(self, message_id: str, done: int) -> list[Any]:  # JSON Patch operations (pydantic reads them)
        return [{"op": "replace", "path": f"/steps/{done}/status", "value": "done"}] + (
            [{"op": "replace", "path": f"/steps/{done + 1}/status", "value": "running"}] if done < 2 else []
        )

    async def _showcase(self, input: RunAgentInput, user_text: str) -> AsyncIterator[BaseEvent]:
        run = input.run_id
        city = _city(user_text)
        plan_id = f"plan-{run}"
        steps = [
            {"title": "Think about the question", "status": "running"},
            {"title": f"Look up the weather in {city}", "status": "pending"},
            {"title": "Write the answer", "status": "pending"},
        ]
        yield ActivitySnapshotEvent(
            message_id=plan_id, activity_type="plan", content={"steps": steps}, timestamp=self._now()
        )

        reasoning_id = f"reasoning-{run}"
        yield ReasoningStartEvent(message_id=reasoning_id, timestamp=self._now())
        yield ReasoningMessageStartEvent(message_id=reasoning_id, role="reasoning", timestamp=self._now())
        thought = (
            f"The user asks about the weather in {city}. I should call the weather tool rather than guess, "
            "then summarise it with a small table and show how to fetch it in Python."
        )
        for word in _words(thought):
            await self._pause(0.02)
            yield ReasoningMessageContentEvent(message_id=reasoning_id, delta=word, timestamp=self._now())
        yield ReasoningMessageEndEvent(message_id=reasoning_id, timestamp=self._now())
        yield ReasoningEndEvent(message_id=reasoning_id, timestamp=self._now())
        yield ActivityDeltaEvent(
            message_id=plan_id, activity_type="plan", patch=self._plan(plan_id, 0), timestamp=self._now()
        )

        call_message = f"assistant-{run}-1"
        yield TextMessageStartEvent(message_id=call_message, role="assistant", timestamp=self._now())
        yield TextMessageEndEvent(message_id=call_message, timestamp=self._now())
        weather_call = f"call-weather-{run}"
        async for event in self._tool_call(
            weather_call, "get_weather", f'{{"city": "{city}", "units": "metric"}}', call_message
        ):
            yield event
        await self._pause(0.6)
        weather = f'{{"city": "{city}", "sky": "sunny", "temp_c": 21, "wind_kmh": 9, "humidity": 0.48}}'
        yield ToolCallResultEvent(
            message_id=f"tool-{run}-1",
            tool_call_id=weather_call,
            role="tool",
            content=weather,
            timestamp=self._now(),
        )
        yield ActivityDeltaEvent(
            message_id=plan_id, activity_type="plan", patch=self._plan(plan_id, 1), timestamp=self._now()
        )

        answer = _weather_answer(city, json.loads(weather))
        answer_id = f"assistant-{run}-2"
        async for event in self._stream_text(answer_id, answer, 0.025):
            yield event
        source = {
            "type": "source-url",
            "sourceId": f"src-{run}",
            "url": "https://weather.example/paris",
            "title": "Weather service",
        }
        yield ActivitySnapshotEvent(
            message_id=f"source-{run}", activity_type="ui-part", content=source, timestamp=self._now()
        )
        image_url = "data:image/png;base64," + base64.b64encode(_png_gradient()).decode()
        image = {"type": "file", "mediaType": "image/png", "url": image_url}
        yield ActivitySnapshotEvent(
            message_id=f"image-{run}", activity_type="ui-part", content=image, timestamp=self._now()
        )
        yield ActivityDeltaEvent(
            message_id=plan_id, activity_type="plan", patch=self._plan(plan_id, 2), timestamp=self._now()
        )

        report_call = f"call-report-{run}"
        async for event in self._tool_call(
            report_call,
            "send_report",
            f'{{"to": "team@example.com", "subject": "Weather in {city}"}}',
            answer_id,
        ):
            yield event
        usage = self._usage(thought, answer)
        yield RunFinishedEvent(
            thread_id=input.thread_id,
            run_id=run,
            outcome=RunFinishedInterruptOutcome(
                type="interrupt",
                interrupts=[
                    Interrupt(
                        id=f"{APPROVAL_PREFIX}{report_call}",
                        reason="tool_call",
                        message="Send the weather report to team@example.com?",
                        tool_call_id=report_call,
                    )
                ],
            ),
            usage=[usage],
            timestamp=self._now(),
        )

    def _suggestions(self, run_id: str, city: str) -> ActivitySnapshotEvent:
        """Chips under the answer: what to ask next (a click sends it)."""
        other = "Rome" if city != "Rome" else "Oslo"
        chips = [
            {"title": f"Compare with {other}", "message": f"What's the weather in {other}?"},
            {"title": f"Plan a trip to {city}", "message": f"Plan a trip to {city}"},
            {"title": "Make me a packing list", "message": f"Make me a packing list for {city}"},
        ]
        return ActivitySnapshotEvent(
            message_id=f"suggestions-{run_id}", activity_type="suggestions", content={"suggestions": chips},
            timestamp=self._now(),
        )  # fmt: skip

    async def _ask_for_trip(self, input: RunAgentInput, user_text: str) -> AsyncIterator[BaseEvent]:
        """A few words, then an interrupt asking for the trip's details (the widget draws it as a form)."""
        run = input.run_id
        city = _city(user_text.replace(" to ", " in "))
        text = f"Happy to plan a trip to {city}. A few details first, then I will put the days together."
        async for event in self._stream_text(f"assistant-{run}", text, 0.03):
            yield event
        schema = json.loads(json.dumps(TRIP_SCHEMA))
        schema["properties"]["destination"]["default"] = city
        yield RunFinishedEvent(
            thread_id=input.thread_id,
            run_id=run,
            outcome=RunFinishedInterruptOutcome(
                type="interrupt",
                interrupts=[
                    Interrupt(
                        id=f"{TRIP_PREFIX}{run}",
                        reason="input",
                        message=f"Tell me about your trip to {city}.",
                        response_schema=schema,
                    )
                ],
            ),
            usage=[self._usage("", text)],
            timestamp=self._now(),
        )

    async def _itinerary(self, input: RunAgentInput, answer: Any) -> AsyncIterator[BaseEvent]:
        """The trip, day by day, from the form's answer."""
        details = answer.payload if isinstance(answer.payload, dict) else {}
        city = str(details.get("destination") or "Lisbon")
        nights: int = details["nights"] if isinstance(details.get("nights"), int) else 3
        travellers: int = details["travellers"] if isinstance(details.get("travellers"), int) else 2
        pace = str(details.get("pace") or "balanced")
        ideas = ["the old town on foot", "a museum in the morning, the river at sunset", "a market and a long lunch",
                 "a day trip out of town", "the viewpoints, then dinner with a view", "whatever you liked best again"]  # fmt: skip
        per_day = {"relaxed": 1, "balanced": 2, "packed": 3}.get(pace, 2)
        days = "".join(
            f"{day}. **Day {day}**: "
            + ", then ".join(ideas[(day + k) % len(ideas)] for k in range(per_day))
            + "\n"
            for day in range(1, min(nights, 14) + 2)
        )
        starting = f" from {details['start']}" if isinstance(details.get("start"), str) else ""
        people = "you" if travellers == 1 else f"the {travellers} of you"
        text = (
            f"## {city}: {nights} nights{starting}\n\nA {pace} plan for {people}:\n\n{days}\n"
            "Shall I make a packing list to go with it?"
        )
        async for event in self._stream_text(f"assistant-{input.run_id}", text, 0.02):
            yield event
        yield self._suggestions(input.run_id, city)
        yield RunFinishedEvent(
            thread_id=input.thread_id, run_id=input.run_id, outcome=RunFinishedSuccessOutcome(type="success"),
            usage=[self._usage("", text)], timestamp=self._now(),
        )  # fmt: skip

    async def _packing_list(self, input: RunAgentInput) -> AsyncIterator[BaseEvent]:
        """The packing list built in the shared state, one item at a time; the state the run was sent wins (the
        user may have ticked items off in it)."""
        state = input.state if isinstance(input.state, dict) else {}
        packing = state.get("packing") if isinstance(state.get("packing"), dict) else None
        items = (
            packing.get("items")
            if isinstance(packing, dict) and isinstance(packing.get("items"), list)
            else None
        )
        if items is None:
            yield StateSnapshotEvent(snapshot={**state, "packing": {"items": []}}, timestamp=self._now())
            items = []
        have = {str(i.get("item")) for i in items if isinstance(i, dict)}
        added = [item for item in PACKING if item not in have]
        for index, item in enumerate(added, start=len(items)):
            await self._pause(0.15)
            yield StateDeltaEvent(
                delta=self._add_item(index, item),
                timestamp=self._now(),
            )
        total = len(items) + len(added)
        packed = sum(1 for i in items if isinstance(i, dict) and i.get("packed") is True)
        text = (
            f"Your packing list has **{total} things** now"
            + ((f" ({len(added)} new)" if added else " (nothing new to add)") if items else "")
            + f", {packed} of them packed. It lives in the shared state: open the **State** panel above the chat to "
            "see it change, or set `chat.state` from Python and ask me again."
        )
        async for event in self._stream_text(f"assistant-{input.run_id}", text, 0.02):
            yield event
        yield RunFinishedEvent(
            thread_id=input.thread_id, run_id=input.run_id, outcome=RunFinishedSuccessOutcome(type="success"),
            usage=[self._usage("", text)], timestamp=self._now(),
        )  # fmt: skip

    async def _about_files(
        self, input: RunAgentInput, files: list[tuple[str, str, bytes | None]]
    ) -> AsyncIterator[BaseEvent]:
        """What each attached file holds."""
        text = "\n\n".join(_describe_file(*file) for file in files)
        async for event in self._stream_text(f"assistant-{input.run_id}", text, 0.02):
            yield event
        yield RunFinishedEvent(
            thread_id=input.thread_id, run_id=input.run_id, outcome=RunFinishedSuccessOutcome(type="success"),
            usage=[self._usage("", text)], timestamp=self._now(),
        )  # fmt: skip

    async def _answered(self, input: RunAgentInput, weather: dict[str, Any]) -> AsyncIterator[BaseEvent]:
        city = str(weather.get("city") or _city(_latest_user_text(input)))
        text = _weather_answer(city, weather, offer_report=False)
        async for event in self._stream_text(f"assistant-{input.run_id}", text, 0.025):
            yield event
        yield RunFinishedEvent(
            thread_id=input.thread_id,
            run_id=input.run_id,
            outcome=RunFinishedSuccessOutcome(type="success"),
            usage=[self._usage("", text)],
            timestamp=self._now(),
        )

    async def _resumed(self, input: RunAgentInput, answer: Any) -> AsyncIterator[BaseEvent]:
        run = input.run_id
        call_id = answer.interrupt_id[len(APPROVAL_PREFIX) :]
        payload = answer.payload if isinstance(answer.payload, dict) else {}
        approved = answer.status == "resolved" and bool(payload.get("approved"))
        if approved:
            await self._pause(0.5)
            yield ToolCallResultEvent(
                message_id=f"tool-{run}",
                tool_call_id=call_id,
                role="tool",
                content='{"sent": true, "to": "team@example.com"}',
                timestamp=self._now(),
            )
            text = "Done: the report is on its way to **team@example.com**."
        else:
            yield ToolCallResultEvent(
                message_id=f"tool-{run}",
                tool_call_id=call_id,
                role="tool",
                content="The user declined to send the report.",
                timestamp=self._now(),
            )
            text = "No problem, I did not send anything."
        async for event in self._stream_text(f"assistant-{run}", text, 0.03):
            yield event
        yield self._suggestions(run, _city(_latest_user_text(input)))
        yield RunFinishedEvent(
            thread_id=input.thread_id,
            run_id=run,
            outcome=RunFinishedSuccessOutcome(type="success"),
            usage=[self._usage("", text)],
            timestamp=self._now(),
        )

    def _usage(self, reasoning: str, text: str) -> TokenUsage:
        # About four characters a token, as for English with common tokenizers.
        reasoning_tokens = len(reasoning) // 4
        output_tokens = len(text) // 4 + reasoning_tokens
        return TokenUsage(
            provider="demo",
            model=self.model,
            input_tokens=412,
            output_tokens=output_tokens,
            reasoning_tokens=reasoning_tokens,
            total_tokens=412 + output_tokens,
        )
