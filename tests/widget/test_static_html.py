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
from agui_notebook.widget._static_copy import chat_note
from agui_notebook.widget._static_html import (
    CHAT_NOTE,
    MAX_INLINE_IMAGE_BYTES,
    MAX_PLAIN_CHARS,
    STATIC_CLASS,
    document_html,
    document_text,
    markdown_html,
    message_html,
    message_text,
    static_bundle,
    static_html,
    static_text,
)
from tests.conftest import ARTIFACTS
from tests.support.static_notebook import DEMO_CELLS, executed_notebook, static_copy_html
from tests.widget.sample_agents import agui_agent

ANSWER = "The sum is <strong>3</strong>."  # what agui_agent's markdown answer "The sum is **3**." becomes

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# The module docstring's allow-list: every tag the copy may hold, and the attributes each may have.
ALLOWED = {
    "style": set(),
    "div": {"class"},
    "p": {"class"},
    "h2": {"class"},
    **{f"h{level}": set() for level in (3, 4, 5, 6)},
    "hr": {"class"},
    "strong": set(),
    "em": set(),
    "del": set(),
    "br": set(),
    "blockquote": set(),
    "ul": set(),
    "ol": {"start"},
    "li": {"class"},
    "dl": {"class"},
    "dt": set(),
    "dd": set(),
    "pre": {"class"},
    "code": {"class"},
    "details": {"class", "open"},
    "summary": set(),
    "table": {"class"},
    "thead": set(),
    "tbody": set(),
    "tr": set(),
    "th": {"align"},
    "td": {"align"},
    "figure": {"class"},
    "figcaption": set(),
    "a": {"href", "rel", "target"},
    "img": {"src", "alt"},
    # TeX math: MathML Core with layout attributes only (the module's _MATH_ATTRIBUTES).
    "math": {"display", "alttext"},
    **{
        tag: {
            "mathvariant", "stretchy", "fence", "separator", "form", "lspace", "rspace", "movablelimits",
            "largeop", "symmetric", "minsize", "maxsize", "accent", "accentunder", "linethickness", "width",
            "height", "depth", "voffset", "columnalign", "rowalign", "columnspacing", "rowspacing", "columnlines",
            "rowlines", "displaystyle", "scriptlevel", "notation", "mathcolor",
        }
        for tag in (
            "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot",
            "munder", "mover", "munderover", "mtable", "mtr", "mtd", "mstyle", "menclose", "mpadded", "mphantom",
        )
    },
}  # fmt: skip
MATH_VALUE = r"[\w .%#-]{0,40}"
ATTRIBUTE_VALUES = {
    "class": r"agui-static(-[a-z]+)*( agui-static(-[a-z]+)*)*|language-[\w#+.-]{1,40}",
    "start": r"\d+",
    "align": r"left|right|center",
    "open": r"",
    "rel": r"noopener noreferrer nofollow",
    "target": r"_blank",
    "href": r"(https?://|mailto:)[^\x00-\x20\x7f\"'<>`\\]+",
    "src": r"data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]*={0,2}",
    "alt": r"(?s).*",
    "display": r"block|inline",
    "alttext": r"(?s).*",
}
HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(2)">',
    "</div></details><script>alert(3)</script>",
    '"><svg onload=alert(4)>',
    "<style>body{display:none}</style>",
    "javascript:alert(5)",
]
HOSTILE_MARKDOWN = [
    *HOSTILE,
    "[click](javascript:alert(6)) ![x](javascript:alert(7)) <javascript:alert(8)>",
    '[q](https://x.org/" onmouseover="alert(9)) ![q](data:image/png;base64,AA" onerror="alert(10))',
    '```"><script>alert(11)</script>\nx\n```',
    "<a href='javascript:alert(12)'>a</a> <iframe src=//x.org></iframe>",
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


def _assert_allowed(html: str, *, document: bool = True) -> _Tags:
    """Parse ``html`` as a browser would and check every tag, attribute and attribute value against the
    allow-list (a document has its one ``<style>``; a row or a fragment none)."""
    parsed = _parse(html)
    for tag, attrs in parsed.tags:
        assert tag in ALLOWED, f"tag <{tag}> is not on the allow-list"
        assert set(attrs) <= ALLOWED[tag], f"<{tag}> has {sorted(attrs)}"
        for name, value in attrs.items():
            rule = ATTRIBUTE_VALUES.get(name, MATH_VALUE) if tag.startswith("m") else ATTRIBUTE_VALUES[name]
            assert re.fullmatch(rule, value or ""), f"<{tag} {name}={value!r}>"
        if tag == "code" and "class" in attrs:
            assert (attrs["class"] or "").startswith("language-") or attrs["class"] == "agui-static-tex"
    assert [tag for tag, _ in parsed.tags].count("style") == (1 if document else 0)
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
    assert _texts_of(parsed, "p", "agui-static-role") == ["You", "Assistant"]
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


@pytest.mark.parametrize("payload", HOSTILE_MARKDOWN)
def test_hostile_markdown_keeps_to_the_allow_list(payload: str) -> None:
    parts = [{"type": "text", "text": payload}, {"type": "reasoning", "text": payload}]
    # Every tag, attribute and URL checked: no script, no handler, no javascript: or other active URL.
    parsed = _assert_allowed(message_html(_message("assistant", *parts)), document=False)
    assert {tag for tag, _ in parsed.tags} <= {
        "div",
        "p",
        "strong",
        "details",
        "summary",
        "a",
        "figure",
        "pre",
        "code",
    }


@settings(max_examples=150, deadline=None)
@given(st.text(), st.text(max_size=40), st.text(max_size=40))
def test_any_text_a_user_sends_stays_text(text: str, role: str, title: str) -> None:
    parts = [
        {"type": "text", "text": text},
        {"type": "file", "mediaType": "x/y", "filename": text, "url": text},
        {"type": "data-interrupt", "id": "i", "data": {
            "interrupt": {"id": "i", "reason": title, "message": text, "responseSchema": {
                "properties": {role: {"title": title, "enum": [text]}}}},
            "status": "resolved", "payload": {role: text}}},
    ]  # fmt: skip
    html = static_html([_message("user", *parts)], title=title)
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
    assert _texts_of(parsed, "figcaption") == ["small.png"]
    assert _texts_of(parsed, "p", "agui-static-file") == [
        f"File: chart.png (image/png, {(MAX_INLINE_IMAGE_BYTES + 1) / 1024:.1f} KB)",
        "File: report.pdf (application/pdf, 3.9 KB)",
        "File: logo.svg (image/svg+xml, 24 B)",
        "File: remote.png (https://img.example/x.png)",  # a link to follow: no request leaves the page
    ]
    assert (
        '<figure class="agui-static-file"><img src="' + small + '" alt="small.png">'
        "<figcaption>small.png</figcaption></figure>"
    ) in html
    assert len(html) < 12_000


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
    approval = _texts_of(parsed, "p", "agui-static-approval")
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
    (heading,) = _texts_of(parsed, "p", "agui-static-interrupt-title")
    return parsed, heading, static_text(messages)


def test_an_answered_interrupt_reads_as_its_question_the_fields_asked_and_the_answer() -> None:
    answer = {"city": "Oslo", "nights": 2, "breakfast": True, "extras": ["parking", "spa"],
              "guest": {"name": "Ada"}, "age": None}  # fmt: skip
    parsed, heading, text = _interrupt_card(_interrupt("resolved", payload=answer))
    assert heading == "Trip details · Answered"
    assert _texts_of(parsed, "p", "agui-static-interrupt-message") == ["Tell me about the trip."]
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
    assert _texts_of(parsed, "p", "agui-static-interrupt-outcome") == ([outcome] if outcome else [])
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
    assert _texts_of(waiting, "p", "agui-static-interrupt-title") == [
        "Input required · Waiting for an answer"
    ]
    assert _pairs(waiting, "agui-static-fields") == [[("Nights", "whole number, required")]]
    task = chat.answer_interrupt("trip", {"nights": 3})
    assert task is not None and await task == "success"
    answered = _assert_allowed(static_html(chat.messages))
    assert _texts_of(answered, "p", "agui-static-interrupt-title") == ["Input required · Answered"]
    assert _pairs(answered, "agui-static-answer") == [[("Nights", "3")]]
    assert "Booked." in "".join(answered.text)


def test_the_plain_text_copy_is_cut() -> None:
    long = [_message("user", {"type": "text", "text": "x" * (MAX_PLAIN_CHARS + 100)})]
    assert static_text(long) == f"user: {'x' * (MAX_PLAIN_CHARS - 6)}… (106 more characters)"


def test_an_empty_conversation() -> None:
    assert "No messages yet." in "".join(_assert_allowed(static_html([])).text)
    assert static_text([]) == "(no messages)"


# ---------------------------------------------------------------------------------------------- markdown

PNG = "data:image/png;base64,iVBORwAAAAAAAAAAAAAAAAAAAAAAAAAA"
LINK = 'rel="noopener noreferrer nofollow" target="_blank"'


@pytest.mark.parametrize(
    ("markdown", "html"),
    [
        pytest.param(
            "# A\n\n## B\n\n###### F", "<h2>A</h2><h3>B</h3><h6>F</h6>", id="headings-one-level-down"
        ),
        pytest.param(
            "| a | b | c |\n|:--|--:|:-:|\n| 1 | **2** | `3` |",
            '<table><thead><tr><th align="left">a</th><th align="right">b</th><th align="center">c</th></tr>'
            '</thead><tbody><tr><td align="left">1</td><td align="right"><strong>2</strong></td>'
            '<td align="center"><code>3</code></td></tr></tbody></table>',
            id="table",
        ),
        pytest.param(
            "```python\nprint(1)\n```",
            '<figure class="agui-static-code"><figcaption><em>python code</em></figcaption>'
            '<pre><code class="language-python">print(1)\n</code></pre></figure>',
            id="code-with-its-language",
        ),
        pytest.param(
            '```"><script>\nx\n```\n\n    indented',
            '<figure class="agui-static-code"><pre><code>x\n</code></pre></figure>'
            '<figure class="agui-static-code"><pre><code>indented\n</code></pre></figure>',
            id="code-with-no-language-we-keep",
        ),
        pytest.param(
            "- a\n- b\n\n3. c\n4. d",
            '<ul><li>a</li><li>b</li></ul><ol start="3"><li>c</li><li>d</li></ol>',
            id="lists",
        ),
        pytest.param(
            "- [x] done\n- [ ] to do\n- [] not a box",
            '<ul><li class="agui-static-task">☑ done</li><li class="agui-static-task">☐ to do</li>'
            "<li>[] not a box</li></ul>",
            id="task-list",
        ),
        pytest.param(
            "> quote\n\n---\n\n~~gone~~ *em* **strong** `code`",
            "<blockquote><p>quote</p></blockquote><hr>"
            "<p><del>gone</del> <em>em</em> <strong>strong</strong> <code>code</code></p>",
            id="quote-rule-inline",
        ),
        pytest.param(
            "[a](https://x.org/?q=1&r=2) [m](mailto:a@b.org) <https://auto.org> see https://bare.org/x.",
            f'<p><a href="https://x.org/?q=1&amp;r=2" {LINK}>a</a> <a href="mailto:a@b.org" {LINK}>m</a> '
            f'<a href="https://auto.org" {LINK}>https://auto.org</a> see '
            f'<a href="https://bare.org/x" {LINK}>https://bare.org/x</a>.</p>',
            id="allowed-links",
        ),
        pytest.param(
            "[js](javascript:alert(1)) [ftp](ftp://x.org) [rel](/relative) [page](data:text/html,<b>)",
            "<p>js ftp rel page</p>",  # a refused link is its text, as the live view's link without an href
            id="refused-links",
        ),
        pytest.param(
            '<script>alert(1)</script>\n\n<div onclick="x">hi</div> <b>b</b>',
            "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"
            "<p>&lt;div onclick=&quot;x&quot;&gt;hi&lt;/div&gt; &lt;b&gt;b&lt;/b&gt;</p>",
            id="raw-html-is-text",
        ),
        pytest.param("a  \nb\nc", "<p>a<br>b\nc</p>", id="hard-and-soft-breaks"),
        pytest.param(
            f"![dot]({PNG}) ![map](https://maps.example/a.png) ![logo](data:image/svg+xml;base64,PHN2Zz4=) "
            "![](x.png)",
            f'<p><img src="{PNG}" alt="dot"> [image: map: <a href="https://maps.example/a.png" {LINK}>'
            "https://maps.example/a.png</a>] [image: logo (image/svg+xml, 5 B)] [image]</p>",
            id="images",
        ),
        pytest.param(
            "[![logo](https://x.org/l.png)](https://x.org)",
            f'<p><a href="https://x.org" {LINK}>[image: logo: https://x.org/l.png]</a></p>',
            id="remote-image-in-a-link",
        ),
    ],
)
def test_markdown_becomes_semantic_html(markdown: str, html: str) -> None:
    assert markdown_html(markdown) == html
    _assert_allowed(html, document=False)


def test_a_large_inline_image_is_named_not_copied() -> None:
    large = _png_url(MAX_INLINE_IMAGE_BYTES + 1, b"\1")
    assert markdown_html(f"![chart]({large})") == (
        f"<p>[image: chart (image/png, {(MAX_INLINE_IMAGE_BYTES + 1) / 1024:.1f} KB)]</p>"
    )


def test_markdown_renders_where_the_live_view_renders_it() -> None:
    text = {"type": "text", "text": "**bold** and\n# not a heading"}
    reasoning = {"type": "reasoning", "text": "*Careful*", "state": "done"}
    assert message_html(_message("user", text)) == (
        '<div class="agui-static-message agui-static-user"><p class="agui-static-role"><strong>You</strong>'
        '</p><p class="agui-static-plain">**bold** and<br># not a heading</p></div>'
    )
    assert "**bold**" in message_html(_message("system", text))
    for role in ("assistant", "tool", "anything"):
        assert "<strong>bold</strong>" in message_html(_message(role, text))
    assert message_html(_message("assistant", reasoning)) == (
        '<div class="agui-static-message agui-static-assistant"><p class="agui-static-role"><strong>Assistant'
        '</strong></p><details class="agui-static-reasoning"><summary>Reasoning · 1 word</summary>'
        '<div class="agui-static-text"><p><em>Careful</em></p></div></details></div>'
    )


@pytest.mark.parametrize(
    ("role", "words"),
    [("user", "You"), ("assistant", "Assistant"), ("system", "System"), ("tool", "Tool"), ("", "Message")],
)
def test_each_message_says_whose_it_is(role: str, words: str) -> None:
    parsed = _parse(message_html({"id": "m", "role": role, "parts": []}))
    assert _texts_of(parsed, "p", "agui-static-role") == [words]


MARKDOWN_PIECES = st.sampled_from(
    ["#", "##", "*", "**", "_", "`", "```", "~~", "[", "]", "(", ")", "!", "<", ">", "&", '"', "'", "|", "-",
     "---", "\n", "\n\n", "  \n", "    ", "> ", "1. ", "- [x] ", "javascript:", "https://x.org/", "mailto:a@b",
     "data:image/png;base64,AA==", "data:text/html,", "<script>", "onerror=", "<img src=x>", "&#x3C;", "\\"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(MARKDOWN_PIECES, st.text(max_size=8)), max_size=40).map("".join))
def test_any_markdown_keeps_to_the_allow_list(text: str) -> None:
    parts = [{"type": "text", "text": text}, {"type": "reasoning", "text": text}]
    _assert_allowed(message_html(_message("assistant", *parts)), document=False)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
    | MARKDOWN_PIECES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8) | MARKDOWN_PIECES, inner,
                                                                max_size=4),
    max_leaves=20,
)  # fmt: skip
PART_TYPES = st.sampled_from(
    ["text", "reasoning", "tool-x", "dynamic-tool", "file", "reasoning-file", "source-url", "source-document",
     "data-plan", "data-todos", "data-rows", "data-interrupt", "data-suggestions", "step-start", "custom",
     "steering-message", "whatever", "tool-<b>"]
)  # fmt: skip
PART_KEYS = st.sampled_from(
    ["text", "state", "input", "output", "errorText", "approval", "toolName", "title", "url", "filename",
     "mediaType", "data", "id", "kind", "parts", "providerMetadata", "preliminary", "rawInput"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.builds(lambda kind, rest: {**rest, "type": kind}, PART_TYPES,
                          st.dictionaries(PART_KEYS, JSON_VALUES, max_size=6)), max_size=6),
       st.sampled_from(["user", "assistant", "system", "tool", "<b>"]))  # fmt: skip
def test_any_parts_keep_to_the_allow_list(parts: list[dict[str, Any]], role: str) -> None:
    message = _message(role, *parts)
    before = json.dumps(message, sort_keys=True, default=str)
    html = message_html(message)
    _assert_allowed(html, document=False)
    assert message_html(message) == html  # a pure function of the message...
    assert json.dumps(message, sort_keys=True, default=str) == before  # ...that leaves it as it was
    assert isinstance(message_text(message), str)


# ---------------------------------------------------------------------------------------------- plans, records, data


def test_a_plan_reads_as_a_ticked_list_with_its_summary() -> None:
    plan = {"type": "data-plan", "data": {"steps": [
        {"title": "Look up the forecast", "status": "done"},
        {"description": "Write the answer", "state": "in_progress"},
        {"content": "Send it", "status": "pending"},
        {"text": "Ask a human", "status": "failed"},
        {"label": "Skip the spam", "status": "skipped"},
        {"name": "Wait for legal", "status": "awaiting review"},
    ]}}  # fmt: skip
    assert message_html(_message("assistant", plan)).split("</strong></p>", 1)[1] == (
        '<div class="agui-static-plan"><p class="agui-static-label"><strong>Plan</strong> · 1 of 6 done</p><ol>'
        "<li>✓ Look up the forecast (done)</li><li>◐ Write the answer (in progress)</li>"
        "<li>○ Send it (pending)</li><li>✗ Ask a human (failed)</li><li>⊘ Skip the spam (skipped)</li>"
        "<li>○ Wait for legal (awaiting review)</li></ol></div></div>"  # a status we do not know: as sent
    )
    assert message_text(_message("assistant", plan)) == "assistant: [Plan · 1 of 6 done]"


@pytest.mark.parametrize(
    ("part", "summary"),
    [
        pytest.param(
            {"type": "data-todos", "data": [{"task": "a", "done": True}, {"task": "b", "completed": False}]},
            "todos · 1 of 2 done",
            id="a-list-in-a-plan-part",
        ),
        pytest.param(
            {
                "type": "data-agent",
                "data": {"goal": "Trip", "tasks": [{"title": "Book", "status": "Completed"}]},
            },
            "Trip · 1 of 1 done",
            id="steps-under-a-key-with-a-goal",
        ),
    ],
)
def test_plans_in_the_shapes_agents_send(part: dict[str, Any], summary: str) -> None:
    parsed = _assert_allowed(message_html(_message("assistant", part)), document=False)
    assert _texts_of(parsed, "p", "agui-static-label") == [summary]


def test_a_list_of_records_reads_as_a_table() -> None:
    rows = [{"day": "Mon", "high": 3, "sky": "<snow>"}, {"day": "Tue", "high": 5.5, "wet": True}]
    html = message_html(_message("assistant", {"type": "data-forecast", "data": rows}))
    assert html.split("</strong></p>", 1)[1] == (
        '<div class="agui-static-records"><p class="agui-static-label"><strong>forecast</strong> · 2 rows</p>'
        '<table class="agui-static-table"><thead><tr><th>day</th><th align="right">high</th><th>sky</th>'
        "<th>wet</th></tr></thead><tbody>"
        '<tr><td>Mon</td><td align="right">3</td><td>&lt;snow&gt;</td><td></td></tr>'
        '<tr><td>Tue</td><td align="right">5.5</td><td></td><td>true</td></tr></tbody></table></div></div>'
    )
    # Records without a status each are a table, not a plan; a long list says what it left out.
    many = [{"title": f"t{n}", "n": n} for n in range(60)]
    parsed = _parse(message_html(_message("assistant", {"type": "data-rows", "data": many})))
    assert len(_texts_of(parsed, "tr")) == 51
    assert _texts_of(parsed, "p", "agui-static-note") == ["10 more rows not shown"]


def test_other_data_is_json_folded_under_its_name() -> None:
    html = message_html(
        _message("assistant", {"type": "data-hotel", "data": {"name": "<Grand>", "stars": 4}})
    )
    assert html.split("</strong></p>", 1)[1] == (
        '<details class="agui-static-data"><summary>Data · hotel</summary><figure class="agui-static-value">'
        "<pre>{\n  &quot;name&quot;: &quot;&lt;Grand&gt;&quot;,\n  &quot;stars&quot;: 4\n}</pre></figure>"
        "</details></div>"
    )


# ---------------------------------------------------------------------------------------------- the API


def test_static_html_is_the_document_of_its_messages_rows() -> None:
    messages = _demo_messages()
    versions = {1: (1, [[_message("assistant", {"type": "text", "text": "Old answer."})]])}
    rows = [message_html(m, versions=versions.get(at)) for at, m in enumerate(messages)]
    assert static_html(messages, title="T", versions=versions) == document_html(rows, title="T")
    assert static_text(messages, title="T") == document_text([message_text(m) for m in messages], title="T")
    bundle = static_bundle(messages, title="T", note="Kept in chat.jsonl.")
    assert bundle["text/html"] == document_html(
        [message_html(m) for m in messages], title="T", note="Kept in chat.jsonl."
    )
    assert "Kept in chat.jsonl." in bundle["text/html"] and CHAT_NOTE not in bundle["text/html"]
    assert CHAT_NOTE == "A saved copy of this chat."
    assert message_html("not a message") == "" and message_text(None) == ""


def test_the_versions_fold_says_which_version_is_shown_and_which_are_folded() -> None:
    def answer(text: str) -> dict[str, Any]:
        return _message("assistant", {"type": "text", "text": text}, message_id=text)

    html = message_html(answer("second"), versions=(1, [[answer("first")], [answer("third")]]))
    parsed = _assert_allowed(html, document=False)
    assert _texts_of(parsed, "summary") == ["This is version 2 of 3 · versions 1 and 3 below"]
    folded = [t for t in _texts_of(parsed, "p") if t.startswith("Version") or t in ("first", "third")]
    assert folded == ["Version 1", "first", "Version 3", "third"]
    assert _texts_of(_parse(message_html(answer("b"), versions=(0, [[answer("a")]]))), "summary") == [
        "This is version 1 of 2 · version 2 below"
    ]


async def test_a_regenerated_answer_s_copy_numbers_its_versions_as_the_picker_does() -> None:
    answers = iter(["answer 1", "answer 2", "answer 3"])

    def agent(run_input: RunAgentInput) -> Any:
        yield next(answers)

    chat = ChatWidget(agent)
    await chat.send_message("q")
    await chat.regenerate()
    await chat.regenerate()
    answer_id = chat.messages[1]["id"]
    chat.select_branch(answer_id, 1)  # the middle one: versions 1 and 3 are folded
    parsed = _parse(chat._static_copy()["text/html"])
    assert _texts_of(parsed, "summary") == ["This is version 2 of 3 · versions 1 and 3 below"]
    shown = [t for t in _texts_of(parsed, "p") if t.startswith(("Version", "answer"))]
    assert shown == ["answer 2", "Version 1", "answer 1", "Version 3", "answer 3"]


def test_a_chat_with_several_conversations_lists_them_folded() -> None:
    threads = [
        {"title": "Weather", "updated": "2026-01-02T13:04:00Z", "turns": 3, "current": False},
        {"title": "<Trip>", "updated": "2026-01-03T09:00:00+01:00", "turns": 1, "current": True},
        {"title": "", "updated": "not a date", "turns": 0, "current": False},
    ]
    html = document_html([], threads=threads)
    parsed = _assert_allowed(html)
    assert _texts_of(parsed, "summary") == ["3 conversations in this chat's log"]
    assert _texts_of(parsed, "li") == [
        "Weather · 2026-01-02 13:04 UTC · 3 turns",
        "<Trip> (this one) · 2026-01-03 08:00 UTC · 1 turn",
        "Untitled conversation · not a date · 0 turns",
    ]
    assert html.index("No messages yet.") < html.index("conversations in this chat") < html.index(CHAT_NOTE)
    assert "<details" not in document_html([], threads=threads[:1])  # one conversation: nothing to list


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
    # The line under it says truly where the conversation lives (here: memory only, no notebook).
    assert copy == static_bundle([], title="Sums", note=chat_note(None), threads=chat.threads)

    with capture_output() as updated:
        await chat.send_message("What is 1 + 2?")
    ((data, transient_now, update_now),) = _outputs(updated)  # one update, when the run ended
    assert update_now and transient_now == transient
    assert data == static_bundle(chat.messages, title="Sums", note=chat_note(None), threads=chat.threads)
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


def test_nbconvert_of_an_executed_notebook_shows_formatted_markdown_and_no_raw_json(tmp_path: Path) -> None:
    """The quickstart's first screen, run by nbclient as a user runs it, then ``jupyter nbconvert --to html``."""
    notebook = executed_notebook(DEMO_CELLS, tmp_path)
    assert "Weather in Paris" in static_copy_html(notebook)
    (tmp_path / "demo.ipynb").write_text(json.dumps(notebook))
    html = _convert(tmp_path / "demo.ipynb")
    start = html.index(f'<div class="{STATIC_CLASS}">')
    copy = html[start : html.index("A saved copy of this chat.", start)]
    parsed = _parse(copy)
    tags = [tag for tag, _ in parsed.tags]
    assert "h3" in tags and "table" in tags and "thead" in tags
    assert '<pre><code class="language-python">import httpx' in copy
    text = "".join(parsed.text)
    for words in ("Plan · 3 of 3 done", "✓ Look up the weather in Paris (done)", "Tool get_weather · Done",
                  "Tool send_report · Waiting for approval", "Source: Weather service (weather.example)"):  # fmt: skip
        assert words in text, words
    for raw in (
        "**",
        "|---",
        "| --- |",
        "```",
        "## ",
        '"steps"',
        '"status": "done"',
    ):  # no markdown source, no plan JSON
        assert raw not in text, raw


# GitHub's HTML sanitizer (html-pipeline's SanitizationFilter, the strictest renderer a notebook meets), as nh3
# (ammonia) rules: structural tags kept; <style>, class and style attributes dropped; links to http(s) and mailto,
# images from data: and http(s) URLs only; no MathML (its allow-list has none, and Selma removes <math> whole).
GITHUB_TAGS = {
    *(f"h{level}" for level in range(1, 7)),
    "p", "div", "span", "br", "hr", "b", "i", "strong", "em", "del", "s", "code", "pre", "kbd", "blockquote",
    "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "th", "td", "details",
    "summary", "figure", "figcaption", "img", "a", "sup", "sub",
}  # fmt: skip
GITHUB_ATTRIBUTES = {
    "a": {"href"},
    "img": {"src", "alt"},
    "th": {"align"},
    "td": {"align"},
    "ol": {"start"},
    "details": {"open"},
}
GITHUB_SCHEMES = {"a": ("http:", "https:", "mailto:"), "img": ("data:", "http:", "https:")}


def _github_url(tag: str, attribute: str, value: str) -> str | None:
    if attribute in ("href", "src") and not value.lower().startswith(GITHUB_SCHEMES.get(tag, ())):
        return None
    return value


def _github(html: str) -> str:
    import nh3

    return nh3.clean(
        html,
        tags=GITHUB_TAGS,
        attributes=GITHUB_ATTRIBUTES,
        attribute_filter=_github_url,
        url_schemes={"http", "https", "mailto", "data"},
        link_rel=None,
        strip_comments=True,
        # html-pipeline's Selma drops these elements with what is inside them (its default remove_contents).
        clean_content_tags={"math", "script", "style", "svg", "iframe", "noscript"},
    )


def _structure(html: str, *, kept: dict[str, set[str]] | None = None) -> list[tuple[str, Any]]:
    """What a reader gets from ``html``: its elements in order (with the attributes ``kept`` of each) and its
    text, the contents of a <style> left out."""

    class Reader(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.items: list[tuple[str, Any]] = []
            self.in_style = False

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.in_style = tag == "style"
            if tag != "style":
                wanted = (kept or {}).get(tag, set())
                self.items.append((tag, sorted((k, v or "") for k, v in attrs if k in wanted)))

        def handle_endtag(self, tag: str) -> None:
            self.in_style = False

        def handle_data(self, data: str) -> None:
            if not self.in_style and data:
                self.items.append(("text", data))

    reader = Reader()
    reader.feed(html)
    reader.close()
    return reader.items


def _demo_messages() -> list[dict[str, Any]]:
    """What the demo agent's first turn leaves: a plan, reasoning, two tool calls, a markdown answer (a heading,
    a table, code), a source and a small image."""
    return [
        _message("user", {"type": "text", "text": "What's the weather in Paris?"}, message_id="u"),
        _message(
            "assistant",
            {"type": "data-plan", "data": {"steps": [{"title": "Look it up", "status": "done"},
                                                     {"title": "Write the answer", "status": "in_progress"}]}},
            {"type": "reasoning", "text": "Call the tool.", "state": "done"},
            {"type": "tool-get_weather", "toolCallId": "c1", "state": "output-available",
             "input": {"city": "Paris"}, "output": {"temp_c": 21}},
            {"type": "text", "text": DEMO_ANSWER, "state": "done"},
            {"type": "source-url", "sourceId": "s", "url": "https://weather.example/paris", "title": "Weather"},
            {"type": "file", "mediaType": "image/png", "filename": "chart.png", "url": _png_url(200, b"\0")},
            {"type": "tool-send_report", "toolCallId": "c2", "state": "approval-requested",
             "input": {"to": "team"}, "approval": {"id": "a", "requestReason": "Send it?"}},
            message_id="a",
        ),
    ]  # fmt: skip


DEMO_ANSWER = (
    "## Weather in Paris\n\nIt is **sunny**.\n\n| Measure | Value |\n| --- | ---: |\n| Temperature | 21 °C |\n\n"
    "```python\nprint(21)\n```\n\n- [x] looked it up"
)


def test_github_s_sanitizer_leaves_the_whole_copy_but_its_style_and_classes() -> None:
    html = static_html(_demo_messages(), title="Weather")
    github = _github(html)
    # Nothing a reader sees is lost: the same elements, in the same order, with the same text and links.
    assert _structure(github, kept=GITHUB_ATTRIBUTES) == _structure(html, kept=GITHUB_ATTRIBUTES)
    assert "<style" not in github and "class=" not in github
    parsed = _parse(github)
    tags = [tag for tag, _ in parsed.tags]
    assert {"h2", "h3", "table", "thead", "th", "pre", "code", "figure", "details", "summary", "ol"} <= set(
        tags
    )
    assert _texts_of(parsed, "summary") == [
        "Reasoning · 3 words",
        "Tool get_weather · Done",
        "Tool send_report · Waiting for approval",
    ]
    text = "".join(parsed.text)
    for words in ("Plan · 1 of 2 done", "✓ Look it up (done)", "◐ Write the answer (in progress)",
                  "☑ looked it up", "python code", "print(21)", "Source: Weather (weather.example)"):  # fmt: skip
        assert words in text, words
    assert [a for tag, a in parsed.tags if tag == "th"] == [{}, {"align": "right"}]


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
    for expected in ("Weather", "You", "Weather in Paris?", "Two cities.", "get_weather", '"temp_c": 21'):
        assert expected in text
    # A user's line breaks survive without CSS (they are <br>s); the answer's are markdown's: soft, one paragraph.
    assert "Weather in Paris?<br>And Lyon?" in stripped and "<p>Sunny, 21 °C.\nLyon: rain.</p>" in stripped


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


# ---------------------------------------------------------------------------------------------- math

MATH_ANSWER = (
    "Energy $E=mc^2$ and \\(a^2+b^2=c^2\\); a price of $5 and $10 stays text.\n\n"
    "$$\\int_0^\\infty e^{-x}\\,dx = 1$$\n\n"
    "\\[\n\\sum_{i=1}^n i = \\frac{n(n+1)}{2}\n\\]\n\n"
    "```math\n\\begin{pmatrix}1 & 2\\\\ 3 & 4\\end{pmatrix}\n```\n\n"
    "A typo $\\frac{1}{$ shows its source; `$x$` in code is code."
)
MATHML_TAGS = {
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup", "mfrac", "msqrt",
    "mroot", "munder", "mover", "munderover", "mtable", "mtr", "mtd", "mstyle", "menclose", "mpadded", "mphantom",
}  # fmt: skip


def test_math_is_mathml_of_the_allow_list_with_its_tex_beside_it() -> None:
    html = markdown_html(MATH_ANSWER)
    parsed = _assert_allowed(html, document=False)
    maths = [attrs for tag, attrs in parsed.tags if tag == "math"]
    assert maths == [
        {"display": "inline", "alttext": "E=mc^2"},
        {"display": "inline", "alttext": "a^2+b^2=c^2"},
        {"display": "block", "alttext": "\\int_0^\\infty e^{-x}\\,dx = 1"},
        {"display": "block", "alttext": "\\sum_{i=1}^n i = \\frac{n(n+1)}{2}"},
        {"display": "block", "alttext": "\\begin{pmatrix}1 & 2\\\\ 3 & 4\\end{pmatrix}"},
    ]
    # Only MathML Core elements, each with only layout attributes of words and numbers.
    math_tags = {tag for tag, _ in parsed.tags if tag.startswith("m") and tag != "math"}
    assert math_tags <= MATHML_TAGS and {"mfrac", "msup", "mtable", "munderover"} <= math_tags
    text = "".join(parsed.text)
    assert "a price of $5 and $10 stays text." in text
    assert "<code>$\\frac{1}{$</code>" in html  # bad TeX: its source
    assert "<code>$x$</code> in code is code" in html
    # Each formula's TeX follows it, for readers without MathML (the style hides it where MathML shows).
    assert html.count('<code class="agui-static-tex">') == 5
    assert "code.agui-static-tex{display:none}" in static_html(
        [_message("assistant", {"type": "text", "text": "$x$"})]
    )


def test_math_cannot_smuggle_links_or_markup() -> None:
    html = markdown_html(
        "$\\href{javascript:alert(1)}{x}$ $\\text{<b>bold</b>}$ $\\color{red;background:url(x)}{y}$"
    )
    assert "javascript" not in html.replace("\\href{javascript:alert(1)}{x}", "")
    assert "<b>" not in html and "url(x)" not in html.replace("\\color{red;background:url(x)}{y}", "")
    assert "href=" not in html
    _assert_allowed(html, document=False)


def test_github_s_sanitizer_shows_each_formula_as_its_tex() -> None:
    messages = [_message("assistant", {"type": "text", "text": MATH_ANSWER, "state": "done"}, message_id="a")]
    github = _github(static_html(messages))
    assert "<math" not in github and "<mi>" not in github
    for tex in ("$E=mc^2$", "$a^2+b^2=c^2$", "$$\\int_0^\\infty e^{-x}\\,dx = 1$$", "$\\frac{1}{$"):
        assert f"<code>{escape(tex, quote=False)}</code>" in github, tex
    # Once each: the MathML went with its contents, nothing reads twice.
    assert "".join(_parse(github).text).count("E=mc^2") == 1


def test_nbconvert_html_shows_math_as_mathml(tmp_path: Path) -> None:
    messages = [
        _message("user", {"type": "text", "text": "Some maths?"}, message_id="u"),
        _message("assistant", {"type": "text", "text": MATH_ANSWER, "state": "done"}, message_id="a"),
    ]
    outputs = [
        {"output_type": "display_data", "data": static_bundle(messages, title="Maths"), "metadata": {}}
    ]
    (tmp_path / "math.ipynb").write_text(json.dumps(_notebook(outputs)))
    html = _convert(tmp_path / "math.ipynb")
    assert html.count("<math ") == 5 and "code.agui-static-tex{display:none}" in html
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "static-math.html").write_text(html)
