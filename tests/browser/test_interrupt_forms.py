"""Interrupt cards in the browser: the form generated from a responseSchema (every feature), its validation
messages, Submit and Dismiss (the requests the view sends), the expiresAt countdown and expiry, the answered
states, and the approval card's descriptor / isAutomatic / signature. Screenshots: light, dark, 360 px.

The conversations come from a real ChatWidget run by a scripted AG-UI agent, so the browser renders exactly what
the kernel would send.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import re
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook.agui._interrupts import payload_problems
from agui_notebook.widget._chat import ChatWidget

pytestmark = pytest.mark.browser

EVERYTHING = {
    "type": "object",
    "title": "Trip details",
    "required": ["city", "nights", "email"],
    "properties": {
        "city": {
            "type": "string",
            "title": "City",
            "description": "Where you are going.",
            "minLength": 2,
            "maxLength": 20,
            "pattern": "^[A-Za-z ]+$",
        },
        "email": {"type": "string", "format": "email", "title": "Email"},
        "site": {"type": "string", "format": "uri", "title": "Hotel site"},
        "arrive": {"type": "string", "format": "date", "title": "Arrival", "default": "2026-12-24"},
        "nights": {"type": "integer", "minimum": 1, "maximum": 14, "default": 2, "title": "Nights"},
        "budget": {
            "type": "number",
            "exclusiveMinimum": 0,
            "exclusiveMaximum": 1000,
            "multipleOf": 0.5,
            "title": "Budget per night",
        },
        "breakfast": {"type": "boolean", "title": "Breakfast included", "default": True},
        "room": {"enum": ["single", "double", "suite"], "title": "Room"},
        "floor": {"type": "integer", "enum": [1, 2, 3, 4, 5, 6], "title": "Floor"},
        "extras": {
            "type": "array",
            "title": "Extras",
            "items": {"enum": ["parking", "late checkout", "spa"]},
            "minItems": 1,
            "default": ["parking"],
        },
        "guest": {
            "type": "object",
            "title": "Guest",
            "required": ["name"],
            "properties": {
                "name": {"type": "string", "title": "Name"},
                "age": {"anyOf": [{"type": "integer", "minimum": 18}, {"type": "null"}], "title": "Age"},
            },
        },
    },
}


def soon(seconds: float) -> str:
    return (datetime.now(timezone.utc) + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z")


def conversation(interrupts: list[dict[str, Any]], *, tool_call: str | None = None) -> list[dict[str, Any]]:
    """The widget's messages after a run of a scripted agent that ends with ``interrupts``."""

    def agent(run_input: RunAgentInput) -> Iterator[dict[str, Any]]:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": "r1"}
        yield {"type": "TEXT_MESSAGE_START", "messageId": "t1", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "t1", "delta": "Before I book, a few details."}
        yield {"type": "TEXT_MESSAGE_END", "messageId": "t1"}
        if tool_call:
            yield {"type": "TOOL_CALL_START", "toolCallId": tool_call, "toolCallName": "book_hotel"}
            yield {"type": "TOOL_CALL_ARGS", "toolCallId": tool_call, "delta": '{"hotel": "Grand"}'}
            yield {"type": "TOOL_CALL_END", "toolCallId": tool_call}
        outcome = {"type": "interrupt", "interrupts": interrupts}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": "r1", "outcome": outcome}

    async def drive() -> list[dict[str, Any]]:
        chat = ChatWidget(agent)
        assert await chat.send_message("Book me a hotel in Oslo") == "interrupt"
        return chat.messages

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, drive()).result()


TRIP = {
    "id": "trip",
    "reason": "input_required",
    "message": "Tell me about the trip.",
    "responseSchema": EVERYTHING,
}
CARD = "[data-part-type=data-interrupt]"


def field(widget: Any, path: str) -> Any:
    return widget.locator(f'{CARD} [data-agui=field][data-path="{path}"]')


def error_of(widget: Any, path: str) -> str | None:
    shown = field(widget, path).locator(":scope > [data-agui=field-error]")
    return shown.inner_text() if shown.is_visible() else None


@pytest.fixture(scope="module")
def trip_messages() -> list[dict[str, Any]]:
    return conversation([TRIP])


def test_the_form_has_a_field_for_every_schema_feature(chat, trip_messages):
    widget = chat.open(messages=trip_messages, height="auto")
    card = widget.locator(CARD)
    assert card.get_attribute("data-status") == "open"
    assert card.locator("[data-agui=interrupt-state]").inner_text() == "Needs your input"
    assert card.locator(".agui-interrupt-title").inner_text() == "Trip details"  # the schema's title
    assert card.locator("[data-agui=interrupt-message]").inner_text() == "Tell me about the trip."
    kinds = {
        path: field(widget, path).evaluate(
            """(f) => {
                const c = f.querySelector(':scope > input, :scope > select, :scope > textarea, :scope > label > input');
                if (f.querySelector(':scope > fieldset.agui-field-object')) return 'fieldset';
                if (f.querySelector(':scope > fieldset.agui-field-checklist')) return 'checklist';
                if (f.querySelector(':scope > fieldset.agui-field-radios')) return 'radios';
                return c.tagName.toLowerCase() + ':' + (c.type || '');
            }"""
        )
        for path in [
            "payload.city",
            "payload.email",
            "payload.site",
            "payload.arrive",
            "payload.nights",
            "payload.budget",
            "payload.breakfast",
            "payload.room",
            "payload.floor",
            "payload.extras",
            "payload.guest",
            "payload.guest.name",
            "payload.guest.age",
        ]
    }
    assert kinds == {
        "payload.city": "input:text",
        "payload.email": "input:email",
        "payload.site": "input:url",
        "payload.arrive": "input:date",
        "payload.nights": "input:number",
        "payload.budget": "input:number",
        "payload.breakfast": "input:checkbox",
        "payload.room": "radios",  # up to 4 choices
        "payload.floor": "select:select-one",  # more
        "payload.extras": "checklist",
        "payload.guest": "fieldset",
        "payload.guest.name": "input:text",
        "payload.guest.age": "input:number",  # an optional integer (anyOf with null)
    }
    # Titles label the fields, descriptions are help, required fields are marked (and say so to a reader).
    city = field(widget, "payload.city")
    assert city.locator("label").inner_text() == "City*"
    assert city.locator(".agui-field-help").inner_text() == "Where you are going."
    assert city.locator("input").get_attribute("aria-required") == "true"
    assert field(widget, "payload.site").locator(".agui-field-required").count() == 0
    assert field(widget, "payload.guest").locator("legend").inner_text() == "Guest"
    # Bounds and steps reach the inputs.
    nights = field(widget, "payload.nights").locator("input")
    assert (nights.get_attribute("min"), nights.get_attribute("max"), nights.get_attribute("step")) == (
        "1",
        "14",
        "1",
    )
    assert field(widget, "payload.budget").locator("input").get_attribute("step") == "0.5"
    # Defaults fill the fields in.
    assert nights.input_value() == "2"
    assert field(widget, "payload.arrive").locator("input").input_value() == "2026-12-24"
    assert field(widget, "payload.breakfast").locator("input").is_checked()
    assert [i.is_checked() for i in field(widget, "payload.extras").locator("input").all()] == [
        True,
        False,
        False,
    ]
    assert [o.inner_text() for o in field(widget, "payload.floor").locator("option").all()] == [
        "Choose…",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
    ]
    # No messages before the user did anything.
    assert card.locator("[data-agui=field-error]:visible").count() == 0
    assert chat.events.errors == []


CASES = [
    ("payload.city", "O", "must be at least 2 characters"),
    ("payload.city", "Oslo 2", "must match the pattern ^[A-Za-z ]+$"),
    ("payload.city", "A" * 21, "must be at most 20 characters"),
    ("payload.email", "ann@", "must be an email address"),
    ("payload.site", "example.com", "must be a URL such as https://example.com"),
    ("payload.nights", "0", "must be at least 1"),
    ("payload.nights", "15", "must be at most 14"),
    ("payload.nights", "2.5", "must be a whole number"),
    ("payload.budget", "0", "must be more than 0"),
    ("payload.budget", "1000", "must be less than 1000"),
    ("payload.budget", "10.25", "must be a multiple of 0.5"),
    ("payload.guest.age", "17", "must be at least 18"),
]


def test_each_rule_shows_its_message_next_to_the_field_once_touched(chat, trip_messages):
    widget = chat.open(messages=trip_messages, height="auto")
    for path, text, message in CASES:
        box = field(widget, path).locator("input")
        box.fill(text)
        box.blur()
        chat.frames()
        assert error_of(widget, path) == message, (path, text)
        assert box.get_attribute("aria-invalid") == "true"
        assert field(widget, path).get_attribute("data-invalid") == "true"
        box.fill("")
        box.blur()
    # Each message is the kernel's, word for word (agui/_interrupts.py payload_problems).
    base = {"city": "Oslo", "nights": 2, "email": "a@b.co"}
    for path, text, message in CASES:
        keys = path.split(".")[1:]
        value: Any = (
            text if "nights" not in path and "budget" not in path and "age" not in path else float(text)
        )
        if keys == ["nights"] and value.is_integer():
            value = int(value)
        payload = dict(base)
        if keys[0] == "guest":
            payload["guest"] = {"name": "Ann", "age": int(value)}
        else:
            payload[keys[0]] = value
        assert (path, message) in payload_problems(EVERYTHING, payload)


def test_a_checklist_counts_its_choices(chat, trip_messages):
    # An optional checklist left empty is left out of the payload (absent is what the schema allows).
    widget = chat.open(messages=trip_messages, height="auto")
    field(widget, "payload.extras").locator("input").first.uncheck()
    chat.frames()
    assert error_of(widget, "payload.extras") is None
    # A required one (here the whole answer) must have between minItems and maxItems.
    schema = {
        "type": "array",
        "title": "Toppings",
        "items": {"enum": ["ham", "egg", "kale"]},
        "minItems": 1,
        "maxItems": 2,
    }
    widget = chat.open(
        messages=conversation([{"id": "pick", "reason": "input", "responseSchema": schema}]), height="auto"
    )
    boxes = field(widget, "payload").locator("input")
    boxes.nth(0).check()
    boxes.nth(0).uncheck()
    chat.frames()
    assert error_of(widget, "payload") == "choose at least 1"
    for index in range(3):
        boxes.nth(index).check()
    chat.frames()
    assert error_of(widget, "payload") == "choose at most 2"
    boxes.nth(1).uncheck()
    widget.clear_sent()
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    assert widget.sent() == [
        {"kind": "interrupt", "interruptId": "pick", "status": "resolved", "payload": ["ham", "kale"]}
    ]


def test_submit_with_problems_shows_them_all_and_sends_nothing(chat, trip_messages):
    widget = chat.open(messages=trip_messages, height="auto")
    widget.clear_sent()
    # An optional object is left out while empty; once part of it is filled in, its required fields count.
    field(widget, "payload.guest.age").locator("input").fill("40")
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    chat.frames()
    assert widget.sent() == []
    assert error_of(widget, "payload.city") == "is required"
    assert error_of(widget, "payload.email") == "is required"
    assert error_of(widget, "payload.guest.name") == "is required"
    assert widget.locator(f"{CARD} [data-agui=form-error]").inner_text() == "Check the 3 marked fields."
    # The first field with a problem has the focus.
    assert (
        widget.root.evaluate("(r) => r.ownerDocument.activeElement.closest('[data-agui=field]').dataset.path")
        == "payload.city"
    )


def test_submit_sends_the_payload_the_kernel_accepts(chat, trip_messages):
    widget = chat.open(messages=trip_messages, height="auto")
    widget.clear_sent()
    field(widget, "payload.city").locator("input").fill("Oslo")
    field(widget, "payload.email").locator("input").fill("ann@example.com")
    field(widget, "payload.budget").locator("input").fill("120.5")
    field(widget, "payload.room").locator("label", has_text="double").click()
    field(widget, "payload.floor").locator("select").select_option(label="5")
    field(widget, "payload.extras").locator("label", has_text="spa").click()
    field(widget, "payload.breakfast").locator("input").uncheck()
    field(widget, "payload.guest.name").locator("input").fill("Ann")
    field(widget, "payload.guest.age").locator("input").fill("40")
    field(widget, "payload.site").locator("input").fill("https://grand.example")
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    chat.frames()
    payload = {
        "city": "Oslo",
        "email": "ann@example.com",
        "site": "https://grand.example",
        "arrive": "2026-12-24",
        "nights": 2,
        "budget": 120.5,
        "breakfast": False,
        "room": "double",
        "floor": 5,
        "extras": ["parking", "spa"],
        "guest": {"name": "Ann", "age": 40},
    }
    assert widget.sent() == [
        {"kind": "interrupt", "interruptId": "trip", "status": "resolved", "payload": payload}
    ]
    assert payload_problems(EVERYTHING, payload) == []
    # Sent once: the buttons wait for the kernel's answer.
    assert widget.locator(f"{CARD} [data-agui=interrupt-submit]").is_disabled()
    assert widget.locator(f"{CARD} [data-agui=interrupt-dismiss]").is_disabled()


def test_enter_in_a_field_submits(chat, trip_messages):
    widget = chat.open(messages=trip_messages, height="auto")
    widget.clear_sent()
    field(widget, "payload.city").locator("input").fill("Oslo")
    field(widget, "payload.email").locator("input").fill("a@b.co")
    field(widget, "payload.guest.name").locator("input").fill("Ann")
    field(widget, "payload.guest.name").locator("input").press("Enter")
    chat.frames()
    assert [m["payload"]["guest"] for m in widget.sent()] == [{"name": "Ann"}]


def test_dismiss_sends_cancelled(chat, trip_messages):
    widget = chat.open(messages=trip_messages, height="auto")
    widget.clear_sent()
    widget.locator(f"{CARD} [data-agui=interrupt-dismiss]").click()
    chat.frames()
    assert widget.sent() == [{"kind": "interrupt", "interruptId": "trip", "status": "cancelled"}]


def test_no_schema_is_continue_with_an_optional_reply(chat, artifacts_dir):
    messages = conversation(
        [{"id": "go", "reason": "confirm", "message": "Shall I go on?"}, {"id": "why", "reason": "input"}]
    )
    widget = chat.open(messages=messages, height="auto")
    cards = widget.locator(CARD)
    assert cards.count() == 2
    first, second = cards.nth(0), cards.nth(1)
    widget.message(1).screenshot(
        path=str(artifacts_dir / "interrupt-no-schema-light.png"), animations="disabled"
    )
    assert first.locator("[data-agui=interrupt-submit]").inner_text() == "Continue"
    assert first.locator(".agui-interrupt-title").inner_text() == "Confirm"  # the reason, as words
    widget.clear_sent()
    first.locator("[data-agui=interrupt-submit]").click()
    second.locator("[data-agui=interrupt-reply]").fill("Because.")
    second.locator("[data-agui=interrupt-submit]").click()
    chat.frames()
    assert widget.sent() == [
        {"kind": "interrupt", "interruptId": "go", "status": "resolved"},
        {"kind": "interrupt", "interruptId": "why", "status": "resolved", "payload": "Because."},
    ]
    assert widget.locator("[data-agui=status]").inner_text() == "Waiting for your answer"


def test_a_scalar_schema_is_one_field(chat):
    messages = conversation(
        [
            {
                "id": "n",
                "reason": "input",
                "responseSchema": {"type": "integer", "title": "How many?", "minimum": 1},
            }
        ]
    )
    widget = chat.open(messages=messages, height="auto")
    widget.clear_sent()
    box = field(widget, "payload").locator("input")
    assert field(widget, "payload").locator("label").inner_text() == "How many?*"
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    assert error_of(widget, "payload") == "is required"
    box.fill("0")
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    assert error_of(widget, "payload") == "must be at least 1"
    box.fill("3")
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    assert widget.sent() == [{"kind": "interrupt", "interruptId": "n", "status": "resolved", "payload": 3}]


def test_the_countdown_runs_and_an_expired_card_can_only_be_dismissed(chat, artifacts_dir):
    messages = conversation(
        [
            {
                "id": "hold",
                "reason": "policy_hold",
                "message": "Confirm within seconds.",
                "expiresAt": soon(2.2),
                "responseSchema": {"type": "boolean", "title": "Confirm"},
            }
        ]
    )
    widget = chat.open(messages=messages, height="auto")
    card = widget.locator(CARD)
    countdown = card.locator("[data-agui=interrupt-countdown]")
    assert countdown.inner_text() in ("expires in 0:02", "expires in 0:03")
    assert countdown.get_attribute("data-soon") == "true"
    chat.page.wait_for_function(
        "() => document.querySelector('[data-part-type=data-interrupt]').dataset.status === 'expired'",
        timeout=5000,
    )
    assert card.locator("[data-agui=interrupt-state]").inner_text() == "Expired"
    assert countdown.inner_text().startswith("expired ")
    assert not card.locator("[data-agui=interrupt-submit]").is_visible()
    assert (
        card.locator("[data-agui=interrupt-note]").inner_text()
        == "This request has expired: dismiss it to continue."
    )
    assert card.locator("input").is_disabled()
    card.screenshot(path=str(artifacts_dir / "interrupt-expired-light.png"), animations="disabled")
    widget.clear_sent()
    card.locator("[data-agui=interrupt-dismiss]").click()
    assert widget.sent() == [{"kind": "interrupt", "interruptId": "hold", "status": "cancelled"}]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_answered_and_dismissed_cards_say_what_happened(open_chat, artifacts_dir, trip_messages, theme):
    chat = open_chat(theme)
    open_part = trip_messages[1]["parts"][-1]
    answered = {
        **open_part,
        "data": {
            **open_part["data"],
            "status": "resolved",
            "payload": {"city": "Oslo", "nights": 2, "extras": ["parking", "spa"]},
        },
    }
    dismissed = {
        **open_part,
        "id": "other",
        "data": {**open_part["data"], "status": "cancelled", "cancelledBy": "new-message"},
    }
    messages = [
        trip_messages[0],
        {**trip_messages[1], "parts": [*trip_messages[1]["parts"][:-1], answered, dismissed]},
    ]
    widget = chat.open(messages=messages, height="auto")
    first, second = widget.locator(CARD).nth(0), widget.locator(CARD).nth(1)
    assert first.locator("[data-agui=interrupt-state]").inner_text() == "Answered"
    assert not first.locator("[data-agui=interrupt-form]").is_visible()
    assert not first.locator("[data-agui=interrupt-submit]").is_visible()
    rows = first.locator("[data-agui=interrupt-payload] dt").all_inner_texts()
    assert rows == ["City", "Nights", "Extras"]  # the schema's titles
    assert first.locator("[data-agui=interrupt-payload] dd").all_inner_texts() == [
        "Oslo",
        "2",
        "parking, spa",
    ]
    assert second.locator("[data-agui=interrupt-state]").inner_text() == "Dismissed"
    assert (
        second.locator("[data-agui=interrupt-answer]").inner_text()
        == "Dismissed: a new message was sent before this was answered."
    )
    assert widget.locator("[data-agui=status]").inner_text() not in (
        "Waiting for your approval",
        "Waiting for your answer",
    )
    widget.message(1).screenshot(
        path=str(artifacts_dir / f"interrupt-answered-{theme}.png"), animations="disabled"
    )


def test_a_replay_shows_the_card_without_controls(chat, trip_messages):
    widget = chat.open(messages=trip_messages, height="auto", replay_only=True)
    card = widget.locator(CARD)
    assert card.locator("[data-agui=interrupt-message]").is_visible()
    assert not card.locator("[data-agui=interrupt-submit]").is_visible()


# ---------------------------------------------------------------------------------------------- approval card

SIGNATURE = "hmac-sha512:" + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" * 2


@pytest.fixture(scope="module")
def approval_messages() -> list[dict[str, Any]]:
    metadata = {
        "descriptor": {
            "action": "book",
            "hotel": "Grand",
            "nights": 2,
            "charge": "EUR 240 to the card ending 4242",
        },
        "isAutomatic": True,
        "signature": SIGNATURE,
    }
    interrupt = {
        "id": "ap",
        "reason": "tool_call",
        "toolCallId": "c1",
        "message": "Book the Grand for 2 nights?",
        "metadata": metadata,
    }
    return conversation([interrupt], tool_call="c1")


def test_the_approval_card_shows_descriptor_automatic_and_signature(chat, approval_messages):
    widget = chat.open(messages=approval_messages, height="auto")
    card = widget.locator("[data-part-type=tool-book_hotel]")
    assert card.get_attribute("data-tool-state") == "approval-requested"
    assert card.locator(".agui-approval-text").inner_text() == "Approval needed: Book the Grand for 2 nights?"
    details = card.locator("[data-agui=approval-details]")
    assert details.locator("dt").all_inner_texts() == ["Descriptor", "Automatic", "Signature"]
    descriptor, automatic, signature = details.locator("dd").all()
    assert automatic.inner_text() == "Yes"  # (the AI SDK keeps isAutomatic only when true)
    # Long values are cut, with the whole text one click away.
    assert signature.locator(".agui-details-value").inner_text().endswith("…")
    assert len(signature.locator(".agui-details-value").inner_text()) == 80
    signature.locator("[data-agui=details-more]").click()
    assert signature.locator(".agui-details-value").inner_text() == SIGNATURE
    assert signature.locator("[data-agui=details-more]").get_attribute("aria-expanded") == "true"
    assert (
        descriptor.locator(".agui-details-value")
        .inner_text()
        .startswith('{ "action": "book", "hotel": "Grand",')
    )


def test_an_answered_approval_keeps_the_reason_it_was_asked(chat, approval_messages):
    parts = approval_messages[1]["parts"]
    index = next(i for i, p in enumerate(parts) if p["type"] == "tool-book_hotel")
    answered = {
        **parts[index],
        "state": "approval-responded",
        "approval": {**parts[index]["approval"], "approved": True},
    }
    messages = [
        approval_messages[0],
        {**approval_messages[1], "parts": [*parts[:index], answered, *parts[index + 1 :]]},
    ]
    widget = chat.open(messages=messages, height="auto")
    card = widget.locator("[data-part-type=tool-book_hotel]")
    card.locator("summary").click()
    details = card.locator("[data-agui=approval-details]")
    assert details.locator("dt").all_inner_texts() == ["Asked", "Descriptor", "Automatic", "Signature"]
    assert details.locator("dd").first.inner_text() == "Book the Grand for 2 nights?"


# ---------------------------------------------------------------------------------------------- screenshots


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshots(open_chat, artifacts_dir, trip_messages, approval_messages, theme):
    chat = open_chat(theme, width=820, height=1800)
    widget = chat.open(messages=trip_messages, height="auto")
    card = widget.locator(CARD)
    field(widget, "payload.city").locator("input").fill("O")
    field(widget, "payload.budget").locator("input").fill("10.25")
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    card.screenshot(path=str(artifacts_dir / f"interrupt-form-{theme}.png"), animations="disabled")
    other = open_chat(theme, width=820, height=900)
    approval = other.open(messages=approval_messages, height="auto")
    tool = approval.locator("[data-part-type=tool-book_hotel]")
    tool.screenshot(path=str(artifacts_dir / f"interrupt-approval-{theme}.png"), animations="disabled")


def test_screenshot_at_360_px(open_chat, artifacts_dir, trip_messages, approval_messages):
    chat = open_chat("light", width=400, height=2200)
    widget = chat.open(messages=trip_messages, height="auto", width="360px")
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    card = widget.locator(CARD)
    overflow = card.evaluate("(e) => e.scrollWidth - e.clientWidth")
    assert overflow <= 0
    card.screenshot(path=str(artifacts_dir / "interrupt-form-360.png"), animations="disabled")
    other = open_chat("light", width=400, height=1200)
    approval = other.open(messages=approval_messages, height="auto", width="360px")
    tool = approval.locator("[data-part-type=tool-book_hotel]")
    assert tool.evaluate("(e) => e.scrollWidth - e.clientWidth") <= 0
    tool.screenshot(path=str(artifacts_dir / "interrupt-approval-360.png"), animations="disabled")


def test_a_refused_answer_gives_the_card_back(chat):
    """The kernel refuses an answer by sending the card's part again (widget/_chat.py): the buttons return and
    what was typed stays."""
    messages = conversation(
        [{"id": "n", "reason": "input", "responseSchema": {"type": "string", "title": "Name"}}]
    )
    widget = chat.open(messages=messages, height="auto")
    box = field(widget, "payload").locator("input")
    box.fill("Ann")
    submit = widget.locator(f"{CARD} [data-agui=interrupt-submit]")
    submit.click()
    assert submit.is_disabled() and box.is_disabled()
    part = messages[1]["parts"][-1]
    widget.deliver({"kind": "patch", "seq": 1, "ops": [["p", 1, len(messages[1]["parts"]) - 1, part]]})
    assert not submit.is_disabled() and not box.is_disabled()
    assert box.input_value() == "Ann"


def test_hostile_schema_text_stays_text(chat):
    """Every string of the interrupt and its schema is agent content: shown as text, never markup."""
    from tests.browser.test_chat_xss import AUDIT, HTML_PAYLOADS

    hostile = HTML_PAYLOADS[:12]
    properties = {
        f'p{i}" onfocus="window.__pwned=1': {
            "type": "string",
            "title": text,
            "description": text,
            "default": text,
            "examples": [text],
        }
        for i, text in enumerate(hostile[:4])
    }
    properties["choice"] = {"enum": hostile[4:9], "title": hostile[9]}
    properties["many"] = {"type": "array", "items": {"enum": hostile[:6]}, "title": hostile[10]}
    properties["nested"] = {
        "type": "object",
        "title": hostile[11],
        "properties": {"x": {"type": "boolean", "title": hostile[0]}},
    }
    interrupt = {
        "id": hostile[1],
        "reason": hostile[2],
        "message": hostile[3],
        "responseSchema": {"type": "object", "title": hostile[5], "properties": properties},
        "expiresAt": hostile[6],
    }
    widget = chat.open(messages=conversation([interrupt]), height="auto")
    card = widget.locator(CARD)
    assert card.locator("[data-agui=interrupt-message]").inner_text() == hostile[3]
    for element in card.locator("input, select, label, button").all():
        element.hover(force=True, timeout=2000) if element.is_visible() else None
        if element.is_visible() and element.is_enabled():
            element.focus()
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    chat.frames()
    assert chat.evaluate("() => window.__pwned") is None
    # The form's own inputs, ids (label and description links) and radio names are the widget's, never the agent's.
    ours = re.compile(
        r"^(input (text|checkbox|radio)|(input|select|textarea|div)\.agui-field[\w-]* has (id|name))$"
    )
    assert [p for p in widget.root.evaluate(AUDIT) if not ours.match(p)] == []
    ids = card.evaluate(
        "(c) => [...c.querySelectorAll('[id], [name]')].map((e) => e.id || e.getAttribute('name'))"
    )
    assert ids and all(re.fullmatch(r"agui-form-\d+-\d+(-(input|error|help))?", i) for i in ids), ids
    assert chat.events.errors == [] and chat.events.dialogs == [] and chat.events.external_requests == []
