"""Fixtures of the logs tests: the known log as a file, and the tables of the known and the captured logs."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from agui_notebook.logs._load import load_events
from tests.logs.samples import CAPTURES, jsonl, known_events


@pytest.fixture
def known_log(tmp_path: Path) -> Path:
    """``known_events()`` as a JSONL file."""
    path = tmp_path / "known.jsonl"
    path.write_bytes(jsonl(known_events()))
    return path


@pytest.fixture(scope="module")
def known() -> pd.DataFrame:
    """The events table of ``known_events()``."""
    return load_events(known_events())


@pytest.fixture(scope="module")
def captured() -> pd.DataFrame:
    """The events table of the recorded pydantic-ai runs (tests/fixtures/logs/capture.py made them)."""
    return load_events(CAPTURES / "pydantic_ai_runs.jsonl")
