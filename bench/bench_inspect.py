"""The inspector's cost against the length of the log, on a single-run log and a multi-run log of the same size.

For each size (default 5,000, 50,000 and 200,000 events; ``--sizes`` adds 500,000) and each of two logs made of
the same agent turns (about 60 events each: a streamed answer, a tool call, a streamed follow-up;
``tests/support/big_runs.turns_log``), one long run or one run per turn:

- ``build``: kernel CPU (``time.process_time``) of ``Inspector(events)`` per event (the timeline, its checkpoints,
  the ``timeline`` trait and the first seek), and the bytes its checkpoints hold;
- ``seek``: kernel CPU of ``insp.position = n`` for random ``n`` (median, p90), and the bytes the widget sends
  the page for it (the update messages ipywidgets would put on the comm, as JSON);
- ``timeline``: the bytes of the ``timeline`` trait.

Then ``fork(log, at=5000)`` on a file of each size (CPU), and ``diff_runs`` of two logs of the same turns
(``big_run``, two seeds: answers of hundreds of other words; at most 50,000 events): the view (``_repr_html_``)
beside the table (``diff_runs(a, b)``).

Targets (issue 23), each printed with whether it is met: build CPU per event flat from the smallest size to the
largest (within 1.3x), the multi-run log within 1.5x of the single-run one, seek p90 <= 50 ms of kernel CPU at the
largest size, bytes per seek <= 100 kB, fork(at=5000) flat in the file's size (within 1.3x), the diff view within
2x of its table. The page's seek time (<= 150 ms at 500,000) is not measured here.

Run: PYTHONPATH=$PWD .venv/bin/python bench/bench_inspect.py [--sizes 5000,50000,200000] [--seeks 40]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agui_notebook import diff_runs, fork
from agui_notebook.inspection import Inspector
from tests.support.big_runs import big_run, turns_log

try:
    from agui_notebook import ForkInputWarning
except ImportError:  # the bench run against a version from before it
    ForkInputWarning = UserWarning  # type: ignore[misc, assignment]


def checkpoint_bytes(insp: Inspector) -> int:
    timeline = insp.timeline_index
    store = getattr(timeline, "checkpoint_bytes", None)
    if callable(store):
        return int(store())
    return sum(len(c) for c in timeline._checkpoints)


def sent_bytes(insp: Inspector, action: Any) -> int:
    """The JSON bytes of the update messages the widget sends while ``action()`` runs."""
    sent: list[int] = []

    def capture(msg: dict[str, Any], buffers: Any = None) -> None:
        sent.append(len(json.dumps(msg, separators=(",", ":"))) + sum(len(b) for b in buffers or ()))

    insp._send = capture  # type: ignore[method-assign]
    try:
        action()
    finally:
        del insp._send
    return sum(sent)


def measure(events: list[dict[str, Any]], seeks: int) -> dict[str, float]:
    gc.collect()
    start = time.process_time()
    insp = Inspector(events)
    built = time.process_time() - start
    rng = random.Random(5)
    cpu: list[float] = []
    sizes: list[int] = []
    for _ in range(seeks):
        n = rng.randrange(len(events))
        start = time.process_time()
        size = sent_bytes(insp, lambda n=n: setattr(insp, "position", n))
        cpu.append(time.process_time() - start)
        sizes.append(size)
    cpu.sort()
    sizes.sort()
    return {
        "build_us": built / len(events) * 1e6,
        "checkpoints_mb": checkpoint_bytes(insp) / 1e6,
        "timeline_mb": len(json.dumps(insp.timeline, separators=(",", ":"))) / 1e6,
        "seek_median_ms": statistics.median(cpu) * 1000,
        "seek_p90_ms": cpu[int(0.9 * len(cpu))] * 1000,
        "seek_p90_kb": sizes[int(0.9 * len(sizes))] / 1e3,
        "seek_max_kb": sizes[-1] / 1e3,
    }


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="5000,50000,200000")
    parser.add_argument("--seeks", type=int, default=40)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results: dict[tuple[int, str], dict[str, float]] = {}
    print(f"{'events':>8} {'log':>6} {'build µs/ev':>11} {'ckpt MB':>8} {'timeline MB':>11} "
          f"{'seek med ms':>11} {'seek p90 ms':>11} {'p90 kB/seek':>11} {'max kB':>8}")  # fmt: skip
    for size in sizes:
        for kind in ("single", "multi"):
            events = turns_log(size, runs=kind == "multi")
            r = results[size, kind] = measure(events, args.seeks)
            print(f"{len(events):>8,} {kind:>6} {r['build_us']:>11.1f} {r['checkpoints_mb']:>8.1f} "
                  f"{r['timeline_mb']:>11.2f} {r['seek_median_ms']:>11.1f} {r['seek_p90_ms']:>11.1f} "
                  f"{r['seek_p90_kb']:>11.1f} {r['seek_max_kb']:>8.1f}", flush=True)  # fmt: skip
            del events
    small, large = sizes[0], sizes[-1]
    print()
    for kind in ("single", "multi"):
        ratio = results[large, kind]["build_us"] / results[small, kind]["build_us"]
        print(f"build CPU per event, {kind}-run log, {large:,} / {small:,} events: {ratio:.2f}x "
              f"(target <= 1.3x): {verdict(ratio <= 1.3)}")  # fmt: skip
    ratio = results[large, "multi"]["build_us"] / results[large, "single"]["build_us"]
    print(f"build CPU per event at {large:,}, multi-run / single-run: {ratio:.2f}x (target <= 1.5x): "
          f"{verdict(ratio <= 1.5)}")  # fmt: skip
    for kind in ("single", "multi"):
        p90 = results[large, kind]["seek_p90_ms"]
        print(f"seek p90 kernel CPU at {large:,}, {kind}-run log: {p90:.1f} ms (target <= 50 ms): "
              f"{verdict(p90 <= 50)}")  # fmt: skip
        worst = results[large, kind]["seek_max_kb"]
        print(f"bytes per seek at {large:,}, {kind}-run log (the most sent): {worst:.1f} kB (target <= 100 kB): "
              f"{verdict(worst <= 100)}")  # fmt: skip
    print()
    fork_times = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ForkInputWarning)
        fork(turns_log(100, runs=True), at=50)  # imports and first calls out of the timing
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            path = Path(folder) / f"log{size}.jsonl"
            path.write_text("".join(json.dumps(e) + "\n" for e in turns_log(size, runs=True)))
            start = time.process_time()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ForkInputWarning)
                fork(path, at=5000)
            fork_times.append(time.process_time() - start)
            print(f"fork(at=5000) of a {size:,}-event file ({path.stat().st_size / 1e6:.1f} MB): "
                  f"{fork_times[-1] * 1000:.0f} ms CPU")  # fmt: skip
    ratio = fork_times[-1] / fork_times[0]
    print(
        f"fork(at=5000), {large:,} / {small:,} events: {ratio:.2f}x (target <= 1.3x): {verdict(ratio <= 1.3)}"
    )
    print()
    diff_view(min(max(s for s in sizes if s < 500_000), 50_000))


def diff_view(size: int) -> None:
    a, b = big_run(size, seed=1), big_run(size, seed=2)  # the same turns, answers of other words
    start = time.process_time()
    diff = diff_runs(a, b)
    table = time.process_time() - start
    start = time.process_time()
    diff._repr_html_()
    view = time.process_time() - start
    print(f"diff_runs of two {size:,}-event logs ({len(diff.table)} differences): table "
          f"{table * 1000:.0f} ms, view {view * 1000:.0f} ms: {view / table:.2f}x (target <= 2x): "
          f"{verdict(view / table <= 2)}")  # fmt: skip


if __name__ == "__main__":
    main()
