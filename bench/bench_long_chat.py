"""What a streamed answer costs against the length of the conversation above it: the kernel, the wire, the page.

A ChatWidget holds 10, 100, 1,000 and 5,000 earlier messages (a question and an answer in turn; every third
answer has a heading, a list, a table and a code block). An async agent then streams a 2,000-delta answer at
about 250 deltas a second, like a fast hosted model, and the turn ends. Side by side for each size:

- **kernel**: the process's CPU per delta while the answer streams (the widget's own work: the conversation, the
  log, the patches), and the CPU of the turn's end (the run's end, the saved copy); the garbage of building the
  conversation is collected before the turn, so that Python's next full collection does not fall in it;
- **wire**: bytes the comm carries per delta (every message as Jupyter's session serialises it: custom patches
  and trait updates alike), and at the turn's end (the saved copy's display update included);
- **page**: the same messages, at the times the kernel sent them, delivered to the built front end in headless
  Chromium (the browser tests' harness): main-thread time per delta over the same span as the kernel's, first to
  last delta (CDP TaskDuration, and its layout and style part, read as the main thread's CPU time, so that other
  processes on a busy machine do not count); the main thread's time at the turn's start (the question shown, the
  groups far above parked) and at its end (all put back); the longest gap between two animation frames over the
  whole turn.

The target: every per-delta figure at 5,000 messages within 1.2 times the 10-message one; no frame gap over
100 ms. The script runs against the checkout it is imported from, so the same file measures an older checkout
(``PYTHONPATH=<that checkout>``) for a before-and-after table.

Run: PYTHONPATH=$PWD .venv/bin/python bench/bench_long_chat.py [--sizes 10,100,1000,5000] [--deltas 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import statistics
import time
from typing import Any

from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from agui_notebook import ChatWidget

PACE = 0.004  # seconds between deltas
MARKDOWN = """## Answer {n}

It depends on **three** things:

1. the *forecast* for the day,
2. the wind, and
3. `item_{n}` in the report.

| City | °C |
| --- | --- |
| Paris | 21 |
| Oslo | 9 |

```python
import httpx
print(httpx.get("https://weather.example/{n}").json())
```
"""


def conversation(length: int) -> list[dict[str, Any]]:
    messages: list[dict[str, Any]] = []
    for index in range(length):
        if index % 2 == 0:
            text = f"Question {index}: what about *item {index}* in the report?"
            messages.append({"id": f"u{index}", "role": "user", "parts": [{"type": "text", "text": text}]})
            continue
        text = (
            MARKDOWN.format(n=index)
            if index % 6 == 1
            else f"Answer {index}: it is **fine**, see `item_{index}`."
        )
        parts = [{"type": "step-start"}, {"type": "text", "text": text, "state": "done"}]
        messages.append({"id": f"a{index}", "role": "assistant", "parts": parts})
    return messages


WORDS = ["the ", "forecast ", "says ", "rain ", "after ", "four, ", "then ", "**sun** ", "`code` "]


def answer(deltas: int, clock: dict[str, float]) -> Any:
    """An agent streaming ``deltas`` text deltas; ``clock`` gets the process CPU at its first and last one."""

    async def agent(run_input: Any) -> Any:
        for i in range(deltas):
            if i == 1:
                clock["first"] = time.process_time()  # the first delta has been applied
            text = WORDS[i % len(WORDS)] + ("\n\n" if i % 40 == 39 else "")
            yield text
            await asyncio.sleep(PACE)
        clock["last"] = time.process_time()  # the last delta has been applied

    return agent


def _send(widget: Any, text: str) -> Any:
    send = getattr(widget, "send_message", None)
    return send(text) if send is not None else widget.send(text)


def _new_widget(agent: Any, messages: list[dict[str, Any]]) -> Any:
    try:
        return ChatWidget(agent, messages=messages, store=None)
    except TypeError:  # an older checkout: no store
        return ChatWidget(agent, messages=messages)


async def kernel(size: int, deltas: int) -> dict[str, Any]:
    """One turn on a widget holding ``size`` messages, with every comm message recorded as it was sent."""
    clock: dict[str, float] = {}
    widget = _new_widget(answer(deltas, clock), conversation(size))
    sent: list[tuple[float, int, dict[str, Any]]] = []

    def record(data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        text = json.dumps(data, ensure_ascii=False, allow_nan=False)  # as jupyter_client's session packs it
        sent.append((time.perf_counter(), len(text.encode()), json.loads(text)))

    widget.comm.send = record
    shell = InteractiveShell.instance()
    with capture_output() as shown:
        shell.display_formatter.format(widget)  # displayed: the saved copy is kept up to date
    widget._handle_msg(
        {"content": {"data": {"method": "custom", "content": {"kind": "resync"}}}, "buffers": []}
    )
    await asyncio.sleep(0)
    # The conversation just built is a few hundred thousand objects: Python's next full collection (about 0.1 s
    # at 5,000 messages) would land in the measured turn at one size and not another. Collect it before.
    gc.collect()
    mounted = len(sent)
    with capture_output() as updated:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        task = _send(widget, "And tomorrow?")
        start_cpu = time.process_time() - cpu0  # the run input built and sent (the turn's start)
        while "first" not in clock:
            await asyncio.sleep(0.001)
        streamed_from = len(sent)
        while "last" not in clock:
            await asyncio.sleep(0.005)
        streamed_to = len(sent)
        await task
        cpu2 = time.process_time()
    copy_bytes = sum(len(json.dumps(o.data).encode()) for o in updated.outputs)
    stream_bytes = sum(size for _, size, _ in sent[streamed_from:streamed_to])
    end_bytes = sum(size for _, size, _ in sent[streamed_to:]) + copy_bytes
    del shown
    return {
        "size": size,
        "start_ms": start_cpu * 1000,
        "cpu_us": (clock["last"] - clock["first"]) / (deltas - 1) * 1e6,
        "bytes": stream_bytes / (deltas - 1),
        "end_ms": (cpu2 - clock["last"]) * 1000,
        "end_kb": end_bytes / 1024,
        "messages": [m for _, _, m in sent[mounted:]],
        "window": (streamed_from - mounted, streamed_to - mounted),  # the streaming's messages among them
        "times": [t - wall0 for t, _, _ in sent[mounted:]],
        "snapshot": [m for _, _, m in sent[:mounted]],
        "conversation": conversation(size),
    }


PLAY = """
async ([model, messages, times, part]) => {
  // Three calls play one turn, so that the main thread's time can be read between them: the turn's start, the
  // streaming (first to last delta) and the turn's end, each with the frames that draw it. The frame gaps are
  // collected over all three.
  const agui = window.agui;
  if (part === 0) {
    const play = {gaps: [], last: performance.now(), running: true, start: performance.now()};
    const tick = (now) => { play.gaps.push(now - play.last); play.last = now; if (play.running) requestAnimationFrame(tick); };
    requestAnimationFrame((now) => { play.last = now; requestAnimationFrame(tick); });
    window.__play = play;
  }
  const play = window.__play;
  for (let i = 0; i < messages.length; i += 1) {
    const wait = play.start + times[i] * 1000 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const message = messages[i];
    if (message.method === 'custom') agui.deliver(model, message.content);
    else for (const [name, value] of Object.entries(message.state || {})) agui.set(model, name, value);
  }
  await agui.frames(2);
  if (part < 2) return null;
  play.running = false;
  return {gaps: play.gaps.slice(1)};
}
"""


def page_cost(page: Any, cdp: Any, run: dict[str, Any], deltas: int) -> dict[str, float]:
    """The recorded messages, at their recorded times, into a fresh view of the conversation.

    The main thread's time per delta is read over the streaming alone (first to last delta), as the kernel's is;
    the turn's start (the question, the status) and its end (the answer done, the status) are read apart, in ms.
    """
    page.evaluate("() => window.agui.reset()")
    model = page.evaluate("(s) => window.agui.create(s)", {"messages": run["conversation"], "height": 600})
    page.evaluate(
        """async ([m, n]) => { window.agui.mount(m);
           while (document.querySelectorAll('.agui-message').length < n) await window.agui.frames(1); }""",
        [model, len(run["conversation"])],
    )
    page.evaluate("() => window.agui.frames(10)")
    first, last = run["window"]
    parts: list[list[tuple[float, dict[str, Any]]]] = [[], [], []]
    for index, (at, message) in enumerate(zip(run["times"], run["messages"], strict=True)):
        if message.get("method") in ("custom", "update"):
            parts[0 if index < first else 1 if index < last else 2].append((at, message))

    def metrics() -> dict[str, float]:
        return {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}

    readings = [metrics()]
    result: Any = None
    for number, part in enumerate(parts):
        result = page.evaluate(PLAY, [model, [m for _, m in part], [t for t, _ in part], number])
        readings.append(metrics())

    def spent(number: int, names: tuple[str, ...]) -> float:
        """Seconds of the main thread in part ``number`` under the metrics ``names``."""
        return sum(readings[number + 1].get(n, 0) - readings[number].get(n, 0) for n in names)

    layout_style = ("LayoutDuration", "RecalcStyleDuration")
    return {"task_ms": spent(1, ("TaskDuration",)) * 1000 / (deltas - 1),
            "layout_style_ms": spent(1, layout_style) * 1000 / (deltas - 1),
            "start_ms": spent(0, ("TaskDuration",)) * 1000,
            "end_ms": spent(2, ("TaskDuration",)) * 1000,
            "max_gap_ms": max(result["gaps"]) if result["gaps"] else 0.0}  # fmt: skip


PAGE_KEYS = ("task_ms", "layout_style_ms", "start_ms", "end_ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000,5000")
    parser.add_argument("--deltas", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows: list[dict[str, Any]] = []
    for size in sizes:
        runs = [asyncio.run(kernel(size, args.deltas)) for _ in range(args.repeats)]
        best = min(runs, key=lambda r: r["cpu_us"])
        row = {
            k: statistics.median(r[k] for r in runs)
            for k in ("start_ms", "cpu_us", "bytes", "end_ms", "end_kb")
        }
        rows.append({"size": size, **row, "run": best})
        print(
            f"{size:>6} msgs  per delta: kernel {row['cpu_us']:6.1f} µs, wire {row['bytes']:6.1f} B   "
            f"turn start {row['start_ms']:6.1f} ms   turn end {row['end_ms']:6.1f} ms, {row['end_kb']:7.1f} KB",
            flush=True,
        )
    if not args.no_browser:
        from tests.browser.conftest import (
            BUNDLE,
            ORIGIN,
            PageEvents,
            _route_handler,
            build_bundle,
            bundle_is_stale,
        )
        from tests.support.chromium import chromium_browser

        if bundle_is_stale():
            build_bundle()
        handler = _route_handler(BUNDLE.read_bytes(), "light")
        events = PageEvents()
        with chromium_browser() as browser:
            context = browser.new_context(viewport={"width": 1000, "height": 800})
            context.route("**/*", lambda route: handler(route, events))
            page = context.new_page()
            page.goto(f"{ORIGIN}/")
            page.wait_for_function("window.aguiReady === true")
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable", {"timeDomain": "threadTicks"})
            page_cost(page, cdp, rows[0]["run"], args.deltas)  # warm-up: compiling the bundle
            for row in rows:
                costs = [page_cost(page, cdp, row["run"], args.deltas) for _ in range(2)]
                row.update({k: min(c[k] for c in costs) for k in PAGE_KEYS})
                row["max_gap_ms"] = max(c["max_gap_ms"] for c in costs)
                print(
                    f"{row['size']:>6} msgs  page {row['task_ms']:6.3f} ms/delta main thread "
                    f"({row['layout_style_ms']:5.3f} layout+style)   turn start {row['start_ms']:5.1f} ms, "
                    f"turn end {row['end_ms']:5.1f} ms   longest frame gap {row['max_gap_ms']:5.0f} ms",
                    flush=True,
                )
            context.close()
    base = rows[0]
    keys = ["cpu_us", "bytes"] + ([] if args.no_browser else list(PAGE_KEYS))
    print(f"\nratio to {base['size']} messages: " + ", ".join(keys))
    for row in rows[1:]:
        print(f"{row['size']:>6} msgs  " + "  ".join(f"{row[k] / base[k]:.2f}x" for k in keys))


if __name__ == "__main__":
    main()
