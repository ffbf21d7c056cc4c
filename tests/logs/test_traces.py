"""load_events of OpenTelemetry spans (logs/_traces.py): OTLP/JSON and in-memory spans of the GenAI conventions,
pydantic-ai's instrumentation and OpenInference, read as AG-UI events; the same pydantic-ai run traced and
streamed; our own export read back; garbled OTLP/JSON."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from agui_notebook import AguiNotebookError, EventParseError, OptionalDependencyError, inspect_run
from agui_notebook.inspection import diff_runs, expect, fork
from agui_notebook.logs import export_otel, load_events, messages_df, runs_df, summarize, tool_calls_df
from tests.logs.samples import CAPTURES, T0, known_events, values
from tests.support.otlp_json import OtlpJsonFileExporter, instrumented_run, otlp_json
from tests.support.pydantic_ai_runs import SCENARIOS

MS = 1_000_000  # ns


def ns(ms: int) -> str:
    """OTLP/JSON nanoseconds (a string) ``ms`` milliseconds after T0."""
    return str((T0 + ms) * MS)


def attr(key: str, value: Any) -> dict[str, Any]:
    """One OTLP/JSON attribute."""
    if isinstance(value, bool):
        return {"key": key, "value": {"boolValue": value}}
    if isinstance(value, int):
        return {"key": key, "value": {"intValue": str(value)}}
    if isinstance(value, list):
        return {"key": key, "value": {"arrayValue": {"values": [{"stringValue": v} for v in value]}}}
    return {"key": key, "value": {"stringValue": value}}


def span(span_id: str, parent: str | None, name: str, start: int, end: int, error: str | None = None, **attributes: Any) -> dict[str, Any]:  # fmt: skip
    """One OTLP/JSON span of trace ``ab..``, times in ms after T0; attribute keys with ``__`` for ``.``."""
    out: dict[str, Any] = {
        "traceId": "ab" * 16,
        "spanId": span_id * 8,
        "name": name,
        "kind": 1,
        "startTimeUnixNano": ns(start),
        "endTimeUnixNano": ns(end),
        "attributes": [attr(key.replace("__", "."), value) for key, value in attributes.items()],
        "status": {"code": 2, "message": error} if error else {},
    }
    if parent is not None:
        out["parentSpanId"] = parent * 8
    return out


def export(*spans: dict[str, Any]) -> dict[str, Any]:
    return {"resourceSpans": [{"resource": {"attributes": []}, "scopeSpans": [{"scope": {"name": "x"}, "spans": list(spans)}]}]}  # fmt: skip


OUTPUT_1 = [{"role": "assistant", "finish_reason": "tool_call", "parts": [
    {"type": "reasoning", "content": "Need the weather."},
    {"type": "text", "content": "Checking."},
    {"type": "tool_call", "id": "c1", "name": "weather", "arguments": {"city": "Paris"}},
]}]  # fmt: skip
OUTPUT_2 = [
    {"role": "assistant", "parts": [{"type": "text", "content": "Sunny in Paris."}], "finish_reason": "stop"}
]

GENAI_TRACE = export(
    span("01", None, "invoke_agent weather", 0, 1000, gen_ai__operation__name="invoke_agent", gen_ai__conversation__id="thread-9"),
    span("02", "01", "chat gpt-4o", 10, 400, gen_ai__operation__name="chat", gen_ai__request__model="gpt-4o",
         gen_ai__response__model="gpt-4o-2024", gen_ai__provider__name="openai", gen_ai__usage__input_tokens=50,
         gen_ai__usage__output_tokens=20, gen_ai__usage__cache_read__input_tokens=10,
         gen_ai__output__messages=json.dumps(OUTPUT_1), unknown__attribute=[]),
    span("03", "02", "execute_tool weather", 420, 700, gen_ai__operation__name="execute_tool", gen_ai__tool__name="weather",
         gen_ai__tool__call__id="c1", gen_ai__tool__call__arguments='{"city":"Paris"}', gen_ai__tool__call__result="sunny"),
    span("04", "01", "chat gpt-4o", 710, 990, gen_ai__operation__name="chat", gen_ai__response__model="gpt-4o-2024",
         gen_ai__usage__input_tokens=80, gen_ai__usage__output_tokens=5, gen_ai__output__messages=json.dumps(OUTPUT_2)),
)  # fmt: skip
"""One agent run by the GenAI conventions: a model step with reasoning, text and a tool call, the tool, a last
step."""


def test_genai_otlp_json_reads_as_events_with_the_span_times(tmp_path: Path) -> None:
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(GENAI_TRACE, indent=2))  # one document, as a collector's debug output
    df = load_events(path)
    t = [None if math.isnan(x) else round(x, 6) for x in df["t"]]
    assert list(zip(df["type"].astype(str), t, strict=True)) == [
        ("RUN_STARTED", 0.0),
        ("STEP_STARTED", 0.01),
        ("REASONING_START", None),
        ("REASONING_MESSAGE_START", None),
        ("REASONING_MESSAGE_CONTENT", None),
        ("REASONING_MESSAGE_END", None),
        ("REASONING_END", None),
        ("TEXT_MESSAGE_START", None),
        ("TEXT_MESSAGE_CONTENT", None),
        ("TEXT_MESSAGE_END", None),
        ("TOOL_CALL_START", None),
        ("TOOL_CALL_ARGS", None),
        ("STEP_FINISHED", 0.4),
        ("TOOL_CALL_END", 0.42),  # the tool span's start: it began to run
        ("TOOL_CALL_RESULT", 0.7),
        ("STEP_STARTED", 0.71),
        ("TEXT_MESSAGE_START", None),
        ("TEXT_MESSAGE_CONTENT", None),
        ("TEXT_MESSAGE_END", None),
        ("STEP_FINISHED", 0.99),
        ("RUN_FINISHED", 1.0),
    ]
    assert (df["line"] == 1).all() and (df["source"] == str(path)).all()
    assert df["time"].iloc[0] == pd.Timestamp((T0) * MS, tz="UTC")
    assert set(df["run_id"].astype(str)) == {"01" * 8} and set(df["thread_id"].astype(str)) == {"thread-9"}
    assert df["step_name"].dropna().tolist() == ["chat gpt-4o"] * 4
    text = df[df["type"] == "TEXT_MESSAGE_CONTENT"]
    assert text["message_id"].astype(str).tolist() == ["02" * 8 + "-1", "04" * 8 + "-0"]
    assert text["delta"].tolist() == ["Checking.", "Sunny in Paris."]

    run = runs_df(df).iloc[0]
    assert (run.status, run.model, run.input_tokens, run.output_tokens, run.cached_input_tokens) == (
        "success", "gpt-4o-2024", 130, 25, 10,
    )  # fmt: skip
    assert (run.duration_s, run.tool_calls, run.tool_time_s, run.text_chars, run.reasoning_chars) == (
        1.0, 1, pytest.approx(0.28), 24, 17,
    )  # fmt: skip
    # What a trace cannot carry: the time of each streamed piece.
    for missing in ("ttft_s", "time_to_first_text_s", "itl_p50_s", "itl_p95_s", "chunks_per_s", "tpot_s"):
        assert math.isnan(run[missing]), missing
    assert pd.isna(run.total_tokens)  # the conventions have no total

    call = tool_calls_df(df).iloc[0]
    assert (call.tool_call_id, call.tool_name, call.args, call.result, call.status) == (
        "c1", "weather", {"city": "Paris"}, "sunny", "ok",
    )  # fmt: skip
    assert call.parent_message_id == "02" * 8 + "-1"  # the step's text message
    assert (call.latency_s, pd.isna(call.started_at), math.isnan(call.args_s)) == (
        pytest.approx(0.28),
        True,
        True,
    )
    messages = messages_df(df)
    assert messages["text"].tolist() == ["Need the weather.", "Checking.", "Sunny in Paris."]
    assert messages["chunks"].tolist() == [1, 1, 1] and messages["duration_s"].isna().all()


def test_otlp_json_lines_in_memory_exports_spans_and_an_exporter_read_alike(tmp_path: Path) -> None:
    lines = tmp_path / "trace.jsonl"
    first, second = export(*GENAI_TRACE["resourceSpans"][0]["scopeSpans"][0]["spans"][:2]), export(*GENAI_TRACE["resourceSpans"][0]["scopeSpans"][0]["spans"][2:])  # fmt: skip
    lines.write_text(json.dumps(first) + "\n\n" + json.dumps(second) + "\n")
    from_lines = load_events(lines)
    assert sorted(set(from_lines["line"].tolist())) == [1, 3]  # each event at the line of its span's export
    expected = runs_df(load_events(json.dumps(GENAI_TRACE)))
    for source in (lines, [first, second], GENAI_TRACE):
        got = runs_df(source)
        assert got.drop(columns=["source"]).equals(expected.drop(columns=["source"])), source
    memory = InMemorySpanExporter()
    run = instrumented_run("string_result")
    memory.export(run.spans)
    assert runs_df(memory)["tool_calls"].tolist() == [1]
    assert runs_df(run.spans)["source"].tolist() == ["<spans>"]
    assert tool_calls_df(tuple(run.spans))["result"].tolist() == ["12:00"]


def test_openinference_spans_read_by_their_own_attributes() -> None:
    trace = export(
        span("11", None, "agent", 0, 500, openinference__span__kind="AGENT", session__id="chat-3"),
        span("12", "11", "llm", 10, 200, openinference__span__kind="LLM", llm__model_name="claude-x",
             llm__token_count__prompt=40, llm__token_count__completion=7, llm__token_count__total=47,
             **{"llm__input_messages__0__message__role": "user",
                "llm__input_messages__0__message__content": "Find otel",
                "llm__output_messages__0__message__role": "assistant",
                "llm__output_messages__0__message__content": "Let me look.",
                "llm__output_messages__0__message__tool_calls__0__tool_call__id": "t1",
                "llm__output_messages__0__message__tool_calls__0__tool_call__function__name": "lookup",
                "llm__output_messages__0__message__tool_calls__0__tool_call__function__arguments": '{"q": "otel"}'}),
        span("13", "11", "lookup", 220, 300, "backend down", openinference__span__kind="TOOL", tool__name="lookup",
             input__value='{"q": "otel"}', output__value="no answer"),
        span("14", "11", "llm", 310, 480, openinference__span__kind="LLM", llm__model_name="claude-x",
             llm__token_count__prompt=60, llm__token_count__completion=3, llm__token_count__total=63,
             llm__output_messages__0__message__content="Not found."),
    )  # fmt: skip
    run = runs_df(trace).iloc[0]
    assert (run.thread_id, run.model, run.input_tokens, run.output_tokens, run.total_tokens) == (
        "chat-3", "claude-x", 100, 10, 110,
    )  # fmt: skip
    assert (run.text_chars, run.tool_calls, run.status) == (22, 1, "success")
    calls = tool_calls_df(trace)
    # The TOOL span names no call id: it ran the earlier call of its tool that no other span took.
    assert values(calls["tool_call_id"]) == ["t1"]
    assert values(calls["status"]) == ["error"] and values(calls["error"]) == ["backend down"]
    assert calls["args"].tolist() == [{"q": "otel"}] and values(calls["result"]) == ["no answer"]
    started = load_events(trace)["event"][0]
    assert started["input"]["messages"] == [
        {"id": "12" * 8 + "-input-0", "role": "user", "content": "Find otel"}
    ]


@pytest.mark.parametrize(
    "scenario",
    ["text", "reasoning_tool_text", "parallel_tools", "several_rounds", "string_result", "failing_tool"],
)
def test_a_pydantic_ai_run_traced_and_streamed_gives_the_same_rows(scenario: str) -> None:
    """One run, both instrumented and streamed through AGUIAdapter: equal wherever both carry the fact."""
    captured = instrumented_run(scenario)
    traced, streamed = runs_df(captured.spans), runs_df(captured.events)
    assert len(traced) == len(streamed) == 1
    shared = ["thread_id", "status", "error", "tool_calls", "text_chars", "reasoning_chars"]
    if scenario != "failing_tool":  # AG-UI's RUN_ERROR carries no usage
        shared += ["model", "input_tokens", "output_tokens"]
    assert values(traced[shared].iloc[0]) == values(streamed[shared].iloc[0])
    # What only the stream carries: the time of each piece, the total; the trace leaves them missing.
    for column in ("ttft_s", "itl_p50_s", "chunks_per_s", "tpot_s"):
        assert math.isnan(traced[column].iloc[0])
    assert pd.isna(traced["total_tokens"].iloc[0])
    assert pd.isna(streamed["total_tokens"].iloc[0]) == (scenario == "failing_tool")
    assert (
        traced["model"].iloc[0] == f"function::{SCENARIOS[scenario].__name__}"
        and traced["input_tokens"].iloc[0] > 0
    )
    a, b = tool_calls_df(captured.spans), tool_calls_df(captured.events)
    columns = ["tool_call_id", "tool_name", "args", "args_json_valid", "status"]
    if scenario != "failing_tool":  # pydantic-ai records no result on a failed tool's span
        columns.append("result")
    assert values(a[columns].stack()) == values(b[columns].stack())
    assert a["started_at"].isna().all() and a["args_s"].isna().all()
    assert (a["latency_s"] >= 0).all()


def test_failed_runs_and_tools_keep_their_errors() -> None:
    captured = instrumented_run("failing_tool")
    run, call = runs_df(captured.spans).iloc[0], tool_calls_df(captured.spans).iloc[0]
    expected = "Tool 'flaky_lookup' exceeded max retries count of 0."
    assert run.status == "error" and run.error.startswith(expected)  # the exception event's message
    assert call.status == "error" and call.error.startswith(expected)
    assert (run.model, run.input_tokens, run.output_tokens) == ("function::_failing_tool", 50, 4)


def test_pydantic_ai_format_2_and_no_content() -> None:
    old = instrumented_run("parallel_tools", version=2)
    assert {s.name for s in old.spans} >= {"agent run", "running tool"}
    calls = tool_calls_df(old.spans)
    assert values(calls["tool_name"]) == ["get_weather", "get_weather"]
    assert calls["args"].tolist() == [{"city": "Paris"}, {"city": "Oslo"}]
    bare = instrumented_run("several_rounds", include_content=False)
    run, calls = runs_df(bare.spans).iloc[0], tool_calls_df(bare.spans)
    assert (run.input_tokens, run.output_tokens, run.tool_calls, run.text_chars) == (150, 20, 2, 0)
    # Without content the names and ids are there; arguments read as none given, results as empty.
    assert values(calls["tool_name"]) == ["get_weather", "get_time"]
    assert calls["args_chars"].tolist() == [0, 0] and calls["result"].tolist() == ["", ""]


# --- our own export, read back -----------------------------------------------------------------------------------

RUN_SHARED = [
    "thread_id", "run_id", "parent_run_id", "started_at", "finished_at", "status", "error", "model",
    "duration_s", "text_chars", "reasoning_chars", "tool_calls", "tool_time_s", "input_tokens",
    "output_tokens", "reasoning_tokens", "cached_input_tokens",
]  # fmt: skip
"""What a run's spans carry (content=True for the text): equal after a round trip."""
TOOL_SHARED = [
    "run_id", "tool_call_id", "tool_name", "args_end_at", "result_at", "latency_s", "status", "error", "result",
]  # fmt: skip


def _round_trip(events: Any, tmp_path: Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = tmp_path / "trace.jsonl"
    export_otel(events, OtlpJsonFileExporter(path), content=True, batch_size=3)
    return load_events(events), load_events(path)


def test_our_export_reads_back_with_equal_runs_and_tool_calls(tmp_path: Path) -> None:
    before, after = _round_trip(known_events(), tmp_path)
    a, b = runs_df(before), runs_df(after)
    assert values(a[RUN_SHARED].stack(future_stack=True)) == values(b[RUN_SHARED].stack(future_stack=True))
    ok = tool_calls_df(before)["args_json_valid"].tolist()
    x, y = tool_calls_df(before), tool_calls_df(after)
    # c3 was cut off by its run's error before TOOL_CALL_END; its span starts at TOOL_CALL_START, which reads
    # back as the time the tool began to run.
    assert pd.isna(x["args_end_at"][2]) and y["args_end_at"][2] == x["started_at"][2]
    x.loc[2, "args_end_at"] = y["args_end_at"][2]
    assert values(x[TOOL_SHARED].stack(future_stack=True)) == values(y[TOOL_SHARED].stack(future_stack=True))
    # c2's arguments were not JSON: the export leaves them out, so they read back as none.
    assert ok == [True, False, True, True] and y["args_json_valid"].tolist() == [True] * 4
    assert x["args"].tolist()[0] == y["args"].tolist()[0] == {"q": "x"}
    # What the spans do not carry: per-piece times, the total, ids of messages.
    assert b["ttft_s"].isna().all() and b["total_tokens"].isna().all()
    assert a["total_tokens"].tolist()[0] == 135


def test_a_real_capture_reads_back_with_equal_runs_and_tool_calls(tmp_path: Path) -> None:
    before, after = _round_trip(CAPTURES / "pydantic_ai_runs.jsonl", tmp_path)
    a, b = runs_df(before), runs_df(after)
    assert len(a) == len(b) > 3
    assert values(a[RUN_SHARED].stack(future_stack=True)) == values(b[RUN_SHARED].stack(future_stack=True))
    x, y = tool_calls_df(before), tool_calls_df(after)
    assert values(x[[*TOOL_SHARED, "args"]].stack(future_stack=True)) == values(
        y[[*TOOL_SHARED, "args"]].stack(future_stack=True)
    )


def test_the_inspection_tools_take_spans() -> None:
    captured = instrumented_run("reasoning_tool_text")
    expect(captured.spans).tool_called("get_weather", city="Paris").text_contains("sunny")
    table = diff_runs(captured.spans, captured.events).table
    # The same conversation, but for what only one side carries: the user's question (the trace's input
    # messages; the stream has no input), TTFT (the stream's) and the duration (two clocks).
    assert table["change"].tolist() == ["text_removed", "ttft_s", "duration_s"]
    assert table["a"].tolist()[:2] == ["What's the weather?", None]
    forked = fork(captured.spans, tool_results={"call_w1": "rainy"})
    # The first chat span's input messages are the run's input: the user's question comes back with it.
    assert [m.role for m in forked.messages] == ["user", "reasoning", "assistant", "tool", "assistant"]
    assert (forked.messages[0].content, forked.messages[3].content) == ("What's the weather?", "rainy")
    assert summarize(captured.spans).loc["tool_latency_s", "count"] == 1
    inspector = inspect_run(captured.spans)
    assert (len(inspector.events), inspector.selected_event["type"]) == (18, "RUN_FINISHED")


# --- what is not spans, and garbled spans ------------------------------------------------------------------------


def test_bad_spans_are_located_errors_or_collected(tmp_path: Path) -> None:
    bad = export(
        span("01", None, "invoke_agent", 0, 10, gen_ai__operation__name="invoke_agent"), {"spanId": "x"}
    )
    path = tmp_path / "trace.jsonl"
    path.write_text(json.dumps(GENAI_TRACE) + "\n{oops\n" + json.dumps(bad) + "\n")
    with pytest.raises(EventParseError, match=r"trace.jsonl:2: invalid JSON") as error:
        load_events(path)
    assert error.value.line == 2
    with pytest.warns(Warning, match="skipped 2 unreadable"):
        df = load_events(path, errors="collect")
    assert [(p["line"], p["error"]) for p in df.attrs["errors"]] == [
        (2, "invalid JSON (unexpected character, expected a string key at column 2)"),
        (3, "resourceSpans[0].scopeSpans[0].spans[1]: traceId is missing, not a hex or base64 id"),
    ]
    assert runs_df(df)["status"].tolist() == ["success", "success"]
    with pytest.raises(
        EventParseError, match=r"<spans>:3: expected a span or an OTLP export object, got int"
    ):
        load_events([*instrumented_run("text").spans, 5])


_ANY_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
_FIELDS = ["traceId", "spanId", "parentSpanId", "name", "startTimeUnixNano", "endTimeUnixNano", "attributes", "status", "events"]  # fmt: skip


@st.composite
def _garbled(draw: st.DrawFn) -> Any:
    """A valid trace with random fields replaced by random values, removed, or its shape broken."""
    trace = json.loads(json.dumps(GENAI_TRACE))
    spans = trace["resourceSpans"][0]["scopeSpans"][0]["spans"]
    for _ in range(draw(st.integers(1, 4))):
        target = spans[draw(st.integers(0, len(spans) - 1))]
        field = draw(st.sampled_from(_FIELDS))
        how = draw(st.sampled_from(["replace", "remove", "attribute"]))
        if how == "remove":
            target.pop(field, None)
        elif how == "attribute":
            target.setdefault("attributes", [])
            if isinstance(target["attributes"], list):
                target["attributes"].append({"key": draw(st.sampled_from(["gen_ai.usage.input_tokens", "gen_ai.output.messages", "x"])), "value": draw(_ANY_JSON)})  # fmt: skip
        else:
            target[field] = draw(_ANY_JSON)
    if draw(st.booleans()):
        trace = draw(st.sampled_from([trace, [trace], {"resourceSpans": draw(_ANY_JSON)}, {"resourceSpans": [draw(_ANY_JSON)]}]))  # fmt: skip
    return trace


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_garbled(), st.sampled_from(["text", "object"]))
def test_garbled_otlp_json_raises_only_located_family_errors_or_loads(trace: Any, form: str) -> None:
    if form == "text":
        text = json.dumps(trace, default=str)
        if not text.startswith('{"resourceSpans"'):
            text = '{"resourceSpans": ' + text + "}"
        source: Any = text
    else:
        source = trace if isinstance(trace, dict) and "resourceSpans" in trace else {"resourceSpans": trace}
    try:
        df = load_events(source)
    except AguiNotebookError as error:
        assert isinstance(error, EventParseError) and error.line is not None
        assert str(error).startswith(f"{error.source}:{error.line}: ")
        return
    runs_df(df), tool_calls_df(df), messages_df(df)


def test_our_otlp_writer_agrees_with_the_sdk_spans() -> None:
    captured = instrumented_run("string_result")
    document = otlp_json(captured.spans)
    assert all(len(s["spanId"]) == 16 for s in document["resourceSpans"][0]["scopeSpans"][0]["spans"])
    a, b = load_events(json.dumps(document)), load_events(captured.spans)
    assert (
        a.drop(columns=["source", "line"]).astype(str).equals(b.drop(columns=["source", "line"]).astype(str))
    )


def test_nested_agents_lone_model_spans_and_our_run_statuses() -> None:
    trace = export(
        span("21", None, "invoke_agent outer", 0, 900, gen_ai__operation__name="invoke_agent"),
        span("22", "21", "invoke_agent inner", 100, 500, gen_ai__operation__name="invoke_agent"),
        span("23", "22", "chat m", 150, 450, gen_ai__operation__name="chat", gen_ai__usage__input_tokens=3),
        span("31", None, "chat lone", 1000, 1100, gen_ai__operation__name="chat", gen_ai__request__model="m2"),
        span("41", None, "invoke_agent", 2000, 2100, gen_ai__operation__name="invoke_agent",
             agui_notebook__run__status="interrupt", agui_notebook__run__interrupts='[{"id": "i1"}]'),
        span("51", None, "invoke_agent", 3000, 3100, "boom [E7]", gen_ai__operation__name="invoke_agent", error__type="E7"),
        span("61", None, "invoke_agent", 4000, 4100, gen_ai__operation__name="invoke_agent", agui_notebook__span__unfinished=True),
    )  # fmt: skip
    runs = runs_df(trace)
    assert values(runs["run_id"]) == ["21" * 8, "22" * 8, "31" * 8, "41" * 8, "51" * 8, "61" * 8]
    assert values(runs["parent_run_id"]) == [None, "21" * 8, None, None, None, None]
    assert values(runs["status"]) == ["success", "success", "success", "interrupt", "error", "incomplete"]
    assert values(runs["error"]) == [None, None, None, None, "boom [E7]", None]
    # The failed and the unfinished run name no model: they keep their thread's last one (logs/_run_models.py).
    assert values(runs["model"]) == [None, None, "m2", None, "m2", "m2"]
    assert values(runs["input_tokens"]) == [None, 3, None, None, None, None]
    ending = load_events(trace).query("type == 'RUN_FINISHED'")["event"].tolist()[3]
    assert ending["outcome"] == {"type": "interrupt", "interrupts": [{"id": "i1"}]}


def test_a_large_otlp_json_lines_file_is_read_whole_not_cut_into_slices(tmp_path: Path) -> None:
    from agui_notebook.logs._file_slices import split_large_files

    path = tmp_path / "big.jsonl"
    path.write_text(
        "\n".join(json.dumps(export(s)) for s in GENAI_TRACE["resourceSpans"][0]["scopeSpans"][0]["spans"])
    )
    assert split_large_files([str(path)], slice_bytes=100) == [str(path)]
    assert runs_df(str(path))["tool_calls"].tolist() == [1]  # the trace's four lines, one run


def test_without_the_conventions_packages_logs_still_load_and_spans_say_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import builtins
    import sys

    real_import = builtins.__import__

    def no_conventions(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith(("openinference", "opentelemetry.semconv")):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    import agui_notebook.logs

    for module in ("_traces", "_otel_names"):  # imported already: as if for the first time
        monkeypatch.delitem(sys.modules, f"agui_notebook.logs.{module}", raising=False)
        monkeypatch.delattr(agui_notebook.logs, module, raising=False)
    monkeypatch.setattr(builtins, "__import__", no_conventions)
    assert runs_df(known_events())["run_id"].tolist() == ["r1", "r2", "r3", "r4"]
    with pytest.raises(OptionalDependencyError, match=r"pip install 'agui-notebook\[otel\]'"):
        load_events(json.dumps(GENAI_TRACE))


def test_the_run_input_reads_back_from_the_input_messages() -> None:
    from agui_notebook.logs import to_otel_spans

    run_input = {"threadId": "t", "runId": "r", "messages": [
        {"id": "s", "role": "system", "content": "Be brief."},
        {"id": "u", "role": "user", "content": "Weather?"},
        {"id": "a", "role": "assistant", "content": "", "toolCalls": [
            {"id": "c0", "type": "function", "function": {"name": "w", "arguments": '{"x": 1}'}}]},
        {"id": "k", "role": "tool", "toolCallId": "c0", "content": "rain"},
    ]}  # fmt: skip
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": run_input, "timestamp": T0},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "Rain.", "timestamp": T0 + 10},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "timestamp": T0 + 20},
    ]
    back = load_events(to_otel_spans(events, content=True))["event"][0]["input"]["messages"]
    assert [(m["role"], m.get("content"), m.get("toolCalls"), m.get("toolCallId")) for m in back] == [
        ("system", "Be brief.", None, None),
        ("user", "Weather?", None, None),
        (
            "assistant",
            "",
            [{"id": "c0", "type": "function", "function": {"name": "w", "arguments": '{"x":1}'}}],
            None,
        ),
        ("tool", "rain", None, "c0"),
    ]
    assert fork(to_otel_spans(events, content=True)).messages[-1].content == "Rain."
