"""The npm references (``@ag-ui/client``, ``ai``) run through node on a JSON payload."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"

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
