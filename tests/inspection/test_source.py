"""The inspect functions' sources: every kind read as one events frame, one run picked by index or id."""

from __future__ import annotations

import pytest

from agui_notebook import OptionError, load_events
from agui_notebook.inspection._source import inspected_run
from tests.logs.samples import CAPTURES, jsonl, known_events

LOG = CAPTURES / "pydantic_ai_runs.jsonl"


def test_every_source_kind_reads_as_the_same_events() -> None:
    events = known_events()
    whole = [inspected_run(source).events for source in (events, jsonl(events), load_events(events))]
    assert whole[0] == whole[1] == whole[2] == events


def test_a_run_is_picked_by_index_from_either_end_or_by_id() -> None:
    by_index, from_end, by_id = (inspected_run(LOG, run) for run in (2, -4, "parallel_tools"))
    assert by_index.start == from_end.start == by_id.start == 33
    assert by_id.label == "run 'parallel_tools'"
    assert by_id.where(4) == "event 37 (TOOL_CALL_START)"
    assert {e["type"] for e in by_id.events} >= {"RUN_STARTED", "RUN_FINISHED"}
    assert len(by_id.frame) == 18 and list(by_id.frame.index) == list(range(18))


def test_runs_sharing_an_id_are_told_apart_by_key() -> None:
    run = known_events()[1:30]  # r1, whole
    twice = run + run
    with pytest.raises(
        OptionError, match=r"^run='r1': 2 runs have that id; pick one by key \('r1#1', 'r1#2'\)$"
    ):
        inspected_run(twice, "r1")
    second = inspected_run(twice, "r1#2")
    assert (second.start, second.label) == (29, "run 'r1#2' (id 'r1')")


def test_a_bad_run_says_what_there_is() -> None:
    with pytest.raises(OptionError, match=r"^run=True: give a run's index or id, not a bool$"):
        inspected_run(LOG, True)
    with pytest.raises(OptionError, match=r"^run=-7: the source has 6 runs$"):
        inspected_run(LOG, -7)
