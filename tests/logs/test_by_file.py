"""The tables of many files, file by file: equal to the tables of the whole load, here, on a pool and on Dask."""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agui_notebook._errors import EventLogWarning, EventParseError, OptionError
from agui_notebook.logs import _by_file
from agui_notebook.logs._by_file import by_file, file_paths
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._chunks import chunks_df
from agui_notebook.logs.tables._messages import messages_df
from agui_notebook.logs.tables._reasoning import reasoning_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from agui_notebook.wire._reader import BOM
from tests.logs.samples import CAPTURES, RUN, at, jsonl, known_events, values

TABLES = (runs_df, tool_calls_df, messages_df, chunks_df, reasoning_df)
LINES = (CAPTURES / "pydantic_ai_runs.jsonl").read_bytes().splitlines(keepends=True) + jsonl(
    known_events()
).splitlines(keepends=True)
"""The recorded pydantic-ai runs and the known log, as lines to split into files."""
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=[0, 300, _by_file.BATCH_BYTES], ids=["file by file", "small batches", "batches"])
def batch_bytes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Files read one by one, a few together, or (these small logs) all together: runs cut across the parts
    are found either way."""
    monkeypatch.setattr(_by_file, "BATCH_BYTES", request.param)
    return request.param


def _split(folder: Path, lines: list[bytes], cuts: list[int]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for i, (start, end) in enumerate(zip([0, *cuts], [*cuts, len(lines)], strict=True)):
        (folder / f"{i:03d}.jsonl").write_bytes(b"".join(lines[start:end]))
    return folder


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EventLogWarning)
        return function(*args, **kwargs)


def assert_same_tables(folder: Path, **options) -> None:
    """The five tables of ``folder`` file by file (one pass) equal those of its whole events table."""
    whole = _quiet(load_events, folder)
    builders = {table.__name__: table for table in TABLES}
    by_files = _quiet(by_file, file_paths(folder, []), builders, progress=False, **options)
    for name, table in builders.items():
        pd.testing.assert_frame_equal(by_files[name], _quiet(table, whole), obj=name)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(1, len(LINES) - 1), max_size=8, unique=True))
def test_a_log_split_anywhere_gives_the_tables_of_the_whole(
    batch_bytes: int, tmp_path: Path, cuts: list[int]
) -> None:
    assert_same_tables(_split(tmp_path / "split", LINES, sorted(cuts)))


def test_many_files_of_whole_runs(batch_bytes: int, tmp_path: Path) -> None:
    rnd = random.Random(3)
    cuts = sorted(rnd.sample(range(1, len(LINES)), 20))
    assert_same_tables(_split(tmp_path / "split", LINES, cuts))


def test_a_run_cut_across_three_files_is_read_together(batch_bytes: int, tmp_path: Path) -> None:
    outer = [at(0, "RUN_STARTED", threadId="t", runId="o"), at(1, "RUN_STARTED", threadId="t", runId="i")]
    (tmp_path / "a.jsonl").write_bytes(jsonl(outer))
    (tmp_path / "b.jsonl").write_bytes(jsonl([at(3, "RUN_FINISHED", threadId="t", runId="i")]))
    (tmp_path / "c.jsonl").write_bytes(jsonl([at(5, "RUN_FINISHED", threadId="t", runId="o"), *RUN]))
    runs = runs_df(tmp_path)
    assert values(runs["run_key"]) == ["o", "i", "r"]
    assert runs["status"].tolist() == ["success"] * 3
    assert_same_tables(tmp_path)


def test_reused_run_ids_are_numbered_over_the_whole_load(batch_bytes: int, tmp_path: Path) -> None:
    for name in "abc":
        (tmp_path / f"{name}.jsonl").write_bytes(jsonl(RUN))
    assert values(runs_df(tmp_path)["run_key"]) == ["r#1", "r#2", "r#3"]
    assert values(chunks_df(tmp_path)["run_key"]) == ["r#1", "r#2", "r#3"]


def test_a_glob_a_list_of_paths_and_gzip(tmp_path: Path) -> None:
    import gzip

    folder = _split(tmp_path / "split", LINES, [40, 90])
    paths = sorted(folder.iterdir())
    (folder / "001.jsonl.gz").write_bytes(gzip.compress(paths[1].read_bytes()))
    paths[1].unlink()
    whole = _quiet(load_events, folder)
    for source in (folder, str(folder / "*.jsonl*"), sorted(folder.iterdir())):
        pd.testing.assert_frame_equal(_quiet(runs_df, source), _quiet(runs_df, whole))


def test_odd_values_are_reported_once_for_the_whole_load(tmp_path: Path) -> None:
    odd = [*RUN[:2], at(25, "TEXT_MESSAGE_CONTENT", messageId="m", delta=7), *RUN[3:]]
    (tmp_path / "a.jsonl").write_bytes(jsonl(odd))
    (tmp_path / "b.jsonl").write_bytes(jsonl(odd))
    with pytest.warns(EventLogWarning) as caught:
        chunks = chunks_df(tmp_path)
    assert len([w for w in caught if "chunks_df" in str(w.message)]) <= 1
    assert chunks.attrs["odd_values"] == _quiet(chunks_df, _quiet(load_events, tmp_path)).attrs["odd_values"]


def test_unreadable_lines_are_collected(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_bytes(jsonl(RUN) + b"{not json\n")
    (tmp_path / "b.jsonl").write_bytes(jsonl(RUN))
    with pytest.warns(EventLogWarning, match="unreadable"):
        runs = runs_df(tmp_path, errors="collect")
    assert len(runs) == 2
    assert [entry["line"] for entry in runs.attrs["errors"]] == [6]


def test_a_progress_bar_over_the_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _split(tmp_path / "split", LINES, [50])
    runs_df(tmp_path / "split", progress=True)
    assert "loading events" in capsys.readouterr().err


def test_options_that_need_files_say_so() -> None:
    with pytest.raises(OptionError, match="workers="):
        runs_df(known_events(), workers=2)
    with pytest.raises(OptionError, match="client="):
        runs_df(CAPTURES / "pydantic_ai_runs.jsonl", lazy=True)


def test_a_process_pool_gives_the_same_tables(batch_bytes: int, tmp_path: Path) -> None:
    folder = _split(tmp_path / "split", LINES, [10, 60, 61, 120, 200])
    assert_same_tables(folder, workers=2)


def _run_script(tmp_path: Path, script: str) -> subprocess.CompletedProcess[str]:
    """``script`` run as a user's own script file, in a fresh Python (its own threads, its own ``__main__``)."""
    path = tmp_path / "analysis.py"
    path.write_text(textwrap.dedent(script).lstrip())
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=120, env=env, check=False
    )


POOL_SCRIPT = """
import sys
import threading

import pandas as pd

from agui_notebook.logs._by_file import start_method
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df


def main():
    print(start_method())
    folder = sys.argv[0].rsplit("/", 1)[0] + "/split"
    pd.testing.assert_frame_equal(runs_df(folder, workers=2), runs_df(folder))
    pd.testing.assert_frame_equal(tool_calls_df(folder, workers=2), tool_calls_df(folder))
    print("same tables")


"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is the start method on Linux only")
def test_a_script_without_a_main_guard_forks_its_workers(tmp_path: Path) -> None:
    _split(tmp_path / "split", LINES, [10, 60, 61, 120, 200])
    done = _run_script(tmp_path, POOL_SCRIPT + "main()\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["fork", "same", "tables"]


def test_with_other_threads_running_the_workers_come_from_a_fork_server(tmp_path: Path) -> None:
    _split(tmp_path / "split", LINES, [10, 60, 61, 120, 200])
    script = POOL_SCRIPT + (
        "if __name__ == '__main__':\n"
        "    threading.Thread(target=threading.Event().wait, daemon=True).start()  # as a kernel's threads\n"
        "    main()\n"
    )
    done = _run_script(tmp_path, script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["forkserver", "same", "tables"]


def test_a_worker_that_dies_is_reported_with_the_files_not_read(tmp_path: Path) -> None:
    folder = _split(tmp_path / "split", LINES, [60, 120])
    script = f"""
        import json
        import os
        from agui_notebook import WorkerError
        from agui_notebook.logs import _by_file
        from agui_notebook.logs._by_file import by_file, file_paths
        from agui_notebook.logs.tables._runs import runs_df

        def runs_unless_second(frame):
            if frame["source"].astype(str).str.endswith("001.jsonl").any():
                os._exit(9)  # as the kernel's out-of-memory killer would end it
            return runs_df(frame)

        if __name__ == "__main__":
            _by_file.BATCH_BYTES = 0  # a file a task
            try:
                by_file(file_paths({str(folder)!r}, []), {{"runs": runs_unless_second}}, workers=2, progress=False)
            except WorkerError as error:
                print(json.dumps([error.paths, isinstance(error, RuntimeError), str(error)]))
    """
    done = _run_script(tmp_path, script)
    assert done.returncode == 0, done.stderr
    paths, is_runtime_error, message = json.loads(done.stdout)
    second = str(folder / "001.jsonl")
    assert second in paths  # with the files that were in flight on the other worker
    assert is_runtime_error
    assert message.startswith("a worker process stopped before it returned its tables")
    assert message.endswith("Not read: " + ", ".join(paths))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork server is Linux's and macOS's")
def test_a_fork_server_killed_before_it_forks_is_a_worker_error_naming_the_files(tmp_path: Path) -> None:
    folder = _split(tmp_path / "split", LINES, [60, 120])
    script = f"""
        import json
        import multiprocessing.forkserver as forkserver
        import os
        import signal
        import threading

        from agui_notebook import WorkerError
        from agui_notebook.logs import _by_file
        from agui_notebook.logs.tables._runs import runs_df

        if __name__ == "__main__":
            _by_file.BATCH_BYTES = 0  # a file a task: a pool of two workers
            threading.Thread(target=threading.Event().wait, daemon=True).start()  # a kernel: the fork server
            runs_df({str(folder)!r}, workers=2)  # starts the server
            server = forkserver._forkserver
            os.kill(server._forkserver_pid, signal.SIGKILL)
            os.waitpid(server._forkserver_pid, 0)
            server.ensure_running = lambda: None  # killed after the pool checked that it runs: a race, made sure
            try:
                runs_df({str(folder)!r}, workers=2)
            except WorkerError as error:
                print(json.dumps([error.paths, str(error)]))
    """
    done = _run_script(tmp_path, script)
    assert done.returncode == 0, done.stderr
    paths, message = json.loads(done.stdout)
    assert paths == sorted(str(path) for path in folder.iterdir())
    assert message.startswith("the process pool could not start its workers (ConnectionRefusedError")
    assert message.endswith("Not read: " + ", ".join(paths))


def test_an_unreadable_line_read_by_a_worker_is_raised_as_itself(tmp_path: Path) -> None:
    # The worker's EventParseError comes back pickled; it did not unpickle (keyword-only attributes), and the
    # pool reported a worker that had stopped instead.
    folder = _split(tmp_path / "split", LINES, [60])
    (folder / "000.jsonl").write_bytes((folder / "000.jsonl").read_bytes() + b"{oops}\n")
    script = f"""
        import json
        from agui_notebook import EventParseError
        from agui_notebook.logs import _by_file
        from agui_notebook.logs.tables._runs import runs_df

        if __name__ == "__main__":
            _by_file.BATCH_BYTES = 0  # a file a task
            try:
                runs_df({str(folder)!r}, workers=2, progress=False)
            except EventParseError as error:
                print(json.dumps([error.source, error.line, str(error)]))
    """
    done = _run_script(tmp_path, script)
    assert done.returncode == 0, done.stderr
    source, line, message = json.loads(done.stdout)
    assert source == str(folder / "000.jsonl") and line == 61
    assert message.startswith(f"{source}:61: invalid JSON")


def test_too_many_workers_is_an_option_error_before_any_starts(tmp_path: Path) -> None:
    folder = _split(tmp_path / "split", LINES, [60])
    for workers in (0, 10**9, 2.5, "2", True):
        with pytest.raises(OptionError, match=r"^workers must be a number of processes from 1 to 1024"):
            runs_df(folder, workers=workers)


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


def test_a_dask_cluster_gives_the_same_tables(batch_bytes: int, tmp_path: Path, dask_client) -> None:
    folder = _split(tmp_path / "split", LINES, [10, 60, 61, 120, 200])
    assert_same_tables(folder, client=dask_client)


def test_lazy_tables_on_dask_compute_to_the_same_tables(
    batch_bytes: int, tmp_path: Path, dask_client
) -> None:
    import dask.dataframe as dd

    folder = _split(tmp_path / "split", LINES, [10, 60, 120])
    lazy = _quiet(runs_df, folder, client=dask_client, lazy=True)
    assert isinstance(lazy, dd.DataFrame)
    computed = lazy.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(computed, _quiet(runs_df, folder))


def test_summarize_reads_files_file_by_file(batch_bytes: int, tmp_path: Path) -> None:
    from agui_notebook.logs._summary import summarize, totals_df

    folder = _split(tmp_path / "split", LINES, [10, 60, 61, 120, 200])
    whole = _quiet(load_events, folder)
    for summary in (summarize, totals_df):
        pd.testing.assert_frame_equal(_quiet(summary, folder), _quiet(summary, whole))
        pd.testing.assert_frame_equal(
            _quiet(summary, folder, by="source"), _quiet(summary, whole, by="source")
        )
    pd.testing.assert_frame_equal(_quiet(summarize, folder, workers=2), _quiet(summarize, folder))


# -- one large log, slice by slice ------------------------------------------------------------------------------


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(1, 12_000), st.booleans())
def test_one_large_log_read_slice_by_slice_gives_the_tables_of_the_whole(
    batch_bytes: int, tmp_path: Path, slice_bytes: int, bom: bool
) -> None:
    import agui_notebook.logs._file_slices as file_slices

    path = tmp_path / "big.jsonl"
    path.write_bytes((BOM if bom else b"") + b"".join(LINES))
    original = file_slices.SLICE_BYTES
    file_slices.SLICE_BYTES = slice_bytes
    try:
        assert len(file_slices.split_large_files([str(path)])) > 1 or slice_bytes >= path.stat().st_size
        assert_same_tables(path)
    finally:
        file_slices.SLICE_BYTES = original


def test_unreadable_lines_in_slices_keep_their_line_numbers(
    batch_bytes: int, tmp_path: Path, monkeypatch
) -> None:
    import agui_notebook.logs._file_slices as file_slices

    lines = list(LINES)
    for row in (5, len(lines) // 2, len(lines) - 3):
        lines[row] = b'{"type": "TEXT_MESSAGE_CONTENT", broken\n'
    path = tmp_path / "big.jsonl"
    path.write_bytes(b"".join(lines))
    monkeypatch.setattr(file_slices, "SLICE_BYTES", 2000)
    slices = file_slices.split_large_files([str(path)])
    assert len(slices) > 3 and sum(s.length for s in slices) == path.stat().st_size
    whole = _quiet(load_events, path, errors="collect")
    sliced = _quiet(runs_df, path, errors="collect")
    assert [(e["source"], e["line"]) for e in sliced.attrs["errors"]] == [
        (str(path), row + 1) for row in (5, len(lines) // 2, len(lines) - 3)
    ]
    assert sliced.attrs["errors"] == whole.attrs["errors"]
    one_bad = list(LINES)
    one_bad[len(lines) // 2] = lines[len(lines) // 2]
    path.write_bytes(b"".join(one_bad))
    with pytest.raises(EventParseError, match=rf"big\.jsonl:{len(lines) // 2 + 1}:"):
        _quiet(runs_df, path)


def test_a_recorder_log_is_sliced_too_and_slices_go_to_a_pool(
    batch_bytes: int, tmp_path: Path, monkeypatch
) -> None:
    import agui_notebook.logs._file_slices as file_slices

    recorded = b"".join(
        line if line.startswith(b'{"received_ns"') else b'{"received_ns":%d,"event":%s}\n' % (i, line.strip())
        for i, line in enumerate(LINES)
    )
    path = tmp_path / "recorded.jsonl"
    path.write_bytes(recorded)
    monkeypatch.setattr(file_slices, "SLICE_BYTES", 3000)
    assert len(file_slices.split_large_files([str(path)])) > 2
    assert_same_tables(path)
    assert_same_tables(path, workers=2)


def test_what_is_not_plain_jsonl_is_read_whole(tmp_path: Path) -> None:
    from agui_notebook.logs._file_slices import split_large_files

    sse = tmp_path / "run.sse"
    sse.write_bytes(b"".join(b"data: " + line.strip() + b"\n\n" for line in LINES))
    gz = tmp_path / "run.jsonl.gz"
    gz.write_bytes(gzip.compress(b"".join(LINES)))
    assert split_large_files([str(sse), str(gz)], slice_bytes=100) == [str(sse), str(gz)]


def test_lazy_tables_have_a_partition_per_batch_of_files(
    tmp_path: Path, dask_client, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seven small logs of whole runs: read together (a batch up to BATCH_BYTES), they are one partition; read
    # one by one (a batch per file, as files larger than BATCH_BYTES are), one partition each.
    log = (CAPTURES / "pydantic_ai_runs.jsonl").read_bytes()
    for i in range(7):
        (tmp_path / f"log{i}.jsonl").write_bytes(log)
    assert _quiet(runs_df, tmp_path, client=dask_client, lazy=True).npartitions == 1
    monkeypatch.setattr(_by_file, "BATCH_BYTES", 0)
    lazy = _quiet(runs_df, tmp_path, client=dask_client, lazy=True)
    assert lazy.npartitions == 7 and len(lazy.compute()) == 42


def test_one_log_is_cut_into_a_slice_per_worker(tmp_path: Path, monkeypatch) -> None:
    """A single log smaller than a slice still keeps every worker busy: cut into about equal slices, whose
    tables (on the pool and serially) equal those of the whole log."""
    import agui_notebook.logs._file_slices as file_slices

    path = tmp_path / "one.jsonl"
    path.write_bytes(b"".join(LINES))
    size = path.stat().st_size
    monkeypatch.setattr(file_slices, "MIN_SPLIT_BYTES", 1000)
    assert file_slices.split_large_files([str(path)]) == [str(path)]  # serially: one piece
    slices = file_slices.split_large_files([str(path)], workers=3)
    assert len(slices) >= 3 and sum(s.length for s in slices) == size
    assert max(s.length for s in slices[:-1]) < size / 2  # about a third each (runs end where they end)
    assert file_slices.split_large_files([str(path), str(path)], workers=2) == [str(path), str(path)]
    assert_same_tables(path, workers=3)
    monkeypatch.setattr(file_slices, "MIN_SPLIT_BYTES", 10 * size)
    assert file_slices.split_large_files([str(path)], workers=3) == [str(path)]  # small: read alone
