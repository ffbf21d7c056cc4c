"""A client for any AG-UI server: POST the run input, read the server-sent events as they arrive.

>>> agent = HttpAgent("http://127.0.0.1:8000/agent", headers={"Authorization": "Bearer ..."})
>>> agent.url
'http://127.0.0.1:8000/agent'

``ChatWidget(agent=agent)`` calls ``agent.run(run_input)`` for every turn; the events come back as wire dicts,
exactly as the server sent them. What ``@ag-ui/client``'s ``HttpAgent`` does, this does too: redirects are
followed as ``fetch`` follows them, and any body is read as an event stream, whatever its content type (the
reader takes SSE, which AG-UI servers send, and JSONL or JSON too). Where the reference ends a broken run in
silence, this raises :class:`HttpAgentError` naming the request, the status, the content type and, when the body
is no event stream at all, its first characters:

- an error status (anything but 2xx once redirects are followed);
- a body with no events (empty, an HTML page, plain text, a JSON error) or a frame that is no event;
- a stream that ends, or a connection that breaks, before ``RUN_FINISHED`` or ``RUN_ERROR``;
- a ``RUN_STARTED`` for another thread or run than the run input's;
- a connection that cannot be made, and more than 20 redirects.

A ``data: [DONE]`` line (the AI SDK's end marker) is skipped, and a BOM at the start of the body is dropped,
however the body is cut (both are rules of the one wire reader).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import AsyncGenerator, AsyncIterator, Mapping
from typing import Any
from urllib.parse import urlsplit

from agui_notebook._errors import HttpAgentError, InputTypeError, OptionalDependencyError, OptionError
from agui_notebook._options import keyword_options, typed
from agui_notebook._shown import shown
from agui_notebook.agui._intake import aiter_event_records

__all__ = ["HttpAgent", "HttpAgentError"]

MAX_REDIRECTS = 20
"""How many redirects one run follows, as ``fetch`` does; one more is an error."""

REQUEST_BODY_HEADERS = ("Content-Encoding", "Content-Language", "Content-Location", "Content-Type")
"""The headers ``fetch`` drops when a redirect turns the POST into a GET without a body."""

TERMINAL_EVENTS = frozenset({"RUN_FINISHED", "RUN_ERROR"})
"""The events that end a run; a stream must end with one."""

_EXCERPT_CHARS = 300
_EXCERPT_BYTES = 4 * _EXCERPT_CHARS  # enough bytes for that many characters of UTF-8


def _import_httpx() -> Any:
    try:
        import httpx
    except ImportError:
        raise OptionalDependencyError("HttpAgent needs httpx: pip install 'agui-notebook[http]'") from None
    return httpx


def run_input_wire(run_input: Any) -> dict[str, Any]:
    """The wire form (camelCase, nulls left out) of a ``RunAgentInput`` model or dict."""
    if isinstance(run_input, Mapping):
        return dict(run_input)
    return run_input.model_dump(mode="json", by_alias=True, exclude_none=True)


def excerpt(head: bytes) -> str:
    """How an error message shows the first bytes of a body: quoted, cut at 300 characters.

    >>> excerpt(b"<!doctype html>"), excerpt(b"")
    ("'<!doctype html>'", 'empty body')
    """
    if not head:
        return "empty body"
    text = head[:_EXCERPT_BYTES].decode("utf-8", "replace")
    if len(head) > _EXCERPT_BYTES or len(text) > _EXCERPT_CHARS:
        return repr(text[:_EXCERPT_CHARS] + "…")
    return repr(text)


def _describe_transport_error(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _other_run(theirs: tuple[Any, Any], ours: tuple[Any, Any]) -> bool:
    """Whether a RUN_STARTED's (thread, run) ids differ from the run input's (where both give them)."""
    return any(t is not None and o is not None and t != o for t, o in zip(theirs, ours, strict=True))


def _describe_event(index: int, event: Mapping[str, Any]) -> str:
    return f"event {index} ({event['type']})"


class _Reply:
    """The response a run reads, and how messages name it: ``POST url → GET url2: HTTP 200 text/html``."""

    __slots__ = ("head", "response", "where")

    def __init__(self, response: Any, url: str, redirected: bool) -> None:
        self.response = response
        final = response.request
        to = f" → {final.method} {final.url}" if redirected else ""
        media_type = response.headers.get("content-type", "").split(";", 1)[0].strip() or "(no content type)"
        self.where = f"POST {url}{to}: HTTP {response.status_code} {media_type}"
        self.head = bytearray()  # the first bytes of the body, for messages

    def error(self, problem: str) -> HttpAgentError:
        return HttpAgentError(f"{self.where}{problem}", status=self.response.status_code)

    async def body(self) -> AsyncGenerator[bytes, None]:
        """The body as it arrives, keeping its first bytes."""
        head = self.head
        async for piece in self.response.aiter_bytes():
            if len(head) <= _EXCERPT_BYTES:
                head += piece[: _EXCERPT_BYTES + 1 - len(head)]
            yield piece

    async def read_head(self) -> bytes:
        """Read the first bytes of the body (and no more)."""
        async with contextlib.aclosing(self.body()) as body:
            async for _ in body:
                if len(self.head) > _EXCERPT_BYTES:
                    break
        return bytes(self.head)


class HttpAgent:
    """An agent served over HTTP by any AG-UI server (pydantic-ai, LangGraph, CrewAI, ...).

    ``run(run_input)`` POSTs the input as JSON with ``Accept: text/event-stream`` and yields each event (a wire
    dict) as soon as its SSE frame is complete. ``headers`` are sent with every request; ``timeout`` is httpx's
    (``None`` waits forever between bytes, which suits long agent turns); ``client`` lets you bring your own
    ``httpx.AsyncClient`` (proxies, auth, transports), which is then left open.

    Redirects are followed as ``fetch`` follows them (whatever the client's ``follow_redirects``): 307 and 308
    repeat the POST with its body, 301, 302 and 303 turn it into a GET without body or ``Content-Type``, a
    redirect to another origin drops ``Authorization`` (httpx's rule, which keeps it for an http to https
    upgrade on the same host), and a 21st redirect is an error. Every problem is an :class:`HttpAgentError`
    (see the module docstring).
    """

    @keyword_options
    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = 300.0,
        client: Any = None,
    ) -> None:
        _import_httpx()
        typed(url, "url", str, "a URL (a string)")
        if urlsplit(url).scheme not in ("http", "https"):
            raise OptionError(f"url must be an http:// or https:// URL, not {shown(url)}")
        typed(headers, "headers", (Mapping, type(None)), "a mapping of header names to values, or None")
        for key, value in (headers or {}).items():
            if not isinstance(key, str) or not isinstance(value, str):
                raise InputTypeError(
                    f"headers: {shown(key)}: {shown(value)} is not a header (a string: a string)"
                )
        typed(timeout, "timeout", (int, float, type(None)), "a number of seconds or None")
        if timeout is not None and not 0 < timeout < math.inf:
            raise OptionError(f"timeout must be a positive number of seconds or None, not {shown(timeout)}")
        self.url = url
        self.headers = dict(headers or {})
        self.timeout = timeout
        self.client = client

    def __repr__(self) -> str:
        return f"HttpAgent({self.url!r})"

    async def run(self, run_input: Any) -> AsyncIterator[dict[str, Any]]:
        """POST ``run_input`` and yield the server's AG-UI events (wire dicts) as they arrive.

        Raises :class:`HttpAgentError` for an error status, a body that is not an AG-UI event stream, a stream
        that ends before the run finished, or events for another run.
        """
        httpx = _import_httpx()
        headers = {"Accept": "text/event-stream", "Content-Type": "application/json", **self.headers}
        wire = run_input_wire(run_input)
        client = self.client if self.client is not None else httpx.AsyncClient(timeout=self.timeout)
        try:
            try:
                request = client.build_request("POST", self.url, json=wire, headers=headers)
                response, redirects = await self._send(client, request)
            except (httpx.HTTPError, httpx.InvalidURL) as exc:
                raise HttpAgentError(
                    f"POST {self.url}: the request failed ({_describe_transport_error(exc)})"
                ) from exc
            try:
                reply = _Reply(response, self.url, redirected=redirects > 0)
                if not response.is_success:
                    try:
                        head = await reply.read_head()
                    except httpx.HTTPError:
                        head = bytes(reply.head)  # the status says enough
                    raise reply.error(f": {excerpt(head)}")
                async for event in self._events(reply, wire, httpx):
                    yield event
            finally:
                await response.aclose()
        finally:
            if self.client is None:
                await client.aclose()

    async def _send(self, client: Any, request: Any) -> tuple[Any, int]:
        """Send ``request`` and follow its redirects as ``fetch`` does: the last response (streaming), and how
        many redirects led to it."""
        response = await client.send(request, stream=True, follow_redirects=False)
        redirects = 0
        while response.next_request is not None:  # httpx builds the next request (cookies, origin rules)
            await response.aclose()
            follow = response.next_request
            if redirects == MAX_REDIRECTS:
                raise HttpAgentError(
                    f"POST {self.url}: more than {MAX_REDIRECTS} redirects (the last to {follow.method} {follow.url})",
                    status=response.status_code,
                )
            if follow.method != request.method:  # the body is gone, and so are the headers that described it
                for name in REQUEST_BODY_HEADERS:
                    follow.headers.pop(name, None)
            redirects += 1
            request = follow
            # ``auth=None``: httpx applies a client's auth to the first request only, and so does this.
            response = await client.send(request, stream=True, follow_redirects=False, auth=None)
        return response, redirects

    async def _events(
        self, reply: _Reply, wire: Mapping[str, Any], httpx: Any
    ) -> AsyncIterator[dict[str, Any]]:
        """The events of a 2xx response, checked as the module docstring says."""
        ids = (wire.get("threadId"), wire.get("runId"))
        count = 0
        last: dict[str, Any] | None = None
        finished = False
        # Chunk expansion and legacy upgrades are the consumer's business: yield what was sent.
        records = aiter_event_records(reply.body(), expand_chunks=False, upgrade_legacy=False)
        try:
            async with contextlib.aclosing(records):
                async for record in records:
                    if record.error is not None:
                        if last is None:
                            raise reply.error(
                                f", not an AG-UI event stream: {excerpt(bytes(reply.head))} "
                                f"(line {record.line}: {record.error})"
                            )
                        raise reply.error(f", line {record.line}: {record.error}")
                    event = record.event
                    assert event is not None
                    kind = event["type"]
                    if kind == "RUN_STARTED":
                        theirs = (event.get("threadId"), event.get("runId"))
                        if _other_run(theirs, ids):
                            raise reply.error(
                                f", {_describe_event(count, event)} is for thread {theirs[0]!r}, run {theirs[1]!r}, "
                                f"not for the run input's thread {ids[0]!r}, run {ids[1]!r}"
                            )
                        finished = False
                    elif kind in TERMINAL_EVENTS:
                        finished = True
                    yield event
                    last = event
                    count += 1
        except httpx.HTTPError as exc:  # the connection broke (or timed out) inside the body
            after = "before any event" if last is None else f"after {_describe_event(count - 1, last)}"
            raise reply.error(f", the connection broke {after}: {_describe_transport_error(exc)}") from exc
        if last is None:
            head = bytes(reply.head)
            raise reply.error(
                f", not an AG-UI event stream: {excerpt(head)}" + (" (no events)" if head else "")
            )
        if not finished:
            raise reply.error(
                ", the stream ended before the run finished (no RUN_FINISHED or RUN_ERROR); "
                f"the last event was {count - 1} ({last['type']})"
            )
