"""Benchmark the AG-UI reducer against @ag-ui/client, side by side in one run.

Run from the project root: ``.venv/bin/python bench/bench_agui.py [--deltas 50000] [--repeats 5]``.

1. ``apply_events`` on pre-parsed wire dicts vs @ag-ui/client on the same events in node (JSON parsing is
   excluded on both sides; node times itself): driven like ``runAgent`` (the whole pipeline) and the bare
   ``defaultApplyEvents`` behind chunk expansion.
2. From raw JSONL bytes: ``apply_events(blob)`` (and ``iter_wire_events``) vs merely
   ``[orjson.loads(line) for line in blob.splitlines()]``.
3. Linearity: our time per delta at a tenth of the size and at full size.

Targets: at least 20x faster than the reference; from raw JSONL within 2.5x of merely parsing the lines.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agui_notebook.agui._apply import apply_events  # noqa: E402
from agui_notebook.agui._intake import iter_wire_events  # noqa: E402


def make_stream(deltas: int, messages: int = 20) -> list[dict[str, Any]]:
    """One run with ``messages`` rounds of reasoning, text and a tool call, ``deltas`` deltas in all."""
    per_part = max(1, deltas // (messages * 3))
    events: list[dict[str, Any]] = [{"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}]
    events.append({"type": "STATE_SNAPSHOT", "snapshot": {"round": 0, "notes": []}})
    for m in range(messages):
        rid, mid, cid = f"r{m}", f"m{m}", f"c{m}"
        events.append({"type": "REASONING_START", "messageId": rid})
        events.append({"type": "REASONING_MESSAGE_START", "messageId": rid, "role": "reasoning"})
        events += [
            {"type": "REASONING_MESSAGE_CONTENT", "messageId": rid, "delta": f"think {i} "}
            for i in range(per_part)
        ]
        events.append({"type": "REASONING_MESSAGE_END", "messageId": rid})
        events.append({"type": "REASONING_END", "messageId": rid})
        events.append({"type": "TEXT_MESSAGE_START", "messageId": mid, "role": "assistant"})
        events += [
            {"type": "TEXT_MESSAGE_CONTENT", "messageId": mid, "delta": f"word{i} "} for i in range(per_part)
        ]
        events.append({"type": "TEXT_MESSAGE_END", "messageId": mid})
        events.append(
            {"type": "TOOL_CALL_START", "toolCallId": cid, "toolCallName": "search", "parentMessageId": mid}
        )
        events.append({"type": "TOOL_CALL_ARGS", "toolCallId": cid, "delta": '{"q": "'})
        events += [
            {"type": "TOOL_CALL_ARGS", "toolCallId": cid, "delta": f"a{i} "} for i in range(per_part - 2)
        ]
        events.append({"type": "TOOL_CALL_ARGS", "toolCallId": cid, "delta": '"}'})
        events.append({"type": "TOOL_CALL_END", "toolCallId": cid})
        events.append(
            {"type": "TOOL_CALL_RESULT", "messageId": f"t{m}", "toolCallId": cid, "content": "found it"}
        )
        events.append({"type": "STATE_DELTA", "delta": [{"op": "replace", "path": "/round", "value": m + 1}]})
    events.append({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"})
    return events


def median_seconds(functions: dict[str, Callable[[], Any]], repeats: int) -> dict[str, float]:
    """Median time of each function, measured interleaved so that load from other processes hits all alike."""
    times: dict[str, list[float]] = {name: [] for name in functions}
    for _ in range(repeats):
        for name, function in functions.items():
            start = time.perf_counter()
            function()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def reference_seconds(events: list[dict[str, Any]], repeats: int, mode: str) -> tuple[float, int] | None:
    node = shutil.which("node")
    if node is None or not (ROOT / "js" / "node_modules").is_dir():
        return None
    completed = subprocess.run(
        [node, str(ROOT / "js" / "reference" / "agui_bench.mjs")],
        input=json.dumps({"events": events, "repeats": repeats, "mode": mode}).encode(),
        capture_output=True,
        cwd=ROOT / "js",
        check=True,
    )
    result = json.loads(completed.stdout)
    return statistics.median(result["seconds"]), result["messages"]


def deltas_in(events: list[dict[str, Any]]) -> int:
    return sum(e["type"].endswith(("_CONTENT", "_ARGS")) for e in events)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deltas", type=int, default=50_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--reference-repeats", type=int, default=1)
    args = parser.parse_args()

    events = make_stream(args.deltas)
    small = make_stream(args.deltas // 10)
    blob = b"\n".join(orjson.dumps(e) for e in events) + b"\n"
    n_deltas, n_events = deltas_in(events), len(events)
    thread = apply_events(events)
    print(
        f"stream: {n_events} events, {n_deltas} deltas, {len(blob) / 1e6:.1f} MB of JSONL, {len(thread.message_dicts)} messages"
    )

    ours = median_seconds({"ours": lambda: apply_events(events)}, args.repeats)["ours"]
    print("\n1. pre-parsed wire dicts (median of runs, JSON parsing excluded)")
    print(
        f"   apply_events                            {ours * 1e3:9.1f} ms   {ours / n_deltas * 1e9:7.0f} ns/delta"
    )
    for mode, label in (
        ("reducer", "defaultApplyEvents (+chunks, compat)"),
        ("runAgent", "runAgent pipeline (node)"),
    ):
        measured = reference_seconds(events, args.reference_repeats, mode)
        if measured is None:
            print(f"   {label:40s} skipped: node or js/node_modules missing")
            continue
        seconds, count = measured
        assert count == len(thread.message_dicts), (count, len(thread.message_dicts))
        verdict = "meets" if seconds / ours >= 20 else "MISSES"
        print(
            f"   @ag-ui/client {label:26s} {seconds * 1e3:9.1f} ms   ours is {seconds / ours:6.1f}x faster ({verdict} >= 20x)"
        )

    lines = blob.splitlines()
    raw = median_seconds(
        {
            "parse": lambda: [orjson.loads(line) for line in blob.splitlines()],
            "apply": lambda: apply_events(blob),
            "intake": lambda: list(iter_wire_events(blob)),
        },
        args.repeats * 2,
    )
    parse_only, from_blob, intake_only = raw["parse"], raw["apply"], raw["intake"]
    print(f"\n2. from raw JSONL bytes ({len(lines)} lines)")
    print(f"   [orjson.loads(l) for l in lines]        {parse_only * 1e3:9.1f} ms")
    print(
        f"   list(iter_wire_events(blob))            {intake_only * 1e3:9.1f} ms   {intake_only / parse_only:5.2f}x of parsing"
    )
    verdict = "meets" if from_blob / parse_only <= 2.5 else "MISSES"
    print(
        f"   apply_events(blob)                      {from_blob * 1e3:9.1f} ms   {from_blob / parse_only:5.2f}x of parsing ({verdict} <= 2.5x)"
    )

    sizes = median_seconds(
        {"small": lambda: apply_events(small), "large": lambda: apply_events(events)}, args.repeats * 2
    )
    small_seconds, large_seconds = sizes["small"], sizes["large"]
    per_small = small_seconds / deltas_in(small)
    per_large = large_seconds / n_deltas
    print("\n3. linearity (pre-parsed)")
    print(f"   {deltas_in(small):6d} deltas: {small_seconds * 1e3:8.2f} ms   {per_small * 1e9:6.0f} ns/delta")
    print(
        f"   {n_deltas:6d} deltas: {large_seconds * 1e3:8.2f} ms   {per_large * 1e9:6.0f} ns/delta   (ratio {per_large / per_small:.2f}; 1.0 is linear)"
    )


if __name__ == "__main__":
    main()
