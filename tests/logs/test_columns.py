"""The column catalogue: every table's columns declared once, and docs/metrics.md generated from it."""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd

from agui_notebook.logs._columns import RUN_COLUMNS, SUMMARY_DISTRIBUTIONS, TABLES, markdown_tables, names

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "metrics.md"


def test_docs_list_every_column_with_its_meaning() -> None:
    # Regenerate with: python scripts/metrics_doc.py
    assert markdown_tables() in DOC.read_text(), "docs/metrics.md is out of date with logs/_columns.py"


def test_column_names_are_unique_and_described() -> None:
    for title, columns in TABLES.items():
        column_names = [c.name for c in columns]
        assert len(column_names) == len(set(column_names)), title
        assert all(c.meaning and "\n" not in c.meaning for c in columns), title


def test_the_committed_doc_is_the_generated_one() -> None:
    # Regenerate with: python scripts/metrics_doc.py
    from agui_notebook.logs._columns import metrics_doc

    assert metrics_doc(DOC.read_text()) == DOC.read_text(), "run python scripts/metrics_doc.py"


def _tables() -> dict[str, pd.DataFrame]:
    from agui_notebook import load_events, messages_df, reasoning_df, runs_df, tool_calls_df, totals_df
    from agui_notebook.logs import chunks_df
    from tests.logs.samples import CAPTURES

    events = load_events(CAPTURES / "pydantic_ai_runs.jsonl")
    prices = {"any": {"input": 1.0, "output": 2.0}}
    return {
        "load_events": events,
        "runs_df": runs_df(events, prices=prices),
        "messages_df": messages_df(events),
        "chunks_df": chunks_df(events),
        "tool_calls_df": tool_calls_df(events),
        "reasoning_df": reasoning_df(events, tokenizer=str.split),
        "totals_df": totals_df(events, prices=prices),
    }


def test_every_table_has_the_declared_columns_and_dtypes() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the unpriced model's warning
        built = _tables()
    for title, table in built.items():
        declared = TABLES[title]
        assert [c.name for c in declared] == list(table.columns), title
        for column in declared:
            dtype = str(table[column.name].dtype)
            expected = (
                "object" if column.dtype == "str" and dtype == "object" else column.dtype
            )  # pandas < 2.3
            assert dtype == expected, (title, column.name, dtype)


def test_the_table_columns_say_how_they_are_computed() -> None:
    computed = ("runs_df", "messages_df", "chunks_df", "tool_calls_df", "reasoning_df")
    for title in computed:
        assert all(callable(column.compute) for column in TABLES[title]), title
    assert [c.name for c in TABLES["runs_df"] if c.only] == ["cost_usd"]
    assert [c.name for c in TABLES["reasoning_df"] if c.only] == ["tokens"]
    for title, columns in TABLES.items():
        assert all(
            c.unit in ("", "s", "1/s", "chars", "words", "tokens", "tokens/s", "USD") for c in columns
        ), title


def test_the_docs_lead_with_time_to_first_text() -> None:
    # What a chat user waits for comes first, in the tables and in the docs' first examples; ttft_s (which
    # counts reasoning chunks) is explained beside it.
    assert names(SUMMARY_DISTRIBUTIONS)[:2] == ["time_to_first_text_s", "ttft_s"]
    run_names = names(RUN_COLUMNS)
    assert run_names.index("time_to_first_text_s") + 1 == run_names.index("ttft_s")
    root = Path(__file__).resolve().parents[2]
    metrics = (root / "docs" / "metrics.md").read_text()
    first_example = metrics.split("```python\n", 1)[1].split("```", 1)[0]
    assert "time_to_first_text_s" in first_example and "ttft_s" not in first_example
    intro = metrics.split("```", 3)[2]
    assert "**Time to first text** (`time_to_first_text_s`) is the wait a chat user feels" in intro
    assert "`ttft_s` beside it is vLLM's TTFT read over chunks, so a reasoning chunk" in intro
    readme = (root / "README.md").read_text()
    logs_example = readme.split("**Logs**", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    first_text, ttft = logs_example.index("time_to_first_text_s"), logs_example.index("ttft_s")
    assert first_text < ttft
