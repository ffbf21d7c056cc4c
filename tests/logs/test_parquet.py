"""to_parquet and reading Parquet back: the same events table and tables, Arrow types, and SQL over it."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from agui_notebook._errors import EventLogWarning, OptionError
from agui_notebook.logs._load import load_events
from agui_notebook.logs._parquet import to_parquet
from agui_notebook.logs.tables._reasoning import reasoning_df
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from tests.logs.samples import CAPTURES, at, jsonl, known_events, values

LOGS = ["pydantic_ai_runs.jsonl", "pydantic_ai_run.sse", "pydantic_ai_ui_stream.jsonl"]


def assert_same_events(read: pd.DataFrame, original: pd.DataFrame) -> None:
    assert read.columns.tolist() == original.columns.tolist()
    plain = [name for name in original.columns if name != "event"]
    pd.testing.assert_frame_equal(read[plain], original[plain])
    assert list(read["event"]) == list(original["event"])


@pytest.fixture
def logs(tmp_path: Path) -> list[Path]:
    """The three real captures (recorded JSONL, SSE, an AI SDK stream) and the hand-built log, with a blank
    line and a broken one so that events are not on consecutive lines."""
    known = tmp_path / "known.jsonl"
    body = jsonl(known_events()).split(b"\n")
    known.write_bytes(b"\n".join([body[0], b"", b"{oops", *body[1:]]))
    return [CAPTURES / name for name in LOGS] + [known]


def test_an_events_table_reads_back_as_it_was(logs: list[Path], tmp_path: Path) -> None:
    with pytest.warns(EventLogWarning, match="unreadable"):
        original = load_events(logs, errors="collect")
    path = tmp_path / "events.parquet"
    to_parquet(original, path)
    read = load_events(path)
    assert_same_events(read, original)
    assert read["line"].tolist() == original["line"].tolist()  # events stay on their lines
    for table in (runs_df, tool_calls_df, reasoning_df):
        pd.testing.assert_frame_equal(table(path), table(original))
    # Arrow types: dictionaries for ids, UTC timestamps, JSON text for the events.
    schema = pq.read_schema(path)
    assert pa.types.is_dictionary(schema.field("run_key").type)
    assert schema.field("time").type == pa.timestamp("ns", tz="UTC")
    assert pa.types.is_string(schema.field("event").type) or pa.types.is_large_string(
        schema.field("event").type
    )


def test_a_partitioned_folder_reads_back_in_order(logs: list[Path], tmp_path: Path) -> None:
    with pytest.warns(EventLogWarning, match="unreadable"):
        original = load_events(logs, errors="collect")
    folder = tmp_path / "by-run"
    to_parquet(original, folder, partition_cols=["run_key"])
    # one folder per run, and one for the events outside any run
    assert len(list(folder.glob("run_key=*/*.parquet"))) == original["run_key"].nunique(dropna=False)
    assert_same_events(load_events(folder), original)
    assert_same_events(load_events([folder]), original)


def test_numbers_as_javascript_reads_them_survive(tmp_path: Path) -> None:
    log = tmp_path / "odd.jsonl"
    log.write_bytes(
        b'{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1}\n'
        b'{"type":"CUSTOM","name":"big","value":1e400,"timestamp":2}\n'
        b'{"received_ns":5000000,"event":{"type":"CUSTOM","name":"n","value":-1e400}}\n'
    )
    original = load_events(log)
    to_parquet(original, tmp_path / "odd.parquet")
    read = load_events(tmp_path / "odd.parquet")
    assert_same_events(read, original)
    assert read["event"].iloc[1]["value"] == float("inf") and read["event"].iloc[2]["value"] == float("-inf")


def test_duckdb_sql_over_the_parquet(tmp_path: Path) -> None:
    """The recipe in docs/metrics.md: SQL over the stored events, payload fields with DuckDB's JSON functions."""
    events = load_events(CAPTURES / "pydantic_ai_runs.jsonl")
    to_parquet(events, tmp_path / "events", partition_cols=["source"])
    glob = str(tmp_path / "events" / "**" / "*.parquet")
    counts = duckdb.sql(
        f"SELECT type, count(*) AS n FROM read_parquet('{glob}', hive_partitioning = true) GROUP BY type"
    ).fetchall()
    assert dict(counts) == events["type"].astype(str).value_counts().to_dict()
    tokens = duckdb.sql(
        f"""SELECT run_key, sum(CAST(u.value ->> 'outputTokens' AS BIGINT)) AS output_tokens
            FROM read_parquet('{glob}', hive_partitioning = true),
                 LATERAL (SELECT unnest(CAST(event -> '$.usage' AS JSON[])) AS value) AS u
            WHERE type = 'RUN_FINISHED' GROUP BY run_key ORDER BY run_key"""
    ).df()
    runs = runs_df(events).dropna(subset=["output_tokens"])
    assert dict(zip(tokens["run_key"], tokens["output_tokens"], strict=True)) == dict(
        zip(runs["run_key"].astype(str), runs["output_tokens"], strict=True)
    )
    ttft = duckdb.sql(
        f"""SELECT run_key, min(t) AS ttft_s FROM read_parquet('{glob}', hive_partitioning = true)
            WHERE type IN ('TEXT_MESSAGE_CONTENT', 'REASONING_MESSAGE_CONTENT') AND chars > 0
            GROUP BY run_key ORDER BY run_key"""
    ).df()
    expected = runs_df(events).dropna(subset=["ttft_s"])
    assert dict(zip(ttft["run_key"], ttft["ttft_s"], strict=True)) == pytest.approx(
        dict(zip(expected["run_key"].astype(str), expected["ttft_s"], strict=True))
    )


def test_other_tables_write_with_their_json_columns_as_text(tmp_path: Path) -> None:
    calls = tool_calls_df(known_events())
    to_parquet(calls, tmp_path / "calls.parquet")
    read = pd.read_parquet(tmp_path / "calls.parquet")
    assert values(read["args"]) == ['{"q":"x"}', None, "{}", "{}"]
    assert read["status"].astype(str).tolist() == calls["status"].astype(str).tolist()
    with pytest.raises(OptionError, match="no events table"):
        load_events(tmp_path / "calls.parquet")
    with pytest.raises(OptionError, match="partition_cols"):
        to_parquet(calls, tmp_path / "x", partition_cols=["colour"])


def test_a_folder_of_logs_is_still_logs(tmp_path: Path) -> None:
    (tmp_path / "run.jsonl").write_bytes(jsonl([at(0, "RUN_STARTED", threadId="t", runId="r")]))
    to_parquet(load_events(tmp_path / "run.jsonl"), tmp_path / "copy.parquet")
    with pytest.warns(UserWarning, match="copy.parquet"):  # a folder of logs skips the Parquet beside them
        assert len(load_events(tmp_path)) == 1
