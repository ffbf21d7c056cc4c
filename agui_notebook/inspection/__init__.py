"""``agui_notebook.inspection``: Looking into recorded runs (docs/inspect.md): assertions over a run
(``expect``), two runs side by side (``diff_runs``), the run input to continue a conversation from any event
(``fork``) and a run scrubbed event by event (``inspect_run``, the ``Inspector`` widget).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agui_notebook._lazy import lazy_namespace

_EXPORTS: dict[str, str] = {
    "diff_runs": "agui_notebook.inspection._diff",
    "expect": "agui_notebook.inspection._expect",
    "fork": "agui_notebook.inspection._fork",
    "Inspector": "agui_notebook.widget._inspector",
    "inspect_run": "agui_notebook.widget._inspector",
}

__all__ = sorted(_EXPORTS)

if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_namespace(__name__, _EXPORTS)

if TYPE_CHECKING:
    from agui_notebook.inspection._diff import diff_runs as diff_runs
    from agui_notebook.inspection._expect import expect as expect
    from agui_notebook.inspection._fork import fork as fork
    from agui_notebook.widget._inspector import Inspector as Inspector, inspect_run as inspect_run
