"""End to end in JupyterLab: a frontend tool answered by the kernel, a DataFrame renderer, an interrupt form and
an edit that branches the conversation, with a scripted agent (tests/e2e/generative_agent.py).

In JupyterLab 4 and Notebook 7. Screenshots go to tests/artifacts/e2e-generative-{lab,notebook7}-*.png.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.generative_agent import forecast_for
from tests.e2e.jupyter import (
    Lab,
    notebook7_settings_error,
    notebook_json,
    open_chat,
    run_cell_containing,
    serving,
    wait_for,
)
from tests.support.chromium import chromium_browser

pytestmark = pytest.mark.e2e

CELLS = [
    """import ipywidgets as widgets
import pandas as pd

from agui_notebook import ChatWidget
from tests.e2e.generative_agent import forecast_for, generative_agent


def get_forecast(city: str) -> list[dict]:
    \"\"\"The next three days' forecast for a city.\"\"\"
    return forecast_for(city)


chat = ChatWidget(generative_agent, tools=[get_forecast], title="generative", height=900)


@chat.renderer("data-forecast")
def forecast_table(part):
    return pd.DataFrame(part["data"]["days"]).set_index("day")


@chat.renderer("tool-get_forecast")
def days_slider(part):
    if part.get("state") != "output-available":
        return None
    return widgets.IntSlider(value=len(part["output"]), min=0, max=7, description="Days")


chat""",
    """import json
first = chat.messages[0]["id"]
print("KERNEL", json.dumps({
    "users": [p["text"] for m in chat.messages if m["role"] == "user" for p in m["parts"]],
    "tools": [[p["state"], p.get("input"), p.get("output")] for m in chat.messages for p in m["parts"]
              if p["type"] == "tool-get_forecast"],
    "last": [p["text"] for p in chat.messages[-1]["parts"] if p["type"] == "text"],
    "branches": [b.preview for b in chat.branches(first)],
    "declared": [t["name"] for t in chat.tools],
}))""",
]
CHAT = ".agui-chat"


@pytest.fixture(scope="module", params=["jupyterlab", "notebook"], ids=["jupyterlab", "notebook7"])
def lab(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """JupyterLab 4 and Notebook 7: the ipywidget a renderer returns is live in both."""
    with serving(
        tmp_path_factory.mktemp("generative"), request.param, {"generative.ipynb": notebook_json(CELLS)}
    ) as running:
        yield running


def kernel_report(page: Any) -> dict[str, Any]:
    """What the kernel holds: the user turns, the tool calls, the last answer's text and the branches."""
    run_cell_containing(page, "KERNEL")
    output = page.locator(".jp-NotebookPanel .jp-Cell").nth(1).locator(".jp-OutputArea-output")
    output.wait_for(state="visible")
    wait_for(lambda: "KERNEL" in output.inner_text(), 30, "the report cell's output")
    return json.loads(output.inner_text().strip().removeprefix("KERNEL"))


def ask(page: Any, text: str) -> None:
    prompt = page.locator("[data-agui=input]")
    prompt.fill(text)
    prompt.press("Enter")


def the_form_then_the_answer(page: Any, nights: str, *, breakfast: bool) -> Any:
    """Fill the booking interrupt's form and submit it; returns the card."""
    card = page.locator("[data-part-type=data-interrupt]").last
    card.locator("[data-agui=interrupt-submit]").wait_for(state="visible")
    nights_field = card.locator('[data-agui=field][data-path="payload.nights"] input')
    nights_field.fill("99")  # beyond the schema's maximum: the form says so and sends nothing
    card.locator("[data-agui=interrupt-submit]").click()
    problem = card.locator('[data-agui=field][data-path="payload.nights"] [data-agui=field-error]')
    problem.wait_for(state="visible")
    assert "14" in problem.inner_text()
    nights_field.fill(nights)
    if breakfast:
        card.locator('[data-agui=field][data-path="payload.breakfast"] input').check()
    card.locator("[data-agui=interrupt-submit]").click()
    return card


def test_a_frontend_tool_a_renderer_an_interrupt_form_and_an_edit(lab: Lab, artifacts_dir: Path) -> None:
    with chromium_browser() as browser:
        page, errors = open_chat(
            browser, lab, "generative.ipynb", ["ChatWidget(generative_agent"], height=1300
        )
        chat = page.locator(CHAT)

        # The agent calls get_forecast; the kernel runs it and the follow-up run draws the forecast as a table.
        ask(page, "Forecast for Paris?")
        # The tool part is drawn by its renderer: a live ipywidget, through JupyterLab's widget manager.
        slider = page.locator("[data-part-type=tool-get_forecast] [data-agui=rendered-widget] .widget-slider")
        slider.wait_for(state="visible")
        assert page.locator("[data-part-type=tool-get_forecast] .widget-readout").inner_text() == "3"
        table = page.locator("[data-part-type=data-forecast] [data-agui=rendered-output] table")
        table.wait_for(state="visible")
        assert "Mon" in table.inner_text() and "19" in table.inner_text()
        form = page.locator("[data-part-type=data-interrupt] [data-agui=interrupt-form]")
        form.wait_for(state="visible")
        page.wait_for_selector(f"{CHAT}[data-status=ready]")
        assert (
            "How long do you stay in Paris?"
            in page.locator("[data-agui=interrupt-message]").last.inner_text()
        )
        app = "lab" if lab.documents == "/lab/tree" else "notebook7"
        chat.screenshot(path=str(artifacts_dir / f"e2e-generative-{app}-1-form.png"))

        # The form checks its schema, then resumes the run with the payload.
        the_form_then_the_answer(page, "3", breakfast=True)
        chat.get_by_text("Booked 3 nights in Paris with breakfast.").wait_for(state="visible")
        page.wait_for_selector(f"{CHAT}[data-status=ready]")
        # The answer reads as a list, each name on one line (Jupyter's output area floats dt/dd otherwise).
        answered = page.locator("[data-part-type=data-interrupt] [data-agui=interrupt-answer] dt")
        assert answered.all_inner_texts() == ["Nights", "Breakfast included"]
        assert all(box["height"] < 24 for box in (dt.bounding_box() for dt in answered.all()))
        chat.screenshot(path=str(artifacts_dir / f"e2e-generative-{app}-2-booked.png"))

        report = kernel_report(page)
        assert report["declared"] == ["get_forecast"]
        assert report["tools"] == [["output-available", {"city": "Paris"}, forecast_for("Paris")]]
        assert report["last"][-1] == "Booked 3 nights in Paris with breakfast."

        # Edit the question: the whole turn runs again for Lyon, and the Paris turn stays as a branch.
        first_user = page.locator(".agui-message[data-role=user]").first
        first_user.hover()
        first_user.locator("[data-agui=edit]").click()
        editor = page.locator("[data-agui=edit-input]")
        editor.fill("Forecast for Lyon?")
        editor.press("Enter")
        page.locator(
            "[data-part-type=data-forecast] [data-agui=rendered-output] table", has_text="24"
        ).wait_for(state="visible")
        card = page.locator("[data-part-type=data-interrupt]").last
        card.locator("[data-agui=interrupt-dismiss]").wait_for(state="visible")
        page.wait_for_selector(f"{CHAT}[data-status=ready]")
        card.locator("[data-agui=interrupt-dismiss]").click()
        chat.get_by_text("No booking, then.").wait_for(state="visible")
        page.wait_for_selector(f"{CHAT}[data-status=ready]")
        picker = page.locator(".agui-message[data-role=user]").first.locator("[data-agui=branch-count]")
        assert picker.inner_text() == "2/2"
        chat.screenshot(path=str(artifacts_dir / f"e2e-generative-{app}-3-edited.png"))

        report = kernel_report(page)
        assert report["users"] == ["Forecast for Lyon?"]
        assert report["tools"] == [["output-available", {"city": "Lyon"}, forecast_for("Lyon")]]
        assert report["last"][-1] == "No booking, then."
        assert report["branches"] == ["Forecast for Paris?", "Forecast for Lyon?"]

        # The earlier branch is one click away, its booking intact.
        page.locator(".agui-message[data-role=user]").first.locator("[data-agui=branch-previous]").click()
        chat.get_by_text("Booked 3 nights in Paris with breakfast.").wait_for(state="visible")
        assert [e for e in errors if not notebook7_settings_error(e)] == []
