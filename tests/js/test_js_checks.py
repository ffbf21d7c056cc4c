"""The front end's own checks (js/package.json scripts): tsc over the JSDoc types, ESLint, and node's unit tests."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.support.node import JS

# The npm packages each script runs; without them the check cannot run, which is a failure, not a skip.
NEEDS = {
    "typecheck": ["typescript"],
    "lint": ["eslint", "@eslint/js", "globals"],
    "test": ["jsdom", "dompurify", "marked"],
}


@pytest.mark.node
@pytest.mark.parametrize("script", ["typecheck", "lint", "test"])
def test_npm_script_passes(script: str) -> None:
    npm = shutil.which("npm")
    assert npm is not None, "npm is needed for the front end's checks (install node.js)"
    missing = [name for name in NEEDS[script] if not (JS / "node_modules" / name / "package.json").is_file()]
    assert not missing, f"js/node_modules lacks {', '.join(missing)}: run `npm install` in js/"
    completed = subprocess.run(
        [npm, "run", "--silent", script], cwd=JS, capture_output=True, text=True, timeout=600, check=False
    )
    assert completed.returncode == 0, (
        f"npm run {script} failed ({completed.returncode}):\n{completed.stdout}\n{completed.stderr}"
    )
