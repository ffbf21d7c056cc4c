"""Page-side cost of a streamed answer against the length of the conversation above it.

The built front end runs in headless Chromium against the browser tests' fake model (js/test-harness/harness.js,
which answers the view's ``resync`` as the kernel does). For conversations of 10, 100, 1,000 and 5,000 earlier
messages (a question and an answer in turn; every third answer has a heading, a list, a table and a code block),
500 text deltas stream into a new assistant message at 30 patches a second, each patch one ``t`` op, with real
animation frames. Measured per delta:

- ``apply``: ``performance.now()`` around the delivery of the patch (the custom message handler: the op applied
  and the frame requested);
- ``task``, ``script``, ``layout``, ``style``: CDP ``Performance.getMetrics`` TaskDuration, ScriptDuration,
  LayoutDuration and RecalcStyleDuration over the stream, divided by the number of deltas (all main-thread work:
  the handler, the frame's render, style and layout);
- the longest gap between two animation frames during the stream, and the number of long tasks (over 50 ms).

The target: every per-delta figure at 5,000 messages within 1.2 times the 10-message one, no frame gap over
100 ms. ``mount`` is the time from mounting a view to its first frame with the conversation drawn.

Run: PYTHONPATH=$PWD .venv/bin/python bench/bench_chat_page.py [--sizes 10,100,1000,5000] [--deltas 500]
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from tests.browser.chat_samples import MARKDOWN
from tests.browser.conftest import BUNDLE, ORIGIN, PageEvents, _route_handler, build_bundle, bundle_is_stale
from tests.support.chromium import chromium_browser

RATE = 30.0  # patches a second


def conversation(length: int) -> list[dict[str, Any]]:
    """``length`` earlier messages: questions and answers in turn, markdown with code and a table every third
    answer, then the user's new question."""
    messages: list[dict[str, Any]] = []
    for index in range(length):
        if index % 2 == 0:
            text = f"Question {index}: what about *item {index}* in the report?"
            messages.append({"id": f"u{index}", "role": "user", "parts": [{"type": "text", "text": text}]})
            continue
        if index % 6 == 1:
            text = MARKDOWN.replace("Paris today", f"Answer {index}")
        else:
            text = f"Answer {index}. It is **fine**: see `item_{index}` and the [docs](https://example.com/{index})."
        parts = [{"type": "step-start"}, {"type": "text", "text": text, "state": "done"}]
        messages.append({"id": f"a{index}", "role": "assistant", "parts": parts})
    messages.append({"id": "uq", "role": "user", "parts": [{"type": "text", "text": "And tomorrow?"}]})
    return messages


STREAM = """
async ([model, at, deltas, rate]) => {
  const agui = window.agui;
  let seq = 1000;
  agui.deliver(model, {kind: 'patch', seq: ++seq, ops: [['status', 'streaming', ''],
    ['m', at, {id: 'live', role: 'assistant', parts: [{type: 'text', text: '', state: 'streaming'}]}]]});
  await agui.frames(3);
  const gaps = [];
  let last = performance.now();
  let running = true;
  const tick = (now) => { gaps.push(now - last); last = now; if (running) requestAnimationFrame(tick); };
  requestAnimationFrame((now) => { last = now; requestAnimationFrame(tick); });
  const longTasks = [];
  const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) longTasks.push(e.duration); });
  observer.observe({entryTypes: ['longtask']});
  const apply = [];
  const words = ['the ', 'forecast ', 'says ', 'rain ', 'after ', 'four, ', 'then ', '**sun** ', '`code` '];
  const start = performance.now();
  for (let i = 0; i < deltas; i += 1) {
    let text = words[i % words.length];
    if (i % 40 === 39) text += '\\n\\n';
    if (i % 120 === 119) text += '| a | b |\\n|---|---|\\n| 1 | 2 |\\n\\n';
    const t0 = performance.now();
    agui.deliver(model, {kind: 'patch', seq: ++seq, ops: [['t', at, 0, text]]});
    apply.push(performance.now() - t0);
    const next = start + ((i + 1) * 1000) / rate;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  await agui.frames(2);
  running = false;
  observer.disconnect();
  return {apply, gaps: gaps.slice(1), longTasks};
}
"""

METRICS = ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")


def metrics(cdp: Any) -> dict[str, float]:
    values = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {name: values.get(name, 0.0) for name in METRICS}


def measure(page: Any, cdp: Any, size: int, deltas: int) -> dict[str, float]:
    page.evaluate("() => window.agui.reset()")
    messages = conversation(size)
    model = page.evaluate("(s) => window.agui.create(s)", {"messages": messages, "height": 600})
    mount = page.evaluate(
        """async ([m, n]) => { const t0 = performance.now(); window.agui.mount(m);
           // the conversation comes with the snapshot answering the view's resync
           while (document.querySelectorAll('.agui-message').length < n) await window.agui.frames(1);
           await window.agui.frames(1);
           return performance.now() - t0; }""",
        [model, len(messages)],
    )
    shown = page.locator(".agui-message").count()
    assert shown == len(messages), f"{shown} of {len(messages)} messages shown"
    page.evaluate("() => window.agui.frames(10)")
    before = metrics(cdp)
    result = page.evaluate(STREAM, [model, len(messages), deltas, RATE])
    after = metrics(cdp)
    per = {name: (after[name] - before[name]) * 1000 / deltas for name in METRICS}
    return {
        "size": size,
        "mount_ms": mount,
        "apply_ms": statistics.median(result["apply"]),
        "task_ms": per["TaskDuration"],
        "script_ms": per["ScriptDuration"],
        "layout_ms": per["LayoutDuration"],
        "style_ms": per["RecalcStyleDuration"],
        "max_gap_ms": max(result["gaps"]),
        "long_tasks": len(result["longTasks"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000,5000")
    parser.add_argument("--deltas", type=int, default=500)
    args = parser.parse_args()
    if bundle_is_stale():
        build_bundle()
    handler = _route_handler(BUNDLE.read_bytes(), "light")
    events = PageEvents()
    rows = []
    with chromium_browser() as browser:
        context = browser.new_context(viewport={"width": 1000, "height": 800})
        context.route("**/*", lambda route: handler(route, events))
        page = context.new_page()
        page.goto(f"{ORIGIN}/")
        page.wait_for_function("window.aguiReady === true")
        cdp = context.new_cdp_session(page)
        cdp.send("Performance.enable", {"timeDomain": "timeTicks"})
        measure(page, cdp, 10, 60)  # warm-up: the first stream on a fresh page pays for compiling the bundle
        for size in (int(s) for s in args.sizes.split(",")):
            rows.append(measure(page, cdp, size, args.deltas))
            row = rows[-1]
            print(
                f"{row['size']:>6} msgs  mount {row['mount_ms']:8.0f} ms  per delta: apply {row['apply_ms']:.3f}"
                f"  task {row['task_ms']:.3f}  script {row['script_ms']:.3f}  layout {row['layout_ms']:.3f}"
                f"  style {row['style_ms']:.3f} ms  max frame gap {row['max_gap_ms']:.0f} ms"
                f"  long tasks {row['long_tasks']}",
                flush=True,
            )
        context.close()
    assert events.errors == [], events.errors
    base = rows[0]
    print("\nratio to the first size (task, layout, style):")
    for row in rows[1:]:
        ratios = [row[k] / base[k] if base[k] else float("nan") for k in ("task_ms", "layout_ms", "style_ms")]
        print(f"{row['size']:>6} msgs  " + "  ".join(f"{r:.2f}x" for r in ratios))


if __name__ == "__main__":
    main()
