"""The plots draw from real captures and the hand-built log; images go to tests/artifacts/ for a look."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from agui_notebook._errors import OptionError
from agui_notebook.logs._load import load_events
from agui_notebook.logs._plots import (
    plot_reasoning_lengths,
    plot_run_timeline,
    plot_token_stream,
    plot_tool_latency,
)
from tests.logs.samples import CAPTURES, at, known_events


@pytest.fixture(scope="module")
def captured():
    return load_events(CAPTURES / "pydantic_ai_runs.jsonl")


def save(ax, artifacts_dir: Path, name: str) -> None:
    ax.figure.savefig(artifacts_dir / f"logs_{name}.png", dpi=90)
    plt.close(ax.figure)


def test_run_timeline(captured, artifacts_dir: Path) -> None:
    ax = plot_run_timeline(captured, "parallel_tools")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [
        "text 1 (21 ch)",
        "tool get_weather (call_p)",
        "tool get_weather (call_o)",
        "text 2 (33 ch)",
    ]
    assert ax.get_title().startswith("run parallel_tools: success")
    save(ax, artifacts_dir, "timeline_parallel_tools")
    ax = plot_run_timeline(known_events(), "r1")
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "reasoning 1 (9 ch)", "text 2 (12 ch)", "tool search (c1)", "tool calc (c2) [error]", "text 3 (5 ch)",
    ]  # fmt: skip
    save(ax, artifacts_dir, "timeline_known_r1")
    ax = plot_run_timeline(known_events(), "r4")
    assert ax.get_title() == "run r4: incomplete, unfinished (dashed: last event)"
    save(ax, artifacts_dir, "timeline_known_r4")
    with pytest.raises(ValueError, match="no run 'nope'"):
        plot_run_timeline(captured, "nope")


def test_token_stream(captured, artifacts_dir: Path) -> None:
    ax = plot_token_stream(captured, "reasoning_tool_text")
    assert [t.get_text().split(" (")[0] for t in ax.get_legend().get_texts()] == ["reasoning 1", "text 2"]
    assert "chunks are not tokens" in ax.get_title()
    save(ax, artifacts_dir, "token_stream")


def test_tool_latency(captured, artifacts_dir: Path) -> None:
    ax = plot_tool_latency(captured)
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "broken_lookup (n=1)", "flaky_lookup (n=1)", "get_weather (n=3)",
    ]  # fmt: skip
    save(ax, artifacts_dir, "tool_latency")


def test_reasoning_lengths(captured, artifacts_dir: Path) -> None:
    ax = plot_reasoning_lengths(captured, by="words")
    assert ax.get_title() == "reasoning length distribution (2 messages)"
    save(ax, artifacts_dir, "reasoning_lengths")
    with pytest.raises(ValueError, match="needs a tokenizer"):
        plot_reasoning_lengths(captured, by="tokens")


def test_a_reused_run_id_draws_the_run_asked_for(artifacts_dir: Path) -> None:
    first = [at(0, "RUN_STARTED", threadId="t", runId="r"), at(1, "TEXT_MESSAGE_CONTENT", messageId="m", delta="one"),
             at(5, "RUN_FINISHED", threadId="t", runId="r")]  # fmt: skip
    second = [at(10, "RUN_STARTED", threadId="t", runId="r"), at(11, "TEXT_MESSAGE_CONTENT", messageId="m", delta="two!"),
              at(12, "TEXT_MESSAGE_CONTENT", messageId="n", delta="x"), at(20, "RUN_FINISHED", threadId="t", runId="r")]  # fmt: skip
    ax = plot_run_timeline(first + second, "r#2")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["text 1 (4 ch)", "text 2 (1 ch)"]
    assert ax.get_title().startswith("run r#2: success, 0.01 s")
    plt.close(ax.figure)
    ax = plot_token_stream(first + second, "r")  # a run id: its first run
    assert ax.get_title().startswith("token stream of run r#1 (1 chunks")
    plt.close(ax.figure)
    with pytest.raises(OptionError, match=r"runs: r#1, r#2"):
        plot_run_timeline(first + second, "s")
