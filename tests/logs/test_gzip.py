"""Gzip logs: decompressed into one buffer sized by the trailer, grown when it is short, problems named."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

import pytest

from agui_notebook.logs import _gzip
from agui_notebook.logs._gzip import gunzip, gunzip_bytes, gunzip_path, gzip_size_hint, is_gzip

TEXT = b"".join(b'{"type": "CUSTOM", "value": %d}\n' % i for i in range(5_000))


def test_one_member_fills_a_buffer_of_the_recorded_size(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl.gz"
    path.write_bytes(gzip.compress(TEXT))
    with open(path, "rb") as handle:
        assert gzip_size_hint(handle, path.stat().st_size) == len(TEXT)
    data, problem = gunzip_path(path)
    assert (data[:], problem, len(data)) == (TEXT, None, len(TEXT))


@pytest.mark.parametrize("hint", [0, 10, len(TEXT) * 3])
def test_a_wrong_size_hint_still_gives_the_exact_bytes(hint: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_gzip, "_READ_BYTES", 100)  # many reads, members and tails across read boundaries
    monkeypatch.setattr(_gzip, "_OUT_BYTES", 1000)
    data = gzip.compress(TEXT[:40_000]) + gzip.compress(TEXT[40_000:])
    out, problem = gunzip(io.BytesIO(data), hint)
    assert (out[:], problem) == (TEXT, None)


def test_padding_garbage_and_cuts() -> None:
    member = gzip.compress(TEXT)
    assert gunzip_bytes(member + b"\0" * 600)[0][:] == TEXT
    out, problem = gunzip_bytes(member + b"trailing junk")
    assert out[:] == TEXT and problem is not None and problem.startswith("not readable gzip data")
    out, problem = gunzip_bytes(member[: len(member) // 2])
    assert TEXT.startswith(out[:]) and problem is not None and "ends early" in problem
    out, problem = gunzip_bytes(gzip.compress(b""))
    assert (out, problem) == (b"", None)
    assert is_gzip(member) and not is_gzip(b'{"type"')
