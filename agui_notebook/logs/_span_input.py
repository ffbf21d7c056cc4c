"""What a span input looks like: OTLP/JSON text and in-memory spans, told apart from event logs.

Nothing here needs OpenTelemetry installed: ``load_events`` asks these questions of every input, and only an
input that is spans goes on to ``_traces`` (which does).

>>> is_otlp_json(b'  {"resourceSpans": []}'), is_otlp_json(b'{"type": "RUN_STARTED"}')
(True, False)
"""

from __future__ import annotations

import re
from typing import Any

from agui_notebook.wire._reader import BOM

__all__ = ["OTLP_HEAD_BYTES", "RESOURCE_SPANS", "is_otlp_json", "is_span", "span_items"]

RESOURCE_SPANS = "resourceSpans"
"""The one key of an OTLP/JSON trace export (``ExportTraceServiceRequest``): what marks a line or document
as spans."""
OTLP_HEAD_BYTES = 256
"""How many bytes of a text ``is_otlp_json`` needs to see."""

_OTLP_START = re.compile(rb'\s*\{\s*"' + RESOURCE_SPANS.encode() + rb'"\s*:')


def is_otlp_json(head: bytes) -> bool:
    """Whether a text (its first ``OTLP_HEAD_BYTES``) is OTLP/JSON spans: an object whose first key is
    ``resourceSpans`` (one export per line, or one document)."""
    return _OTLP_START.match(head[len(BOM) :] if head.startswith(BOM) else head) is not None


def is_span(item: Any) -> bool:
    """Whether an in-memory item is a finished OpenTelemetry span (an SDK ``ReadableSpan``)."""
    return (
        not isinstance(item, dict)
        and callable(getattr(item, "get_span_context", None))
        and hasattr(item, "attributes")
        and hasattr(item, "start_time")
    )


def _is_export(item: Any) -> bool:
    return type(item) is dict and RESOURCE_SPANS in item


def span_items(source: Any) -> list[Any] | None:
    """The spans a ``load_events`` input holds, or None when it is no span input: a span, a list of spans or
    of OTLP/JSON export objects (decoded), one such object, or an exporter that keeps its spans (the SDK's
    ``InMemorySpanExporter``)."""
    if is_span(source) or _is_export(source):
        return [source]
    finished = getattr(source, "get_finished_spans", None)
    if callable(finished) and not isinstance(source, (list, tuple, dict)):
        return list(finished())
    if isinstance(source, (list, tuple)) and source and (is_span(source[0]) or _is_export(source[0])):
        return list(source)
    return None
