"""How each run ended: its last RUN_FINISHED or RUN_ERROR, which both the runs and the tool calls read."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._kinds import RUN_END_TYPES
from .._odd_values import OddValues, id_text, odd_problem
from ._frame import EventFrame, last_in_group

__all__ = ["cancelled_runs", "errors_by_run", "run_endings", "run_error_text"]


def run_endings(ev: EventFrame, odd: OddValues | None = None) -> tuple[np.ndarray, list[Any]]:
    """The last RUN_FINISHED/RUN_ERROR row of each run (-1 for none) and those events decoded (one that does
    not decode is reported in ``odd``, by default the frame's)."""
    last = ev.shared("run_endings", lambda: _last_endings(ev))
    return last, ev.decode(last[last >= 0], odd)


def _last_endings(ev: EventFrame) -> np.ndarray:
    rows = np.flatnonzero(ev.mask(RUN_END_TYPES) & (ev.run >= 0))
    found = last_in_group(ev.run, rows, ev.runs)
    found.flags.writeable = False
    return found


def run_error_text(event: dict[str, Any], row: int = -1, odd: OddValues | None = None) -> str:
    """A RUN_ERROR's message, with its code in brackets when it has one (an odd message is reported)."""
    message = event.get("message", "")
    if not isinstance(message, str):
        text = id_text(message)
        if odd is not None:
            odd.add(row, "message", odd_problem("message", message, read_as=text))
        message = text
    code = event.get("code")
    return f"{message} [{id_text(code)}]" if code else message


def errors_by_run(ev: EventFrame, last: np.ndarray, endings: list[Any]) -> dict[int, str]:
    """The error text of every run that ended with RUN_ERROR, by run key (from ``run_endings``)."""
    errors = {}
    for run, event in zip(np.flatnonzero(last >= 0).tolist(), endings, strict=True):
        if isinstance(event, dict) and event.get("type") == "RUN_ERROR":
            errors[run] = run_error_text(event)
    return errors


def cancelled_runs(last: np.ndarray, endings: list[Any]) -> set[int]:
    """The runs that finished with a ``cancelled`` outcome (stopped by the client: an AI SDK ``abort``, a
    ChatWidget's ``stop()``), by run key (from ``run_endings``)."""
    found = set()
    for run, event in zip(np.flatnonzero(last >= 0).tolist(), endings, strict=True):
        outcome = event.get("outcome") if isinstance(event, dict) else None
        if (
            event.get("type") == "RUN_FINISHED"
            and isinstance(outcome, dict)
            and outcome.get("type") == "cancelled"
        ):
            found.add(run)
    return found
