"""``agui_notebook.agui``: AG-UI events: the intake (text, files and streams to event wire dicts and models),
the reference reducer (``EventReducer``, its ``ThreadState`` and ``RunInfo`` records), JSON Patch, and the
protocol checks (``Problem``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agui_notebook._lazy import lazy_namespace

_EXPORTS: dict[str, str] = {
    "aapply_events": "agui_notebook.agui._apply",
    "apply_events": "agui_notebook.agui._apply",
    "aparse_events": "agui_notebook.agui._intake",
    "iter_wire_events": "agui_notebook.agui._intake",
    "parse_events": "agui_notebook.agui._intake",
    "to_wire_event": "agui_notebook.agui._intake",
    "apply_json_patch": "agui_notebook.agui._patch",
    "Problem": "agui_notebook.agui._problem",
    "EventReducer": "agui_notebook.agui._reducer",
    "RunInfo": "agui_notebook.agui._thread",
    "ThreadState": "agui_notebook.agui._thread",
    "averify_events": "agui_notebook.agui._verify",
    "verify_events": "agui_notebook.agui._verify",
}

__all__ = sorted(_EXPORTS)

if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_namespace(__name__, _EXPORTS)

if TYPE_CHECKING:
    from agui_notebook.agui._apply import aapply_events as aapply_events, apply_events as apply_events
    from agui_notebook.agui._intake import (
        aparse_events as aparse_events,
        iter_wire_events as iter_wire_events,
        parse_events as parse_events,
        to_wire_event as to_wire_event,
    )
    from agui_notebook.agui._patch import apply_json_patch as apply_json_patch
    from agui_notebook.agui._problem import Problem as Problem
    from agui_notebook.agui._reducer import EventReducer as EventReducer
    from agui_notebook.agui._thread import RunInfo as RunInfo, ThreadState as ThreadState
    from agui_notebook.agui._verify import averify_events as averify_events, verify_events as verify_events
