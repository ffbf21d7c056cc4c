"""End to end: a fresh clone's notebook (saved outputs, not signed, so untrusted) reads well in JupyterLab.

The notebook is executed beforehand (nbclient) and opened in a real JupyterLab without running any cell: the
server does not trust its outputs, so JupyterLab's sanitizer drops the copy's ``<style>``. What is left must still
read as the conversation: headings, a table, code, the plan as a ticked list, the tool states in words, no raw
markdown and no raw JSON. Screenshots (light, dark, and 360 px wide) go to tests/artifacts/untrusted-copy-*.png.
"""

from __future__ import annotations

import contextlib
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.jupyter import UI_TIMEOUT_MS, Lab, serving
from tests.support.chromium import chromium_browser
from tests.support.static_notebook import DEMO_CELLS, executed_notebook, static_copy_html

pytestmark = pytest.mark.e2e

NOTEBOOK = "copy.ipynb"
THEMES = "@jupyterlab/apputils-extension:themes"


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return executed_notebook(DEMO_CELLS, tmp_path_factory.mktemp("run"))


QUICKSTART = Path(__file__).resolve().parents[2] / "notebooks" / "quickstart.ipynb"


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory, saved: dict[str, Any]) -> Iterator[Lab]:
    notebooks = {
        NOTEBOOK: saved,
        "quickstart.ipynb": json.loads(QUICKSTART.read_text()),
    }  # as a fresh clone has it
    with serving(tmp_path_factory.mktemp("jupyterlab"), "jupyterlab", notebooks) as running:
        yield running


def _set_theme(lab: Lab, theme: str) -> None:
    body = json.dumps({"raw": json.dumps({"theme": theme})}).encode()
    request = urllib.request.Request(
        f"{lab.url}/lab/api/settings/{THEMES}",
        data=body,
        method="PUT",
        headers={"Authorization": f"token {lab.token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10):
        pass


def _open(browser: Any, lab: Lab, width: int, notebook: str = NOTEBOOK) -> tuple[Any, list[str]]:
    """The notebook opened in a fresh page, no cell run, once its outputs are drawn; and the page's errors."""
    page = browser.new_page(viewport={"width": width, "height": 2600})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(UI_TIMEOUT_MS)
    page.goto(f"{lab.url}/lab/tree/{notebook}?reset&token={lab.token}", wait_until="domcontentloaded")
    page.locator(".jp-NotebookPanel .agui-static").wait_for(state="attached")
    if width < 600:  # a phone's width: the file browser folded away, as a reader there would have it
        page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").first.click()
    page.locator(".jp-NotebookPanel .agui-static").wait_for(state="visible")
    page.wait_for_timeout(1500)  # the widget manager has tried (and failed) to restore the old model by now
    return page, errors


def _shot(page: Any, path: Path) -> None:
    cell = page.locator(".jp-NotebookPanel .jp-Cell").first
    with contextlib.suppress(Exception):  # the notebook's own scroll position: show the cell from its top
        cell.scroll_into_view_if_needed()
    cell.screenshot(path=str(path))


def test_an_untrusted_notebook_shows_a_readable_copy_in_jupyterlab(
    lab: Lab, saved: dict[str, Any], artifacts_dir: Path
) -> None:
    assert static_copy_html(saved)  # the saved outputs hold the copy (made by executing the notebook)
    assert "signature" not in saved["metadata"]
    with chromium_browser() as browser:
        page, errors = _open(browser, lab, 1280)
        copy = page.locator(".jp-NotebookPanel .agui-static").first
        # Untrusted: JupyterLab's sanitizer dropped the copy's <style> (and so every rule of ours).
        assert page.locator(".jp-NotebookPanel .jp-OutputArea-output style").count() == 0
        assert copy.locator("h1, h2, h3, h4, h5, h6").count() > 0
        assert copy.locator(".agui-static-text h3").inner_text() == "Weather in Paris"  # the answer's "## …"
        assert copy.locator("table thead th").count() == 2 and copy.locator("table tbody tr").count() == 3
        assert copy.locator("pre code").count() == 1
        assert copy.locator("details summary").count() >= 3
        text = copy.inner_text()
        for words in (
            "You",
            "Assistant",
            "What's the weather in Paris?",
            "Plan · 3 of 3 done",
            "✓ Look up the weather in Paris (done)",
            "Tool get_weather · Done",
            "Tool send_report · Waiting for approval",
            "Weather in Paris",
            "import httpx",
            "Source: Weather service",
        ):
            assert words in text, words
        for raw in ("**", "|---", "| --- |", "```", '"steps"', '"status"', "## "):
            assert raw not in text, raw
        assert copy.locator("img").count() == 1  # the demo's small chart, inlined as a data URL
        assert page.get_by_text("Error displaying widget").filter(visible=True).count() == 0
        _shot(page, artifacts_dir / "untrusted-copy-light.png")
        assert errors == []
        page.close()

        page, _ = _open(browser, lab, 360)
        narrow = page.locator(".jp-NotebookPanel .agui-static").first
        assert narrow.evaluate(
            "copy => copy.scrollWidth <= copy.clientWidth + 1"
        )  # nothing runs off the side
        _shot(page, artifacts_dir / "untrusted-copy-narrow.png")
        page.close()

        _set_theme(lab, "JupyterLab Dark")
        try:
            page, _ = _open(browser, lab, 1280)
            page.locator("body[data-jp-theme-light='false']").wait_for(state="attached")
            page.wait_for_timeout(500)
            _shot(page, artifacts_dir / "untrusted-copy-dark.png")
            page.close()
        finally:
            _set_theme(lab, "JupyterLab Light")


def test_the_quickstart_of_a_fresh_clone_opens_untrusted_as_a_readable_conversation(
    lab: Lab, artifacts_dir: Path
) -> None:
    """The repository's own quickstart, with the outputs it is committed with, opened without running a cell."""
    saved = json.loads(QUICKSTART.read_text())
    assert "signature" not in saved["metadata"] and static_copy_html(saved)
    with chromium_browser() as browser:
        page, errors = _open(browser, lab, 1280, "quickstart.ipynb")
        assert page.locator(".jp-NotebookPanel .jp-OutputArea-output style").count() == 0
        copy = page.locator(".jp-NotebookPanel .agui-static").first
        assert copy.locator("h3").count() >= 2  # the weather's heading and the trip's
        assert copy.locator("table thead th").count() >= 2 and copy.locator("pre code").count() >= 1
        assert copy.locator("ol li").count() >= 3  # the plan's ticks and the trip's days
        text = copy.inner_text()
        for words in ("Weather in Paris", "Lisbon: 2 nights", "Tool send_report · Done", "cities.csv"):
            assert words in text, words
        for raw in ("**", "|---", "| --- |", "```", '"steps"', '"status"', "## "):
            assert raw not in text, raw
        assert "Its log is" in text or "kernel's memory" in text  # the last line says where it lives
        copy.scroll_into_view_if_needed()
        copy.screenshot(path=str(artifacts_dir / "untrusted-quickstart.png"))
        assert errors == []
        page.close()
