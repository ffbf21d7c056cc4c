"""Benchmark: load_events and the five tables against pandas.read_json(lines=True), side by side.

Generates a ~1M-event AG-UI log (and the same events as recorder records) in a temporary folder, then times
each method in a fresh subprocess per repetition (methods interleaved, so machine load hits all alike) and
measures each one's peak memory as the growth of the process's maximum resident set over what it held after
its imports. Prints medians and ratios.

    .venv/bin/python bench/bench_logs.py                 # ~1M events, 3 repetitions
    .venv/bin/python bench/bench_logs.py --events 200000 --repeats 5

Targets (issue 4): load >= 4x faster than pandas with peak memory <= 3x the file; the five tables together
faster than the pandas load. Mixed field types (TOOL_CALL_RESULT content a string here, a list there;
STATE_DELTA's delta a list) are in the file on purpose.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import orjson

WORDS = ["the", "of", "and", "a", "to", "in", "is", "you", "that", "it", "he", "was", "for", "on", "are"]
METHODS = ("pandas.read_json", "load_events", "five tables")


def generate(path: Path, events: int, *, recorder: bool, seed: int = 7) -> int:
    """Write a log of about ``events`` events: runs of reasoning, text and tool calls with realistic ids."""
    rnd = random.Random(seed)
    now_ns = 1_760_000_000_000_000_000
    written = 0
    run = 0

    def ident() -> str:
        return str(uuid.UUID(int=rnd.getrandbits(128)))

    with open(path, "wb") as out:
        while written < events:
            run += 1
            thread, run_id = f"thread-{run % 50}", f"run-{run}"
            batch: list[dict] = [{"type": "RUN_STARTED", "threadId": thread, "runId": run_id}]
            if run % 97 == 0:
                batch.append({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/n", "value": run}]})
            reasoning = ident()
            batch += [
                {"type": "REASONING_START", "messageId": reasoning},
                {"type": "REASONING_MESSAGE_START", "messageId": reasoning, "role": "reasoning"},
            ]
            for _ in range(rnd.randint(20, 200)):
                delta = " ".join(rnd.choices(WORDS, k=rnd.randint(1, 4)))
                batch.append({"type": "REASONING_MESSAGE_CONTENT", "messageId": reasoning, "delta": delta})
            batch += [
                {"type": "REASONING_MESSAGE_END", "messageId": reasoning},
                {"type": "REASONING_END", "messageId": reasoning},
            ]
            message = ident()
            batch.append({"type": "TEXT_MESSAGE_START", "messageId": message, "role": "assistant"})
            for _ in range(rnd.randint(50, 600)):
                delta = " ".join(rnd.choices(WORDS, k=rnd.randint(1, 3)))
                batch.append({"type": "TEXT_MESSAGE_CONTENT", "messageId": message, "delta": delta})
            batch.append({"type": "TEXT_MESSAGE_END", "messageId": message})
            for k in range(rnd.randint(0, 3)):
                call = f"call_{run}_{k}"
                name = rnd.choice(["search", "get_weather", "sql"])
                batch.append(
                    {
                        "type": "TOOL_CALL_START",
                        "toolCallId": call,
                        "toolCallName": name,
                        "parentMessageId": message,
                    }
                )
                batch.append({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": '{"q": '})
                batch.append(
                    {"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": f'"{rnd.choice(WORDS)}"}}'}
                )
                batch.append({"type": "TOOL_CALL_END", "toolCallId": call})
                content: object = "a result" if k % 2 else [{"type": "text", "text": "a result in parts"}]
                batch.append(
                    {
                        "type": "TOOL_CALL_RESULT",
                        "messageId": ident(),
                        "toolCallId": call,
                        "content": content,
                        "role": "tool",
                    }
                )
            usage = [
                {"model": "m", "inputTokens": rnd.randint(50, 500), "outputTokens": rnd.randint(50, 900)}
            ]
            if run % 53 == 0:
                batch.append({"type": "RUN_ERROR", "message": "overloaded", "code": "529"})
            else:
                batch.append({"type": "RUN_FINISHED", "threadId": thread, "runId": run_id, "usage": usage})
            for event in batch:
                now_ns += rnd.randint(100_000, 30_000_000)
                event["timestamp"] = now_ns // 1_000_000
                record = (
                    {"received_ns": now_ns + rnd.randint(0, 900_000), "event": event} if recorder else event
                )
                out.write(orjson.dumps(record) + b"\n")
            written += len(batch)
    return written


CHILD = r"""
import gc, json, resource, sys, time
import pandas as pd
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._chunks import chunks_df
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._reasoning import reasoning_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df

method, path = sys.argv[1], sys.argv[2]
tables = (runs_df, messages_df, chunks_df, tool_calls_df, reasoning_df)
events = load_events(path, progress=False) if method == "five tables" else None
gc.collect()
baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
current = int(open("/proc/self/statm").read().split()[1]) * resource.getpagesize()
start = time.perf_counter()
if method == "pandas.read_json":
    result = pd.read_json(path, lines=True)
elif method == "load_events":
    result = load_events(path, progress=False)
else:
    result = [table(events) for table in tables]
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
rows = len(result) if not isinstance(result, list) else sum(len(r) for r in result)
print(json.dumps({"seconds": seconds, "peak_bytes": peak - max(baseline, current), "rows": rows}))
"""


def run_child(method: str, path: Path) -> dict:
    completed = subprocess.run(
        [sys.executable, "-c", CHILD, method, str(path)], capture_output=True, text=True, check=False
    )
    if completed.returncode != 0:
        raise RuntimeError(f"{method} failed:\n{completed.stderr}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def bench_file(path: Path, repeats: int) -> dict[str, list[dict]]:
    results: dict[str, list[dict]] = {method: [] for method in METHODS}
    for _ in range(repeats):
        for method in METHODS:
            results[method].append(run_child(method, path))
    return results


def report(label: str, path: Path, events: int, results: dict[str, list[dict]]) -> dict[str, float]:
    size = path.stat().st_size
    seconds = {m: statistics.median(r["seconds"] for r in results[m]) for m in METHODS}
    peaks = {m: statistics.median(r["peak_bytes"] for r in results[m]) for m in METHODS}
    print(f"\n{label}: {events:,} events, {size / 1e6:.0f} MB ({path.name})")
    print(f"  {'method':<20} {'median s':>9} {'runs (s)':<26} {'peak MB':>8} {'peak/file':>9}")
    for method in METHODS:
        runs = ", ".join(f"{r['seconds']:.2f}" for r in results[method])
        print(
            f"  {method:<20} {seconds[method]:>9.2f} {runs:<26} {peaks[method] / 1e6:>8.0f} {peaks[method] / size:>9.2f}"
        )
    speedup = seconds["pandas.read_json"] / seconds["load_events"]
    tables = seconds["five tables"] / seconds["pandas.read_json"]
    # Each repetition ran the methods back to back: its own ratio sees the same machine load on both sides.
    pairs = [
        p["seconds"] / o["seconds"]
        for p, o in zip(results["pandas.read_json"], results["load_events"], strict=True)
    ]
    print(f"  load_events is {speedup:.1f}x faster than pandas.read_json (target >= 4x)")
    print(
        f"    per repetition: {', '.join(f'{r:.1f}x' for r in pairs)} (median {statistics.median(pairs):.1f}x)"
    )
    print(f"  load_events peak memory is {peaks['load_events'] / size:.2f}x the file (target <= 3x)")
    print(f"  the five tables take {tables:.2f}x the pandas load (target < 1x)")
    return {"speedup": speedup, "memory_ratio": peaks["load_events"] / size, "tables_ratio": tables}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the logs here and keep them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        print(
            f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {args.repeats} repetitions per method"
        )
        for label, recorder in (("AG-UI JSONL", False), ("recorder JSONL", True)):
            path = folder / ("events.jsonl" if not recorder else "recorded.jsonl")
            events = generate(path, args.events, recorder=recorder)
            report(label, path, events, bench_file(path, args.repeats))


if __name__ == "__main__":
    main()
