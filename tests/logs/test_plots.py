"""The plots draw from real captures and the hand-built log, in both themes; images go to tests/artifacts/."""

from __future__ import annotations

import asyncio
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.colors import to_hex

from agui_notebook._errors import OptionError
from agui_notebook.logs._load import load_events
from agui_notebook.logs._plots import (
    jupyterlab_theme,
    plot_reasoning_lengths,
    plot_run_timeline,
    plot_token_stream,
    plot_tool_latency,
)
from tests.logs.samples import CAPTURES, at, jsonl, known_events
from tests.support.pydantic_ai_runs import capture_approval

THEMES = {"light": "#ffffff", "dark": "#111111"}


@pytest.fixture(scope="module")
def captured():
    return load_events(CAPTURES / "pydantic_ai_runs.jsonl")


@pytest.fixture(scope="module")
def denied_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real pydantic-ai approval, denied: the call streams in run-1, its refusal comes in run-2."""
    path = tmp_path_factory.mktemp("denied") / "denied.jsonl"
    path.write_bytes(jsonl(asyncio.run(capture_approval(False)).agui_events))
    return path


@pytest.fixture(scope="module")
def denied(denied_log: Path):
    return load_events(denied_log)


@pytest.fixture(autouse=True)
def no_jupyterlab_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTERLAB_SETTINGS_DIR", str(tmp_path / "no-settings"))


def check_and_save(ax, artifacts_dir: Path, name: str, theme: str) -> None:
    """Every text inside the figure (nothing cut), the theme's background, then the image for a look."""
    figure = ax.figure
    figure.canvas.draw()
    drawn = figure.get_tightbbox(figure.canvas.get_renderer())  # inches, everything drawn
    width, height = figure.get_size_inches()
    tolerance = 0.02
    assert drawn.x0 >= -tolerance and drawn.y0 >= -tolerance, f"{name}: cut on the left or bottom ({drawn})"
    assert drawn.x1 <= width + tolerance and drawn.y1 <= height + tolerance, f"{name}: cut ({drawn})"
    assert to_hex(figure.get_facecolor()) == THEMES[theme]
    assert figure.dpi == 100
    figure.savefig(artifacts_dir / f"logs_{name}_{theme}.png")
    plt.close(figure)


@pytest.mark.parametrize("theme", THEMES)
def test_run_timeline(captured, denied, artifacts_dir: Path, theme: str) -> None:
    ax = plot_run_timeline(captured, "parallel_tools", theme=theme)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [
        "text 1 (21 chars)",
        "tool get_weather (call_p)",
        "tool get_weather (call_o)",
        "text 2 (33 chars)",
    ]
    assert ax.get_title().startswith("run parallel_tools: success")
    check_and_save(ax, artifacts_dir, "timeline_parallel_tools", theme)
    ax = plot_run_timeline(known_events(), "r1", theme=theme)
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "reasoning 1 (9 chars)", "text 2 (12 chars)", "tool search (c1)", "tool calc (c2) [error]", "text 3 (5 chars)",
    ]  # fmt: skip
    check_and_save(ax, artifacts_dir, "timeline_known_r1", theme)
    ax = plot_run_timeline(known_events(), "r4", theme=theme)
    assert ax.get_title() == "run r4: incomplete, unfinished (dashed: last event)"
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["tool arguments streaming", "no result"]
    check_and_save(ax, artifacts_dir, "timeline_known_r4", theme)
    ax = plot_run_timeline(denied, "run-1", theme=theme)
    assert [t.get_text() for t in ax.get_yticklabels()][-1] == "tool delete_file (call_d) [denied]"
    assert "denied (never ran)" in [t.get_text() for t in ax.get_legend().get_texts()]
    check_and_save(ax, artifacts_dir, "timeline_denied", theme)
    with pytest.raises(ValueError, match="no run 'nope'"):
        plot_run_timeline(captured, "nope")


@pytest.mark.parametrize("theme", THEMES)
def test_a_call_cancelled_because_a_sibling_failed_is_drawn_apart(artifacts_dir: Path, theme: str) -> None:
    from tests.support.pydantic_ai_runs import agui_run, make_sibling_failure_agent

    events = load_events(asyncio.run(agui_run(make_sibling_failure_agent("retries"))))
    ax = plot_run_timeline(events, theme=theme)
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "text 1 (empty)", "tool slow_search (call_s) [cancelled: call_l failed]", "tool lookup_db (call_l) [error]",
    ]  # fmt: skip
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == [
        "text (ticks: chunks)", "tool arguments streaming", "tool failed",
        "cancelled (a sibling failed, or the run stopped)",
    ]  # fmt: skip
    # One red bar (the call that failed); the cancelled call grey and dotted.
    error, grey = {"light": ("#d32f2f", "#757575"), "dark": ("#ef5350", "#9e9e9e")}[theme]
    bars = [c for c in ax.collections if type(c).__name__ == "PolyCollection"]
    red = [c for c in bars if not c.get_hatch() and to_hex(c.get_facecolor()[0]) == error]
    dotted = [c for c in bars if c.get_hatch() == ".." and to_hex(c.get_edgecolor()[0]) == grey]
    assert (len(red), len(dotted)) == (1, 1)
    check_and_save(ax, artifacts_dir, "timeline_cancelled_sibling", theme)


@pytest.mark.parametrize("theme", THEMES)
def test_token_stream(captured, artifacts_dir: Path, theme: str) -> None:
    ax = plot_token_stream(captured, "reasoning_tool_text", theme=theme)
    # Labels say what the line is, whole: no message ids cut to eight characters.
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "reasoning 1 (60 chars, 5 chunks)",
        "text 2 (41 chars, 3 chunks)",
    ]
    assert "chunks are not tokens" in ax.get_title()
    check_and_save(ax, artifacts_dir, "token_stream", theme)


@pytest.mark.parametrize("theme", THEMES)
def test_tool_latency(captured, denied_log: Path, artifacts_dir: Path, theme: str) -> None:
    ax = plot_tool_latency(captured, theme=theme)
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "broken_lookup\n(1 ran)", "delete_file\n(0 ran, 1 pending)", "flaky_lookup\n(1 ran)", "get_weather\n(3 ran)",
    ]  # fmt: skip
    check_and_save(ax, artifacts_dir, "tool_latency", theme)
    # A denied call is no latency point (it never ran): its tool says so instead.
    both = load_events([CAPTURES / "pydantic_ai_runs.jsonl", denied_log])
    ax = plot_tool_latency(both, theme=theme)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[1] == "delete_file\n(0 ran, 1 denied, 1 pending)"
    points = sum(len(c.get_offsets()) for c in ax.collections)
    assert points == 5  # the five calls that ran
    check_and_save(ax, artifacts_dir, "tool_latency_denied", theme)


@pytest.mark.parametrize("theme", THEMES)
def test_reasoning_lengths(captured, artifacts_dir: Path, theme: str) -> None:
    ax = plot_reasoning_lengths(captured, by="words", theme=theme)
    assert ax.get_title() == "reasoning length distribution (2 messages)"
    check_and_save(ax, artifacts_dir, "reasoning_lengths", theme)
    with pytest.raises(ValueError, match="needs a tokenizer"):
        plot_reasoning_lengths(captured, by="tokens")


def test_one_length_is_one_bar_on_an_axis_from_zero(artifacts_dir: Path) -> None:
    """Every message 32 words long: one bar at 32 on whole numbers, not an axis of 31.6 to 32.4."""
    text = " ".join(["word"] * 32)
    log = []
    for i in range(4):
        log += [at(10 * i, "RUN_STARTED", threadId="t", runId=f"r{i}"),
                at(10 * i + 1, "REASONING_MESSAGE_CONTENT", messageId=f"m{i}", delta=text),
                at(10 * i + 2, "RUN_FINISHED", threadId="t", runId=f"r{i}")]  # fmt: skip
    ax = plot_reasoning_lengths(log, by="words", theme="light")
    bars = [p for p in ax.patches if p.get_height() > 0]
    assert [(b.get_x() + b.get_width() / 2, b.get_height()) for b in bars] == [(32, 4)]
    low, high = ax.get_xlim()
    assert low == 0 and high >= 33
    assert all(float(t).is_integer() for t in ax.get_xticks())
    check_and_save(ax, artifacts_dir, "reasoning_lengths_single", "light")


def test_the_theme_follows_the_notebook(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events = known_events()
    ax = plot_tool_latency(events)
    assert to_hex(ax.figure.get_facecolor()) == THEMES["light"]
    plt.close(ax.figure)
    # JupyterLab writes the theme chosen in its menu to its user settings.
    settings = tmp_path / "lab" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    (settings / "themes.jupyterlab-settings").write_text('{\n  // chosen\n  "theme": "JupyterLab Dark"\n}\n')
    monkeypatch.setenv("JUPYTERLAB_SETTINGS_DIR", str(tmp_path / "lab"))
    assert jupyterlab_theme() == "dark"
    ax = plot_tool_latency(events)
    assert to_hex(ax.figure.get_facecolor()) == THEMES["dark"]
    assert to_hex(ax.title.get_color()) == "#e0e0e0"
    plt.close(ax.figure)
    # A dark matplotlib style, or the figure drawn on, decides before the setting.
    (settings / "themes.jupyterlab-settings").write_text('{"theme": "JupyterLab Light"}')
    with plt.style.context("dark_background"):
        ax = plot_tool_latency(events)
    assert to_hex(ax.figure.get_facecolor()) == THEMES["dark"]
    plt.close(ax.figure)
    _, mine = plt.subplots(facecolor="black")
    assert plot_tool_latency(events, ax=mine) is mine and to_hex(mine.title.get_color()) == "#e0e0e0"
    plt.close(mine.figure)
    with pytest.raises(OptionError, match="theme must be"):
        plot_tool_latency(events, theme="blue")


def test_a_reused_run_id_draws_the_run_asked_for() -> None:
    first = [at(0, "RUN_STARTED", threadId="t", runId="r"), at(1, "TEXT_MESSAGE_CONTENT", messageId="m", delta="one"),
             at(5, "RUN_FINISHED", threadId="t", runId="r")]  # fmt: skip
    second = [at(10, "RUN_STARTED", threadId="t", runId="r"), at(11, "TEXT_MESSAGE_CONTENT", messageId="m", delta="two!"),
              at(12, "TEXT_MESSAGE_CONTENT", messageId="n", delta="x"), at(20, "RUN_FINISHED", threadId="t", runId="r")]  # fmt: skip
    ax = plot_run_timeline(first + second, "r#2")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["text 1 (4 chars)", "text 2 (1 chars)"]
    assert ax.get_title().startswith("run r#2: success, 0.01 s")
    plt.close(ax.figure)
    ax = plot_token_stream(first + second, "r")  # a run id: its first run
    assert ax.get_title().startswith("stream of run r#1: 1 chunks")
    plt.close(ax.figure)
    with pytest.raises(OptionError, match=r"runs: r#1, r#2"):
        plot_run_timeline(first + second, "s")
