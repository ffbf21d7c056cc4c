"""What applying AG-UI events gives: the thread (messages, state, pending interrupts) and one record per run.

:class:`ThreadState` is what ``apply_events`` returns; :class:`RunInfo` and the step and subagent records inside
it say what each run did besides messages and state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ag_ui.core import Interrupt, Message
from pydantic import TypeAdapter, ValidationError

from agui_notebook._errors import MessageValidationError, json_path, no_unraisable_reports
from agui_notebook._types import JSON

__all__ = ["RunInfo", "StepInfo", "SubagentInfo", "ThreadState"]

_MESSAGE_LIST = TypeAdapter(list[Message])
_INTERRUPT_LIST = TypeAdapter(list[Interrupt])


@dataclass(slots=True)
class StepInfo:
    """One STEP_STARTED/STEP_FINISHED pair; ``end_index``/``finished_at`` stay ``None`` while it is open."""

    name: str
    subagent_run_id: str | None
    start_index: int
    started_at: int | None
    end_index: int | None = None
    finished_at: int | None = None


@dataclass(slots=True)
class SubagentInfo:
    """One subagent invocation, from SUBAGENT_STARTED to SUBAGENT_FINISHED or SUBAGENT_ERROR."""

    subagent_run_id: str
    name: str | None
    start_index: int
    started_at: int | None
    parent_subagent_run_id: str | None = None
    parent_tool_call_id: str | None = None
    parent_message_id: str | None = None
    outcome: str | None = None
    """``"success"``, ``"suspended"``, ``"error"``, or ``None`` while running."""
    result: JSON = None
    error: str | None = None
    end_index: int | None = None
    finished_at: int | None = None


@dataclass(slots=True)
class RunInfo:
    """What one run (RUN_STARTED to RUN_FINISHED/RUN_ERROR) did, besides messages and state.

    Indexes are positions in the input events; times are the events' ``timestamp`` values (milliseconds).
    ``usage`` and ``interrupts`` are wire dicts (``TokenUsage``/``Interrupt`` shapes).
    """

    thread_id: str | None
    run_id: str | None
    start_index: int
    started_at: int | None
    parent_run_id: str | None = None
    outcome: str | None = None
    """``"success"``, ``"interrupt"``, ``"cancelled"``, ``"error"`` (RUN_ERROR), or ``None`` while open."""
    result: JSON = None
    usage: list[dict[str, Any]] = field(default_factory=list)
    interrupts: list[dict[str, Any]] = field(default_factory=list)
    pending_tool_call_ids: list[str] = field(default_factory=list)
    error: str | None = None
    error_code: str | None = None
    end_index: int | None = None
    finished_at: int | None = None
    event_count: int = 0
    steps: list[StepInfo] = field(default_factory=list)
    subagents: list[SubagentInfo] = field(default_factory=list)

    @property
    def duration_ms(self) -> int | None:
        """Milliseconds from RUN_STARTED to the terminal event, when both carry timestamps."""
        if self.started_at is None or self.finished_at is None:
            return None
        return self.finished_at - self.started_at


@dataclass
class ThreadState:
    """The result of applying events: messages, state, pending interrupts and one record per run."""

    message_dicts: list[dict[str, Any]]
    """The messages as wire dicts (camelCase keys), exactly as @ag-ui/client would hold them."""
    state: JSON
    interrupt_dicts: list[dict[str, Any]]
    """Interrupts of the last RUN_FINISHED with an interrupt outcome, still waiting for a resume."""
    runs: list[RunInfo]

    @cached_property
    def messages(self) -> list[Message]:
        """The messages as validated ``ag_ui.core`` ``Message`` models.

        Raises :class:`MessageValidationError` naming the first invalid value (``messages[2].content: ...``)
        when the events built messages that are not valid AG-UI messages (``message_dicts`` has them as built).
        """
        return validated(_MESSAGE_LIST, self.message_dicts, "messages")

    @cached_property
    def interrupts(self) -> list[Interrupt]:
        """The pending interrupts as ``ag_ui.core.Interrupt`` models (:class:`MessageValidationError` if invalid)."""
        return validated(_INTERRUPT_LIST, self.interrupt_dicts, "interrupts")

    @property
    def thread_id(self) -> str | None:
        """The thread of the last run."""
        return self.runs[-1].thread_id if self.runs else None

    @property
    def outcome(self) -> str | None:
        """The last run's outcome (``None`` when there is no run or it is still open)."""
        return self.runs[-1].outcome if self.runs else None


def validated(adapter: TypeAdapter[Any], value: Any, name: str) -> Any:
    """``adapter.validate_python(value)``, a failure raised as :class:`MessageValidationError` with its path.

    >>> validated(_MESSAGE_LIST, [{"id": "u", "role": "user", "content": 5}], "messages")
    Traceback (most recent call last):
    ...
    agui_notebook.MessageValidationError: messages[0].content: Input should be a valid string
    """
    try:
        with no_unraisable_reports():
            return adapter.validate_python(value)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise MessageValidationError(json_path(name, value, error["loc"]), error["msg"]) from None
    except RecursionError:
        raise MessageValidationError(name, "a value is nested too deeply") from None
