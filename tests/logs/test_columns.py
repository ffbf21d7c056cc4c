"""The column catalogue: every table's columns declared once, and docs/metrics.md generated from it."""

from __future__ import annotations

from pathlib import Path

from agui_notebook.logs._columns import TABLES, markdown_tables

DOC = Path(__file__).resolve().parent.parent.parent / "docs" / "metrics.md"


def test_docs_list_every_column_with_its_meaning() -> None:
    # Regenerate with: python -m agui_notebook.logs._columns
    assert markdown_tables() in DOC.read_text(), "docs/metrics.md is out of date with logs/_columns.py"


def test_column_names_are_unique_and_described() -> None:
    for title, columns in TABLES.items():
        column_names = [c.name for c in columns]
        assert len(column_names) == len(set(column_names)), title
        assert all(c.meaning and "\n" not in c.meaning for c in columns), title
