"""Ground truth: the same pydantic-ai run, read as AG-UI events by us and as AI SDK chunks by the AI SDK.

pydantic-ai's AGUIAdapter and VercelAIAdapter stream one offline FunctionModel run in both protocols; our
UIMessage from the AG-UI stream must equal the AI SDK's ``readUIMessageStream`` over the AI SDK stream (ids and
provider metadata aside).
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from agui_notebook.agui._tool_outcome import FAILED_CLOSEOUT
from agui_notebook.bridge._assemble import ui_chunks_from_events, ui_message_dicts_from_events
from tests.support.pydantic_ai_runs import (
    SCENARIOS,
    CapturedApproval,
    CapturedRun,
    capture,
    capture_approval,
    make_approval_agent,
    resume_vercel,
)

READER = "ui_messages_from_chunk_streams.mjs"


def comparable_parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Parts without what legitimately differs between the two protocols: ids and provider metadata."""
    parts = []
    for part in message["parts"]:
        part = {
            k: v
            for k, v in part.items()
            if k not in ("providerMetadata", "callProviderMetadata", "resultProviderMetadata")
            and not (k == "id" and part["type"] == "reasoning")
        }
        if "approval" in part:
            # the interrupt id and message are AG-UI facts the AI SDK stream has no counterpart for
            part["approval"] = {k: v for k, v in part["approval"].items() if k not in ("id", "requestReason")}
        parts.append(part)
    return parts


@pytest.fixture(scope="module")
def runs() -> list[CapturedRun]:
    async def all_runs() -> list[CapturedRun]:
        return [await capture(name) for name in SCENARIOS]

    return asyncio.run(all_runs())


@pytest.fixture(scope="module")
def reference(runs: list[CapturedRun], node_reference) -> dict[str, dict[str, Any]]:
    """The AI SDK's reading of each run's AI SDK stream, and of our chunks for its AG-UI stream."""
    streams = []
    for run in runs:
        streams.append({"chunks": run.ai_sdk_chunks})
        streams.append({"chunks": list(ui_chunks_from_events(run.agui_events))})
    results = node_reference(READER, {"streams": streams})
    return {
        run.name: {"theirs": results[2 * i], "ours_via_ai": results[2 * i + 1]} for i, run in enumerate(runs)
    }


@pytest.mark.node
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_our_chunks_read_by_the_ai_sdk_match_its_own_stream(name: str, reference: dict) -> None:
    theirs, ours = reference[name]["theirs"], reference[name]["ours_via_ai"]
    assert ours["thrown"] is None
    assert comparable_parts(ours["message"]) == comparable_parts(theirs["message"])
    assert ours["errors"] == theirs["errors"]


@pytest.mark.node
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_ui_messages_from_events_match_the_ai_sdk(
    name: str, runs: list[CapturedRun], reference: dict
) -> None:
    run = next(r for r in runs if r.name == name)
    messages = ui_message_dicts_from_events(run.agui_events)
    assert [m["role"] for m in messages] == ["assistant"]
    theirs = comparable_parts(reference[name]["theirs"]["message"])
    run_error = next((e["message"] for e in run.agui_events if e["type"] == "RUN_ERROR"), None)
    for part in theirs:
        if part.get("errorText") == FAILED_CLOSEOUT:
            # One deliberate difference: pydantic-ai closes every open call of a failed run with one text; its
            # RUN_ERROR says which failed, and the engine (live and offline alike, as tool_calls_df) shows it.
            part["errorText"] = run_error
    assert comparable_parts(messages[0]) == theirs


@pytest.mark.node
@pytest.mark.parametrize("approved", [True, False])
def test_approval_and_resume_match_the_ai_sdk(approved: bool, node_reference) -> None:
    captured: CapturedApproval = asyncio.run(capture_approval(approved))
    (first,) = node_reference(READER, {"streams": [{"chunks": captured.first_run_chunks}]})
    requested = first["message"]
    answered = copy.deepcopy(requested)
    for part in answered["parts"]:
        if part.get("state") == "approval-requested":
            part["state"] = "approval-responded"
            part["approval"]["approved"] = approved
    user = {"id": "user-1", "role": "user", "parts": [{"type": "text", "text": "Delete /tmp/x"}]}
    resumed_chunks = asyncio.run(resume_vercel(make_approval_agent(), [user, answered]))
    (final,) = node_reference(READER, {"streams": [{"chunks": resumed_chunks, "message": answered}]})

    run_1_end = next(i for i, e in enumerate(captured.agui_events) if e["type"] == "RUN_FINISHED") + 1
    after_first = ui_message_dicts_from_events(captured.agui_events[:run_1_end])
    assert comparable_parts(after_first[-1]) == comparable_parts(requested)
    tool = after_first[-1]["parts"][-1]
    assert tool["state"] == "approval-requested"
    assert tool["approval"]["id"] == "int-call_d"  # the approval id is the AG-UI interrupt id

    messages = ui_message_dicts_from_events(captured.agui_events)
    assert [m["role"] for m in messages] == [
        "user",
        "assistant",
    ]  # the resumed run continues the same message
    assert comparable_parts(messages[-1]) == comparable_parts(final["message"])


@pytest.mark.node
def test_metadata_chunks_read_by_the_ai_sdk_build_our_message(node_reference) -> None:
    """Event metadata travels in the chunks' provider metadata: the AI SDK builds the same parts from them."""
    from tests.bridge.test_assemble import METADATA_EVENTS

    events = [e for e in METADATA_EVENTS if e.get("messageId") != "u1"]
    (read,) = node_reference(READER, {"streams": [{"chunks": list(ui_chunks_from_events(events))}]})
    assert read["thrown"] is None
    (ours,) = ui_message_dicts_from_events(events)
    # An ACTIVITY_DELTA's metadata has no AI SDK chunk (a data chunk only replaces the data): ours is newer.
    data = next(p for p in ours["parts"] if p["type"] == "data-plan")
    assert data["providerMetadata"] == {"ag-ui": {"metadata": {"v": 2, "w": 1}}}
    data["providerMetadata"] = {"ag-ui": {"metadata": {"v": 1}}}
    assert read["message"]["parts"] == ours["parts"]
