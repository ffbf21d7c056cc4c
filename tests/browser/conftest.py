"""Browser tests of the ChatWidget front end: the built bundle in headless Chromium with a fake anywidget model.

The page, the bundle and the harness (js/test-harness/harness.js) are served from memory through Playwright
routing on a loopback origin (a secure context, so the async clipboard works); every other request is refused and
recorded, as are dialogs, popups, navigations and uncaught page errors.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.chromium import chromium_browser, unavailable

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"
BUNDLE = ROOT / "agui_notebook" / "static" / "widget.js"
HARNESS = JS / "test-harness" / "harness.js"
SYNC = JS / "src" / "sync.js"  # the harness's fake kernel applies patches with the front end's own applier
AXE = JS / "node_modules" / "axe-core" / "axe.min.js"
ORIGIN = "http://127.0.0.1:8711"
THEMES = Path(sys.prefix) / "share" / "jupyter" / "lab" / "themes" / "@jupyterlab"


def bundle_sources() -> list[Path]:
    """Files whose change means the bundle must be rebuilt."""
    sources = [p for p in (JS / "src").rglob("*") if p.is_file()]
    return [*sources, JS / "build.mjs", JS / "package.json"]


def bundle_is_stale() -> bool:
    if not BUNDLE.exists():
        return True
    built = BUNDLE.stat().st_mtime
    return any(path.stat().st_mtime > built for path in bundle_sources() if path.exists())


def build_bundle() -> None:
    npm = shutil.which("npm")
    if npm is None or not (JS / "node_modules").is_dir():
        unavailable("npm and js/node_modules are needed to build the widget bundle")
    completed = subprocess.run([npm, "run", "build"], cwd=JS, capture_output=True, text=True, check=False)
    if completed.returncode != 0:
        pytest.fail(f"npm run build failed:\n{completed.stdout}\n{completed.stderr}")


@pytest.fixture(scope="session")
def widget_bundle() -> bytes:
    """The built front end, rebuilt first when it is missing or older than js/src."""
    if bundle_is_stale():
        build_bundle()
    return BUNDLE.read_bytes()


def theme_css(theme: str) -> str:
    """JupyterLab's own theme stylesheet (its --jp-* variables), so the harness looks like JupyterLab."""
    path = THEMES / f"theme-{theme}-extension" / "index.css"
    return path.read_text() if path.exists() else ""


PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>agui harness</title>
<style>{theme}</style>
<style>
  html, body {{ margin: 0; background: var(--jp-layout-color0, #fff); }}
  body {{ padding: 16px; }}
  .host {{ margin-bottom: 16px; }}
  /* JupyterLab's own rules for everything inside its shell (from @jupyterlab/application and apputils), which
     the widget must hold its own against. */
  .jp-ThemedContainer {{ color: var(--jp-ui-font-color1); font-size: var(--jp-ui-font-size1);
    font-family: var(--jp-ui-font-family); }}
  :where(.jp-ThemedContainer) button {{ font-family: var(--jp-ui-font-family); }}
  .jp-ThemedContainer button {{ border-radius: var(--jp-border-radius); }}
  .jp-ThemedContainer button:focus-visible {{ outline-width: 2px; outline-color: var(--jp-focus-outline-color);
    outline-style: solid; outline-offset: -1px; }}
  .jp-ThemedContainer a {{ text-decoration: unset; color: unset; }}
  .jp-ThemedContainer a:hover {{ text-decoration: unset; color: unset; }}
  .jp-ThemedContainer input::placeholder {{ color: var(--jp-ui-font-color2); }}
</style></head>
<body class="jp-ThemedContainer" data-jp-theme-light="{light}"><div id="root"></div>
<script type="module" src="/harness.js"></script></body></html>
"""


@dataclass
class PageEvents:
    """What happened on a page that a safe widget never causes."""

    dialogs: list[str] = field(default_factory=list)
    popups: list[str] = field(default_factory=list)
    navigations: list[str] = field(default_factory=list)
    external_requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class Widget:
    """One mounted view of a fake model in the page."""

    def __init__(self, chat: ChatPage, model: int, view: int) -> None:
        self.chat = chat
        self.model = model
        self.view = view
        self.root = chat.page.locator(".host").nth(view).locator(".agui-chat")

    def deliver(self, *messages: dict[str, Any]) -> None:
        """Deliver custom messages (Python -> JS) and wait for the view to render them."""
        self.chat.page.evaluate(
            "([m, msgs]) => window.agui.deliverMany(m, msgs)", [self.model, list(messages)]
        )
        self.chat.frames()

    def set(self, name: str, value: Any) -> None:
        """Set a trait as the kernel would, and wait for the render."""
        self.chat.page.evaluate("([m, n, v]) => window.agui.set(m, n, v)", [self.model, name, value])
        self.chat.frames()

    def sent(self, *, resyncs: bool = False) -> list[dict[str, Any]]:
        """Custom messages the views of this model sent to the kernel (JS -> Python), oldest first; without the
        ``resync`` requests (every view sends one when it mounts, and the harness answers it) unless asked."""
        sent = self.chat.page.evaluate("(m) => window.agui.sent(m)", self.model)
        return sent if resyncs else [message for message in sent if message.get("kind") != "resync"]

    def resyncs(self) -> int:
        """How many ``resync`` requests the views of this model sent."""
        return len([m for m in self.sent(resyncs=True) if m.get("kind") == "resync"])

    def kernel_messages(self) -> list[dict[str, Any]]:
        """The harness kernel's conversation (what patches and snapshots delivered so far made of it)."""
        return self.chat.page.evaluate("(m) => window.agui.kernelMessages(m)", self.model)

    def focused(self) -> str:
        """What has the focus: the ``data-agui`` hook of the focused element (``tag.class`` without one), or
        ``body``."""
        return self.chat.page.evaluate(
            """() => { const e = document.activeElement;
              if (!e || e === document.body) return 'body';
              return e.dataset?.agui ?? `${e.tagName.toLowerCase()}.${e.className}`; }"""
        )

    def clear_sent(self) -> None:
        self.chat.page.evaluate("(m) => window.agui.clearSent(m)", self.model)

    def locator(self, selector: str) -> Any:
        return self.root.locator(selector)

    def message(self, index: int) -> Any:
        return self.root.locator(".agui-message").nth(index)

    def overflowing(self, scrolls: str = "") -> list[str]:
        """The classes of the elements that stick out past the widget's right edge (by more than 1 px), leaving
        out those inside ``scrolls`` (a selector of the boxes that scroll sideways on purpose)."""
        return self.root.evaluate(
            """(root, scrolls) => [...root.querySelectorAll('*')]
              .filter((e) => e.getBoundingClientRect().right > root.getBoundingClientRect().right + 1)
              .filter((e) => !scrolls || !e.closest(scrolls))
              .map((e) => e.className)""",
            scrolls,
        )


class ChatPage:
    """A harness page: create fake models, mount views, deliver messages."""

    def __init__(self, page: Any, events: PageEvents) -> None:
        self.page = page
        self.events = events

    def frames(self, count: int = 2) -> None:
        self.page.evaluate("(n) => window.agui.frames(n)", count)

    def settle(self, count: int = 2) -> None:
        """Let the harness kernel answer what the views asked (a resync), then wait ``count`` frames."""
        self.page.evaluate("(n) => window.agui.settle(n)", count)

    def new_model(self, *, answer_resync: bool = True, **state: Any) -> int:
        """A fake model with these traits; ``messages`` is the kernel's conversation, which a view gets in the
        snapshot answering its resync (``answer_resync=False``: the test answers, with ``deliver``)."""
        return self.page.evaluate(
            "([s, o]) => window.agui.create(s, o)", [state, {"answerResync": answer_resync}]
        )

    def mount(self, model: int, *, width: str | None = None) -> Widget:
        view = self.page.evaluate("([m, w]) => window.agui.mount(m, {width: w})", [model, width])
        self.settle()
        return Widget(self, model, view)

    def open(self, *, width: str | None = None, **state: Any) -> Widget:
        """A new model with these traits and one view of it."""
        return self.mount(self.new_model(**state), width=width)

    def evaluate(self, script: str, arg: Any = None) -> Any:
        return self.page.evaluate(script, arg)


def _route_handler(bundle: bytes, theme: str) -> Any:
    page_html = PAGE.format(theme=theme_css(theme), light="true" if theme == "light" else "false")
    files = {
        "/": ("text/html", page_html.encode()),
        "/widget.js": ("text/javascript", bundle),
        "/harness.js": ("text/javascript", HARNESS.read_bytes()),
        "/sync.js": ("text/javascript", SYNC.read_bytes()),
    }
    if AXE.exists():
        files["/axe.min.js"] = ("text/javascript", AXE.read_bytes())

    def handle(route: Any, events: PageEvents) -> None:
        url = route.request.url
        if url.startswith(ORIGIN):
            path = url[len(ORIGIN) :].split("?")[0].split("#")[0] or "/"
            if path in files:
                content_type, body = files[path]
                route.fulfill(status=200, content_type=content_type, body=body)
                return
            route.fulfill(status=404, body=b"")
            return
        events.external_requests.append(url)
        route.abort()

    return handle


class PagePool:
    """Harness pages kept open across tests (one per theme and viewport) and reset between tests.

    Loading a page costs far more than a test; a page a test navigated away from or broke is replaced.
    """

    def __init__(self, browser: Any, bundle: bytes) -> None:
        self.browser = browser
        self.bundle = bundle
        self.pages: dict[tuple[str, int, int], tuple[Any, Any, PageEvents]] = {}

    def load(self, theme: str, width: int, height: int) -> tuple[Any, Any, PageEvents]:
        context = self.browser.new_context(viewport={"width": width, "height": height})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=ORIGIN)
        events = PageEvents()
        handler = _route_handler(self.bundle, theme)
        context.route("**/*", lambda route: handler(route, events))
        context.on("page", lambda page: events.popups.append(page.url))
        page = context.new_page()
        page.set_default_timeout(5000)
        page.on("dialog", lambda dialog: (events.dialogs.append(dialog.message), dialog.dismiss()))
        page.on("pageerror", lambda error: events.errors.append(str(error)))
        page.goto(f"{ORIGIN}/")
        page.wait_for_function("window.aguiReady === true")
        events.popups.clear()
        page.on(
            "framenavigated",
            lambda frame: events.navigations.append(frame.url) if frame == page.main_frame else None,
        )
        return context, page, events

    def get(self, theme: str, width: int, height: int) -> tuple[Any, PageEvents]:
        key = (theme, width, height)
        if key not in self.pages:
            self.pages[key] = self.load(theme, width, height)
        _, page, events = self.pages[key]
        page.evaluate("() => window.agui.reset()")
        for name in ("dialogs", "popups", "navigations", "external_requests", "errors"):
            getattr(events, name).clear()
        return page, events

    def release(self, theme: str, width: int, height: int) -> PageEvents:
        """End a test's use of a page; replace the page if the test left it in a state others must not see."""
        key = (theme, width, height)
        context, _, events = self.pages[key]
        if events.navigations or events.popups or events.errors or events.dialogs:
            context.close()
            del self.pages[key]
        return events

    def close(self) -> None:
        for context, _, _ in self.pages.values():
            context.close()


class BrowserSession:
    """Chromium and the harness pages: started by the first browser test, stopped when the run leaves this folder.

    Playwright's sync API marks an asyncio loop as running in the main thread for as long as it is alive, which
    would stop pytest-asyncio from running the async tests collected after these; so it must not outlive them.
    """

    def __init__(self) -> None:
        self._context: Any = None
        self.pool: PagePool | None = None

    def pages(self, bundle: bytes) -> PagePool:
        if self.pool is None:
            context = chromium_browser()
            browser = context.__enter__()
            self._context = context
            self.pool = PagePool(browser, bundle)
        return self.pool

    def close(self) -> None:
        if self._context is None:
            return
        try:
            if self.pool is not None:
                self.pool.close()
        finally:
            context, self._context, self.pool = self._context, None, None
            context.__exit__(None, None, None)


BROWSER = BrowserSession()
HERE = Path(__file__).resolve().parent


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    yield
    if nextitem is None or HERE not in Path(nextitem.path).resolve().parents:
        BROWSER.close()


def pytest_sessionfinish(session: pytest.Session) -> None:
    BROWSER.close()


@pytest.fixture
def page_pool(widget_bundle: bytes) -> PagePool:
    return BROWSER.pages(widget_bundle)


@pytest.fixture
def open_chat(page_pool: PagePool) -> Iterator[Any]:
    """Factory: ``open_chat(theme="light")`` -> a fresh ChatPage; pages are checked for errors at teardown."""
    used: list[tuple[str, int, int]] = []

    def factory(theme: str = "light", width: int = 900, height: int = 800) -> ChatPage:
        page, events = page_pool.get(theme, width, height)
        used.append((theme, width, height))
        return ChatPage(page, events)

    yield factory
    for key in used:
        events = page_pool.release(*key)
        assert events.errors == [], f"uncaught errors in the page: {events.errors}"


@pytest.fixture
def chat(open_chat: Any) -> ChatPage:
    """A harness page in JupyterLab's light theme."""
    return open_chat("light")
