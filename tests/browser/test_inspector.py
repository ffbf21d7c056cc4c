"""The inspector (`inspect_run(source)`) in Chromium, its kernel side played by a real Inspector in this process: every
position the view writes is answered with the traits the widget would send. Seek (scrubber, keys, the list), the
highlight, filter and search, click-to-events, problems and state inline, a 50,000-event run's seek time, and
screenshots (tests/artifacts/inspector-*.png)."""

from __future__ import annotations

import io
import itertools
import json
import statistics
import time
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from agui_notebook import inspect_run
from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.inspection import Inspector
from tests.browser.conftest import ChatPage
from tests.logs.samples import CAPTURES
from tests.support.big_runs import big_run

pytestmark = pytest.mark.browser

LOG = CAPTURES / "pydantic_ai_runs.jsonl"
ANSWERED = ("messages", "changed", "event", "state", "state_paths", "state_event", "position")
SHOWN = (
    "_view",
    "timeline",
    "title",
    "theme",
    "height",
    "rendered",
    "frontend_renderers",
    "builtin_renderers",
)
_bridges = itertools.count()


def mount(chat: Any, insp: Inspector, *, width: str | None = None) -> Any:
    """Mount a view of ``insp``'s traits; its ``save_changes`` (the view writing ``position``) reaches ``insp``."""
    name = f"inspectorKernel{next(_bridges)}"

    def answer(position: int) -> str:
        insp.position = position
        # As JSON text, as the comm carries it (Playwright's own value encoding is far slower on big values).
        return json.dumps({trait: getattr(insp, trait) for trait in ANSWERED})

    chat.page.expose_function(name, answer)
    widget = chat.open(width=width, **{trait: getattr(insp, trait) for trait in (*SHOWN, *ANSWERED)})
    chat.evaluate(
        """([m, name]) => {
          const model = window.agui.model(m);
          model.answers = 0;
          model.save_changes = async () => {
            const traits = JSON.parse(await window[name](model.get("position")));
            for (const [key, value] of Object.entries(traits)) model.set(key, value);
            model.answers += 1;
          };
        }""",
        [widget.model, name],
    )
    return widget


def answered(chat: Any, widget: Any, count: int) -> None:
    """Wait until the kernel has answered ``count`` seeks, and for the render."""
    chat.page.wait_for_function("([m, n]) => window.agui.model(m).answers >= n", arg=[widget.model, count])
    chat.frames()


def position(widget: Any) -> int:
    return widget.chat.evaluate("(m) => window.agui.model(m).get('position')", widget.model)


def scrub_to(chat: Any, widget: Any, n: int) -> None:
    widget.locator("[data-agui=inspect-scrubber]").evaluate(
        "(el, n) => { el.value = String(n); el.dispatchEvent(new Event('input', {bubbles: true})); }", n
    )


def text_of_parts(widget: Any) -> list[list[str]]:
    return widget.root.evaluate(
        "(root) => [...root.querySelectorAll('.agui-message')].map((m) =>"
        " [...m.querySelectorAll('[data-part-index]')].map((p) => p.dataset.partIndex + ':' + p.textContent.trim().slice(0, 40)))"
    )


def test_the_scrubber_seeks_and_the_changed_part_is_highlighted(chat: Any) -> None:
    insp = inspect_run(LOG)
    widget = mount(chat, insp)
    assert widget.locator("[data-agui=inspect-position]").text_content() == "event 85 / 85 · RUN_FINISHED"
    scrub_to(chat, widget, 3)  # run 1's second text delta
    answered(chat, widget, 1)
    assert position(widget) == 3 and insp.position == 3
    assert insp.messages == ui_message_dicts_from_events(insp.events[:4])
    changed = widget.root.evaluate(
        "(root) => [...root.querySelectorAll('[data-inspect-changed]')].map((el) =>"
        " [[...root.querySelectorAll('.agui-message')].indexOf(el.closest('.agui-message')), el.dataset.partIndex])"
    )
    assert insp.changed == [[0, 1]] and changed == [[0, "1"]]
    assert widget.message(0).locator("[data-part-index='1']").text_content().strip() == "Hello, world"
    assert (
        widget.locator("[data-agui=inspect-position]").text_content() == "event 3 / 85 · TEXT_MESSAGE_CONTENT"
    )
    assert '"delta": ", world"' in widget.locator("[data-agui=inspect-json]").text_content()
    timing = widget.locator("[data-agui=inspect-timing]").text_content()
    assert timing.startswith("received +") and " · gap " in timing
    selected = widget.locator("[data-agui=inspect-event][aria-selected=true]")
    assert selected.get_attribute("data-index") == "3"
    # A click on a row seeks there too.
    widget.locator("[data-agui=inspect-event][data-index='1']").click()
    answered(chat, widget, 2)
    assert position(widget) == 1
    assert widget.locator("[data-agui=inspect-event][aria-selected=true]").get_attribute("data-index") == "1"


def test_keys_step_jump_and_play(chat: Any) -> None:
    insp = inspect_run(LOG)
    widget = mount(chat, insp)
    insp_answers = 0
    root = widget.root
    root.focus()
    for key, expected in (
        ("Home", 0),
        ("ArrowRight", 1),
        ("Shift+ArrowRight", 11),
        ("ArrowLeft", 10),
        ("End", 85),
    ):
        root.press(key)
        insp_answers += 1
        answered(chat, widget, insp_answers)
        assert position(widget) == expected == insp.position, key
    # On the scrubber the arrows are its own (one step each, not two), Space still plays.
    scrubber = widget.locator("[data-agui=inspect-scrubber]")
    scrubber.focus()
    scrubber.press("Home")
    scrubber.press("ArrowRight")
    answered(chat, widget, insp_answers + 2)
    assert position(widget) == 1 == insp.position
    # A focused button's Space is its own click, once.
    widget.locator("[data-agui=inspect-next]").focus()
    widget.locator("[data-agui=inspect-next]").press("Space")
    answered(chat, widget, insp_answers + 3)
    assert position(widget) == 2 and root.get_attribute("data-playing") != "true"
    root.focus()
    root.press("Home")
    answered(chat, widget, insp_answers + 4)
    widget.locator("[data-agui=inspect-jump-tool]").click()
    answered(chat, widget, insp_answers + 5)
    assert insp.selected_event["type"].startswith("TOOL_CALL")
    assert all(not e["type"].startswith("TOOL_CALL") for e in insp.events[: insp.position])
    widget.locator("[data-agui=inspect-jump-state]").click()  # this log has no state events: it stays
    chat.frames()
    assert insp.selected_event["type"].startswith("TOOL_CALL")
    # Space plays at the recorded pace (this log took well under a second) and pauses again.
    widget.locator("[data-agui=inspect-speed]").select_option("4")
    root.focus()
    root.press("Space")
    assert root.get_attribute("data-playing") == "true"
    assert widget.locator("[data-agui=inspect-play]").get_attribute("aria-label") == "Pause (Space)"
    chat.page.wait_for_function(
        "(m) => window.agui.model(m).get('position') === 85", arg=widget.model, timeout=8000
    )
    chat.page.wait_for_function("(root) => root.dataset.playing === 'false'", arg=root.element_handle())
    root.press("Home")
    chat.page.wait_for_function("(m) => window.agui.model(m).get('position') === 0", arg=widget.model)
    root.press("Space")
    root.press("Space")
    assert root.get_attribute("data-playing") == "false"


def test_the_list_filters_by_type_and_searches(chat: Any) -> None:
    insp = inspect_run(LOG)
    widget = mount(chat, insp)
    rows = "(root) => [...root.querySelectorAll('[data-agui=inspect-event]')].map((r) => Number(r.dataset.index))"
    widget.locator("[data-agui=inspect-filter]").select_option("TOOL_CALL_START")
    chat.frames()
    starts = [i for i, e in enumerate(insp.events) if e["type"] == "TOOL_CALL_START"]
    assert widget.root.evaluate(rows) == starts
    assert widget.locator("[data-agui=inspect-count]").text_content() == f"{len(starts)} of 86 events"
    widget.locator("[data-agui=inspect-filter]").select_option("")
    widget.locator("[data-agui=inspect-search]").fill("paris")
    chat.frames()
    found = [i for i, s in enumerate(insp.timeline["summaries"]) if "paris" in s.lower()]
    assert found and widget.root.evaluate(rows) == found
    # Typing in the search box is not a shortcut.
    widget.locator("[data-agui=inspect-search]").press("ArrowLeft")
    chat.frames()
    assert position(widget) == 85


def test_a_clicked_part_lists_the_events_that_built_it(chat: Any) -> None:
    insp = inspect_run(LOG)
    widget = mount(chat, insp)
    scrub_to(chat, widget, 8)
    answered(chat, widget, 1)
    widget.message(0).locator("[data-part-index='1']").click()
    chat.frames()
    shown = widget.root.evaluate(
        "(root) => [...root.querySelectorAll('[data-agui=inspect-event]')].map((r) => Number(r.dataset.index))"
    )
    assert shown == insp.events_of_part(0, 1) == [2, 3, 4, 5, 6, 7, 8]
    assert (
        widget.locator("[data-agui=inspect-part-events]")
        .text_content()
        .startswith("7 events built message 0 part 1")
    )
    assert widget.message(0).locator("[data-part-index='1']").get_attribute("data-inspect-picked") == "true"
    widget.locator("[data-agui=inspect-clear-part]").click()
    chat.frames()
    assert widget.locator("[data-agui=inspect-part-events]").is_hidden()
    assert widget.locator("[data-agui=inspect-count]").text_content() == "86 events"


PROBLEM_RUN = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 1_000},
    {"type": "STATE_SNAPSHOT", "snapshot": {"city": "Paris", "steps": []}, "timestamp": 1_010},
    {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant", "timestamp": 1_020},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Booking", "timestamp": 1_450},
    {
        "type": "STATE_DELTA",
        "delta": [{"op": "add", "path": "/steps/-", "value": "book"}],
        "timestamp": 1_460,
    },
    {"type": "TOOL_CALL_ARGS", "toolCallId": "ghost", "delta": "{}", "timestamp": 1_470},
    {"type": "TEXT_MESSAGE_END", "messageId": "m", "timestamp": 1_480},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "timestamp": 1_490},
]


def test_problems_and_the_state_show_at_their_events(chat: Any) -> None:
    insp = inspect_run(PROBLEM_RUN)
    ghost = [p for p in insp.timeline["problems"] if p["index"] == 5]
    assert ghost and ghost[0]["severity"] == "error"
    widget = mount(chat, insp)
    assert (
        widget.locator("[data-agui=inspect-event][data-index='5']").get_attribute("data-problem") == "error"
    )
    assert widget.locator("[data-agui=inspect-problem-mark][data-index='5']").count() == 1
    root = widget.root
    root.focus()
    root.press("Home")
    answered(chat, widget, 1)
    root.press("n")  # the next problem
    answered(chat, widget, 2)
    assert position(widget) == 5
    problem = widget.locator("[data-agui=inspect-problem]")
    assert problem.get_attribute("data-severity") == "error"
    assert ghost[0]["message"] in problem.text_content()
    widget.locator("[data-agui=inspect-event][data-index='4']").click()
    answered(chat, widget, 3)
    assert widget.locator("[data-agui=inspect-problem]").count() == 0
    widget.locator("[data-agui=inspect-state] summary").click()
    assert '"book"' in widget.locator("[data-agui=inspect-state-json]").text_content()
    assert widget.locator("[data-agui=inspect-state-path]").all_text_contents() == ["/steps/-"]
    assert widget.locator("[data-agui=inspect-state]").get_attribute("data-changed-now") == "true"
    timing = widget.locator("[data-agui=inspect-timing]").text_content()
    assert timing == "received +460 ms · gap 10 ms"
    assert widget.locator("[data-agui=inspect-run-mark]").count() == 1


SEEKS = [37_000, 120, 49_990, 25_001, 6_000, 44_444, 300, 31_313, 18_000, 49_000, 2, 40_000, 12_345, 49_999]
SEEK_BOUND_MS = 100
RE_MEASURES = 2  # a seek over the bound is measured again up to this many times; a slow path stays slow

# Seek to each target through the scrubber, as a user drags it; the time of each is from the input event to the
# frame painted (a message posted from the next animation frame is delivered after that frame's paint).
TIMED_SEEKS = """async (root, [model, targets, answers]) => {
  const scrubber = root.querySelector('[data-agui=inspect-scrubber]');
  const m = window.agui.model(model);
  const painted = () => new Promise((resolve) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(0);
  }));
  const out = [];
  for (let i = 0; i < targets.length; i += 1) {
    m.save_changes = () => {
      for (const [key, value] of Object.entries(JSON.parse(answers[i]))) m.set(key, value);
    };
    const start = performance.now();
    scrubber.value = String(targets[i]);
    scrubber.dispatchEvent(new Event('input', {bubbles: true}));
    await painted();
    out.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 30));
  }
  return out;
}"""


def kernel_seeks(insp: Inspector, targets: list[int]) -> tuple[list[float], list[str]]:
    """The kernel's time of each seek (the position set, the traits as the comm's JSON) and those answers."""
    times, answers = [], []
    for n in targets:
        start = time.perf_counter()
        insp.position = n
        answers.append(json.dumps({trait: getattr(insp, trait) for trait in ANSWERED}))
        times.append((time.perf_counter() - start) * 1000)
    return times, answers


@pytest.fixture
def new_page(page_pool: Any) -> Iterator[ChatPage]:
    """A page of its own (not one the earlier tests have used): the time measured is the widget's, not that of
    whatever a long session left in a shared page."""
    context, page, events = page_pool.load("light", 900, 800)
    yield ChatPage(page, events)
    assert events.errors == [], f"uncaught errors in the page: {events.errors}"
    context.close()


def test_a_fifty_thousand_event_run_seeks_in_under_100_ms(new_page: ChatPage) -> None:
    """Each seek's time is the kernel's (the Inspector's own seek and the traits as JSON, timed here) plus the
    browser's (from the scrubber's input to the redrawn conversation painted). The answers reach the page
    beforehand, so the harness's own bridge (Playwright's exposed functions, whose latency on a loaded machine is
    that of the test, not of the widget) is not counted.

    Every seek must take at most 100 ms. One that does not is measured again (up to twice), from the seek before
    it, on a fresh view (nothing of the first pass kept): a slow path is slow every time, a pause of the machine
    or the browser is not."""
    events = big_run(50_000)
    insp = Inspector(events)
    widget = mount(new_page, insp)
    in_dom = widget.root.evaluate("(root) => root.querySelectorAll('[data-agui=inspect-event]').length")
    assert 0 < in_dom < 80  # virtualised: only the visible rows
    twin = Inspector(events)  # the same seeks, timed without the harness's bridge to the page
    kernel_ms, answers = kernel_seeks(twin, SEEKS)
    browser_ms = widget.root.evaluate(TIMED_SEEKS, [widget.model, SEEKS, answers])
    shown = widget.locator("[data-agui=inspect-position]").text_content()
    assert shown == f"event {SEEKS[-1]:,} / 50,267 · {events[SEEKS[-1]]['type']}"
    texts = widget.root.evaluate("(root) => root.querySelectorAll('.agui-message').length")
    assert texts == len(ui_message_dicts_from_events(events[: SEEKS[-1] + 1]))
    total = [k + b for k, b in zip(kernel_ms, browser_ms, strict=True)]
    print(
        f"\nseek on 50,000 events: kernel median {statistics.median(kernel_ms):.0f} ms (max {max(kernel_ms):.0f}),"
        f" browser median {statistics.median(browser_ms):.0f} ms (max {max(browser_ms):.0f}),"
        f" total median {statistics.median(total):.0f} ms (max {max(total):.0f})"
    )
    slow = [i for i, ms in enumerate(total) if ms > SEEK_BOUND_MS]
    again: dict[int, list[int]] = {}
    for i in slow:
        pair = [SEEKS[i - 1], SEEKS[i]] if i else [SEEKS[i]]
        again[SEEKS[i]] = [round(total[i])]
        while again[SEEKS[i]][-1] > SEEK_BOUND_MS and len(again[SEEKS[i]]) <= RE_MEASURES:
            kernel, pair_answers = kernel_seeks(Inspector(events), pair)
            fresh = mount(new_page, insp)
            browser = fresh.root.evaluate(TIMED_SEEKS, [fresh.model, pair, pair_answers])
            again[SEEKS[i]].append(round(kernel[-1] + browser[-1]))
    print(f"  over {SEEK_BOUND_MS} ms, then measured again: {again}")
    assert all(times[-1] <= SEEK_BOUND_MS for times in again.values()), (total, again)


SHOWCASE = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "timestamp": 1_000},
    {
        "type": "MESSAGES_SNAPSHOT",
        "messages": [{"id": "u1", "role": "user", "content": "Book a table in Paris for Friday."}],
        "timestamp": 1_002,
    },
    {"type": "STATE_SNAPSHOT", "snapshot": {"city": "Paris", "steps": []}, "timestamp": 1_010},
    {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant", "timestamp": 1_020},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Looking for ", "timestamp": 1_450},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "**a free table**.", "timestamp": 1_470},
    {"type": "TEXT_MESSAGE_END", "messageId": "m", "timestamp": 1_480},
    {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "find_table", "parentMessageId": "m",
     "timestamp": 1_500},
    {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"city": "Paris", ', "timestamp": 1_540},
    {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '"day": "Friday"}', "timestamp": 1_580},
    {"type": "TOOL_CALL_END", "toolCallId": "c1", "timestamp": 1_590},
    {"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/steps/-", "value": "search"}], "timestamp": 1_600},
    {"type": "TOOL_CALL_ARGS", "toolCallId": "ghost", "delta": "{}", "timestamp": 1_610},
    {"type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "c1", "content": '{"table": 4, "time": "20:00"}',
     "role": "tool", "timestamp": 2_400},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1", "timestamp": 2_410},
]  # fmt: skip


@pytest.mark.parametrize(("theme", "width"), [("light", 900), ("dark", 900), ("light", 360)])
def test_inspector_screenshot(open_chat: Any, artifacts_dir: Any, theme: str, width: int) -> None:
    chat = open_chat(theme, width=width + 40, height=900)
    insp = inspect_run(SHOWCASE, title="Table booking run")
    widget = mount(chat, insp, width=f"{width}px")
    scrub_to(chat, widget, 9)  # the tool call's second argument delta
    answered(chat, widget, 1)
    widget.locator("[data-agui=inspect-state] summary").click()
    chat.frames()
    assert widget.overflowing(".agui-inspect-events") == []
    path = artifacts_dir / f"inspector-{theme}-{width}.png"
    widget.root.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000
    assert ring_sides(chat, widget) == {"left": True, "right": True, "top": True, "bottom": True}


def ring_sides(chat: Any, widget: Any) -> dict[str, bool]:
    """Which sides of the highlight ring round the changed part are painted (a message laid out only in view
    clips its paint at its edges, which the ring lies beyond)."""
    box = widget.locator("[data-inspect-changed=true]").first.bounding_box()
    brand = chat.page.evaluate(
        "() => { const el = document.querySelector('.agui-inspector');"
        " const probe = document.createElement('span'); probe.style.color = 'var(--agui-brand)'; el.append(probe);"
        " const rgb = getComputedStyle(probe).color.match(/\\d+/g).map(Number); probe.remove(); return rgb; }"
    )
    shot = Image.open(io.BytesIO(chat.page.screenshot(animations="disabled"))).convert("RGB")
    scale = shot.width / chat.page.viewport_size["width"]
    middle_x, middle_y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # The ring: 2 px wide, 4 px out from the part's border box.
    probes = {
        "left": (box["x"] - 5, middle_y),
        "right": (box["x"] + box["width"] + 5, middle_y),
        "top": (middle_x, box["y"] - 5),
        "bottom": (middle_x, box["y"] + box["height"] + 5),
    }

    def near_brand(x: float, y: float) -> bool:
        pixel = shot.getpixel((round(x * scale), round(y * scale)))
        return sum(abs(a - b) for a, b in zip(pixel, brand, strict=True)) < 60

    return {side: near_brand(x, y) for side, (x, y) in probes.items()}


def test_the_static_copy_beside_a_live_inspector_is_hidden(chat: Any) -> None:
    """Inspector._ipython_display_ puts a static copy in the output after the view's; the live view hides it."""
    chat.evaluate(
        """() => {
          const area = document.createElement('div');
          area.innerHTML = `
            <div class="jp-OutputArea-child" id="widget-output"></div>
            <div class="jp-OutputArea-child" id="copy-output"><div class="agui-static">saved copy</div></div>`;
          document.getElementById('root').append(area);
        }"""
    )
    assert chat.page.locator("#copy-output").is_visible()
    widget = mount(chat, inspect_run(SHOWCASE))
    chat.evaluate("(v) => document.getElementById('widget-output').append(window.agui.host(v))", widget.view)
    chat.frames()
    assert not chat.page.locator("#copy-output").is_visible()
