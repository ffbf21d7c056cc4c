"""Re-execute the notebooks in place and tidy their stored outputs (run it after changing the package).

    .venv/bin/python notebooks/refresh.py                 # every notebook
    .venv/bin/python notebooks/refresh.py replay agents   # some of them

The stored outputs are what `pytest --nbval` compares against, so they must come from a clean run. Runs use
AGUI_DEMO_SPEED=0 (no demo pauses, as in the tests) and keep only what a reader needs: no saved widget state
(it would hold the whole front-end bundle), no outputs of cells that display a widget (those cells carry nbval's
`nbval-ignore-output` tag, and their widget is gone once the kernel stops), no per-cell execution timestamps.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def refresh(path: Path) -> float:
    """Execute ``path`` in a fresh python3 kernel, tidy it and write it back; returns the seconds taken."""
    notebook = nbformat.read(path, as_version=4)
    started = time.monotonic()
    NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=120,
        store_widget_state=False,
        record_timing=False,
        resources={"metadata": {"path": str(HERE)}},
    ).execute()
    elapsed = time.monotonic() - started
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = [o for o in cell.outputs if WIDGET_VIEW not in o.get("data", {})]
    nbformat.write(notebook, path)
    return elapsed


def main(names: list[str]) -> None:
    os.environ["AGUI_DEMO_SPEED"] = "0"
    paths = [HERE / f"{name.removesuffix('.ipynb')}.ipynb" for name in names] or sorted(HERE.glob("*.ipynb"))
    for path in paths:
        print(f"{path.name}: {refresh(path):.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
