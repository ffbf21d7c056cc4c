"""A view whose kernel is gone (js/src/connection.js): it says so, sends nothing and keeps what was typed."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

NOT_CONNECTED = "Not connected — run the cell again"


def _disconnect(chat, widget) -> None:
    """What ipywidgets does to a view whose comm is no longer live (after a kernel restart, or saved state)."""
    chat.evaluate("(v) => window.agui.host(v).classList.add('jupyter-widgets-disconnected')", widget.view)


def test_enter_without_a_kernel_keeps_the_text_and_says_why(chat):
    widget = chat.open()
    _disconnect(chat, widget)
    box = widget.locator("[data-agui=input]")
    box.fill("Are you there?")
    box.press("Enter")
    chat.frames()
    assert widget.sent() == []
    assert box.input_value() == "Are you there?"
    assert widget.locator("[data-agui=status]").inner_text() == NOT_CONNECTED
    assert widget.locator("[data-agui=notice]").inner_text() == "Not sent: your text is kept."
    assert widget.root.get_attribute("data-connection") == "lost"
    assert widget.root.get_attribute("data-status") == "ready"  # the kernel's last word, kept as it was


def test_a_connected_view_sends_as_before(chat):
    widget = chat.open()
    assert widget.root.get_attribute("data-connection") == "live"
    assert widget.locator("[data-agui=status]").inner_text() == "Ready"
    box = widget.locator("[data-agui=input]")
    box.fill("Hello")
    box.press("Enter")
    assert widget.sent() == [{"kind": "send", "text": "Hello", "files": []}]
    assert box.input_value() == ""


def test_the_static_copy_beside_a_live_view_is_hidden(chat):
    """The rule a live view adds to the page: the saved copy in the next output of the same cell goes."""
    chat.evaluate(
        """() => {
          const area = document.createElement('div');
          area.innerHTML = `
            <div class="jp-OutputArea-child" id="widget-output"></div>
            <div class="jp-OutputArea-child" id="copy-output"><div class="agui-static">saved copy</div></div>
            <div class="jp-OutputArea-child" id="other-copy"><div class="agui-static">another chat</div></div>`;
          document.getElementById('root').append(area);
        }"""
    )
    assert chat.page.locator("#copy-output").is_visible()
    # Mounted first, then moved where JupyterLab puts it (the output before the copy).
    view = chat.evaluate("() => window.agui.mount(window.agui.create({}), {})")
    chat.evaluate("(v) => document.getElementById('widget-output').append(window.agui.host(v))", view)
    chat.frames()
    assert not chat.page.locator("#copy-output").is_visible()
    assert chat.page.locator("#other-copy").is_visible()  # not the copy beside this view
