"""A notebook whose saved outputs hold a chat's static copy, made as a user makes one: by executing it (nbclient).

The notebook is written unsigned, so a Jupyter server that opens it treats its outputs as untrusted (no
``<style>``, sanitized HTML): what a fresh clone of a repository shows.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

DEMO_CELLS = [
    'from agui_notebook import ChatWidget, DemoAgent\n\nchat = ChatWidget(DemoAgent(speed=0), title="Demo agent")\n'
    "chat",
    'await chat.send_message("What\'s the weather in Paris?")',
]
"""The quickstart's first screen: the demo agent's plan, reasoning, weather tool, markdown answer (a heading, a
table, code), source, image, and a second tool call waiting for approval."""


def executed_notebook(cells: list[str], folder: Path) -> dict[str, Any]:
    """The notebook of code ``cells`` after a run in a fresh python3 kernel (started in ``folder``, importing
    this checkout), saved as JupyterLab would save it but unsigned, and without widget state."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(source) for source in cells],
        metadata={
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
    )
    env = {
        **os.environ,
        "AGUI_DEMO_SPEED": "0",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])),
    }
    NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=120,
        store_widget_state=False,
        record_timing=False,
        resources={"metadata": {"path": str(folder)}},
    ).execute(env=env)
    notebook.metadata.pop("widgets", None)
    return nbformat.from_dict(notebook)


def static_copy_html(notebook: dict[str, Any]) -> str:
    """The text/html of the (first) static copy among the notebook's outputs, "" when there is none."""
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            html = output.get("data", {}).get("text/html", "")
            html = "".join(html) if isinstance(html, list) else html
            if 'class="agui-static"' in html:
                return html
    return ""
