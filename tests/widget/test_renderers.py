"""Python renderers: what each kind of output becomes, when renderers run, and how failures stay in their part."""

from __future__ import annotations

import asyncio
import base64
import io
import time
from collections.abc import AsyncIterator
from typing import Any

import ipywidgets
import matplotlib
import pandas as pd
import pytest
from IPython.display import HTML, SVG, Markdown
from PIL import Image

from agui_notebook import OptionError, RendererOutputError
from agui_notebook.widget._chat import ChatWidget
from agui_notebook.widget._renderers import (
    MAX_TABLE_COLUMNS,
    MAX_TABLE_ROWS,
    TABLE_MIME,
    WIDGET_MIME,
    output_bundle,
    part_key,
)
from agui_notebook.widget._static_html import static_html
from tests.widget.front_end import FrontEnd

matplotlib.use("Agg")
from matplotlib.figure import Figure

PNG = b"\x89PNG\r\n\x1a\n"


def png_bytes(value: str) -> bytes:
    return base64.b64decode(value)


# ---------------------------------------------------------------------------------------------- the one rule


def test_a_dataframe_is_a_bounded_table() -> None:
    frame = pd.DataFrame({f"c{i}": range(80) for i in range(25)})
    bundle = output_bundle(frame)
    table = bundle[TABLE_MIME]
    assert table["columns"] == [f"c{i}" for i in range(MAX_TABLE_COLUMNS)]
    assert len(table["rows"]) == MAX_TABLE_ROWS
    assert table["rows"][3][:3] == [3, 3, 3]
    assert (table["rowCount"], table["columnCount"], table["indexColumns"]) == (80, 25, 0)
    assert "text/plain" in bundle


def test_a_dataframe_keeps_a_named_index_and_writes_cells_as_json() -> None:
    frame = pd.DataFrame(
        {"temp": [21.5, float("nan")], "at": pd.to_datetime(["2026-12-01", "2026-12-02"])},
        index=pd.Index(["Paris", "Oslo"], name="city"),
    )
    table = output_bundle(frame)[TABLE_MIME]
    assert table["columns"] == ["city", "temp", "at"]
    assert table["rows"] == [["Paris", 21.5, "2026-12-01T00:00:00"], ["Oslo", None, "2026-12-02T00:00:00"]]
    assert table["indexColumns"] == 1


def test_a_series_is_a_one_column_table() -> None:
    table = output_bundle(pd.Series([1, 2], name="n"))[TABLE_MIME]
    assert (table["columns"], table["rows"]) == (["n"], [[1], [2]])


def test_a_matplotlib_figure_is_a_png() -> None:
    figure = Figure(figsize=(2, 1))
    figure.add_subplot().plot([1, 2, 3])
    bundle = output_bundle(figure)
    assert png_bytes(bundle["image/png"]).startswith(PNG)


def test_a_pil_image_is_a_png() -> None:
    bundle = output_bundle(Image.new("RGB", (4, 3), "red"))
    image = Image.open(io.BytesIO(png_bytes(bundle["image/png"])))
    assert (image.format, image.size) == ("PNG", (4, 3))
    cmyk = output_bundle(Image.new("CMYK", (2, 2)))  # modes PNG cannot hold are converted
    assert png_bytes(cmyk["image/png"]).startswith(PNG)


def test_html_and_markdown_keep_their_types() -> None:
    assert output_bundle(HTML("<b>hot</b>"))["text/html"] == "<b>hot</b>"
    assert output_bundle(Markdown("**hot**"))["text/markdown"] == "**hot**"


def test_svg_travels_as_base64_for_an_img() -> None:
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>'
    bundle = output_bundle(SVG(svg))
    assert base64.b64decode(bundle["image/svg+xml"]).decode() == svg


class Bundle:
    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        return (
            {"application/javascript": "alert(1)", "text/markdown": "*md*", "text/plain": "plain"},
            {"text/markdown": {}},
        )


class OnlyUnsafe:
    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        return {"application/javascript": "alert(1)"}

    def _repr_html_(self) -> str:
        return "<i>fallback</i>"


class Reprs:
    def __init__(self, **methods: Any) -> None:
        for name, value in methods.items():
            setattr(self, f"_repr_{name}_", lambda value=value: value)

    def __repr__(self) -> str:
        return "Reprs()"


def test_a_mimebundle_gives_its_best_safe_type() -> None:
    assert output_bundle(Bundle()) == {"text/markdown": "*md*", "text/plain": "plain"}
    unsafe = output_bundle(OnlyUnsafe())  # nothing safe in its bundle: the next rich repr
    assert unsafe["text/html"] == "<i>fallback</i>" and "application/javascript" not in unsafe


@pytest.mark.parametrize(
    ("methods", "mime", "value"),
    [
        ({"html": "<p>x</p>", "png": PNG}, "text/html", "<p>x</p>"),
        ({"html": None, "markdown": "# x"}, "text/markdown", "# x"),
        ({"png": PNG}, "image/png", base64.b64encode(PNG).decode()),
        ({"jpeg": b"\xff\xd8\xff"}, "image/jpeg", base64.b64encode(b"\xff\xd8\xff").decode()),
        ({"png": (PNG, {"width": 3})}, "image/png", base64.b64encode(PNG).decode()),
    ],
)
def test_rich_reprs_in_their_order(methods: dict[str, Any], mime: str, value: str) -> None:
    assert output_bundle(Reprs(**methods)) == {mime: value, "text/plain": "Reprs()"}


def test_plain_values() -> None:
    assert output_bundle("21 °C") == {"text/plain": "21 °C"}
    assert output_bundle({"t": 21, "at": pd.Timestamp("2026-12-01")}) == {
        "application/json": {"t": 21, "at": "2026-12-01T00:00:00"}
    }
    assert output_bundle(42) == {"text/plain": "42"}
    assert output_bundle(None) is None


def test_an_ipywidget_is_a_widget_view() -> None:
    slider = ipywidgets.IntSlider(3)
    bundle = output_bundle(slider)
    assert bundle[WIDGET_MIME]["model_id"] == slider.model_id
    assert bundle[WIDGET_MIME]["version_major"] == 2


def test_an_output_too_large_is_refused() -> None:
    with pytest.raises(RendererOutputError, match="MB a part may show"):
        output_bundle(HTML("x" * 5_000_000))


# ---------------------------------------------------------------------------------------------- the widget


def activity_run(deltas: int = 0, pause: float = 0.0, activity: str = "weather") -> Any:
    """An async agent: an activity snapshot, then ``deltas`` ACTIVITY_DELTA events ``pause`` s apart, then text."""

    async def agent(run_input: Any) -> AsyncIterator[dict[str, Any]]:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {
            "type": "ACTIVITY_SNAPSHOT",
            "messageId": "act-1",
            "activityType": activity,
            "content": {"city": "Paris", "temp": 0},
        }
        for n in range(1, deltas + 1):
            await asyncio.sleep(pause)
            yield {
                "type": "ACTIVITY_DELTA",
                "messageId": "act-1",
                "activityType": activity,
                "patch": [{"op": "replace", "path": "/temp", "value": n}],
            }
        yield {"type": "TEXT_MESSAGE_START", "messageId": "t1", "role": "assistant"}
        yield {"type": "TEXT_MESSAGE_CONTENT", "messageId": "t1", "delta": "Done."}
        yield {"type": "TEXT_MESSAGE_END", "messageId": "t1"}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_input.run_id}

    return agent


def the_key(chat: ChatWidget, part_type: str = "data-weather") -> str:
    message = chat.messages[-1]
    index = next(i for i, p in enumerate(message["parts"]) if p["type"] == part_type)
    return part_key(message["id"], index)


async def test_a_renderer_output_travels_in_the_rendered_trait_not_in_messages() -> None:
    chat = ChatWidget(activity_run())
    view = FrontEnd(chat)
    seen = []

    @chat.renderer("data-weather")
    def weather(part: dict[str, Any]) -> Any:
        seen.append(part)
        return pd.DataFrame([part["data"]])

    assert await chat.send_message("Weather?") == "success"
    key = the_key(chat)
    assert chat.rendered[key]["type"] == "data-weather"
    assert chat.rendered[key]["data"][TABLE_MIME]["rows"] == [["Paris", 0]]
    assert seen[-1] == {"type": "data-weather", "id": "act-1", "data": {"city": "Paris", "temp": 0}}
    assert all(set(p) <= {"type", "id", "data", "providerMetadata"} for p in chat.messages[-1]["parts"][:1])
    assert view.trait_updates("rendered")[-1] == chat.rendered
    assert chat.warnings == []


async def test_a_renderer_that_returns_none_keeps_the_default_view() -> None:
    answers: list[Any] = ["shown", None]
    chat = ChatWidget(activity_run(), renderers={"data-weather": lambda part: answers[0]})
    await chat.send_message("Weather?")
    assert chat.rendered[the_key(chat)]["data"] == {"text/plain": "shown"}
    answers[0] = None
    chat.renderer("data-weather")(lambda part: None)  # registering again renders again
    assert chat.rendered == {}


async def test_a_failing_renderer_shows_in_its_part_once_in_warnings_and_the_run_succeeds() -> None:
    calls = []

    def broken(part: dict[str, Any]) -> Any:
        calls.append(part["data"]["temp"])
        return 1 / 0

    chat = ChatWidget(activity_run(deltas=12, pause=0.04), renderers={"data-weather": broken})
    assert await chat.send_message("Weather?") == "success"
    entry = chat.rendered[the_key(chat)]
    assert entry["error"] == "ZeroDivisionError: division by zero"
    assert "Traceback" in entry["traceback"] and "1 / 0" in entry["traceback"]
    assert len(calls) >= 2  # rendered again as the part changed...
    failures = [w for w in chat.warnings if "ZeroDivisionError" in w]
    assert failures == [
        f"renderer for 'data-weather' (part {the_key(chat)}): ZeroDivisionError: division by zero"
    ]
    assert chat.status == "ready" and chat.messages[-1]["parts"][-1]["text"] == "Done."


async def test_renders_are_throttled_while_a_part_streams_and_the_last_state_is_rendered() -> None:
    temps = []

    def weather(part: dict[str, Any]) -> str:
        temps.append(part["data"]["temp"])
        return f"{part['data']['temp']} °C"

    chat = ChatWidget(activity_run(deltas=40, pause=0.025), renderers={"data-weather": weather})
    started = time.monotonic()
    await chat.send_message("Weather?")
    elapsed = time.monotonic() - started
    # 40 changes over about a second: one render at once, then at most one every 250 ms, then the final one.
    print("throttled renders", temps, f"{elapsed:.2f} s")
    assert 3 <= len(temps) <= 2 + elapsed / 0.25, (temps, elapsed)
    assert temps[-1] == 40 and temps == sorted(temps)
    assert chat.rendered[the_key(chat)]["data"] == {"text/plain": "40 °C"}


async def test_a_streaming_tool_call_is_rendered_with_its_arguments_parsed() -> None:
    async def agent(run_input: Any) -> AsyncIterator[dict[str, Any]]:
        yield {"type": "RUN_STARTED", "threadId": run_input.thread_id, "runId": run_input.run_id}
        yield {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "get_weather"}
        for piece in ['{"ci', 'ty": "Pa', 'ris", "units"', ': "metric"}']:
            await asyncio.sleep(0.1)
            yield {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": piece}
        yield {"type": "TOOL_CALL_END", "toolCallId": "c1"}
        yield {"type": "TOOL_CALL_RESULT", "messageId": "r1", "toolCallId": "c1", "content": '{"temp": 21}'}
        yield {"type": "RUN_FINISHED", "threadId": run_input.thread_id, "runId": run_input.run_id}

    seen: list[tuple[str, Any]] = []

    def card(part: dict[str, Any]) -> str:
        seen.append((part["state"], part.get("input")))
        return str(part.get("output", part.get("input")))

    chat = ChatWidget(agent, renderers={"tool-get_weather": card})
    await chat.send_message("Weather?")
    assert seen[0][0] == "input-streaming"
    partial = [i for state, i in seen if state == "input-streaming" and i is not None]
    assert partial and partial[-1]["city"] in ("Pa", "Paris")  # the partial arguments, parsed as they stream
    assert seen[-1] == ("output-available", {"city": "Paris", "units": "metric"})
    assert chat.rendered[the_key(chat, "tool-get_weather")]["data"] == {"text/plain": "{'temp': 21}"}


async def test_an_unchanged_part_is_not_rendered_again() -> None:
    chat = ChatWidget(activity_run(), renderers={"data-weather": lambda part: "x"})
    await chat.send_message("Weather?")
    calls = chat._renderers.calls
    assert calls == 1
    await chat.send_message("Again")  # a new answer: its own part renders; the first one does not again
    assert chat._renderers.calls == calls + 1
    assert len(chat.rendered) == 2


async def test_a_slow_renderer_does_not_wedge_the_kernel() -> None:
    def slow(part: dict[str, Any]) -> str:
        time.sleep(0.1)
        return str(part["data"]["temp"])

    chat = ChatWidget(activity_run(deltas=60, pause=0.02), renderers={"data-weather": slow})
    gaps = []

    async def ticker() -> None:
        last = time.monotonic()
        while True:
            await asyncio.sleep(0.01)
            now = time.monotonic()
            gaps.append(now - last)
            last = now

    tick = asyncio.create_task(ticker())
    started = time.monotonic()
    await chat.send_message("Weather?")
    elapsed = time.monotonic() - started
    tick.cancel()
    calls = chat._renderers.calls
    # 100 ms a call: at most one call every 400 ms (4x its cost), so the loop is free most of the time.
    assert calls <= 2 + elapsed / 0.4, (calls, elapsed)
    print(f"slow renderer: {calls} calls in {elapsed:.2f} s, longest loop gap {max(gaps) * 1000:.0f} ms")
    assert max(gaps) < 0.35
    assert chat.rendered[the_key(chat)]["data"] == {"text/plain": "60"}


async def test_unregister_with_del_or_none() -> None:
    chat = ChatWidget(
        activity_run(),
        renderers={"data-weather": lambda part: "x", "data-plan": "export function render() {}"},
    )
    await chat.send_message("Weather?")
    assert len(chat.rendered) == 1 and set(chat.renderers) == {"data-weather", "data-plan"}
    del chat.renderers["data-weather"]
    assert chat.rendered == {} and "data-weather" not in chat.renderers
    chat.renderer("data-plan")(None)
    assert chat.frontend_renderers == {} and len(chat.renderers) == 0
    with pytest.raises(KeyError):
        del chat.renderers["data-plan"]


def test_front_end_renderers_are_module_sources(tmp_path: Any) -> None:
    module = tmp_path / "plan.js"
    module.write_text("export function render({ part, el }) { el.textContent = 'plan'; }")
    chat = ChatWidget(None, renderers={"data-plan": module, "custom": "export function render() {}"})
    assert chat.frontend_renderers == {
        "data-plan": module.read_text(),
        "custom": "export function render() {}",
    }
    assert chat.renderers["data-plan"] == module.read_text()
    chat.renderers["data-plan"] = lambda part: "python now"  # one renderer per type: the last one wins
    assert chat.frontend_renderers == {"custom": "export function render() {}"}


def test_built_in_renderers_can_be_turned_off() -> None:
    assert ChatWidget(None).builtin_renderers is True
    assert ChatWidget(None, builtin_renderers=False).builtin_renderers is False


def test_a_renderer_that_is_no_function_is_refused() -> None:
    with pytest.raises(OptionError, match="a function, ES module source"):
        ChatWidget(None, renderers={"data-x": 42})
    with pytest.raises(OptionError, match="non-empty string"):
        ChatWidget(None).renderer("")(print)


def weather_messages() -> list[dict[str, Any]]:
    return [
        {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Weather?"}]},
        {
            "id": "a1",
            "role": "assistant",
            "parts": [
                {"type": "text", "text": "Here:"},
                {"type": "data-weather", "data": {"city": "Oslo", "temp": -3}},
            ],
        },
    ]


def test_existing_and_replaced_messages_are_rendered() -> None:
    chat = ChatWidget(
        None, messages=weather_messages(), renderers={"data-weather": lambda p: p["data"]["city"]}
    )
    assert chat.rendered == {"a1/1": {"type": "data-weather", "data": {"text/plain": "Oslo"}}}
    replaced = weather_messages()
    replaced[1]["parts"][1]["data"]["city"] = "Rome"
    replaced[1]["id"] = "a2"
    chat.messages = replaced
    assert chat.rendered == {"a2/1": {"type": "data-weather", "data": {"text/plain": "Rome"}}}
    chat.messages = []
    assert chat.rendered == {}


async def test_regenerate_drops_the_old_answers_outputs() -> None:
    chat = ChatWidget(activity_run(), renderers={"data-weather": lambda p: "x"})
    await chat.send_message("Weather?")
    first = the_key(chat)
    await chat.regenerate()
    assert first not in chat.rendered and list(chat.rendered) == [the_key(chat)]


async def test_switching_branches_shows_the_selected_answers_outputs() -> None:
    runs = iter(range(100))
    chat = ChatWidget(activity_run(), renderers={"data-weather": lambda p: f"run {next(runs)}"})
    await chat.send_message("Weather?")
    first = the_key(chat)
    assert chat.rendered == {first: {"type": "data-weather", "data": {"text/plain": "run 0"}}}
    await chat.regenerate()
    second = the_key(chat)
    assert list(chat.rendered) == [second] and chat.rendered[second]["data"] == {"text/plain": "run 1"}
    chat.select_branch(chat.messages[-1]["id"], 0)
    assert list(chat.rendered) == [first]  # the first answer again, rendered again (its part is on screen)
    assert chat.rendered[first]["data"] == {"text/plain": "run 2"}


async def test_a_widget_output_is_shown_by_reference_to_its_model() -> None:
    made: list[Any] = []

    def label(part: dict[str, Any]) -> Any:
        made.append(ipywidgets.Label(part["data"]["city"]))
        return made[-1]

    chat = ChatWidget(activity_run(), renderers={"data-weather": label})
    await chat.send_message("Weather?")
    data = chat.rendered[the_key(chat)]["data"]
    assert data[WIDGET_MIME]["model_id"] == made[-1].model_id and made[-1].value == "Paris"
    assert data["text/plain"].startswith("Label(")


def test_the_static_copy_shows_rendered_tables_and_images() -> None:
    def render(part: dict[str, Any]) -> Any:
        return pd.DataFrame([part["data"]]) if part["data"]["city"] == "Oslo" else Image.new("RGB", (2, 2))

    messages = weather_messages()
    messages[1]["parts"].append({"type": "data-weather", "data": {"city": "<Rome>", "temp": 1}})
    chat = ChatWidget(None, messages=messages, renderers={"data-weather": render})
    html = static_html(chat.messages, render_part=chat._renderers.static_part_html)
    assert "<table><tr><th>city</th><th>temp</th></tr><tr><td>Oslo</td><td>-3</td></tr></table>" in html
    assert '<img src="data:image/png;base64,' in html
    assert "<Rome>" not in html


def test_messages_set_from_python_are_rendered_and_sent_at_once() -> None:
    """``chat.messages = [...]`` (and a branch switch, a load) re-renders: the trait the views read has it."""
    chat = ChatWidget(renderers={"data-forecast": lambda part: {"days": part["data"]}})
    chat.messages = [{"id": "a", "role": "assistant", "parts": [{"type": "data-forecast", "data": [1, 2]}]}]
    assert list(chat.rendered) == ["a/0"]
    assert chat.rendered["a/0"]["data"]["application/json"] == {"days": [1, 2]}
