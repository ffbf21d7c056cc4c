"""Accessibility of everything the widget draws, checked by axe-core (a dev dependency, js/node_modules) and by
our own contrast measure: a conversation with every part kind, an approval card and an interrupt form waiting,
branch pickers, the live metrics strip, the state panel and the thread menu open, at 1400 and 360 px, in
JupyterLab's light and dark themes. No critical or serious axe violation, no text under WCAG AA contrast."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from agui_notebook.widget._metrics import RunMetrics
from tests.browser.chat_samples import conversation, every_part_kind
from tests.browser.conftest import AXE
from tests.browser.test_chat_look import texts_with_contrast

pytestmark = pytest.mark.browser

FORM = {
    "type": "object",
    "title": "Trip details",
    "required": ["city"],
    "properties": {
        "city": {"type": "string", "title": "City", "description": "Where you are going."},
        "nights": {"type": "integer", "minimum": 1, "title": "Nights", "default": 2},
        "breakfast": {"type": "boolean", "title": "Breakfast included"},
        "room": {"enum": ["single", "double"], "title": "Room"},
        "extras": {"type": "array", "title": "Extras", "items": {"enum": ["parking", "spa"]}},
    },
}


def when(**delta: float) -> str:
    return (datetime.now(UTC) + timedelta(**delta)).isoformat().replace("+00:00", "Z")


def sample() -> dict[str, Any]:
    """The traits of a widget showing every kind of thing at once."""
    messages = [*conversation()[:3], *every_part_kind(), conversation()[3]]
    messages[3] = {**messages[3], "id": "parts"}
    interrupt = {
        "type": "data-interrupt",
        "id": "trip",
        "data": {
            "interrupt": {
                "id": "trip",
                "reason": "input_required",
                "message": "Tell me about the trip.",
                "responseSchema": FORM,
                "expiresAt": when(minutes=5),
            },
            "status": "open",
        },
    }
    long_call = {
        "type": "tool-search_flights_and_hotels_for_the_whole_family",
        "toolCallId": "long",
        "title": "Searching every airline we know of",
        "state": "approval-requested",
        "input": {"from": "Paris", "to": "Lisbon", "passengers": 4},
        "approval": {"id": "ap-long", "requestReason": "Spends money"},
    }
    messages[-1] = {**messages[-1], "parts": [*messages[-1]["parts"], long_call, interrupt]}
    # Cards in their other states: denied with a reason, stopped, a dismissed and an expired interrupt.
    ended = {"type": "tool-delete_files", "toolCallId": "d1", "input": {"paths": ["/tmp"]}}
    messages.insert(
        4,
        {
            "id": "ended",
            "role": "assistant",
            "parts": [
                {
                    **ended,
                    "state": "output-denied",
                    "approval": {"id": "ap", "approved": False, "reason": "Not today"},
                },
                {
                    **ended,
                    "toolCallId": "d2",
                    "state": "output-error",
                    "errorText": "Stopped before it finished",
                    "callProviderMetadata": {"ag-ui": {"ended": "stopped"}},
                },
                {**interrupt, "id": "old", "data": {**interrupt["data"], "status": "cancelled"}},
                {
                    **interrupt,
                    "id": "late",
                    "data": {
                        "interrupt": {
                            **interrupt["data"]["interrupt"],
                            "id": "late",
                            "expiresAt": when(minutes=-5),
                        },
                        "status": "open",
                    },
                },
            ],
        },
    )
    metrics = RunMetrics()
    ns = 1_000_000_000
    metrics.add(ns, {"type": "RUN_STARTED"})
    for step in range(1, 12):
        metrics.add(
            ns + step * 40_000_000, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "word "}
        )
    metrics.add(ns + 600_000_000, {"type": "RUN_FINISHED"})
    return {
        "messages": messages,
        "title": "Weather agent",
        "branch_points": [{"at": 2, "index": 1, "count": 2}, {"at": 1, "index": 0, "count": 3}],
        "show_metrics": True,
        "message_metrics": {"a1": metrics.summary()},
        "state": {"trip": {"city": "Paris", "nights": 2}, "budget_eur": 600},
        "state_changes": {
            "seq": 1,
            "source": "delta",
            "updates": 1,
            "changes": [{"op": "replace", "path": "/budget_eur"}],
        },
        "threads": [
            {"id": "t2", "title": "Paris weather", "updated": when(minutes=-2), "turns": 5, "bytes": 12_800},
            {"id": "t1", "title": "Trip to Rome", "updated": when(days=-3), "turns": 2, "bytes": 3_000},
        ],
        "thread_id": "t2",
        "store": {"kind": "file", "path": ".agui-chats/quickstart.ipynb/3f2a.jsonl", "readOnly": False},
        "warnings": ["event 4 (TEXT_MESSAGE_STRAT): unknown event type"],
        "context_sent": [
            {"description": "sales", "kind": "DataFrame 1,200×6", "chars": 612, "cut": 0, "dynamic": False},
            {"description": "selection", "kind": "callable", "chars": None, "cut": 0, "dynamic": True},
        ],
        "height": "auto",
    }


RUN_AXE = """
async (root) => {
  if (!window.axe) {
    await new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = '/axe.min.js';
      script.onload = resolve;
      script.onerror = reject;
      document.head.append(script);
    });
  }
  const result = await window.axe.run(root, { resultTypes: ['violations'] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary.replace(/\\s+/g, ' ')}`).slice(0, 8),
  }));
}
"""


def open_everything(chat) -> Any:
    widget = chat.open(**sample())
    widget.locator("[data-agui=state-toggle]").click()
    for details in widget.locator("details").all():
        details.evaluate("(d) => { d.open = true; }")
    widget.locator("[data-agui=thread-menu]").click()
    chat.frames(3)
    return widget


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm install in js/)")
@pytest.mark.parametrize(("theme", "width"), [("light", 1400), ("dark", 1400), ("light", 360), ("dark", 360)])
def test_axe_finds_no_serious_violation(open_chat, theme, width):
    chat = open_chat(theme, width=width + 40, height=1200)
    widget = open_everything(chat)
    assert widget.locator("[data-agui=thread-panel]").is_visible()
    assert widget.locator("[data-agui=approve]:visible").count() == 2  # two calls wait for an answer
    assert widget.locator("[data-status=open] [data-agui=interrupt-form]").count() == 1
    assert widget.locator("[data-agui=metrics]:visible").count() == 1
    violations = widget.root.evaluate(RUN_AXE)
    report = "\n".join(
        f"{v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"]) for v in violations
    )
    print(report or "no violations")
    serious = [v for v in violations if v["impact"] in ("critical", "serious")]
    assert serious == [], report


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_text_of_everything_meets_wcag_aa_contrast(open_chat, theme):
    chat = open_chat(theme, width=1000, height=3000)
    widget = open_everything(chat)
    measured = texts_with_contrast(widget)
    assert len(measured) > 150
    low = sorted({(m["where"], m["text"], round(m["ratio"], 2)) for m in measured if m["ratio"] < 4.5})
    assert low == [], "\n".join(map(str, low))


def test_scrolling_code_json_and_tables_are_reachable_by_keyboard(chat):
    widget = open_everything(chat)
    regions = widget.locator("[data-agui=messages] [role=region]").evaluate_all(
        "(els) => els.map((e) => [e.tagName.toLowerCase(), e.getAttribute('aria-label'), e.tabIndex])"
    )
    labels = {label for _, label, _ in regions}
    assert {"Code (python)", "Table", "Arguments (JSON)", "Result (JSON)"} <= labels, labels
    assert all(index == 0 for _, _, index in regions)
    chat.page.keyboard.press("Escape")  # (a keyboard user: the ring shows)
    code = widget.locator("[role=region][aria-label='Code (python)']").first
    code.focus()
    ring = code.evaluate("(e) => getComputedStyle(e).outlineStyle + ' ' + getComputedStyle(e).outlineWidth")
    assert ring == "solid 2px"


def overlapping(widget, first: str, second: str) -> bool:
    return widget.root.evaluate(
        """(root, [a, b]) => { const r = root.querySelector(a).getBoundingClientRect();
             const s = root.querySelector(b).getBoundingClientRect();
             return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom; }""",
        [first, second],
    )


CLIPPED_BADGES = """(root) => [...root.querySelectorAll('.agui-badge')].filter((b) => b.checkVisibility()).filter((b) => {
  const box = b.getBoundingClientRect();
  const card = b.closest('.agui-tool, .agui-interrupt').getBoundingClientRect();
  return b.scrollWidth > b.clientWidth + 1 || box.right > card.right + 0.5 || box.left < card.left;
}).map((b) => b.textContent)"""


@pytest.mark.parametrize("width", [320, 360])
def test_narrow_widgets_hold_with_cards_forms_and_the_thread_menu(open_chat, artifacts_dir, width):
    chat = open_chat("light", width=width + 40, height=1400)
    widget = open_everything(chat)
    scrolls = "pre, .agui-table, .agui-records-scroll, .agui-state-body"
    assert widget.overflowing(scrolls) == []
    widget.root.screenshot(path=str(artifacts_dir / f"narrow-{width}-menu.png"), animations="disabled")
    chat.page.keyboard.press("Escape")
    assert widget.locator("[data-agui=status]").inner_text() == "Waiting for your approval"
    assert not overlapping(widget, "[data-agui=status]", "[data-agui=send]")
    assert widget.root.evaluate(CLIPPED_BADGES) == []
    assert widget.overflowing(scrolls) == []
    card = widget.locator("[data-tool-state=approval-requested]").last
    card.screenshot(path=str(artifacts_dir / f"narrow-{width}-approval.png"), animations="disabled")
    widget.locator(".agui-composer").screenshot(path=str(artifacts_dir / f"narrow-{width}-composer.png"))
