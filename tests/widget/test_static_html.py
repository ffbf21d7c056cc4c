"""The static copy of a conversation: sanitized HTML that a saved notebook shows without a kernel."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from IPython.core.interactiveshell import InteractiveShell
from IPython.utils.capture import capture_output

from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._static_html import (
    MAX_INLINE_IMAGE_BYTES,
    MAX_PLAIN_CHARS,
    STATIC_CLASS,
    static_bundle,
    static_html,
    static_text,
)
from tests.widget.sample_agents import agui_agent

ANSWER = "The sum is **3**."  # the text agui_agent answers

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
ALLOWED = {
    "style": set(),
    "div": {"class"},
    "span": {"class"},
    "strong": set(),
    "br": set(),
    "pre": set(),
    "details": {"class"},
    "summary": {"class"},
    "a": {"href", "rel", "target"},
    "img": {"src", "alt"},
}
HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(2)">',
    "</div></details><script>alert(3)</script>",
    '"><svg onload=alert(4)>',
    "<style>body{display:none}</style>",
    "javascript:alert(5)",
]


class _Tags(HTMLParser):
    """Every start tag and its attributes, and the text, as a browser's parser would see them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.in_style = tag == "style"
        if tag == "br":
            self.text.append("\n")

    def handle_endtag(self, tag: str) -> None:
        self.in_style = False

    def handle_data(self, data: str) -> None:
        if not self.in_style:
            self.text.append(data)


def _parse(html: str) -> _Tags:
    parser = _Tags()
    parser.feed(html)
    parser.close()
    return parser


def _assert_allowed(html: str) -> _Tags:
    parsed = _parse(html)
    for tag, attrs in parsed.tags:
        assert tag in ALLOWED, f"tag <{tag}> is not on the allow-list"
        assert set(attrs) <= ALLOWED[tag], f"<{tag}> has {sorted(attrs)}"
        if tag == "a":
            assert re.fullmatch(r"https?://\S+", attrs["href"] or "")
        if tag == "img":
            assert re.fullmatch(r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]*", attrs["src"] or "")
    assert [tag for tag, _ in parsed.tags].count("style") == 1
    return parsed


def _message(role: str, *parts: dict[str, Any], message_id: str = "m") -> dict[str, Any]:
    return {"id": message_id, "role": role, "parts": list(parts)}


def _png_url(size: int, fill: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(b"\x89PNG" + fill * (size - 4)).decode()


# ---------------------------------------------------------------------------------------------- the rendering


def test_a_conversation_reads_as_text_with_every_part() -> None:
    messages = [
        _message("user", {"type": "text", "text": "Delete /tmp/demo.txt?"}, message_id="u"),
        _message(
            "assistant",
            {"type": "step-start"},
            {"type": "reasoning", "text": "The user wants a file gone.", "state": "done"},
            {
                "type": "tool-delete_file",
                "toolCallId": "c1",
                "state": "output-denied",
                "input": {"path": "/tmp/demo.txt"},
                "approval": {"id": "a1", "approved": False, "reason": "keep it"},
            },
            {"type": "source-url", "sourceId": "s", "url": "https://example.org/a?b=1&c=2", "title": "Docs"},
            {"type": "data-plan", "data": {"steps": ["look", "ask"]}},
            {"type": "text", "text": "Kept it.\nBye.", "state": "done"},
            message_id="a",
        ),
    ]
    html = static_html(messages, title="Files")
    parsed = _assert_allowed(html)
    text = "".join(parsed.text)
    for expected in (
        "Files",
        "Delete /tmp/demo.txt?",
        "The user wants a file gone.",
        "delete_file",
        "denied",
        '"path": "/tmp/demo.txt"',
        "keep it",
        "Docs",
        '"look"',
        "Kept it.\nBye.",
    ):
        assert expected in text
    assert (
        "a",
        {"href": "https://example.org/a?b=1&c=2", "rel": "noopener noreferrer nofollow", "target": "_blank"},
    ) in parsed.tags
    shown = [a["class"] for _, a in parsed.tags if "agui-static-message" in (a.get("class") or "")]
    assert shown == ["agui-static-message agui-static-user", "agui-static-message agui-static-assistant"]
    assert static_text(messages, title="Files") == (
        "Files\nuser: Delete /tmp/demo.txt?\nassistant: [tool delete_file: denied] Kept it.\nBye."
    )


@pytest.mark.parametrize("payload", HOSTILE)
def test_hostile_values_are_escaped_everywhere(payload: str) -> None:
    messages = [
        _message(
            payload,
            {"type": "text", "text": payload},
            {"type": "reasoning", "text": payload},
            {"type": f"tool-{payload}", "toolCallId": "c", "state": payload, "input": {payload: payload},
             "output": payload, "errorText": payload},
            {"type": "dynamic-tool", "toolName": payload, "toolCallId": "d", "state": "input-available"},
            {"type": "file", "mediaType": payload, "filename": payload, "url": payload},
            {"type": "source-url", "sourceId": "s", "url": payload, "title": payload},
            {"type": "source-document", "sourceId": "s", "mediaType": "text/plain", "title": payload},
            {"type": f"data-{payload}", "data": payload},
        )
    ]  # fmt: skip
    html = static_html(messages, title=payload)
    parsed = _assert_allowed(html)
    assert not [t for t, _ in parsed.tags if t == "a"]  # not an http(s) URL: no link
    assert payload in "".join(parsed.text)


@settings(max_examples=150, deadline=None)
@given(st.text(), st.text(max_size=40), st.text(max_size=40))
def test_any_text_stays_text(text: str, role: str, title: str) -> None:
    parts = [
        {"type": "text", "text": text},
        {"type": "file", "mediaType": "x/y", "filename": text, "url": text},
    ]
    html = static_html([_message(role, *parts)], title=title)
    parsed = _assert_allowed(html)
    # What the parser reads back is what was written, line by line (a line break is a <br>).
    assert "\n".join(text.splitlines()) in "".join(parsed.text)


def test_small_images_show_and_large_data_urls_are_not_copied() -> None:
    small, large = _png_url(2_000, b"\0"), _png_url(MAX_INLINE_IMAGE_BYTES + 1, b"\1")
    pdf = "data:application/pdf;base64," + base64.b64encode(b"%PDF" * 1000).decode()
    svg = "data:image/svg+xml;base64," + base64.b64encode(b"<svg onload='alert(1)'/>").decode()
    messages = [
        _message(
            "assistant",
            {"type": "file", "mediaType": "image/png", "filename": "small.png", "url": small},
            {"type": "file", "mediaType": "image/png", "filename": "chart.png", "url": large},
            {"type": "file", "mediaType": "application/pdf", "filename": "report.pdf", "url": pdf},
            {"type": "file", "mediaType": "image/svg+xml", "filename": "logo.svg", "url": svg},
            {
                "type": "file",
                "mediaType": "image/png",
                "filename": "remote.png",
                "url": "https://img.example/x.png",
            },
        )
    ]
    html = static_html(messages)
    parsed = _assert_allowed(html)
    assert [attrs["src"] for tag, attrs in parsed.tags if tag == "img"] == [small]
    assert large.split(",")[1][:64] not in html and pdf.split(",")[1][:64] not in html
    text = "".join(parsed.text)
    assert f"[file: chart.png (image/png, {(MAX_INLINE_IMAGE_BYTES + 1) / 1024:.1f} KB)]" in text
    assert "[file: report.pdf (application/pdf, 3.9 KB)]" in text
    assert "[file: logo.svg (image/svg+xml, 24 B)]" in text
    assert "[file: remote.png (https://img.example/x.png)]" in text  # no request leaves the page
    assert len(html) < 8_000


@pytest.mark.parametrize(
    ("state", "approved", "words"),
    [
        ("input-streaming", None, "preparing"),
        ("input-available", None, "running"),
        ("approval-requested", None, "waiting for approval"),
        ("approval-responded", True, "approved"),
        ("approval-responded", False, "denied"),
        ("output-available", None, "done"),
        ("output-error", None, "error"),
        ("output-denied", False, "denied"),
        ("output-stopped", None, "output-stopped"),  # a state this module does not know reads as it is
    ],
)
def test_tool_states_read_as_words(state: str, approved: bool | None, words: str) -> None:
    part: dict[str, Any] = {
        "type": "dynamic-tool",
        "toolName": "send_report",
        "toolCallId": "c",
        "state": state,
    }
    if approved is not None:
        part["approval"] = {"id": "a", "approved": approved}
    assert static_text([_message("assistant", part)]) == f"assistant: [tool send_report: {words}]"
    assert f"· {words}</summary>" in static_html([_message("assistant", part)])


def test_the_plain_text_copy_is_cut() -> None:
    long = [_message("user", {"type": "text", "text": "x" * (MAX_PLAIN_CHARS + 100)})]
    assert static_text(long) == f"user: {'x' * (MAX_PLAIN_CHARS - 6)}… (106 more characters)"


def test_an_empty_conversation() -> None:
    assert "No messages yet." in "".join(_assert_allowed(static_html([])).text)
    assert static_text([]) == "(no messages)"


# ---------------------------------------------------------------------------------------------- ChatWidget display


@pytest.fixture
def shell() -> InteractiveShell:
    return InteractiveShell.instance()


def _outputs(captured: Any) -> list[tuple[dict[str, Any], dict[str, Any], bool]]:
    return [(o.data, o.transient or {}, o.update) for o in captured.outputs]


async def test_display_shows_the_widget_then_a_static_copy_that_each_run_updates(
    shell: InteractiveShell,
) -> None:
    chat = ChatWidget(agui_agent, title="Sums")
    with capture_output() as shown:
        shell.display_formatter.format(chat)  # what a cell ending in `chat` does
    (widget, _, _), (copy, transient, update) = _outputs(shown)
    assert set(widget) == {WIDGET_VIEW}  # no "<ChatWidget 0 messages…>" line where the widget cannot show
    assert widget[WIDGET_VIEW]["model_id"] == chat.model_id
    assert not update and transient["display_id"] == f"agui-notebook-static-{chat.model_id}"
    assert copy == static_bundle([], title="Sums")

    with capture_output() as updated:
        await chat.send("What is 1 + 2?")
    ((data, transient_now, update_now),) = _outputs(updated)  # one update, when the run ended
    assert update_now and transient_now == transient
    assert data == static_bundle(chat.messages, title="Sums")
    assert (
        "[tool add: done] The sum is **3**." in data["text/plain"] and "What is 1 + 2?" in data["text/html"]
    )

    with capture_output() as replaced:
        chat.messages = chat.messages[:1]
    assert [d["text/plain"] for d, _, _ in _outputs(replaced)] == ["Sums\nuser: What is 1 + 2?"]
    with capture_output() as cleared:
        chat.clear()
    assert [d["text/plain"] for d, _, _ in _outputs(cleared)] == ["Sums\n(no messages)"]


async def test_a_widget_never_displayed_publishes_nothing(shell: InteractiveShell) -> None:
    chat = ChatWidget(agui_agent)
    with capture_output() as published:
        await chat.send("What is 1 + 2?")
    assert published.outputs == []


# ---------------------------------------------------------------------------------------------- nbconvert


def _script_tags(html: str) -> list[str]:
    return re.findall(r"<script\b[^>]*>", html, flags=re.IGNORECASE)


def _convert(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "nbconvert", "--to", "html", str(path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return path.with_suffix(".html").read_text()


def _notebook(outputs: list[dict[str, Any]]) -> dict[str, Any]:
    cell = {"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "outputs": outputs,
            "source": "chat"}  # fmt: skip
    return {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


async def test_nbconvert_html_shows_the_conversation_and_runs_nothing(
    shell: InteractiveShell, tmp_path: Path
) -> None:
    chat = ChatWidget(agui_agent, title="Saved chat")
    with capture_output() as shown:
        shell.display_formatter.format(chat)
    await chat.send("<script>alert('xss')</script> What is 1 + 2?")
    # The notebook as JupyterLab saves it: the widget's output, then the copy as its last update left it.
    outputs = [
        {"output_type": "display_data", "data": o.data, "metadata": o.metadata or {}} for o in shown.outputs
    ]
    outputs[1]["data"] = static_bundle(chat.messages, title=chat.title)
    (tmp_path / "chat.ipynb").write_text(json.dumps(_notebook(outputs)))
    (tmp_path / "blank.ipynb").write_text(json.dumps(_notebook([])))

    html = _convert(tmp_path / "chat.ipynb")
    blank = _convert(tmp_path / "blank.ipynb")
    assert f'<div class="{STATIC_CLASS}">' in html
    assert "&lt;script&gt;alert('xss')&lt;/script&gt; What is 1 + 2?" in html  # nbconvert re-quotes
    assert ANSWER in html and "Thinking." in html
    assert "<script>alert" not in html
    # The outputs add no script element: the page holds exactly the template's own.
    assert _script_tags(html) == _script_tags(blank)


# GitHub's HTML sanitizer (html-pipeline's SanitizationFilter, the strictest renderer a notebook meets) keeps
# structural tags and drops <style>, class and style attributes and data: URLs. A stand-in with the same rules:
_STRICT_TAGS = ["div", "span", "strong", "br", "pre", "details", "summary", "a", "img", "p", "code"]
_STRICT_ATTRIBUTES = {"a": ["href"], "img": ["src", "alt"]}


def test_a_sanitizer_that_drops_styles_still_leaves_a_readable_conversation() -> None:
    import bleach

    messages = [
        _message("user", {"type": "text", "text": "Weather in Paris?\nAnd Lyon?"}, message_id="u"),
        _message(
            "assistant",
            {"type": "reasoning", "text": "Two cities.", "state": "done"},
            {
                "type": "tool-get_weather",
                "toolCallId": "c1",
                "state": "output-available",
                "input": {"city": "Paris"},
                "output": {"temp_c": 21},
            },
            {"type": "text", "text": "Sunny, 21 °C.\nLyon: rain.", "state": "done"},
            message_id="a",
        ),
    ]
    html = static_html(messages, title="Weather")
    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)  # the sanitizer drops a style's contents too
    stripped = bleach.clean(
        html,
        tags=_STRICT_TAGS,
        attributes=_STRICT_ATTRIBUTES,
        protocols=["http", "https"],
        strip=True,
        strip_comments=True,
    )
    parsed = _Tags()
    parsed.feed(stripped)
    text = "".join(parsed.text)
    for expected in ("Weather", "user", "Weather in Paris?", "Two cities.", "get_weather", '"temp_c": 21'):
        assert expected in text
    # Line breaks survive without CSS: the text's own lines are <br>s.
    assert "Weather in Paris?<br>And Lyon?" in stripped and "Sunny, 21 °C.<br>Lyon: rain." in stripped
