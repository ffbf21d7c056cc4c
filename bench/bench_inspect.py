"""Seek time of the inspector on a 50,000-event run: checkpoints every K events and a replay from the nearest,
side by side with a naive replay of every event from the start (``ui_message_dicts_from_events(events[:n + 1])``).

For each of 200 random positions (the same for both), the time to the messages after the event (what a seek
sends), and for the checkpointed timeline also the state after it and the JSON of the messages (the trait's wire
form). Printed: the build time and the seek time distribution (median, p90, p99, max) per way and per K.

The requirement: a seek anywhere in ≤ 100 ms.

Run: .venv/bin/python bench/bench_inspect.py
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.inspection._timeline import EventTimeline
from tests.support.big_runs import big_run

SEEKS = 200
NAIVE_SEEKS = 40  # the naive way takes seconds a seek on the whole run


def distribution(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)

    def at(q: float) -> float:
        return ms[min(len(ms) - 1, int(q * len(ms)))]

    return (
        f"median {statistics.median(ms):8.1f} ms  p90 {at(0.9):8.1f} ms  p99 {at(0.99):8.1f} ms  "
        f"max {ms[-1]:8.1f} ms"
    )


def main() -> None:
    events = big_run(50_000)
    rng = random.Random(11)
    positions = [rng.randrange(len(events)) for _ in range(SEEKS)]
    print(f"{len(events):,} events, {SEEKS} random seeks")
    for every in (128, 256, 512, 1024):
        start = time.perf_counter()
        timeline = EventTimeline(events, every=every)
        built = time.perf_counter() - start
        seeks = []
        for n in positions:
            start = time.perf_counter()
            messages = timeline.messages_after(n)
            timeline.state_after(n)
            json.dumps(messages)
            seeks.append(time.perf_counter() - start)
        print(f"checkpoints every {every:>3}: build {built:5.2f} s   seek {distribution(seeks)}")
    naive = []
    for n in positions[:NAIVE_SEEKS]:
        start = time.perf_counter()
        json.dumps(ui_message_dicts_from_events(events[: n + 1]))
        naive.append(time.perf_counter() - start)
    print(f"naive replay from zero ({NAIVE_SEEKS} seeks):   seek {distribution(naive)}")


if __name__ == "__main__":
    main()
