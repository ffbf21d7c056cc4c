"""agreement (evals/_agreement.py): a score against the 👍/👎 feedback: counts, rate and Cohen's kappa."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from agui_notebook import InputTypeError, OptionError
from agui_notebook.evals import agreement, score, scorer, text_contains
from agui_notebook.evals._agreement import cohens_kappa
from tests.evals.events import WEATHER, rated, run


def test_cohens_kappa_by_hand() -> None:
    # 50 ratings: both say yes 20, both no 15, the scorer yes/the user no 5, the other way 10.
    # p_o = 35/50 = 0.7; p_e = (25*30 + 25*20) / 50**2 = 0.5; kappa = (0.7 - 0.5) / (1 - 0.5) = 0.4
    assert cohens_kappa(np.array([[20, 5], [10, 15]])) == 0.4
    # Agreeing on everything, with both labels used: 1. Always opposite, half and half: -1.
    assert cohens_kappa(np.array([[3, 0], [0, 2]])) == 1.0
    assert cohens_kappa(np.array([[0, 2], [2, 0]])) == -1.0
    # One label only on both sides: chance explains everything, kappa is undefined.
    assert math.isnan(cohens_kappa(np.array([[4, 0], [0, 0]])))
    assert math.isnan(cohens_kappa(np.zeros((2, 2), dtype=int)))


EVENTS = [
    *WEATHER,
    *run("r4", "Paris again."),
    rated("r1", "up"),
    rated("r2", "down"),
    rated("r3", "up"),
    rated("r4", "down"),
]


def test_a_runs_table_is_joined_with_the_feedback_by_run() -> None:
    scored = score(EVENTS, text_contains("Paris"))
    found = agreement(scored, EVENTS)
    # r1 pass/up, r2 fail/down, r3 fail/up, r4 pass/down
    assert found.counts.to_dict() == {"up": {"pass": 1, "fail": 1}, "down": {"pass": 1, "fail": 1}}
    assert (found.column, found.n, found.rate, found.kappa) == ("contains_Paris", 4, 0.5, 0.0)
    assert found.table.to_dict("records") == [
        {
            "column": "contains_Paris",
            "n": 4,
            "rate": 0.5,
            "kappa": 0.0,
            "pass_up": 1,
            "pass_down": 1,
            "fail_up": 1,
            "fail_down": 1,
        }
    ]
    assert (
        repr(found) == "<agreement of 'contains_Paris' with the feedback: 4 rated, rate 0.500, kappa 0.000>"
    )
    assert "Cohen&#x27;s kappa 0.000" in found._repr_html_()


def test_a_messages_table_carries_its_own_feedback_and_unrated_rows_do_not_count() -> None:
    events = [*WEATHER, rated("r1", "up"), rated("r2", "down")]
    scored = score(events, text_contains("Paris"), table="messages")
    found = agreement(scored)
    assert (found.n, found.rate, found.kappa) == (2, 1.0, 1.0)


def test_a_numeric_score_passes_at_the_threshold() -> None:
    def chars(run) -> float:  # type: ignore[no-untyped-def]
        """Answer length."""
        return float(len(run.text))

    scored = score(EVENTS, scorer(chars))  # 15, 13, 31, 12 characters
    assert agreement(scored, EVENTS, threshold=14).counts.to_dict() == {
        "up": {"pass": 2, "fail": 0},
        "down": {"pass": 0, "fail": 2},
    }


def test_the_arguments_are_checked() -> None:
    scored = score(EVENTS, text_contains("Paris"), text_contains("snow"))
    with pytest.raises(
        OptionError,
        match=r"^agreement: name the score with column= \(the table's scores: contains_Paris, contains_snow\)$",
    ):
        agreement(scored, EVENTS)
    with pytest.raises(OptionError, match=r"takes a boolean or numeric score"):
        agreement(scored, EVENTS, column="contains_Paris_reason")
    with pytest.raises(
        InputTypeError, match=r"^agreement: scored must be a table from evals.score, not list$"
    ):
        agreement([], EVENTS)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match=r"^agreement: give the feedback"):
        agreement(scored, column="contains_Paris")
    with pytest.raises(OptionError, match=r"^agreement: scored has no column 'nope'$"):
        agreement(pd.DataFrame({"run_key": []}), EVENTS, column="nope")
