"""What load_events reads: every kind of input, its named sources, and inputs that are not there."""

from __future__ import annotations

import gzip
import io
import warnings
from pathlib import Path

import orjson
import pandas as pd
import pytest
from ag_ui.core import RunFinishedEvent, RunStartedEvent, TextMessageContentEvent, TextMessageStartEvent

from agui_notebook._errors import EventLogWarning
from agui_notebook.agui._intake import EventParseError
from agui_notebook.chat._recorder import EventRecorder
from agui_notebook.logs import _sources
from agui_notebook.logs._columns import EVENT_COLUMNS, names
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._runs import runs_df
from tests.logs.samples import RUN, T0, at, jsonl, known_events, values


def summary(df: pd.DataFrame) -> list[tuple]:
    """The parts of the table every format must agree on."""
    return list(
        zip(df["type"].astype(str), df["run_id"].astype(str), df["t"], df["delta"].fillna(""), strict=True)
    )


def test_every_source_kind_gives_the_same_table(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_bytes(jsonl(RUN))
    expected = summary(load_events(path))
    assert expected[2] == ("TEXT_MESSAGE_CONTENT", "r", 0.025, "Hi")
    text = jsonl(RUN).decode()
    sources = {
        "str path": str(path),
        "Path": path,
        "text": text,
        "bytes": text.encode(),
        "open file": io.StringIO(text),
        "binary file": io.BytesIO(text.encode()),
        "dicts": RUN,
        "tuple of dicts": tuple(RUN),
        "generator": (e for e in RUN),
        "JSON array": orjson.dumps(RUN).decode(),
        "SSE": "".join(f"data: {orjson.dumps(e).decode()}\n\n" for e in RUN),
        "SSE with comments and CRLF": ": hi\r\n"
        + "".join(f"event: x\r\ndata: {orjson.dumps(e).decode()}\r\n\r\n" for e in RUN),
        "folder": tmp_path,
        "glob": str(tmp_path / "*.jsonl"),
        "list of paths": [path],
    }
    for name, source in sources.items():
        assert summary(load_events(source)) == expected, name


def test_ag_ui_models_are_read_through_the_intake() -> None:
    models = [
        RunStartedEvent(thread_id="t", run_id="r", timestamp=T0),
        TextMessageStartEvent(message_id="m", role="assistant", timestamp=T0 + 10),
        TextMessageContentEvent(message_id="m", delta="Hi", timestamp=T0 + 25),
        RunFinishedEvent(thread_id="t", run_id="r", timestamp=T0 + 50),
    ]
    df = load_events(models)
    assert values(df["type"]) == ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "RUN_FINISHED"]
    assert df["t"].tolist() == [0.0, 0.01, 0.025, 0.05]
    assert df["event"].iloc[2] == {
        "type": "TEXT_MESSAGE_CONTENT",
        "timestamp": T0 + 25,
        "messageId": "m",
        "delta": "Hi",
    }
    assert df["source"].unique().tolist() == ["<events>"]


def test_empty_inputs(tmp_path: Path) -> None:
    (tmp_path / "empty.jsonl").write_text("\n\n")
    for source in ([], "", tmp_path / "empty.jsonl"):
        df = load_events(source)
        assert list(df.columns) == names(EVENT_COLUMNS) and len(df) == 0


def test_missing_paths_raise(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"nothing\.jsonl"):
        load_events(str(tmp_path / "nothing.jsonl"))
    with pytest.raises(FileNotFoundError, match="no files match"):
        load_events(str(tmp_path / "*.jsonl"))
    with pytest.raises(TypeError, match="cannot load events from int"):
        load_events(42)


def test_small_files_are_read_directly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_sources, "_THREADED_READ_BYTES", 1000)
    started: list[str] = []
    mapped = _sources.FileMap.open
    monkeypatch.setattr(_sources.FileMap, "open", lambda path: started.append(path) or mapped(path))
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    small.write_bytes(jsonl(known_events()[:3]))
    large.write_bytes(jsonl(known_events()))
    assert len(load_events([small, large])) == 3 + len(known_events())
    assert started == [str(large)]


def test_each_input_is_named(tmp_path: Path) -> None:
    (tmp_path / "b.sse").write_text("")
    (tmp_path / "a.jsonl").write_bytes(jsonl(RUN))
    (tmp_path / "notes.md").write_text("not a log")
    assert [s.name for s in _sources.sources(tmp_path)] == [
        str(tmp_path / "a.jsonl"),
        str(tmp_path / "b.sse"),
    ]
    assert [s.size for s in _sources.sources(tmp_path / "a.jsonl")] == [len(jsonl(RUN))]
    text = jsonl(RUN).decode()
    assert [(s.name, s.size) for s in _sources.sources(text)] == [("<text>", len(text))]
    assert [s.name for s in _sources.sources(io.BytesIO(b"{}"))] == ["<file>"]
    assert [s.name for s in _sources.sources(RUN)] == ["<events>"]
    assert [s.name for s in _sources.sources(RUN[0])] == ["<events>"]
    assert [s.name for s in _sources.sources(EventRecorder())] == ["<recorder>"]


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def test_a_folder_reads_gzip_logs_and_any_suffix_case(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(jsonl(RUN))
    (tmp_path / "b.jsonl.gz").write_bytes(_gzip(jsonl(RUN)))
    (tmp_path / "c.JSONL").write_bytes(jsonl(RUN))
    (tmp_path / "d.Sse.GZ").write_bytes(_gzip(b"".join(b"data: " + orjson.dumps(e) + b"\n\n" for e in RUN)))
    df = load_events(tmp_path)
    names_read = [str(tmp_path / n) for n in ("a.jsonl", "b.jsonl.gz", "c.JSONL", "d.Sse.GZ")]
    assert values(df["source"].drop_duplicates()) == names_read
    assert summary(df) == summary(load_events(RUN)) * 4
    assert df.attrs["skipped"] == []


def test_a_chat_logs_lock_beside_it_is_not_reported_but_a_stray_lock_is(tmp_path: Path) -> None:
    (tmp_path / "trip.jsonl").write_bytes(jsonl(RUN))
    (tmp_path / "trip.jsonl.lock").write_bytes(b"")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = load_events(tmp_path)
    assert df.attrs["skipped"] == [] and len(df) == len(RUN)
    (tmp_path / "gone.jsonl.lock").write_bytes(b"")
    with pytest.warns(EventLogWarning, match=r"skipped 1 entries of folder .*: gone\.jsonl\.lock"):
        assert [e["path"] for e in load_events(tmp_path).attrs["skipped"]] == [
            str(tmp_path / "gone.jsonl.lock")
        ]


def test_a_folder_reports_what_it_skips(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(jsonl(RUN))
    (tmp_path / "notes.md").write_text("not a log")
    (tmp_path / "old.jsonl.zst").write_bytes(b"\x28\xb5\x2f\xfd")
    (tmp_path / "nested").mkdir()
    (tmp_path / "nested" / "b.jsonl").write_bytes(jsonl(RUN))
    with pytest.warns(
        EventLogWarning, match=r"skipped 3 entries of folder .*: nested, notes\.md, old\.jsonl\.zst"
    ):
        df = load_events(tmp_path)
    assert len(df) == len(RUN)
    assert df.attrs["skipped"] == [
        {"path": str(tmp_path / "nested"), "reason": "a folder (folders are not read recursively)"},
        {
            "path": str(tmp_path / "notes.md"),
            "reason": "not a log file name (.jsonl, .ndjson, .json, .sse, .txt, .log, each optionally .gz)",
        },
        {
            "path": str(tmp_path / "old.jsonl.zst"),
            "reason": "not a log file name (.jsonl, .ndjson, .json, .sse, .txt, .log, each optionally .gz)",
        },
    ]
    with pytest.warns(EventLogWarning):
        assert len(runs_df(tmp_path)) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert load_events(tmp_path / "*.jsonl").attrs["skipped"] == []


def test_gzip_paths_globs_bytes_and_files_read_transparently(tmp_path: Path) -> None:
    expected = summary(load_events(RUN))
    data = _gzip(jsonl(RUN))
    path = tmp_path / "run.jsonl.gz"
    path.write_bytes(data)
    (tmp_path / "misnamed.jsonl").write_bytes(data)  # gzip told by its first bytes, not its name
    for source in (
        path,
        str(path),
        str(tmp_path / "*.gz"),
        tmp_path / "misnamed.jsonl",
        data,
        io.BytesIO(data),
    ):
        assert summary(load_events(source)) == expected, source
    assert values(load_events(path)["line"]) == [1, 2, 3, 4, 5]


def test_gzip_of_several_members_and_large_logs(tmp_path: Path) -> None:
    """Concatenated members (``gzip -c a >> log.gz``) are one log; a log past one read slice keeps its lines."""
    events = [at(i, "TEXT_MESSAGE_CONTENT", messageId="m", delta="x" * 80) for i in range(40_000)]
    first, second = jsonl(events[:25_000]), jsonl(events[25_000:])
    path = tmp_path / "big.jsonl.gz"
    path.write_bytes(_gzip(first) + _gzip(second))
    df = load_events(path)
    assert len(df) == 40_000 and df["line"].iloc[-1] == 40_000 and df["chars"].sum() == 80 * 40_000
    assert df["event"].iloc[39_999]["timestamp"] == T0 + 39_999


def test_a_cut_or_broken_gzip_is_a_problem_with_the_file_named(tmp_path: Path) -> None:
    data = _gzip(jsonl(RUN * 50))
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(EventParseError, match=r"cut\.jsonl\.gz: the gzip data ends early"):
        load_events(cut)
    with pytest.warns(EventLogWarning):
        df = load_events(cut, errors="collect")
    assert 0 < len(df) < 250 and df.attrs["errors"][0]["error"].startswith("the gzip data ends early")
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(data[:20] + b"\x00" * 40 + data[60:])
    with pytest.raises(EventParseError, match=r"broken\.jsonl\.gz: not readable gzip data"):
        load_events(broken)
