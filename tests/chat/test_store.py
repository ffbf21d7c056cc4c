"""The chat's log on disk: torn last lines (cut at every byte), bad lines, a second kernel, a real SIGKILL.

Every case opens a real log file the way a restarted kernel does, and checks what the chat shows and what the
file holds afterwards.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ag_ui.core import RunAgentInput

from agui_notebook import Chat, ChatStateError, EventLogWarning, load_events
from agui_notebook.chat._records import record_kind
from agui_notebook.chat._thread import STOPPED_BY_EXIT

ROOT = Path(__file__).resolve().parents[2]


def _short(run_input: RunAgentInput) -> Iterator[str]:
    yield "ok "
    yield str(len(run_input.messages))


async def _log_of_two_turns(path: Path) -> Chat:
    chat = Chat(_short, store=path)
    await chat.send_message("one")
    await chat.send_message("two")
    chat.close()
    return chat


def _open_quietly(path: Path) -> tuple[Chat, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chat = Chat(_short, store=path)
    return chat, [str(w.message) for w in caught if issubclass(w.category, EventLogWarning)]


async def test_a_torn_last_line_is_dropped_once_at_every_byte_it_can_be_cut(tmp_path: Path) -> None:
    """The last line is the second turn's run-end: cut anywhere in it, the run comes back from its events and
    ends as stopped; cut nowhere (the whole line, without its newline), nothing is lost."""
    whole = tmp_path / "whole.jsonl"
    original = await _log_of_two_turns(whole)
    data = whole.read_bytes()
    start = data.rstrip(b"\n").rfind(b"\n") + 1
    last = data[start:].rstrip(b"\n")
    assert record_kind(json.loads(last)["event"]) == "run-end"
    answer = original.messages[-1]["parts"][-1]["text"]
    cut = tmp_path / "cut.jsonl"
    for at in range(len(last) + 1):
        cut.write_bytes(data[:start] + last[:at])
        chat, warned = _open_quietly(cut)
        if at == len(last):  # whole, only its newline lost: kept, and the newline put back
            assert warned == [] and cut.read_bytes() == data
            assert chat.messages == original.messages
            chat.close()
            continue
        assert len(warned) == (1 if at else 0), (at, warned)
        if at:
            assert "the last line was cut off" in warned[0] and str(cut) in warned[0]
        assert chat.messages[-1]["parts"][-1]["text"] == answer  # every event of the run was whole
        ended = chat.events[-1]["event"]
        assert record_kind(ended) == "run-end" and ended["value"]["outcome"] == "cancelled"
        assert ended["value"]["error"] == STOPPED_BY_EXIT
        chat.close()
        again, warned = _open_quietly(cut)  # the file is whole again: reopening says nothing, shows the same
        assert warned == [] and again.messages == chat.messages and again.events == chat.events
        again.close()


async def test_a_log_cut_mid_run_shows_every_event_up_to_the_cut(tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    await _log_of_two_turns(log)
    lines = log.read_bytes().splitlines(keepends=True)
    deltas = [i for i, line in enumerate(lines) if b'"text-delta"' in line]
    log.write_bytes(b"".join(lines[: deltas[-2] + 1]))  # the second answer's first delta, nothing after it
    chat, warned = _open_quietly(log)
    assert warned == []
    assert [m["role"] for m in chat.messages] == ["user", "assistant", "user", "assistant"]
    assert chat.messages[-1]["parts"][-1] == {"type": "text", "text": "ok ", "state": "done"}
    assert chat.status == "ready"
    assert await chat.send_message("three") == "success"  # and the conversation goes on from there
    chat.close()


async def test_lines_that_are_not_records_are_skipped_with_one_warning_and_left(tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    original = await _log_of_two_turns(log)
    lines = log.read_bytes().splitlines(keepends=True)
    broken = [lines[0], b"not json at all\n", *lines[1:3], b'{"type": "RUN_STARTED"}\n', *lines[3:]]
    log.write_bytes(b"".join(broken))
    chat, warned = _open_quietly(log)
    assert warned == [f"{log}: skipped 2 lines that are not recorder records (line 2, 5)"]
    assert chat.messages == original.messages
    assert log.read_bytes() == b"".join(broken)  # reported, not rewritten
    chat.close()


async def test_a_plain_recorder_log_opens_as_the_conversation_it_recorded(tmp_path: Path) -> None:
    from agui_notebook import record
    from agui_notebook.bridge._assemble import ui_message_dicts_from_events
    from tests.widget.sample_agents import agui_agent

    events = list(agui_agent(RunAgentInput(thread_id="t1", run_id="r", messages=[])))
    log = tmp_path / "run.jsonl"
    list(record(events, log))
    chat, warned = _open_quietly(log)
    assert warned == [] and chat.thread_id == "t1"
    assert chat.messages == ui_message_dicts_from_events(events)


# ---------------------------------------------------------------------------------------------- other processes

_HOLDER = """
import asyncio, sys
from agui_notebook import Chat

def agent(run_input):
    yield "held"

async def main():
    chat = Chat(agent, store=sys.argv[1])
    await chat.send_message("from the other kernel")
    print("ready", flush=True)
    sys.stdin.readline()

asyncio.run(main())
"""


def _python(script: str, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )  # fmt: skip


async def test_a_log_another_kernel_holds_opens_read_only(tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    holder = _python(_HOLDER, str(log))
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        with pytest.warns(EventLogWarning, match="open in another kernel; it is read-only here"):
            chat = Chat(_short, store=log)
        with pytest.raises(ChatStateError, match="open in another kernel"):
            chat.send_message("mine")
        assert chat.read_only and chat.messages[0]["parts"][0]["text"] == "from the other kernel"
        with pytest.raises(ChatStateError, match="open in another kernel"):
            chat.new_thread()
        chat.close()
    finally:
        holder.communicate("\n", timeout=30)
    writable = Chat(_short, store=log)  # the other kernel is gone, and its lock with it
    assert await writable.send_message("mine now") == "success"
    assert not writable.read_only
    writable.close()


_STREAMER = """
import asyncio, sys, time
from agui_notebook import Chat

def agent(run_input):
    for i in range(100_000):
        yield f"{i} "
        time.sleep(0.001)

async def main():
    chat = Chat(agent, store=sys.argv[1])
    await chat.send_message("count forever")

asyncio.run(main())
"""


async def test_a_kernel_killed_mid_stream_loses_at_most_the_line_it_was_writing(tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    streamer = _python(_STREAMER, str(log))
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if log.exists() and log.read_bytes().count(b'"text-delta"') >= 200:
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError(f"the streaming kernel wrote too little: {streamer.stderr}")
    finally:
        os.kill(streamer.pid, signal.SIGKILL)
        streamer.wait(timeout=30)
    written = log.read_bytes()
    whole_lines = written[: written.rfind(b"\n") + 1]
    deltas = [
        json.loads(line)["event"]["delta"] for line in whole_lines.splitlines() if b'"text-delta"' in line
    ]
    chat, warned = _open_quietly(log)
    assert len(warned) <= 1  # a torn line, if the kill came mid-write
    text = chat.messages[1]["parts"][-1]["text"]
    assert text == "".join(deltas) and text.startswith("0 1 2 3 ")
    assert record_kind(chat.events[-1]["event"]) == "run-end"
    chat.close()
    again, warned = _open_quietly(log)
    assert warned == [] and again.messages == chat.messages
    frame = load_events(log)  # the analysis tools read the log as it is
    assert (frame["type"] == "text-delta").sum() == 0 and (
        frame["type"] == "TEXT_MESSAGE_CONTENT"
    ).sum() == len(deltas)
    again.close()


async def test_deleting_a_thread_replaces_the_file_whole(tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    chat = Chat(_short, store=log)
    await chat.send_message("keep me")
    kept = chat.thread_id
    chat.new_thread()
    await chat.send_message("drop me")
    dropped = chat.thread_id
    chat.delete_thread(dropped)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chat.jsonl", "chat.jsonl.lock"]
    assert b"drop me" not in log.read_bytes() and b"keep me" in log.read_bytes()
    assert chat.thread_id == kept
    assert await chat.send_message("and go on") == "success"  # the log is appended to again after the rewrite
    chat.close()
    again, _ = _open_quietly(log)
    assert [m["parts"][-1]["text"] for m in again.messages if m["role"] == "user"] == ["keep me", "and go on"]
    again.close()


def _written(records: list[Any]) -> list[str]:
    return [json.dumps(r) for r in records]
