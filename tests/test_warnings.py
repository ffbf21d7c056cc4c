"""Every warning the package issues names the user's line (the first caller outside the package), however deep
the package found what it warns about and whatever wrappers (option checks, namespaces) are in between."""

from __future__ import annotations

import ast
import json
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import agui_notebook
from agui_notebook import Chat, ChatWidget, EventLogWarning, ForkInputWarning, fork, load_events, runs_df
from tests.logs.samples import CAPTURES

PACKAGE = Path(agui_notebook.__file__).parent
RUN = [
    {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
    {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
    {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"},
    {"type": "TEXT_MESSAGE_END", "messageId": "m"},
    {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
]


def caught(category: type[Warning], action: Callable[[], Any]) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        action()
    found = [w for w in seen if issubclass(w.category, category)]
    assert found, f"no {category.__name__}"
    return found


def assert_names_this_file(found: list[warnings.WarningMessage]) -> None:
    assert [(w.filename, str(w.message)[:60]) for w in found] == [
        (__file__, str(w.message)[:60]) for w in found
    ]


def test_only_the_error_family_calls_warnings_warn() -> None:
    """Warnings go through ``_errors.warn``, which finds the user's line (``_lazy`` sits below the family and
    warns from a module ``__getattr__``, one call from the user)."""
    calls = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "warn"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "warnings"
            ):
                calls.append(str(path.relative_to(PACKAGE)))
    assert sorted(calls) == ["_errors.py", "_lazy.py"]


def test_load_events_warnings_name_the_callers_line(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.jsonl").write_text("".join(json.dumps(e) + "\n" for e in RUN))
    (folder / "notes.md").write_text("not a log")
    (folder / "empty.jsonl").write_text("")
    assert_names_this_file(caught(EventLogWarning, lambda: load_events(folder)))
    assert_names_this_file(caught(EventLogWarning, lambda: runs_df(folder, workers=2)))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(RUN[0]) + "\n{not json\n")
    assert_names_this_file(caught(EventLogWarning, lambda: load_events(bad, errors="collect")))


def test_a_fork_without_a_user_message_warns_at_the_callers_line() -> None:
    assert_names_this_file(caught(ForkInputWarning, lambda: fork(CAPTURES / "pydantic_ai_runs.jsonl", at=9)))


def _short(run_input: Any) -> Iterator[str]:
    yield "ok"


async def test_a_chat_log_cut_short_warns_at_the_line_that_opens_it(tmp_path: Path) -> None:
    path = tmp_path / "chat.jsonl"
    chat = Chat(_short, store=path)
    await chat.send_message("one")
    chat.close()
    path.write_bytes(path.read_bytes()[:-5])
    found = caught(EventLogWarning, lambda: Chat(_short, store=path).close())
    assert_names_this_file(found)


def test_a_string_given_to_ipywidgets_send_warns_at_the_callers_line() -> None:
    widget = ChatWidget(_short, store=None)
    assert_names_this_file(caught(UserWarning, lambda: widget.send("hello")))
    widget.close()
