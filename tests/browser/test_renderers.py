"""Rendered parts in the browser: Python renderers' outputs, front-end ES module renderers, the built-in checklist
and records table, the Raw toggle, and failures that stay in their part.

Python outputs come from a real ``ChatWidget`` with real renderers (its ``rendered`` trait), so the front end is
checked against what the kernel side actually sends.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from typing import Any

import ipywidgets
import matplotlib
import pandas as pd
import pytest
from IPython.display import HTML, SVG, Markdown
from PIL import Image

from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.demo import DemoAgent, demo_input
from agui_notebook.widget._chat import ChatWidget
from tests.browser.test_chat_xss import HTML_PAYLOADS, MARKDOWN_PAYLOADS, assert_inert

matplotlib.use("Agg")
from matplotlib.figure import Figure

pytestmark = pytest.mark.browser

SVG_TEXT = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">'
    '<rect width="40" height="20" fill="teal"/></svg>'
)


def figure() -> Figure:
    fig = Figure(figsize=(3, 1.6), dpi=80)
    axes = fig.add_subplot()
    axes.plot([1, 2, 3, 4], [21, 23, 19, 24], marker="o")
    axes.set_title("Paris, °C")
    return fig


OUTPUTS: dict[str, Any] = {
    "frame": lambda: pd.DataFrame(
        {"city": ["Paris", "Oslo", "Rome"], "temp_c": [21, -3, 18.5], "sky": ["sunny", "snow", None]}
    ),
    "figure": figure,
    "pil": lambda: Image.new("RGB", (24, 12), "orange"),
    "html": lambda: HTML("<p>It is <b>hot</b></p><table><tr><td>21</td></tr></table>"),
    "markdown": lambda: Markdown("**Sunny** all week"),
    "svg": lambda: SVG(SVG_TEXT),
    "json": lambda: {"temp_c": 21},
    "text": lambda: "21 °C and sunny",
    "widget": lambda: ipywidgets.IntSlider(5),
}


def data_part(kind: str, **data: Any) -> dict[str, Any]:
    return {"type": "data-weather", "id": f"w-{kind}", "data": {"kind": kind, **data}}


def weather_messages(kinds: list[str]) -> list[dict[str, Any]]:
    return [
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Weather?"}]},
        {
            "id": "a1",
            "role": "assistant",
            "parts": [{"type": "text", "text": "Here it is:"}, *(data_part(k) for k in kinds)],
        },
    ]


def python_rendered(messages: list[dict[str, Any]], render: Any) -> dict[str, Any]:
    """The ``rendered`` trait a real widget computes for these messages with this renderer."""
    chat = ChatWidget(None, messages=messages, renderers={"data-weather": render})
    return json.loads(json.dumps(chat.rendered))


def python_rendered_for(messages: list[dict[str, Any]], part_type: str, render: Any) -> dict[str, Any]:
    chat = ChatWidget(None, messages=messages, renderers={part_type: render})
    return json.loads(json.dumps(chat.rendered))


def by_kind(part: dict[str, Any]) -> Any:
    return OUTPUTS[part["data"]["kind"]]()


def rendered_part(widget: Any, index: int) -> Any:
    return widget.message(1).locator(f"[data-part-index='{index}']")


def test_every_python_output_kind_shows_in_its_part(chat):
    kinds = list(OUTPUTS)
    messages = weather_messages(kinds)
    widget = chat.open(messages=messages, rendered=python_rendered(messages, by_kind))
    mimes = {
        kind: rendered_part(widget, i + 1).locator("[data-agui=rendered-output]").get_attribute("data-mime")
        for i, kind in enumerate(kinds)
    }
    assert mimes == {
        "frame": "application/vnd.agui-notebook.table+json",
        "figure": "image/png",
        "pil": "image/png",
        "html": "text/html",
        "markdown": "text/markdown",
        "svg": "image/svg+xml",
        "json": "application/json",
        "text": "text/plain",
        "widget": "application/vnd.jupyter.widget-view+json",
    }
    table = rendered_part(widget, 1)
    assert table.locator("thead th").all_inner_texts() == ["city", "temp_c", "sky"]
    assert table.locator("tbody tr").nth(2).locator("td").all_inner_texts() == ["Rome", "18.5", ""]
    assert table.locator("td[data-kind=number]").count() == 3
    assert "3 rows" in table.locator("[data-agui=rendered-label]").inner_text()
    for index in (2, 3):
        img = rendered_part(widget, index).locator("img.agui-rendered-image")
        assert img.get_attribute("src").startswith("data:image/png;base64,iVBOR")
        assert img.evaluate("(e) => e.complete && e.naturalWidth > 0")
    assert rendered_part(widget, 4).locator(".agui-md b").inner_text() == "hot"
    assert rendered_part(widget, 5).locator(".agui-md strong").inner_text() == "Sunny"
    svg = rendered_part(widget, 6).locator("img")
    assert svg.get_attribute("src").startswith("data:image/svg+xml;base64,")
    assert rendered_part(widget, 6).locator("svg rect").count() == 0  # never inline
    assert json.loads(rendered_part(widget, 7).locator("pre.agui-json").text_content()) == {"temp_c": 21}
    assert rendered_part(widget, 8).locator(".agui-rendered-text").inner_text() == "21 °C and sunny"
    live = rendered_part(widget, 9).locator("[data-agui=rendered-widget]")
    assert live.get_attribute("data-state") == "unavailable"  # the harness page has no widget manager
    assert "IntSlider" in live.inner_text()
    # The part keeps its hooks; the text part before it is untouched.
    assert widget.message(1).locator("[data-part-type=data-weather][data-rendered=python]").count() == len(
        kinds
    )
    assert widget.message(1).locator("[data-part-type=text]").inner_text() == "Here it is:"


def test_the_raw_toggle_shows_the_default_view_and_back(chat):
    messages = weather_messages(["text"])
    widget = chat.open(messages=messages, rendered=python_rendered(messages, by_kind))
    part = rendered_part(widget, 1)
    toggle = part.locator("[data-agui=raw-toggle]")
    assert toggle.get_attribute("aria-pressed") == "false"
    assert not part.locator("[data-agui=raw-part]").is_visible()
    toggle.click()
    chat.frames()
    assert toggle.get_attribute("aria-pressed") == "true"
    assert not part.locator("[data-agui=rendered-output]").is_visible()
    raw = part.locator("[data-agui=raw-part] pre.agui-json")
    assert json.loads(raw.text_content()) == {"kind": "text"}
    assert part.locator("[data-part-type]").count() == 0  # one part, one data-part-type
    toggle.click()
    chat.frames()
    assert part.locator("[data-agui=rendered-output]").is_visible()
    assert not part.locator("[data-agui=raw-part]").is_visible()


def test_a_widget_output_is_a_live_view_through_the_widget_manager(chat):
    messages = weather_messages(["widget"])
    rendered = python_rendered(messages, by_kind)
    model_id = next(iter(rendered.values()))["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
    model = chat.new_model(messages=messages, rendered=rendered)
    # What anywidget gives the model in JupyterLab and Notebook 7: the page's ipywidgets manager.
    chat.evaluate(
        """([m, id]) => {
          window.__views = [];
          window.agui.model(m).widget_manager = {
            async get_model(modelId) { return { id: modelId }; },
            async create_view(model) {
              const el = document.createElement('div');
              el.className = 'fake-widget';
              el.textContent = 'slider ' + model.id;
              const view = { el, removed: false, remove() { this.removed = true; el.remove(); } };
              window.__views.push(view);
              return view;
            },
          };
        }""",
        [model, model_id],
    )
    widget = chat.mount(model)
    chat.frames(4)
    live = rendered_part(widget, 1).locator("[data-agui=rendered-widget]")
    assert live.get_attribute("data-state") == "live"
    assert live.locator(".fake-widget").inner_text() == f"slider {model_id}"
    widget.set("messages", messages[:1])  # the answer goes: its widget view is removed
    assert chat.evaluate("() => window.__views.map((v) => v.removed)") == [True]


def test_html_from_a_renderer_is_sanitized_and_cannot_run_script(chat):
    payload = "\n".join(HTML_PAYLOADS)
    messages = weather_messages(["html", "markdown"])
    outputs = {"html": HTML(payload), "markdown": Markdown("\n\n".join(MARKDOWN_PAYLOADS))}
    rendered = python_rendered(messages, lambda part: outputs[part["data"]["kind"]])
    assert next(iter(rendered.values()))["data"]["text/html"] == payload  # sent as it is, cleaned where shown
    widget = chat.open(messages=messages, rendered=rendered)
    assert widget.locator("[data-mime='text/html'] .agui-md").count() == 1
    assert_inert(chat, widget)


def test_an_svg_with_script_stays_an_inert_image(chat):
    evil = '<svg xmlns="http://www.w3.org/2000/svg" onload="parent.__pwned=1"><script>parent.__pwned=1</script></svg>'
    messages = weather_messages(["svg"])
    widget = chat.open(messages=messages, rendered=python_rendered(messages, lambda part: SVG(evil)))
    assert rendered_part(widget, 1).locator("img").count() == 1
    assert_inert(chat, widget)


FRONT_END = """
export function render({ part, el }) {
  const box = document.createElement('span');
  box.className = 'weather-card';
  box.textContent = `${part.data.city}: ${part.data.temp} °C`;
  el.append(box);
  part.data.city = 'mutated';  // a renderer's copy: the widget's own part must not change
  window.__renders = (window.__renders ?? 0) + 1;
  return () => { window.__cleanups = (window.__cleanups ?? 0) + 1; };
}
"""


def weather(temp: int) -> list[dict[str, Any]]:
    return [
        {
            "id": "a1",
            "role": "assistant",
            "parts": [
                {"type": "text", "text": "Now:"},
                {"type": "data-weather", "id": "w", "data": {"city": "Paris", "temp": temp}},
            ],
        }
    ]


def test_a_front_end_renderer_runs_in_the_page_and_again_when_the_part_changes(chat):
    chat.evaluate("() => { window.__renders = 0; window.__cleanups = 0; }")
    widget = chat.open(messages=weather(21), frontend_renderers={"data-weather": FRONT_END})
    chat.frames(3)
    card = widget.locator("[data-rendered=frontend] .weather-card")
    assert card.inner_text() == "Paris: 21 °C"
    widget.deliver({"kind": "patch", "seq": 1, "ops": [["p", 0, 1, weather(22)[0]["parts"][1]]]})
    chat.frames(3)
    assert card.inner_text() == "Paris: 22 °C"
    assert chat.evaluate("() => [window.__renders, window.__cleanups]") == [2, 1]
    widget.locator("[data-agui=raw-toggle]").click()
    raw = widget.locator("[data-agui=raw-part] pre.agui-json")
    assert json.loads(raw.text_content())["city"] == "Paris"
    chat.evaluate("(m) => window.agui.unmount(0)", None)
    assert chat.evaluate("() => window.__cleanups") == 2


def test_a_failing_renderer_shows_its_error_in_its_part_only(chat):
    messages = weather_messages(["text", "text"])
    calls = []

    def flaky(part: dict[str, Any]) -> str:
        calls.append(part)
        if len(calls) == 1:
            raise KeyError("temp")
        return "fine"

    rendered = python_rendered(messages, flaky)
    broken_js = "export function render() { throw new TypeError('no city'); }"
    messages[1]["parts"].append({"type": "data-other", "data": {"x": 1}})
    widget = chat.open(messages=messages, rendered=rendered, frontend_renderers={"data-other": broken_js})
    chat.frames(3)
    first, second, third = (rendered_part(widget, i) for i in (1, 2, 3))
    assert (
        first.locator("[data-agui=renderer-error]")
        .inner_text()
        .startswith("Renderer failed: KeyError: 'temp'")
    )
    assert first.locator("[data-agui=renderer-error] details pre").text_content().startswith("Traceback")
    assert json.loads(first.locator("[data-agui=raw-part] pre.agui-json").text_content()) == {"kind": "text"}
    assert not first.locator("[data-agui=raw-toggle]").is_visible()
    assert second.locator(".agui-rendered-text").inner_text() == "fine"
    assert not second.locator("[data-agui=renderer-error]").is_visible()
    assert third.locator("[data-agui=renderer-error]").inner_text() == "Renderer failed: TypeError: no city"
    assert json.loads(third.locator("[data-agui=raw-part] pre").text_content()) == {"x": 1}
    assert widget.message(1).locator("[data-part-type=text]").inner_text() == "Here it is:"
    assert widget.locator("[data-agui=part-fallback]").count() == 0


def test_a_renderer_cannot_hide_an_approval(chat):
    part = {
        "type": "tool-send_report",
        "toolCallId": "c1",
        "state": "approval-requested",
        "input": {"to": "team@example.com"},
        "approval": {"id": "ap1"},
    }
    messages = [{"id": "a1", "role": "assistant", "parts": [part]}]
    rendered = python_rendered_for(
        messages, "tool-send_report", lambda p: f"Send the report to {p['input']['to']}?"
    )
    widget = chat.open(messages=messages, rendered=rendered)
    card = widget.locator("[data-part-type=tool-send_report][data-rendered=python]")
    assert card.locator(".agui-rendered-text").inner_text() == "Send the report to team@example.com?"
    approve = card.locator("[data-agui=approve]")
    assert approve.is_visible()
    approve.click()
    assert widget.sent()[-1] == {"kind": "approval", "approvalId": "ap1", "approved": True}
    answered = {**part, "state": "output-available", "output": {"sent": True}}
    widget.set("messages", [{"id": "a1", "role": "assistant", "parts": [answered]}])
    assert not card.locator("[data-agui=raw-part]").is_visible()  # answered: the rendered view alone


def demo_plan_states() -> list[list[str]]:
    """The demo's plan part after each of its ACTIVITY events, as the bridge assembles it."""

    async def events() -> list[Any]:
        return [e async for e in DemoAgent(speed=0).run(demo_input("Weather in Paris?"))]

    # Playwright's sync API keeps a loop marked as running in this thread: collect the events in another one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        stream = pool.submit(asyncio.run, events()).result()
    states = []
    for index, event in enumerate(stream):
        if event.type.value.startswith("ACTIVITY") and getattr(event, "activity_type", "") == "plan":
            messages = ui_message_dicts_from_events(stream[: index + 1])
            states.append(messages)
    return states


def test_the_demo_plan_is_a_checklist_that_ticks_off_its_steps(chat):
    states = demo_plan_states()
    widget = chat.open(messages=states[0])
    seen = []
    for messages in states:
        widget.set("messages", messages)
        plan = widget.locator("[data-part-type=data-plan][data-rendered=checklist]")
        seen.append(
            plan.locator("[data-agui=checklist-step]").evaluate_all(
                "(els) => els.map((e) => e.dataset.status)"
            )
        )
    assert seen == [
        ["active", "pending", "pending"],
        ["done", "active", "pending"],
        ["done", "done", "active"],
        ["done", "done", "done"],
    ]
    plan = widget.locator("[data-part-type=data-plan]")
    assert plan.locator("[data-agui=checklist-step]").all_inner_texts() == [
        "Think about the question",
        "Look up the weather in Paris",
        "Write the answer",
    ]
    assert plan.locator("[data-agui=rendered-label]").inner_text() == "Plan · 3 of 3 done"


@pytest.mark.parametrize(
    ("part", "statuses", "titles"),
    [
        (  # the AG-UI dojo's agentic generative UI
            {
                "type": "data-plan",
                "data": {
                    "steps": [
                        {"description": "Mix", "status": "completed"},
                        {"description": "Bake", "status": "executing"},
                    ]
                },
            },
            ["done", "active"],
            ["Mix", "Bake"],
        ),
        (  # LangGraph-style todos with booleans, under another name
            {
                "type": "data-agent_state",
                "data": {"todos": [{"content": "a", "done": True}, {"content": "b", "done": False}]},
            },
            ["done", "pending"],
            ["a", "b"],
        ),
        (  # a bare list in a plan part, with statuses we know and one we do not
            {
                "type": "data-steps",
                "data": [
                    {"title": "x", "status": "FAILED"},
                    {"title": "y", "status": "skipped"},
                    {"title": "z", "status": "mulling"},
                ],
            },
            ["failed", "skipped", "pending"],
            ["x", "y", "z"],
        ),
    ],
)
def test_plan_shapes_agents_send_are_checklists(chat, part, statuses, titles):
    widget = chat.open(messages=[{"id": "a", "role": "assistant", "parts": [part]}])
    steps = widget.locator("[data-agui=checklist-step]")
    assert steps.evaluate_all("(els) => els.map((e) => e.dataset.status)") == statuses
    assert steps.all_inner_texts() == titles


def test_a_list_of_records_is_a_bounded_table(chat):
    records = [{"id": i, "name": f"item {i}", "price": i * 1.5, "tags": ["a"]} for i in range(60)]
    records[3] = {"id": 3, "name": "no price"}  # uniform-ish: a missing key is an empty cell
    parts = [
        {"type": "data-results", "data": records},
        {"type": "data-mixed", "data": [{"a": 1}, {"b": 2}, {"c": 3}]},  # not uniform: default view
        {"type": "data-plain", "data": [1, 2, 3]},
    ]
    widget = chat.open(messages=[{"id": "a", "role": "assistant", "parts": parts}])
    table = widget.locator("[data-part-type=data-results][data-rendered=records]")
    assert table.locator("thead th").all_inner_texts() == ["id", "name", "price", "tags"]
    assert table.locator("tbody tr").count() == 50
    assert table.locator("tbody tr").nth(3).locator("td").all_inner_texts() == ["3", "no price", "", ""]
    assert table.locator("tbody tr").nth(2).locator("td").all_inner_texts() == ["2", "item 2", "3", '["a"]']
    assert table.locator("[data-agui=records-more]").inner_text() == "10 more rows not shown"
    assert table.locator("[data-agui=rendered-label]").inner_text() == "results · 60 rows"
    assert widget.locator("[data-part-type=data-mixed]").get_attribute("data-rendered") is None
    assert widget.locator("[data-part-type=data-plain].agui-data").count() == 1


def test_a_renderer_of_your_own_wins_over_the_built_in_and_built_ins_can_be_off(chat):
    plan = {"type": "data-plan", "data": {"steps": [{"title": "a", "status": "done"}]}}
    messages = [{"id": "a", "role": "assistant", "parts": [plan]}]
    own = "export function render({ el }) { el.textContent = 'my plan'; }"
    widget = chat.open(messages=messages, frontend_renderers={"data-plan": own})
    chat.frames(3)
    assert widget.locator("[data-rendered=frontend]").inner_text().endswith("my plan")
    python = python_rendered(
        [{"id": "a", "role": "assistant", "parts": [{**plan, "type": "data-weather"}]}], lambda p: "py"
    )
    entry = {"a/0": {**python["a/0"], "type": "data-plan"}}
    widget.set("rendered", entry)
    assert widget.locator("[data-rendered=python] .agui-rendered-text").inner_text() == "py"
    widget.set("rendered", {})
    widget.set("frontend_renderers", {})
    assert widget.locator("[data-rendered=checklist]").count() == 1
    widget.set("builtin_renderers", False)
    assert widget.locator("[data-rendered]").count() == 0
    assert widget.locator("[data-part-type=data-plan].agui-data").count() == 1


def screenshot_messages() -> tuple[list[dict[str, Any]], dict[str, Any]]:
    states = demo_plan_states()
    plan = states[2][-1]["parts"][0]  # two steps done, the third in progress
    frame = pd.DataFrame(
        {
            "day": ["Mon", "Tue", "Wed", "Thu"],
            "temp_c": [21, 23, 19.5, 24],
            "sky": ["sunny", "cloudy", "rain", "sunny"],
        }
    )
    messages = [
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Plan my week in Paris."}]},
        {
            "id": "a1",
            "role": "assistant",
            "parts": [
                plan,
                {"type": "text", "text": "Here is the forecast:"},
                {"type": "data-forecast", "id": "f", "data": {"kind": "frame"}},
                {"type": "data-forecast", "id": "g", "data": {"kind": "figure"}},
                {
                    "type": "data-hotels",
                    "data": [
                        {"name": "Hôtel du Louvre", "stars": 5, "price_eur": 420, "free_cancel": True},
                        {"name": "Le Marais Inn", "stars": 3, "price_eur": 160, "free_cancel": False},
                        {"name": "Gare du Nord Lodge", "stars": 2, "price_eur": 95, "free_cancel": True},
                    ],
                },
                {"type": "data-forecast", "id": "h", "data": {"kind": "broken"}},
            ],
        },
    ]

    def render(part: dict[str, Any]) -> Any:
        kind = part["data"]["kind"]
        if kind == "frame":
            return frame
        if kind == "figure":
            return figure()
        raise ValueError("no forecast for Saturday yet")

    chat = ChatWidget(None, messages=messages, renderers={"data-forecast": render})
    return messages, json.loads(json.dumps(chat.rendered))


@pytest.mark.parametrize(("theme", "width"), [("light", 760), ("dark", 760), ("light", 360), ("dark", 360)])
def test_rendered_parts_screenshots(open_chat, artifacts_dir, theme, width):
    chat = open_chat(theme, width=width + 60, height=1600)
    messages, rendered = screenshot_messages()
    widget = chat.open(messages=messages, rendered=rendered, height="auto", width=f"{width}px")
    chat.frames(3)
    overflowing = widget.overflowing("pre, .agui-records-scroll, .agui-rendered-output")
    assert overflowing == []
    kinds = widget.locator("[data-rendered]").evaluate_all("(els) => els.map((e) => e.dataset.rendered)")
    assert kinds == ["checklist", "python", "python", "records", "python"]
    path = artifacts_dir / f"renderers-{theme}-{width}.png"
    widget.root.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 10_000
