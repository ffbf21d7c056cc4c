"""``agui_notebook.logs``: Recorded logs as pandas tables: ``load_events`` and the tables (``runs_df``,
``tool_calls_df``, ``messages_df``, ``chunks_df``, ``reasoning_df``, ``parts_df``), ``summarize`` and
``totals_df``, recording (``record``, ``EventRecorder``), plots, and exports (``to_parquet``,
``export_otel``).

>>> from agui_notebook import logs
>>> logs.runs_df([{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}])[["run_id", "status"]]
  run_id      status
0      r  incomplete
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agui_notebook._lazy import lazy_namespace

_EXPORTS: dict[str, str] = {
    "load_events": "agui_notebook.logs._load",
    "export_otel": "agui_notebook.logs._otel",
    "to_otel_spans": "agui_notebook.logs._otel",
    "to_parquet": "agui_notebook.logs._parquet",
    "plot_reasoning_lengths": "agui_notebook.logs._plots",
    "plot_run_timeline": "agui_notebook.logs._plots",
    "plot_token_stream": "agui_notebook.logs._plots",
    "plot_tool_latency": "agui_notebook.logs._plots",
    "EventRecorder": "agui_notebook.chat._recorder",
    "RecordedEvent": "agui_notebook.chat._recorder",
    "record": "agui_notebook.chat._recorder",
    "summarize": "agui_notebook.logs._summary",
    "totals_df": "agui_notebook.logs._summary",
    "chunks_df": "agui_notebook.logs.tables._chunks",
    "messages_df": "agui_notebook.logs.tables._messages",
    "parts_df": "agui_notebook.logs.tables._parts",
    "reasoning_df": "agui_notebook.logs.tables._reasoning",
    "runs_df": "agui_notebook.logs.tables._runs",
    "tool_calls_df": "agui_notebook.logs.tables._tool_calls",
}

__all__ = sorted(_EXPORTS)

if not TYPE_CHECKING:
    __getattr__, __dir__ = lazy_namespace(__name__, _EXPORTS)

if TYPE_CHECKING:
    from agui_notebook.logs._load import load_events as load_events
    from agui_notebook.logs._otel import export_otel as export_otel, to_otel_spans as to_otel_spans
    from agui_notebook.logs._parquet import to_parquet as to_parquet
    from agui_notebook.logs._plots import (
        plot_reasoning_lengths as plot_reasoning_lengths,
        plot_run_timeline as plot_run_timeline,
        plot_token_stream as plot_token_stream,
        plot_tool_latency as plot_tool_latency,
    )
    from agui_notebook.chat._recorder import (
        EventRecorder as EventRecorder,
        RecordedEvent as RecordedEvent,
        record as record,
    )
    from agui_notebook.logs._summary import summarize as summarize, totals_df as totals_df
    from agui_notebook.logs.tables._chunks import chunks_df as chunks_df
    from agui_notebook.logs.tables._messages import messages_df as messages_df
    from agui_notebook.logs.tables._parts import parts_df as parts_df
    from agui_notebook.logs.tables._reasoning import reasoning_df as reasoning_df
    from agui_notebook.logs.tables._runs import runs_df as runs_df
    from agui_notebook.logs.tables._tool_calls import tool_calls_df as tool_calls_df
