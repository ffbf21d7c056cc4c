"""The wire reader: the same frames however a text is cut, and every rule with its exact outcome."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agui_notebook.wire._reader import (
    UNFINISHED_LAST_LINE,
    Frame,
    WireReader,
    aiter_frames,
    iter_frames,
    looks_like_text,
    read_text_source,
    text_frames,
    whole_jsonl_values,
)
from tests.wire.streams import cuts, wire_texts

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def fed(pieces: list[Any]) -> list[Frame]:
    reader = WireReader()
    frames: list[Frame] = []
    for piece in pieces:
        frames += reader.feed(piece)
    return frames + reader.close()


def values(frames: list[Frame]) -> list[Any]:
    assert [f.error for f in frames if f.error is not None] == []
    return [f.value for f in frames]


@SETTINGS
@given(st.data())
def test_any_cut_of_a_text_gives_the_frames_of_the_whole(data: st.DataObject) -> None:
    text, events = data.draw(wire_texts())
    raw = text.encode()
    whole = list(text_frames(raw))
    assert values(whole) == events
    pieces = data.draw(cuts(raw))
    assert fed(pieces) == whole
    assert fed([raw]) == whole
    assert list(iter_frames(pieces)) == whole
    as_text = [p.decode("utf-8", "replace") for p in pieces] if all(_is_utf8(p) for p in pieces) else None
    if as_text is not None:
        assert fed(as_text) == whole


def _is_utf8(piece: bytes) -> bool:
    try:
        piece.decode()
    except UnicodeDecodeError:
        return False
    return True


@SETTINGS
@given(st.data())
def test_async_slices_give_the_same_frames(data: st.DataObject) -> None:
    text, _ = data.draw(wire_texts())
    raw = text.encode()
    pieces = data.draw(cuts(raw))

    async def body() -> Any:
        for piece in pieces:
            yield piece

    async def collect() -> list[Frame]:
        return [frame async for frame in aiter_frames(body())]

    assert asyncio.run(collect()) == list(text_frames(raw))


def test_recorder_records_carry_their_receive_time() -> None:
    text = b'{"received_ns": 5, "event": {"type": "A"}}\n{"event": {"type": "B"}}\n{"event": 3}\n'
    assert list(text_frames(text)) == [
        Frame(1, {"type": "A"}, None, 5),
        Frame(2, {"type": "B"}, None, None),
        Frame(3, None, "recorded event is a number, not an object"),
    ]


def test_lines_that_are_neither_json_nor_sse_are_reported_where_they_are() -> None:
    frames = fed([b'{"type": "A"}\nhello\n{"type": "B"}\n'])
    assert [(f.line, f.error) for f in frames] == [
        (1, None),
        (2, "not JSON, JSONL or SSE (starts with 'hello')"),
        (3, None),
    ]


def test_a_text_that_does_not_start_as_json_or_sse_is_reported_once() -> None:
    page = b"<!DOCTYPE html>\n<html>\n<body>{oops}</body>\n"
    assert [(f.line, f.error) for f in fed([page])] == [
        (1, "not JSON, JSONL or SSE (starts with '<!DOCTYP')")
    ]


def test_a_broken_line_is_reported_alone_and_the_rest_is_read() -> None:
    frames = list(text_frames(b'{"type": "A"}\n{"type": "B", "delta": "ab\n{"type": "C"}\n'))
    assert [(f.line, f.value, f.error is None) for f in frames] == [
        (1, {"type": "A"}, True),
        (2, None, False),
        (3, {"type": "C"}, True),
    ]


def test_an_unfinished_last_line_says_so() -> None:
    frames = fed([b'{"type": "A"}\n{"type": "B", "del'])
    assert frames[-1].line == 2
    assert frames[-1].error is not None
    assert frames[-1].error.endswith(UNFINISHED_LAST_LINE)


def test_a_first_document_left_open_is_read_line_by_line() -> None:
    frames = fed([b'[\n{"type": "A"},\n{"type": "B"}\n'])
    assert [(f.line, f.error is None) for f in frames] == [(1, False), (2, False), (3, True)]


def test_numbers_are_read_as_json_parse_reads_them() -> None:
    sse = b'data: {"type": "A", "n": 1e400}\n\n'
    jsonl = b'{"type": "A", "n": 1e400}\n'
    assert values(fed([sse])) == values(fed([jsonl])) == [{"type": "A", "n": float("inf")}]


def test_done_is_skipped_and_reading_goes_on() -> None:
    text = b'data: {"type": "A"}\n\ndata: [DONE]\n\ndata: {"type": "B"}\n\n'
    assert values(fed([text])) == [{"type": "A"}, {"type": "B"}]


def test_a_bom_is_skipped_only_at_the_start() -> None:
    assert values(fed([b"\xef", b"\xbb", b'\xbf{"type": "A"}\n'])) == [{"type": "A"}]
    frames = fed([b'{"type": "A"}\n\xef\xbb\xbf{"type": "B"}\n'])
    assert [f.error is None for f in frames] == [True, False]


def test_whole_json_texts_and_sse_lines_are_complete_without_a_line_break() -> None:
    assert values(fed(['{"type": "A"}', '{"type": "B"}'])) == [{"type": "A"}, {"type": "B"}]
    assert [f.line for f in fed(['{"type": "A"}', "\n", '{"type": "B"}'])] == [1, 2]
    lines = ['data: {"type": "A"}', "", 'data: {"type": "B"}', ""]  # as httpx's aiter_lines() yields them
    assert values(fed(lines)) == [{"type": "A"}, {"type": "B"}]


def test_an_sse_event_over_several_data_lines_is_joined() -> None:
    text = b'data: {"type":\ndata: "A"}\n\n'
    assert list(text_frames(text)) == [Frame(1, {"type": "A"})]
    assert fed([b'data: {"type":\r', b'\ndata: "A"}\r\n\r\n']) == [Frame(1, {"type": "A"})]


def test_an_sse_event_holding_an_array_is_reported() -> None:
    assert [f.error for f in fed([b"data: [1, 2]\n\n"])] == ["expected a JSON object, got an array"]


def test_the_fast_jsonl_path_agrees_with_the_reader_or_declines() -> None:
    good = b'{"type": "A"}\n{"type": "B"}\n'
    assert whole_jsonl_values(good) == values(fed([good]))
    for declined in (
        b'{"type": "A"}\r\n',
        b'\xef\xbb\xbf{"type": "A"}',
        b'{"a": 1}\n\n{"b": 2}',
        b'{"a": 1}\n[1]',
    ):
        assert whole_jsonl_values(declined) is None


def test_the_path_or_text_rule() -> None:
    assert looks_like_text("") and looks_like_text("\ufeff{}") and looks_like_text("a\nb")
    assert looks_like_text("data: {}") and looks_like_text(": ping") and looks_like_text("[1]")
    assert not looks_like_text("logs/run.jsonl") and not looks_like_text("C:\\logs\\x.sse")


def test_text_sources(tmp_path: Any) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(b'{"type": "A"}\n')
    assert read_text_source(str(path)) == (str(path), b'{"type": "A"}\n')
    assert read_text_source(path) == (str(path), b'{"type": "A"}\n')
    with path.open("rb") as handle:
        assert read_text_source(handle) == (str(path), b'{"type": "A"}\n')
    assert read_text_source([{"type": "A"}]) is None
    with pytest.raises(FileNotFoundError, match="neither an existing file"):
        read_text_source(str(tmp_path / "missing.jsonl"))
    with pytest.raises(IsADirectoryError, match="is a folder"):
        read_text_source(str(tmp_path))
