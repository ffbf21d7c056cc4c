"""Every framework capture in tests/fixtures/producers/ through the whole pipeline.

The captures are what each framework's own AG-UI integration streamed against the scripted model
(``tests/support/scripted_model.py``; ``scripts/record_producers.py`` records them again). Each one is checked:
``verify_events`` against ag-ui-validate, ``apply_events`` against ``@ag-ui/client``, ``ui_messages_from_events``
against the reference conversation, and the tables against what the scripted model was scripted to say.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from ag_ui_validate import ValidatorOptions, create_validator

from agui_notebook import (
    apply_events,
    messages_df,
    runs_df,
    tool_calls_df,
    ui_messages_from_events,
    verify_events,
)
from agui_notebook.agui._spec_rules import SPEC_RULES
from tests.agui.test_spec_rules import NOT_CHECKED
from tests.support.node import run_node_reference
from tests.support.reference_conversation import conversation_shape, empty_messages, reference_ui_messages
from tests.support.scripted_model import REASONING_DELTAS, TEXT_DELTAS

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "producers"
CAPTURES = sorted(FIXTURES.glob("*/*.jsonl"))
IDS = [f"{path.parent.name}/{path.stem}" for path in CAPTURES]
MINE = ("crewai", "langgraph", "llamaindex", "pydantic_ai")  # frameworks whose every capture is pinned below

WEATHER = "sunny, 21 degrees in {city}"  # scripts/producers/_common.py get_weather
TEXT = "".join(TEXT_DELTAS)
REASONING = "".join(REASONING_DELTAS)

# scenario -> the tool calls the scripted model makes in it, in order: (tool name, arguments)
CALLS: dict[str, list[tuple[str, dict[str, Any]]]] = {
    "text": [],
    "reasoning": [],
    "http_500": [],
    "tool": [("get_weather", {"city": "Paris"})],
    "state": [("get_weather", {"city": "Paris"})],
    "failing_tool": [("get_weather", {"city": "Paris"})],
    "parallel_tools": [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Lyon"})],
    "two_turns": [("get_weather", {"city": "Paris"}), ("get_weather", {"city": "Lyon"})],
    "frontend_tool": [("change_background", {"background": "blue"})],
}

# scenario -> the assistant's texts (non-empty) in order, when its tools succeed
TEXTS: dict[str, list[str]] = {
    "text": [TEXT],
    "reasoning": [TEXT],
    "http_500": [],
    "frontend_tool": [],
    "tool": ["According to the tool: sunny, 21 degrees in Paris."],
    "state": ["According to the tool: sunny, 21 degrees in Paris."],
    "parallel_tools": ["According to the tool: sunny, 21 degrees in Paris; sunny, 21 degrees in Lyon."],
    "two_turns": [
        "According to the tool: sunny, 21 degrees in Paris.",
        "According to the tool: sunny, 21 degrees in Lyon.",
    ],
}

# What each framework does with a tool that raises, a model that answers 500, and reasoning_content: pinned so a
# new recording that changes it is seen.
RUN_ERRORS: dict[str, str | None] = {
    "pydantic_ai/failing_tool": "database unreachable",
    "pydantic_ai/http_500": (
        "status_code: 500, model_name: scripted, body: {'message': 'The scripted model failed on purpose (scenario"
        " http_500).', 'type': 'server_error', 'param': None, 'code': 'internal_error'}"
    ),
    "langgraph/failing_tool": "database unreachable",
    "langgraph/http_500": "Error code: 500 - The scripted model failed on purpose (scenario http_500).",
    "llamaindex/failing_tool": None,  # the workflow hands the error to the model as the tool's output
    "llamaindex/http_500": (
        "Error code: 500 - {'error': {'message': 'The scripted model failed on purpose (scenario http_500).',"
        " 'type': 'server_error', 'param': None, 'code': 'internal_error'}} [<class 'openai.InternalServerError'>]"
    ),
    "crewai/failing_tool": (
        "thread=thread-1 run=run-1: CrewAI flow failed; see server logs [AGUI_CREWAI_FLOW_ERROR_VALUEERROR]"
    ),
    "crewai/http_500": (
        "thread=thread-1 run=run-1: CrewAI flow failed; see server logs [AGUI_CREWAI_FLOW_ERROR_INTERNALSERVERERROR]"
    ),
}
SENDS_REASONING = {"pydantic_ai": True, "crewai": True, "langgraph": False, "llamaindex": False}


@cache
def events_of(path: Path) -> tuple[dict[str, Any], ...]:
    """The events of a recorder JSONL capture."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return tuple(json.loads(line)["event"] for line in lines if line.strip())


def event_list(path: Path) -> list[dict[str, Any]]:
    return json.loads(json.dumps(events_of(path)))  # a fresh copy for code that might keep or change it


def run_errors(path: Path) -> list[dict[str, Any]]:
    return [event for event in events_of(path) if event["type"] == "RUN_ERROR"]


def capture_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_every_framework_of_mine_captured_every_scenario() -> None:
    for framework in MINE:
        names = sorted(path.stem for path in (FIXTURES / framework).glob("*.jsonl"))
        assert names == sorted(CALLS), framework
        versions = json.loads((FIXTURES / framework / "versions.json").read_text())
        assert all(versions["packages"].values()), framework  # every package's version was found


# -- verify -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CAPTURES, ids=IDS)
def test_verify_agrees_with_ag_ui_validate(path: Path) -> None:
    validator = create_validator(ValidatorOptions())
    for event in events_of(path):
        validator.feed(json.dumps(event))
    validator.finalize()
    theirs = [
        (d.rule, d.severity, d.event_index)
        for d in validator.report().diagnostics
        if d.rule not in NOT_CHECKED
    ]
    ours = [(SPEC_RULES[p.code][2], p.severity, p.index) for p in verify_events(path, rules="spec")]
    assert ours == theirs


@pytest.mark.parametrize("path", CAPTURES, ids=IDS)
def test_verify_finds_no_errors(path: Path) -> None:
    assert [p.describe() for p in verify_events(path) if p.severity == "error"] == []


# -- apply_events against @ag-ui/client ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client_threads() -> dict[str, dict[str, Any]]:
    """``@ag-ui/client``'s runAgent over every capture, in one node call."""
    cases = [{"events": event_list(path)} for path in CAPTURES]
    results = run_node_reference("agui_apply.mjs", {"mode": "runAgent", "cases": cases})
    return dict(zip(IDS, results, strict=True))


@pytest.mark.node
@pytest.mark.parametrize("path", CAPTURES, ids=IDS)
def test_apply_matches_ag_ui_client(path: Path, client_threads: dict[str, dict[str, Any]]) -> None:
    theirs = client_threads[capture_id(path)]
    thread = apply_events(event_list(path))
    assert thread.message_dicts == theirs["messages"]
    assert thread.state == theirs["state"]
    if not run_errors(path):
        assert theirs.get("error") is None


@pytest.mark.parametrize("path", CAPTURES, ids=IDS)
def test_apply_reads_the_recorder_file_as_its_events(path: Path) -> None:
    assert apply_events(path).message_dicts == apply_events(event_list(path)).message_dicts


# -- UIMessages ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", CAPTURES, ids=IDS)
def test_ui_messages_agree_with_the_reference_conversation(path: Path) -> None:
    ours = ui_messages_from_events(path)
    assert conversation_shape(ours) == conversation_shape(reference_ui_messages(event_list(path)))
    assert empty_messages(ours) == []


# -- tables -------------------------------------------------------------------------------------------------------


def expected_error(event: dict[str, Any]) -> str:
    """What runs_df shows of a RUN_ERROR: its message, its code after it in brackets."""
    return f"{event['message']} [{event['code']}]" if event.get("code") else event["message"]


@pytest.mark.parametrize("path", CAPTURES, ids=IDS)
def test_runs_df_tells_each_run_outcome(path: Path) -> None:
    runs = runs_df(path)
    assert len(runs) == (2 if path.stem == "two_turns" else 1)
    errors = run_errors(path)
    if path.stem == "http_500":
        assert len(errors) == 1
    if path.stem not in ("http_500", "failing_tool"):
        assert errors == []
    statuses = ["error"] * len(errors) + ["success"] * (len(runs) - len(errors))
    assert sorted(runs.status) == sorted(statuses)
    assert [e for e in runs.error if isinstance(e, str)] == [expected_error(event) for event in errors]
    if capture_id(path) in RUN_ERRORS:
        pinned = RUN_ERRORS[capture_id(path)]
        assert [e for e in runs.error if isinstance(e, str)] == ([] if pinned is None else [pinned])


@pytest.mark.parametrize("path", CAPTURES, ids=IDS)
def test_tool_calls_df_has_every_call_with_its_result(path: Path) -> None:
    calls = tool_calls_df(path)
    for row in calls.itertuples():
        if row.tool_name == "change_background":  # a frontend tool: the client answers it in its next run
            assert row.status == "pending", row
            assert pd.isna(row.result), row
        else:
            assert row.status in ("ok", "error"), row
            if row.status == "ok":
                assert isinstance(row.result, str), row
                assert row.latency_s >= 0, row


MINE_CAPTURES = [path for path in CAPTURES if path.parent.name in MINE]
MINE_IDS = [capture_id(path) for path in MINE_CAPTURES]
FAILED_TOOL = {  # what a raising tool looks like in tool_calls_df: (status, result)
    "pydantic_ai": ("error", "Tool execution was interrupted by an error."),
    "langgraph": ("error", None),  # the graph fails before a result
    "crewai": ("error", None),  # the flow fails before a result
    "llamaindex": (
        "ok",
        "database unreachable",
    ),  # the error text is the tool's output, with nothing marking it
}


@pytest.mark.parametrize("path", MINE_CAPTURES, ids=MINE_IDS)
def test_tool_calls_df_has_the_scripted_calls(path: Path) -> None:
    calls = tool_calls_df(path)
    assert [(row.tool_name, row.args) for row in calls.itertuples()] == CALLS[path.stem]
    for row in calls.itertuples():
        result = None if pd.isna(row.result) else row.result
        if row.tool_name == "change_background":
            assert (row.status, result) == ("pending", None)
        elif path.stem == "failing_tool":
            assert (row.status, result) == FAILED_TOOL[path.parent.name]
        else:
            assert (row.status, result) == ("ok", WEATHER.format(city=row.args["city"]))
            assert row.latency_s >= 0, row


@pytest.mark.parametrize("path", MINE_CAPTURES, ids=MINE_IDS)
def test_messages_df_has_the_scripted_texts(path: Path) -> None:
    messages = messages_df(path)
    texts = [row.text for row in messages.itertuples() if row.kind == "text" and row.text]
    if path.stem == "failing_tool":
        # the model answers only where the framework gives the error back to it as the tool's output
        assert texts == ([] if run_errors(path) else ["According to the tool: database unreachable."])
    else:
        assert texts == TEXTS[path.stem]
    reasoning = [row.text for row in messages.itertuples() if row.kind == "reasoning"]
    sends = path.stem == "reasoning" and SENDS_REASONING[path.parent.name]
    assert reasoning == ([REASONING] if sends else [])


# -- a chat's log ---------------------------------------------------------------------------------------------------

CHAT_LOGS = sorted(FIXTURES.glob("*/chat/*.jsonl"))
CHAT_IDS = [f"{path.parents[1].name}/chat/{path.stem}" for path in CHAT_LOGS]


@pytest.mark.parametrize("path", CHAT_LOGS, ids=CHAT_IDS)
def test_a_chat_log_reads_back_as_the_live_conversation(path: Path) -> None:
    # `record_producers.py --chat`: a headless Chat over HttpAgent against the live integration wrote its log and
    # the UIMessages it showed; reading the log offline must give the same conversation.
    live = json.loads(path.with_suffix(".messages.json").read_text(encoding="utf-8"))
    assert conversation_shape(ui_messages_from_events(path)) == conversation_shape(live)
