"""Types reach users: mypy passes over the package (the settings in pyproject.toml), and a user's file
(tests/typing/user_code.py) type-checks against it as an installed, typed package (py.typed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
USER_CODE = Path(__file__).with_name("typing") / "user_code.py"
CACHE = ROOT / "tests" / "artifacts" / "mypy"  # git-ignored; mypy's incremental cache makes reruns fast

pytest.importorskip("mypy", reason="mypy is not installed (pip install mypy pandas-stubs)")


def _mypy(cache: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    # MYPYPATH puts this checkout first, ahead of any installed copy of the package.
    env = {**os.environ, "MYPYPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(CACHE / cache), *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_the_package_type_checks() -> None:
    done = _mypy("package")  # `files` and the strictness are in [tool.mypy]
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]
    assert done.stdout.startswith("Success: no issues found")


def test_a_user_file_type_checks_against_the_package() -> None:
    done = _mypy(
        "user",  # other settings: a cache of their own
        "--config-file",
        os.devnull,  # a user's settings, not ours
        "--strict",
        "--follow-imports=silent",  # a user never sees errors inside an installed package
        "--python-version",
        f"{sys.version_info.major}.{sys.version_info.minor}",
        str(USER_CODE),
    )
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]


def test_the_package_is_marked_typed() -> None:
    # py.typed ships in the wheel: hatch's wheel takes every file of the package folder that git does not ignore.
    assert (ROOT / "agui_notebook" / "py.typed").is_file()
    ignored = subprocess.run(
        ["git", "check-ignore", "agui_notebook/py.typed"], cwd=ROOT, capture_output=True, text=True
    )
    assert ignored.returncode == 1, (
        "agui_notebook/py.typed is ignored by git, so the wheel would leave it out"
    )
