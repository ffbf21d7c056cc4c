"""Benchmark: the logs' load and tables against msgspec, polars and DuckDB, side by side (issue 13).

Generates AG-UI logs with the ``generate`` below (runs of reasoning, text and tool calls; mixed field types on
purpose: TOOL_CALL_RESULT content a string here, a list there; STATE_DELTA's delta a list) and times each
method in a fresh subprocess per repetition, methods interleaved so machine load hits all alike. Each
measurement reports wall time, CPU time (``resource.getrusage``, the process and its waited-for children) and
peak memory: the growth of the process's maximum resident set over what it held after its imports, plus the
largest child's (a process pool's workers; Dask's workers are not counted: grandchildren).

    .venv/bin/python bench/bench_logs.py                    # 1M events: load, end to end, 32 files
    .venv/bin/python bench/bench_logs.py --events 200000 --repeats 5
    .venv/bin/python bench/bench_logs.py --scale            # 10M events: 10 files and one file
    .venv/bin/python bench/bench_logs.py --quick            # 100k events, once: a check, not a measurement

Targets (issue 13): end to end (load + runs_df + tool_calls_df + summarize) at 1M events no slower than
polars lazy with an explicit schema, peak <= 2.5x the file; load >= 2x polars full-schema and within 1.1x of
msgspec's line decoding; per-event cost at 10M within 1.15x of 1M; a 32-file folder >= 1.3x faster than
polars over the glob with peak <= 0.3x the logs; Dask's warm pass within 1.2x of the process pool. Out of
core: 10M events to the run and tool tables in <= 1 GB and <= 15 s.

Targets (issue 23): end to end peak <= 2.5x the file at 1M events (the events table holds no copy of the log);
the run and tool tables of one 1M-event file on 2 workers >= 1.5x faster than serially; Dask's warm pass
within 1.3x of the process pool. The peers compute the same run and tool columns as ours where they can
(``RUN_LIKE``, ``TOOL_LIKE``: the values agree with ours on the generated logs). The machine's parallelism is
probed before and after the one-file part (two CPU-bound processes: how many cores they got), since other jobs
on a shared machine take what the workers would gain. The targets met or not are repeated at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import orjson

WORDS = ["the", "of", "and", "a", "to", "in", "is", "you", "that", "it", "he", "was", "for", "on", "are"]


def generate(path: Path, events: int, *, recorder: bool, seed: int = 7, first_run: int = 0) -> int:
    """Write a log of about ``events`` events: runs of reasoning, text and tool calls with realistic ids."""
    rnd = random.Random(seed)
    now_ns = 1_760_000_000_000_000_000
    written = 0
    run = first_run
    now_ns += first_run * 10_000_000_000

    def ident() -> str:
        return str(uuid.UUID(int=rnd.getrandbits(128)))

    with open(path, "wb") as out:
        while written < events:
            run += 1
            thread, run_id = f"thread-{run % 50}", f"run-{run}"
            batch: list[dict] = [{"type": "RUN_STARTED", "threadId": thread, "runId": run_id}]
            if run % 97 == 0:
                batch.append({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/n", "value": run}]})
            reasoning = ident()
            batch += [
                {"type": "REASONING_START", "messageId": reasoning},
                {"type": "REASONING_MESSAGE_START", "messageId": reasoning, "role": "reasoning"},
            ]
            for _ in range(rnd.randint(20, 200)):
                delta = " ".join(rnd.choices(WORDS, k=rnd.randint(1, 4)))
                batch.append({"type": "REASONING_MESSAGE_CONTENT", "messageId": reasoning, "delta": delta})
            batch += [
                {"type": "REASONING_MESSAGE_END", "messageId": reasoning},
                {"type": "REASONING_END", "messageId": reasoning},
            ]
            message = ident()
            batch.append({"type": "TEXT_MESSAGE_START", "messageId": message, "role": "assistant"})
            for _ in range(rnd.randint(50, 600)):
                delta = " ".join(rnd.choices(WORDS, k=rnd.randint(1, 3)))
                batch.append({"type": "TEXT_MESSAGE_CONTENT", "messageId": message, "delta": delta})
            batch.append({"type": "TEXT_MESSAGE_END", "messageId": message})
            for k in range(rnd.randint(0, 3)):
                call = f"call_{run}_{k}"
                name = rnd.choice(["search", "get_weather", "sql"])
                batch.append(
                    {
                        "type": "TOOL_CALL_START",
                        "toolCallId": call,
                        "toolCallName": name,
                        "parentMessageId": message,
                    }
                )
                batch.append({"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": '{"q": '})
                batch.append(
                    {"type": "TOOL_CALL_ARGS", "toolCallId": call, "delta": f'"{rnd.choice(WORDS)}"}}'}
                )
                batch.append({"type": "TOOL_CALL_END", "toolCallId": call})
                content: object = "a result" if k % 2 else [{"type": "text", "text": "a result in parts"}]
                batch.append(
                    {
                        "type": "TOOL_CALL_RESULT",
                        "messageId": ident(),
                        "toolCallId": call,
                        "content": content,
                        "role": "tool",
                    }
                )
            usage = [
                {"model": "m", "inputTokens": rnd.randint(50, 500), "outputTokens": rnd.randint(50, 900)}
            ]
            if run % 53 == 0:
                batch.append({"type": "RUN_ERROR", "message": "overloaded", "code": "529"})
            else:
                batch.append({"type": "RUN_FINISHED", "threadId": thread, "runId": run_id, "usage": usage})
            for event in batch:
                now_ns += rnd.randint(100_000, 30_000_000)
                event["timestamp"] = now_ns // 1_000_000
                record = (
                    {"received_ns": now_ns + rnd.randint(0, 900_000), "event": event} if recorder else event
                )
                out.write(orjson.dumps(record) + b"\n")
            written += len(batch)
    return written


# ----- the methods (each run in a fresh child process: ``python bench_logs.py --child METHOD PATHS...``) -----

CHUNK_TYPES = ["TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_ARGS"]
USAGE_FIELDS = {"input_tokens": "inputTokens", "output_tokens": "outputTokens", "reasoning_tokens": "reasoningTokens",
                "cached_input_tokens": "cachedInputTokens", "total_tokens": "totalTokens"}  # fmt: skip
RUN_LIKE = ["source", "thread_id", "run_id", "parent_run_id", "started_at", "finished_at", "status", "error", "model",
            "events", "duration_s", "time_to_first_text_s", "ttft_s", "text_chars", "reasoning_chars", "text_chunks",
            "reasoning_chunks", "tool_calls", "tool_time_s", "itl_p50_s", "itl_p95_s", "chunks_per_s", *USAGE_FIELDS,
            "tpot_s"]  # fmt: skip
"""The columns of ``runs_df`` the peers compute too (ours has 29: also run_key's numbering of reused ids, and
status' interrupt and cancelled outcomes)."""
TOOL_LIKE = ["run_id", "tool_call_id", "tool_name", "parent_message_id", "started_at", "args_end_at", "result_at",
             "args_s", "latency_s", "total_s", "args_chars", "args_json_valid", "result"]  # fmt: skip
"""The columns of ``tool_calls_df`` the peers compute too (ours has 18: also run_key, the parsed arguments, the
result's text length, error, status and cause)."""


def _polars_schema():
    import polars as pl

    usage = pl.List(pl.Struct({"model": pl.String, **{name: pl.Int64 for name in USAGE_FIELDS.values()}}))
    return {
        "type": pl.String, "timestamp": pl.Int64, "threadId": pl.String, "runId": pl.String,
        "parentRunId": pl.String, "messageId": pl.String, "role": pl.String, "delta": pl.String,
        "toolCallId": pl.String, "toolCallName": pl.String, "parentMessageId": pl.String, "content": pl.String,
        "usage": usage, "message": pl.String, "code": pl.String,
    }  # fmt: skip


def _reported_sum(usage, field: str):
    """A usage field summed over a run's entries; null when no entry reports it (as ours: NA)."""
    import polars as pl

    values = usage.list.eval(pl.element().struct.field(field)).list.drop_nulls()
    return pl.when(values.list.len() > 0).then(values.list.sum())


def polars_queries(paths: list[str]) -> list:
    """The run and tool call tables (``RUN_LIKE``, ``TOOL_LIKE``) and the percentiles, as an expert writes them
    in polars (explicit schema, the file read once, lazy queries collected together)."""
    import polars as pl

    type_ = pl.col("type")
    ts = pl.col("timestamp")
    ending = type_.is_in(["RUN_FINISHED", "RUN_ERROR"])
    # Read once, then queried lazily: the queries below do not share a lazy scan (each would read the files
    # again: 2.5x the time).
    lf = (
        pl.read_ndjson(paths, schema=_polars_schema(), include_file_paths="source")
        .lazy()
        .with_columns(run=(type_ == "RUN_STARTED").cum_sum())
    )
    chunk = type_.is_in(CHUNK_TYPES[:2])
    usage = pl.col("usage").filter(ending).first()
    runs = lf.group_by("run").agg(
        source=pl.col("source").first(),
        thread_id=pl.col("threadId").drop_nulls().first(),
        run_id=pl.col("runId").drop_nulls().first(),
        parent_run_id=pl.col("parentRunId").filter(type_ == "RUN_STARTED").first(),
        started_at=pl.coalesce(ts.filter(type_ == "RUN_STARTED").first(), ts.min()),
        finished_at=ts.filter(ending).last(),
        status=pl.when((type_ == "RUN_ERROR").any()).then(pl.lit("error"))
        .when((type_ == "RUN_FINISHED").any()).then(pl.lit("success")).otherwise(pl.lit("incomplete")),
        error=pl.concat_str(pl.col("message"), pl.lit(" ["), pl.col("code"), pl.lit("]")).filter(type_ == "RUN_ERROR").first(),
        model=usage.list.eval(pl.element().struct.field("model")).list.unique(maintain_order=True).list.join(" + "),
        events=pl.len(),
        first_chunk=ts.filter(chunk).min(),
        last_chunk=ts.filter(chunk).max(),
        chunk_count=chunk.sum(),
        first_text=ts.filter(type_ == "TEXT_MESSAGE_CONTENT").min(),
        text_chunks=(type_ == "TEXT_MESSAGE_CONTENT").sum(),
        reasoning_chunks=(type_ == "REASONING_MESSAGE_CONTENT").sum(),
        text_chars=pl.col("delta").filter(type_ == "TEXT_MESSAGE_CONTENT").str.len_chars().sum(),
        reasoning_chars=pl.col("delta").filter(type_ == "REASONING_MESSAGE_CONTENT").str.len_chars().sum(),
        tool_calls=(type_ == "TOOL_CALL_START").sum(),
        **{name: _reported_sum(usage, field) for name, field in USAGE_FIELDS.items()},
    ).with_columns(
        duration_s=(pl.col("finished_at") - pl.col("started_at")) / 1e3,
        ttft_s=(pl.col("first_chunk") - pl.col("started_at")) / 1e3,
        time_to_first_text_s=(pl.col("first_text") - pl.col("started_at")) / 1e3,
        chunks_per_s=pl.when(pl.col("chunk_count") > 1).then(
            (pl.col("chunk_count") - 1) / ((pl.col("last_chunk") - pl.col("first_chunk")) / 1e3)),
        tpot_s=pl.when(pl.col("output_tokens") > 1).then(
            (pl.col("last_chunk") - pl.col("first_chunk")) / 1e3 / (pl.col("output_tokens") - 1)),
    )  # fmt: skip
    tools = (
        lf.filter(pl.col("toolCallId").is_not_null())
        .group_by("run", "toolCallId")
        .agg(
            tool_name=pl.col("toolCallName").drop_nulls().first(),
            parent_message_id=pl.col("parentMessageId").drop_nulls().first(),
            started_at=ts.filter(type_ == "TOOL_CALL_START").first(),
            args_end_at=ts.filter(type_ == "TOOL_CALL_END").first(),
            result_at=ts.filter(type_ == "TOOL_CALL_RESULT").first(),
            args=pl.col("delta").filter(type_ == "TOOL_CALL_ARGS").str.join(""),
            result=pl.col("content").filter(type_ == "TOOL_CALL_RESULT").first(),
        )
        .with_columns(
            args_s=(pl.col("args_end_at") - pl.col("started_at")) / 1e3,
            latency_s=(pl.col("result_at") - pl.col("args_end_at")) / 1e3,
            total_s=(pl.col("result_at") - pl.col("started_at")) / 1e3,
            args_chars=pl.col("args").str.len_chars(),
            args_json_valid=pl.col("args").str.json_path_match("$").is_not_null() | (pl.col("args") == ""),
        )
        .rename({"toolCallId": "tool_call_id"})
    )
    # Wall time with a tool executing: the union of each run's END..RESULT intervals.
    tool_time = (
        tools.filter(pl.col("result_at").is_not_null())
        .sort("run", "args_end_at")
        .with_columns(before=pl.col("result_at").cum_max().shift(1).over("run"))
        .group_by("run")
        .agg(
            tool_time_s=((pl.col("result_at") - pl.max_horizontal("args_end_at", "before")).clip(0)).sum()
            / 1e3
        )
    )
    gaps = lf.filter(chunk).select("run", gap_s=ts.diff().over("run", "messageId") / 1e3)
    itl = gaps.group_by("run").agg(
        itl_p50_s=pl.col("gap_s").quantile(0.5, "linear"), itl_p95_s=pl.col("gap_s").quantile(0.95, "linear")
    )
    runs = (
        runs.join(tool_time, on="run", how="left")
        .join(itl, on="run", how="left")
        .with_columns(pl.col("tool_time_s").fill_null(0.0))
    )
    tools = tools.join(runs.select("run", "run_id"), on="run", how="left")
    overall_gaps = gaps.select(
        [pl.col("gap_s").mean().alias("mean")]
        + [pl.col("gap_s").quantile(q).alias(f"p{int(q * 100)}") for q in (0.5, 0.9, 0.99)]
    )

    def percentiles(frame, column):
        return frame.select(
            [pl.col(column).mean().alias("mean")]
            + [pl.col(column).quantile(q).alias(f"p{int(q * 100)}") for q in (0.5, 0.9, 0.99)]
        )

    summary = [percentiles(runs, c) for c in ("ttft_s", "time_to_first_text_s", "duration_s")]
    summary.append(percentiles(tools, "latency_s"))
    found = pl.collect_all([runs.select(RUN_LIKE), tools.select(TOOL_LIKE), overall_gaps, *summary])
    return found


def duckdb_queries(paths: list[str]) -> list:
    """The same tables in DuckDB: explicit columns, loaded into a table first (mixed fields as JSON)."""
    import duckdb

    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    usage = ", ".join(f"{field} BIGINT" for field in USAGE_FIELDS.values())
    columns = {
        "type": "VARCHAR", "timestamp": "BIGINT", "threadId": "VARCHAR", "runId": "VARCHAR",
        "parentRunId": "VARCHAR", "messageId": "VARCHAR", "delta": "JSON", "toolCallId": "VARCHAR",
        "toolCallName": "VARCHAR", "parentMessageId": "VARCHAR", "content": "JSON", "message": "VARCHAR",
        "code": "VARCHAR", "usage": f"STRUCT(model VARCHAR, {usage})[]",
    }  # fmt: skip
    con.execute(
        "CREATE TABLE ev AS SELECT *, sum(CASE WHEN type = 'RUN_STARTED' THEN 1 ELSE 0 END) OVER "
        "(ORDER BY rn) AS run FROM (SELECT *, row_number() OVER () AS rn FROM read_json(?, columns = ?, "
        "format = 'newline_delimited', filename = 'source'))",
        [paths, columns],
    )
    tokens = ",\n".join(
        f"first(list_sum(list_transform(usage, lambda u: u.{field}))) FILTER (type IN ('RUN_FINISHED', 'RUN_ERROR')) AS {name}"
        for name, field in USAGE_FIELDS.items()
    )
    runs = con.execute(
        f"""WITH r AS (SELECT run, first(source) AS source,
             first(threadId) FILTER (threadId IS NOT NULL) AS thread_id,
             first(runId) FILTER (runId IS NOT NULL) AS run_id,
             first(parentRunId) FILTER (type = 'RUN_STARTED') AS parent_run_id,
             coalesce(min(timestamp) FILTER (type = 'RUN_STARTED'), min(timestamp)) AS started_at,
             max(timestamp) FILTER (type IN ('RUN_FINISHED', 'RUN_ERROR')) AS finished_at,
             CASE WHEN bool_or(type = 'RUN_ERROR') THEN 'error' WHEN bool_or(type = 'RUN_FINISHED') THEN 'success'
                  ELSE 'incomplete' END AS status,
             first(message || ' [' || code || ']') FILTER (type = 'RUN_ERROR') AS error,
             first(array_to_string(list_distinct(list_transform(usage, lambda u: u.model)), ' + '))
               FILTER (type IN ('RUN_FINISHED', 'RUN_ERROR')) AS model,
             count(*) AS events,
             min(timestamp) FILTER (type IN ('TEXT_MESSAGE_CONTENT', 'REASONING_MESSAGE_CONTENT')) AS first_chunk,
             max(timestamp) FILTER (type IN ('TEXT_MESSAGE_CONTENT', 'REASONING_MESSAGE_CONTENT')) AS last_chunk,
             count(*) FILTER (type IN ('TEXT_MESSAGE_CONTENT', 'REASONING_MESSAGE_CONTENT')) AS chunk_count,
             min(timestamp) FILTER (type = 'TEXT_MESSAGE_CONTENT') AS first_text,
             count(*) FILTER (type = 'TEXT_MESSAGE_CONTENT') AS text_chunks,
             count(*) FILTER (type = 'REASONING_MESSAGE_CONTENT') AS reasoning_chunks,
             sum(length(delta->>'$')) FILTER (type = 'TEXT_MESSAGE_CONTENT') AS text_chars,
             sum(length(delta->>'$')) FILTER (type = 'REASONING_MESSAGE_CONTENT') AS reasoning_chars,
             count(*) FILTER (type = 'TOOL_CALL_START') AS tool_calls,
             {tokens}
           FROM ev GROUP BY run),
         g AS (SELECT run, (timestamp - lag(timestamp) OVER (PARTITION BY run, messageId ORDER BY rn)) / 1e3 AS gap
           FROM ev WHERE type IN ('TEXT_MESSAGE_CONTENT', 'REASONING_MESSAGE_CONTENT')),
         i AS (SELECT run, quantile_cont(gap, 0.5) AS itl_p50_s, quantile_cont(gap, 0.95) AS itl_p95_s FROM g GROUP BY run),
         t AS (SELECT run, toolCallId, min(timestamp) FILTER (type = 'TOOL_CALL_END') AS s,
                 min(timestamp) FILTER (type = 'TOOL_CALL_RESULT') AS e FROM ev WHERE toolCallId IS NOT NULL
               GROUP BY run, toolCallId),
         u AS (SELECT run, sum(greatest(e - greatest(s, coalesce(before, s)), 0)) / 1e3 AS tool_time_s FROM
                 (SELECT run, s, e, max(e) OVER (PARTITION BY run ORDER BY s ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
                  AS before FROM t WHERE e IS NOT NULL) GROUP BY run)
       SELECT r.*, (finished_at - started_at) / 1e3 AS duration_s, (first_text - started_at) / 1e3 AS time_to_first_text_s,
         (first_chunk - started_at) / 1e3 AS ttft_s, coalesce(u.tool_time_s, 0) AS tool_time_s, i.itl_p50_s, i.itl_p95_s,
         CASE WHEN chunk_count > 1 THEN (chunk_count - 1) / ((last_chunk - first_chunk) / 1e3) END AS chunks_per_s,
         CASE WHEN output_tokens > 1 THEN (last_chunk - first_chunk) / 1e3 / (output_tokens - 1) END AS tpot_s
       FROM r LEFT JOIN i USING (run) LEFT JOIN u USING (run) ORDER BY run"""
    ).df()[["run", *RUN_LIKE]]  # fmt: skip
    tools = con.execute(
        """SELECT *, (args_end_at - started_at) / 1e3 AS args_s, (result_at - args_end_at) / 1e3 AS latency_s,
             (result_at - started_at) / 1e3 AS total_s, length(args) AS args_chars,
             json_valid(args) OR args = '' AS args_json_valid
           FROM (SELECT run, toolCallId AS tool_call_id,
             first(toolCallName) FILTER (toolCallName IS NOT NULL) AS tool_name,
             first(parentMessageId) FILTER (parentMessageId IS NOT NULL) AS parent_message_id,
             min(timestamp) FILTER (type = 'TOOL_CALL_START') AS started_at,
             min(timestamp) FILTER (type = 'TOOL_CALL_END') AS args_end_at,
             min(timestamp) FILTER (type = 'TOOL_CALL_RESULT') AS result_at,
             coalesce(string_agg(delta->>'$', '' ORDER BY rn) FILTER (type = 'TOOL_CALL_ARGS'), '') AS args,
             first(content) FILTER (type = 'TOOL_CALL_RESULT') AS result
           FROM ev WHERE toolCallId IS NOT NULL GROUP BY run, toolCallId)"""
    ).df()  # fmt: skip
    tools = tools.merge(runs[["run", "run_id"]], on="run", how="left")[TOOL_LIKE]
    gaps = con.execute(
        """SELECT avg(g), quantile_cont(g, [0.5, 0.9, 0.99]) FROM (SELECT (timestamp - lag(timestamp) OVER
           (PARTITION BY run, messageId ORDER BY rn)) / 1e3 AS g FROM ev
           WHERE type IN ('TEXT_MESSAGE_CONTENT', 'REASONING_MESSAGE_CONTENT'))"""
    ).fetchall()
    summary = [runs[c].quantile([0.5, 0.9, 0.99]) for c in ("ttft_s", "time_to_first_text_s", "duration_s")]
    return [runs, tools, gaps, summary, tools["latency_s"].quantile([0.5, 0.9, 0.99])]


def msgspec_floor(paths: list[str]) -> int:
    """Decoding every line with msgspec (into Python objects) and nothing else: the floor of a JSONL load."""
    import msgspec

    decode = msgspec.json.Decoder().decode
    count = 0
    for path in paths:
        with open(path, "rb") as handle:
            data = handle.read()
        for line in data.splitlines():
            decode(line)
            count += 1
    return count


def ours_load(paths: list[str]) -> object:
    from agui_notebook.logs._load import load_events

    return load_events(paths, progress=False)


def ours_end_to_end(paths: list[str]) -> list:
    """load_events + runs_df + tool_calls_df + summarize, as a user writes it."""
    from agui_notebook.logs._load import load_events
    from agui_notebook.logs._summary import summarize
    from agui_notebook.logs.tables._runs import runs_df
    from agui_notebook.logs.tables._tool_calls import tool_calls_df

    events = load_events(paths, progress=False)
    return [runs_df(events), tool_calls_df(events), summarize(events)]


def ours_by_file(paths: list[str], **options) -> dict:
    """The run and tool tables, file by file (one pass over the files for both)."""
    from agui_notebook.logs._by_file import by_file
    from agui_notebook.logs.tables._runs import runs_df
    from agui_notebook.logs.tables._tool_calls import tool_calls_df

    return by_file(paths, {"runs": runs_df, "tools": tool_calls_df}, progress=False, **options)


def polars_glob(paths: list[str]) -> list:
    """The run and tool tables in polars over the files (a glob's list)."""
    return polars_queries(paths)[:2]


METHODS = {
    "msgspec lines": msgspec_floor,
    "ours load": ours_load,
    "polars load (schema)": lambda paths: __import__("polars").read_ndjson(paths, schema=_polars_schema()),
    "ours end to end": ours_end_to_end,
    "polars end to end": polars_queries,
    "duckdb end to end": duckdb_queries,
    "ours by file": ours_by_file,
    "ours by file, 2 workers": lambda paths: ours_by_file(paths, workers=2),
    "ours by file, a file a read": None,  # see _child: no batching of small files (_by_file.BATCH_BYTES = 0)
    "ours 2 workers, fork server": None,  # see _child: as in a notebook (other threads running)
    "ours 2 workers, fork server (warm)": None,
    "ours on dask (warm)": None,  # see _child
    "ours on dask (warm, Dask's settings)": None,
    "polars glob": polars_glob,
}


DASK_WORKER_SETTINGS = {
    **{
        f"distributed.nanny.pre-spawn-environ.{name}": value
        for name, value in {
            "MALLOC_TRIM_THRESHOLD_": 256 << 20, "MALLOC_MMAP_THRESHOLD_": 64 << 20, "MALLOC_TOP_PAD_": 64 << 20,
        }.items()
    },
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
}  # fmt: skip
"""Dask's workers keep their freed memory for the next task (Dask sets ``MALLOC_TRIM_THRESHOLD_=65536`` for
them, which returns it at once: the same per-file work then takes 8x the page faults and about 20 % more CPU
than in a pool's worker), and their sampling profiler (every 10 ms) and 20 ms ticks, which take the GIL from
the work, are off or slowed."""


def parallelism() -> float:
    """How many cores two CPU-bound processes got just now (2.0 on an idle 2-core machine): the other jobs on a
    shared machine take from the workers' speed-up what no code can give back."""
    import time
    from concurrent.futures import ProcessPoolExecutor

    start = time.perf_counter()
    _spin(3_000_000)
    one = time.perf_counter() - start
    with ProcessPoolExecutor(2) as pool:
        pool.submit(_spin, 1).result()
        start = time.perf_counter()
        list(pool.map(_spin, [3_000_000] * 2))
        two = time.perf_counter() - start
    return 2 * one / two


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def _child(method: str, paths: list[str]) -> None:
    import gc
    import resource
    import time

    import pandas  # noqa: F401

    import agui_notebook.logs.tables._runs  # noqa: F401

    if "polars" in method:
        import polars  # noqa: F401
    if "duckdb" in method:
        import duckdb  # noqa: F401
    client = cluster = None
    function = METHODS[method]
    if method == "ours by file, a file a read":
        from agui_notebook.logs import _by_file

        _by_file.BATCH_BYTES = 0
        function = ours_by_file
    if "fork server" in method:
        import threading

        # A kernel's threads: the pool's workers then come from a fork server (_by_file.start_method).
        threading.Thread(target=threading.Event().wait, daemon=True).start()
        if "warm" in method:
            ours_by_file(paths[:1], workers=2)  # the kernel's first pool starts the server

        def function(paths):
            return ours_by_file(paths, workers=2)

    if method.startswith("ours on dask (warm"):
        import dask
        from distributed import Client, LocalCluster

        settings = {} if "Dask's settings" in method else DASK_WORKER_SETTINGS
        with dask.config.set(settings):
            cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
        ours_by_file(paths, client=client)  # the cold pass: workers import the package

        def function(paths):
            return ours_by_file(paths, client=client)

    gc.collect()
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    current = int(Path("/proc/self/statm").read_text().split()[1]) * resource.getpagesize()
    before = resource.getrusage(resource.RUSAGE_SELF)
    before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    function(paths)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) + (
        children.ru_utime + children.ru_stime - before_children.ru_utime - before_children.ru_stime
    )
    peak = after.ru_maxrss * 1024 - max(baseline, current)
    if children.ru_maxrss > before_children.ru_maxrss:
        peak += children.ru_maxrss * 1024
    if client is not None:
        client.close()
        cluster.close()
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_bytes": peak}))


def run_child(method: str, paths: list[Path]) -> dict:
    # The package of this checkout, in the child and in the pool's and Dask's worker processes.
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    completed = subprocess.run(
        [sys.executable, __file__, "--child", method, *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"{method} failed:\n{completed.stderr[-3000:]}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def measure(methods: list[str], paths: list[Path], repeats: int) -> dict[str, dict[str, float]]:
    """Medians of wall time, CPU time and peak memory per method, the methods interleaved per repetition."""
    return measure_jobs({method: (method, paths) for method in methods}, repeats)


def measure_jobs(jobs: dict[str, tuple[str, list[Path]]], repeats: int) -> dict[str, dict[str, float]]:
    """``measure`` of named jobs (a method and the logs it reads), interleaved per repetition, so that the
    machine's load drifting over minutes hits every job alike."""
    results: dict[str, list[dict]] = {name: [] for name in jobs}
    for _ in range(repeats):
        for name, (method, paths) in jobs.items():
            results[name].append(run_child(method, paths))
    out = {}
    for name, runs in results.items():
        size = sum(p.stat().st_size for p in jobs[name][1])
        out[name] = {key: statistics.median(r[key] for r in runs) for key in ("seconds", "cpu", "peak_bytes")}
        out[name]["runs"] = [round(r["seconds"], 2) for r in runs]
        out[name]["peak_per_file"] = out[name]["peak_bytes"] / size
    return out


def table(label: str, paths: list[Path], events: int, found: dict[str, dict]) -> None:
    size = sum(p.stat().st_size for p in paths)
    print(f"\n{label}: {events:,} events in {len(paths)} file(s), {size / 1e6:.0f} MB")
    print(f"  {'method':<36} {'median s':>9} {'cpu s':>7} {'runs (s)':<24} {'peak MB':>8} {'peak/logs':>9}")
    for method, m in found.items():
        runs = ", ".join(f"{r:.2f}" for r in m["runs"])
        print(
            f"  {method:<36} {m['seconds']:>9.2f} {m['cpu']:>7.2f} {runs:<24} {m['peak_bytes'] / 1e6:>8.0f}"
            f" {m['peak_per_file']:>9.2f}"
        )


TARGETS: list[str] = []
"""The issue targets measured in this run, as printed (repeated at the end)."""


def ratio(line: str, value: float, target: str, met: bool) -> None:
    text = f"{line}: {value:.2f} (target {target}: {'met' if met else 'NOT met'})"
    TARGETS.append(text)
    print(f"  {text}")


def write_folder(folder: Path, events: int, files: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    per_file = events // files
    for i in range(files):
        path = folder / f"part-{i:03d}.jsonl"
        generate(path, per_file, recorder=False, seed=7 + i, first_run=i * 1_000_000)
        paths.append(path)
    return paths


def write_small_folder(folder: Path, files: int) -> list[Path]:
    """``files`` logs of one conversation each (a run or two, tens of KB), as a recorder per conversation writes."""
    paths = sorted(folder.glob("*.jsonl"))
    if len(paths) == files:
        return paths
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        generate(folder / f"conversation-{i:04d}.jsonl", 200, recorder=False, seed=7 + i, first_run=i * 10)
    return sorted(folder.glob("*.jsonl"))


def main() -> None:
    root = str(Path(__file__).resolve().parents[1])
    sys.path.insert(0, root)  # the package of this checkout, here and in Dask's workers
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        _child(sys.argv[2], sys.argv[3:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scale", action="store_true", help="10M events: as 10 files and as one file")
    parser.add_argument("--keep", type=Path, help="write the logs here and keep them")
    parser.add_argument(
        "--quick", action="store_true", help="100k events, one repetition, without the 1,000 small files"
    )
    args = parser.parse_args()
    if args.quick:
        args.events = min(args.events, 100_000)
        args.repeats = 1
    with tempfile.TemporaryDirectory() as temporary:
        folder = args.keep or Path(temporary)
        folder.mkdir(parents=True, exist_ok=True)
        print(
            f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, {args.repeats} repetitions per method"
        )
        if args.scale:
            scale(folder, args.events, args.repeats)
        else:
            one_million(folder, args.events, args.repeats, small_files=not args.quick)
        print("\nTargets (issue 13 and issue 23):")
        for line in TARGETS:
            print(f"  {line}")


def one_million(folder: Path, events: int, repeats: int, *, small_files: bool = True) -> None:
    path = folder / "events.jsonl"
    if not path.exists():
        generate(path, events, recorder=False)
    print(f"two CPU-bound processes got {parallelism():.2f} cores (2.00 on an idle 2-core machine)")
    found = measure(
        ["msgspec lines", "ours load", "polars load (schema)", "ours end to end", "polars end to end",
         "duckdb end to end", "ours by file", "ours by file, 2 workers"], [path], repeats)  # fmt: skip
    print(f"two CPU-bound processes got {parallelism():.2f} cores")
    table("one file", [path], events, found)
    print(f"  (the peers compute {len(RUN_LIKE)} of runs_df's 29 columns and {len(TOOL_LIKE)} of tool_calls_df's 18,"
          " the same values; ours also keeps every event's exact dict in the events table)")  # fmt: skip
    s = {m: found[m]["seconds"] for m in found}
    ratio("end to end: polars / ours (>= 1 is no slower)", s["polars end to end"] / s["ours end to end"], ">= 1",
          s["polars end to end"] >= s["ours end to end"])  # fmt: skip
    print(f"  end to end: DuckDB / ours: {s['duckdb end to end'] / s['ours end to end']:.2f}")
    e2e_peak = found["ours end to end"]["peak_per_file"]
    ratio("end to end peak / file", e2e_peak, "<= 2.5", e2e_peak <= 2.5)
    load = s["polars load (schema)"] / s["ours load"]
    ratio("load: polars full schema / ours", load, ">= 2", load >= 2)
    floor = s["ours load"] / s["msgspec lines"]
    ratio("load: ours / msgspec line decoding", floor, "<= 1.1", floor <= 1.1)
    workers = s["ours by file"] / s["ours by file, 2 workers"]
    ratio("one file, run and tool tables: serial / 2 workers", workers, ">= 1.5", workers >= 1.5)
    c = {m: found[m]["cpu"] for m in found}
    print(f"  (CPU time ratios: polars e2e / ours {c['polars end to end'] / c['ours end to end']:.2f}, "
          f"polars load / ours {c['polars load (schema)'] / c['ours load']:.2f}, "
          f"ours load / msgspec {c['ours load'] / c['msgspec lines']:.2f})")  # fmt: skip

    files = write_folder(folder / "folder32", events, 32)
    found = measure(
        ["ours by file", "ours by file, 2 workers", "ours 2 workers, fork server",
         "ours 2 workers, fork server (warm)", "ours on dask (warm)", "ours on dask (warm, Dask's settings)",
         "polars glob"], files, repeats
    )  # fmt: skip
    table("a 32-file folder (run and tool tables)", files, events, found)
    s = {m: found[m]["seconds"] for m in found}
    best = min(s["ours by file"], s["ours by file, 2 workers"])
    ratio("32 files: polars glob / ours (best of serial, pool)", s["polars glob"] / best, ">= 1.3",
          s["polars glob"] / best >= 1.3)  # fmt: skip
    peak = found["ours by file"]["peak_per_file"]
    ratio("32 files: ours (serial) peak / logs", peak, "<= 0.3", peak <= 0.3)
    print(f"  32 files: 2 workers from a fork server / forked: {s['ours 2 workers, fork server'] / s['ours by file, 2 workers']:.2f}"
          f" (the kernel's first pool), {s['ours 2 workers, fork server (warm)'] / s['ours by file, 2 workers']:.2f} (later pools)")  # fmt: skip
    print("  (fork server lines: the workers are the server's children, not this process's, so their CPU time and"
          " memory are not in the columns)")  # fmt: skip
    dask = s["ours on dask (warm)"] / s["ours by file, 2 workers"]
    ratio("32 files: Dask warm pass / process pool", dask, "<= 1.3", dask <= 1.3)
    untuned = s["ours on dask (warm, Dask's settings)"] / s["ours by file, 2 workers"]
    print(f"  32 files: Dask warm pass with Dask's own settings / process pool: {untuned:.2f}")
    _check_identical(files)
    _check_identical([path])
    if not small_files:
        return

    small = write_small_folder(folder / "small1000", 1000)
    found = measure(
        ["ours by file, a file a read", "ours by file", "ours by file, 2 workers", "polars glob"],
        small,
        repeats,
    )
    events_in_small = sum(p.read_bytes().count(b"\n") for p in small)
    table("1,000 small files, one conversation each (run and tool tables)", small, events_in_small, found)
    s = {m: found[m]["seconds"] for m in found}
    print(
        f"  1,000 files: a file a read / batched: {s['ours by file, a file a read'] / s['ours by file']:.2f}"
    )
    print(f"  1,000 files: polars glob / ours: {s['polars glob'] / s['ours by file']:.2f} (serial), "
          f"{s['polars glob'] / s['ours by file, 2 workers']:.2f} (2 workers)")  # fmt: skip


def _check_identical(files: list[Path]) -> None:
    """The pool's and Dask's tables equal the serial ones (asserted)."""
    import dask
    import pandas as pd
    from distributed import Client, LocalCluster

    serial = ours_by_file(list(map(str, files)))
    pooled = ours_by_file(list(map(str, files)), workers=2)
    with (
        dask.config.set(DASK_WORKER_SETTINGS),
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as c,
    ):
        dasked = ours_by_file(list(map(str, files)), client=c)
    for name in serial:
        pd.testing.assert_frame_equal(serial[name], pooled[name])
        pd.testing.assert_frame_equal(serial[name], dasked[name])
    print(f"  {len(files)} file(s): serial, process pool and Dask tables: identical")


def scale(folder: Path, events: int, repeats: int) -> None:
    million = folder / "events-1m.jsonl"
    if not million.exists():
        generate(million, events, recorder=False)
    total = events * 10
    files = sorted((folder / "folder10").glob("*.jsonl")) or write_folder(folder / "folder10", total, 10)
    single = folder / "events-10m.jsonl"
    if not single.exists():
        with open(single, "wb") as out:
            for path in files:
                out.write(path.read_bytes())
    # One interleaved measurement: the 1M and 10M runs of a method follow each other, so a slower minute of the
    # machine does not pass for a cost that grows with the log.
    groups = {
        "1M": [("ours load", [million]), ("ours by file", [million])],
        "10M": [("ours load", [single]), ("ours by file", [single]), ("ours by file, 2 workers", [single])],
        "10 files": [("ours by file", files), ("ours by file, 2 workers", files)],
    }
    found = measure_jobs(
        {f"{group} {method}": (method, paths) for group, jobs in groups.items() for method, paths in jobs},
        repeats,
    )
    small, big, split = (
        {method: found[f"{group} {method}"] for method, _ in groups[group]} for group in groups
    )
    table("1M events, one file", [million], events, small)
    table("10M events, one file", [single], total, big)
    table("10M events, 10 files (run and tool tables)", files, total, split)
    for method in ("ours load", "ours by file"):
        per = (big[method]["seconds"] / total) / (small[method]["seconds"] / events)
        ratio(f"{method}: per-event cost 10M / 1M", per, "<= 1.15", per <= 1.15)
        per_cpu = (big[method]["cpu"] / total) / (small[method]["cpu"] / events)
        ratio(f"{method}: per-event CPU time 10M / 1M", per_cpu, "<= 1.15", per_cpu <= 1.15)
    for label, found in (("one file", big), ("10 files", split)):
        for method in ("ours by file", "ours by file, 2 workers"):
            m = found[method]
            where = f"10M to run and tool tables, {label}, {method.removeprefix('ours by file').strip(', ') or 'serial'}"
            ratio(f"{where}: seconds", m["seconds"], "<= 15", m["seconds"] <= 15)
            ratio(f"{where}: peak GB", m["peak_bytes"] / 1e9, "<= 1", m["peak_bytes"] <= 1e9)


if __name__ == "__main__":
    main()
