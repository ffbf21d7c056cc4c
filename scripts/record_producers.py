"""Record what agent frameworks' own AG-UI integrations stream, offline, as fixtures for the replay tests.

For each capture of ``scripts/producers/_common.py`` (text, tool, parallel_tools, failing_tool, http_500,
frontend_tool, reasoning, state, two_turns) that the framework does not skip (its module's ``SKIPPED``), this starts the scripted
OpenAI-compatible model (``tests/support/scripted_model.py``) on 127.0.0.1, serves the framework's AG-UI app
(``scripts/producers/<framework>.py``'s ``build_app``) with uvicorn on 127.0.0.1, POSTs each turn's RunAgentInput
(the second turn carries the first turn's messages as ``@ag-ui/client`` would hold them, through
``agui_notebook.apply_events``) and writes the SSE events it answered, as recorder JSONL
(``{"received_ns": ..., "event": {...}}``), to ``tests/fixtures/producers/<framework>/<capture>.jsonl``, and the
versions it ran to ``versions.json`` beside them.

Each framework needs its own virtual environment (their dependencies conflict), outside the repository:

    python -m venv /tmp/producers/langgraph
    /tmp/producers/langgraph/bin/pip install -e /work/main uvicorn httpx "ag-ui-langgraph[fastapi]" langchain-openai
    /tmp/producers/langgraph/bin/python scripts/record_producers.py --framework langgraph

The packages each framework needs are in ``tests/fixtures/producers/README.md``. ``--capture NAME`` (repeatable)
records only those captures. ``--chat`` records nothing: it chats with the live integration through
``agui_notebook``'s headless ``Chat`` over ``HttpAgent`` (the ``two_turns`` and ``frontend_tool`` captures' turns,
``change_background`` as a Python frontend tool), prints each turn's outcome, the number of runs, and whether
the live conversation equals ``ui_messages_from_events`` of the chat's log, and writes the log and the live
UIMessages to ``tests/fixtures/producers/<framework>/chat/<capture>.jsonl`` and ``.messages.json``. Nothing here runs in the test
command; the fixtures it writes do.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # `scripts.producers` and `tests.support` import from the repository root

from scripts.producers._common import (  # noqa: E402
    CAPTURES,
    FIXTURES,
    Capture,
    post_run,
    run_input,
    write_capture,
    write_versions,
)
from tests.support.loopback import serve_on_loopback  # noqa: E402
from tests.support.scripted_model import ScriptedModel  # noqa: E402


def record(module: Any, capture: Capture) -> list[tuple[int, dict[str, Any]]]:
    """Every turn of ``capture`` through the framework's app; the events of all turns, in order."""
    from agui_notebook import apply_events

    events: list[tuple[int, dict[str, Any]]] = []
    history: list[dict[str, Any]] = []
    state: dict[str, Any] | None = None
    with (
        ScriptedModel(capture.scenario) as model,
        serve_on_loopback(module.build_app(capture, model.base_url)) as url,
    ):
        for turn in range(len(capture.turns)):
            body = run_input(capture, turn, history, state=state)
            received = post_run(url + getattr(module, "PATH", "/"), body)
            events.extend(received)
            # what a chat holds after the run: its input messages with the run's events applied
            thread = apply_events(
                [event for _, event in received], messages=body["messages"], state=body["state"]
            )
            history = [
                message if isinstance(message, dict) else message.model_dump(by_alias=True, exclude_none=True)
                for message in thread.messages
            ]
            state = thread.state if isinstance(thread.state, dict) else body["state"]
        print(f"  {capture.name}: {len(events)} events, {len(model.requests)} model requests")
    return events


def change_background(background: str) -> str:
    """Change the page's background colour (the chat's Python frontend tool)."""
    return f"background changed to {background}"


async def chat_turns(url: str, capture: Capture) -> dict[str, Any]:
    """A headless ``Chat`` over ``HttpAgent`` against the live integration: every turn of ``capture``."""
    from agui_notebook import Chat, HttpAgent, ui_messages_from_events
    from tests.support.reference_conversation import conversation_shape

    tools = [change_background] if capture.tools else []
    chat = Chat(HttpAgent(url), store=None, tools=tools, state=capture.state or None)
    outcomes = []
    for turn in capture.turns:
        outcomes.append(str(await chat.send_message(turn)))
    live = conversation_shape(chat.messages)
    offline = conversation_shape(ui_messages_from_events(chat.events))  # the chat's log, read offline
    return {
        "outcomes": outcomes,
        "runs": len(chat.run_inputs),
        "error": chat.error,
        "live": live,
        "offline": "the same" if offline == live else offline,
        "log": chat.events,
        "messages": chat.messages,
    }


def chat(module: Any, capture: Capture) -> dict[str, Any]:
    """:func:`chat_turns` with the scripted model and the framework's app served for it."""
    import asyncio

    with (
        ScriptedModel(capture.scenario) as model,
        serve_on_loopback(module.build_app(capture, model.base_url)) as url,
    ):
        return asyncio.run(chat_turns(url + getattr(module, "PATH", "/"), capture))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--framework", required=True, help="a module of scripts/producers/ (e.g. langgraph)")
    parser.add_argument("--capture", action="append", help="record only this capture (repeatable)")
    parser.add_argument(
        "--chat",
        action="store_true",
        help="record nothing: chat with the live integration over HttpAgent instead",
    )
    args = parser.parse_args()
    module = importlib.import_module(f"scripts.producers.{args.framework}")
    if args.chat:
        import json

        folder = FIXTURES / module.FRAMEWORK / "chat"
        for name in args.capture or ["two_turns", "frontend_tool"]:
            result = chat(module, CAPTURES[name])
            log, messages = result.pop("log"), result.pop("messages")
            print(json.dumps({"capture": name, **result}, default=str))
            folder.mkdir(parents=True, exist_ok=True)
            lines = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in log)
            (folder / f"{name}.jsonl").write_text(lines, encoding="utf-8")
            (folder / f"{name}.messages.json").write_text(
                json.dumps(messages, indent=1) + "\n", encoding="utf-8"
            )
        return 0
    folder = FIXTURES / module.FRAMEWORK
    names = args.capture or [name for name in CAPTURES if name not in getattr(module, "SKIPPED", {})]
    outcome: dict[str, str] = {
        name: f"skipped: {why}" for name, why in getattr(module, "SKIPPED", {}).items()
    }
    failed = False
    for name in names:
        try:
            events = record(module, CAPTURES[name])
        except Exception:
            traceback.print_exc()
            outcome[name] = "failed to record"
            failed = True
            continue
        write_capture(folder / f"{name}.jsonl", events)
        outcome[name] = f"{len(events)} events"
    previous = folder / "versions.json"
    if args.capture and previous.exists():  # a partial recording keeps what the others recorded
        import json

        outcome = {**json.loads(previous.read_text())["captures"], **outcome}
    write_versions(folder, module.PACKAGES, outcome)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
