"""What a streamed answer costs against the length of the conversation above it: the kernel, the wire, the page.

A ChatWidget holds 10, 100, 1,000 and 5,000 earlier messages (a question and an answer in turn; every third
answer has a heading, a list, a table and a code block). An async agent then streams a 2,000-delta answer at
about 250 deltas a second, like a fast hosted model, and the turn ends. Side by side for each size:

- **kernel**: the process's CPU per delta while the answer streams (the widget's own work: the conversation, the
  log, the patches), and the CPU of the turn's end (the run's end, the saved copy);
- **wire**: bytes the comm carries per delta (every message as Jupyter's session serialises it: custom patches
  and trait updates alike), and at the turn's end (the saved copy's display update included);
- **page**: the same messages, at the times the kernel sent them, delivered to the built front end in headless
  Chromium (the browser tests' harness): main-thread time per delta (CDP TaskDuration, and its layout and style
  part, read as the main thread's CPU time, so that other processes on a busy machine do not count) and the
  longest gap between two animation frames.

The target: every per-delta figure at 5,000 messages within 1.2 times the 10-message one; no frame gap over
100 ms. The script runs against the checkout it is imported from, so the same file measures an older checkout
(``PYTHONPATH=<that checkout>``) for a before-and-after table.

Run: PYTHONPATH=$PWD .venv/bin/python bench/bench_long_chat.py [--sizes 10,100,1000,5000] [--deltas 2000]
"""

from __future__ import annotations

import argparse
import asyncio
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
        "times": [t - wall0 for t, _, _ in sent[mounted:]],
        "snapshot": [m for _, _, m in sent[:mounted]],
        "conversation": conversation(size),
    }


PLAY = """
async ([model, messages, times]) => {
  const agui = window.agui;
  const gaps = [];
  let last = performance.now();
  let running = true;
  const tick = (now) => { gaps.push(now - last); last = now; if (running) requestAnimationFrame(tick); };
  requestAnimationFrame((now) => { last = now; requestAnimationFrame(tick); });
  const start = performance.now();
  for (let i = 0; i < messages.length; i += 1) {
    const wait = start + times[i] * 1000 - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const message = messages[i];
    if (message.method === 'custom') agui.deliver(model, message.content);
    else for (const [name, value] of Object.entries(message.state || {})) agui.set(model, name, value);
  }
  await agui.frames(2);
  running = false;
  return {gaps: gaps.slice(1)};
}
"""

METRICS = ("TaskDuration", "LayoutDuration", "RecalcStyleDuration")


def page_cost(page: Any, cdp: Any, run: dict[str, Any], deltas: int) -> dict[str, float]:
    """The recorded messages, at their recorded times, into a fresh view of the conversation."""
    page.evaluate("() => window.agui.reset()")
    model = page.evaluate("(s) => window.agui.create(s)", {"messages": run["conversation"], "height": 600})
    page.evaluate(
        """async ([m, n]) => { window.agui.mount(m);
           while (document.querySelectorAll('.agui-message').length < n) await window.agui.frames(1); }""",
        [model, len(run["conversation"])],
    )
    page.evaluate("() => window.agui.frames(10)")
    streaming = [
        (t, m)
        for t, m in zip(run["times"], run["messages"], strict=True)
        if m.get("method") in ("custom", "update")
    ]
    times = [t for t, _ in streaming]
    messages = [m for _, m in streaming]
    values = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    result = page.evaluate(PLAY, [model, messages, times])
    after = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    per = {name: (after.get(name, 0) - values.get(name, 0)) * 1000 / deltas for name in METRICS}
    return {"task_ms": per["TaskDuration"],
            "layout_style_ms": per["LayoutDuration"] + per["RecalcStyleDuration"],
            "max_gap_ms": max(result["gaps"]) if result["gaps"] else 0.0}  # fmt: skip


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
                row.update(
                    {k: min(c[k] for c in costs) for k in ("task_ms", "layout_style_ms", "max_gap_ms")}
                )
                print(
                    f"{row['size']:>6} msgs  page {row['task_ms']:6.2f} ms/delta main thread "
                    f"({row['layout_style_ms']:5.2f} layout+style)  longest frame gap {row['max_gap_ms']:5.0f} ms",
                    flush=True,
                )
            context.close()
    base = rows[0]
    keys = ["cpu_us", "bytes"] + ([] if args.no_browser else ["task_ms", "layout_style_ms"])
    print(f"\nratio to {base['size']} messages: " + ", ".join(keys))
    for row in rows[1:]:
        print(f"{row['size']:>6} msgs  " + "  ".join(f"{row[k] / base[k]:.2f}x" for k in keys))


if __name__ == "__main__":
    main()
