"""How the widget looks: readable text in both themes, a layout that holds at 360 px, images that open full size,
an empty state with example prompts, a Clear control, a replay-only view, one wording for reasoning."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.chat_samples import conversation, every_part_kind, png_data_url

pytestmark = pytest.mark.browser

# Every visible text node of the widget with its contrast against what is behind it: the text colour and each
# ancestor's background are composited (alpha, opacity) down to the page's own background.
CONTRAST = """
(root) => {
  const parse = (value) => {
    let m = value.match(/^rgba?\\(([^)]+)\\)$/);
    if (m) {
      const [r, g, b, a] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [r / 255, g / 255, b / 255, a ?? 1];
    }
    m = value.match(/^color\\(srgb ([^)]+)\\)$/);
    if (m) {
      const [r, g, b, a] = m[1].split(/[ /]+/).filter(Boolean).map(Number);
      return [r, g, b, a ?? 1];
    }
    throw new Error(`unparsed colour ${value}`);
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
  };
  const luminance = (c) => {
    const lin = c.slice(0, 3).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  };
  const background = (el) => {
    const chain = [];
    for (let node = el; node; node = node.parentElement) chain.push(node);
    let bg = parse(getComputedStyle(document.documentElement).backgroundColor);
    if (bg[3] === 0) bg = [1, 1, 1, 1];
    for (const node of chain.reverse()) bg = over(parse(getComputedStyle(node).backgroundColor), bg);
    return bg;
  };
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const el = node.parentElement;
    if (!text || !el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const rect = range.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    // Inactive controls are exempt from WCAG's contrast rule.
    if (el.closest("button:disabled, [aria-disabled=true]")) continue;
    const style = getComputedStyle(el);
    let opacity = 1;
    for (let n = el; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
    const fg = parse(style.color);
    const bg = background(el);
    const shown = over([fg[0], fg[1], fg[2], fg[3] * opacity], bg);
    const [l1, l2] = [luminance(shown), luminance(bg)].sort((a, b) => b - a);
    const where = el.className && typeof el.className === "string" ? el.className : el.tagName.toLowerCase();
    out.push({ text: text.slice(0, 40), where, ratio: (l1 + 0.05) / (l2 + 0.05) });
  }
  return out;
}
"""


def texts_with_contrast(widget: Any) -> list[dict[str, Any]]:
    return widget.root.evaluate(CONTRAST)


def look_sample() -> list[dict[str, Any]]:
    """Everything the widget draws in one conversation: both samples, a denied-looking error, meta lines."""
    return [*conversation(), *every_part_kind()]


# JupyterLab's light and dark themes (the widget follows them), and each pinned palette (theme="dark" in a light
# JupyterLab and the other way round).
@pytest.mark.parametrize(
    ("theme", "pinned"), [("light", "auto"), ("dark", "auto"), ("light", "dark"), ("dark", "light")]
)
def test_every_text_meets_wcag_aa_contrast(open_chat, theme, pinned):
    chat = open_chat(theme, width=900, height=3000)
    widget = chat.open(
        messages=look_sample(),
        title="Weather agent",
        status="streaming",
        height="auto",
        warnings=["odd event"],
        theme=pinned,
    )
    widget.message(1).hover()
    for details in widget.locator("details").all():
        details.evaluate("(d) => { d.open = true; }")
    chat.frames()
    empty = chat.open(suggestions=["Weather in Paris?"], replay_only=False, theme=pinned)
    measured = texts_with_contrast(widget) + texts_with_contrast(empty)
    assert len(measured) > 60
    assert {"Weather in Paris?", "Ask anything, or start from an example:", "New chat"} <= {
        m["text"] for m in measured
    }
    low = sorted({(m["where"], m["text"], round(m["ratio"], 2)) for m in measured if m["ratio"] < 4.5})
    assert low == [], "\n".join(map(str, low))


# Words of the element's text whose letters land on more than one line (a word broken inside itself).
BROKEN_WORDS = """
(el) => {
  const broken = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}
"""

LONG_CODE = (
    'Run this:\n\n```python\nweather = httpx.get("https://weather.example/api/v2/forecast", '
    'params={"city": "Paris", "units": "metric"}).json()\n```\n'
)


def test_narrow_widget_stacks_buttons_and_scrolls_code(open_chat):
    chat = open_chat("light", width=360, height=1600)
    messages = conversation()
    messages[1]["parts"].append({"type": "text", "text": LONG_CODE, "state": "done"})
    messages[1]["parts"].append(
        {
            "type": "tool-read_file",
            "toolCallId": "call-long",
            "state": "input-available",
            "input": {"path": "/home/user/projects/weather/data/observations_2024_paris_hourly.parquet"},
        }
    )
    widget = chat.open(messages=messages, height="auto")
    chat.frames()
    buttons = widget.locator("button:visible")
    assert buttons.count() >= 4
    broken = {
        text: buttons.nth(i).evaluate(BROKEN_WORDS)
        for i in range(buttons.count())
        if (text := buttons.nth(i).inner_text().strip())
    }
    assert {text: words for text, words in broken.items() if words} == {}
    assert widget.locator("[data-agui=approve]:visible").count() == 1
    assert widget.locator("[data-agui=deny]:visible").count() == 1
    chat.frames()
    code_blocks = widget.locator(".agui-code pre:visible, pre.agui-json:visible")
    assert code_blocks.count() >= 3
    for i in range(code_blocks.count()):
        block = code_blocks.nth(i)
        assert block.evaluate(BROKEN_WORDS) == []
        scroll = block.evaluate("(p) => [p.scrollWidth <= p.clientWidth, getComputedStyle(p).overflowX]")
        assert scroll[1] == "auto"
    long_code = widget.locator(".agui-code pre").last
    assert long_code.evaluate("(p) => p.scrollWidth > p.clientWidth")
    assert widget.overflowing("pre, .agui-table") == []


def reasoning_label(widget: Any) -> str:
    return widget.locator("[data-part-type=reasoning] .agui-reasoning-label").first.inner_text()


def test_reasoning_reads_the_same_streamed_or_replayed(chat):
    text = "The user wants the weather in Paris, so I will call the tool."
    done = {"type": "reasoning", "text": text, "state": "done"}
    replayed = chat.open(messages=[{"id": "a", "role": "assistant", "parts": [done]}])
    streamed = chat.open(
        messages=[{"id": "a", "role": "assistant", "parts": [{**done, "text": "The", "state": "streaming"}]}],
        status="streaming",
    )
    assert reasoning_label(streamed) == "Thinking…"
    chat.page.wait_for_timeout(50)
    streamed.set("messages", [{"id": "a", "role": "assistant", "parts": [done]}])
    assert reasoning_label(replayed) == reasoning_label(streamed) == "Reasoning · 13 words"


def test_empty_state_offers_the_suggestions_and_a_click_sends_one(chat):
    widget = chat.open(suggestions=["Weather in Paris?", "Plan a day in Rome"], replay_only=False)
    empty = widget.locator("[data-agui=empty-state]")
    assert empty.is_visible()
    chips = widget.locator("[data-agui=suggestion]")
    assert chips.all_inner_texts() == ["Weather in Paris?", "Plan a day in Rome"]
    assert widget.locator("[data-agui=new-chat]").is_hidden()
    chips.nth(0).click()
    assert widget.sent() == [{"kind": "send", "text": "Weather in Paris?", "files": []}]
    widget.set("messages", conversation()[:1])
    assert empty.is_hidden()


def test_a_replay_only_widget_hides_the_input_and_the_approval_controls(chat):
    widget = chat.open(messages=conversation(), replay_only=True, suggestions=["Weather?"])
    assert (
        widget.locator("[data-part-type=dynamic-tool] [data-agui=tool-state]").inner_text()
        == "Needs approval"
    )
    for hook in ("input", "send", "attach", "new-chat", "approve", "deny", "approval-reason", "regenerate"):
        assert widget.locator(f"[data-agui={hook}]:visible").count() == 0, hook
    widget.set("messages", [])
    assert widget.locator("[data-agui=suggestion]:visible").count() == 0
    assert widget.locator("[data-agui=empty-state]").inner_text() == "No messages yet."
    # While it plays a recording, the status and Stop show.
    widget.set("status", "streaming")
    assert widget.locator("[data-agui=status]").inner_text() == "Answering…"
    assert widget.locator("[data-agui=stop]").is_visible()
    widget.set("replay_only", False)
    assert widget.locator("[data-agui=input]").is_visible()


def image_message(url: str, filename: str = "chart.png") -> dict[str, Any]:
    return {
        "id": "a",
        "role": "assistant",
        "parts": [
            {"type": "file", "mediaType": "image/png", "filename": filename, "url": url},
            {"type": "text", "text": f"Inline: ![a chart]({url})", "state": "done"},
        ],
    }


def test_an_image_opens_full_size_and_closes_with_escape(chat):
    widget = chat.open(messages=[image_message(png_data_url(640, 400))])
    thumb = widget.locator(".agui-file-image")
    shown = thumb.evaluate("(img) => [img.getBoundingClientRect().width, img.naturalWidth]")
    assert shown[0] < shown[1] == 640
    thumb.click()
    viewer = widget.locator("[data-agui=image-viewer]")
    assert viewer.evaluate("(d) => d.open && d.matches(':modal')")
    full = viewer.locator("img")
    assert full.evaluate("(img) => [img.getBoundingClientRect().width, img.naturalWidth]") == [640, 640]
    assert full.get_attribute("alt") == "chart.png"
    chat.page.keyboard.press("Escape")
    viewer.wait_for(state="detached")
    # By keyboard: the image is a control; Enter opens it, the close button closes it and focus returns.
    thumb.focus()
    chat.page.keyboard.press("Enter")
    assert viewer.evaluate("(d) => d.open")
    viewer.locator("[data-agui=close-image]").click()
    viewer.wait_for(state="detached")
    assert thumb.evaluate("(img) => document.activeElement === img")
    # A markdown image opens the same way, by click or by keyboard.
    widget.locator(".agui-md img").click()
    assert viewer.locator("img").get_attribute("alt") == "a chart"
    chat.page.keyboard.press("Escape")
    viewer.wait_for(state="detached")
    widget.locator(".agui-md img").focus()
    chat.page.keyboard.press(" ")
    assert viewer.locator("img").get_attribute("alt") == "a chart"
    chat.page.keyboard.press("Escape")


def test_a_remote_image_still_needs_consent_before_it_can_be_opened(chat):
    widget = chat.open(messages=[image_message("https://images.example/chart.png")])
    placeholders = widget.locator("[data-agui=remote-media]")
    assert placeholders.count() == 2
    placeholders.first.click(position={"x": 4, "y": 4})
    assert widget.locator("[data-agui=image-viewer]").count() == 0
    assert widget.locator("img").count() == 0
    assert chat.events.external_requests == []


@pytest.mark.parametrize(("theme", "width"), [("light", 760), ("dark", 760), ("light", 360)])
def test_look_screenshots(open_chat, artifacts_dir, theme, width):
    """Screenshots to look at (tests/artifacts/look-*.png): a conversation, the empty state, the image viewer."""
    chat = open_chat(theme, width=width + 40, height=1800)
    messages = conversation()
    messages[1]["parts"].append({"type": "text", "text": LONG_CODE, "state": "done"})
    widget = chat.open(messages=messages, title="Weather agent", height="auto", replay_only=False)
    chat.frames()
    name = f"look-{theme}-{width}"
    widget.root.screenshot(path=str(artifacts_dir / f"{name}.png"), animations="disabled")
    empty = chat.open(
        suggestions=["What's the weather in Paris?", "Plan a rainy day in Rome", "Compare Oslo and Lisbon"],
        height=360,
        replay_only=False,
    )
    empty.root.screenshot(path=str(artifacts_dir / f"{name}-empty.png"), animations="disabled")
    assert empty.locator("[data-agui=suggestion]").count() == 3
    if width == 760:
        widget.locator(".agui-file-image").first.click()
        chat.frames()
        chat.page.screenshot(path=str(artifacts_dir / f"{name}-viewer.png"), animations="disabled")
        chat.page.keyboard.press("Escape")
        widget.locator("[data-agui=image-viewer]").wait_for(state="detached")
