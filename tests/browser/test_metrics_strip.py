"""The live metrics strip under an answer (js/src/metrics_strip.js), in Chromium (screenshots in tests/artifacts).

The numbers are the kernel's (widget/_metrics.py's RunMetrics over a scripted stream), set as the trait is.
"""

from __future__ import annotations

from typing import Any

import pytest

from agui_notebook.widget._metrics import RunMetrics

pytestmark = pytest.mark.browser

BASE_NS = 1_767_000_000_000_000_000


def _user(message_id: str = "u1", text: str = "Weather in Paris?") -> dict[str, Any]:
    return {"id": message_id, "role": "user", "parts": [{"type": "text", "text": text}]}


def _answer(message_id: str, text: str, state: str = "done") -> dict[str, Any]:
    return {"id": message_id, "role": "assistant", "parts": [{"type": "text", "text": text, "state": state}]}


def patch(seq: int, *ops: list) -> dict:
    return {"kind": "patch", "seq": seq, "ops": list(ops)}


def _stream(gaps_ms: list[float], usage: int | None = None) -> list[tuple[int, dict[str, Any]]]:
    """RUN_STARTED, a first chunk 320 ms later, then one chunk after each gap, then RUN_FINISHED."""
    ns = BASE_NS
    events: list[tuple[int, dict[str, Any]]] = [(ns, {"type": "RUN_STARTED"})]
    ns += 320_000_000
    events.append((ns, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Paris is "}))
    for gap in gaps_ms:
        ns += round(gap * 1_000_000)
        events.append((ns, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "sunny "}))
    finished: dict[str, Any] = {"type": "RUN_FINISHED"}
    if usage is not None:
        finished["usage"] = [{"outputTokens": usage}]
    events.append((ns + 40_000_000, finished))
    return events


def _metrics(events: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    metrics = RunMetrics()
    for ns, event in events:
        metrics.add(ns, event)
    return metrics.summary()


def _strip(widget: Any, index: int) -> Any:
    return widget.message(index).locator("[data-agui=metrics]")


def _items(strip: Any) -> dict[str, str]:
    return strip.evaluate(
        "(el) => Object.fromEntries([...el.querySelectorAll('[data-metric]:not([data-metric=gaps])')].map((n) =>"
        " [n.dataset.metric,"
        " n.textContent]))"
    )


GAPS = [30, 45, 20, 260, 35, 40, 25, 30]


def test_the_strip_shows_the_numbers_and_updates_while_the_answer_streams(chat: Any) -> None:
    events = _stream(GAPS, usage=24)
    widget = chat.open(messages=[_user()], show_metrics=True)
    widget.deliver(patch(1, ["status", "streaming", ""], ["m", 1, _answer("a1", "Paris is", "streaming")]))
    strip = _strip(widget, 1)
    assert strip.is_hidden()  # nothing measured yet
    shown = []
    for upto in (3, 6, len(events) - 1):  # part of the stream, then all chunks, still running
        widget.set("message_metrics", {"a1": _metrics(events[:upto])})
        assert strip.is_visible()
        shown.append(
            (
                _items(strip),
                strip.locator("[data-agui=metrics-sparkline] rect").count(),
                strip.get_attribute("data-running"),
            )
        )
    # 2 chunks 30 ms apart, 15 characters: (15 / 4 - 1) estimated tokens in 0.03 s
    assert shown[0] == ({"ttft": "TTFT 320 ms", "tokens": "~91.7 tok/s (est.)", "chunks": "33.3 chunks/s",
                         "duration": "350 ms so far"}, 1, "true")  # fmt: skip
    assert (shown[1][1], shown[1][0]["duration"]) == (4, "675 ms so far")
    assert shown[2][1] == len(GAPS)
    widget.set("message_metrics", {"a1": _metrics(events)})  # RUN_FINISHED with usage
    # 9 chunks over 485 ms, 24 tokens reported: (24 - 1) / 0.485 tok/s, 8 / 0.485 chunks/s
    assert _items(strip) == {"ttft": "TTFT 320 ms", "tokens": "47.4 tok/s", "chunks": "16.5 chunks/s",
                             "duration": "total 845 ms"}  # fmt: skip
    assert strip.get_attribute("data-running") == "false"
    label = strip.get_attribute("aria-label")
    assert label == (
        "Answer metrics: time to first token 320 ms, 47.4 tokens per second, 16.5 chunks per second,"
        " total 845 ms, 8 inter-chunk gaps, longest 260 ms"
    )
    # The bars: the longest gap is the tallest bar, full height.
    heights = strip.locator("rect").evaluate_all(
        "(bars) => bars.map((b) => Number(b.getAttribute('height')))"
    )
    assert heights.index(max(heights)) == GAPS.index(max(GAPS)) and max(heights) == 14
    assert widget.message(0).locator("[data-agui=metrics]").is_hidden()  # user messages have none


def test_the_strip_is_hidden_when_show_metrics_is_off(chat: Any) -> None:
    metrics = {"a1": _metrics(_stream(GAPS))}
    widget = chat.open(messages=[_user(), _answer("a1", "Sunny.")], message_metrics=metrics)
    strip = _strip(widget, 1)
    assert strip.is_hidden()
    widget.set("show_metrics", True)
    assert strip.is_visible()
    widget.set("show_metrics", False)
    assert strip.is_hidden()


def test_a_long_stream_draws_at_most_sixty_bars(chat: Any) -> None:
    metrics = _metrics(_stream([10 + (i % 7) * 5 for i in range(500)]))
    assert metrics["gaps_per_bar"] == 16
    widget = chat.open(
        messages=[_user(), _answer("a1", "Done.")], show_metrics=True, message_metrics={"a1": metrics}
    )
    sparkline = _strip(widget, 1).locator("[data-agui=metrics-sparkline]")
    assert sparkline.locator("rect").count() == len(metrics["gaps_s"]) <= 60
    assert (
        sparkline.locator("title").text_content()
        == "500 inter-chunk gaps, each bar the longest of 16; longest 40 ms"
    )


# ---------------------------------------------------------------------------------------------- screenshots


@pytest.mark.parametrize(("theme", "width"), [("light", 760), ("dark", 760), ("light", 360), ("dark", 360)])
def test_metrics_strip_screenshot(open_chat: Any, artifacts_dir: Any, theme: str, width: int) -> None:
    chat = open_chat(theme, width=width + 60, height=900)
    first = _metrics(_stream(GAPS, usage=24))
    second = _metrics(_stream([40, 35, 30, 900, 30, 25, 20, 30, 35, 45, 30, 25] * 8)[:-1])  # still streaming
    widget = chat.open(
        messages=[
            _user(),
            _answer("a1", "Paris is sunny, 21 °C, with a light breeze from the west."),
            _user("u2", "And tomorrow?"),
            _answer("a2", "Tomorrow looks cloudier, with showers in the", "streaming"),
        ],
        show_metrics=True,
        message_metrics={"a1": first, "a2": second},
        width=f"{width}px",
        height="auto",
    )
    chat.frames()
    assert widget.overflowing() == []
    strip = _strip(widget, 1)
    style = strip.evaluate(
        "(el) => { const s = getComputedStyle(el); return [s.display, s.flexWrap, s.columnGap]; }"
    )
    assert style == ["flex", "wrap", "10px"]  # the strip's own rules apply at every width
    path = artifacts_dir / f"metrics-strip-{theme}-{width}.png"
    widget.root.screenshot(path=str(path), animations="disabled")
    assert path.stat().st_size > 5_000
