"""A client for any AG-UI server: POST the run input, read the server-sent events as they arrive.

>>> agent = HttpAgent("http://127.0.0.1:8000/agent", headers={"Authorization": "Bearer ..."})
>>> agent.url
'http://127.0.0.1:8000/agent'

``ChatWidget(agent=agent)`` calls ``agent.run(run_input)`` for every turn; the events come back as wire dicts,
exactly as the server sent them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

from agui_notebook._errors import HttpAgentError
from agui_notebook.agui._intake import aiter_event_records

__all__ = ["HttpAgent", "HttpAgentError"]

_ERROR_BODY_CHARS = 500


def _import_httpx() -> Any:
    try:
        import httpx
    except ImportError:
        raise ImportError("HttpAgent needs httpx: pip install 'agui-notebook[http]'") from None
    return httpx


def run_input_wire(run_input: Any) -> dict[str, Any]:
    """The wire form (camelCase, nulls left out) of a ``RunAgentInput`` model or dict."""
    if isinstance(run_input, Mapping):
        return dict(run_input)
    return run_input.model_dump(mode="json", by_alias=True, exclude_none=True)


class HttpAgent:
    """An agent served over HTTP by any AG-UI server (pydantic-ai, LangGraph, CrewAI, ...).

    ``run(run_input)`` POSTs the input as JSON with ``Accept: text/event-stream`` and yields each event (a wire
    dict) as soon as its SSE frame is complete. ``headers`` are sent with every request; ``timeout`` is httpx's
    (``None`` waits forever between bytes, which suits long agent turns); ``client`` lets you bring your own
    ``httpx.AsyncClient`` (proxies, auth, transports), which is then left open.
    """

    def __init__(
        self,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        timeout: float | None = 300.0,
        client: Any = None,
    ) -> None:
        _import_httpx()
        self.url = url
        self.headers = dict(headers or {})
        self.timeout = timeout
        self.client = client

    def __repr__(self) -> str:
        return f"HttpAgent({self.url!r})"

    async def run(self, run_input: Any) -> AsyncIterator[dict[str, Any]]:
        """POST ``run_input`` and yield the server's AG-UI events (wire dicts) as they arrive.

        Raises :class:`HttpAgentError` for an error status or a frame that is not an AG-UI event.
        """
        httpx = _import_httpx()
        headers = {"Accept": "text/event-stream", "Content-Type": "application/json", **self.headers}
        body = run_input_wire(run_input)
        client = self.client if self.client is not None else httpx.AsyncClient(timeout=self.timeout)
        try:
            async with client.stream("POST", self.url, json=body, headers=headers) as response:
                if response.status_code >= 400:
                    text = (await response.aread()).decode("utf-8", "replace")
                    raise HttpAgentError(
                        f"POST {self.url}: HTTP {response.status_code}: {text[:_ERROR_BODY_CHARS]}",
                        status=response.status_code,
                    )
                # Chunk expansion and legacy upgrades are the consumer's business: yield what was sent.
                records = aiter_event_records(
                    response.aiter_bytes(), expand_chunks=False, upgrade_legacy=False
                )
                async for record in records:
                    if record.error is not None:
                        raise HttpAgentError(f"POST {self.url}: {record.location}: {record.error}")
                    assert record.event is not None
                    yield record.event
        finally:
            if self.client is None:
                await client.aclose()
