"""Every stream reader gives the same result for a stream fed whole and fed in random slices.

The readers are the public entry points: the AG-UI intake (``iter_wire_events``, ``aiter_wire_events``), the
reducer (``apply_events``, ``aapply_events``), the assembler (``ui_messages_from_events``,
``aui_chunks_from_events``), the AI SDK stream readers (``iter_ui_chunks``, ``aiter_ui_chunks``,
``ui_message_from_chunks``), the log loader (``load_events``) and ``HttpAgent`` against a server on 127.0.0.1
that sends its body in the same random slices.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import StreamingResponse
from starlette.routing import Route

from agui_notebook import (
    HttpAgent,
    aapply_events,
    aiter_ui_chunks,
    apply_events,
    aui_chunks_from_events,
    iter_ui_chunks,
    iter_wire_events,
    load_events,
    ui_chunks_from_events,
    ui_message_from_chunks,
    ui_messages_from_events,
)
from agui_notebook.agui._intake import aiter_wire_events
from tests.support.loopback import serve_on_loopback
from tests.wire.streams import cuts

BEYOND_FLOAT = "<1e400>"
"""Written as the number 1e400, which JSON.parse (and so every reader here) reads as infinity."""
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DELTAS = st.lists(
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6)
    | st.sampled_from(["😀", "\n\n", "data: x", "\r\n", "é"]),
    min_size=1,
    max_size=5,
)


def agui_run(deltas: list[str]) -> list[dict[str, Any]]:
    """A small valid AG-UI run: text streamed in ``deltas``, a tool call, a state snapshot."""
    return [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
        *({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": d} for d in deltas),
        {"type": "TEXT_MESSAGE_END", "messageId": "m"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "parentMessageId": "m"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": json.dumps({"q": "".join(deltas)})},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "STATE_SNAPSHOT", "snapshot": {"n": BEYOND_FLOAT if len(deltas) > 3 else 1}},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ]


def ui_stream(deltas: list[str]) -> list[dict[str, Any]]:
    """A small valid AI SDK UI-message stream."""
    return [
        {"type": "start", "messageId": "a"},
        {"type": "text-start", "id": "t"},
        *({"type": "text-delta", "id": "t", "delta": d} for d in deltas),
        {"type": "text-end", "id": "t"},
        {"type": "finish"},
    ]


def _dumps(event: dict[str, Any]) -> str:
    return json.dumps(event, ensure_ascii=False).replace(f'"{BEYOND_FLOAT}"', "1e400")


def as_sse(events: list[dict[str, Any]], *, bom: bool, done: bool) -> bytes:
    text = "".join(f"data: {_dumps(e)}\r\n\r\n" for e in events)
    text += "data: [DONE]\n\n" if done else ""
    return (b"\xef\xbb\xbf" if bom else b"") + text.encode()


def as_jsonl(events: list[dict[str, Any]]) -> bytes:
    return "".join(_dumps(e) + "\n" for e in events).encode()


async def _aiter(pieces: list[bytes]) -> AsyncIterator[bytes]:
    for piece in pieces:
        await asyncio.sleep(0)
        yield piece


def _dump(messages: list[Any]) -> list[Any]:
    return [m.model_dump(mode="json") for m in messages]


@SETTINGS
@given(st.data(), DELTAS, st.booleans(), st.sampled_from(["sse", "jsonl"]))
def test_the_agui_readers_agree_on_slices(
    data: st.DataObject, deltas: list[str], bom: bool, kind: str
) -> None:
    events = agui_run(deltas)
    whole = as_sse(events, bom=bom, done=True) if kind == "sse" else as_jsonl(events)
    pieces = data.draw(cuts(whole))
    expected = list(iter_wire_events(whole))
    assert list(iter_wire_events(pieces)) == expected

    async def read_async() -> tuple[Any, ...]:
        wire = [e async for e in aiter_wire_events(_aiter(pieces))]
        state = await aapply_events(_aiter(pieces))
        chunks = [c async for c in aui_chunks_from_events(_aiter(pieces))]
        return wire, state, chunks

    wire, state, chunks = asyncio.run(read_async())
    assert wire == expected
    reference = apply_events(whole)
    assert (state.messages, state.state) == (reference.messages, reference.state)
    assert apply_events(pieces).messages == reference.messages
    assert _dump(ui_messages_from_events(pieces)) == _dump(ui_messages_from_events(whole))
    assert chunks == list(ui_chunks_from_events(whole))


@SETTINGS
@given(st.data(), DELTAS, st.booleans(), st.sampled_from(["sse", "jsonl"]))
def test_the_ui_chunk_readers_agree_on_slices(
    data: st.DataObject, deltas: list[str], bom: bool, kind: str
) -> None:
    chunks = ui_stream(deltas)
    whole = as_sse(chunks, bom=bom, done=True) if kind == "sse" else as_jsonl(chunks)
    pieces = data.draw(cuts(whole))
    assert list(iter_ui_chunks(whole)) == chunks
    assert list(iter_ui_chunks(pieces)) == chunks
    message = ui_message_from_chunks(whole)
    assert ui_message_from_chunks(pieces) == message
    assert "".join(p.text for p in message.parts if p.type == "text") == "".join(deltas)

    async def read_async() -> tuple[Any, Any]:
        read = [c async for c in aiter_ui_chunks(_aiter(pieces))]
        return read, await ui_message_from_chunks(_aiter(pieces))

    read, async_message = asyncio.run(read_async())
    assert read == chunks
    assert async_message == message


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DELTAS, st.booleans(), st.sampled_from(["sse", "jsonl", "recorded"]))
def test_the_log_loader_reads_what_the_core_reads(deltas: list[str], bom: bool, kind: str) -> None:
    events = agui_run(deltas)
    if kind == "recorded":
        text = "".join(_dumps({"received_ns": i, "event": e}) + "\n" for i, e in enumerate(events)).encode()
    elif kind == "sse":
        text = as_sse(events, bom=bom, done=True)
    else:
        text = (b"\xef\xbb\xbf" if bom else b"") + as_jsonl(events)
    frame = load_events(text)
    core = list(iter_wire_events(text, expand_chunks=False))
    assert list(frame["type"]) == [e["type"] for e in core]
    assert list(frame["event"]) == core


# -- HttpAgent: a server on 127.0.0.1 sends the body in the slices the test asks for ---------------------------


async def _sliced(request: Request) -> StreamingResponse:
    body = await request.json()
    pieces = [base64.b64decode(p) for p in body["forwardedProps"]["pieces"]]

    async def stream() -> AsyncIterator[bytes]:
        for piece in pieces:
            yield piece
            await asyncio.sleep(0)

    return StreamingResponse(stream(), media_type="text/event-stream")


@pytest.fixture(scope="module")
def sliced_server() -> Iterator[str]:
    with serve_on_loopback(Starlette(routes=[Route("/sliced", _sliced, methods=["POST"])])) as url:
        yield f"{url}/sliced"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), deltas=DELTAS, bom=st.booleans())
def test_http_agent_reads_a_body_cut_anywhere(
    sliced_server: str, data: st.DataObject, deltas: list[str], bom: bool
) -> None:
    events = agui_run(deltas)
    body = as_sse(events, bom=bom, done=False)
    pieces = data.draw(cuts(body))
    run_input = {
        "threadId": "t",
        "runId": "r",
        "messages": [],
        "tools": [],
        "context": [],
        "state": None,
        "forwardedProps": {"pieces": [base64.b64encode(p).decode() for p in pieces]},
    }

    async def run() -> list[dict[str, Any]]:
        return [e async for e in HttpAgent(sliced_server, timeout=20).run(run_input)]

    assert asyncio.run(run()) == list(iter_wire_events(body, expand_chunks=False))
