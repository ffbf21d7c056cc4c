"""The inspector's cost against the length of the log, on a single-run log and a multi-run log of the same size.

For each size (default 5,000, 50,000, 200,000 and 500,000 events; ``--quick``: 2,000 and 20,000) and each of two
logs made of the same agent turns (about 60 events each: a streamed answer, a tool call, a streamed follow-up;
``tests/support/big_runs.turns_log``), one long run or one run per turn:

- ``build``: kernel CPU (``time.process_time``) of ``Inspector(events)`` per event (the timeline, its checkpoints,
  the ``timeline`` trait and the first seek), its ratio to the smallest size's, and the bytes its checkpoints hold;
- ``seek``: kernel CPU of ``insp.position = n`` for random ``n`` (median, p90);
- ``bytes``: what the widget sends the page for a seek (the update messages ipywidgets would put on the comm, as
  JSON: the traits and the conversation window's update), for a random seek and for a step to the next event;
- ``page``: the page's time per seek in headless Chromium (the built bundle in the browser tests' harness, from
  the scrubber's input to the frame painted with the conversation drawn, the kernel's answer already there;
  median and p90 over random seeks);
- ``timeline``: the bytes of the ``timeline`` trait (the rest of the event list comes in chunks).

Then ``fork(log, at=5000)`` on a file of each size (CPU), and ``diff_runs`` of two logs of the same turns
(``big_run``, two seeds: answers of hundreds of other words; at most 50,000 events): the view (``_repr_html_``)
beside the table (``diff_runs(a, b)``).

Targets (issue 23), each printed with whether it is met: build CPU per event flat from the smallest size to the
largest (within 1.3x), the multi-run log within 1.5x of the single-run one, seek p90 <= 50 ms of kernel CPU and
<= 150 ms in the page at the largest size, bytes per seek <= 100 kB, fork(at=5000) flat in the file's size
(within 1.3x), the diff view within 2x of its table.

Run: PYTHONPATH=$PWD .venv/bin/python bench/bench_inspect.py [--quick] [--sizes 5000,50000] [--seeks 40] [--no-page]
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


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(events: list[dict[str, Any]], seeks: int) -> tuple[dict[str, float], Inspector]:
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
    steps: list[int] = []
    insp.position = rng.randrange(len(events) - 30)
    for _ in range(20):
        steps.append(sent_bytes(insp, lambda: setattr(insp, "position", insp.position + 1)))
    return {
        "build_us": built / len(events) * 1e6,
        "checkpoints_mb": checkpoint_bytes(insp) / 1e6,
        "timeline_mb": len(json.dumps(insp.timeline, separators=(",", ":"))) / 1e6,
        "seek_median_ms": statistics.median(cpu) * 1000,
        "seek_p90_ms": percentile(cpu, 0.9) * 1000,
        "seek_p90_kb": percentile(sizes, 0.9) / 1e3,
        "seek_max_kb": max(sizes) / 1e3,
        "step_max_kb": max(steps) / 1e3,
    }, insp


class PageTimer:
    """The page's time per seek: the built bundle in headless Chromium, in the browser tests' harness (its kernel
    side is the Inspector here, as in tests/browser/test_inspector.py)."""

    def __init__(self) -> None:
        from tests.browser.conftest import BUNDLE, ORIGIN, _route_handler, bundle_is_stale
        from tests.support.chromium import chromium_browser

        if bundle_is_stale():
            raise SystemExit("the widget bundle is missing or older than js/src: cd js && node build.mjs")
        self.origin = ORIGIN
        self.handler = _route_handler(BUNDLE.read_bytes(), "light")
        self.context_manager = chromium_browser()
        self.browser = self.context_manager.__enter__()

    def close(self) -> None:
        self.context_manager.__exit__(None, None, None)

    def seek_times(self, insp: Inspector, targets: list[int]) -> list[float]:
        from tests.browser.conftest import PageEvents
        from tests.browser.test_inspector import ANSWERED, BRIDGE, SHOWN, TIMED_SEEKS, kernel_answers

        context = self.browser.new_context(viewport={"width": 900, "height": 800})
        try:
            context.route("**/*", lambda route: self.handler(route, PageEvents()))
            page = context.new_page()
            page.set_default_timeout(120_000)
            page.goto(f"{self.origin}/")
            page.wait_for_function("window.aguiReady === true")
            answer = kernel_answers(insp)
            page.expose_function("inspectorKernel", answer)
            state = {trait: getattr(insp, trait) for trait in (*SHOWN, *ANSWERED)}
            model = page.evaluate("([s]) => window.agui.create(s, {})", [state])
            page.evaluate(BRIDGE, [model, "inspectorKernel"])
            view = page.evaluate("([m]) => window.agui.mount(m, {})", [model])
            page.wait_for_function("(m) => window.agui.model(m).pending === 0", arg=model)
            page.wait_for_timeout(200)
            answers = [answer("position", n) for n in targets]  # what the kernel sends for each, in order
            root = page.locator(".host").nth(view).locator(".agui-chat")
            times: list[float] = root.evaluate(TIMED_SEEKS, [model, targets, answers])
            return times
        finally:
            context.close()


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="5000,50000,200000,500000")
    parser.add_argument("--quick", action="store_true", help="small sizes (2,000 and 20,000 events)")
    parser.add_argument("--seeks", type=int, default=40)
    parser.add_argument("--no-page", action="store_true", help="leave out the page's time (no Chromium)")
    args = parser.parse_args()
    sizes = [2_000, 20_000] if args.quick else [int(s) for s in args.sizes.split(",")]
    timer = None if args.no_page else PageTimer()
    results: dict[tuple[int, str], dict[str, float]] = {}
    print(f"{'events':>8} {'log':>6} {'build µs/ev':>11} {'x smallest':>10} {'ckpt MB':>8} {'timeline MB':>11} "
          f"{'seek med ms':>11} {'seek p90 ms':>11} {'kB/seek p90':>11} {'max kB':>7} {'step kB':>7} "
          f"{'page med ms':>11} {'page p90 ms':>11}")  # fmt: skip
    try:
        for size in sizes:
            for kind in ("single", "multi"):
                events = turns_log(size, runs=kind == "multi")
                r, insp = measure(events, args.seeks)
                if timer is not None:
                    rng = random.Random(11)
                    page = timer.seek_times(
                        insp, [rng.randrange(len(events)) for _ in range(min(args.seeks, 20))]
                    )
                    r["page_median_ms"], r["page_p90_ms"] = statistics.median(page), percentile(page, 0.9)
                results[size, kind] = r
                r["ratio"] = r["build_us"] / results[sizes[0], kind]["build_us"]
                page_cells = (
                    f"{r['page_median_ms']:>11.1f} {r['page_p90_ms']:>11.1f}"
                    if "page_p90_ms" in r
                    else f"{'-':>11} {'-':>11}"
                )
                print(f"{len(events):>8,} {kind:>6} {r['build_us']:>11.1f} {r['ratio']:>10.2f} "
                      f"{r['checkpoints_mb']:>8.1f} {r['timeline_mb']:>11.2f} {r['seek_median_ms']:>11.1f} "
                      f"{r['seek_p90_ms']:>11.1f} {r['seek_p90_kb']:>11.1f} {r['seek_max_kb']:>7.1f} "
                      f"{r['step_max_kb']:>7.1f} {page_cells}", flush=True)  # fmt: skip
                del events, insp
                gc.collect()
    finally:
        if timer is not None:
            timer.close()
    small, large = sizes[0], sizes[-1]
    print()
    for kind in ("single", "multi"):
        ratio = results[large, kind]["ratio"]
        print(f"build CPU per event, {kind}-run log, {large:,} / {small:,} events: {ratio:.2f}x "
              f"(target <= 1.3x): {verdict(ratio <= 1.3)}")  # fmt: skip
    ratio = results[large, "multi"]["build_us"] / results[large, "single"]["build_us"]
    print(f"build CPU per event at {large:,}, multi-run / single-run: {ratio:.2f}x (target <= 1.5x): "
          f"{verdict(ratio <= 1.5)}")  # fmt: skip
    for kind in ("single", "multi"):
        r = results[large, kind]
        print(f"seek p90 kernel CPU at {large:,}, {kind}-run log: {r['seek_p90_ms']:.1f} ms (target <= 50 ms): "
              f"{verdict(r['seek_p90_ms'] <= 50)}")  # fmt: skip
        if "page_p90_ms" in r:
            print(f"seek p90 in the page at {large:,}, {kind}-run log: {r['page_p90_ms']:.1f} ms "
                  f"(target <= 150 ms): {verdict(r['page_p90_ms'] <= 150)}")  # fmt: skip
        worst = max(r["seek_max_kb"], r["step_max_kb"])
        print(f"bytes per seek at {large:,}, {kind}-run log (the most sent, random seek or step): {worst:.1f} kB "
              f"(target <= 100 kB): {verdict(worst <= 100)}")  # fmt: skip
    print()
    at = min(5_000, small)
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
                fork(path, at=at)
            fork_times.append(time.process_time() - start)
            print(f"fork(at={at}) of a {size:,}-event file ({path.stat().st_size / 1e6:.1f} MB): "
                  f"{fork_times[-1] * 1000:.0f} ms CPU")  # fmt: skip
    ratio = fork_times[-1] / fork_times[0]
    print(
        f"fork(at={at}), {large:,} / {small:,} events: {ratio:.2f}x (target <= 1.3x): {verdict(ratio <= 1.3)}"
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
