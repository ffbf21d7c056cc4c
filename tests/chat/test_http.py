"""HttpAgent against real servers on 127.0.0.1 (uvicorn): pydantic-ai's AGUIAdapter behind starlette, and servers
that misbehave (HTML pages, empty bodies, redirects, streams cut short, events for another run, a BOM)."""

from __future__ import annotations

import asyncio
import base64
import collections
import itertools
import json
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from ag_ui.core import RunAgentInput, UserMessage
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.ui.ag_ui import AGUIAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from agui_notebook.chat._http import HttpAgent, HttpAgentError
from agui_notebook.widget._chat import ChatWidget
from tests.support.loopback import free_port, serve_on_loopback
from tests.support.node import run_node_reference
from tests.support.pydantic_ai_runs import SCENARIOS, make_agent, make_approval_agent
from tests.widget.sample_agents import streamed
from tests.wire.streams import cuts, wire_texts

TOKEN = "Bearer test-token"
RELEASE_TIMEOUT = 5.0

# Set by the test when the client has received the first text delta; the model waits for it before going on,
# so the run only finishes quickly when the client reads the response incrementally.
first_delta_seen = threading.Event()


async def _waits_for_client(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    yield "first"
    released = await asyncio.to_thread(first_delta_seen.wait, RELEASE_TIMEOUT)
    yield " second" if released else " (client did not stream)"


def _app() -> Starlette:
    agents: dict[str, Agent] = {
        "weather": make_agent(SCENARIOS["reasoning_tool_text"]),
        "approval": make_approval_agent(),
        "incremental": Agent(FunctionModel(stream_function=_waits_for_client)),
    }

    async def run(request: Request) -> Response:
        if request.headers.get("authorization") != TOKEN:
            return JSONResponse({"detail": "missing token"}, status_code=401)
        return await AGUIAdapter.dispatch_request(request, agent=agents[request.path_params["name"]])

    return Starlette(routes=[Route("/agents/{name}", run, methods=["POST"])])


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    """The AG-UI test server on 127.0.0.1, stopped after the module's tests."""
    with serve_on_loopback(_app()) as url:
        yield url


def run_input(text: str = "What's the weather?", **fields: Any) -> RunAgentInput:
    return RunAgentInput(
        thread_id="thread-1",
        run_id="run-1",
        messages=[UserMessage(id="user-1", content=text)],
        **fields,
    )


def shape(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What must match between two runs of the same scenario (message ids and timestamps are fresh per run)."""
    return [
        (e["type"], e.get("delta"), e.get("toolCallName"), e.get("toolCallId"), e.get("content"))
        for e in events
    ]


async def test_http_agent_yields_the_servers_events(server_url: str) -> None:
    agent = HttpAgent(f"{server_url}/agents/weather", headers={"Authorization": TOKEN})
    received = [event async for event in agent.run(run_input())]
    direct = [
        event.model_dump(mode="json", by_alias=True, exclude_none=True)
        async for event in AGUIAdapter(
            agent=make_agent(SCENARIOS["reasoning_tool_text"]), run_input=run_input()
        ).run_stream()
    ]
    assert shape(received) == shape(direct)
    assert received[0] == {
        "type": "RUN_STARTED",
        "timestamp": received[0]["timestamp"],
        "threadId": "thread-1",
        "runId": "run-1",
        "protocolVersion": "1.0",
    }
    assert received[-1]["type"] == "RUN_FINISHED"
    assert "".join(e["delta"] for e in received if e["type"] == "TEXT_MESSAGE_CONTENT") == (
        "The weather in Paris is **sunny**, 21 °C."
    )


async def test_http_agent_reads_the_stream_incrementally(server_url: str) -> None:
    first_delta_seen.clear()
    agent = HttpAgent(f"{server_url}/agents/incremental", headers={"Authorization": TOKEN})
    deltas = []
    started = time.monotonic()
    async for event in agent.run(run_input("hi")):
        if event["type"] == "TEXT_MESSAGE_CONTENT":
            deltas.append(event["delta"])
            first_delta_seen.set()
    assert deltas == ["first", " second"]
    assert time.monotonic() - started < RELEASE_TIMEOUT


async def test_http_agent_reports_an_error_status_with_the_body(server_url: str) -> None:
    agent = HttpAgent(f"{server_url}/agents/weather")
    with pytest.raises(HttpAgentError) as caught:
        [event async for event in agent.run(run_input())]
    assert caught.value.status == 401
    assert str(caught.value) == (
        f'POST {server_url}/agents/weather: HTTP 401 application/json: \'{{"detail":"missing token"}}\''
    )


async def test_chat_widget_runs_an_http_agent(server_url: str) -> None:
    chat = ChatWidget(HttpAgent(f"{server_url}/agents/weather", headers={"Authorization": TOKEN}))
    outcome = await chat.send_message("What's the weather?")
    assert outcome == "success"
    assert chat.status == "ready"
    user, answer = chat.messages
    assert user["parts"] == [{"type": "text", "text": "What's the weather?"}]
    assert [p["type"] for p in answer["parts"]] == [
        "step-start",
        "reasoning",
        "tool-get_weather",
        "step-start",
        "text",
    ]
    assert answer["parts"][2]["state"] == "output-available"
    assert answer["parts"][2]["output"] == {"city": "Paris", "sky": "sunny", "temp_c": 21}
    assert answer["parts"][-1]["text"] == "The weather in Paris is **sunny**, 21 °C."
    assert [e["type"] for e in streamed(chat)][:1] == ["RUN_STARTED"]
    assert streamed(chat)[-1]["type"] == "RUN_FINISHED"


async def test_chat_widget_approval_round_trip_over_http(server_url: str) -> None:
    chat = ChatWidget(HttpAgent(f"{server_url}/agents/approval", headers={"Authorization": TOKEN}))
    assert await chat.send_message("Delete /tmp/x") == "interrupt"
    tool = chat.messages[-1]["parts"][-1]
    assert (tool["type"], tool["state"]) == ("tool-delete_file", "approval-requested")
    assert await chat.answer_approval(tool["approval"]["id"], True) == "success"
    assert [m["role"] for m in chat.messages] == ["user", "assistant"]
    tool = next(p for p in chat.messages[-1]["parts"] if p["type"] == "tool-delete_file")
    assert tool["state"] == "output-available"
    assert tool["output"] == "deleted /tmp/x"
    assert chat.messages[-1]["parts"][-1]["text"] == "Deleted `/tmp/x`."


# -- servers that misbehave --------------------------------------------------------------------------------------
# Each route answers the way a broken, misconfigured or hostile server does. Routes that stream a run build it
# from the ids of the run input they receive, so the same route serves HttpAgent tests and ChatWidget runs.

REPLY = "Bonjour 😀"
BOM = b"\xef\xbb\xbf"
LOGIN_PAGE = b"<!doctype html><title>Login</title>\n<p>Please sign in.</p>\n"
MAX_REDIRECTS = 20  # fetch's limit

# What the misbehaving server received: the last run input per route, and how often each route was hit.
received_inputs: dict[str, dict[str, Any]] = {}
hits: collections.Counter[str] = collections.Counter()


def run_events(thread_id: str, run_id: str) -> list[dict[str, Any]]:
    """A complete, valid AG-UI run that answers :data:`REPLY`."""
    return [
        {"type": "RUN_STARTED", "threadId": thread_id, "runId": run_id},
        {"type": "TEXT_MESSAGE_START", "messageId": "reply", "role": "assistant"},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "reply", "delta": REPLY},
        {"type": "TEXT_MESSAGE_END", "messageId": "reply"},
        {"type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id},
    ]


def as_sse(events: list[dict[str, Any]]) -> bytes:
    return "".join(f"data: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events).encode()


PAGES: dict[str, tuple[int, bytes, str | None]] = {
    "html": (200, LOGIN_PAGE, "text/html"),
    "text": (200, b"Service is up.", "text/plain"),
    "json": (200, b'{"detail":"POST to /agent instead"}', "application/json"),
    "empty": (200, b"", "text/event-stream"),
    "keep-alive": (200, b": keep-alive\n\n: keep-alive\n\n", "text/event-stream"),
    "no-content": (204, b"", None),
    "unauthorized": (401, b'{"detail":"missing token"}', "application/json"),
    "crash": (500, b"<html><body><h1>Internal Server Error</h1></body></html>", "text/html"),
    "overloaded": (503, b"overloaded " * 100, "text/plain"),
    "redirect-without-location": (302, b"", "text/plain"),
}
"""Canned answers: status, body, content type (``None``: no Content-Type header)."""


async def _page(request: Request) -> Response:
    status, body, content_type = PAGES[request.path_params["name"]]
    response = Response(body, status_code=status)
    if content_type is not None:
        response.headers["content-type"] = content_type
    return response


async def _stream(request: Request) -> Response:
    """A run for the posted input, spoiled as the route says."""
    name = request.path_params["name"]
    run_input_wire = await request.json()
    received_inputs[name] = run_input_wire
    events = run_events(run_input_wire["threadId"], run_input_wire["runId"])
    if name == "complete":
        body = as_sse(events)
    elif name == "done":
        body = as_sse(events) + b"data: [DONE]\n\n"
    elif name == "bom":  # a BOM, then the run in small pieces: the BOM itself is cut
        return StreamingResponse(
            _in_pieces(BOM + as_sse(events), (1, 2, 3, 5, 8)), media_type="text/event-stream"
        )
    elif name == "cut-short":
        body = as_sse(events[:3])
    elif name == "other-run":
        body = as_sse([{**events[0], "runId": "someone-elses-run"}, *events[1:]])
    elif name == "other-thread":
        body = as_sse([{**events[0], "threadId": "another-thread"}, *events[1:]])
    elif name == "broken-json":
        body = as_sse(events[:2]) + b'data: {"type": "TEXT_MESSAGE_CONTENT", "messageId": "reply", "del\n\n'
    elif name == "connection-drop":

        async def drop() -> AsyncIterator[bytes]:
            yield as_sse(events[:3])
            await asyncio.sleep(0.05)
            raise ConnectionAbortedError("the server went away")  # uvicorn drops the connection mid-body

        return StreamingResponse(drop(), media_type="text/event-stream")
    else:
        return Response(status_code=404)
    return Response(body, media_type="text/event-stream")


async def _in_pieces(body: bytes, sizes: tuple[int, ...]) -> AsyncIterator[bytes]:
    """``body`` in pieces of the given sizes (cycled), one write each."""
    start = 0
    for size in itertools.cycle(sizes):
        if start >= len(body):
            return
        yield body[start : start + size]
        start += size
        await asyncio.sleep(0.001)  # so the pieces leave as separate writes


async def _sliced(request: Request) -> StreamingResponse:
    """Send the body the test put in ``forwardedProps.pieces`` (base64), one piece per write."""
    pieces = [base64.b64decode(p) for p in (await request.json())["forwardedProps"]["pieces"]]

    async def stream() -> AsyncIterator[bytes]:
        for piece in pieces:
            yield piece
            await asyncio.sleep(0.001)  # so the pieces leave as separate writes

    return StreamingResponse(stream(), media_type="text/event-stream")


async def _redirect(request: Request) -> Response:
    return Response(
        status_code=int(request.path_params["status"]), headers={"location": request.query_params["to"]}
    )


async def _redirect_loop(request: Request) -> Response:
    hits["loop"] += 1
    return Response(status_code=307, headers={"location": "/loop"})


async def _echo(request: Request) -> Response:
    """A valid run whose CUSTOM event says what request arrived (after redirects: which method, headers, body)."""
    body = await request.body()
    seen = {
        "method": request.method,
        "contentType": request.headers.get("content-type"),
        "authorization": request.headers.get("authorization"),
        "body": json.loads(body) if body else None,
    }
    events = run_events("thread-1", "run-1")
    return Response(
        as_sse([events[0], {"type": "CUSTOM", "name": "request", "value": seen}, events[-1]]),
        media_type="text/event-stream",
    )


def _misbehaving_app() -> Starlette:
    methods = ["GET", "POST"]
    return Starlette(
        routes=[
            Route("/page/{name}", _page, methods=methods),
            Route("/stream/{name}", _stream, methods=["POST"]),
            Route("/sliced", _sliced, methods=["POST"]),
            Route("/redirect/{status}", _redirect, methods=methods),
            Route("/loop", _redirect_loop, methods=methods),
            Route("/echo", _echo, methods=methods),
        ]
    )


@pytest.fixture(scope="module")
def bad_server() -> Iterator[str]:
    """The misbehaving server on 127.0.0.1."""
    with serve_on_loopback(_misbehaving_app()) as url:
        yield url


@pytest.fixture(scope="module")
def other_origin() -> Iterator[str]:
    """The same app on another port: another origin, for cross-origin redirects."""
    with serve_on_loopback(_misbehaving_app()) as url:
        yield url


async def run_http(url: str, given_input: Any = None, **options: Any) -> list[dict[str, Any]]:
    return [event async for event in HttpAgent(url, **options).run(given_input or run_input())]


async def http_error(url: str, given_input: Any = None, **options: Any) -> HttpAgentError:
    with pytest.raises(HttpAgentError) as caught:
        await run_http(url, given_input, **options)
    return caught.value


# -- 1. a body that is not an event stream -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "html",
            "HTTP 200 text/html, not an AG-UI event stream: "
            "'<!doctype html><title>Login</title>\\n<p>Please sign in.</p>\\n' "
            "(line 1: not JSON, JSONL or SSE (starts with '<!doctyp'))",
        ),
        (
            "text",
            "HTTP 200 text/plain, not an AG-UI event stream: 'Service is up.' "
            "(line 1: not JSON, JSONL or SSE (starts with 'Service '))",
        ),
        (
            "json",
            'HTTP 200 application/json, not an AG-UI event stream: \'{"detail":"POST to /agent instead"}\' '
            "(line 1: event has no string 'type')",
        ),
        ("empty", "HTTP 200 text/event-stream, not an AG-UI event stream: empty body"),
        (
            "keep-alive",
            "HTTP 200 text/event-stream, not an AG-UI event stream: ': keep-alive\\n\\n: keep-alive\\n\\n' "
            "(no events)",
        ),
        ("no-content", "HTTP 204 (no content type), not an AG-UI event stream: empty body"),
    ],
)
async def test_a_body_that_is_no_event_stream_is_an_error(bad_server: str, name: str, expected: str) -> None:
    error = await http_error(f"{bad_server}/page/{name}")
    assert str(error) == f"POST {bad_server}/page/{name}: {expected}"
    assert error.status == PAGES[name][0]


async def test_a_long_body_is_shown_by_its_first_characters(bad_server: str) -> None:
    error = await http_error(f"{bad_server}/page/overloaded")
    excerpt = ("overloaded " * 100)[:300] + "…"
    assert str(error) == f"POST {bad_server}/page/overloaded: HTTP 503 text/plain: {excerpt!r}"
    assert error.status == 503


# -- 7. error statuses -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("unauthorized", 'HTTP 401 application/json: \'{"detail":"missing token"}\''),
        ("crash", "HTTP 500 text/html: '<html><body><h1>Internal Server Error</h1></body></html>'"),
        ("redirect-without-location", "HTTP 302 text/plain: empty body"),
    ],
)
async def test_an_error_status_names_status_content_type_and_body(
    bad_server: str, name: str, expected: str
) -> None:
    error = await http_error(f"{bad_server}/page/{name}")
    assert str(error) == f"POST {bad_server}/page/{name}: {expected}"
    assert error.status == PAGES[name][0]


async def test_a_server_that_is_not_there_is_an_http_agent_error() -> None:
    url = f"http://127.0.0.1:{free_port()}/agent"
    error = await http_error(url)
    assert str(error).startswith(f"POST {url}: the request failed (ConnectError: ")
    assert error.status is None


# -- 2. redirects ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", [307, 308])
async def test_a_307_or_308_redirect_is_followed_with_the_same_post(bad_server: str, status: int) -> None:
    events = await run_http(f"{bad_server}/redirect/{status}?to=/stream/complete")
    assert events == run_events("thread-1", "run-1")
    assert received_inputs["complete"]["messages"][0]["content"] == "What's the weather?"


@pytest.mark.parametrize("status", [301, 302, 303])
async def test_a_301_302_or_303_redirect_turns_the_post_into_a_get(bad_server: str, status: int) -> None:
    url = f"{bad_server}/redirect/{status}?to=/page/html"
    error = await http_error(url)
    assert str(error).startswith(
        f"POST {url} → GET {bad_server}/page/html: HTTP 200 text/html, not an AG-UI event stream: "
        "'<!doctype html>"
    )


async def test_a_redirect_loop_ends_after_twenty_redirects(bad_server: str) -> None:
    hits["loop"] = 0
    error = await http_error(f"{bad_server}/loop")
    assert str(error) == (
        f"POST {bad_server}/loop: more than {MAX_REDIRECTS} redirects (the last to POST {bad_server}/loop)"
    )
    assert hits["loop"] == MAX_REDIRECTS + 1
    assert error.status == 307


@pytest.mark.node
async def test_redirects_are_followed_as_ag_ui_clients_fetch_follows_them(
    bad_server: str, other_origin: str
) -> None:
    """What reaches the final server (method, body, Content-Type, Authorization) is what @ag-ui/client sends."""
    wire = run_input("hi").model_dump(mode="json", by_alias=True, exclude_none=True)
    headers = {"Authorization": TOKEN}
    cases = [
        {"url": f"{bad_server}/redirect/{status}?to={target}", "headers": headers, "input": wire}
        for status in (301, 302, 303, 307, 308)
        for target in ("/echo", f"{other_origin}/echo")
    ]
    theirs = await asyncio.to_thread(run_node_reference, "agui_http.mjs", cases)
    ours = [await run_http(case["url"], wire, headers=headers) for case in cases]
    assert [result["error"] for result in theirs] == [None] * len(cases)

    def arrived(seen: dict[str, Any]) -> tuple[Any, ...]:
        # The reference fills the input's defaults (``tools: []``, ...) before sending: compare whether a body came.
        return seen["method"], seen["contentType"], seen["authorization"], seen["body"] is not None

    assert [arrived(events[1]["value"]) for events in ours] == [
        arrived(result["events"][1]["value"]) for result in theirs
    ]
    by_case = {
        c["url"].split("/redirect/")[1]: events[1]["value"] for c, events in zip(cases, ours, strict=True)
    }
    assert by_case["303?to=/echo"] == {
        "method": "GET",
        "contentType": None,
        "authorization": TOKEN,
        "body": None,
    }
    assert by_case[f"307?to={other_origin}/echo"] == {
        "method": "POST",
        "contentType": "application/json",
        "authorization": None,  # credentials do not follow a redirect to another origin
        "body": wire,
    }


# -- 3. a stream that ends before the run finished ---------------------------------------------------------------


async def test_a_stream_that_ends_before_the_run_finished_is_an_error(bad_server: str) -> None:
    received: list[dict[str, Any]] = []
    with pytest.raises(HttpAgentError) as caught:
        async for event in HttpAgent(f"{bad_server}/stream/cut-short").run(run_input()):
            received.append(event)
    assert [e["type"] for e in received] == ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]
    assert str(caught.value) == (
        f"POST {bad_server}/stream/cut-short: HTTP 200 text/event-stream, the stream ended before the run "
        "finished (no RUN_FINISHED or RUN_ERROR); the last event was 2 (TEXT_MESSAGE_CONTENT)"
    )
    assert caught.value.status == 200


async def test_a_connection_that_drops_mid_stream_is_an_error(bad_server: str) -> None:
    error = await http_error(f"{bad_server}/stream/connection-drop")
    assert str(error).startswith(
        f"POST {bad_server}/stream/connection-drop: HTTP 200 text/event-stream, the connection broke after "
        "event 2 (TEXT_MESSAGE_CONTENT): RemoteProtocolError: "
    )
    assert isinstance(error.__cause__, Exception)


async def test_a_broken_frame_mid_stream_names_its_line(bad_server: str) -> None:
    error = await http_error(f"{bad_server}/stream/broken-json")
    assert str(error).startswith(
        f"POST {bad_server}/stream/broken-json: HTTP 200 text/event-stream, line 5: "
    )


# -- 4. [DONE] and 5. a BOM, with the body cut anywhere ----------------------------------------------------------


async def test_a_done_sentinel_after_a_complete_run_is_accepted(bad_server: str) -> None:
    assert await run_http(f"{bad_server}/stream/done") == run_events("thread-1", "run-1")


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_bom_never_costs_an_event_however_the_body_is_cut(bad_server: str, data: st.DataObject) -> None:
    events = run_events("thread-1", "run-1")
    text, expected = data.draw(wire_texts(events))  # SSE, JSONL or JSON; SSE with or without [DONE]
    body = ("" if text.startswith("\ufeff") else "\ufeff").encode() + text.encode("utf-8")
    pieces = data.draw(cuts(body))
    given_input = run_input(forwarded_props={"pieces": [base64.b64encode(p).decode() for p in pieces]})

    async def run() -> list[dict[str, Any]]:
        # A client of our own (plain HTTP: no TLS context to build, which is most of a fresh client's cost).
        async with httpx.AsyncClient(verify=False, timeout=20) as client:
            return await run_http(f"{bad_server}/sliced", given_input, client=client)

    assert asyncio.run(run()) == expected


# -- 6. events for another thread or run -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "theirs"),
    [
        ("other-run", "thread 'thread-1', run 'someone-elses-run'"),
        ("other-thread", "thread 'another-thread', run 'run-1'"),
    ],
)
async def test_events_for_another_run_are_an_error(bad_server: str, name: str, theirs: str) -> None:
    received: list[dict[str, Any]] = []
    with pytest.raises(HttpAgentError) as caught:
        async for event in HttpAgent(f"{bad_server}/stream/{name}").run(run_input()):
            received.append(event)
    assert received == []
    assert str(caught.value) == (
        f"POST {bad_server}/stream/{name}: HTTP 200 text/event-stream, event 0 (RUN_STARTED) is for {theirs}, "
        "not for the run input's thread 'thread-1', run 'run-1'"
    )


# -- the widget: each bad server ends the run with status "error" and the agent's error text ----------------------

WIDGET_CASES = {
    "not an event stream": ("/page/html", "HTTP 200 text/html, not an AG-UI event stream: '<!doctype html>"),
    "empty body": ("/page/empty", "HTTP 200 text/event-stream, not an AG-UI event stream: empty body"),
    "redirect to a login page": ("/redirect/303?to=/page/html", "HTTP 200 text/html, not an AG-UI"),
    "redirect loop": ("/loop", "more than 20 redirects"),
    "stream cut short": ("/stream/cut-short", "the stream ended before the run finished"),
    "connection drop": ("/stream/connection-drop", "the connection broke after event 2"),
    "another run": ("/stream/other-run", "event 0 (RUN_STARTED) is for thread"),
    "error status": ("/page/unauthorized", 'HTTP 401 application/json: \'{"detail":"missing token"}\''),
}


@pytest.mark.parametrize("case", list(WIDGET_CASES))
async def test_chat_widget_shows_the_http_agents_error(bad_server: str, case: str) -> None:
    path, expected = WIDGET_CASES[case]
    chat = ChatWidget(HttpAgent(f"{bad_server}{path}"))
    outcome = await chat.send_message("hi")
    assert (outcome, chat.status) == ("error", "error")
    assert isinstance(chat.exception, HttpAgentError)
    assert chat.error == f"HttpAgentError: {chat.exception}"
    assert str(chat.exception).startswith(f"POST {bad_server}{path}")
    assert expected in chat.error


async def test_chat_widget_keeps_the_partial_answer_of_a_stream_cut_short(bad_server: str) -> None:
    chat = ChatWidget(HttpAgent(f"{bad_server}/stream/cut-short"))
    assert await chat.send_message("hi") == "error"
    assert chat.messages[-1]["role"] == "assistant"
    assert chat.messages[-1]["parts"][-1]["text"] == REPLY


async def test_chat_widget_names_both_runs_when_events_are_for_another(bad_server: str) -> None:
    chat = ChatWidget(HttpAgent(f"{bad_server}/stream/other-run"))
    assert await chat.send_message("hi") == "error"
    sent = received_inputs["other-run"]
    assert chat.error == (
        f"HttpAgentError: POST {bad_server}/stream/other-run: HTTP 200 text/event-stream, event 0 (RUN_STARTED) "
        f"is for thread {sent['threadId']!r}, run 'someone-elses-run', "
        f"not for the run input's thread {sent['threadId']!r}, run {sent['runId']!r}"
    )


@pytest.mark.parametrize(
    "path",
    ["/stream/done", "/stream/bom", "/redirect/307?to=/stream/complete", "/redirect/308?to=/stream/done"],
)
async def test_chat_widget_runs_through_done_a_bom_and_redirects(bad_server: str, path: str) -> None:
    chat = ChatWidget(HttpAgent(f"{bad_server}{path}"))
    assert await chat.send_message("hi") == "success"
    assert chat.status == "ready"
    assert chat.messages[-1]["parts"][-1]["text"] == REPLY
