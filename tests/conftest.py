"""Fixtures for the whole suite: the npm references through node, and where artifacts go."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.node import run_node_reference

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "js"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


@pytest.fixture(scope="session")
def node_reference():
    """Call a reference script under js/reference through node: ``node_reference("x.mjs", payload)``."""
    return run_node_reference


@pytest.fixture
def artifacts_dir() -> Path:
    """Where tests save screenshots and other things worth looking at (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
