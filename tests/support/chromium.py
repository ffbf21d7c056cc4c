"""Launching Debian's Chromium through Playwright for the browser and end-to-end tests.

Playwright's own browser download is never used (no ``playwright install``): the tests drive /usr/bin/chromium.
When it (or the playwright package) is missing the tests are skipped, or fail when AGUI_NOTEBOOK_REQUIRE_BROWSER=1
(set by CI, where a skipped browser suite would hide a broken front end).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

CHROMIUM_PATH = Path("/usr/bin/chromium")
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)


def browser_required() -> bool:
    """Whether a missing browser is a failure rather than a skip."""
    return os.environ.get("AGUI_NOTEBOOK_REQUIRE_BROWSER", "") == "1"


def unavailable(reason: str) -> None:
    """Skip the current test, or fail it when the browser is required."""
    if browser_required():
        pytest.fail(f"{reason} (AGUI_NOTEBOOK_REQUIRE_BROWSER=1)")
    pytest.skip(reason)


def require_chromium() -> Path:
    """The Chromium executable, after checking it and the playwright package are there."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("the playwright package is not installed")
    if not CHROMIUM_PATH.exists():
        unavailable(f"{CHROMIUM_PATH} is missing (run scripts/install-chromium.sh)")
    return CHROMIUM_PATH


def launch_chromium(playwright: Playwright, **options: Any) -> Browser:
    """Launch headless Chromium from /usr/bin/chromium with the flags every test uses."""
    executable = require_chromium()
    args = [*CHROMIUM_ARGS, *options.pop("args", ())]
    return playwright.chromium.launch(executable_path=str(executable), headless=True, args=args, **options)


@contextmanager
def chromium_browser(**options: Any) -> Iterator[Browser]:
    """A running Chromium (sync Playwright API), closed on exit."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, **options)
        try:
            yield browser
        finally:
            browser.close()
