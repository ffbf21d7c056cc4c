"""The built wheel in a clean venv, without Node: the front end ships inside it and JupyterLab shows the chat.

The wheel is built from this checkout (the build runs npm), then installed with JupyterLab into a fresh venv from
the package index. The server runs from that venv with nothing else on PATH (no node, no npm) and without the
checkout importable, and a person chats with the demo agent in Chromium.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.jupyter import (
    ROOT,
    Lab,
    notebook_json,
    open_chat,
    run_cell_containing,
    start_server,
    stop_server,
)
from tests.support.chromium import chromium_browser, require_chromium

pytestmark = pytest.mark.e2e

INSTALL_TIMEOUT = 900  # a fresh venv gets JupyterLab and pandas from the index

CELLS = [
    """import agui_notebook
from agui_notebook import ChatWidget, DemoAgent

chat = ChatWidget(DemoAgent(speed=0), title="from the wheel")
chat""",
    'print("FROM", agui_notebook.__file__)',
]


def _run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, check=False, **options)  # type: ignore[call-overload]
    if done.returncode != 0:
        pytest.fail(
            f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    return done


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """agui-notebook's wheel, built from this checkout."""
    require_chromium()  # skip (or fail in CI) before paying for the build
    out = tmp_path_factory.mktemp("dist")
    _run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)], timeout=600
    )
    (built,) = out.glob("agui_notebook-*.whl")
    return built


@pytest.fixture(scope="module")
def clean_lab(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Lab, Path]]:
    """JupyterLab from a fresh venv holding only the wheel, its dependencies and JupyterLab."""
    base = tmp_path_factory.mktemp("clean")
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], timeout=120)
    python = venv / "bin" / "python"
    _run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            str(wheel),
            "jupyterlab>=4",
        ],
        timeout=INSTALL_TIMEOUT,
        cwd=base,
    )
    env = {
        "HOME": str(base / "home"),
        "PATH": str(venv / "bin"),  # no node, no npm, nothing of the checkout
        "LANG": os.environ.get("LANG", "C.UTF-8"),
    }
    lab = start_server(
        base / "server", "jupyterlab", {"chat.ipynb": notebook_json(CELLS)}, python=python, env=env
    )
    try:
        yield lab, venv
    finally:
        stop_server(lab)


def test_the_wheel_carries_the_front_end_and_nothing_of_the_build(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert "agui_notebook/static/widget.js" in names
    assert not [n for n in names if n.startswith(("js/", "tests/", "node_modules")) or "/node_modules/" in n]


def test_the_wheel_runs_in_jupyterlab_without_node(clean_lab: tuple[Lab, Path], artifacts_dir: Path) -> None:
    lab, venv = clean_lab
    assert not (venv / "bin" / "node").exists()
    with chromium_browser() as browser:
        page, errors = open_chat(browser, lab, "chat.ipynb", ["ChatWidget(DemoAgent"], height=1000)
        prompt = page.locator("[data-agui=input]")
        prompt.fill("What's the weather in Oslo?")
        prompt.press("Enter")
        page.wait_for_selector("[data-role=assistant] [data-part-type=text] h2")
        page.locator("[data-tool-state=approval-requested] [data-agui=approve]").wait_for(state="visible")
        page.wait_for_selector(".agui-chat[data-status=ready]")
        page.locator(".agui-chat").screenshot(path=str(artifacts_dir / "wheel-jupyterlab.png"))
        run_cell_containing(page, 'print("FROM"')
        output = page.locator(".jp-NotebookPanel .jp-Cell").nth(1).locator(".jp-OutputArea-output")
        output.wait_for(state="visible")
        assert (
            output.inner_text().strip()
            == f"FROM {next(venv.glob('lib/python*/site-packages'))}/agui_notebook/__init__.py"
        )
        assert errors == []
