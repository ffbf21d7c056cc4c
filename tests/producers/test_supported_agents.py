"""README.md's "Supported agents" table, cell by cell, against the producer captures.

Every framework row names the integration package and the version its captures were recorded with
(``tests/fixtures/producers/<framework>/versions.json``); every ✓ is what the package reads from that framework's
captures, every ✗ is checked not to hold, "—" (in process) means no test of ours drives the framework's agent
object, and the "differs" note lists exactly the traits below that its captures show. A new recording that
changes any of it turns this test red until the table says so.
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from agui_notebook import apply_events, runs_df, ui_messages_from_events
from scripts.producers._common import CAPTURES, get_weather
from tests.support.reference_conversation import conversation_shape
from tests.support.scripted_model import REASONING_DELTAS, TEXT_DELTAS

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "producers"
SCENARIOS = set(CAPTURES)
TEXT = "".join(TEXT_DELTAS)
REASONING = "".join(REASONING_DELTAS)
FRONTEND_RESULT = (
    "background changed to blue"  # what the chat's change_background returned (record_producers.py)
)
USAGE = (20, 4, 24)  # the scripted model's usage for the text answer: input, output, total tokens

# The table's first cell -> the fixture folder, and the package whose version the row names.
ROWS: dict[str, tuple[str, str]] = {
    "pydantic-ai": ("pydantic_ai", "pydantic-ai-slim"),
    "LangGraph": ("langgraph", "ag-ui-langgraph"),
    "CrewAI": ("crewai", "ag-ui-crewai"),
    "LlamaIndex": ("llamaindex", "llama-index-protocols-ag-ui"),
    "Google ADK": ("adk", "ag-ui-adk"),
    "AWS Strands": ("strands", "ag-ui-strands"),
    "Agent Framework": ("agent_framework", "agent-framework-ag-ui"),
    "Agno": ("agno", "agno"),
    "Langroid": ("langroid", "ag-ui-langroid"),
}
COLUMNS = [
    "framework",
    "HTTP",
    "in process",
    "text",
    "tools",
    "parallel",
    "reasoning",
    "state",
    "frontend",
    "usage",
    "differs",
]

# The tests that drive a framework's agent object in process (module, function): "in process ✓" needs them.
IN_PROCESS_TESTS: dict[str, list[tuple[str, str]]] = {
    "pydantic_ai": [
        ("tests.chat.test_agents", "test_a_pydantic_ai_agent_goes_through_its_ag_ui_adapter"),
        ("tests.widget.test_chat", "test_a_pydantic_ai_agent_with_a_function_model"),
        (
            "tests.chat.test_frontend_tools",
            "test_a_pydantic_ai_agent_calls_a_python_function_and_answers_with_its_result",
        ),
    ],
    "langgraph": [
        (
            "tests.chat.test_langgraph_frontend_tools",
            "test_a_frontend_tool_result_reaches_the_next_run_input",
        ),
        (
            "tests.chat.test_langgraph_frontend_tools",
            "test_a_frontend_tool_call_the_graph_answered_is_not_run_again",
        ),
        ("tests.chat.test_context", "test_forwarded_props_reach_a_langgraph_graph"),
    ],
}
# The one interrupt a framework's agent raises in our tests (no capture has one): pydantic-ai's tool approval.
INTERRUPT_TEST = (
    "tests.chat.test_interrupts",
    "test_pydantic_ai_approval_metadata_reaches_the_approval_card",
)


# -- reading the captures -----------------------------------------------------------------------------------------


@cache
def events(framework: str, capture: str) -> tuple[dict[str, Any], ...]:
    """The events of ``<framework>/<capture>.jsonl`` (recorder lines: ``{"received_ns", "event"}``)."""
    text = (FIXTURES / framework / f"{capture}.jsonl").read_text(encoding="utf-8")
    return tuple(json.loads(line)["event"] for line in text.splitlines() if line.strip())


def capture(framework: str, name: str) -> Path:
    return FIXTURES / framework / f"{name}.jsonl"


def parts(framework: str, name: str) -> list[list[dict[str, Any]]]:
    """The parts of each assistant turn ``ui_messages_from_events`` shows for a capture."""
    shape = conversation_shape(ui_messages_from_events(capture(framework, name)))
    return [message["parts"] for message in shape if message["role"] == "assistant"]


def carries_weather(output: Any, city: str) -> bool:
    """A tool output that is the weather for ``city``: as is, JSON-encoded, or in ADK's ``{"result": ...}``."""
    weather = get_weather(city)
    return output in (weather, json.dumps(weather), {"result": weather})


def answered_calls(turn: list[dict[str, Any]]) -> list[str]:
    """The cities of a turn's get_weather parts that end output-available with the weather for their city."""
    return [
        part["input"]["city"]
        for part in turn
        if part["type"] == "tool-get_weather"
        and part["state"] == "output-available"
        and carries_weather(part.get("output"), part["input"]["city"])
    ]


def chat_log(framework: str, name: str) -> list[dict[str, Any]]:
    text = (FIXTURES / framework / "chat" / f"{name}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line)["event"] for line in text.splitlines() if line.strip()]


def chat_records(framework: str, name: str, record: str) -> list[dict[str, Any]]:
    return [
        event["value"]
        for event in chat_log(framework, name)
        if event["type"] == "CUSTOM" and event["name"] == f"agui-notebook/{record}"
    ]


# -- what each column claims --------------------------------------------------------------------------------------


def over_http(framework: str) -> bool:
    """Every scenario captured over SSE, and both live chats over HttpAgent succeeded and read back as shown."""
    captured = {path.stem for path in (FIXTURES / framework).glob("*.jsonl")} == SCENARIOS
    chats = []
    for name in ("two_turns", "frontend_tool"):
        live = json.loads(
            (FIXTURES / framework / "chat" / f"{name}.messages.json").read_text(encoding="utf-8")
        )
        offline = ui_messages_from_events(FIXTURES / framework / "chat" / f"{name}.jsonl")
        outcomes = {end["outcome"] for end in chat_records(framework, name, "run-end")}
        chats.append(conversation_shape(offline) == conversation_shape(live) and outcomes == {"success"})
    return captured and all(chats)


def in_process(framework: str) -> bool:
    for module, function in IN_PROCESS_TESTS.get(framework, []):
        assert callable(getattr(importlib.import_module(module), function, None)), (module, function)
    return framework in IN_PROCESS_TESTS


def text(framework: str) -> bool:
    return [p["text"] for turn in parts(framework, "text") for p in turn if p["type"] == "text"] == [TEXT]


def tools(framework: str) -> bool:
    return any(answered_calls(turn) == ["Paris"] for turn in parts(framework, "tool"))


def parallel(framework: str) -> bool:
    """Both calls of one model response, each with its result, in one assistant turn."""
    return any(answered_calls(turn) == ["Paris", "Lyon"] for turn in parts(framework, "parallel_tools"))


def reasoning(framework: str) -> bool:
    found = [p["text"] for turn in parts(framework, "reasoning") for p in turn if p["type"] == "reasoning"]
    assert set(found) <= {REASONING}, found
    return bool(found)


def state(framework: str) -> bool:
    """The agent's own change (a counted visit) reaches ``apply_events(...).state`` through STATE_* events."""
    sent = [e for e in events(framework, "state") if e["type"] in ("STATE_SNAPSHOT", "STATE_DELTA")]
    final = apply_events(capture(framework, "state")).state
    assert final["background"] == "white"  # the client's state, kept
    return bool(sent) and final["visits"] > 1


def frontend(framework: str) -> bool:
    """The change_background call ends input-available for the client, and the chat's next run carries its result."""
    waiting = [
        p
        for turn in parts(framework, "frontend_tool")
        for p in turn
        if p["type"] == "tool-change_background" and p["state"] == "input-available"
    ]
    starts = chat_records(framework, "frontend_tool", "run-start")
    results = [
        (m["toolCallId"], m["content"])
        for start in starts[1:]
        for m in start["messages"]["add"]
        if m["role"] == "tool"
    ]
    in_capture = [p["toolCallId"] for p in waiting] == ["call_background_0"]
    in_chat = results == [("call_background_0", FRONTEND_RESULT)]
    assert in_capture == in_chat, (in_capture, in_chat)
    return in_capture


def usage(framework: str) -> bool:
    [run] = runs_df(capture(framework, "text")).itertuples()
    tokens: tuple[Any, ...] = (run.input_tokens, run.output_tokens, run.total_tokens)
    if all(pd.isna(value) for value in tokens):
        return False
    assert tokens == USAGE
    return True


CHECKS: dict[str, Callable[[str], bool]] = {
    "HTTP": over_http,
    "in process": in_process,
    "text": text,
    "tools": tools,
    "parallel": parallel,
    "reasoning": reasoning,
    "state": state,
    "frontend": frontend,
    "usage": usage,
}


# -- the traits a "differs" note may name: each one is in the note exactly when the captures show it ----------------


def _results_only_in_snapshots(framework: str) -> bool:
    evs = events(framework, "tool")
    in_snapshot = any(
        m.get("role") == "tool" and m.get("toolCallId") == "call_paris_0"
        for e in evs
        if e["type"] == "MESSAGES_SNAPSHOT"
        for m in e["messages"]
    )
    return in_snapshot and not any(e["type"] == "TOOL_CALL_RESULT" for e in evs)


def _result_before_end(framework: str) -> bool:
    kinds = [
        e["type"] for e in events(framework, "tool") if e["type"] in ("TOOL_CALL_RESULT", "TOOL_CALL_END")
    ]
    return kinds[:1] == ["TOOL_CALL_RESULT"]


def _result_id_is_call_id(framework: str) -> bool:
    results = [e for e in events(framework, "tool") if e["type"] == "TOOL_CALL_RESULT"]
    return bool(results) and all(e["messageId"] == e["toolCallId"] for e in results)


def usage_carriers(framework: str) -> list[str]:
    """Which events of the text capture carry token counts: RUN_FINISHED's ``usage``, CUSTOM ``usage``, RAW."""
    evs = events(framework, "text")
    carriers = {
        "RUN_FINISHED": any(e["type"] == "RUN_FINISHED" and e.get("usage") for e in evs),
        "CUSTOM": any(e["type"] == "CUSTOM" and e["name"] == "usage" for e in evs),
        "RAW": any(
            e["type"] == "RAW" and "outputtokens" in json.dumps(e["event"]).lower().replace("_", "")
            for e in evs
        ),
    }
    return [carrier for carrier, found in carriers.items() if found]


def _chunks(framework: str) -> bool:
    return any(e["type"].endswith("_CHUNK") for e in events(framework, "tool"))


def _raising_tool_ends_run(framework: str) -> bool:
    return any(e["type"] == "RUN_ERROR" for e in events(framework, "failing_tool"))


def _reasoning_twice(framework: str) -> bool:
    found = [p for turn in parts(framework, "reasoning") for p in turn if p["type"] == "reasoning"]
    return len(found) == 2


def _snapshot_last(framework: str) -> bool:
    """A MESSAGES_SNAPSHOT after the text answer's last streamed event."""
    kinds = [e["type"] for e in events(framework, "text")]
    streamed = [i for i, kind in enumerate(kinds) if kind.startswith("TEXT_MESSAGE")]
    return "MESSAGES_SNAPSHOT" in kinds[streamed[-1] :]


def _own_text_after_tool(framework: str) -> bool:
    texts = [
        p["text"] for turn in parts(framework, "tool") for p in turn if p["type"] == "text" and p["text"]
    ]
    return not texts[-1].startswith("According to the tool: ")


def _tool_outputs(framework: str) -> list[Any]:
    return [
        part["output"]
        for turn in parts(framework, "tool")
        for part in turn
        if part["type"] == "tool-get_weather" and "output" in part
    ]


def _results_quoted(framework: str) -> bool:
    """The tool's string result sent JSON-encoded again: ``'"sunny, ..."'``."""
    return _tool_outputs(framework) == [json.dumps(get_weather("Paris"))]


def _results_wrapped(framework: str) -> bool:
    return _tool_outputs(framework) == [{"result": get_weather("Paris")}]


def _timestamps(framework: str, unit: str) -> bool:
    stamps = [
        e["timestamp"] for e in events(framework, "text") if isinstance(e.get("timestamp"), (int, float))
    ]
    if not stamps:
        return False
    seconds = all(stamp < 10**11 for stamp in stamps)  # 10**11 s is the year 5138; in ms it is 1973
    return seconds if unit == "s" else not seconds


def traits(framework: str) -> set[str]:
    """The traits a framework's captures show, as its note names them (usage: ``usage in RAW, CUSTOM``)."""
    shown = {trait for trait, shows in TRAITS.items() if shows(framework)}
    carriers = usage_carriers(framework)
    return shown | ({"usage in " + ", ".join(carriers)} if carriers else set())


TRAITS: dict[str, Callable[[str], bool]] = {
    "MESSAGES_SNAPSHOT last": _snapshot_last,
    "results only in snapshots": _results_only_in_snapshots,
    "result before TOOL_CALL_END": _result_before_end,
    "result id = call id": _result_id_is_call_id,
    "result JSON-quoted": _results_quoted,
    'result as {"result": …}': _results_wrapped,
    "CHUNK events": _chunks,
    "raising tool ends run": _raising_tool_ends_run,
    "reasoning twice": _reasoning_twice,
    "own text after a tool": _own_text_after_tool,
    "times in s": lambda framework: _timestamps(framework, "s"),
    "times in ms": lambda framework: _timestamps(framework, "ms"),
}


# -- the README table ---------------------------------------------------------------------------------------------

MARK = re.compile(r"^(✓|✗|—)([¹²³⁴⁵⁶⁷⁸⁹]*)$")
ROW_NAME = re.compile(r"^(?P<name>[^`]+?) `(?P<package>[^`]+)` (?P<version>\S+)$")


def section() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Supported agents\n")
    end = readme.index("\n## ", start + 1)
    return readme[start:end]


def table() -> list[dict[str, str]]:
    lines = [line for line in section().splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == COLUMNS
    assert set(lines[1].replace("|", "").replace(" ", "")) <= {"-", ":"}
    rows = [
        dict(zip(header, (c.strip() for c in line.strip("|").split("|")), strict=True)) for line in lines[2:]
    ]
    return rows


def mark(cell: str) -> tuple[str, str]:
    """A cell's mark and its footnote marks: ``"✗¹"`` -> ``("✗", "¹")``."""
    found = MARK.match(cell)
    assert found, cell
    return found.group(1), found.group(2)


ROW_IDS = list(ROWS)


def test_the_table_has_one_row_per_captured_framework_in_its_order() -> None:
    names = [ROW_NAME.match(row["framework"]).group("name") for row in table()]  # type: ignore[union-attr]
    assert names == list(ROWS)
    assert sorted(folder for folder, _ in ROWS.values()) == sorted(
        p.name for p in FIXTURES.iterdir() if p.is_dir()
    )


def row_of(name: str) -> dict[str, str]:
    [row] = [row for row in table() if row["framework"].startswith(f"{name} `")]
    return row


@pytest.mark.parametrize("name", ROW_IDS)
def test_the_row_names_the_integration_at_the_captured_version(name: str) -> None:
    folder, package = ROWS[name]
    found = ROW_NAME.match(row_of(name)["framework"])
    assert found
    versions = json.loads((FIXTURES / folder / "versions.json").read_text(encoding="utf-8"))["packages"]
    assert (found.group("package"), found.group("version")) == (package, versions[package])


@pytest.mark.parametrize("name", ROW_IDS)
@pytest.mark.parametrize("column", list(CHECKS))
def test_every_cell_is_what_the_captures_show(name: str, column: str) -> None:
    folder, _ = ROWS[name]
    shown, _ = mark(row_of(name)[column])
    holds = CHECKS[column](folder)
    if column == "in process":
        assert shown == ("✓" if holds else "—")  # the others were tried by hand only: not tested here
    else:
        assert shown == ("✓" if holds else "✗")


@pytest.mark.parametrize("name", ROW_IDS)
def test_the_differs_note_names_exactly_the_traits_the_captures_show(name: str) -> None:
    folder, _ = ROWS[name]
    note = row_of(name)["differs"]
    named = set(note.split("; ")) if note else set()
    assert named == traits(folder)


def test_every_footnote_mark_is_explained_under_the_table_and_every_note_is_used() -> None:
    used = {m for row in table() for column in CHECKS for m in mark(row[column])[1]}
    explained = {line[0] for line in section().splitlines() if line[:1] in "¹²³⁴⁵⁶⁷⁸⁹" and line[:1]}
    assert used == explained


def test_no_capture_shows_an_interrupt_as_the_section_says() -> None:
    outcomes = [
        event.get("outcome")
        for path in sorted(FIXTURES.glob("*/*.jsonl")) + sorted(FIXTURES.glob("*/chat/*.jsonl"))
        for event in (
            json.loads(line)["event"] for line in path.read_text(encoding="utf-8").splitlines() if line
        )
        if event["type"] == "RUN_FINISHED"
    ]
    assert [o for o in outcomes if isinstance(o, dict) and o.get("type") == "interrupt"] == []
    assert [o for o in outcomes if isinstance(o, str) and o == "interrupt"] == []
    assert "No capture shows an interrupt" in " ".join(section().split())
    module, function = INTERRUPT_TEST
    assert callable(getattr(importlib.import_module(module), function, None))
