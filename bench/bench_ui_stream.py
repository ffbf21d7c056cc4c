"""Benchmark: our UI message stream reducer vs the AI SDK's readUIMessageStream on the same chunks.

Builds a stream of N deltas (text, reasoning and streamed tool inputs, in steps), then times
``ui_message_from_chunks`` on pre-parsed dicts against ``readUIMessageStream`` in node on pre-parsed objects
(timed inside node with performance.now; JSON parsing excluded on both sides). Also times
``read_ui_message_stream``, which like ``readUIMessageStream`` yields a message per update. Prints medians,
the ratios, and how time grows from 5k to 50k deltas. The reference is quadratic (it clones the message for
every chunk): one of its runs at 50k deltas takes minutes, so ``--reference-runs-50k`` defaults to 1.

    .venv/bin/python bench/bench_ui_stream.py [--runs 7] [--reference-runs 3] [--reference-runs-50k 1]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from agui_notebook.ui._partial_json import PartialJsonBuffer, parse_partial_json
from agui_notebook.ui._read_stream import read_ui_message_stream, ui_message_from_chunks
from agui_notebook.ui._reducer import UIMessageStreamReducer

ROOT = Path(__file__).resolve().parent.parent


def build_stream(deltas: int) -> list[dict[str, Any]]:
    """A multi-step stream with ``deltas`` delta chunks: per step, reasoning, text and one streamed tool call."""
    chunks: list[dict[str, Any]] = [{"type": "start", "messageId": "bench"}]
    step = 0
    made = 0
    while made < deltas:
        chunks.append({"type": "start-step"})
        r, t, c = f"r{step}", f"t{step}", f"c{step}"
        chunks.append({"type": "reasoning-start", "id": r})
        for i in range(min(40, deltas - made)):
            chunks.append({"type": "reasoning-delta", "id": r, "delta": f"thought {i} "})
            made += 1
        chunks.append({"type": "reasoning-end", "id": r})
        chunks.append({"type": "text-start", "id": t})
        for i in range(min(100, deltas - made)):
            chunks.append({"type": "text-delta", "id": t, "delta": f"word{i} "})
            made += 1
        chunks.append({"type": "text-end", "id": t})
        chunks.append({"type": "tool-input-start", "toolCallId": c, "toolName": "search"})
        arguments = json.dumps(
            {"query": "weather in paris " * 4, "limit": 10, "filters": {"lang": ["en", "fr"]}}
        )
        pieces = [arguments[i : i + 6] for i in range(0, len(arguments), 6)][: max(0, deltas - made)]
        for piece in pieces:
            chunks.append({"type": "tool-input-delta", "toolCallId": c, "inputTextDelta": piece})
            made += 1
        chunks.append(
            {
                "type": "tool-input-available",
                "toolCallId": c,
                "toolName": "search",
                "input": json.loads(arguments),
            }
        )
        chunks.append({"type": "tool-output-available", "toolCallId": c, "output": {"results": [step]}})
        chunks.append({"type": "finish-step"})
        step += 1
    chunks.append({"type": "finish", "finishReason": "stop"})
    return chunks


def time_ours(chunks: list[dict[str, Any]], runs: int) -> list[float]:
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        ui_message_from_chunks(chunks)
        seconds.append(time.perf_counter() - start)
    return seconds


def time_reducer_only(chunks: list[dict[str, Any]], runs: int) -> list[float]:
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        push = UIMessageStreamReducer().push
        for chunk in chunks:
            push(chunk)
        seconds.append(time.perf_counter() - start)
    return seconds


def time_snapshots(chunks: list[dict[str, Any]], runs: int) -> list[float]:
    """read_ui_message_stream: a UIMessage model per update, as readUIMessageStream gives."""
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        for _message in read_ui_message_stream(chunks):
            pass
        seconds.append(time.perf_counter() - start)
    return seconds


def time_reference(chunks: list[dict[str, Any]], runs: int) -> list[float]:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("node is needed for the reference timing")
    completed = subprocess.run(
        [node, str(ROOT / "js" / "reference" / "ai_bench_read_stream.mjs")],
        input=json.dumps({"chunks": chunks, "runs": runs}).encode(),
        capture_output=True,
        cwd=ROOT / "js",
        check=True,
    )
    return json.loads(completed.stdout)["seconds"]


def time_partial_json(runs: int) -> tuple[float, float, int, int]:
    """A 10 kB tool input in 5-character deltas: PartialJsonBuffer vs parse_partial_json on every prefix."""
    document = json.dumps(
        {
            "code": "def f(x):\n    return x * 2\n" * 200,
            "items": [{"id": i, "name": f"n{i}", "ok": True} for i in range(100)],
        }
    )
    deltas = [document[i : i + 5] for i in range(0, len(document), 5)]
    incremental, from_scratch = [], []
    for _ in range(runs):
        start = time.perf_counter()
        buffer = PartialJsonBuffer()
        for delta in deltas:
            buffer.append(delta)
        incremental.append(time.perf_counter() - start)
        start = time.perf_counter()
        text = ""
        for delta in deltas:
            text += delta
            parse_partial_json(text)
        from_scratch.append(time.perf_counter() - start)
    return statistics.median(incremental), statistics.median(from_scratch), len(document), len(deltas)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of ours (median)")
    parser.add_argument("--reference-runs", type=int, default=3, help="runs of the reference at 5k deltas")
    parser.add_argument(
        "--reference-runs-50k", type=int, default=1, help="runs of the reference at 50k deltas"
    )
    args = parser.parse_args()
    results = {}
    for deltas, reference_runs in ((5_000, args.reference_runs), (50_000, args.reference_runs_50k)):
        chunks = build_stream(deltas)
        *_, last_snapshot = read_ui_message_stream(chunks)
        assert ui_message_from_chunks(chunks) == last_snapshot
        ours = statistics.median(time_ours(chunks, args.runs))
        reducer = statistics.median(time_reducer_only(chunks, args.runs))
        snapshots = statistics.median(time_snapshots(chunks, args.runs))
        reference = statistics.median(time_reference(chunks, reference_runs))
        results[deltas] = (ours, snapshots, reference)
        print(
            f"{deltas} deltas, {len(chunks)} chunks (medians: ours of {args.runs} runs, reference of {reference_runs}):"
        )
        print(
            f"  ours ui_message_from_chunks  {ours * 1e3:9.1f} ms  (reducer alone {reducer / len(chunks) * 1e6:.2f} us/chunk)"
        )
        print(f"  ours read_ui_message_stream  {snapshots * 1e3:9.1f} ms  (a UIMessage per update)")
        print(f"  ai readUIMessageStream       {reference * 1e3:9.1f} ms")
        print(
            f"  ours faster by: ui_message_from_chunks {reference / ours:.1f}x, read_ui_message_stream {reference / snapshots:.1f}x"
        )
    incremental, from_scratch, size, count = time_partial_json(3)
    print(
        f"partial JSON, a {size / 1000:.0f} kB input in {count} deltas: PartialJsonBuffer "
        f"{incremental / count * 1e6:.1f} us/delta, parse_partial_json on each prefix "
        f"{from_scratch / count * 1e6:.1f} us/delta ({from_scratch / incremental:.0f}x)"
    )
    (ours_5k, snap_5k, ref_5k), (ours_50k, snap_50k, ref_50k) = results[5_000], results[50_000]
    print(
        "growth from 5k to 50k deltas (10x the chunks; 10 is linear): "
        f"ui_message_from_chunks {ours_50k / ours_5k:.1f}x, read_ui_message_stream {snap_50k / snap_5k:.1f}x, "
        f"ai {ref_50k / ref_5k:.1f}x"
    )


if __name__ == "__main__":
    main()
