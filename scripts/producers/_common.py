"""What every producer module shares: the captures, the run inputs, the agent's tools, SSE intake and the writers.

A producer module (``scripts/producers/<framework>.py``) defines:

- ``FRAMEWORK``: the fixture folder's name (``tests/fixtures/producers/<FRAMEWORK>/``);
- ``PACKAGES``: the distributions whose versions ``versions.json`` records (the framework, its AG-UI integration);
- ``SKIPPED``: ``{name: why}`` for the captures (keys of :data:`CAPTURES`) it does not record; it records the rest;
- ``build_app(capture: Capture, base_url: str) -> ASGI app``: the framework's own AG-UI integration, its model
  pointed at the scripted model's ``base_url``, answering ``POST /`` (or ``POST {PATH}`` when the module sets
  ``PATH``) with a RunAgentInput by an SSE stream.
  The weather tool is :func:`weather_tool` (``capture.failing`` picks the raising one).

``scripts/record_producers.py`` serves that app on 127.0.0.1 with uvicorn, posts each turn's RunAgentInput (see
:func:`run_input`) and writes what came back with :func:`write_capture`.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "producers"

QUESTION = "What's the weather in Paris?"
FOLLOW_UP = "And in Lyon?"
THREAD_ID = "thread-1"
TOOL_ERROR = "database unreachable"

CHANGE_BACKGROUND: dict[str, Any] = {
    "name": "change_background",
    "description": "Change the page's background colour.",
    "parameters": {
        "type": "object",
        "properties": {"background": {"type": "string", "description": "A CSS colour."}},
        "required": ["background"],
    },
}
INITIAL_STATE: dict[str, Any] = {"background": "white", "visits": 1}


@dataclass(frozen=True)
class Capture:
    """One recording: the fixture's name, the scripted model's scenario and the user's turns."""

    name: str
    scenario: str
    turns: tuple[str, ...] = (QUESTION,)
    tools: tuple[dict[str, Any], ...] = ()  # the frontend tools the client declares in RunAgentInput
    state: dict[str, Any] = field(default_factory=dict)

    @property
    def failing(self) -> bool:
        """Whether the agent's weather tool raises."""
        return self.scenario == "failing_tool"


CAPTURES: dict[str, Capture] = {
    capture.name: capture
    for capture in (
        Capture("text", "text"),
        Capture("tool", "tool"),
        Capture("parallel_tools", "parallel_tools"),
        Capture("failing_tool", "failing_tool"),
        Capture("http_500", "http_500"),
        Capture("frontend_tool", "frontend_tool", tools=(CHANGE_BACKGROUND,)),
        Capture("reasoning", "reasoning"),
        Capture("state", "tool", state=INITIAL_STATE),
        Capture("two_turns", "tool", turns=(QUESTION, FOLLOW_UP)),
    )
}


def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return f"sunny, 21 degrees in {city}"


def get_weather_failing(city: str) -> str:
    """Get the current weather in a city."""
    raise ValueError(TOOL_ERROR)


def weather_tool(capture: Capture) -> Callable[[str], str]:
    """The agent's ``get_weather``: the one that raises ``ValueError("database unreachable")`` when it should."""
    return get_weather_failing if capture.failing else get_weather


def run_input(
    capture: Capture, turn: int, history: list[dict[str, Any]], *, state: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The RunAgentInput (camelCase JSON) of ``turn`` (0-based): ``history`` plus the turn's user message."""
    user = {"id": f"user-{turn + 1}", "role": "user", "content": capture.turns[turn]}
    return {
        "threadId": THREAD_ID,
        "runId": f"run-{turn + 1}",
        "state": capture.state if state is None else state,
        "messages": [*history, user],
        "tools": list(capture.tools),
        "context": [],
        "forwardedProps": {},
    }


def sse_events(lines: list[tuple[int, str]]) -> list[tuple[int, dict[str, Any]]]:
    """The JSON events of SSE ``data:`` fields, each with the receive time of the line that completed it."""
    events: list[tuple[int, dict[str, Any]]] = []
    data: list[str] = []
    for received_ns, line in lines:
        if line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif line == "" and data:
            events.append((received_ns, json.loads("\n".join(data))))
            data = []
    if data:
        events.append((lines[-1][0], json.loads("\n".join(data))))
    return events


def post_run(url: str, body: dict[str, Any], *, timeout: float = 120) -> list[tuple[int, dict[str, Any]]]:
    """POST ``body`` to an AG-UI endpoint and read its SSE answer: ``[(received_ns, event), ...]``."""
    import httpx  # the framework venvs have it (every OpenAI client needs it)

    lines: list[tuple[int, str]] = []
    headers = {"Accept": "text/event-stream"}
    with httpx.stream("POST", url, json=body, headers=headers, timeout=timeout) as response:
        if response.status_code != 200:
            response.read()
            raise RuntimeError(f"{url} answered {response.status_code}: {response.text[:500]}")
        try:
            for line in response.iter_lines():
                lines.append((time.time_ns(), line))
        except httpx.RemoteProtocolError as exc:  # LlamaIndex re-raises after its RUN_ERROR: keep what came
            print(f"  (the response broke off after {len(lines)} lines: {exc})")
    return sse_events([*lines, (time.time_ns(), "")])


def write_capture(path: Path, events: list[tuple[int, dict[str, Any]]]) -> None:
    """Write ``events`` as recorder JSONL: one ``{"received_ns": ..., "event": {...}}`` per line."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as file:
        for received_ns, event in events:
            file.write(json.dumps({"received_ns": received_ns, "event": event}, ensure_ascii=False) + "\n")


def write_versions(folder: Path, packages: tuple[str, ...], captures: dict[str, str]) -> None:
    """Write ``versions.json``: each package's installed version, Python's, and what each capture recorded."""
    versions = {}
    for package in packages:
        try:
            versions[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            versions[package] = None
    payload = {
        "packages": versions,
        "python": ".".join(map(str, sys.version_info[:3])),
        "captures": captures,
    }
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "versions.json").write_text(
        json.dumps(payload, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )
