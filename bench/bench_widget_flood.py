"""Benchmark: a flood of deltas into a displayed ChatWidget: the kernel's cost per event and its longest stall.

An agent streams N text deltas as fast as it can (an async generator that never awaits, and a sync generator in
its worker thread) into a ChatWidget that is displayed (so its saved copy is kept) and has a view (the comm's
messages are serialised as Jupyter's session would). A ticker task on the kernel's loop records the longest gap
between its ticks: how long a click on Stop, or any other cell's callback, would have waited. Sizes side by side
show whether the cost per event grows with the answer's length.

Targets (issue 23): the cost per event stays within the documented kernel cost (about 200 µs per delta, see
docs/widget.md) at every size, and the loop never stalls for more than 0.5 s.

    .venv/bin/python bench/bench_widget_flood.py [--sizes 10000,100000] [--repeats 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from agui_notebook import ChatWidget

TICK = 0.005  # seconds between the ticker's wake-ups


def async_flood(deltas: int) -> Any:
    async def agent(run_input: Any) -> AsyncIterator[str]:
        for index in range(deltas):
            yield f"word{index % 97} " if index % 50 else "\n\nA new paragraph: "

    return agent


def sync_flood(deltas: int) -> Any:
    def agent(run_input: Any) -> Iterator[str]:
        for index in range(deltas):
            yield f"word{index % 97} " if index % 50 else "\n\nA new paragraph: "

    return agent


async def flood(agent: Any) -> dict[str, float]:
    widget = ChatWidget(agent, store=None)
    sent = [0]

    def record(data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        sent[0] += len(json.dumps(data, ensure_ascii=False, allow_nan=False))

    widget.comm.send = record
    with capture_output():
        InteractiveShell.instance().display_formatter.format(widget)  # displayed: the saved copy is kept
    widget._handle_msg(
        {"content": {"data": {"method": "custom", "content": {"kind": "resync"}}}, "buffers": []}
    )
    gaps: list[float] = []
    running = True

    async def ticker() -> None:
        last = time.perf_counter()
        while running:
            await asyncio.sleep(TICK)
            now = time.perf_counter()
            gaps.append(now - last - TICK)
            last = now

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)
    cpu, wall = time.process_time(), time.perf_counter()
    with capture_output():
        outcome = await widget.send_message("flood")
        await asyncio.sleep(0.1)  # the turn's end: the saved copy, the last patch
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    running = False
    await ticking
    assert outcome == "success", outcome
    events = len(widget.chat.events)
    widget.close()
    return {"events": events, "cpu_us": cpu / events * 1e6, "wall_s": wall, "stall_ms": max(gaps) * 1000,
            "kb": sent[0] / 1024}  # fmt: skip


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for name, make in (("async, never awaits", async_flood), ("sync, worker thread", sync_flood)):
        print(name)
        first = None
        for size in sizes:
            runs = [await flood(make(size)) for _ in range(args.repeats)]
            cpu = statistics.median(r["cpu_us"] for r in runs)
            stall = max(r["stall_ms"] for r in runs)
            first = first or cpu
            print(
                f"  {size:>7,} deltas: {cpu:6.1f} µs CPU per event ({cpu / first:.2f}x the smallest), "
                f"longest stall {stall:6.1f} ms (target ≤ 500), {runs[0]['wall_s']:.1f} s, "
                f"{runs[0]['kb']:,.0f} KB on the comm"
            )


if __name__ == "__main__":
    asyncio.run(main())
