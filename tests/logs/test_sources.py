"""What load_events reads: every kind of input, its named sources, and inputs that are not there."""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pandas as pd
import pytest
from ag_ui.core import RunFinishedEvent, RunStartedEvent, TextMessageContentEvent, TextMessageStartEvent

from agui_notebook.logs import _sources
from agui_notebook.logs._columns import EVENT_COLUMNS, names
from agui_notebook.logs._file_buffer import FileBuffer
from agui_notebook.logs._load import load_events
from agui_notebook.logs._record import EventRecorder
from tests.logs.samples import RUN, T0, jsonl, known_events, values


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
    monkeypatch.setattr(_sources, "FileBuffer", lambda path: started.append(path) or FileBuffer(path))
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
