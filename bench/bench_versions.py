"""Benchmark: the core paths of two versions of the package, side by side in one run (after / before).

A change that is not about speed (types, the error family, a restructure) must leave the hot paths as fast as
they were. This checks it: the same inputs go through the public functions of this checkout and of an older
revision (checked out into a temporary git worktree), each measurement in a fresh process per version, the two
versions interleaved ``--repeats`` times; the best CPU time of each is kept, and their ratio printed.

Measured on one AG-UI stream of 50,000 deltas (reasoning, text and streamed tool arguments; ``bench_core``'s) as
raw JSONL bytes: ``ui_messages_from_events``, ``apply_events``, ``verify_events``; and on a log of 40 such runs
of 2,500 deltas with receive times: ``load_events``, then ``runs_df`` and ``tool_calls_df`` of the loaded frame.

    .venv/bin/python bench/bench_versions.py --before 578e241 [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bench_core import build_events  # noqa: E402

CHILD = r"""
import json, sys, time
import agui_notebook as an

stream, log = sys.argv[1], sys.argv[2]
blob = open(stream, "rb").read()

def best(function, runs=3):
    times = []
    for _ in range(runs):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)

result = {
    "ui_messages_from_events, 50k deltas, raw JSONL": best(lambda: an.ui_messages_from_events(blob)),
    "apply_events, 50k deltas, raw JSONL": best(lambda: an.apply_events(blob)),
    "verify_events, 50k deltas, raw JSONL": best(lambda: an.verify_events(blob)),
    "load_events, 40 runs with times": best(lambda: an.load_events(log)),
}
frame = an.load_events(log)
result["runs_df of the loaded log"] = best(lambda: an.runs_df(frame))
result["tool_calls_df of the loaded log"] = best(lambda: an.tool_calls_df(frame))
print(json.dumps(result))
"""


def write_inputs(folder: Path) -> tuple[Path, Path]:
    """The stream (50k deltas, JSONL) and the log (40 runs, receive times in the recorder's format)."""
    stream = folder / "stream.jsonl"
    stream.write_bytes(b"\n".join(orjson.dumps(event) for event in build_events(50_000)) + b"\n")
    run = build_events(2_500)
    lines = []
    clock = 1_700_000_000_000_000_000
    for number in range(40):
        for event in run:
            clock += 2_000_000
            renamed = {**event}
            for key in ("runId", "threadId"):
                if key in renamed:
                    renamed[key] = f"{renamed[key]}-{number}"
            lines.append(orjson.dumps({"received_ns": clock, "event": renamed}))
    log = folder / "log.jsonl"
    log.write_bytes(b"\n".join(lines) + b"\n")
    return stream, log


def measure(checkout: Path, stream: Path, log: Path) -> dict[str, float]:
    env = {"PYTHONPATH": str(checkout), "PATH": "/usr/bin:/bin"}
    completed = subprocess.run(
        [sys.executable, "-c", CHILD, str(stream), str(log)],
        capture_output=True,
        text=True,
        env=env,
        cwd=checkout,
        check=False,
    )
    if completed.returncode != 0:
        raise SystemExit(f"{checkout}: the measurement failed:\n{completed.stderr[-3000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the older revision (a commit, tag or branch)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="agui-versions-") as temp:
        folder = Path(temp)
        before = folder / "before"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(before), args.before],
            check=True,
        )
        try:
            stream, log = write_inputs(folder)
            best: dict[str, dict[str, float]] = {"before": {}, "after": {}}
            started = time.perf_counter()
            for _ in range(args.repeats):
                for version, checkout in (("before", before), ("after", ROOT)):
                    for name, seconds in measure(checkout, stream, log).items():
                        best[version][name] = min(seconds, best[version].get(name, float("inf")))
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)], check=False
            )
    print(f"before: {args.before}; after: this checkout; best CPU of {args.repeats} interleaved runs")
    print(f"{'':48} {'before':>10} {'after':>10} {'after/before':>13}")
    for name, seconds in best["after"].items():
        old = best["before"].get(name)
        ratio = f"{seconds / old:.2f}" if old else "-"
        print(f"{name:48} {old * 1e3 if old else float('nan'):>8.1f}ms {seconds * 1e3:>8.1f}ms {ratio:>13}")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
