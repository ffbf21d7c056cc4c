"""AG-UI streams that carry MESSAGES_SNAPSHOT anywhere, as real producers send them.

A stream is one to three runs of a simulated producer that keeps its own thread (its messages, with its own ids)
and streams part of each run. What varies is what the nine frameworks' integrations do differently:

- the run input: every RUN_STARTED carries ``input.messages`` (the client's messages and the new question, as a
  chat sends them) or none does;
- snapshots: right after RUN_STARTED, between streamed messages, between two calls of one message, while a text or
  a call's arguments stream (with what has come of it), and at the end of the run (LangGraph), each holding the
  producer's thread so far;
- ids: the snapshot's ids match the streamed ones, or its tool messages have other ids than the streamed
  TOOL_CALL_RESULT (LangGraph), or every assistant-side message has another id, or every message (the user's too);
- what is streamed: everything, the answer only in the snapshot (CrewAI, LlamaIndex), or nothing but the snapshot;
- tool calls: one or two (parallel, interleaved or not), with or without ``parentMessageId``, results streamed after
  TOOL_CALL_END, before it (Langroid), only in the snapshot, both, or never (a frontend tool left waiting: the
  next run then mostly starts from the client's answer instead of a new question);
- reasoning before a step, in the snapshot or not; STEP_STARTED / STEP_FINISHED and STATE_SNAPSHOT between steps;
  ``*_CHUNK`` events instead of start / content / end; a run that ends in RUN_ERROR (the last one).

A producer keeps its habits from run to run, mostly. What the generator leaves out on purpose: text streamed after
the tool calls of the same message id (an AG-UI message keeps no order between its content and its calls, so the
client's messages cannot say where the text was).

The same generator runs on a seeded ``random.Random`` (:class:`SeededChooser`: a fixed batch for one node call)
and on hypothesis draws (:func:`snapshot_streams`: shrinking finds the smallest failing stream). Every question is
asked so that the simplest answer (``False``, the first option, the lowest number) gives the simpler stream.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from hypothesis import strategies as st

from agui_notebook import apply_events

T = TypeVar("T")
Event = dict[str, Any]
Message = dict[str, Any]

THREAD_ID = "thread-1"
QUESTIONS = ("Weather in Paris?", "And in Lyon?", "Thanks!")
ANSWERS = ("It is sunny.", "Rain, 12 °C.", "You are welcome.")
THOUGHTS = ("Look it up.", "The tool said so.")
TOOLS = (("get_weather", '{"city": "Paris"}'), ("get_time", '{"tz": "CET"}'))
RESULTS = ("sunny", "14:05")

# How a run's snapshots name what was streamed.
SAME_IDS = "same ids"
OTHER_TOOL_IDS = "other tool message ids"  # LangGraph: TOOL_CALL_RESULT's messageId is not the snapshot's
OTHER_IDS = "other ids"  # every assistant-side message has another id in the snapshot
ALL_OTHER_IDS = "all other ids"  # the producer names every message anew, the user's too
# What a run streams.
STREAMED = "streamed"
ANSWER_IN_SNAPSHOT = "answer only in the snapshot"  # CrewAI, LlamaIndex
SNAPSHOT_ONLY = "nothing but the snapshot"
# When a tool call's result comes.
AFTER_END = "after TOOL_CALL_END"
BEFORE_END = "before TOOL_CALL_END"  # Langroid
IN_SNAPSHOT = "only in the snapshot"
NO_RESULT = "no result"  # a frontend tool: the client answers it in the next run


class Chooser(Protocol):
    """Where the generator's choices come from."""

    def boolean(self, p: float) -> bool:
        """True with probability ``p`` (False is the simpler answer)."""
        ...

    def choice(self, options: Sequence[T]) -> T:
        """One of ``options`` (the first is the simplest)."""
        ...

    def integer(self, low: int, high: int) -> int:
        """An integer in ``[low, high]`` (``low`` is the simplest)."""
        ...


class SeededChooser:
    """Choices from a seeded ``random.Random``."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def boolean(self, p: float) -> bool:
        return self.rng.random() < p

    def choice(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)


class DrawChooser:
    """Choices drawn by hypothesis, which shrink towards the simpler answer."""

    def __init__(self, draw: Any) -> None:
        self.draw = draw

    def boolean(self, p: float) -> bool:
        return self.draw(st.integers(0, 99)) >= 100 - round(p * 100)

    def choice(self, options: Sequence[T]) -> T:
        return options[self.draw(st.integers(0, len(options) - 1))]

    def integer(self, low: int, high: int) -> int:
        return int(self.draw(st.integers(low, high)))


def _pieces(c: Chooser, text: str) -> list[str]:
    """``text`` as one or two deltas."""
    if len(text) > 1 and c.boolean(0.5):
        cut = c.integer(1, len(text) - 1)
        return [text[:cut], text[cut:]]
    return [text]


@dataclass
class _Call:
    call_id: str
    name: str
    arguments: str
    result: str
    result_id: str  # the streamed TOOL_CALL_RESULT's messageId
    timing: str


@dataclass
class _Producer:
    """A producer's thread and the events it has sent."""

    c: Chooser
    events: list[Event] = field(default_factory=list)
    # The producer's thread (with its own ids) before this run, and this run's messages so far.
    history: list[Message] = field(default_factory=list)
    run: list[Message] = field(default_factory=list)
    serial: int = 0
    waiting: list[_Call] = field(default_factory=list)  # frontend tool calls the last run left for the client
    chat_input: bool = False  # every RUN_STARTED carries the run input, as a chat's recorded stream does
    id_style: str = SAME_IDS
    streaming: str = STREAMED
    reasoning_in_snapshot: bool = False
    step_events: bool = False  # STEP_STARTED / STEP_FINISHED around each step (CrewAI, LangGraph)
    state_events: bool = False  # STATE_SNAPSHOT after a step (LangGraph)
    chunk_events: bool = False  # TEXT_MESSAGE_CHUNK and TOOL_CALL_CHUNK instead of start / content / end

    def next_id(self, prefix: str) -> str:
        self.serial += 1
        return f"{prefix}{self.serial}"

    def snapshot_id(self, streamed_id: str, kind: str) -> str:
        """The id the producer's thread (and so its snapshots) gives a message streamed or sent as ``streamed_id``."""
        if (
            self.id_style == ALL_OTHER_IDS
            or (self.id_style == OTHER_IDS and kind != "input")
            or (self.id_style == OTHER_TOOL_IDS and kind == "tool")
        ):
            return f"{streamed_id}-s"
        return streamed_id

    def emit(self, *events: Event) -> None:
        self.events.extend(events)

    def snapshot(self, *partial: Message) -> None:
        """Send the thread so far, and ``partial``: what the producer holds of a message still streaming."""
        messages = [
            m for m in self.history + self.run if m["role"] != "reasoning" or self.reasoning_in_snapshot
        ]
        self.emit({"type": "MESSAGES_SNAPSHOT", "messages": [dict(m) for m in [*messages, *partial]]})

    # -------------------------------------------------------------------------------------------- one run
    def one_run(self, number: int, last: bool) -> None:
        c = self.c
        run_id = f"run-{number}"
        user = {"id": f"user-{number}", "role": "user", "content": QUESTIONS[number % len(QUESTIONS)]}
        given: list[Message] = [user]
        if self.waiting and c.boolean(0.8):
            # The client answered the frontend tools the last run left waiting: this run goes on from there.
            given = [
                {
                    "id": f"answer-{call.call_id}",
                    "role": "tool",
                    "toolCallId": call.call_id,
                    "content": "done",
                }
                for call in self.waiting
            ]
        self.waiting = []
        if number == 1 or c.boolean(0.3):
            # A producer keeps its habits from run to run, mostly (a graph node that does not stream does not).
            self.id_style = c.choice((SAME_IDS, OTHER_TOOL_IDS, OTHER_IDS, ALL_OTHER_IDS))
            self.step_events = c.boolean(0.3)
            self.state_events = c.boolean(0.2)
            self.chunk_events = c.boolean(0.2)
            self.reasoning_in_snapshot = c.boolean(0.3)
            self.streaming = c.choice((STREAMED, ANSWER_IN_SNAPSHOT, SNAPSHOT_ONLY))
        streaming = self.streaming
        started: Event = {"type": "RUN_STARTED", "threadId": THREAD_ID, "runId": run_id}
        if self.chat_input:
            # A chat sends what it holds (@ag-ui/client's messages, exactly apply_events') and the question.
            held = [m for m in apply_events(self.events).message_dicts if m.get("role") != "activity"]
            started["input"] = {
                "threadId": THREAD_ID,
                "runId": run_id,
                "state": {},
                "messages": [*held, *given],
                "tools": [],
                "context": [],
                "forwardedProps": {},
            }
        self.emit(started)
        self.run = [{**m, "id": self.snapshot_id(m["id"], "input")} for m in given]
        if c.boolean(0.3):
            self.snapshot()  # first: the thread as the producer has it
        steps = c.choice((1, 1, 2, 2, 3))
        for step in range(steps):
            final = step == steps - 1
            if self.step_events:
                self.emit({"type": "STEP_STARTED", "stepName": f"step-{step}"})
            self.one_step(streaming, final)
            if self.step_events:
                self.emit({"type": "STEP_FINISHED", "stepName": f"step-{step}"})
            if self.state_events:
                self.emit({"type": "STATE_SNAPSHOT", "snapshot": {"run": number, "step": step}})
            if not final and c.boolean(0.25):
                self.snapshot()  # between streamed messages
        errored = last and c.boolean(0.1)
        if streaming != STREAMED or (not errored and c.boolean(0.5)):
            self.snapshot()  # at the end (LangGraph; CrewAI and LlamaIndex send the answer only here)
        if errored:
            self.emit({"type": "RUN_ERROR", "message": "the model answered HTTP 500"})
        else:
            self.emit({"type": "RUN_FINISHED", "threadId": THREAD_ID, "runId": run_id})
        self.history += self.run
        self.run = []

    def one_step(self, streaming: str, final: bool) -> None:
        c = self.c
        streamed = streaming == STREAMED or (streaming == ANSWER_IN_SNAPSHOT and not final)
        if c.boolean(0.3):
            self.reasoning(streamed)
        with_text = final or c.boolean(0.5)
        with_tools = not final or c.boolean(0.5)
        message_id = self.next_id("msg-")
        assistant: Message = {"id": self.snapshot_id(message_id, "assistant"), "role": "assistant"}
        text_events: list[Event] = []
        if with_text:
            text = c.choice(ANSWERS)
            assistant["content"] = text
            if streamed:
                deltas = _pieces(c, text)
                if self.chunk_events:
                    text_events = [
                        {
                            "type": "TEXT_MESSAGE_CHUNK",
                            "messageId": message_id,
                            "role": "assistant",
                            "delta": d,
                        }
                        for d in deltas
                    ]
                else:
                    text_events = [
                        {"type": "TEXT_MESSAGE_START", "messageId": message_id, "role": "assistant"},
                        *(
                            {"type": "TEXT_MESSAGE_CONTENT", "messageId": message_id, "delta": d}
                            for d in deltas
                        ),
                        {"type": "TEXT_MESSAGE_END", "messageId": message_id},
                    ]
                    if len(deltas) == 2 and c.boolean(0.15):
                        # A snapshot while the text streams, holding what has come of it.
                        self.emit(*text_events[:2])
                        self.snapshot({**assistant, "content": deltas[0]})
                        text_events = text_events[2:]
        self.emit(*text_events)
        calls: list[_Call] = []
        if with_tools:
            # The last step's calls may be frontend tools the client answers (in the next run's input).
            frontend = final and streamed and c.boolean(0.7)
            for index in range(c.integer(1, 2)):
                name, arguments = TOOLS[index]
                timings = (AFTER_END, BEFORE_END, IN_SNAPSHOT)
                timing = NO_RESULT if frontend else c.choice(timings) if streamed else IN_SNAPSHOT
                calls.append(
                    _Call(
                        call_id=self.next_id("call-"),
                        name=name,
                        arguments=arguments,
                        result=RESULTS[index],
                        result_id=self.next_id("result-"),
                        timing=timing,
                    )
                )
            assistant["toolCalls"] = [
                {
                    "id": call.call_id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in calls
            ]
            if streamed:
                self.stream_calls(calls, message_id if c.boolean(0.7) else None, assistant)
        self.run.append(assistant)
        for call in calls:
            if call.timing == NO_RESULT:
                self.waiting.append(call)
            else:
                self.run.append(self.tool_message(call))

    def tool_message(self, call: _Call) -> Message:
        """The tool message of ``call``'s result in the producer's thread."""
        return {
            "id": self.snapshot_id(call.result_id, "tool"),
            "role": "tool",
            "toolCallId": call.call_id,
            "content": call.result,
        }

    def reasoning(self, streamed: bool) -> None:
        c = self.c
        reasoning_id = self.next_id("think-")
        text = c.choice(THOUGHTS)
        if streamed:
            self.emit({"type": "REASONING_START", "messageId": reasoning_id})
            self.emit({"type": "REASONING_MESSAGE_START", "messageId": reasoning_id, "role": "reasoning"})
            self.emit(
                *(
                    {"type": "REASONING_MESSAGE_CONTENT", "messageId": reasoning_id, "delta": d}
                    for d in _pieces(c, text)
                )
            )
            self.emit({"type": "REASONING_MESSAGE_END", "messageId": reasoning_id})
            self.emit({"type": "REASONING_END", "messageId": reasoning_id})
        self.run.append(
            {"id": self.snapshot_id(reasoning_id, "reasoning"), "role": "reasoning", "content": text}
        )

    def stream_calls(self, calls: list[_Call], parent: str | None, assistant: Message) -> None:
        c = self.c
        interleaved = len(calls) > 1 and not self.chunk_events and c.boolean(0.5)

        def start(call: _Call) -> Event:
            event: Event = {"type": "TOOL_CALL_START", "toolCallId": call.call_id, "toolCallName": call.name}
            if parent is not None:
                event["parentMessageId"] = parent
            return event

        def arguments(call: _Call) -> list[Event]:
            return [
                {"type": "TOOL_CALL_ARGS", "toolCallId": call.call_id, "delta": d}
                for d in _pieces(c, call.arguments)
            ]

        def result(call: _Call) -> Event:
            return {
                "type": "TOOL_CALL_RESULT",
                "messageId": call.result_id,
                "toolCallId": call.call_id,
                "content": call.result,
                "role": "tool",
            }

        def end(call: _Call) -> list[Event]:
            early = [result(call)] if call.timing == BEFORE_END else []
            return [*early, {"type": "TOOL_CALL_END", "toolCallId": call.call_id}]

        if self.chunk_events:
            for call in calls:
                pieces = _pieces(c, call.arguments)
                first: Event = {**start(call), "type": "TOOL_CALL_CHUNK", "delta": pieces[0]}
                rest = [
                    {"type": "TOOL_CALL_CHUNK", "toolCallId": call.call_id, "delta": d} for d in pieces[1:]
                ]
                self.emit(first, *rest)
                if call.timing == BEFORE_END:
                    self.emit(result(call))  # a chunked call has no end: its result follows it at once
        elif interleaved:
            for call in calls:
                self.emit(start(call))
            for call in calls:
                self.emit(*arguments(call))
            for call in calls:
                self.emit(*end(call))
        else:
            for index, call in enumerate(calls):
                deltas = arguments(call)
                if index == 0 and len(deltas) == 2 and c.boolean(0.15):
                    # A snapshot while the first call's arguments stream, holding what has come of them.
                    function = {"name": call.name, "arguments": deltas[0]["delta"]}
                    partial = {**assistant["toolCalls"][0], "function": function}
                    self.emit(start(call), deltas[0])
                    self.snapshot({**assistant, "toolCalls": [partial]})
                    self.emit(deltas[1], *end(call))
                else:
                    if index == 1 and c.boolean(0.15):
                        # A snapshot between two calls of one message (with the first one's result, if it came).
                        first_call = calls[0]
                        held: list[Message] = [{**assistant, "toolCalls": assistant["toolCalls"][:1]}]
                        if first_call.timing == BEFORE_END:
                            held.append(self.tool_message(first_call))
                        self.snapshot(*held)
                    self.emit(start(call), *deltas, *end(call))
        for call in calls:
            if call.timing == AFTER_END:
                self.emit(result(call))


def snapshot_stream(c: Chooser) -> list[Event]:
    """One stream: one to three runs of a producer (see the module docstring)."""
    producer = _Producer(c, chat_input=c.boolean(0.6))
    runs = c.integer(1, 3)
    for number in range(1, runs + 1):
        producer.one_run(number, last=number == runs)
    return producer.events


def seeded_streams(count: int, first_seed: int = 0) -> list[list[Event]]:
    """``count`` streams, the same every time."""
    return [snapshot_stream(SeededChooser(seed)) for seed in range(first_seed, first_seed + count)]


@st.composite
def snapshot_streams(draw: Any) -> list[Event]:
    """Hypothesis strategy of :func:`snapshot_stream`."""
    return snapshot_stream(DrawChooser(draw))
