"""The static copy of a conversation: sanitized HTML that a saved notebook shows without a kernel."""

from __future__ import annotations

import base64
import json
import re
import subprocess
import sys
from html import escape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import RunAgentInput
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
    "dl": {"class"},
    "dt": set(),
    "dd": set(),
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
        # Elements closed so far: (tag, class, the text inside); definition lists: (class, [(term, value)]).
        self.elements: list[tuple[str, str, str]] = []
        self.lists: list[tuple[str, list[tuple[str, str]]]] = []
        self._open: list[tuple[str, str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self.in_style = tag == "style"
        if tag == "br":
            self.text.append("\n")
            return
        if tag == "img":
            return
        self._open.append((tag, dict(attrs).get("class") or "", len(self.text)))
        if tag == "dl":
            self.lists.append((dict(attrs).get("class") or "", []))

    def handle_endtag(self, tag: str) -> None:
        self.in_style = False
        while self._open:
            name, classes, start = self._open.pop()
            inside = "".join(self.text[start:])
            self.elements.append((name, classes, inside))
            if name == "dt":
                self.lists[-1][1].append((inside, ""))
            elif name == "dd":
                term, _ = self.lists[-1][1][-1]
                self.lists[-1][1][-1] = (term, inside)
            if name == tag:
                break

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


def _texts_of(parsed: _Tags, tag: str, class_name: str | None = None) -> list[str]:
    """The text inside each ``tag`` element (with ``class_name`` among its classes), as the parser read it."""
    return [
        text
        for element, classes, text in parsed.elements
        if element == tag and (class_name is None or class_name in classes.split())
    ]


def _pairs(parsed: _Tags, class_name: str) -> list[list[tuple[str, str]]]:
    """Each ``<dl class=class_name>``'s rows as (term, value) pairs."""
    return [rows for classes, rows in parsed.lists if class_name in classes.split()]


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
        "Denied: keep it",
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
        "Files\nuser: Delete /tmp/demo.txt?\nassistant: [tool delete_file: Denied: keep it] Kept it.\nBye."
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
            {"type": "data-interrupt", "id": payload, "data": {
                "interrupt": {"id": payload, "reason": payload, "message": payload, "expiresAt": payload,
                              "responseSchema": {"title": payload, "required": [payload], "properties": {
                                  payload: {"title": payload, "type": payload, "enum": [payload, 1],
                                            "format": payload}}}},
                "status": "resolved", "payload": {payload: payload, "x": [payload]}}},
            {"type": "data-interrupt", "id": "i2", "data": {"interrupt": {"id": "i2", "reason": payload},
                                                            "status": payload, "payload": payload}},
            {"type": "tool-t", "toolCallId": "a", "state": "output-denied",
             "approval": {"id": "a", "approved": False, "reason": payload, "requestReason": payload}},
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
        {"type": "data-interrupt", "id": "i", "data": {
            "interrupt": {"id": "i", "reason": title, "message": text, "responseSchema": {
                "properties": {role: {"title": title, "enum": [text]}}}},
            "status": "resolved", "payload": {role: text}}},
    ]  # fmt: skip
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
        ("input-streaming", None, "Preparing"),
        ("input-available", None, "Running"),
        ("approval-requested", None, "Waiting for approval"),
        ("approval-responded", True, "Approved"),
        ("approval-responded", False, "Denied"),
        ("output-available", None, "Done"),
        ("output-error", None, "Error"),
        ("output-denied", False, "Denied"),
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
    assert f"· {escape(words)}</summary>" in static_html([_message("assistant", part)])


def _tool_card(part: dict[str, Any]) -> tuple[str, str, str]:
    """A tool part's copy: what its closed card says, the approval line inside, and the plain-text copy."""
    html = static_html([_message("assistant", {"type": "tool-send_report", "toolCallId": "c", **part})])
    parsed = _assert_allowed(html)
    summary = _texts_of(parsed, "summary")[0]
    approval = _texts_of(parsed, "div", "agui-static-approval")
    return (
        summary,
        approval[0] if approval else "",
        static_text([_message("assistant", {"type": "tool-x", **part})]),
    )


CANCELLED = {"callProviderMetadata": {"ag-ui": {"ended": "cancelled"}}}
STOPPED = {"callProviderMetadata": {"ag-ui": {"ended": "stopped"}}}


@pytest.mark.parametrize(
    ("part", "summary", "approval"),
    [
        pytest.param(
            {"state": "approval-requested", "approval": {"id": "a", "requestReason": "Send it to the team?"}},
            "Tool send_report · Waiting for approval",
            "Waiting for approval: Send it to the team?",
            id="waiting",
        ),
        pytest.param(
            {"state": "approval-responded", "approval": {"id": "a", "approved": True}},
            "Tool send_report · Approved",
            "",  # the summary says it all
            id="approved",
        ),
        pytest.param(
            {
                "state": "output-available",
                "output": {"sent": True},
                "approval": {"id": "a", "approved": True},
            },
            "Tool send_report · Done",
            "Approved",
            id="approved-then-done",
        ),
        pytest.param(
            {
                "state": "output-denied",
                "approval": {"id": "a", "approved": False, "reason": "not to the team"},
            },
            "Tool send_report · Denied: not to the team",  # the closed card says why, as the live one does
            "",
            id="denied-with-a-reason",
        ),
        pytest.param(
            # What pydantic-ai reports for a denied call: a result, which must not read "Done".
            {"state": "output-available", "output": "denied", "approval": {"id": "a", "approved": False}},
            "Tool send_report · Denied",
            "",
            id="denied-with-a-result",
        ),
        pytest.param(
            {"state": "output-denied", "approval": {"id": "a", "approved": False}, **CANCELLED},
            "Tool send_report · Cancelled",
            "Cancelled: a new message was sent before this was answered.",
            id="cancelled-by-a-new-message",
        ),
        pytest.param(
            {"state": "output-error", "errorText": "Stopped before the tool ran", **STOPPED},
            "Tool send_report · Stopped",
            "",
            id="stopped",
        ),
        pytest.param(
            {"state": "output-available", "output": {"rows": 1}, "preliminary": True},
            "Tool send_report · Partial result",
            "",
            id="partial",
        ),
    ],
)
def test_a_tool_card_says_what_happened_to_its_approval(
    part: dict[str, Any], summary: str, approval: str
) -> None:
    shown, inside, text = _tool_card(part)
    assert shown == summary
    assert inside == approval
    assert text == f"assistant: [tool x: {summary.split(' · ', 1)[1]}]"


def test_a_denied_call_keeps_no_reason_block_that_reads_like_a_result() -> None:
    part = {"state": "output-denied", "approval": {"id": "a", "approved": False, "reason": "not now"}}
    html = static_html([_message("assistant", {"type": "tool-send_report", "toolCallId": "c", **part})])
    assert ">Reason<" not in html and html.count("not now") == 1


TRIP_SCHEMA = {
    "type": "object",
    "title": "Trip details",
    "required": ["city", "nights"],
    "properties": {
        "city": {"type": "string", "title": "City", "description": "Where you are going."},
        "nights": {"type": "integer", "title": "Nights", "minimum": 1},
        "arrive": {"type": "string", "format": "date", "title": "Arrival"},
        "budget": {"type": "number", "title": "Budget per night"},
        "breakfast": {"type": "boolean", "title": "Breakfast included"},
        "room": {"enum": ["single", "double", "suite"], "title": "Room"},
        "extras": {
            "type": "array",
            "title": "Extras",
            "items": {"enum": ["parking", "late checkout", "spa"]},
        },
        "guest": {
            "type": "object",
            "title": "Guest",
            "properties": {"name": {"type": "string", "title": "Name"}},
        },
        "age": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
    },
}
TRIP_FIELDS = [
    ("City", "text, required"),
    ("Nights", "whole number, required"),
    ("Arrival", "date"),
    ("Budget per night", "number"),
    ("Breakfast included", "yes or no"),
    ("Room", "one of: single, double, suite"),
    ("Extras", "list of: parking, late checkout, spa"),
    ("Guest", "group of: Name"),
    ("age", "whole number or empty"),
]


def _interrupt(status: str, **data: Any) -> dict[str, Any]:
    interrupt = {"id": "trip", "reason": "input_required", "message": "Tell me about the trip.",
                 "responseSchema": TRIP_SCHEMA, **data.pop("interrupt", {})}  # fmt: skip
    return {
        "type": "data-interrupt",
        "id": "trip",
        "data": {"interrupt": interrupt, "status": status, **data},
    }


def _interrupt_card(part: dict[str, Any]) -> tuple[_Tags, str, str]:
    """An interrupt part's copy (parsed), its heading and its plain-text copy."""
    messages = [_message("assistant", {"type": "text", "text": "Before I book:"}, part)]
    parsed = _assert_allowed(static_html(messages))
    (heading,) = _texts_of(parsed, "div", "agui-static-interrupt-title")
    return parsed, heading, static_text(messages)


def test_an_answered_interrupt_reads_as_its_question_the_fields_asked_and_the_answer() -> None:
    answer = {"city": "Oslo", "nights": 2, "breakfast": True, "extras": ["parking", "spa"],
              "guest": {"name": "Ada"}, "age": None}  # fmt: skip
    parsed, heading, text = _interrupt_card(_interrupt("resolved", payload=answer))
    assert heading == "Trip details · Answered"
    assert _texts_of(parsed, "div", "agui-static-interrupt-message") == ["Tell me about the trip."]
    assert _pairs(parsed, "agui-static-fields") == [TRIP_FIELDS]
    assert _pairs(parsed, "agui-static-answer") == [
        [("City", "Oslo"), ("Nights", "2"), ("Breakfast included", "Yes"), ("Extras", "parking, spa"),
         ("Guest", '{"name":"Ada"}'), ("age", "empty")]
    ]  # fmt: skip
    shown = "".join(parsed.text)
    assert "responseSchema" not in shown and '"status"' not in shown  # no raw JSON of the part
    assert text == "assistant: Before I book: [Trip details: Answered]"


@pytest.mark.parametrize(
    ("part", "heading", "outcome"),
    [
        pytest.param(_interrupt("open"), "Trip details · Waiting for an answer", None, id="open"),
        pytest.param(
            _interrupt("open", interrupt={"expiresAt": "2099-01-02T03:04:00Z"}),
            "Trip details · Waiting for an answer",
            "Expires 2099-01-02T03:04:00Z.",
            id="open-with-an-expiry",
        ),
        pytest.param(
            _interrupt("open", interrupt={"expiresAt": "2020-01-02T03:04:00Z"}),
            "Trip details · Expired",
            "Expired 2020-01-02T03:04:00Z without an answer.",
            id="expired",
        ),
        pytest.param(
            _interrupt("cancelled", cancelledBy="user"),
            "Trip details · Cancelled",
            "Cancelled: dismissed without an answer.",
            id="dismissed",
        ),
        pytest.param(
            _interrupt("cancelled", cancelledBy="new-message"),
            "Trip details · Cancelled",
            "Cancelled: a new message was sent before this was answered.",
            id="cancelled-by-a-new-message",
        ),
        pytest.param(
            _interrupt("resolved", interrupt={"responseSchema": None}),
            "Input required · Answered",  # no schema: the reason in words, as the live card's title
            "Continued without an answer.",
            id="continued",
        ),
    ],
)
def test_an_interrupt_says_how_it_ended(part: dict[str, Any], heading: str, outcome: str | None) -> None:
    parsed, shown, text = _interrupt_card(part)
    assert shown == heading
    assert _texts_of(parsed, "div", "agui-static-interrupt-outcome") == ([outcome] if outcome else [])
    assert _pairs(parsed, "agui-static-answer") == []
    fields = _pairs(parsed, "agui-static-fields")
    assert fields == ([TRIP_FIELDS] if part["data"]["interrupt"]["responseSchema"] else [])
    assert text == f"assistant: Before I book: [{heading.replace(' · ', ': ')}]"


def test_an_answer_that_is_no_object_reads_as_one_row() -> None:
    part = _interrupt("resolved", interrupt={"responseSchema": None}, payload="Oslo, two nights")
    parsed, _, _ = _interrupt_card(part)
    assert _pairs(parsed, "agui-static-answer") == [[("Answer", "Oslo, two nights")]]


async def test_a_real_run_s_interrupt_and_its_answer_in_the_saved_copy() -> None:
    runs = 0

    def agent(run_input: RunAgentInput) -> Any:
        nonlocal runs
        runs += 1
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": f"r{runs}"}
        if runs == 1:
            interrupt = {"id": "trip", "reason": "input_required", "message": "How many nights?",
                         "responseSchema": {"type": "object", "required": ["nights"], "properties": {
                             "nights": {"type": "integer", "title": "Nights", "minimum": 1}}}}  # fmt: skip
            outcome = {"type": "interrupt", "interrupts": [interrupt]}
            yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": "r1", "outcome": outcome}
            return
        yield {"type": "TEXT_MESSAGE_START", "messageId": "t", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "t", "delta": "Booked."}
        yield {"type": "TEXT_MESSAGE_END", "messageId": "t"}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": f"r{runs}"}

    chat = ChatWidget(agent)
    assert await chat.send_message("Book Oslo") == "interrupt"
    waiting = _assert_allowed(static_html(chat.messages))
    assert _texts_of(waiting, "div", "agui-static-interrupt-title") == [
        "Input required · Waiting for an answer"
    ]
    assert _pairs(waiting, "agui-static-fields") == [[("Nights", "whole number, required")]]
    task = chat.answer_interrupt("trip", {"nights": 3})
    assert task is not None and await task == "success"
    answered = _assert_allowed(static_html(chat.messages))
    assert _texts_of(answered, "div", "agui-static-interrupt-title") == ["Input required · Answered"]
    assert _pairs(answered, "agui-static-answer") == [[("Nights", "3")]]
    assert "Booked." in "".join(answered.text)


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
        await chat.send_message("What is 1 + 2?")
    ((data, transient_now, update_now),) = _outputs(updated)  # one update, when the run ended
    assert update_now and transient_now == transient
    assert data == static_bundle(chat.messages, title="Sums")
    assert (
        "[tool add: Done] The sum is **3**." in data["text/plain"] and "What is 1 + 2?" in data["text/html"]
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
        await chat.send_message("What is 1 + 2?")
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
    await chat.send_message("<script>alert('xss')</script> What is 1 + 2?")
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
_STRICT_TAGS = [
    "div",
    "span",
    "strong",
    "br",
    "pre",
    "details",
    "summary",
    "a",
    "img",
    "p",
    "code",
    "dl",
    "dt",
    "dd",
]
_STRICT_ATTRIBUTES = {"a": ["href"], "img": ["src", "alt"]}


def _github(html: str) -> str:
    import bleach

    html = re.sub(r"<style>.*?</style>", "", html, flags=re.S)  # the sanitizer drops a style's contents too
    return bleach.clean(
        html,
        tags=_STRICT_TAGS,
        attributes=_STRICT_ATTRIBUTES,
        protocols=["http", "https"],
        strip=True,
        strip_comments=True,
    )


def test_a_sanitizer_that_drops_styles_still_leaves_a_readable_conversation() -> None:
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
    stripped = _github(static_html(messages, title="Weather"))
    parsed = _Tags()
    parsed.feed(stripped)
    text = "".join(parsed.text)
    for expected in ("Weather", "user", "Weather in Paris?", "Two cities.", "get_weather", '"temp_c": 21'):
        assert expected in text
    # Line breaks survive without CSS: the text's own lines are <br>s.
    assert "Weather in Paris?<br>And Lyon?" in stripped and "Sunny, 21 °C.<br>Lyon: rain." in stripped


def test_after_a_sanitizer_that_drops_styles_interrupts_and_approvals_still_read_as_they_ended() -> None:
    answer = {"city": "Oslo", "nights": 2, "extras": ["parking", "spa"]}
    messages = [
        _message("user", {"type": "text", "text": "Book Oslo and tell the team"}, message_id="u"),
        _message(
            "assistant",
            {"type": "tool-send_report", "toolCallId": "c1", "state": "output-denied", "input": {"to": "team"},
             "approval": {"id": "a1", "approved": False, "reason": "not to the whole team"}},
            {"type": "tool-book", "toolCallId": "c2", "state": "output-available", "output": {"ok": True},
             "approval": {"id": "a2", "approved": True}},
            _interrupt("resolved", payload=answer),
            message_id="a",
        ),
    ]  # fmt: skip
    stripped = _github(static_html(messages))
    parsed = _Tags()
    parsed.feed(stripped)
    parsed.close()
    assert _texts_of(parsed, "summary") == [
        "Tool send_report · Denied: not to the whole team",
        "Tool book · Done",
        "Asked for (9 fields)",  # answered: what was asked is folded
    ]
    assert "Approved" in _texts_of(parsed, "details")[1]
    # The definition lists survive (classes do not): the fields asked, then the answer.
    fields, given = (rows for _, rows in parsed.lists)
    assert fields == TRIP_FIELDS
    assert given == [("City", "Oslo"), ("Nights", "2"), ("Extras", "parking, spa")]
    text = "".join(parsed.text)
    assert "Trip details · Answered" in text and "Tell me about the trip." in text
    assert "responseSchema" not in text
