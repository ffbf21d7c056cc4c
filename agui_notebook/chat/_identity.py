"""Where a chat's log lives by default: beside its notebook, named by the cell that made it.

In JupyterLab and Notebook 7 the kernel knows its notebook (the server starts it with ``JPY_SESSION_NAME``, the
notebook's absolute path) and the cell it runs (every execute request carries the cell's ``cellId``). A chat made
in a cell keeps its log in ``.agui-chats/<notebook file name>/<cell id>.jsonl`` beside the notebook, so running
the cell again, or restarting the kernel and running all cells, opens the same log and the conversation goes on.
A second chat made by the same run of the cell is ``<cell id>-2``, and so on. Outside a notebook (a script, a
test, a kernel without cell ids) there is no default: the chat keeps its records in memory.

Delete the ``.agui-chats`` folder (or one file in it) to forget the conversations; a notebook renamed while its
kernel runs keeps writing under the old name until the kernel restarts.

>>> log_folder("/work/notebooks/trip.ipynb")
PosixPath('/work/notebooks/.agui-chats/trip.ipynb')
>>> log_name("3f2a-b1", 0), log_name("3f2a-b1", 1), log_name("../x", 0)
('3f2a-b1.jsonl', '3f2a-b1-2.jsonl', '___x.jsonl')
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

__all__ = ["LOG_FOLDER", "default_log_path", "log_folder", "log_name", "notebook_cell"]

LOG_FOLDER = ".agui-chats"
"""The hidden folder beside a notebook that holds its chats' logs."""

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_made: dict[str, int] = {}  # execute request id -> chats made by it so far


def log_folder(notebook: str | os.PathLike[str]) -> Path:
    """The folder of the logs of a notebook's chats."""
    path = Path(notebook)
    return path.parent / LOG_FOLDER / path.name


def log_name(cell_id: str, index: int) -> str:
    """The file name of the ``index``-th chat (0 the first) one run of a cell made."""
    safe = _UNSAFE.sub("_", cell_id)[:100] or "cell"
    return f"{safe}.jsonl" if index == 0 else f"{safe}-{index + 1}.jsonl"


def _parent_message() -> dict[str, Any] | None:
    """The execute request the kernel is running, if this is an IPython kernel (ipykernel)."""
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None)
    shell = get() if callable(get) else None
    kernel = getattr(shell, "kernel", None)
    get_parent = getattr(kernel, "get_parent", None)
    if not callable(get_parent):
        return None
    try:
        parent = get_parent("shell")
    except TypeError:  # an older ipykernel: one parent
        parent = get_parent()
    return parent if isinstance(parent, dict) else None


def notebook_cell() -> tuple[Path, str, str] | None:
    """``(notebook path, cell id, execute request id)`` of the cell running now, or None outside a notebook."""
    session = os.environ.get("JPY_SESSION_NAME", "")
    if not session.endswith(".ipynb") or not os.path.isabs(session):
        return None
    parent = _parent_message()
    if parent is None:
        return None
    metadata = parent.get("metadata")
    cell_id = metadata.get("cellId") if isinstance(metadata, dict) else None
    header = parent.get("header")
    msg_id = header.get("msg_id") if isinstance(header, dict) else None
    if not isinstance(cell_id, str) or not cell_id or not isinstance(msg_id, str):
        return None
    return Path(session), cell_id, msg_id


def default_log_path() -> Path | None:
    """The log of a chat made now in a notebook cell (see the module docstring), or None outside a notebook."""
    found = notebook_cell()
    if found is None:
        return None
    notebook, cell_id, msg_id = found
    index = _made.get(msg_id, 0)
    if len(_made) > 1000:
        _made.clear()
    _made[msg_id] = index + 1
    return log_folder(notebook) / log_name(cell_id, index)
