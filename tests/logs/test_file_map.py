"""FileMap: a large log read from its file's mapping; its event cells give the exact events, or raise once
the file no longer holds them."""

from __future__ import annotations

import gzip
import json
import os
import pickle
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agui_notebook._errors import SourceError
from agui_notebook.logs import _file_map, _sources
from agui_notebook.logs._load import load_events
from agui_notebook.logs._parquet import to_parquet
from tests.logs.samples import jsonl, known_events


@pytest.fixture(autouse=True)
def every_file_mapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """load_events maps only large files; here every file is, with small blocks."""
    monkeypatch.setattr(_sources, "_THREADED_READ_BYTES", 0)
    monkeypatch.setattr(_file_map, "BLOCK_BYTES", 64)
    monkeypatch.setattr(_file_map, "_DROP_BEHIND", 0)


def _mapped(frame: Any) -> _file_map.FileMap:
    (blob,) = frame["event"].array._blobs
    assert blob.mapped is not None
    return blob.mapped


def test_events_come_back_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(jsonl(known_events()))
    frame = load_events(path)
    mapped = _mapped(frame)
    assert frame["event"].tolist() == known_events()
    assert frame["event"].iloc[3] == known_events()[3]
    assert frame["event"].array.nbytes < len(path.read_bytes())  # the file is not held in memory
    assert mapped.size == len(path.read_bytes())
    # A pickled table carries its events with it.
    assert pickle.loads(pickle.dumps(frame))["event"].tolist() == known_events()


def test_a_log_that_grew_still_gives_its_events(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(jsonl(known_events()))
    frame = load_events(path)
    with open(path, "ab") as handle:  # a recorder still appending
        handle.write(b'\n{"type":"RUN_STARTED","threadId":"t","runId":"later"}\n')
    assert frame["event"].tolist() == known_events()


def test_a_log_replaced_by_another_file_still_gives_its_events(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(jsonl(known_events()))
    frame = load_events(path)
    other = tmp_path / "other.jsonl"
    other.write_bytes(b'{"type":"CUSTOM","name":"x","value":1}\n' * 50)
    os.replace(other, path)  # the mapping keeps the file it was made of
    assert frame["event"].tolist() == known_events()


def test_a_log_rewritten_in_place_raises(tmp_path: Path) -> None:
    data = jsonl(known_events())
    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    frame = load_events(path)
    changed = data.replace(b'"runId"', b'"runID"')
    assert len(changed) == len(data) and changed != data
    with open(path, "r+b") as handle:
        handle.write(changed)
    with pytest.raises(SourceError, match="changed since it was loaded") as caught:
        frame["event"].tolist()
    assert caught.value.path == str(path)
    with pytest.raises(SourceError, match="changed since it was loaded"):
        pickle.dumps(frame)


def test_a_log_cut_short_raises_instead_of_reading_past_its_end(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes(jsonl(known_events()))
    frame = load_events(path)
    with open(path, "r+b") as handle:
        handle.truncate(10)
    with pytest.raises(SourceError, match="changed since it was loaded"):
        frame["event"].iloc[len(frame) - 1]


def test_a_file_that_cannot_be_mapped_is_read_into_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = _file_map.mmap.mmap

    class Refused(real):  # type: ignore[misc,valid-type]  # a file mapping refused (anonymous memory is not)
        def __new__(cls, fileno: int, *args: Any, **kwargs: Any) -> Any:
            if fileno != -1:
                raise OSError(24, "Too many open files")
            return real(fileno, *args, **kwargs)

    monkeypatch.setattr(_file_map.mmap, "mmap", Refused)
    path = tmp_path / "log.jsonl"
    path.write_bytes(jsonl(known_events()))
    frame = load_events(path)
    assert frame["event"].array._blobs[0].mapped is None
    assert frame["event"].tolist() == known_events()


# -- the exact events, whatever the text --------------------------------------------------------------------

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)  # fmt: skip
EVENTS = st.lists(
    st.builds(
        lambda kind, value, extra: {"type": kind, "messageId": "m", "delta": value, **extra},
        st.sampled_from(["TEXT_MESSAGE_CONTENT", "CUSTOM", "RAW", "STATE_SNAPSHOT"]),
        st.text(min_size=1),  # unicode, escapes, line and paragraph separators
        st.dictionaries(st.sampled_from(["value", "snapshot", "rawEvent", "name"]), JSON, max_size=2),
    ),
    min_size=1,
    max_size=30,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    events=EVENTS,
    ascii=st.booleans(),
    newline=st.sampled_from([b"\n", b"\r\n"]),
    recorder=st.booleans(),
    compressed=st.booleans(),
)
def test_event_cells_are_the_exact_events(
    tmp_path: Path,
    events: list[dict[str, Any]],
    ascii: bool,
    newline: bytes,
    recorder: bool,
    compressed: bool,
) -> None:
    records = [{"received_ns": 10 + i, "event": e} for i, e in enumerate(events)] if recorder else events
    data = newline.join(json.dumps(r, ensure_ascii=ascii).encode() for r in records) + newline
    path = tmp_path / ("log.jsonl.gz" if compressed else "log.jsonl")
    path.write_bytes(gzip.compress(data) if compressed else data)
    frame = load_events(path)
    assert (frame["event"].array._blobs[0].mapped is None) == compressed  # a gzip log is read into memory
    assert frame["event"].tolist() == events
    assert [frame["event"].iloc[i] for i in range(len(events))] == events
    assert frame["event"].array.decode_rows(list(range(len(events)))[::-1]) == events[::-1]


def _descriptors_of(path: Path) -> int:
    fds = Path("/proc/self/fd")
    return sum(1 for fd in fds.iterdir() if os.path.realpath(fd) == str(path.resolve()))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
def test_a_load_that_raises_keeps_no_mapping(tmp_path: Path) -> None:
    import gc

    from agui_notebook._errors import EventLogWarning, EventParseError

    path = tmp_path / "log.jsonl"
    path.write_bytes(jsonl(known_events()) + b'\n{"type": broken\n' + jsonl(known_events()))
    with pytest.raises(EventParseError):
        load_events(path)
    gc.collect()
    assert _descriptors_of(path) == 0
    with pytest.warns(EventLogWarning, match="unreadable"):
        frame = load_events(path, errors="collect")
    assert _descriptors_of(path) == 1  # the table's mapping
    del frame
    gc.collect()
    assert _descriptors_of(path) == 0


def test_raw_rows_are_the_lines_as_read(tmp_path: Path) -> None:
    """``raw_rows`` (what ``to_parquet`` writes) gives what ``raw`` gives, one check of the file for them all."""
    path = tmp_path / "log.jsonl"
    path.write_bytes(b"\r\n".join(json.dumps(e, ensure_ascii=False).encode() for e in known_events()))
    array = load_events(path)["event"].array
    rows = list(range(len(array)))[::-1]
    assert array.raw_rows(rows) == [array.raw(i) for i in rows]
    with_missing = array.take([0, -1, 2], allow_fill=True)
    assert with_missing.raw_rows([0, 1, 2]) == [array.raw(0), None, array.raw(2)]
    to_parquet(load_events(path), tmp_path / "events.parquet")
    stored = pd.read_parquet(tmp_path / "events.parquet")
    assert [json.loads(text) for text in stored["event"]] == known_events()
