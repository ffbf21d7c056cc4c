"""Interrupt forms drawn from the schemas Python agents send (pydantic ``model_json_schema()``, LangGraph's human
response): each schema feature gets its field, a wrong answer shows the kernel's words next to the field and sends
nothing, and a right one sends a payload the kernel accepts (``payload_problems`` empty), exactly as typed."""

from __future__ import annotations

import re
from typing import Any

import pytest

from agui_notebook.agui._interrupts import payload_problems
from tests.agui.schema_cases import HAND_WRITTEN, Booking, HumanResponse, Strict, TreeNode, Trip
from tests.browser.test_interrupt_forms import CARD, conversation, error_of, field

pytestmark = pytest.mark.browser


def form_for(chat: Any, schema: dict[str, Any]) -> Any:
    messages = conversation(
        [{"id": "q", "reason": "input", "message": "A few details.", "responseSchema": schema}]
    )
    widget = chat.open(messages=messages, height="auto")
    widget.clear_sent()
    return widget


def submit(widget: Any) -> list[dict[str, Any]]:
    widget.locator(f"{CARD} [data-agui=interrupt-submit]").click()
    widget.chat.frames()
    return widget.sent()


def sent_payload(widget: Any) -> Any:
    sent = submit(widget)
    assert len(sent) == 1, sent
    assert sent[0]["status"] == "resolved"
    return sent[0]["payload"]


def test_refs_to_enums_and_nested_models_are_real_fields(chat):
    schema = Trip.model_json_schema()
    widget = form_for(chat, schema)
    # The enum and the model behind $ref are radios and a fieldset, not JSON boxes.
    assert field(widget, "payload.mode").locator("input[type=radio]").count() == 2
    assert field(widget, "payload.guest").locator("legend").first.inner_text() == "Guest*"
    assert widget.locator(f"{CARD} textarea").count() == 0
    field(widget, "payload.guest.name").locator("input").fill("x")
    assert submit(widget) == []
    assert error_of(widget, "payload.mode") == "is required"
    assert error_of(widget, "payload.guest.name") == "must be at least 2 characters"
    assert error_of(widget, "payload.nights") == "is required"
    field(widget, "payload.mode").locator("label", has_text="plane").click()
    field(widget, "payload.guest.name").locator("input").fill("Ann")
    field(widget, "payload.nights").locator("input").fill("3")
    payload = sent_payload(widget)
    # Optional[int] left empty is left out (its default is None).
    assert payload == {"mode": "plane", "guest": {"name": "Ann"}, "nights": 3}
    assert payload_problems(schema, payload) == []


def test_dates_times_lists_maps_unions_and_tuples(chat):
    schema = Booking.model_json_schema()
    widget = form_for(chat, schema)
    kinds = {
        path: field(widget, path).locator("input").first.get_attribute("type")
        for path in [
            "payload.when",
            "payload.start",
            "payload.at",
            "payload.email",
            "payload.site",
            "payload.price",
        ]
    }
    assert kinds == {
        "payload.when": "date",
        "payload.start": "datetime-local",
        "payload.at": "time",
        "payload.email": "email",
        "payload.site": "url",
        "payload.price": "number",
    }
    assert field(widget, "payload.price").locator("input").get_attribute("step") == "0.01"
    # The discriminated union: a picker labelled by the discriminator's constants, the picked branch's fields.
    pet = field(widget, "payload.pet")
    assert pet.locator("[data-agui=field-branch-picker] label").all_inner_texts() == ["Cat", "Dog"]
    pet.locator("[data-agui=field-branch-picker] label", has_text="Dog").click()
    assert pet.locator("[data-branch='0']").is_hidden() and pet.locator("[data-branch='1']").is_visible()
    pet.locator("[data-branch='1'] input[type=checkbox]").uncheck()
    # A tuple of two numbers: two fixed rows, no add or remove.
    coords = field(widget, "payload.coords")
    assert coords.locator("input[type=number]").count() == 2
    assert coords.locator("[data-agui=field-add]").is_hidden()
    # A list of models: rows of sub-forms.
    guests = field(widget, "payload.guests")
    guests.locator("[data-agui=field-add]").click()
    guests.locator("[data-agui=field-add]").click()
    field(widget, "payload.guests[0].name").locator("input").fill("A")
    field(widget, "payload.guests[1].name").locator("input").fill("Bo")
    # A dict[str, int]: name and value rows.
    tags = field(widget, "payload.tags")
    tags.locator("[data-agui=field-add]").click()
    tags.locator("[data-agui=field-add]").click()
    keys = tags.locator("[data-agui=field-key]")
    keys.nth(0).fill("vip")
    keys.nth(1).fill("vip")
    values = tags.locator("input[type=number]")
    values.nth(0).fill("1")
    values.nth(1).fill("2")
    field(widget, "payload.when").locator("input").fill("2026-05-01")
    field(widget, "payload.start").locator("input").fill("2026-05-01T10:30:00")
    field(widget, "payload.at").locator("input").fill("09:15")
    assert submit(widget) == []
    assert error_of(widget, "payload.guests[0].name") == "must be at least 2 characters"
    # (Both rows are payload.tags.vip: the second one says why.)
    assert tags.locator("[data-agui=field-error]:visible").all_inner_texts() == ["repeats the name vip"]
    assert tags.locator("[data-agui=field]").nth(1).locator("[data-agui=field-error]").is_visible()
    field(widget, "payload.guests[0].name").locator("input").fill("Ann")
    keys.nth(1).fill("stars")
    # Removing a row renumbers the ones after it.
    guests.locator("[data-agui=field-remove]").first.click()
    assert field(widget, "payload.guests[0].name").locator("input").input_value() == "Bo"
    coords.locator("input").nth(0).fill("52.37")
    coords.locator("input").nth(1).fill("4.9")
    field(widget, "payload.price").locator("input").fill("12.5")
    payload = sent_payload(widget)
    start = payload.pop("start")
    assert re.fullmatch(r"2026-05-01T10:30:00[+-]\d\d:\d\d", start)
    assert payload == {
        "when": "2026-05-01",
        "at": "09:15:00",
        "guests": [{"name": "Bo"}],
        "tags": {"vip": 1, "stars": 2},
        "pet": {"kind": "dog", "good": False},
        "price": 12.5,
        "coords": [52.37, 4.9],
    }
    assert payload_problems(schema, {**payload, "start": start}) == []


def test_langgraph_human_response_picks_a_shape_for_args(chat):
    schema = HumanResponse.model_json_schema()
    widget = form_for(chat, schema)
    kind = field(widget, "payload.type")
    assert kind.locator("label").all_inner_texts() == ["accept", "ignore", "response", "edit"]
    args = field(widget, "payload.args")
    assert args.locator("[data-agui=field-branch-picker] label").all_inner_texts() == [
        "Text",
        "Action Request",
        "None",
    ]
    kind.locator("label", has_text="edit").click()
    args.locator("[data-agui=field-branch-picker] label", has_text="Action Request").click()
    assert submit(widget) == []
    assert error_of(widget, "payload.args.action") == "is required"
    field(widget, "payload.args.action").locator("input").fill("send_email")
    rows = field(widget, "payload.args.args")
    rows.locator("[data-agui=field-add]").click()
    rows.locator("[data-agui=field-key]").fill("to")
    rows.locator("textarea").fill('"ann@example.com"')
    payload = sent_payload(widget)
    assert payload == {"type": "edit", "args": {"action": "send_email", "args": {"to": "ann@example.com"}}}
    assert payload_problems(schema, payload) == []


def test_none_is_a_branch_and_sends_null(chat):
    schema = HumanResponse.model_json_schema()
    widget = form_for(chat, schema)
    field(widget, "payload.type").locator("label", has_text="accept").click()
    field(widget, "payload.args").locator("[data-agui=field-branch-picker] label", has_text="None").click()
    assert sent_payload(widget) == {"type": "accept", "args": None}


def test_literals_sets_patterns_and_forbidden_extras(chat):
    schema = Strict.model_json_schema()
    widget = form_for(chat, schema)
    level = field(widget, "payload.level")
    assert level.locator("label").all_inner_texts() == ["1", "2", "3"]
    assert level.locator("input").first.is_checked()  # the default
    flags = field(widget, "payload.flags")
    assert flags.locator("input[type=checkbox]").count() == 3
    field(widget, "payload.code").locator("input").fill("abc-1")
    assert submit(widget) == []
    assert error_of(widget, "payload.code") == "must match the pattern ^[A-Z]{3}-[0-9]{2}$"
    field(widget, "payload.code").locator("input").fill("ABC-12")
    flags.locator("label", has_text="c").click()
    payload = sent_payload(widget)
    assert payload == {"code": "ABC-12", "level": 1, "flags": ["c"]}
    assert payload_problems(schema, payload) == []


def test_a_model_that_contains_itself_is_a_json_field_below_the_first_level(chat):
    schema = TreeNode.model_json_schema()
    widget = form_for(chat, schema)
    field(widget, "payload.label").locator("input").fill("root")
    children = field(widget, "payload.children")
    children.locator("[data-agui=field-add]").click()
    child = field(widget, "payload.children[0]")
    assert child.locator("textarea").count() == 1  # the cycle is drawn as JSON
    child.locator("textarea").fill('{"children": []}')
    assert submit(widget) == []
    assert error_of(widget, "payload.children[0]") == "is required"
    child.locator("textarea").fill('{"label": "leaf"}')
    assert sent_payload(widget) == {"label": "root", "children": [{"label": "leaf"}]}


def test_all_of_merges_and_const_is_shown_and_sent(chat):
    schema = {
        "allOf": [
            HAND_WRITTEN["allOf"]["allOf"][0],
            HAND_WRITTEN["allOf"]["allOf"][1],
            {"properties": {"version": {"const": "v2", "title": "Version"}}},
        ]
    }
    widget = form_for(chat, schema)
    assert field(widget, "payload.name").locator("label").inner_text() == "Name*"
    assert field(widget, "payload.age").locator("label").inner_text() == "Age*"
    field(widget, "payload.name").locator("input").fill("Ann")
    field(widget, "payload.age").locator("input").fill("17")
    assert submit(widget) == []
    assert error_of(widget, "payload.age") == "must be at least 18"
    field(widget, "payload.age").locator("input").fill("30")
    assert sent_payload(widget) == {"version": "v2", "name": "Ann", "age": 30}


def test_examples_are_placeholders(chat):
    schema = {
        "type": "object",
        "properties": {
            "city": {"type": "string", "examples": ["Oslo"]},
            "n": {"type": "integer", "examples": [3]},
        },
    }
    widget = form_for(chat, schema)
    assert field(widget, "payload.city").locator("input").get_attribute("placeholder") == "Oslo"
    assert field(widget, "payload.n").locator("input").get_attribute("placeholder") == "3"


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_schema_form_screenshot(open_chat, artifacts_dir, theme):
    chat = open_chat(theme, width=760, height=1400)
    widget = form_for(chat, Booking.model_json_schema())
    field(widget, "payload.guests").locator("[data-agui=field-add]").click()
    field(widget, "payload.guests[0].name").locator("input").fill("Ann")
    tags = field(widget, "payload.tags")
    tags.locator("[data-agui=field-add]").click()
    tags.locator("[data-agui=field-key]").fill("vip")
    tags.locator("input[type=number]").fill("1")
    field(widget, "payload.pet").locator("[data-agui=field-branch-picker] label", has_text="Dog").click()
    submit(widget)
    widget.locator(CARD).screenshot(
        path=str(artifacts_dir / f"schema-form-{theme}.png"), animations="disabled"
    )


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_axe_finds_no_serious_violation_in_a_schema_form_or_math(open_chat, theme):
    from tests.browser.test_accessibility import AXE, RUN_AXE
    from tests.browser.test_chat_math import SHOWCASE

    if not AXE.exists():
        pytest.skip("axe-core is not installed (npm install in js/)")
    chat = open_chat(theme, width=900, height=2400)
    messages = conversation(
        [
            {
                "id": "q",
                "reason": "input",
                "message": "A few details.",
                "responseSchema": Booking.model_json_schema(),
            }
        ]
    )
    messages.append({"id": "m", "role": "assistant", "parts": [{"type": "text", "text": SHOWCASE}]})
    widget = chat.open(messages=messages, height="auto")
    field(widget, "payload.guests").locator("[data-agui=field-add]").click()
    field(widget, "payload.tags").locator("[data-agui=field-add]").click()
    submit(widget)
    violations = widget.root.evaluate(RUN_AXE)
    serious = [v for v in violations if v["impact"] in ("critical", "serious")]
    assert serious == [], serious
