"""Benchmark: AG-UI events to UIMessages, ours vs the references, side by side in one run.

On one AG-UI stream of N deltas (reasoning, text and streamed tool arguments over several model steps):

- ours: ``ui_message_dicts_from_events`` on pre-parsed event dicts (and the bare ``UIMessageAssembler`` loop);
- ``@ag-ui/client``'s ``runAgent`` on the same pre-parsed events (timed inside node);
- the AI SDK's ``readUIMessageStream`` on the same run as AI SDK chunks (timed inside node);
- from raw JSONL bytes: ours end to end vs merely ``orjson.loads`` of every line.

JSON parsing is excluded from the reference timings and from "pre-parsed". Prints medians and ratios, and the
growth from 5k to 50k deltas (10.0 is linear).

Then the live path on one tool call whose arguments (7 kB to 700 kB) stream in 8-character deltas: the
assembler as the widget runs it (inputs parsed when read, here every 100 deltas, about what a 30-per-second
view reads of a fast stream) against parsing the input after every delta as the AI SDK does.

    .venv/bin/python bench/bench_core.py [--runs 5] [--reference-runs 2]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from agui_notebook.bridge._assemble import (
    UIMessageAssembler,
    ui_chunks_from_events,
    ui_message_dicts_from_events,
)

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "js" / "reference"


def build_events(deltas: int) -> list[dict[str, Any]]:
    """One run of ``deltas`` deltas: per model step, reasoning, text and a streamed tool call with its result."""
    events: list[dict[str, Any]] = [{"type": "RUN_STARTED", "threadId": "thread", "runId": "run"}]
    made = step = 0
    arguments = json.dumps({"query": "weather in paris " * 4, "limit": 10, "filters": {"lang": ["en", "fr"]}})
    while made < deltas:
        r, t, c = f"r{step}", f"t{step}", f"c{step}"
        events.append({"type": "REASONING_START", "messageId": r})
        events.append({"type": "REASONING_MESSAGE_START", "messageId": r, "role": "reasoning"})
        for i in range(min(40, deltas - made)):
            events.append({"type": "REASONING_MESSAGE_CONTENT", "messageId": r, "delta": f"thought {i} "})
            made += 1
        events.append({"type": "REASONING_MESSAGE_END", "messageId": r})
        events.append({"type": "REASONING_END", "messageId": r})
        events.append({"type": "TEXT_MESSAGE_START", "messageId": t, "role": "assistant"})
        for i in range(min(100, deltas - made)):
            events.append({"type": "TEXT_MESSAGE_CONTENT", "messageId": t, "delta": f"word{i} "})
            made += 1
        events.append({"type": "TEXT_MESSAGE_END", "messageId": t})
        events.append(
            {"type": "TOOL_CALL_START", "toolCallId": c, "toolCallName": "search", "parentMessageId": t}
        )
        for i in range(0, len(arguments), 6):
            if made >= deltas:
                break
            events.append({"type": "TOOL_CALL_ARGS", "toolCallId": c, "delta": arguments[i : i + 6]})
            made += 1
        events.append({"type": "TOOL_CALL_END", "toolCallId": c})
        events.append(
            {"type": "TOOL_CALL_RESULT", "messageId": f"res{step}", "toolCallId": c, "content": '{"n": 3}'}
        )
        step += 1
    events.append(
        {"type": "RUN_FINISHED", "threadId": "thread", "runId": "run", "outcome": {"type": "success"}}
    )
    return events


def median_seconds(function: Callable[[], Any], runs: int) -> float:
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def assembler_loop(events: list[dict[str, Any]]) -> None:
    assembler = UIMessageAssembler()
    push = assembler.push
    for event in events:
        push(event)
    assembler.close()


def long_arguments_events(size: int) -> list[dict[str, Any]]:
    """One run with one tool call whose JSON arguments are about ``size`` characters, in 8-character deltas."""
    arguments = json.dumps({"path": "notes.md", "content": "x" * size})
    events: list[dict[str, Any]] = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "write_file"},
    ]
    events += [
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": arguments[i : i + 8]}
        for i in range(0, len(arguments), 8)
    ]
    events += [
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]
    return events


def live_loop(events: list[dict[str, Any]], *, defer: bool, read_every: int = 100) -> list[dict[str, Any]]:
    assembler = UIMessageAssembler(defer_tool_input=defer)
    for count, event in enumerate(events, 1):
        assembler.push(event)
        if count % read_every == 0:
            assembler.settle()  # what the widget does before it builds a patch
    assembler.settle()
    return assembler.messages


def bench_long_arguments(runs: int) -> None:
    print("one tool call with long streamed arguments, live (8-character deltas):")
    for size in (7_000, 70_000, 700_000):
        events = long_arguments_events(size)
        deltas = len(events) - 4
        assert live_loop(events, defer=True) == live_loop(events, defer=False)
        deferred = median_seconds(lambda events=events: live_loop(events, defer=True), runs)
        eager = median_seconds(lambda events=events: live_loop(events, defer=False), max(1, runs // 2))
        print(
            f"    {size // 1000:>4} kB, {deltas:>6} deltas: parsed when read {deferred / deltas * 1e6:6.1f} us/delta, "
            f"after every delta {eager / deltas * 1e6:8.1f} us/delta -> {eager / deferred:6.1f}x"
        )


def node_median(script: str, payload: dict[str, Any]) -> float:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is needed for the reference timings (and js/node_modules: npm install in js/)")
    completed = subprocess.run(
        [node, str(REFERENCE / script)],
        input=json.dumps(payload).encode(),
        capture_output=True,
        cwd=ROOT / "js",
        check=True,
    )
    return statistics.median(json.loads(completed.stdout)["seconds"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--reference-runs", type=int, default=2)
    args = parser.parse_args()
    ours_by_size = {}
    for deltas in (5_000, 50_000):
        events = build_events(deltas)
        chunks = list(ui_chunks_from_events(events))
        blob = b"\n".join(orjson.dumps(e) for e in events) + b"\n"
        assert ui_message_dicts_from_events(blob) == ui_message_dicts_from_events(events)

        ours = median_seconds(lambda events=events: ui_message_dicts_from_events(events), args.runs)
        loop = median_seconds(lambda events=events: assembler_loop(events), args.runs)
        from_jsonl = median_seconds(lambda blob=blob: ui_message_dicts_from_events(blob), args.runs)
        parse_only = median_seconds(
            lambda blob=blob: [orjson.loads(line) for line in blob.splitlines()], args.runs
        )
        run_agent = node_median(
            "agui_bench.mjs", {"events": events, "repeats": args.reference_runs, "mode": "runAgent"}
        )
        read_stream = node_median("ai_bench_read_stream.mjs", {"chunks": chunks, "runs": args.reference_runs})
        ours_by_size[deltas] = ours
        print(f"{deltas:>6} deltas, {len(events)} events ({len(chunks)} AI SDK chunks):")
        print(
            f"    ours, pre-parsed events       {ours * 1e3:9.1f} ms  (assembler loop alone {loop * 1e3:.1f} ms)"
        )
        print(
            f"    @ag-ui/client runAgent        {run_agent * 1e3:9.1f} ms  -> ours is {run_agent / ours:6.1f}x faster"
        )
        print(
            f"    ai readUIMessageStream        {read_stream * 1e3:9.1f} ms  -> ours is {read_stream / ours:6.1f}x faster"
        )
        print(
            f"    ours from raw JSONL           {from_jsonl * 1e3:9.1f} ms  vs orjson.loads per line "
            f"{parse_only * 1e3:.1f} ms -> {from_jsonl / parse_only:.2f}x of merely parsing"
        )
    print(f"growth 5k -> 50k deltas (10.0 is linear): ours {ours_by_size[50_000] / ours_by_size[5_000]:.1f}x")
    bench_long_arguments(args.runs)


if __name__ == "__main__":
    main()
