"""Screenshots in JupyterLab's light and dark themes (tests/artifacts/*.png), for people to look at.

The assertions check what a screenshot cannot show by itself being produced: the real JupyterLab theme variables
reached the widget (its colours are the theme's), and nothing overflows horizontally.
"""

from __future__ import annotations

import pytest

from tests.browser.chat_samples import conversation, every_part_kind

pytestmark = pytest.mark.browser

BACKGROUNDS = {"light": "rgb(255, 255, 255)", "dark": "rgb(33, 33, 33)"}


def streaming_conversation() -> list[dict]:
    return [
        {
            "id": "u1",
            "role": "user",
            "parts": [{"type": "text", "text": "Book a table for two tonight near the Louvre."}],
        },
        {
            "id": "a1",
            "role": "assistant",
            "parts": [
                {"type": "reasoning", "text": "Find restaurants near the Louvre with", "state": "streaming"},
                {
                    "type": "tool-search_restaurants",
                    "toolCallId": "c1",
                    "state": "input-streaming",
                    "input": {"near": "Louvre, Paris", "party": 2},
                },
                {
                    "type": "text",
                    "text": "Here are three places with tables free after 19:30:\n\n1. **Le Fumoir**, 6 rue de l'Amiral",
                    "state": "streaming",
                },
            ],
        },
    ]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_conversation_screenshot(open_chat, artifacts_dir, theme):
    chat = open_chat(theme, width=820, height=1400)
    widget = chat.open(messages=conversation(), title="Weather agent", height="auto", width="760px")
    widget.message(1).hover()
    chat.frames()
    assert widget.root.evaluate("(e) => getComputedStyle(e).backgroundColor") == BACKGROUNDS[theme]
    assert widget.overflowing("pre, .agui-table") == []
    path = artifacts_dir / f"chat-{theme}.png"
    widget.root.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_streaming_screenshot(open_chat, artifacts_dir, theme):
    chat = open_chat(theme, width=820, height=900)
    widget = chat.open(messages=streaming_conversation(), status="streaming", height=460, width="760px")
    widget.locator("[data-agui=input]").fill("And a taxi at 19:00?")
    # aria-disabled while busy: Playwright will not click it unless forced, a user can (and gets the notice).
    widget.locator("[data-agui=send]").click(force=True)
    chat.frames()
    assert widget.locator("[data-agui=notice]").is_visible()
    assert widget.locator("[data-agui=stop]").is_visible()
    path = artifacts_dir / f"chat-streaming-{theme}.png"
    widget.root.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000


def test_every_part_kind_screenshot(open_chat, artifacts_dir):
    chat = open_chat("light", width=820, height=1600)
    widget = chat.open(messages=every_part_kind(), height="auto", width="760px")
    widget.root.evaluate("(root) => root.querySelectorAll('details').forEach((d) => { d.open = true; })")
    chat.frames()
    path = artifacts_dir / "chat-parts-light.png"
    widget.root.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000
