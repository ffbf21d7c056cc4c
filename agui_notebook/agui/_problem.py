"""A problem found in an AG-UI stream: what both checkers (``_verify.py``'s client rules and ``_spec_rules.py``'s
spec rules) report, and what ``ProtocolError`` carries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["Problem", "Severity"]

Severity = Literal["error", "warning", "info"]
"""How serious a problem is: ``"info"`` only with ``rules="spec"``."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found in a stream.

    ``index`` is the event's 0-based position in the input (``-1`` for the end of the stream), ``rule`` (also
    ``code``) a stable id from :data:`~agui_notebook.agui._verify.RULES` or, with ``rules="spec"``, from
    :data:`~agui_notebook.agui._spec_rules.SPEC_RULES`; ``severity`` ``"error"``, ``"warning"`` or (spec rules
    only) ``"info"``.
    """

    index: int
    rule: str
    severity: Severity
    message: str
    event_type: str | None = None
    source: str | None = None
    line: int | None = None

    @property
    def code(self) -> str:
        """The rule's id (the same as ``rule``), to filter on: ``[p for p in problems if p.code == "schema"]``."""
        return self.rule

    def describe(self) -> str:
        """The problem as one line, located: ``events.jsonl:17: event 16 (TOOL_CALL_ARGS): ...``."""
        where = "end of stream" if self.index < 0 else f"event {self.index}"
        if self.event_type is not None:
            where += f" ({self.event_type})"
        if self.line is not None and self.source is not None:
            where = f"{self.source}:{self.line}: {where}"
        return f"{where}: {self.message}"
