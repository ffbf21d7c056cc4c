"""OTLP/JSON as the OTLP file exporter and the collector write it, and instrumented pydantic-ai runs.

``OtlpJsonFileExporter`` encodes each batch with the OTLP protobuf encoder (``encode_spans``), maps it to JSON
with protobuf's own mapping, and writes the ids in hex as the OTLP/JSON encoding says (protobuf's mapping writes
bytes as base64): one ``ExportTraceServiceRequest`` per line.
"""

from __future__ import annotations

import asyncio
import base64
import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ag_ui.core import RunAgentInput, UserMessage
from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pydantic_ai.exceptions import PydanticAIDeprecationWarning
from pydantic_ai.models.instrumented import InstrumentationSettings
from pydantic_ai.ui.ag_ui import AGUIAdapter

from tests.support.pydantic_ai_runs import PROMPT, SCENARIOS, make_agent


def _hex_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key: base64.b64decode(item).hex()
            if key in ("traceId", "spanId", "parentSpanId")
            else _hex_ids(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [_hex_ids(item) for item in value]
    return value


def otlp_json(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """One OTLP/JSON export object of ``spans``."""
    return _hex_ids(MessageToDict(encode_spans(spans)))


class OtlpJsonFileExporter(SpanExporter):
    """Appends each batch to a file as one line of OTLP/JSON."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        with self.path.open("a") as handle:
            handle.write(json.dumps(otlp_json(spans)) + "\n")
        return SpanExportResult.SUCCESS

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        return True


@dataclass
class InstrumentedRun:
    """One pydantic-ai run, both streamed through ``AGUIAdapter`` and traced by its instrumentation."""

    events: list[dict[str, Any]]
    spans: list[ReadableSpan]


async def _instrumented_run(name: str, version: int, include_content: bool) -> InstrumentedRun:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    agent = make_agent(SCENARIOS[name])
    with warnings.catch_warnings():  # formats before 5 are deprecated: read here because traces of them exist
        warnings.simplefilter("ignore", PydanticAIDeprecationWarning)
        agent.instrument = InstrumentationSettings(
            tracer_provider=provider, include_content=include_content, version=version
        )
    run_input = RunAgentInput(
        thread_id="thread-1",
        run_id="run-1",
        messages=[UserMessage(id="user-1", content=PROMPT)],
        state=None,
        tools=[],
        context=[],
        forwarded_props=None,
        protocol_version="1.0",
    )
    adapter = AGUIAdapter(agent=agent, run_input=run_input, include_usage=True)
    events = [
        json.loads(event.model_dump_json(by_alias=True, exclude_none=True))
        async for event in adapter.run_stream()
    ]
    return InstrumentedRun(events, list(exporter.get_finished_spans()))


def instrumented_run(name: str, *, version: int = 5, include_content: bool = True) -> InstrumentedRun:
    """Scenario ``name`` of ``tests/support/pydantic_ai_runs.py`` run once, streamed and traced."""
    return asyncio.run(_instrumented_run(name, version, include_content))
