"""Wire cost of live widget updates: PatchBatcher patches vs resending the whole message on every delta.

A 3,000-delta streamed answer (deltas of 1-8 characters, as model tokens come) is replayed on a simulated clock at
a steady token rate and in one burst. For each, side by side in one run:

- bytes on the wire (JSON, as the Jupyter comm encodes it) of the batched patches;
- the same with one patch per delta (no batching);
- resending the whole assistant message on every delta, and the whole message list (the `messages` trait);
- widget messages per second of simulated time, and the batcher's own throughput (deltas/s of CPU, medians).

The requirement: batched patches under 1% of the whole-message-per-delta bytes, at most ~30 messages/s.

Run: .venv/bin/python bench/bench_widget_wire.py
"""

from __future__ import annotations

import copy
import json
import random
import statistics
import time
from typing import Any

from agui_notebook.ui._changes import MessageChange
from agui_notebook.widget._patches import PatchBatcher

DELTAS = 3000
REPEATS = 5
WORDS = (
    "the",
    "agent",
    "streams",
    "tokens",
    "into",
    "a",
    "message",
    "while",
    "widget",
    "renders",
    "markdown",
    "blocks",
    "incrementally",
    "patches",
    "carry",
    "only",
    "what",
    "changed",
    "since",
    "previous",
    "frame",
)


def deltas(seed: int = 7) -> list[str]:
    """3,000 token-sized pieces of a markdown answer with paragraphs, a list and a code block."""
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < DELTAS:
        roll = rng.random()
        if roll < 0.02:
            out.append("\n\n")
        elif roll < 0.03:
            out.append("\n- ")
        elif roll < 0.035:
            out.append("\n```python\nx = 1\n```\n")
        else:
            word = rng.choice(WORDS)
            out.append(" " + word if len(word) < 8 else word)
    return out[:DELTAS]


def conversation() -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = []
    for turn in range(5):
        history.append(
            {"id": f"u{turn}", "role": "user", "parts": [{"type": "text", "text": "a question " * 8}]}
        )
        history.append(
            {
                "id": f"a{turn}",
                "role": "assistant",
                "parts": [{"type": "text", "text": "an answer " * 60, "state": "done"}],
            }
        )
    return history


def wire_bytes(message: Any) -> int:
    return len(json.dumps(message, ensure_ascii=False).encode())


def replay(pieces: list[str], rate: float | None, *, batched: bool) -> dict[str, float]:
    """Stream the answer; `rate` deltas per simulated second (None: all at one instant)."""
    now = 0.0
    messages = conversation()
    batcher = PatchBatcher(messages, clock=lambda: now)
    messages.append(
        {"id": "live", "role": "assistant", "parts": [{"type": "text", "text": "", "state": "streaming"}]}
    )
    mi = len(messages) - 1
    batcher.add(MessageChange("message", mi))
    batcher.set_status("streaming")
    sent_bytes = wire_bytes(batcher.flush(now=now))
    sent_messages = 1
    whole_message = 0
    whole_list = 0
    part = messages[mi]["parts"][0]
    for index, piece in enumerate(pieces):
        now = index / rate if rate else 0.0
        part["text"] += piece
        batcher.add(MessageChange("text", mi, 0, piece))
        whole_message += wire_bytes({"kind": "patch", "seq": index, "ops": [["m", mi, messages[mi]]]})
        whole_list += wire_bytes(messages)
        if not batched or batcher.due(now):
            sent_bytes += wire_bytes(batcher.flush(now=now))
            sent_messages += 1
    part["state"] = "done"
    batcher.add(MessageChange("part", mi, 0))
    batcher.set_status("ready")
    sent_bytes += wire_bytes(batcher.flush(now=now))
    sent_messages += 1
    duration = now if rate else 0.0
    return {
        "patch_bytes": sent_bytes,
        "messages": sent_messages,
        "whole_message_bytes": whole_message,
        "whole_list_bytes": whole_list,
        "duration": duration,
    }


def batcher_throughput(pieces: list[str]) -> float:
    """Deltas per CPU second through add + due + flush + JSON encoding, on the real clock."""
    timings = []
    for _ in range(REPEATS):
        messages = [
            {"id": "live", "role": "assistant", "parts": [{"type": "text", "text": "", "state": "streaming"}]}
        ]
        batcher = PatchBatcher(messages)
        part = messages[0]["parts"][0]
        start = time.perf_counter()
        for piece in pieces:
            part["text"] += piece
            batcher.add(MessageChange("text", 0, 0, piece))
            if batcher.due():
                json.dumps(batcher.flush())
        json.dumps(batcher.flush())
        timings.append(time.perf_counter() - start)
    return len(pieces) / statistics.median(timings)


def widget_cost(pieces: list[str]) -> dict[str, float]:
    """CPU microseconds per streamed item through a whole ChatWidget run (comm stubbed), events and chunks.

    Covers what a widget does per item: the JSON check of values entering it, the conversation, the patches.
    Process CPU time, best of ``REPEATS`` plays: the machine is shared, and wall time mostly measures the others.
    """
    import asyncio

    from agui_notebook.widget._chat import ChatWidget

    events = [
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        *({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": p} for p in pieces),
        {"type": "TEXT_MESSAGE_END", "messageId": "m"},
    ]
    chunks = [
        {"type": "start", "messageId": "c"},
        {"type": "text-start", "id": "t"},
        *({"type": "text-delta", "id": "t", "delta": p} for p in pieces),
        {"type": "text-end", "id": "t"},
        {"type": "finish"},
    ]

    async def run(items: list[dict[str, Any]]) -> float:
        timings = []
        for _ in range(REPEATS):
            chat = ChatWidget()
            chat.comm.send = lambda *args, **kwargs: None  # type: ignore[method-assign]
            start = time.process_time()
            await chat.play([dict(item) for item in items])
            timings.append(time.process_time() - start)
        return min(timings) / len(items) * 1e6

    async def both() -> dict[str, float]:
        return {"events": await run(events), "chunks": await run(chunks)}

    return asyncio.run(both())


def main() -> None:
    pieces = deltas()
    answer_chars = sum(len(piece) for piece in pieces)
    print(f"answer: {DELTAS} deltas, {answer_chars:,} characters")
    print(
        f"{'scenario':<28}{'messages':>10}{'msg/s':>8}{'patch bytes':>13}{'whole msg bytes':>17}{'ratio':>9}{'list bytes':>14}"
    )
    results = {}
    for name, rate, batched in [
        ("steady 150 deltas/s", 150.0, True),
        ("steady 150/s, unbatched", 150.0, False),
        ("burst (one instant)", None, True),
    ]:
        result = replay(copy.copy(pieces), rate, batched=batched)
        results[name] = result
        per_second = result["messages"] / result["duration"] if result["duration"] else float("nan")
        ratio = result["patch_bytes"] / result["whole_message_bytes"]
        print(
            f"{name:<28}{result['messages']:>10,}{per_second:>8.1f}{result['patch_bytes']:>13,}"
            f"{result['whole_message_bytes']:>17,}{ratio:>8.3%}{result['whole_list_bytes']:>14,}"
        )
    steady = results["steady 150 deltas/s"]
    ratio = steady["patch_bytes"] / steady["whole_message_bytes"]
    rate = steady["messages"] / steady["duration"]
    print(f"batched patches / whole message per delta: {ratio:.3%} (must be < 1%)")
    print(f"widget messages per second while streaming: {rate:.1f} (policy: <= 30 + start/end)")
    print(f"batcher throughput (median of {REPEATS}): {batcher_throughput(pieces):,.0f} deltas/s")
    cost = widget_cost(pieces)
    print(
        f"ChatWidget per streamed item (CPU, best of {REPEATS} plays): {cost['events']:.1f} µs per AG-UI event, "
        f"{cost['chunks']:.1f} µs per AI SDK chunk"
    )
    if ratio >= 0.01:
        raise SystemExit("FAIL: batched patches are not under 1% of whole-message resends")


if __name__ == "__main__":
    main()
