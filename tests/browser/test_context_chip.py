"""The context chip: what the agent sees of the notebook (the ``context_sent`` trait), in the composer bar."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.chat_samples import conversation

pytestmark = pytest.mark.browser

SENT: list[dict[str, Any]] = [
    {"description": "sales", "kind": "DataFrame 1,200×6", "chars": 3_850, "cut": 2_140, "dynamic": False},
    {"description": "selected rows", "kind": "DataFrame 3×6", "chars": 412, "cut": 0, "dynamic": True},
    {"description": "units", "kind": "text", "chars": 6, "cut": 0, "dynamic": False},
]


def entries(widget) -> list[list[str]]:
    return widget.locator("[data-agui=context-entry]").evaluate_all(
        "(rows) => rows.map((row) => [...row.children].map((c) => c.textContent))"
    )


def test_the_chip_says_what_the_agent_sees_and_opens_to_list_it(chat):
    widget = chat.open(messages=conversation(), context_sent=SENT)
    chip = widget.locator("[data-agui=context]")
    summary = chip.locator("summary")
    assert chip.is_visible()
    assert summary.inner_text() == "Context 3 · 4.3k"
    assert summary.get_attribute("title") == (
        "The agent sees 3 context entries from the notebook, 4,268 characters"
    )
    assert not widget.locator(".agui-context-panel").is_visible()
    summary.click()
    assert widget.locator(".agui-context-panel").is_visible()
    assert entries(widget) == [
        ["sales", "DataFrame 1,200×6 · 3,850 chars · 2,140 cut"],
        ["selected rows", "DataFrame 3×6 · 412 chars · computed at each run"],
        ["units", "text · 6 chars"],
    ]
    summary.press("Escape")
    assert not widget.locator(".agui-context-panel").is_visible()
    assert widget.focused() == "context-summary"


def test_a_callable_not_yet_run_shows_a_plus_and_no_size(chat):
    widget = chat.open(
        context_sent=[
            {"description": "selection", "kind": "callable", "chars": None, "cut": 0, "dynamic": True}
        ]
    )
    summary = widget.locator("[data-agui=context] summary")
    assert summary.inner_text() == "Context 1 · 0+"
    assert summary.get_attribute("title") == (
        "The agent sees 1 context entry from the notebook, 0 characters and more computed at each run"
    )
    summary.click()
    assert entries(widget) == [["selection", "callable · computed at each run"]]


def test_no_context_no_chip_and_it_follows_the_trait(chat):
    widget = chat.open(messages=conversation())
    chip = widget.locator("[data-agui=context]")
    assert not chip.is_visible()
    widget.set("context_sent", SENT[:1])
    chat.settle()
    assert chip.is_visible()
    assert chip.locator("summary").inner_text() == "Context 1 · 3.9k"
    widget.set("context_sent", [])
    chat.settle()
    assert not chip.is_visible()


@pytest.mark.parametrize(("theme", "width"), [("light", 760), ("dark", 360)])
def test_screenshots_of_the_open_chip(open_chat, artifacts_dir, theme: str, width: int):
    chat = open_chat(theme=theme, width=width, height=640)
    widget = chat.open(messages=conversation(), context_sent=SENT, height="560px")
    widget.locator("[data-agui=context] summary").click()
    chat.settle()
    panel = widget.locator(".agui-context-panel").bounding_box()
    root = widget.root.bounding_box()
    assert panel is not None and root is not None
    assert panel["x"] >= root["x"] and panel["x"] + panel["width"] <= root["x"] + root["width"] + 1
    assert widget.overflowing() == []
    shown = "3" if width < 420 else "Context 3 · 4.3k"  # a narrow widget keeps the icon and the count
    assert widget.locator("[data-agui=context] summary").inner_text() == shown
    chat.page.screenshot(path=artifacts_dir / f"context-chip-{theme}-{width}.png")
