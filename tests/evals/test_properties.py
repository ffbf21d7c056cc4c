"""Property tests of the evals room: random event logs, random scorer values, random counts and samples either work
(with the properties below) or raise the package's error naming where."""

from __future__ import annotations

import json
import math
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from agui_notebook import AguiNotebookError, ScorerError, runs_df
from agui_notebook.evals import (
    agreement,
    compare,
    json_matches,
    judge,
    log_cases,
    no_tool_errors,
    score,
    scorer,
    text_contains,
    tool_called,
)
from agui_notebook.evals._agreement import cohens_kappa
from tests.support.hostile import VALUES, event_sequences

SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
)


@SETTINGS
@given(event_sequences(max_size=12))
def test_random_logs_score_one_row_per_run_or_raise_the_family(events: list) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            runs = runs_df(events)
        except AguiNotebookError:
            return
        checks = (tool_called("get_weather"), text_contains("a"), no_tool_errors(), json_matches({}))
        try:
            table = score(events, *checks)
        except ScorerError as error:
            # Events the tables read (odd values kept) but the assembler refuses: the check names the run.
            assert error.run_key in runs["run_key"].astype(str).tolist()
            assert str(error).startswith(f"scorer {error.scorer!r}, run {error.run_key!r}: raised ")
            assert isinstance(error.__cause__, AguiNotebookError)
            return
    assert len(table) == len(runs)
    assert table["run_key"].astype(str).tolist() == runs["run_key"].astype(str).tolist()
    for column in ("called_get_weather", "contains_a", "no_tool_errors", "json_matches"):
        assert table[column].notna().all()
        # A failed check always says why; a passed one says nothing.
        assert (table[column] == table[f"{column}_reason"].isna()).all()


SAMPLE = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
]


@SETTINGS
@given(
    VALUES | st.sampled_from([np.float32(1.5), np.int64(3), np.bool_(True), math.inf, -0.0]),
    st.sampled_from(["boolean", "float64", "string"]),
)
def test_any_value_a_scorer_gives_is_its_cell_or_a_scorer_error_naming_it(value: object, dtype: str) -> None:
    given_scorer = scorer(lambda run: value, name="v", dtype=dtype)
    try:
        table = score(SAMPLE, given_scorer)
    except ScorerError as error:
        assert str(error).startswith("scorer 'v', run 'r1': gave ")
        assert (error.scorer, error.run_key) == ("v", "r1")
        return
    cell = table["v"].iloc[0]
    assert str(table["v"].dtype) == dtype
    if value is None or (isinstance(value, float) and math.isnan(value)):
        assert pd.isna(cell)
    elif dtype == "float64":
        assert cell == float(value)  # type: ignore[arg-type]
    else:
        assert cell == value


COUNTS = st.lists(st.integers(0, 50), min_size=4, max_size=4).map(lambda c: np.array(c).reshape(2, 2))


@SETTINGS
@given(COUNTS)
def test_kappa_is_symmetric_at_most_one_and_one_only_for_perfect_agreement(counts: np.ndarray) -> None:
    kappa = cohens_kappa(counts)
    if math.isnan(kappa):
        total = counts.sum()
        expected = (counts.sum(axis=1) * counts.sum(axis=0)).sum() / total**2 if total else 1
        assert total == 0 or expected == 1
        return
    assert kappa == cohens_kappa(counts.T)
    assert -1 <= kappa <= 1
    assert (kappa == 1) == (counts[0, 1] == counts[1, 0] == 0)


@SETTINGS
@given(st.lists(st.tuples(st.booleans(), st.sampled_from(["up", "down", None])), max_size=12))
def test_agreement_counts_only_rows_with_both_and_its_rate_is_the_diagonal(rows: list) -> None:
    scored = pd.DataFrame(
        {
            "run_key": [f"r{i}" for i in range(len(rows))],
            "ok": pd.array([s for s, _ in rows], dtype="boolean"),
        }
    )
    rated = pd.DataFrame(
        {
            "run_key": scored["run_key"],
            "role": "assistant",
            "feedback": pd.Categorical([f for _, f in rows], categories=["up", "down"]),
        }
    )
    found = agreement(scored, rated, column="ok")
    both = [(s, f) for s, f in rows if f is not None]
    assert found.n == len(both)
    agree = sum((s and f == "up") or (not s and f == "down") for s, f in both)
    assert (math.isnan(found.rate) and not both) or found.rate == agree / len(both)


@SETTINGS
@given(
    st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=20),
    st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=20),
    st.integers(0, 2**32),
)
def test_compare_is_seeded_its_intervals_are_ordered_and_the_difference_is_of_the_means(
    a: list, b: list, seed: int
) -> None:
    left, right = pd.DataFrame({"x": a}), pd.DataFrame({"x": b})
    found = compare(left, right, "x", n_resamples=50, seed=seed)
    assert found.table.equals(compare(left, right, "x", n_resamples=50, seed=seed).table)
    table = found.table
    assert (table["ci_low"] <= table["ci_high"]).all()
    assert table["mean"].iloc[2] == table["mean"].iloc[1] - table["mean"].iloc[0]
    slack = 1e-9 * max(1.0, *map(abs, a))
    assert min(a) - slack <= table["ci_low"].iloc[0] and table["ci_high"].iloc[0] <= max(a) + slack


SIMPLE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5),
    st.floats(),
    st.text(max_size=5),
    st.lists(st.booleans(), max_size=2),
)
ANSWERS = st.one_of(
    st.text(max_size=30),
    st.builds(lambda value, reason: json.dumps({"score": value, "reason": reason}), SIMPLE, SIMPLE),
)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(ANSWERS)
def test_any_answer_of_a_text_judge_is_a_verdict_or_a_scorer_error_quoting_it(answer: str) -> None:
    def agent(run_input: object) -> object:
        yield answer

    try:
        table = score(SAMPLE, judge(agent, "Is it right?"))
    except ScorerError as error:
        assert str(error).startswith("scorer 'judge', run 'r1': the judge answered ")
        return
    verdict = json.loads(answer[answer.find("{") : answer.rfind("}") + 1])
    assert table["judge"].tolist() == [verdict["score"]]
    assert table["judge_reason"].tolist() == [verdict["reason"]]


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(event_sequences(max_size=8))
def test_log_cases_of_any_log_are_its_runs_or_the_familys_error(events: list) -> None:
    folder = Path(tempfile.mkdtemp(prefix="agui-cases-"))
    try:
        text = "".join(json.dumps(event) + "\n" for event in events)
    except (TypeError, ValueError, RecursionError):
        return
    (folder / "log.jsonl").write_text(text, encoding="utf-8", errors="surrogatepass")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            runs = runs_df(folder)
        except AguiNotebookError:
            return
        cases = log_cases(folder)
    assert [case.id for case in cases] == [f"log.jsonl:{key}" for key in runs["run_key"].astype(str)]
