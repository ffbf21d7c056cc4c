"""score / ascore (evals/_score.py): one column per scorer on the runs or messages table of any source."""

from __future__ import annotations

import asyncio
import json
import warnings
from pathlib import Path

import pandas as pd
import pytest

from agui_notebook import Chat, InputTypeError, OptionError, ScorerError, runs_df
from agui_notebook.evals import ascore, score, score_columns, scorer, text_contains, tool_called
from tests.evals.events import WEATHER, rated, run


def _chars(run) -> int:  # type: ignore[no-untyped-def]
    """Characters of the final answer."""
    return len(run.text)


def test_score_adds_a_column_per_scorer_to_the_runs_table() -> None:
    table = score(WEATHER, tool_called("get_weather"), text_contains("Paris"), _chars)
    assert list(table.columns) == [
        *runs_df(WEATHER).columns,
        "called_get_weather",
        "called_get_weather_reason",
        "contains_Paris",
        "contains_Paris_reason",
        "_chars",
    ]
    assert table["called_get_weather"].tolist() == [True, False, True]
    assert table["contains_Paris"].tolist() == [True, False, False]
    assert table["_chars"].tolist() == [15.0, 13.0, 31.0]
    assert str(table["called_get_weather"].dtype) == "boolean"
    assert str(table["called_get_weather_reason"].dtype) == "string"
    assert table["called_get_weather_reason"].isna().tolist() == [True, False, True]
    assert [(c.name, c.dtype) for c in score_columns(table)] == [
        ("called_get_weather", "boolean"),
        ("called_get_weather_reason", "string"),
        ("contains_Paris", "boolean"),
        ("contains_Paris_reason", "string"),
        ("_chars", "float64"),
    ]


def test_the_same_scores_from_a_file_a_folder_and_with_workers(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.jsonl").write_text("".join(json.dumps(e) + "\n" for e in WEATHER[:10]))
    (folder / "b.jsonl").write_text("".join(json.dumps(e) + "\n" for e in WEATHER[10:]))
    expected = [True, False, True]
    assert score(folder, tool_called("get_weather"))["called_get_weather"].tolist() == expected
    by_workers = score(folder, tool_called("get_weather"), workers=2)
    assert by_workers["called_get_weather"].tolist() == expected
    assert by_workers["source"].astype(str).map(lambda s: Path(s).name).tolist() == [
        "a.jsonl",
        "a.jsonl",
        "b.jsonl",
    ]


def test_per_message_scores_and_run_scores_on_the_messages_table() -> None:
    def long_message(message) -> bool:  # type: ignore[no-untyped-def]
        """Whether the message is longer than 14 characters."""
        return len(message.text) > 14

    events = [*WEATHER, rated("r1", "up")]
    table = score(events, scorer(long_message, per="message"), tool_called("get_weather"), table="messages")
    assert table[["run_key", "long_message", "called_get_weather", "feedback"]].astype(object).where(
        table[["run_key", "long_message", "called_get_weather", "feedback"]].notna(), None
    ).values.tolist() == [
        ["r1", True, True, "up"],
        ["r2", False, False, None],
        ["r3", True, True, None],
    ]
    with pytest.raises(
        OptionError, match=r"scorer 'long_message' scores messages: score them with table='messages'"
    ):
        score(events, scorer(long_message, per="message"))


def test_a_chat_is_scored_like_a_log() -> None:
    def agent(run_input):  # type: ignore[no-untyped-def]
        yield "Paris, of course."

    async def main() -> Chat:
        chat = Chat(agent, store=None)
        await chat.send_message("Capital of France?")
        return chat

    table = score(asyncio.run(main()), text_contains("Paris"))
    assert table["contains_Paris"].tolist() == [True]


def test_no_runs_gives_an_empty_table_with_the_columns() -> None:
    table = score([], tool_called("x"))
    assert table.empty and "called_x" in table.columns and "called_x_reason" in table.columns


def test_wrong_scorers_and_options_are_the_familys_errors() -> None:
    with pytest.raises(InputTypeError, match=r"^score: a scorer is a Scorer"):
        score(WEATHER, 3)
    with pytest.raises(OptionError, match=r"^score: two scorers give the column 'called_x'"):
        score(WEATHER, tool_called("x"), tool_called("x", q=1))
    with pytest.raises(OptionError, match=r"^score: the table has a column 'status' already"):
        score(WEATHER, scorer(lambda run: True, name="status", dtype=bool))
    with pytest.raises(OptionError, match=r"^score: table must be 'runs' or 'messages', not 'parts'$"):
        score(WEATHER, table="parts")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"did you mean table=\?"):
        score(WEATHER, tabel="runs")  # type: ignore[call-arg]
    with pytest.raises(ScorerError, match=r"^scorer 'k', run 'r1': gave 'r1', not a bool"):
        score(WEATHER, scorer(lambda run: run.key, name="k", dtype=bool))


def test_an_async_scorer_runs_on_the_loop_and_score_works_inside_a_running_loop() -> None:
    async def slow_key(run) -> str:  # type: ignore[no-untyped-def]
        await asyncio.sleep(0)
        return run.key

    keyed = scorer(slow_key)
    assert score(WEATHER, keyed)["slow_key"].tolist() == ["r1", "r2", "r3"]

    async def in_a_kernel() -> tuple[list[str], list[str]]:
        # score (sync) inside a running loop runs its async scorers on a thread of its own
        return score(WEATHER, keyed)["slow_key"].tolist(), (await ascore(WEATHER, keyed))["slow_key"].tolist()

    assert asyncio.run(in_a_kernel()) == (["r1", "r2", "r3"], ["r1", "r2", "r3"])


def test_an_async_scorer_that_raises_is_a_scorer_error() -> None:
    async def broken(run) -> bool:  # type: ignore[no-untyped-def]
        raise KeyError("gone")

    with pytest.raises(ScorerError, match=r"^scorer 'broken', run 'r1': raised KeyError: 'gone'$"):
        score(WEATHER, scorer(broken))


def test_a_log_with_unreadable_lines_is_scored_with_errors_collect(tmp_path: Path) -> None:
    log = tmp_path / "run.jsonl"
    log.write_text("".join(json.dumps(e) + "\n" for e in run("r1", "ok")) + "{oops\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = score(log, text_contains("ok"), errors="collect")
    assert table["contains_ok"].tolist() == [True]
    assert isinstance(table, pd.DataFrame)


def test_the_judging_progress_bar_counts_the_runs_judged_from_the_callers_thread(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import threading

    from agui_notebook.evals import _score

    class Bar:
        def __init__(self, total: int) -> None:
            self.total, self.n, self.closed, self.threads = total, 0, False, set()

        def update(self, count: int) -> None:
            self.n += count
            self.threads.add(threading.current_thread().name)

        def close(self) -> None:
            self.closed = True

    bars: list[Bar] = []
    monkeypatch.setattr(
        _score, "progress_bar", lambda progress, total, **_: bars.append(Bar(total)) or bars[-1]
    )

    async def slow_key(run) -> str:  # type: ignore[no-untyped-def]
        await asyncio.sleep(0.05)
        return run.key

    async def in_a_kernel() -> None:
        score(WEATHER, scorer(slow_key))

    asyncio.run(in_a_kernel())
    score(WEATHER, scorer(slow_key))
    here = threading.current_thread().name
    assert [(b.total, b.n, b.closed, b.threads) for b in bars] == [(3, 3, True, {here}), (3, 3, True, {here})]
    monkeypatch.undo()
    score(WEATHER, scorer(slow_key), progress=True)
    assert "judging" in capsys.readouterr().err
    score(WEATHER, scorer(slow_key), progress=False)
    assert capsys.readouterr().err == ""


def test_a_dask_client_builds_the_table_and_the_scores_are_the_same(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.jsonl").write_text("".join(json.dumps(e) + "\n" for e in WEATHER[:10]))
    (folder / "b.jsonl").write_text("".join(json.dumps(e) + "\n" for e in WEATHER[10:]))
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = score(folder, tool_called("get_weather"), client=client)
    here = score(folder, tool_called("get_weather"))
    pd.testing.assert_frame_equal(on_dask, here)
    with pytest.raises(OptionError, match=r"^score: workers= and client= read files"):
        score(pd.DataFrame(), tool_called("x"), workers=2)
