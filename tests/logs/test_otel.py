"""to_otel_spans / export_otel: the known log span by span, the real captures, odd logs, and real OTLP/HTTP."""

from __future__ import annotations

import builtins
import json
import threading
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import requests
from hypothesis import given, settings
from hypothesis import strategies as st
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
    ExportTraceServiceRequest,
    ExportTraceServiceResponse,
)
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from agui_notebook.logs import export_otel, to_otel_spans
from agui_notebook.logs._load import load_events
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from tests.logs.samples import CAPTURES, T0, jsonl, known_events
from tests.support.loopback import serve_on_loopback

MS = 1_000_000  # ns


def ns(ms: int) -> int:
    """Nanoseconds since the epoch of ``ms`` milliseconds after T0."""
    return (T0 + ms) * MS


def exported(events: Any, **options: Any) -> list[ReadableSpan]:
    """The spans ``export_otel`` hands the SDK's in-memory exporter."""
    exporter = InMemorySpanExporter()
    assert export_otel(events, exporter, **options) is SpanExportResult.SUCCESS
    return list(exporter.get_finished_spans())


def outline(spans: list[ReadableSpan]) -> list[tuple[Any, ...]]:
    """Per span: name, index of its parent, start and end (ms after T0), status and its description."""
    index = {span.context.span_id: i for i, span in enumerate(spans)}
    return [
        (
            span.name,
            None if span.parent is None else index[span.parent.span_id],
            (span.start_time - T0 * MS) / MS,
            (span.end_time - T0 * MS) / MS,
            span.status.status_code.name,
            span.status.description,
        )
        for span in spans
    ]


def check_valid(spans: list[ReadableSpan]) -> None:
    """Valid ids, unique span ids, one trace per root, parents inside their trace, no span ending early."""
    ids = [span.context.span_id for span in spans]
    assert len(set(ids)) == len(ids)
    by_id = {span.context.span_id: span for span in spans}
    roots = [span for span in spans if span.parent is None]
    assert len({span.context.trace_id for span in roots}) == len(roots)
    for span in spans:
        assert span.context.is_valid and span.context.trace_flags.sampled
        assert span.end_time >= span.start_time >= 0
        if span.parent is not None:
            assert span.parent.trace_id == span.context.trace_id
            assert span.parent.span_id in by_id
        for link in span.links:
            assert link.context.span_id in by_id


# --- the known log: every span by hand --------------------------------------------------------------------


def test_known_log_spans_by_hand() -> None:
    spans = exported(known_events())
    check_valid(spans)
    assert outline(spans) == [
        ("invoke_agent", None, 0, 3000, "UNSET", None),  # r1
        ("chat", 0, 0, 1500, "UNSET", None),  # reasoning, m1, c1 and c2 streamed: asked at RUN_STARTED
        ("chat", 0, 2400, 2700, "UNSET", None),  # m2: asked when the last tool result (c1) arrived
        ("execute_tool search", 1, 1400, 2400, "UNSET", None),  # c1: TOOL_CALL_END to its result
        ("execute_tool calc", 1, 1500, 2000, "ERROR", "division by zero"),  # c2
        ("invoke_agent", None, 5000, 5500, "ERROR", "model overloaded [529]"),  # r2
        ("chat", 5, 5000, 5300, "UNSET", None),
        ("execute_tool search", 6, 5300, 5500, "ERROR", "model overloaded [529]"),  # c3: no END, no result
        ("invoke_agent", None, 6000, 6100, "UNSET", None),  # r3: interrupted
        ("invoke_agent", None, 7000, 7200, "UNSET", None),  # r4: never finished, ends at its last event
        ("chat", 9, 7000, 7200, "UNSET", None),
        ("execute_tool calc", 10, 7200, 7200, "UNSET", None),  # c4: pending
    ]
    # Agent runs and model steps are calls to another service (CLIENT); tools run inside the agent.
    assert [span.kind for span in spans] == [
        SpanKind.INTERNAL if span.name.startswith("execute_tool") else SpanKind.CLIENT for span in spans
    ]
    r1, r1_step0, r1_step1, c1, c2, r2, r2_step, c3, r3, r4, r4_step, c4 = (dict(s.attributes) for s in spans)
    assert r1 == {
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.conversation.id": "t1",
        "gen_ai.usage.input_tokens": 120,
        "gen_ai.usage.output_tokens": 15,
        "gen_ai.usage.reasoning.output_tokens": 2,
        "gen_ai.usage.cache_read.input_tokens": 5,
        "gen_ai.response.time_to_first_chunk": pytest.approx(0.15),
        "agui_notebook.run.id": "r1",
        "agui_notebook.run.status": "success",
        "agui_notebook.usage.models": ("a", "b"),  # two models: neither is the request's model
        "agui_notebook.source": "<events>",
        "agui_notebook.events": 29,
    }
    assert r1_step0 == {
        "gen_ai.operation.name": "chat",
        "gen_ai.conversation.id": "t1",
        "gen_ai.response.time_to_first_chunk": pytest.approx(0.15),  # the reasoning chunk at 150 ms
        "agui_notebook.run.id": "r1",
        "agui_notebook.step.index": 0,
    }
    assert r1_step1["gen_ai.response.time_to_first_chunk"] == pytest.approx(0.2)  # 2400 -> 2600 ms
    assert r1_step1["agui_notebook.step.index"] == 1
    assert r2_step["gen_ai.response.time_to_first_chunk"] == pytest.approx(0.2)  # 5000 -> 5200 ms
    assert c1 == {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "search",
        "gen_ai.tool.call.id": "c1",
        "gen_ai.conversation.id": "t1",
        "agui_notebook.run.id": "r1",
        "agui_notebook.tool.status": "ok",
    }
    assert c2["error.type"] == "_OTHER" and c2["agui_notebook.tool.status"] == "error"
    assert r2["error.type"] == "529" and r2["agui_notebook.run.parent_id"] == "r1"
    assert r2["agui_notebook.run.status"] == "error" and "gen_ai.usage.input_tokens" not in r2
    assert [dict(link.attributes) for link in spans[5].links] == [{"agui_notebook.link": "parent_run"}]
    assert spans[5].links[0].context == spans[0].context
    assert c3["agui_notebook.span.unfinished"] is True and c3["error.type"] == "_OTHER"
    assert json.loads(r3["agui_notebook.run.interrupts"]) == [{"id": "i1", "reason": "approval"}]
    assert r3["agui_notebook.run.status"] == "interrupt" and "error.type" not in r3
    assert r4["agui_notebook.span.unfinished"] is True and r4["agui_notebook.run.status"] == "incomplete"
    assert "gen_ai.response.time_to_first_chunk" not in r4_step  # nothing was streamed
    assert c4["agui_notebook.span.unfinished"] is True and c4["agui_notebook.tool.status"] == "pending"
    assert not any("agui_notebook.span.unfinished" in a for a in (r1, r1_step0, c1, c2, r2, r3))


def test_ids_are_the_same_for_every_export_and_every_way_of_reading_the_log(known_log: Path) -> None:
    from_list, from_file, again = to_otel_spans(known_events()), to_otel_spans(known_log), exported(known_log)
    ids = [(s.context.trace_id, s.context.span_id, s.parent and s.parent.span_id) for s in from_list]
    assert ids == [(s.context.trace_id, s.context.span_id, s.parent and s.parent.span_id) for s in from_file]
    assert ids == [(s.context.trace_id, s.context.span_id, s.parent and s.parent.span_id) for s in again]
    from_frame = to_otel_spans(load_events(known_log))  # the events table itself
    assert [(s.context, s.start_time, s.end_time) for s in from_frame] == [
        (s.context, s.start_time, s.end_time) for s in from_file
    ]
    assert [(s.start_time, s.end_time) for s in from_list] == [(s.start_time, s.end_time) for s in from_file]
    assert from_file[0].attributes["agui_notebook.source"] == str(known_log)
    assert len({s.context.trace_id for s in from_list}) == 4  # one trace per run
    assert ids[0][0] != ids[0][1]


def test_known_times_are_nanoseconds_of_the_event_times() -> None:
    spans = to_otel_spans(known_events())
    assert (spans[0].start_time, spans[0].end_time) == (ns(0), ns(3000))
    assert (spans[3].start_time, spans[3].end_time) == (ns(1400), ns(2400))


def test_agent_name_content_and_resource() -> None:
    resource = Resource({"service.name": "weather-agent", "deployment.environment": "test"})
    spans = exported(known_events(), agent_name="Weather bot", content=True, resource=resource)
    assert spans[0].name == "invoke_agent Weather bot"
    assert spans[0].attributes["gen_ai.agent.name"] == "Weather bot"
    assert all(span.resource is resource for span in spans)
    assert spans[0].instrumentation_scope.name == "agui_notebook"
    c1, c2 = spans[3].attributes, spans[4].attributes
    assert json.loads(c1["gen_ai.tool.call.arguments"]) == {"q": "x"}
    assert c1["gen_ai.tool.call.result"] == "found it"
    # c2's arguments are not JSON: not recorded; its result (the text the agent got back) is, though it failed.
    assert "gen_ai.tool.call.arguments" not in c2 and c2["gen_ai.tool.call.result"] == "division"
    default = to_otel_spans(known_events())
    assert default[0].resource.attributes["service.name"] == "agui-notebook"
    assert "gen_ai.tool.call.arguments" not in default[3].attributes


def test_the_model_and_provider_a_run_reports_name_its_steps() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": T0},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "Hi", "timestamp": T0 + 40},
        {"type": "RUN_ERROR", "message": "cut off", "timestamp": T0 + 90, "usage": [
            {"provider": "openai", "model": "gpt-4o", "inputTokens": 7, "outputTokens": 1},
        ]},
    ]  # fmt: skip
    run, step = to_otel_spans(events)
    assert step.name == "chat gpt-4o"
    for span in (run, step):
        assert span.attributes["gen_ai.provider.name"] == "openai"
        assert span.attributes["gen_ai.request.model"] == span.attributes["gen_ai.response.model"] == "gpt-4o"
    assert (run.attributes["gen_ai.usage.input_tokens"], run.attributes["gen_ai.usage.output_tokens"]) == (
        7,
        1,
    )
    assert run.status.status_code is StatusCode.ERROR and run.status.description == "cut off"
    assert run.attributes["error.type"] == "_OTHER"  # RUN_ERROR without a code
    assert step.attributes["gen_ai.response.time_to_first_chunk"] == pytest.approx(0.04)


# --- the real captures --------------------------------------------------------------------------------------


def test_pydantic_ai_captures_become_one_trace_per_run() -> None:
    log = CAPTURES / "pydantic_ai_runs.jsonl"
    spans = exported(log)
    check_valid(spans)
    events = load_events(log)
    runs, tools = runs_df(events), tool_calls_df(events)
    roots = [span for span in spans if span.parent is None]
    assert [span.attributes["agui_notebook.run.id"] for span in roots] == runs["run_id"].astype(str).tolist()
    for root, run in zip(roots, runs.itertuples(), strict=True):
        assert root.name == "invoke_agent"
        assert (root.start_time, root.end_time) == (run.started_at.value, run.finished_at.value)
        assert root.attributes["gen_ai.conversation.id"] == run.thread_id
        assert root.attributes["gen_ai.response.time_to_first_chunk"] == pytest.approx(run.ttft_s)
        if run.status == "error":
            assert root.status.status_code is StatusCode.ERROR and root.status.description == run.error
            assert "gen_ai.usage.input_tokens" not in root.attributes
        else:
            assert root.status.status_code is StatusCode.UNSET
            assert root.attributes["gen_ai.usage.input_tokens"] == run.input_tokens
            assert root.attributes["gen_ai.usage.output_tokens"] == run.output_tokens
            assert root.attributes["gen_ai.request.model"] == f"function::{run.run_id}"
            assert root.attributes["gen_ai.response.model"] == f"function::{run.run_id}"
    in_trace = {root.attributes["agui_notebook.run.id"]: root.context.trace_id for root in roots}
    steps: dict[str, list[str]] = {}
    for span in spans:
        run_id = span.attributes["agui_notebook.run.id"]
        assert span.context.trace_id == in_trace[run_id]
        if span.attributes["gen_ai.operation.name"] == "chat":
            steps.setdefault(run_id, []).append(span.name)
    assert steps == {
        "text_only": ["chat function::text_only"],
        "reasoning_tool_text": ["chat function::reasoning_tool_text"] * 2,
        "parallel_tools": ["chat function::parallel_tools"] * 2,
        "retried_tool": ["chat function::retried_tool"] * 2,
        "crashing_tool": ["chat"],  # RUN_ERROR reports no usage, so no model
        "needs_approval": ["chat function::needs_approval"],
    }
    tool_spans = [span for span in spans if span.attributes["gen_ai.operation.name"] == "execute_tool"]
    by_id = {span.context.span_id: span for span in spans}
    assert [s.attributes["gen_ai.tool.call.id"] for s in tool_spans] == tools["tool_call_id"].astype(
        str
    ).tolist()
    for span, call in zip(tool_spans, tools.itertuples(), strict=True):
        assert span.name == f"execute_tool {call.tool_name}"
        assert span.attributes["gen_ai.tool.name"] == call.tool_name
        parent = by_id[span.parent.span_id]
        assert (
            parent.attributes["gen_ai.operation.name"] == "chat"
            and parent.attributes["agui_notebook.step.index"] == 0
        )
        assert span.start_time == call.args_end_at.value
        if call.status == "pending":  # needs_approval: waits for approval, ends with the run
            assert span.end_time == by_id[parent.parent.span_id].end_time
            assert span.attributes["agui_notebook.span.unfinished"] is True
        else:
            assert span.end_time == call.result_at.value
        failed = call.status == "error"
        assert span.status.status_code is (StatusCode.ERROR if failed else StatusCode.UNSET)
        assert span.status.description == (call.error if failed else None)
    assert [s.status.description for s in tool_spans if s.status.status_code is StatusCode.ERROR] == [
        "retried: lookup of 'x' failed: backend unavailable",
        "lookup service crashed on 'y'",  # the run's error: the only call open when it failed
    ]
    approval = next(r for r in roots if r.attributes["agui_notebook.run.id"] == "needs_approval")
    [interrupt] = json.loads(approval.attributes["agui_notebook.run.interrupts"])
    assert (interrupt["id"], interrupt["toolCallId"]) == ("int-call_d", "call_d")
    # A step's span lies within its run's; the second step starts when the tool results are in.
    for span in spans:
        if span.attributes["gen_ai.operation.name"] == "chat":
            root = by_id[span.parent.span_id]
            assert root.start_time <= span.start_time <= span.end_time <= root.end_time
    second = next(
        s
        for s in spans
        if s.attributes["agui_notebook.run.id"] == "parallel_tools"
        and s.attributes.get("agui_notebook.step.index") == 1
    )
    results = tools[tools["run_id"] == "parallel_tools"]["result_at"]
    assert second.start_time == results.max().value


def test_ai_sdk_stream_capture_uses_its_steps() -> None:
    spans = exported(CAPTURES / "pydantic_ai_ui_stream.jsonl")
    check_valid(spans)
    events = load_events(CAPTURES / "pydantic_ai_ui_stream.jsonl")
    step_times = events[events["type"].isin(["STEP_STARTED", "STEP_FINISHED"])]["time"].tolist()
    assert [(s.name, s.attributes.get("agui_notebook.step.name")) for s in spans] == [
        ("invoke_agent", None),
        ("chat", "step-1"),
        ("chat", "step-2"),
        ("execute_tool get_weather", None),
    ]
    assert [(s.start_time, s.end_time) for s in spans[1:3]] == [
        (step_times[0].value, step_times[1].value),
        (step_times[2].value, step_times[3].value),
    ]
    assert spans[3].parent == spans[1].context


def test_sse_capture_times_are_the_producer_milliseconds() -> None:
    spans = to_otel_spans(CAPTURES / "pydantic_ai_run.sse")
    check_valid(spans)
    assert [s.name for s in spans] == ["invoke_agent", "chat", "chat", "execute_tool get_weather"]
    assert all(s.start_time % MS == 0 and s.end_time % MS == 0 for s in spans)


def test_several_files_with_the_same_run_ids_keep_their_runs_apart(tmp_path: Path) -> None:
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_bytes(jsonl(known_events()))
    spans = to_otel_spans(tmp_path)
    check_valid(spans)
    one = to_otel_spans(known_events())
    assert len(spans) == 2 * len(one)
    assert outline(spans[: len(one)]) == outline(spans[len(one) :]) == outline(one)
    # The copy is the second occurrence of each run: its own traces, each tool under its own run.
    assert spans[0].context.trace_id == one[0].context.trace_id
    assert spans[len(one)].context.trace_id != one[0].context.trace_id
    assert [s.attributes["agui_notebook.source"] for s in spans if s.parent is None] == [
        str(tmp_path / "a.jsonl")
    ] * 4 + [str(tmp_path / "b.jsonl")] * 4


# --- odd logs -----------------------------------------------------------------------------------------------


def test_a_log_without_any_time_is_placed_at_the_epoch_and_says_so() -> None:
    events = [{k: v for k, v in event.items() if k != "timestamp"} for event in known_events()]
    spans = to_otel_spans(events)
    check_valid(spans)
    assert [s.name for s in spans] == [s.name for s in to_otel_spans(known_events())]
    assert {(s.start_time, s.end_time) for s in spans} == {(0, 0)}
    assert spans[0].attributes["agui_notebook.span.untimed"] is True
    assert "gen_ai.response.time_to_first_chunk" not in spans[0].attributes


def test_unfinished_steps_runs_and_orphans() -> None:
    events = [
        {
            "type": "TOOL_CALL_RESULT",
            "toolCallId": "nobody",
            "messageId": "x",
            "content": "?",
            "timestamp": 1,
        },
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 1000},
        {"type": "STEP_STARTED", "stepName": "outer", "timestamp": 1100},
        {"type": "STEP_STARTED", "stepName": "inner", "timestamp": 1200},
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant", "timestamp": 1250},
        {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "hi", "timestamp": 1300},
        {"type": "STEP_FINISHED", "stepName": "inner", "timestamp": 1400},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "t", "timestamp": 1500},
        {"type": "CUSTOM", "name": "late", "value": 1, "timestamp": 1900},
    ]
    spans = to_otel_spans(events)
    check_valid(spans)
    start = 1000 * MS
    assert [(s.name, s.attributes.get("agui_notebook.step.name")) for s in spans] == [
        ("invoke_agent", None),
        ("chat", "outer"),
        ("chat", "inner"),
        ("execute_tool t", None),
    ]
    run, outer, inner, tool = spans
    assert (run.start_time - start, run.end_time - start) == (0, 900 * MS)  # the last event seen
    assert (outer.start_time - start, outer.end_time - start) == (100 * MS, 900 * MS)
    assert (inner.start_time - start, inner.end_time - start) == (200 * MS, 400 * MS)
    assert inner.parent == outer.context and outer.parent == run.context and tool.parent == outer.context
    assert inner.attributes["gen_ai.response.time_to_first_chunk"] == pytest.approx(0.1)
    assert run.attributes["agui_notebook.span.unfinished"] is True
    assert outer.attributes["agui_notebook.span.unfinished"] is True
    assert "agui_notebook.span.unfinished" not in inner.attributes
    assert (tool.start_time - start, tool.end_time - start) == (500 * MS, 900 * MS)
    assert tool.attributes["agui_notebook.span.unfinished"] is True
    assert tool.status.status_code is StatusCode.UNSET


def test_empty_and_runless_logs_have_no_spans() -> None:
    assert to_otel_spans([]) == []
    assert to_otel_spans([{"type": "CUSTOM", "name": "x", "value": 1}]) == []
    assert to_otel_spans(pd.DataFrame(load_events([]))) == []


_EVENT = st.one_of(
    st.builds(
        lambda kind, i: {"type": kind, "threadId": "t", "runId": f"r{i}"},
        st.sampled_from(["RUN_STARTED", "RUN_FINISHED"]),
        st.integers(0, 2),
    ),
    st.builds(lambda: {"type": "RUN_ERROR", "message": "boom"}),
    st.builds(
        lambda kind, i: {"type": kind, "stepName": f"s{i}"},
        st.sampled_from(["STEP_STARTED", "STEP_FINISHED"]),
        st.integers(0, 1),
    ),
    st.builds(
        lambda kind, i, delta: {"type": kind, "messageId": f"m{i}", "delta": delta, "role": "assistant"},
        st.sampled_from(
            ["TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "REASONING_MESSAGE_CONTENT"]
        ),
        st.integers(0, 2),
        st.sampled_from(["", "a", "bc"]),
    ),
    st.builds(
        lambda kind, i, delta: {
            "type": kind,
            "toolCallId": f"c{i}",
            "toolCallName": "f",
            "delta": delta,
            "content": "ok",
            "messageId": f"res{i}",
        },
        st.sampled_from(["TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT"]),
        st.integers(0, 2),
        st.sampled_from(["", "{", "{}"]),
    ),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_EVENT, st.one_of(st.none(), st.integers(0, 50))), max_size=25))
def test_any_event_sequence_exports_valid_spans(items: list[tuple[dict[str, Any], int | None]]) -> None:
    events = [event if ms is None else {**event, "timestamp": T0 + ms * 10} for event, ms in items]
    spans = exported(events)
    check_valid(spans)
    runs = runs_df(load_events(events))
    assert sum(span.parent is None for span in spans) == len(runs)
    for span in spans:
        if span.parent is not None:
            parent = next(s for s in spans if s.context == span.parent)
            assert parent.attributes["gen_ai.operation.name"] in ("invoke_agent", "chat")
    # With the conversation, read back: the same runs, in the same states, with the same text (in the order of
    # their spans' starts: an untimed run is placed at the epoch, before the timed ones).
    back = runs_df(to_otel_spans(events, content=True))
    facts = ["status", "tool_calls"]
    if not any(
        event["type"].startswith("STEP_") for event in events
    ):  # else output outside a step has no span
        facts += ["text_chars", "reasoning_chars"]
    assert sorted(map(tuple, back[facts].values.tolist())) == sorted(map(tuple, runs[facts].values.tolist()))


# --- the real OTLP/HTTP exporter against a receiver on 127.0.0.1 ---------------------------------------------


class Receiver:
    """An OTLP/HTTP trace receiver: decodes each ExportTraceServiceRequest, answers ``status``."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.requests: list[ExportTraceServiceRequest] = []
        self.content_types: list[str] = []
        self.lock = threading.Lock()

    async def traces(self, request: Request) -> Response:
        body = await request.body()
        message = ExportTraceServiceRequest()
        message.ParseFromString(body)
        with self.lock:
            self.requests.append(message)
            self.content_types.append(request.headers.get("content-type", ""))
        if self.status != 200:
            return Response(b"refused", status_code=self.status)
        answer = ExportTraceServiceResponse().SerializeToString()
        return Response(answer, media_type="application/x-protobuf")

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/v1/traces", self.traces, methods=["POST"])])


def otlp_exporter(url: str) -> OTLPSpanExporter:
    session = requests.Session()
    session.trust_env = False  # straight to 127.0.0.1, whatever proxy the environment names
    return OTLPSpanExporter(endpoint=f"{url}/v1/traces", timeout=10, session=session)


def _attributes(span: Any) -> dict[str, Any]:
    out = {}
    for item in span.attributes:
        value = item.value
        kind = value.WhichOneof("value")
        out[item.key] = (
            tuple(v.string_value for v in value.array_value.values)
            if kind == "array_value"
            else getattr(value, kind)
        )
    return out


def test_otlp_http_export_arrives_whole() -> None:
    receiver = Receiver()
    ours = to_otel_spans(known_events(), agent_name="Weather bot")
    with serve_on_loopback(receiver.app()) as url:
        exporter = otlp_exporter(url)
        try:
            result = export_otel(known_events(), exporter, agent_name="Weather bot", batch_size=5)
        finally:
            exporter.shutdown()
    assert result is SpanExportResult.SUCCESS
    assert len(receiver.requests) == 3  # 12 spans in batches of 5
    assert set(receiver.content_types) == {"application/x-protobuf"}
    arrived = [
        (resource_spans, span)
        for message in receiver.requests
        for resource_spans in message.resource_spans
        for scope_spans in resource_spans.scope_spans
        for span in scope_spans.spans
    ]
    assert len(arrived) == len(ours) == 12
    for (resource_spans, span), mine in zip(arrived, ours, strict=True):
        resource = {a.key: a.value.string_value for a in resource_spans.resource.attributes}
        assert resource["service.name"] == "agui-notebook"
        assert span.name == mine.name
        assert span.trace_id == mine.context.trace_id.to_bytes(16, "big")
        assert span.span_id == mine.context.span_id.to_bytes(8, "big")
        assert span.parent_span_id == (mine.parent.span_id.to_bytes(8, "big") if mine.parent else b"")
        assert (span.start_time_unix_nano, span.end_time_unix_nano) == (mine.start_time, mine.end_time)
        assert span.status.code == mine.status.status_code.value
        assert span.status.message == (mine.status.description or "")
        assert _attributes(span) == dict(mine.attributes)
    r1 = _attributes(arrived[0][1])
    assert r1["gen_ai.usage.input_tokens"] == 120 and r1["gen_ai.agent.name"] == "Weather bot"
    assert arrived[0][1].kind == 3  # SPAN_KIND_CLIENT
    assert [link.span_id for link in arrived[5][1].links] == [arrived[0][1].span_id]


def test_otlp_http_export_a_refusing_receiver_is_a_failure_result() -> None:
    receiver = Receiver(status=400)  # a client error: the exporter does not retry it
    with serve_on_loopback(receiver.app()) as url:
        exporter = otlp_exporter(url)
        try:
            result = export_otel(known_events(), exporter, batch_size=5)
        finally:
            exporter.shutdown()
    assert result is SpanExportResult.FAILURE
    assert len(receiver.requests) == 1  # the first batch was refused; the rest were not sent


# --- the optional dependency ---------------------------------------------------------------------------------


def test_without_the_sdk_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_sdk(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("opentelemetry"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_sdk)
    with pytest.raises(ImportError, match=r"pip install 'agui-notebook\[otel\]'"):
        to_otel_spans(known_events())


# --- content: the conversation per the GenAI conventions ------------------------------------------------------


def test_content_adds_each_steps_conversation_per_the_genai_conventions() -> None:
    run_input = {
        "threadId": "t", "runId": "r", "state": None, "tools": [], "context": [], "forwardedProps": None,
        "messages": [
            {"id": "s", "role": "system", "content": "Be brief."},
            {"id": "u", "role": "user", "content": "Weather in Paris?"},
        ],
    }  # fmt: skip
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "input": run_input, "timestamp": T0},
        {"type": "REASONING_MESSAGE_CHUNK", "messageId": "th", "delta": "Look it up.", "timestamp": T0 + 10},
        {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "weather", "timestamp": T0 + 20},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"city": "Paris"}', "timestamp": T0 + 30},
        {"type": "TOOL_CALL_END", "toolCallId": "c1", "timestamp": T0 + 40},
        {"type": "TOOL_CALL_RESULT", "messageId": "res", "toolCallId": "c1", "content": "sunny", "timestamp": T0 + 90},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "Sunny.", "timestamp": T0 + 120},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "timestamp": T0 + 150},
    ]  # fmt: skip
    run, step1, step2, tool = to_otel_spans(events, content=True)
    asked = [{"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]}]
    called = {
        "role": "assistant",
        "parts": [
            {"type": "reasoning", "content": "Look it up."},
            {"type": "tool_call", "id": "c1", "name": "weather", "arguments": {"city": "Paris"}},
        ],
    }
    answered = {
        "role": "assistant",
        "parts": [{"type": "text", "content": "Sunny."}],
        "finish_reason": "stop",
    }
    system = [{"type": "text", "content": "Be brief."}]
    assert json.loads(step1.attributes["gen_ai.input.messages"]) == asked
    assert json.loads(step1.attributes["gen_ai.output.messages"]) == [
        {**called, "finish_reason": "tool_call"}
    ]
    assert step1.attributes["gen_ai.response.finish_reasons"] == ("tool_call",)
    assert json.loads(step2.attributes["gen_ai.input.messages"]) == [
        *asked,
        called,
        {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": "sunny"}]},
    ]
    assert json.loads(step2.attributes["gen_ai.output.messages"]) == [answered]
    assert step2.attributes["gen_ai.response.finish_reasons"] == ("stop",)
    for span in (run, step1, step2):
        assert json.loads(span.attributes["gen_ai.system_instructions"]) == system
    assert json.loads(run.attributes["gen_ai.input.messages"]) == asked
    assert json.loads(run.attributes["gen_ai.output.messages"]) == [
        {**called, "finish_reason": "tool_call"},
        answered,
    ]
    assert run.attributes["gen_ai.response.finish_reasons"] == ("stop",)
    assert json.loads(tool.attributes["gen_ai.tool.call.arguments"]) == {"city": "Paris"}
    # Without content=True none of it is there.
    plain = to_otel_spans(events)
    assert not any(
        key.startswith(("gen_ai.input", "gen_ai.output", "gen_ai.system"))
        for s in plain
        for key in s.attributes
    )
    assert not any("gen_ai.response.finish_reasons" in s.attributes for s in plain)


def test_content_of_a_failed_run_ends_with_an_error_finish_reason() -> None:
    events = [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": T0},
        {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "Part", "timestamp": T0 + 10},
        {"type": "RUN_ERROR", "message": "overloaded", "timestamp": T0 + 20},
    ]
    run, step = to_otel_spans(events, content=True)
    assert "gen_ai.input.messages" not in step.attributes  # the log holds no run input
    assert json.loads(step.attributes["gen_ai.output.messages"]) == [
        {"role": "assistant", "parts": [{"type": "text", "content": "Part"}], "finish_reason": "error"}
    ]
    assert run.attributes["gen_ai.response.finish_reasons"] == ("error",)
