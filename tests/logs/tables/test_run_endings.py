"""How each run ended: the last RUN_FINISHED / RUN_ERROR of a run, and the error texts the tables report."""

from __future__ import annotations

from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._frame import EventFrame
from agui_notebook.logs.tables._run_endings import errors_by_run, run_endings, run_error_text
from tests.logs.samples import at


def test_the_ending_of_each_run_and_its_error() -> None:
    events = [
        at(0, "RUN_STARTED", threadId="t", runId="a"),
        at(1, "RUN_FINISHED", threadId="t", runId="a"),
        at(2, "RUN_STARTED", threadId="t", runId="b"),
        at(3, "RUN_ERROR", message="boom", code="529"),
        at(4, "RUN_STARTED", threadId="t", runId="c"),
    ]
    ev = EventFrame(load_events(events))
    last, endings = run_endings(ev)
    assert last.tolist() == [1, 3, -1]  # run c never ended
    assert [event["type"] for event in endings] == ["RUN_FINISHED", "RUN_ERROR"]
    assert errors_by_run(ev, last, endings) == {1: "boom [529]"}


def test_run_error_text() -> None:
    assert run_error_text({"type": "RUN_ERROR", "message": "model overloaded", "code": "529"}) == (
        "model overloaded [529]"
    )
    assert run_error_text({"type": "RUN_ERROR", "message": "boom"}) == "boom"
    assert run_error_text({"type": "RUN_ERROR"}) == ""
