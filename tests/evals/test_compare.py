"""compare (evals/_compare.py): two sets of runs, each side's mean and the difference, bootstrap intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from agui_notebook import InputTypeError, OptionError
from agui_notebook.evals import compare, text_contains
from agui_notebook.evals._compare import bootstrap_means
from tests.evals.events import run


def test_the_intervals_are_the_percentiles_of_seeded_resampled_means() -> None:
    a = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0]})
    b = pd.DataFrame({"x": [2.0, 4.0, 6.0, 8.0, np.nan]})
    found = compare(a, b, "x", n_resamples=500, seed=7, labels=("old", "new"))
    rng = np.random.default_rng(7)
    means_a = bootstrap_means(np.array([1.0, 2.0, 3.0, 4.0]), 500, rng)
    means_b = bootstrap_means(np.array([2.0, 4.0, 6.0, 8.0]), 500, rng)
    table = found.table
    assert list(table.index) == ["old", "new", "new - old"]
    assert table["n"].tolist()[:2] == [4, 4] and table["n"].isna().tolist() == [False, False, True]
    assert table["mean"].tolist() == [2.5, 5.0, 2.5]
    assert table.loc["old", ["ci_low", "ci_high"]].tolist() == np.quantile(means_a, [0.025, 0.975]).tolist()
    assert (
        table.loc["new - old", ["ci_low", "ci_high"]].tolist()
        == np.quantile(means_b - means_a, [0.025, 0.975]).tolist()
    )
    assert compare(a, b, "x", n_resamples=500, seed=7, labels=("old", "new")).table.equals(table)


def test_a_constant_metric_has_a_point_interval_and_a_boolean_is_a_rate() -> None:
    a = pd.DataFrame({"ok": pd.array([True, True, True, True], dtype="boolean")})
    b = pd.DataFrame({"ok": pd.array([True, False, None, False], dtype="boolean")})
    table = compare(a, b, "ok", n_resamples=100).table
    assert table.loc["a"].tolist()[1:] == [1.0, 1.0, 1.0]
    assert table.loc["b", "mean"] == pytest.approx(1 / 3) and table.loc["b", "n"] == 3


def test_two_sources_with_a_scorer() -> None:
    a = run("r1", "Paris") + run("r2", "Rome")
    b = run("r1", "Paris") + run("r2", "Paris!")
    found = compare(a, b, text_contains("Paris"), n_resamples=50)
    assert found.metric == "contains_Paris"
    assert found.table["mean"].tolist() == [0.5, 1.0, 0.5]
    assert "contains_Paris: b - a, 95% bootstrap intervals (50 resamples)" in found._repr_html_()
    assert repr(found).startswith("<compare 'contains_Paris': a vs b>\n")


def test_the_plot_draws_three_intervals() -> None:
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = compare(pd.DataFrame({"x": [1.0, 2.0]}), pd.DataFrame({"x": [3.0]}), "x", n_resamples=20).plot()
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "b - a"]
    plt.close("all")


def test_the_arguments_are_checked() -> None:
    frame = pd.DataFrame({"x": [1.0], "s": ["a"]})
    with pytest.raises(OptionError, match=r"^compare: b has no column 'x'$"):
        compare(frame, pd.DataFrame({"y": [1.0]}), "x")
    with pytest.raises(OptionError, match=r"takes a boolean or numeric metric"):
        compare(frame, frame, "s")
    with pytest.raises(InputTypeError, match=r"^compare: a must be a table"):
        compare([], frame, "x")
    with pytest.raises(OptionError, match=r"^compare: confidence must be between 0 and 1, not 1.5$"):
        compare(frame, frame, "x", confidence=1.5)
    with pytest.raises(OptionError, match=r"^compare: labels must differ"):
        compare(frame, frame, "x", labels=("a", "a"))
