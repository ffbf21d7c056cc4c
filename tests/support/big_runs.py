"""A big recorded log made up for the inspector's seek tests and bench: many runs of streamed text, tool calls
and state deltas, with receive timestamps (milliseconds) as a recorder writes them."""

from __future__ import annotations

import random
from typing import Any

WORDS = ("the", "agent", "streams", "tokens", "into", "a", "message", "while", "the", "widget", "renders")


def big_run(count: int = 50_000, *, seed: int = 3) -> list[dict[str, Any]]:
    """At least ``count`` AG-UI events (cut at the end of the run that reaches it), valid by ``verify_events``."""
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    clock = 1_795_000_000_000
    run = 0

    def add(event: dict[str, Any], gap: int = 15) -> None:
        nonlocal clock
        clock += rng.randint(1, gap)
        events.append({**event, "timestamp": clock})

    while len(events) < count:
        run += 1
        ids = {"threadId": "t", "runId": f"r{run}"}
        add({"type": "RUN_STARTED", **ids}, gap=2000)
        add({"type": "STATE_DELTA", "delta": [{"op": "add", "path": f"/run{run}", "value": {"step": 0}}]})
        for step in range(3):
            message = f"m{run}-{step}"
            add({"type": "TEXT_MESSAGE_START", "messageId": message, "role": "assistant"})
            for _ in range(rng.randint(200, 600)):
                add({"type": "TEXT_MESSAGE_CONTENT", "messageId": message, "delta": rng.choice(WORDS) + " "})
            add({"type": "TEXT_MESSAGE_END", "messageId": message})
            call = f"c{run}-{step}"
            add(
                {
                    "type": "TOOL_CALL_START",
                    "toolCallId": call,
                    "toolCallName": "lookup",
                    "parentMessageId": message,
                }
            )
            add({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": '{"query": "'})
            for _ in range(rng.randint(5, 40)):
                add({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": rng.choice(WORDS)})
            add({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": '"}'})
            add({"type": "TOOL_CALL_END", "toolCallId": call})
            add(
                {
                    "type": "TOOL_CALL_RESULT",
                    "messageId": f"{call}-result",
                    "toolCallId": call,
                    "content": f"result {step}",
                    "role": "tool",
                },
                gap=300,
            )
            add(
                {
                    "type": "STATE_DELTA",
                    "delta": [{"op": "replace", "path": f"/run{run}/step", "value": step + 1}],
                }
            )
        add({"type": "RUN_FINISHED", **ids})
    return events


def _turn(add: Any, rng: random.Random, key: str) -> None:
    """One agent turn: a streamed answer, a tool call with its result, a streamed follow-up."""
    first, second, call = f"m{key}a", f"m{key}b", f"c{key}"
    add({"type": "STEP_STARTED", "stepName": "model"})
    add({"type": "TEXT_MESSAGE_START", "messageId": first, "role": "assistant"})
    for _ in range(rng.randint(10, 30)):
        add({"type": "TEXT_MESSAGE_CONTENT", "messageId": first, "delta": rng.choice(WORDS) + " "})
    add({"type": "TEXT_MESSAGE_END", "messageId": first})
    add({"type": "TOOL_CALL_START", "toolCallId": call, "toolCallName": "lookup", "parentMessageId": first})
    add({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": '{"query": "'})
    for _ in range(rng.randint(1, 5)):
        add({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": rng.choice(WORDS)})
    add({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": '"}'})
    add({"type": "TOOL_CALL_END", "toolCallId": call})
    add(
        {
            "type": "TOOL_CALL_RESULT",
            "messageId": f"{call}-r",
            "toolCallId": call,
            "content": "found",
            "role": "tool",
        }
    )
    add({"type": "TEXT_MESSAGE_START", "messageId": second, "role": "assistant"})
    for _ in range(rng.randint(5, 20)):
        add({"type": "TEXT_MESSAGE_CONTENT", "messageId": second, "delta": rng.choice(WORDS) + " "})
    add({"type": "TEXT_MESSAGE_END", "messageId": second})
    add({"type": "STEP_FINISHED", "stepName": "model"})


def turns_log(count: int, *, runs: bool, seed: int = 7) -> list[dict[str, Any]]:
    """At least ``count`` events of agent turns (about 60 events each, as a production chat log has): each
    turn its own run (``runs=True``, a log of many short runs) or all of them in one long run."""
    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    clock = 1_795_000_000_000

    def add(event: dict[str, Any]) -> None:
        nonlocal clock
        clock += rng.randint(1, 15)
        events.append({**event, "timestamp": clock})

    turn = 0
    if not runs:
        add({"type": "RUN_STARTED", "threadId": "t", "runId": "r"})
    while len(events) < count - (0 if runs else 1):
        turn += 1
        if runs:
            add({"type": "RUN_STARTED", "threadId": "t", "runId": f"r{turn}"})
        _turn(add, rng, str(turn))
        if runs:
            add({"type": "RUN_FINISHED", "threadId": "t", "runId": f"r{turn}"})
    if not runs:
        add({"type": "RUN_FINISHED", "threadId": "t", "runId": "r"})
    return events


def recorded_chat_log(count: int, *, seed: int = 9) -> list[dict[str, Any]]:
    """At least ``count`` events of agent turns as a ChatWidget's recorder writes them: each run's RUN_STARTED
    carries its input (the conversation so far as AG-UI messages and the user's new message); every third turn's
    tool is the front end's, its result coming in the next run's input."""
    from agui_notebook.bridge._assemble import ui_message_dicts_from_events
    from agui_notebook.bridge._messages import to_agui_messages_wire

    rng = random.Random(seed)
    events: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    clock = 1_795_000_000_000
    turn = 0
    answered: dict[str, Any] | None = None

    def add(event: dict[str, Any]) -> None:
        nonlocal clock
        clock += rng.randint(1, 15)
        events.append({**event, "timestamp": clock})

    while len(events) < count:
        turn += 1
        user = {"id": f"u{turn}", "role": "user", "content": f"question {turn}"}
        messages = [*history, *([answered] if answered else []), user]
        run = {"threadId": "t", "runId": f"r{turn}"}
        add(
            {"type": "RUN_STARTED", **run, "input": {**run, "messages": messages, "tools": [], "context": []}}
        )
        start = len(events)
        _turn(add, rng, str(turn))
        answered = None
        if turn % 3 == 0:  # a front-end tool: no result event, the result in the next input
            events[:] = [e for e in events[:start]] + [
                e for e in events[start:] if e["type"] != "TOOL_CALL_RESULT"
            ]
            answered = {"id": f"ft{turn}", "role": "tool", "toolCallId": f"c{turn}", "content": "done"}
        add({"type": "RUN_FINISHED", **run})
        history = [*messages, *to_agui_messages_wire(ui_message_dicts_from_events(events[start - 1 :]))]
    return events
