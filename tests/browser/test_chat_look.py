"""How the widget looks: readable text in both themes, a layout that holds at 360 px, images that open full size,
an empty state with example prompts, a Clear control, a replay-only view, one wording for reasoning."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.chat_samples import conversation, every_part_kind

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


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_meets_wcag_aa_contrast(open_chat, theme):
    chat = open_chat(theme, width=900, height=3000)
    widget = chat.open(
        messages=look_sample(),
        title="Weather agent",
        status="streaming",
        height="auto",
        warnings=["odd event"],
    )
    widget.message(1).hover()
    for details in widget.locator("details").all():
        details.evaluate("(d) => { d.open = true; }")
    chat.frames()
    measured = texts_with_contrast(widget)
    assert len(measured) > 60
    low = sorted({(m["where"], m["text"], round(m["ratio"], 2)) for m in measured if m["ratio"] < 4.5})
    assert low == [], "\n".join(map(str, low))
