"""FileBuffer: a file read on another thread, waited for piece by piece, and its failures."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agui_notebook._errors import SourceError
from agui_notebook.logs import _file_buffer, _read, _sources
from agui_notebook.logs._file_buffer import FileBuffer
from agui_notebook.logs._file_slices import FileSlice
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._runs import runs_df
from tests.logs.samples import jsonl, known_events


def test_reads_the_whole_file_in_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_file_buffer, "_CHUNK_BYTES", 1000)
    content = os.urandom(25_500)
    path = tmp_path / "bytes.bin"
    path.write_bytes(content)
    buffer = FileBuffer(str(path))
    assert buffer.ready(1) >= 1
    assert buffer.ready(len(content) + 10) == len(content)  # asking past the end waits for the end only
    assert buffer.data[:] == content and len(buffer.data) == len(content)


@pytest.fixture(autouse=True)
def every_file_on_a_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    """load_events reads only large files on a thread, and only those it cannot map; here every file is."""
    monkeypatch.setattr(_sources, "_THREADED_READ_BYTES", 0)
    monkeypatch.setattr(_sources.FileMap, "open", classmethod(lambda cls, path: None))


def test_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    buffer = FileBuffer(str(path))
    assert buffer.ready(100) == 0 and buffer.data == b""
    assert len(load_events(path)) == 0


def test_a_file_that_shrinks_while_read_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"type":"A"}\n')
    real_fstat = os.fstat

    class Taller:
        def __init__(self, result: os.stat_result) -> None:
            self.st_size = result.st_size + 100

    monkeypatch.setattr(_file_buffer.os, "fstat", lambda fd: Taller(real_fstat(fd)))
    buffer = FileBuffer(str(path))
    with pytest.raises(OSError, match="got shorter while it was being read"):
        buffer.ready(50)
    with pytest.raises(OSError, match="got shorter"):
        load_events(path)


def test_runs_df_of_a_log_that_shrinks_while_read_is_a_source_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(jsonl(known_events()))
    real_fstat = os.fstat

    class Taller:
        def __init__(self, result: os.stat_result) -> None:
            self.st_size = result.st_size + 100

    monkeypatch.setattr(_file_buffer.os, "fstat", lambda fd: Taller(real_fstat(fd)))
    with pytest.raises(SourceError, match=r"log\.jsonl' got shorter while it was being read$") as caught:
        runs_df(path)
    assert caught.value.path == str(path) and isinstance(caught.value, OSError)


def test_a_slice_of_a_log_that_shrank_is_a_source_error(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(b'{"type":"A"}\n' * 10)
    part = FileSlice(str(path), 0, 130, 1)
    path.write_bytes(b'{"type":"A"}\n')  # truncated after it was sliced
    with pytest.raises(SourceError, match="got shorter while it was being read"):
        part.read()


def test_slices_wait_for_their_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Small chunks and slices: the loader reads each slice only once its bytes are there."""
    monkeypatch.setattr(_file_buffer, "_CHUNK_BYTES", 97)
    monkeypatch.setattr(_read, "_SLICE_BYTES", 200)
    data = jsonl(known_events()) + b"\n\n  \n"
    path = tmp_path / "known.jsonl"
    path.write_bytes(data)
    from_file = load_events(path)
    from_text = load_events(data)
    assert from_file.drop(columns=["source", "event"]).equals(from_text.drop(columns=["source", "event"]))
    assert from_file["event"].tolist() == known_events()
