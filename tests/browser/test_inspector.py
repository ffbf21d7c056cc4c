"""The inspector (`inspect_run(source)`) in Chromium, its kernel side played by a real Inspector in this process: every
position the view writes, and every request it sends (the conversation window, a chunk of the event list, a search),
is answered with the traits and the messages the widget would send. Seek (scrubber, keys, the list), the
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
from tests.support.big_runs import big_run, turns_log

pytestmark = pytest.mark.browser

LOG = CAPTURES / "pydantic_ai_runs.jsonl"
ANSWERED = ("changed", "event", "state", "state_paths", "state_event", "position")
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


def kernel_answers(insp: Inspector) -> Any:
    """``answer(kind, value)``: ``insp``'s answer to the page's ``position`` or custom message, as the JSON text of
    the traits after it and the custom messages it sent (as the comm carries them; Playwright's own value
    encoding is far slower on big values)."""
    sent: list[Any] = []
    insp.send = lambda content, buffers=None: sent.append(content)  # type: ignore[method-assign]

    def answer(kind: str, value: Any) -> str:
        if kind == "position":
            insp.position = value
        else:
            insp._on_page_message(insp, json.loads(value), [])
        reply = {"traits": {trait: getattr(insp, trait) for trait in ANSWERED}, "custom": list(sent)}
        sent.clear()
        return json.dumps(reply)

    return answer


# The page's side of the bridge: what the kernel answers is set (traits) and delivered (custom messages).
BRIDGE = """([m, name]) => {
  const model = window.agui.model(m);
  model.answers = 0;
  model.pending = 0;
  const take = (text) => {
    const { traits, custom } = JSON.parse(text);
    for (const [key, value] of Object.entries(traits)) model.set(key, value);
    for (const content of custom) model.emit("msg:custom", content, []);
  };
  model.save_changes = async () => {
    model.pending += 1;
    take(await window[name]("position", model.get("position")));
    model.answers += 1;
    model.pending -= 1;
  };
  model.send = async (content) => {
    model.pending += 1;
    take(await window[name]("custom", JSON.stringify(content)));
    model.pending -= 1;
  };
}"""


def mount(chat: Any, insp: Inspector, *, width: str | None = None) -> Any:
    """Mount a view of ``insp``'s traits; what the view writes (``position``) and sends reaches ``insp``, whose
    answers reach the view."""
    name = f"inspectorKernel{next(_bridges)}"
    chat.page.expose_function(name, kernel_answers(insp))
    model = chat.new_model(**{trait: getattr(insp, trait) for trait in (*SHOWN, *ANSWERED)})
    chat.evaluate(BRIDGE, [model, name])
    widget = chat.mount(model, width=width)
    settled(chat, widget)
    return widget


def settled(chat: Any, widget: Any) -> None:
    """Wait until the kernel has answered all the view asked (the window, chunks of the event list), drawn."""
    for _ in range(3):  # a drawing can ask for more (the chunk of the rows it shows)
        chat.page.wait_for_function("(m) => window.agui.model(m).pending === 0", arg=widget.model)
        chat.frames()


def answered(chat: Any, widget: Any, count: int) -> None:
    """Wait until the kernel has answered ``count`` seeks, and for the render."""
    chat.page.wait_for_function("([m, n]) => window.agui.model(m).answers >= n", arg=[widget.model, count])
    settled(chat, widget)


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
    widget.locator("[data-agui=inspect-speed]").select_option("1")
    root.focus()
    root.press("Space")
    playing = root.evaluate(
        "(r) => [r.dataset.playing, r.querySelector('[data-agui=inspect-play]').getAttribute('aria-label')]"
    )  # read together, at the recorded pace: the playback lasts a moment
    assert playing == ["true", "Pause (Space)"]
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
    settled(chat, widget)  # the kernel searches
    found = insp.search("paris")
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
    settled(chat, widget)  # the kernel names the events
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
  m.send = () => {};  // the kernel's answers are the ones given (a request for more would reach another kernel)
  for (let i = 0; i < targets.length; i += 1) {
    m.save_changes = () => {
      const { traits, custom } = JSON.parse(answers[i]);
      for (const [key, value] of Object.entries(traits)) m.set(key, value);
      for (const content of custom) m.emit("msg:custom", content, []);
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
    """The kernel's time of each seek (the position set, the traits and messages as the comm's JSON) and those
    answers; the first sends the whole window (a page that held another kernel's asks for it)."""
    answer = kernel_answers(insp)
    insp._window.forget()
    times, answers = [], []
    for n in targets:
        start = time.perf_counter()
        answers.append(answer("position", n))
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


def test_a_fifty_thousand_event_run_seeks_right_in_the_page(new_page: ChatPage) -> None:
    """Seeks across a 50,000-event run draw the conversation the kernel's window holds. Their times (the kernel's
    seek and the page's redraw) are printed; the claims about them are bench/bench_inspect.py's, measured at
    5,000 to 500,000 events."""
    events = big_run(50_000)
    insp = Inspector(events)
    widget = mount(new_page, insp)
    in_dom = widget.root.evaluate("(root) => root.querySelectorAll('[data-agui=inspect-event]').length")
    assert 0 < in_dom < 80  # virtualised: only the visible rows
    twin = Inspector(events)  # the same seeks, without the harness's bridge to the page
    kernel_ms, answers = kernel_seeks(twin, SEEKS)
    browser_ms = widget.root.evaluate(TIMED_SEEKS, [widget.model, SEEKS, answers])
    shown = widget.locator("[data-agui=inspect-position]").text_content()
    assert shown == f"event {SEEKS[-1]:,} / 50,267 · {events[SEEKS[-1]]['type']}"
    shown_ids = widget.root.evaluate(
        "(root) => [...root.querySelectorAll('.agui-message')].map((m) => m.dataset.messageId)"
    )
    (update,) = [m for m in json.loads(answers[-1])["custom"] if m["kind"] == "conversation"]
    window = ui_message_dicts_from_events(events[: SEEKS[-1] + 1])[update["first"] :][: update["slots"]]
    assert shown_ids == [m["id"] for m in window] and 0 < len(shown_ids) < update["count"]
    total = [k + b for k, b in zip(kernel_ms, browser_ms, strict=True)]
    print(
        f"\nseek on 50,000 events: kernel median {statistics.median(kernel_ms):.0f} ms (max {max(kernel_ms):.0f}),"
        f" browser median {statistics.median(browser_ms):.0f} ms (max {max(browser_ms):.0f}),"
        f" total median {statistics.median(total):.0f} ms (max {max(total):.0f})"
    )


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


def add_output_area_with_a_static_copy(chat: Any) -> None:
    """A notebook output area as JupyterLab draws it: the widget's output, then the saved static copy's."""
    chat.evaluate(
        """() => {
          const area = document.createElement('div');
          area.innerHTML = `
            <div class="jp-OutputArea-child" id="widget-output"></div>
            <div class="jp-OutputArea-child" id="copy-output"><div class="agui-static">saved copy</div></div>`;
          document.getElementById('root').append(area);
        }"""
    )


def test_the_static_copy_beside_a_live_inspector_is_hidden(chat: Any) -> None:
    """Inspector._ipython_display_ puts a static copy in the output after the view's; the live view hides it."""
    add_output_area_with_a_static_copy(chat)
    assert chat.page.locator("#copy-output").is_visible()
    widget = mount(chat, inspect_run(SHOWCASE))
    chat.evaluate("(v) => document.getElementById('widget-output').append(window.agui.host(v))", widget.view)
    chat.frames()
    assert not chat.page.locator("#copy-output").is_visible()


WINDOW_TEXTS = """(root) => [...root.querySelectorAll('.agui-message')].map((m) => [m.dataset.messageId,
  [...m.querySelectorAll('[data-part-index]')].map((p) => Number(p.dataset.partIndex))])"""


def window_of(messages: list[dict[str, Any]], shown: list[Any]) -> list[Any]:
    """What the page shows of ``messages`` if it shows exactly their window: ids and part indexes."""
    by_id = {m["id"]: m for m in messages}
    assert all(message_id in by_id for message_id, _ in shown)
    first = [m["id"] for m in messages].index(shown[0][0])
    ids = [m["id"] for m in messages[first : first + len(shown)]]
    return [[message_id, parts] for message_id, (_, parts) in zip(ids, shown, strict=True)]


def test_scrubbing_a_multi_run_log_shows_the_conversation_after_each_event(chat: Any) -> None:
    events = turns_log(12_000, runs=True)  # some 200 runs: far more messages than a window holds
    insp = Inspector(events)
    widget = mount(chat, insp)
    for seeks, n in enumerate((11_000, 300, 11_001, 6_000, 6_001, len(events) - 1), start=1):
        scrub_to(chat, widget, n)
        answered(chat, widget, seeks)
        expected = ui_message_dicts_from_events(events[: n + 1])
        shown = widget.root.evaluate(WINDOW_TEXTS)
        assert len(shown) > 0 and (n < 1_000 or len(shown) < len(expected))
        assert shown == window_of(expected, shown), n
        # Each message drawn is the one after the event: all its parts (the first and the last of the window may
        # be cut at the window's end), each text part's text as the conversion has it.
        for index, (message_id, parts) in enumerate(shown):
            message = next(m for m in expected if m["id"] == message_id)
            whole = list(range(len(message["parts"])))
            if 0 < index < len(shown) - 1:
                assert parts == whole, (n, message_id)
            else:
                assert parts == whole[parts[0] : parts[0] + len(parts)] if parts else not whole, (
                    n,
                    message_id,
                )
            drawn = widget.message(index).locator("[data-part-index]").all_text_contents()
            for at, text in zip(parts, drawn, strict=True):
                part = message["parts"][at]
                if part["type"] == "text" and part["text"].strip():
                    assert part["text"].strip() in text, (n, message_id, at)
    # Scrolled to the top of its window, the page asks for the messages before it.
    top = widget.root.evaluate(WINDOW_TEXTS)[0][0]
    widget.locator("[data-agui=inspect-earlier]").click()
    settled(chat, widget)
    shown = widget.root.evaluate(WINDOW_TEXTS)
    ids = [m["id"] for m in insp.messages]
    assert ids.index(shown[0][0]) < ids.index(top) and shown == window_of(insp.messages, shown)


def test_a_view_that_comes_back_asks_for_the_whole_window(chat: Any) -> None:
    events = turns_log(6_000, runs=True)
    insp = Inspector(events)
    widget = mount(chat, insp)
    scrub_to(chat, widget, 3_000)
    answered(chat, widget, 1)
    # A second view of the model (a reconnect, or the output shown again) holds nothing: it asks, and draws the
    # conversation at the position the kernel has.
    again = chat.mount(widget.model)
    settled(chat, again)
    shown = again.root.evaluate(WINDOW_TEXTS)
    expected = ui_message_dicts_from_events(events[:3_001])
    assert shown and shown == window_of(expected, shown)
    assert widget.root.evaluate(WINDOW_TEXTS) == shown


def test_a_view_that_cannot_reach_its_kernel_leaves_the_static_copy_shown(chat: Any) -> None:
    """The conversation comes only from the kernel: a view restored without one (saved widget state) is marked
    lost, and the static copy beside it stays."""
    add_output_area_with_a_static_copy(chat)
    insp = inspect_run(SHOWCASE)
    model = chat.new_model(**{trait: getattr(insp, trait) for trait in (*SHOWN, *ANSWERED)})
    view = chat.evaluate("([m]) => window.agui.mount(m, {disconnected: true})", [model])
    chat.evaluate("(v) => document.getElementById('widget-output').append(window.agui.host(v))", view)
    chat.frames()
    lost = chat.page.locator("#widget-output .agui-inspector")
    assert lost.get_attribute("data-connection") == "lost"
    assert chat.page.locator("#copy-output").is_visible()
