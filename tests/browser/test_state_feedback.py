"""The state panel, the 👍/👎 feedback and the agent's suggestion chips, in Chromium (screenshots in tests/artifacts)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _answer(message_id: str = "a1", *parts: dict[str, Any], metadata: Any = None) -> dict[str, Any]:
    message: dict[str, Any] = {
        "id": message_id,
        "role": "assistant",
        "parts": list(parts) or [{"type": "text", "text": "Paris is sunny, 21 °C.", "state": "done"}],
    }
    if metadata is not None:
        message["metadata"] = metadata
    return message


def _user(message_id: str = "u1", text: str = "Weather in Paris?") -> dict[str, Any]:
    return {"id": message_id, "role": "user", "parts": [{"type": "text", "text": text}]}


def _rows(widget: Any) -> list[dict[str, Any]]:
    return widget.root.evaluate(
        "(root) => [...root.querySelectorAll('[data-agui=state-row]')].map((row) => ({path: row.dataset.path,"
        " change: row.dataset.change ?? null, within: row.dataset.changedWithin === 'true',"
        " text: row.textContent, flash: row.classList.contains('agui-state-flash')}))"
    )


PLAN = {
    "plan": {
        "title": 'Trip "to" <Paris>\n',
        "steps": [{"done": True, "name": "book"}, {"done": False, "name": "pack"}],
    },
    "budget": 1200,
    "notes": None,
}


# ---------------------------------------------------------------------------------------------- state panel


def test_the_state_panel_shows_a_collapsible_json_tree(chat: Any) -> None:
    widget = chat.open(messages=[_user(), _answer()])
    panel = widget.locator("[data-agui=state-panel]")
    assert panel.is_hidden()  # no state, no panel
    widget.set("state", PLAN)
    assert panel.is_visible()
    toggle = widget.locator("[data-agui=state-toggle]")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert widget.locator("[data-agui=state-summary]").text_content() == "3 keys"
    assert widget.locator("[data-agui=state-tree]").is_hidden()
    toggle.click()
    chat.frames()
    assert toggle.get_attribute("aria-expanded") == "true"
    rows = _rows(widget)
    assert [r["path"] for r in rows] == ["/plan", "/budget", "/notes"]  # nested values start collapsed
    assert [r["text"] for r in rows] == ["plan:{2 keys}", "budget:1200", "notes:null"]
    widget.locator("[data-agui=state-expand][data-path='/plan']").click()
    chat.frames()
    rows = _rows(widget)
    assert [r["path"] for r in rows] == ["/plan", "/plan/title", "/plan/steps", "/budget", "/notes"]
    focused = "() => document.activeElement?.dataset.agui + ' ' + document.activeElement?.dataset.path"
    assert chat.evaluate(focused) == "state-expand /plan"  # the rebuilt tree keeps the focus
    widget.set("state", {**PLAN, "budget": 1300})  # an update rebuilds it too
    assert chat.evaluate(focused) == "state-expand /plan"
    # Strings are shown JSON-escaped, as text.
    assert rows[1]["text"] == 'title:"Trip \\"to\\" <Paris>\\n"'
    assert widget.locator("[data-agui=state-tree] script, [data-agui=state-tree] Paris").count() == 0
    widget.locator("[data-agui=state-expand][data-path='/plan/steps']").click()
    chat.frames()
    assert "/plan/steps/1" in [r["path"] for r in _rows(widget)]
    # Collapsing hides the children; the panel closes again.
    widget.locator("[data-agui=state-expand][data-path='/plan']").click()
    chat.frames()
    assert [r["path"] for r in _rows(widget)] == ["/plan", "/budget", "/notes"]
    toggle.click()
    chat.frames()
    assert widget.locator("[data-agui=state-tree]").is_hidden()
    widget.set("state", None)
    assert panel.is_hidden()


def test_a_delta_marks_the_paths_it_changed(chat: Any) -> None:
    widget = chat.open(messages=[_user(), _answer()], state=PLAN)
    widget.locator("[data-agui=state-toggle]").click()
    chat.frames()
    after = {
        "plan": {
            "title": PLAN["plan"]["title"],
            "steps": [{"done": True, "name": "book"}, {"done": True, "name": "pack"}],
        },
        "budget": 1500,
        "currency": "EUR",
    }
    widget.set("state", after)
    widget.set(
        "state_changes",
        {
            "seq": 2,
            "source": "delta",
            "updates": 1,
            "truncated": False,
            "changes": [
                {"op": "replace", "path": "/plan/steps/1/done"},
                {"op": "replace", "path": "/budget"},
                {"op": "remove", "path": "/notes"},
                {"op": "add", "path": "/currency"},
            ],
        },
    )
    rows = {r["path"]: r for r in _rows(widget)}
    # The way to a nested change opens by itself, so its marker is in sight.
    assert rows["/plan/steps/1/done"]["change"] == "replace" and rows["/plan/steps/1/done"]["flash"]
    assert rows["/budget"]["change"] == "replace"
    assert rows["/currency"]["change"] == "add"
    assert rows["/notes"]["change"] == "remove" and rows["/notes"]["text"] == "notes:removed"
    assert rows["/plan/title"]["change"] is None and not rows["/plan/title"]["flash"]
    assert widget.locator("[data-agui=state-summary]").text_content() == "3 keys · 4 changed"
    assert widget.locator("[data-agui=state-panel]").get_attribute("data-changed") == "true"
    # The flash is short-lived; the marker stays until the next update.
    chat.page.wait_for_timeout(1800)
    rows = {r["path"]: r for r in _rows(widget)}
    assert not rows["/budget"]["flash"] and rows["/budget"]["change"] == "replace"
    # Collapsing a row that holds a change leaves a dot on it.
    widget.locator("[data-agui=state-expand][data-path='/plan']").click()
    chat.frames()
    rows = {r["path"]: r for r in _rows(widget)}
    assert rows["/plan"]["within"] is True
    assert "/plan/steps" not in rows


def test_a_snapshot_that_replaced_everything_is_said_once(chat: Any) -> None:
    widget = chat.open(messages=[], state={"a": 1})
    widget.locator("[data-agui=state-toggle]").click()
    widget.set(
        "state_changes", {"seq": 5, "source": "snapshot", "updates": 1, "truncated": True, "changes": []}
    )
    assert "whole state changed" in widget.locator(".agui-state-note").text_content()
    assert widget.locator("[data-agui=state-summary]").text_content() == "1 key · many changed"


def test_long_strings_are_cut_and_expand(chat: Any) -> None:
    widget = chat.open(messages=[], state={"text": "x" * 5000})
    widget.locator("[data-agui=state-toggle]").click()
    chat.frames()
    value = widget.locator("[data-agui=state-row][data-path='/text'] [data-agui=state-value]")
    assert len(value.text_content()) < 200
    widget.locator("[data-agui=state-string]").click()
    chat.frames()
    assert (
        widget.locator("[data-agui=state-row][data-path='/text'] [data-agui=state-value]")
        .text_content()
        .startswith('"' + "x" * 5000 + '"')
    )


def test_a_state_of_ten_thousand_keys_stays_fast(chat: Any) -> None:
    widget = chat.open(messages=[_user(), _answer()])
    # Built in the page: what is measured is the widget, not moving 10,000 keys through the test driver.
    chat.evaluate(
        "(m) => { const big = {}; for (let i = 0; i < 10000; i += 1) big['key' + String(i).padStart(5, '0')] ="
        " {value: i, tags: ['a', 'b']}; window.__big = big; window.agui.set(m, 'state', big); }",
        widget.model,
    )
    chat.frames()
    assert widget.locator("[data-agui=state-summary]").text_content() == "10000 keys"
    opened = chat.evaluate(
        "() => { const t = performance.now();"
        " document.querySelector('[data-agui=state-toggle]').click(); return performance.now() - t; }"
    )
    chat.frames()
    assert widget.locator("[data-agui=state-row]").count() == 200
    assert widget.locator("[data-agui=state-more]").text_content() == "Show 200 more (of 10000)"
    # A stream of updates to the big state (each one deserialized as the comm would): only what shows is rebuilt.
    update = (
        "([m, n]) => { const t = performance.now(); window.__big.key00003 = {value: -n, tags: []};"
        " window.agui.set(m, 'state', window.__big); window.agui.set(m, 'state_changes', {seq: 10 + n,"
        " source: 'delta', updates: 1, truncated: false, changes: [{op: 'replace', path: '/key00003/value'}]});"
        " return performance.now() - t; }"
    )
    times, renders = [], []
    for n in range(10):
        times.append(chat.evaluate(update, [widget.model, n]))
        renders.append(int(widget.locator("[data-agui=state-tree]").get_attribute("data-render-ms")))
    chat.frames()
    rows = {r["path"]: r for r in _rows(widget)}
    assert rows["/key00003/value"]["change"] == "replace"  # opened by itself to show the change
    assert rows["/key00003/value"]["text"] == "value:-9"
    widget.locator("[data-agui=state-more]").click()
    chat.frames()
    assert (
        widget.locator("[data-agui=state-row]").count() == 400 + 2
    )  # the open key00003 shows its two children
    print(f"10,000 keys: open {opened:.0f} ms; updates {min(times):.0f}-{max(times):.0f} ms with the harness's"
          f" JSON copy, of which the tree {min(renders)}-{max(renders)} ms")  # fmt: skip
    # Only the 200 rows shown are built (the counts above say so); the times only catch a pathological build
    # (a tree of all 10,000 keys), with room for a busy 2-core machine: the numbers live in the printed line.
    assert opened < 500 and max(renders) < 250 and max(times) < 2000


# ---------------------------------------------------------------------------------------------- feedback


def test_thumbs_toggle_and_send_feedback(chat: Any) -> None:
    widget = chat.open(messages=[_user(), _answer()])
    up = widget.message(1).locator("[data-agui=feedback-up]")
    down = widget.message(1).locator("[data-agui=feedback-down]")
    assert widget.message(0).locator("[data-agui=feedback-up]").is_hidden()  # only answers are rated
    assert up.get_attribute("aria-pressed") == "false"
    up.click()
    assert widget.sent()[-1] == {"kind": "feedback", "messageId": "a1", "rating": "up"}
    assert up.get_attribute("aria-pressed") == "true"
    # The kernel keeps it in the metadata and sends it back.
    rated = {"agui-notebook": {"feedback": {"rating": "up", "at": "2026-12-01T12:00:00.000Z"}}}
    widget.set("messages", [_user(), _answer(metadata=rated)])
    assert up.get_attribute("aria-pressed") == "true" and down.get_attribute("aria-pressed") == "false"
    up.click()  # again: taken back
    assert widget.sent()[-1] == {"kind": "feedback", "messageId": "a1", "rating": None}
    assert up.get_attribute("aria-pressed") == "false"


def test_a_thumbs_down_asks_for_an_optional_comment(chat: Any) -> None:
    widget = chat.open(messages=[_user(), _answer()])
    widget.message(1).locator("[data-agui=feedback-down]").click()
    assert widget.sent()[-1] == {"kind": "feedback", "messageId": "a1", "rating": "down"}
    comment = widget.message(1).locator("[data-agui=feedback-comment]")
    assert comment.is_visible()
    assert comment.evaluate("(e) => document.activeElement === e")
    comment.fill("It ignored <b>the</b> city")
    comment.press("Enter")
    assert widget.sent()[-1] == {
        "kind": "feedback",
        "messageId": "a1",
        "rating": "down",
        "comment": "It ignored <b>the</b> city",
    }
    assert widget.message(1).locator("[data-agui=feedback-form]").is_hidden()
    rated = {
        "agui-notebook": {"feedback": {"rating": "down", "comment": "It ignored <b>the</b> city", "at": "x"}}
    }
    widget.set("messages", [_user(), _answer(metadata=rated)])
    down = widget.message(1).locator("[data-agui=feedback-down]")
    assert down.get_attribute("aria-pressed") == "true"
    assert down.get_attribute("title") == "Bad answer: “It ignored <b>the</b> city”"
    # Skip closes the form without sending anything more.
    widget.message(1).locator("[data-agui=feedback-down]").click()  # taken back
    widget.message(1).locator("[data-agui=feedback-down]").click()  # down again: the form opens
    count = len(widget.sent())
    widget.message(1).locator("[data-agui=feedback-close]").click()
    assert len(widget.sent()) == count
    assert widget.message(1).locator("[data-agui=feedback-form]").is_hidden()


def test_no_feedback_on_the_answer_being_written(chat: Any) -> None:
    widget = chat.open(messages=[_user(), _answer()], status="streaming")
    assert widget.message(1).locator("[data-agui=feedback]").is_hidden()
    widget.set("status", "ready")
    widget.message(1).hover()
    assert widget.message(1).locator("[data-agui=feedback-up]").is_visible()


# ---------------------------------------------------------------------------------------------- suggestions


SUGGESTIONS = {
    "type": "data-suggestions",
    "data": [
        "What about tomorrow?",
        {"title": "Compare with Rome", "message": "Compare the weather in Paris with Rome."},
        {"message": "Show a 5-day forecast"},
        {"title": ""},
        42,
    ],
}


def test_agent_suggestions_show_as_chips_that_send(chat: Any) -> None:
    answer = _answer("a1", {"type": "text", "text": "Sunny.", "state": "done"}, SUGGESTIONS)
    widget = chat.open(messages=[_user(), answer])
    chips = widget.message(1).locator("[data-agui=message-suggestions] [data-agui=suggestion]")
    assert chips.all_text_contents() == ["What about tomorrow?", "Compare with Rome", "Show a 5-day forecast"]
    assert widget.message(1).locator(".agui-data").count() == 0  # the part is not shown as JSON
    # The same look as the empty state's chips.
    assert chips.first.evaluate("(e) => e.classList.contains('agui-suggestion')")
    chips.nth(1).click()
    assert widget.sent()[-1] == {
        "kind": "send",
        "text": "Compare the weather in Paris with Rome.",
        "files": [],
    }
    # Once the conversation moves on, the old chips go.
    widget.set("messages", [_user(), answer, _user("u2", "Compare the weather in Paris with Rome.")])
    assert widget.message(1).locator("[data-agui=message-suggestions]").is_hidden()


def test_suggestions_read_an_object_wrapper_and_hide_while_busy(chat: Any) -> None:
    wrapped = {
        "type": "data-suggestions",
        "id": "s",
        "data": {"suggestions": [{"title": "Book it", "message": "Book the first one"}]},
    }
    widget = chat.open(messages=[_user(), _answer("a1", wrapped)])
    chips = widget.message(0 + 1).locator("[data-agui=suggestion]")
    assert chips.all_text_contents() == ["Book it"]
    widget.set("status", "submitted")
    assert chips.first.is_hidden()
    widget.set("status", "ready")
    widget.set("replay_only", True)
    assert chips.first.is_hidden()


# ---------------------------------------------------------------------------------------------- screenshots


def _showcase(chat: Any, width: str) -> Any:
    rated = {"agui-notebook": {"feedback": {"rating": "up", "at": "2026-12-01T12:00:00.000Z"}}}
    messages = [
        _user("u1", "Plan a weekend in Paris for two."),
        _answer(
            "a1",
            {
                "type": "text",
                "text": "Here is a plan: the Louvre on Saturday, Montmartre on Sunday.",
                "state": "done",
            },
            metadata=rated,
        ),
        _user("u2", "Make it cheaper."),
        _answer(
            "a2",
            {
                "type": "text",
                "text": "I moved the hotel to the 11th and dropped the river cruise.",
                "state": "done",
            },
            SUGGESTIONS,
        ),
    ]
    state = {
        "trip": {
            "city": "Paris",
            "days": ["Saturday", "Sunday"],
            "hotel": {"area": "11th", "price_eur": 140},
        },
        "budget_eur": 600,
        "notes": 'Prefers "quiet" places',
    }
    widget = chat.open(messages=messages, state=state, title="Trip planner", height="auto", width=width)
    widget.locator("[data-agui=state-toggle]").click()
    widget.set(
        "state_changes",
        {"seq": 3, "source": "delta", "updates": 1, "truncated": False,
         "changes": [{"op": "replace", "path": "/trip/hotel/price_eur"}, {"op": "replace", "path": "/budget_eur"},
                     {"op": "remove", "path": "/cruise"}]},
    )  # fmt: skip
    widget.message(3).locator("[data-agui=feedback-down]").click()
    widget.message(3).locator("[data-agui=feedback-comment]").fill("The hotel is too far from the centre")
    chat.frames()
    return widget


@pytest.mark.parametrize(("theme", "width"), [("light", 760), ("dark", 760), ("light", 360)])
def test_state_feedback_screenshot(open_chat: Any, artifacts_dir: Any, theme: str, width: int) -> None:
    chat = open_chat(theme, width=width + 60, height=1400)
    widget = _showcase(chat, f"{width}px")
    assert widget.overflowing() == []
    path = artifacts_dir / f"state-feedback-{theme}-{width}.png"
    widget.root.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000
