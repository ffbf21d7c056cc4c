"""What apply_events returns: the thread's models and one record per run."""

from __future__ import annotations

from ag_ui.core import AssistantMessage, Interrupt, ToolMessage, UserMessage

from agui_notebook.agui._apply import apply_events
from tests.agui.apply_cases import CASES


def test_messages_are_models_and_interrupts_too() -> None:
    thread = apply_events(CASES["interrupt-outcome"]["events"], messages=[UserMessage(id="u0", content="hi")])
    assert [type(m) for m in thread.messages] == [UserMessage, AssistantMessage]
    assert thread.messages[1].tool_calls[0].function.name == "delete"
    assert [type(i) for i in thread.interrupts] == [Interrupt, Interrupt]
    assert thread.interrupts[0].tool_call_id == "c1"
    assert thread.outcome == "interrupt"
    assert isinstance(apply_events(CASES["tool-without-parent"]["events"]).messages[1], ToolMessage)


def test_run_records() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r1", "timestamp": 1000},
        {"type": "STEP_STARTED", "stepName": "plan", "timestamp": 1001},
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "f"},
        {"type": "TOOL_CALL_END", "toolCallId": "c1"},
        {"type": "STEP_FINISHED", "stepName": "plan", "timestamp": 1005},
        {"type": "SUBAGENT_STARTED", "subagentRunId": "s1", "name": "helper"},
        {"type": "SUBAGENT_FINISHED", "subagentRunId": "s1", "result": 3},
        {
            "type": "RUN_FINISHED",
            "threadId": "t",
            "runId": "r1",
            "timestamp": 1500,
            "result": {"ok": True},
            "usage": [{"provider": "openai", "model": "m", "inputTokens": 10, "outputTokens": 5}],
        },
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r2", "timestamp": 2000},
        {"type": "RUN_ERROR", "message": "boom", "code": "E1", "timestamp": 2100},
    ]
    first, second = apply_events(events).runs
    assert (first.run_id, first.outcome, first.result, first.duration_ms, first.event_count) == (
        "r1",
        "success",
        {"ok": True},
        500,
        8,
    )
    assert first.pending_tool_call_ids == ["c1"]
    assert first.usage == [{"provider": "openai", "model": "m", "inputTokens": 10, "outputTokens": 5}]
    assert [(s.name, s.start_index, s.end_index, s.finished_at) for s in first.steps] == [
        ("plan", 1, 4, 1005)
    ]
    assert [(s.subagent_run_id, s.name, s.outcome, s.result) for s in first.subagents] == [
        ("s1", "helper", "success", 3)
    ]
    assert (
        second.run_id,
        second.outcome,
        second.error,
        second.error_code,
        second.start_index,
        second.end_index,
    ) == (
        "r2",
        "error",
        "boom",
        "E1",
        8,
        9,
    )
