"""pydantic-ai's tool-outcome claim: read as its producer reads it, and what each consumer makes of it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from agui_notebook import tool_calls_df, ui_chunks_from_events
from agui_notebook.agui._tool_outcome import (
    CLAIMED_OUTCOMES,
    ERROR_OUTCOMES,
    UNSUCCESSFUL_OUTCOMES,
    claimed_outcome,
    failed_call,
)

CAPTURE = Path(__file__).resolve().parent.parent / "fixtures" / "logs" / "pydantic_ai_runs.jsonl"


def claim(outcome: Any, **more: Any) -> str:
    """An encrypted value as pydantic-ai writes it (``json.dumps``, so with spaces)."""
    return orjson.dumps({"pydantic_ai": {"outcome": outcome, **more}}).decode().replace(":", ": ")


def test_the_outcome_groups() -> None:
    assert sorted(CLAIMED_OUTCOMES) == ["denied", "failed", "interrupted", "retried"]
    assert sorted(ERROR_OUTCOMES) == ["failed", "retried"]
    assert UNSUCCESSFUL_OUTCOMES == CLAIMED_OUTCOMES


@pytest.mark.parametrize("outcome", sorted(CLAIMED_OUTCOMES))
def test_each_claimed_outcome_is_read(outcome: str) -> None:
    assert claimed_outcome(claim(outcome)) == outcome
    assert claimed_outcome(claim(outcome, retry={"cause": "model_retry", "attempt": 1})) == outcome


@pytest.mark.parametrize(
    "value",
    [
        None,
        5,
        {"pydantic_ai": {"outcome": "failed"}},  # a dict, not the JSON text of one
        b'{"pydantic_ai": {"outcome": "failed"}}',
        "",
        "gAAAAABopaque-provider-blob",
        "[1, 2]",
        '{"pydantic_ai": {"outcome": "failed"}',  # cut short
        '{"other": {"outcome": "failed"}}',
        '{"pydantic_ai": "failed"}',
        '{"pydantic_ai": {"tool_kind": "output"}}',
        claim("success"),
        claim("exploded"),
        claim(3),
        claim(["failed"]),
        "[" * 5000 + "]" * 5000,  # deeper than any JSON reader nests
    ],
)
def test_anything_else_claims_nothing(value: Any) -> None:
    assert claimed_outcome(value) is None


def test_a_claim_is_json_so_whitespace_around_it_is_allowed() -> None:
    assert claimed_outcome(' \n{"pydantic_ai": {"outcome": "denied"}}\n') == "denied"


def test_the_claims_in_the_real_capture() -> None:
    """The recorded pydantic-ai runs claim one failed and one retried result."""
    values = [
        event["encryptedValue"]
        for event in (orjson.loads(line)["event"] for line in CAPTURE.read_bytes().splitlines())
        if event.get("type") == "REASONING_ENCRYPTED_VALUE" and event.get("subtype") == "message"
    ]
    assert sorted(filter(None, map(claimed_outcome, values))) == ["failed", "retried"]


@pytest.mark.parametrize("outcome", [*sorted(CLAIMED_OUTCOMES), "success", "exploded"])
def test_reads_what_pydantic_ai_writes_as_pydantic_ai_reads_it(outcome: str) -> None:
    utils = pytest.importorskip("pydantic_ai.ui.ag_ui._utils")
    written = utils.tool_kind_encrypted_value("function", outcome=outcome)
    assert claimed_outcome(written) == utils.parse_encrypted_outcome(written)
    assert claimed_outcome(claim(outcome)) == utils.parse_encrypted_outcome(claim(outcome))


def result_with(encrypted_value: str) -> list[dict[str, Any]]:
    """One tool call whose result "boom" is followed by an encrypted value on the result message."""
    return [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "search"},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "TOOL_CALL_RESULT", "messageId": "tr", "toolCallId": "c", "content": "boom"},
        {
            "type": "REASONING_ENCRYPTED_VALUE",
            "subtype": "message",
            "entityId": "tr",
            "encryptedValue": encrypted_value,
        },
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]


@pytest.mark.parametrize(
    ("outcome", "chunk_type", "status", "error"),
    [
        ("failed", "tool-output-error", "error", "failed: boom"),
        ("retried", "tool-output-error", "error", "retried: boom"),
        ("denied", "tool-output-denied", "denied", None),
        ("interrupted", "tool-output-available", "cancelled", None),
        ("success", "tool-output-available", "ok", None),
    ],
)
def test_what_the_bridge_and_the_logs_make_of_each_outcome(
    outcome: str, chunk_type: str, status: str, error: str | None
) -> None:
    events = result_with(claim(outcome))
    outputs = [
        chunk["type"] for chunk in ui_chunks_from_events(events) if chunk["type"].startswith("tool-output")
    ]
    assert outputs == [chunk_type]
    row = tool_calls_df(events).iloc[0]
    assert row["status"] == status
    assert (None if row["error"] != row["error"] else row["error"]) == error


def test_an_encrypted_value_that_is_not_text_is_no_claim_for_the_bridge() -> None:
    events = result_with("ignored")
    events[4]["encryptedValue"] = {"pydantic_ai": {"outcome": "failed"}}
    outputs = [
        chunk["type"] for chunk in ui_chunks_from_events(events) if chunk["type"].startswith("tool-output")
    ]
    assert outputs == ["tool-output-available"]


@pytest.mark.parametrize(
    ("closed", "error", "culprit"),
    [
        ([("c1", "search")], "anything at all", "c1"),
        ([("c1", "search"), ("c2", "lookup_db")], "Tool 'lookup_db' exceeded max retries count of 0.", "c2"),
        ([("c1", "search"), ("c2", "lookup_db")], "Tool 'other' exceeded max retries count of 0.", None),
        ([("c1", "search"), ("c2", "search")], "Tool 'search' exceeded max retries count of 0.", None),
        ([("c1", "search"), ("c2", "lookup_db")], "search backend down", None),
        ([], "boom", None),
    ],
)
def test_the_call_that_failed_a_run(closed: list, error: str, culprit: str | None) -> None:
    assert failed_call(closed, error) == culprit
