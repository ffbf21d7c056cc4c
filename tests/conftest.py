"""Shared fixtures: the npm reference implementations run through node."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "js"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def run_node_reference(script: str, payload: Any, *, timeout: float = 120) -> Any:
    """Run ``js/reference/<script>`` with ``payload`` as JSON on stdin and return its JSON stdout."""
    node = shutil.which("node")
    if node is None or not (JS / "node_modules").is_dir():
        message = "node and js/node_modules are needed (run `npm install` in js/)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    completed = subprocess.run(
        [node, str(JS / "reference" / script)],
        input=json.dumps(payload).encode(),
        capture_output=True,
        timeout=timeout,
        cwd=JS,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"{script} failed ({completed.returncode}):\n{completed.stderr.decode()}")
    return json.loads(completed.stdout)


@pytest.fixture(scope="session")
def node_reference():
    """Call a reference script under js/reference through node: ``node_reference("x.mjs", payload)``."""
    return run_node_reference


@pytest.fixture
def artifacts_dir() -> Path:
    """Where tests save screenshots and other things worth looking at (git-ignored)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
