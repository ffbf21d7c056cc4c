"""Chunk sources: dicts, JSON texts, SSE text and fragments, sync and async."""

from __future__ import annotations

import doctest
import json

import pytest

from agui_notebook.ui import _chunk_source
from agui_notebook.ui._chunk_source import ChunkDecodeError, aiter_ui_chunks, iter_ui_chunks

CHUNKS = [
    {"type": "start"},
    {"type": "text-start", "id": "t"},
    {"type": "text-delta", "id": "t", "delta": "a\nb"},
]
SSE = "".join(f"data: {json.dumps(c)}\n\n" for c in CHUNKS) + "data: [DONE]\n\n"


def test_sources_of_every_shape_give_the_same_chunks():
    jsonl = "".join(json.dumps(c) + "\n" for c in CHUNKS)
    assert list(iter_ui_chunks(CHUNKS)) == CHUNKS
    assert list(iter_ui_chunks(SSE)) == CHUNKS
    assert list(iter_ui_chunks(SSE.encode())) == CHUNKS
    assert list(iter_ui_chunks(jsonl)) == CHUNKS
    assert list(iter_ui_chunks(json.dumps(CHUNKS, indent=2))) == CHUNKS
    assert list(iter_ui_chunks([json.dumps(c) for c in CHUNKS])) == CHUNKS  # JSON texts without newlines
    assert list(iter_ui_chunks([f"data: {json.dumps(c)}" for c in CHUNKS])) == CHUNKS  # SSE lines
    assert list(iter_ui_chunks([SSE[i : i + 5] for i in range(0, len(SSE), 5)])) == CHUNKS  # fragments
    assert list(iter_ui_chunks([SSE.encode()[i : i + 3] for i in range(0, len(SSE), 3)])) == CHUNKS
    wide = [{"type": "text-delta", "id": "t", "delta": "°é中😀"}]
    encoded = "".join(f"data: {json.dumps(c, ensure_ascii=False)}\n\n" for c in wide).encode()
    assert (
        list(iter_ui_chunks([encoded[i : i + 1] for i in range(len(encoded))])) == wide
    )  # cut inside characters


def test_files_and_paths(tmp_path):
    path = tmp_path / "stream.sse"
    path.write_text(SSE)
    assert list(iter_ui_chunks(path)) == CHUNKS
    with path.open() as lines:
        assert list(iter_ui_chunks(lines)) == CHUNKS
    with path.open("rb") as raw:
        assert list(iter_ui_chunks(raw)) == CHUNKS


def test_sse_details():
    text = ': keep-alive\nevent: message\nid: 1\ndata: {"type":\ndata: "start"}\n\nretry: 10\r\ndata:{"type":"finish"}\r\n\r\n'
    assert list(iter_ui_chunks(text)) == [{"type": "start"}, {"type": "finish"}]
    # [DONE] is skipped, not an end: the AI SDK's parseJsonEventStream ignores it and reads on.
    assert list(iter_ui_chunks('data: {"type":"a"}\n\ndata: [DONE]\n\ndata: {"type":"b"}\n\n')) == [
        {"type": "a"},
        {"type": "b"},
    ]


def test_pydantic_models_are_dumped_as_on_the_wire():
    from pydantic_ai.ui.vercel_ai.response_types import TextDeltaChunk

    assert list(iter_ui_chunks([TextDeltaChunk(id="t", delta="x")])) == [
        {"type": "text-delta", "delta": "x", "id": "t"}
    ]


def test_bad_input_names_the_line_or_item():
    with pytest.raises(ChunkDecodeError, match=r"^<events>:2: invalid JSON \(") as caught:
        list(iter_ui_chunks(['{"type": "start"}', "data: {nope}\n\n"]))
    assert (caught.value.source, caught.value.line, caught.value.index) == ("<events>", 2, 1)
    with pytest.raises(ChunkDecodeError, match=r"^<text>:1: expected a JSON object, got an array$"):
        list(iter_ui_chunks("data: [1, 2]\n\n"))
    with pytest.raises(ChunkDecodeError, match=r"^<events>: item 1: cannot read a chunk from int$"):
        list(iter_ui_chunks([{"type": "start"}, 1]))
    assert isinstance(caught.value, ValueError)


async def test_async_sources():
    async def pieces():
        for i in range(0, len(SSE), 4):
            yield SSE[i : i + 4].encode()

    assert [c async for c in aiter_ui_chunks(pieces())] == CHUNKS


def test_docstring_examples():
    assert doctest.testmod(_chunk_source).failed == 0
