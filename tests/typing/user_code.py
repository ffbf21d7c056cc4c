"""A user's file, type-checked by tests/test_typing.py under ``mypy --strict`` as a user's project would check it.

It is never run (its paths do not exist): it has to type-check. A line with ``# type: ignore[...]`` must fail to
type-check: under ``warn_unused_ignores`` an ignore that is not needed is itself an error, so these lines say what
the checker must reject.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
from typing_extensions import assert_type

from agui_notebook import (
    AguiNotebookError,
    OptionError,
    chunks_df,
    load_events,
    logs,
    messages_df,
    reasoning_df,
    runs_df,
    summarize,
    tool_calls_df,
    totals_df,
    ui,
    ui_messages_from_events,
)

# isort: split
from agui_notebook import runs_dff  # type: ignore[attr-defined]  # noqa: F401  # a misspelled name is refused

client: Any = object()  # a dask.distributed.Client

# Every option of the tables is in their signatures.
assert_type(runs_df("logs/", workers=4), pd.DataFrame)
assert_type(
    runs_df("logs/*.jsonl", prices={"gpt-4o": {"input": 2.5, "output": 10.0}}, progress=False), pd.DataFrame
)
events = load_events("logs/", errors="collect")
assert_type(events, pd.DataFrame)
assert_type(tool_calls_df(events), pd.DataFrame)
assert_type(tool_calls_df(["a.jsonl", "b.jsonl"], client=client), pd.DataFrame)
assert_type(messages_df("logs/", errors="collect", progress=True), pd.DataFrame)
assert_type(chunks_df("run.jsonl"), pd.DataFrame)
assert_type(reasoning_df("logs/", tokenizer=lambda text: text.split(), workers=2), pd.DataFrame)
lazy_runs = runs_df("logs/", client=client, lazy=True)  # a dask DataFrame
assert_type(summarize("logs/", by="model", workers=2), pd.DataFrame)
assert_type(totals_df(events, by=["model", "status"]), pd.DataFrame)

# What the checker must refuse: a misspelled option, an option of the wrong type, an error mode that is none.
runs_df("logs/", worker=4)  # type: ignore[call-overload]
runs_df("logs/", workers="4")  # type: ignore[call-overload]
load_events("logs/", errors="ignore")  # type: ignore[arg-type]

# The rooms' namespaces: the tables as the docs write them, the core types.
assert_type(logs.runs_df("logs/", workers=2), pd.DataFrame)
assert_type(logs.to_parquet(events, "events.parquet"), None)
reducer = ui.UIMessageStreamReducer(errors="collect")
assert_type(reducer.push({"type": "start"}), list[ui.MessageChange])

# The messages are typed models.
for message in ui_messages_from_events(events["event"].tolist()):
    role: str = message.role
    for part in message.parts:
        kind: str = part.type

try:
    runs_df("logs/", workers=0)
except OptionError as error:
    assert_type(error, OptionError)
except AguiNotebookError:
    pass
