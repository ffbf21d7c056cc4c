"""ChatWidget.play: recorded logs and prepared streams rendered without an agent, at once or at their pace."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.chat._playback import _item_time, playback_items
from agui_notebook.widget._chat import ChatWidget
from agui_notebook.wire._records import is_chat_record
from tests.widget.front_end import FrontEnd, assert_in_sync
from tests.widget.sample_agents import CHUNK_ANSWER, chunk_agent, streamed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


async def test_play_renders_a_recorded_ag_ui_log() -> None:
    path = FIXTURES / "agui" / "reasoning_tool_text.jsonl"
    chat = ChatWidget()
    view = FrontEnd(chat)
    assert await chat.play(path) == "success"
    assert chat.messages == ui_message_dicts_from_events(path)
    assert len(streamed(chat)) == len(path.read_text().splitlines())
    assert_in_sync(view, chat)


async def test_play_an_sse_capture_and_a_chunk_list() -> None:
    chat = ChatWidget()
    await chat.play(FIXTURES / "agui" / "parallel_tools.sse")
    assert chat.messages == ui_message_dicts_from_events(FIXTURES / "agui" / "parallel_tools.sse")
    await chat.play(list(chunk_agent(None)))  # type: ignore[arg-type]
    assert chat.messages[-1] == CHUNK_ANSWER


async def test_play_at_recorded_speed_keeps_the_pacing(tmp_path: Path) -> None:
    base = 1_800_000_000_000_000_000
    records = [
        {"received_ns": base + i * 100_000_000, "event": {"type": "text-delta", "id": "t", "delta": f"{i}"}}
        for i in range(4)
    ]
    records = [
        {"received_ns": base, "event": {"type": "start", "messageId": "p1"}},
        {"received_ns": base, "event": {"type": "text-start", "id": "t"}},
        *records,
        {"received_ns": base + 300_000_000, "event": {"type": "text-end", "id": "t"}},
    ]
    log = tmp_path / "run.jsonl"
    log.write_bytes(b"\n".join(orjson.dumps(r) for r in records))
    chat = ChatWidget()
    started = time.monotonic()
    await chat.play(log, speed=1.0)
    assert 0.28 < time.monotonic() - started < 1.5
    started = time.monotonic()
    await chat.play(log, speed=3.0)
    assert time.monotonic() - started < 0.3
    assert chat.messages[0]["parts"] == [{"type": "text", "text": "0123", "state": "done"}]
    played = [r for r in chat.events if not is_chat_record(r["event"])]
    assert [r["received_ns"] for r in played[: len(records)]] == [r["received_ns"] for r in records]


# ---------------------------------------------------------------------------------------------- the source of a play


async def collect(stream: Any, speed: float | None = None) -> list[tuple[int | None, Any]]:
    return [pair async for pair in playback_items(stream, speed)]


async def test_records_keep_their_receive_times_and_bare_items_have_none() -> None:
    items = [{"received_ns": 7, "event": {"type": "start"}}, {"type": "text-start", "id": "t"}]
    assert await collect(items) == [(7, {"type": "start"}), (None, {"type": "text-start", "id": "t"})]

    async def live() -> AsyncIterator[Any]:
        for item in items:
            yield item

    assert await collect(live()) == await collect(items)


async def test_bytes_are_read_as_sse_jsonl_or_a_json_array() -> None:
    sse = (
        b': comment\nevent: message\ndata: {"type": "start"}\n\n'
        b'id: 1\nretry: 10\ndata: {"type": "finish"}\n\ndata: [DONE]\n'
    )
    assert await collect(sse) == [(None, {"type": "start"}), (None, {"type": "finish"})]
    assert await collect(b'{"type": "start"}\n{"type": "finish"}\n') == await collect(sse)
    assert await collect(b' [{"type": "start"}, {"type": "finish"}]') == await collect(sse)


def test_a_log_that_cannot_be_read_fails_before_the_run(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        playback_items(tmp_path / "missing.jsonl", None)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"type": "start"}\n{not json\n')
    with pytest.raises(ValueError, match=r"bad\.jsonl:2: invalid JSON"):
        playback_items(bad, None)


async def test_speed_divides_the_recorded_spacing() -> None:
    base = 1_800_000_000_000_000_000
    records = [{"received_ns": base + i * 100_000_000, "event": {"type": "text-delta"}} for i in range(4)]
    started = time.monotonic()
    await collect(records, speed=2.0)
    assert 0.14 < time.monotonic() - started < 1.0  # 300 ms recorded, at twice the pace
    timestamped = [{"type": "text-delta", "timestamp": 1_000 + i * 100} for i in range(4)]
    started = time.monotonic()
    await collect(timestamped, speed=3.0)
    assert 0.09 < time.monotonic() - started < 1.0  # event timestamps (ms) when nothing was recorded


def test_item_time_is_the_receive_time_else_the_event_timestamp() -> None:
    class Event:
        timestamp = 2_500

    assert _item_time(3_000_000_000, {"timestamp": 1}) == 3.0
    assert _item_time(None, {"timestamp": 1_500}) == 1.5
    assert _item_time(None, Event()) == 2.5
    assert _item_time(None, {"type": "start"}) is None
    assert _item_time(None, {"timestamp": "soon"}) is None


async def test_a_log_with_numbers_json_cannot_hold_plays_them_as_the_rule_says(tmp_path: Path) -> None:
    """``1e400`` reads as infinity (as JSON.parse reads it), which JSON.stringify writes as null."""
    log = tmp_path / "run.jsonl"
    log.write_text(
        '{"type": "start", "messageId": "p1"}\n'
        '{"type": "data-stats", "data": {"huge": 1e400, "big": 123456789012345678901234567890}}\n'
        '{"type": "finish"}\n'
    )
    chat = ChatWidget()
    view = FrontEnd(chat)
    assert await chat.play(log) == "success"
    assert chat.messages[0]["parts"] == [
        {"type": "data-stats", "data": {"huge": None, "big": 1.2345678901234568e29}}
    ]
    assert_in_sync(view, chat)
    chat.save(tmp_path / "chat.json")  # and the conversation saves
