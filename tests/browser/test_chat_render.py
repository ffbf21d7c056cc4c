"""Rendering: every part kind with its hooks, markdown, tools in every state, metadata, errors and traits."""

from __future__ import annotations

import json

import pytest

from tests.browser.chat_samples import AGUI_METADATA, WEATHER_DATA, conversation, every_part_kind

pytestmark = pytest.mark.browser

TOOL_STATES = {
    "input-streaming": ("Preparing", {"input": {"city": "Par"}}),
    "input-available": ("Running", {"input": {"city": "Paris"}}),
    "approval-requested": ("Needs approval", {"input": {}, "approval": {"id": "ap"}}),
    "approval-responded": ("Approved", {"input": {}, "approval": {"id": "ap", "approved": True}}),
    "output-available": ("Done", {"input": {}, "output": {"ok": True}}),
    "output-error": ("Error", {"input": {}, "errorText": "boom"}),
    "output-denied": ("Denied", {"input": {}, "approval": {"id": "ap", "approved": False, "reason": "no"}}),
}


def test_every_part_kind_renders_with_its_hook(chat):
    widget = chat.open(messages=every_part_kind())
    message = widget.message(0)
    assert message.get_attribute("data-role") == "assistant"
    assert message.get_attribute("data-message-id") == "m1"
    types = message.locator("[data-part-type]").evaluate_all("(els) => els.map((e) => e.dataset.partType)")
    assert types == [part["type"] for part in every_part_kind()[0]["parts"]]

    assert message.locator("[data-part-type=text] strong").inner_text() == "world"
    assert (
        message.locator("[data-part-type='tool-get_weather']").get_attribute("data-tool-state")
        == "input-available"
    )
    assert message.locator("[data-part-type='dynamic-tool'] .agui-tool-name").inner_text() == "search"
    assert (
        message.locator("[data-part-type='dynamic-tool'] [data-agui=tool-error]").text_content()
        == "timeout after 30 s"
    )
    source = message.locator("[data-part-type=source-url] a")
    assert source.get_attribute("href") == "https://example.com/a"
    assert source.get_attribute("target") == "_blank"
    assert source.get_attribute("rel") == "noopener noreferrer"
    assert message.locator("[data-part-type=source-document]").inner_text().startswith("Notes")
    files = message.locator("[data-part-type=file]")
    assert files.evaluate_all("(els) => els.map((e) => e.dataset.preview)") == [
        "image",
        "audio",
        "video",
        "download",
    ]
    assert files.nth(0).locator("img").get_attribute("src").startswith("data:image/png;base64,")
    assert files.nth(1).locator("audio").get_attribute("src").startswith("data:audio/wav;base64,")
    download = files.nth(3).locator("a")
    assert download.get_attribute("download") == "r.pdf"
    assert download.get_attribute("href") == "data:application/pdf;base64,JVBERi0="
    assert message.locator("[data-part-type=reasoning-file] img").count() == 1
    data = message.locator("[data-part-type=data-weather]")
    assert data.locator(".agui-data-name").inner_text() == "weather"
    assert data.locator("pre").text_content() == json.dumps({"tempC": 18}, indent=2)
    custom = message.locator("[data-part-type=custom]")
    assert custom.locator(".agui-data-name").inner_text() == "openai.compaction"
    assert json.loads(custom.locator("pre").text_content()) == {"openai": {"itemId": "x1"}}
    assert (
        message.locator("[data-part-type=steering-message]").inner_text() == "Steering message\nfocus on rain"
    )
    assert json.loads(message.locator("[data-part-type=future-kind] pre").text_content()) == {"value": 1}
    step = message.locator("[data-part-type=step-start]")
    assert step.get_attribute("role") == "separator"
    assert not step.is_visible()  # a step separator before anything else is not drawn


def test_conversation_markdown_tools_sources_and_metadata(chat):
    widget = chat.open(messages=conversation(), title="Weather agent")
    roles = widget.locator(".agui-message").evaluate_all(
        "(els) => els.map((e) => [e.dataset.role, e.dataset.messageId])"
    )
    assert roles == [["user", "u1"], ["assistant", "a1"], ["user", "u2"], ["assistant", "a2"]]
    assert widget.locator("[data-agui=title]").inner_text() == "Weather agent"

    answer = widget.message(1)
    text = answer.locator("[data-part-type=text]")
    assert text.locator("h2").inner_text() == "Paris today"
    assert text.locator("table tr").count() == 3
    assert text.locator("li").all_inner_texts() == ["Take an umbrella", "Trains run normally"]
    link = text.locator("a")
    assert link.get_attribute("href") == "https://meteofrance.com/"
    assert link.get_attribute("target") == "_blank"
    assert link.get_attribute("rel") == "noopener noreferrer"
    code = text.locator(".agui-code")
    assert code.locator(".agui-code-language").inner_text() == "python"
    assert code.locator("pre").text_content() == 'forecast = get_weather("Paris")\nprint(forecast["tempC"])\n'
    assert code.locator("[data-agui=copy-code]").count() == 1
    assert text.locator("blockquote").inner_text() == "Forecasts beyond 48 h are less reliable."

    reasoning = answer.locator("[data-part-type=reasoning]")
    assert reasoning.locator(".agui-reasoning-label").inner_text() == "Reasoning · 13 words"
    assert reasoning.get_attribute("open") is None
    tool = answer.locator("[data-part-type='tool-get_weather']")
    assert tool.get_attribute("data-tool-state") == "output-available"
    assert tool.locator("[data-agui=tool-state]").inner_text() == "Done"
    assert tool.locator(".agui-tool-input pre").text_content() == json.dumps(
        {"city": "Paris", "units": "metric"}, indent=2
    )
    assert json.loads(tool.locator(".agui-tool-output pre").text_content())["sky"] == "cloudy"
    assert answer.locator("[data-part-type=data-weather] pre").text_content() == json.dumps(
        WEATHER_DATA, indent=2
    )

    meta = answer.locator("[data-agui=meta]")
    assert meta.text_content() == "gpt-4.1-mini · 1,234 in · 456 out · 128 reasoning · 3 s"
    title = meta.get_attribute("title")
    assert "Model: gpt-4.1-mini" in title and "Run: run-1" in title and "Duration: 3.40 s" in title
    assert (
        sum(u["totalTokens"] for u in AGUI_METADATA["ag-ui"]["usage"]) == 1818
        and "totalTokens: 1,818" in title
    )

    pending = widget.message(3)
    assert pending.locator("[data-agui=encrypted]").is_visible()
    assert pending.locator(".agui-reasoning-label").inner_text() == "Encrypted reasoning"
    approval_tool = pending.locator("[data-part-type=dynamic-tool]")
    assert approval_tool.get_attribute("data-tool-state") == "approval-requested"
    assert approval_tool.get_attribute("open") == ""
    assert approval_tool.locator("[data-agui=approve]").is_visible()
    assert approval_tool.locator("[data-agui=deny]").is_visible()
    assert (
        approval_tool.locator(".agui-approval-text").inner_text() == "Approval needed: Deletes 2 directories"
    )
    # Every answer has Regenerate (tests/browser/test_branches.py); user messages have none.
    assert widget.locator("[data-agui=regenerate]:visible").count() == 2
    assert widget.locator(".agui-message[data-role=user] [data-agui=regenerate]:visible").count() == 0
    assert pending.locator("[data-agui=regenerate]").is_visible()
    assert widget.locator("[data-agui=status]").inner_text() == "Waiting for your approval"  # the last asks


@pytest.mark.parametrize("state", list(TOOL_STATES))
def test_tool_badge_for_every_state(chat, state):
    label, extra = TOOL_STATES[state]
    part = {"type": "tool-lookup", "toolCallId": "c", "state": state, **extra}
    widget = chat.open(messages=[{"id": "a", "role": "assistant", "parts": [part]}])
    tool = widget.locator("[data-part-type=tool-lookup]")
    assert tool.get_attribute("data-tool-state") == state
    assert tool.locator("[data-agui=tool-state]").inner_text() == label
    approve = tool.locator("[data-agui=approve]")
    assert approve.is_visible() == (state == "approval-requested")


def test_run_errors_show_as_banners(chat):
    failed = {
        "id": "a",
        "role": "assistant",
        "metadata": {"ag-ui": {"error": {"message": "rate limited", "code": "429"}, "outcome": "error"}},
        "parts": [{"type": "text", "text": "partial", "state": "done"}],
    }
    widget = chat.open(messages=[failed], status="error", error="Agent run failed: rate limited")
    assert widget.locator("[data-agui=message-error]").inner_text() == "rate limited (429)"
    banner = widget.locator("[data-agui=error]")
    assert banner.is_visible() and banner.inner_text() == "Agent run failed: rate limited"
    assert widget.locator("[data-agui=status]").inner_text() == "Error"
    widget.set("error", "")
    assert not banner.is_visible()


def test_traits_title_placeholder_height_theme_and_reasoning(chat):
    widget = chat.open(messages=conversation(), height=300, placeholder="Ask the weather agent")
    assert widget.root.evaluate("(e) => e.getBoundingClientRect().height") == 300
    assert widget.locator("[data-agui=input]").get_attribute("placeholder") == "Ask the weather agent"
    assert not widget.locator(".agui-header").is_visible()
    widget.set("height", "12rem")
    assert widget.root.evaluate("(e) => e.getBoundingClientRect().height") == 192
    widget.set("title", "Agent")
    assert widget.locator(".agui-header").is_visible()
    assert widget.root.get_attribute("data-theme") == "auto"
    widget.set("theme", "dark")
    assert widget.root.get_attribute("data-theme") == "dark"
    assert widget.root.evaluate("(e) => getComputedStyle(e).backgroundColor") == "rgb(33, 33, 33)"
    widget.set("theme", "light")
    assert widget.root.evaluate("(e) => getComputedStyle(e).backgroundColor") == "rgb(255, 255, 255)"
    assert widget.locator("[data-part-type=reasoning]").first.is_visible()
    widget.set("show_reasoning", False)
    assert (
        widget.locator("[data-part-type=reasoning]").evaluate_all(
            "(els) => els.filter((e) => e.offsetParent).length"
        )
        == 0
    )


def test_auto_theme_follows_jupyterlab_dark(open_chat):
    dark = open_chat("dark")
    widget = dark.open(messages=conversation())
    assert widget.root.get_attribute("data-jp") == "yes"
    # JupyterLab dark's --jp-layout-color1 is #212121.
    assert widget.root.evaluate("(e) => getComputedStyle(e).backgroundColor") == "rgb(33, 33, 33)"


def test_styles_hold_against_jupyterlab_container_rules(chat):
    # The harness page carries JupyterLab's `.jp-ThemedContainer button/a/pre` rules, as the real shell does.
    widget = chat.open(messages=conversation())
    send = widget.locator("[data-agui=send]")
    assert send.evaluate("(e) => getComputedStyle(e).borderRadius") == "50%"
    link = widget.message(1).locator("[data-part-type=text] a")
    assert link.evaluate("(e) => getComputedStyle(e).color") == "rgb(13, 71, 161)"  # --jp-content-link-color
    tool_json = widget.locator(".agui-tool-input pre").first
    assert tool_json.evaluate("(e) => getComputedStyle(e).fontSize") == "12px"


def test_view_rendered_detached_settles_when_attached(chat):
    # anywidget calls render() before the element is in the page: no theme variables, no size to scroll in.
    messages = conversation() * 5
    for index, message in enumerate(messages):
        message = message.copy()
        message["id"] = f"m{index}"
        messages[index] = message
    model = chat.new_model(messages=messages, height=400)
    view = chat.evaluate("(m) => window.agui.mount(m, {detached: true})", model)
    chat.frames()
    chat.evaluate("(v) => window.agui.attach(v)", view)
    chat.frames(4)
    root = chat.page.locator(".agui-chat")
    assert root.get_attribute("data-jp") == "yes"
    gap = root.locator(".agui-messages").evaluate("(e) => e.scrollHeight - e.scrollTop - e.clientHeight")
    assert gap <= 1  # the newest message is in view


def test_css_injected_once_per_document(chat):
    chat.open(messages=conversation())
    chat.open(messages=conversation())
    assert chat.evaluate("() => document.querySelectorAll('style#agui-notebook-chat-style').length") == 1


def test_malformed_messages_and_parts_render_as_data(chat):
    widget = chat.open(
        messages=[None, {"id": "x", "role": "user", "parts": [None, 5, {"type": "text", "text": "ok"}]}]
    )
    types = widget.locator(".agui-message").evaluate_all(
        "(els) => els.map((m) => [...m.querySelectorAll('[data-part-type]')].map((p) => p.dataset.partType))"
    )
    assert types == [["invalid-message"], ["invalid-part", "invalid-part", "text"]]
    assert widget.message(1).locator("[data-part-type=text]").inner_text() == "ok"
