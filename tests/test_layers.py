"""The rooms' layers, checked by import-linter against the contracts in pyproject.toml (``[tool.importlinter]``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {contract["id"]: contract for contract in config["contracts"]}


def test_the_import_contracts_hold() -> None:
    if not LINT_IMPORTS.exists():
        pytest.skip("import-linter is not installed (pip install import-linter)")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    done = subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
    assert "0 broken" in done.stdout


def test_every_room_is_in_a_layer() -> None:
    rooms = _contracts()["rooms"]
    package = ROOT / "agui_notebook"
    children = {p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
    children |= {p.parent.name for p in package.glob("*/__init__.py")}
    layered = {name.strip() for layer in rooms["layers"] for name in layer.split("|")}
    assert not rooms.get("exhaustive_ignores"), "every room is in a layer"
    assert children == layered


def test_the_architecture_doc_names_every_module_in_its_room() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text()
    rows = {}
    for line in doc.split("## Folder map", 1)[1].splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1].strip()
            rows[first.split("`")[1].rstrip("/")] = line
    package = ROOT / "agui_notebook"
    for path in sorted(package.rglob("*.py")):
        if path.name == "__init__.py":
            continue
        relative = path.relative_to(package)
        room = relative.parts[0] if len(relative.parts) > 1 else relative.name
        assert room in rows, f"docs/architecture.md has no row for {room}"
        assert f"`{path.name}`" in rows[room], (
            f"docs/architecture.md does not name {relative} in its room's row"
        )
