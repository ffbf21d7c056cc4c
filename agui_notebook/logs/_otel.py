"""Event logs as OpenTelemetry spans, after the GenAI semantic conventions: ``to_otel_spans``, ``export_otel``.

One trace per run. Its root is the run's ``invoke_agent`` span; under it one span per model step, and under
each step the ``execute_tool`` spans of the tool calls the step made::

    invoke_agent                 RUN_STARTED .. RUN_FINISHED / RUN_ERROR
    ├── chat {model}             a model step: its request to its last streamed output
    │   ├── execute_tool search  TOOL_CALL_END .. TOOL_CALL_RESULT
    │   └── execute_tool calc
    └── chat {model}

The timings come from the log tables (``runs_df``, ``messages_df``, ``tool_calls_df``); only the split of a
run into steps is read from the events here. A run whose log has STEP_STARTED / STEP_FINISHED gets one step
span per STEP_STARTED (from it to its STEP_FINISHED, nested as the steps nest, named in
``agui_notebook.step.name``). Any other run is split at its tool results: a step is the model output up to
the next TOOL_CALL_RESULT, from when the model was asked (RUN_STARTED for the first step, the last tool
result before it for the others) to its last output event. A tool span's parent is the step its
TOOL_CALL_START fell in. What each attribute holds is in docs/metrics.md.

The SDK is optional: ``pip install 'agui-notebook[otel]'``.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeAlias, overload

import numpy as np
import orjson
import pandas as pd

from agui_notebook._errors import OptionalDependencyError, OptionError
from agui_notebook._options import keyword_options
from agui_notebook._shown import shown

from .._types import EventsOrSource
from .._version import __version__
from . import _otel_names as names
from ._genai_messages import (
    FINISH_ERROR,
    FINISH_STOP,
    FINISH_TOOL_CALL,
    agui_input_messages,
    message,
    reasoning_part,
    text_part,
    tool_call_part,
    tool_response_part,
)
from ._kinds import DELTA_TYPES, MESSAGE_TYPES, RUN_END_TYPES, TOOL_CALL_TYPES
from ._load import events_table, recorded_run_inputs
from .tables._messages import messages_df
from .tables._runs import runs_df
from .tables._tool_calls import tool_calls_df

if TYPE_CHECKING:
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import ReadableSpan
    from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult

__all__ = ["export_otel", "to_otel_spans"]

Record: TypeAlias = "dict[Hashable, Any]"
"""One row of a logs table as ``DataFrame.to_dict("records")`` gives it."""

UNFINISHED = names.UNFINISHED
NO_TIMES = names.NO_TIMES

_STEP_TYPES = frozenset({"STEP_STARTED", "STEP_FINISHED"})
_OUTPUT_TYPES = (MESSAGE_TYPES | TOOL_CALL_TYPES) - {"TOOL_CALL_RESULT"}


def _sdk() -> Any:
    try:
        from opentelemetry import trace
        from opentelemetry.sdk import resources
        from opentelemetry.sdk import trace as sdk_trace
        from opentelemetry.sdk.util import instrumentation
    except ImportError:
        raise OptionalDependencyError(
            "OpenTelemetry export needs opentelemetry-sdk: pip install 'agui-notebook[otel]'"
        ) from None
    return trace, sdk_trace, resources, instrumentation


# --- ids: the same log gives the same ids, wherever it was read from -------------------------------------


def _digest(key: str, size: int) -> int:
    value = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=size).digest(), "big")
    return value or 1  # an all-zero id is invalid


# --- what the tables do not hold: steps, the end of unfinished runs, the usage entries -------------------


@dataclass
class _Step:
    index: int
    name: str | None  # stepName of a STEP_STARTED step, None for a step split at tool results
    start: int | None
    end: int | None = None  # STEP_FINISHED time (step events only)
    parent: int | None = None  # enclosing step (step events only)
    first_chunk: int | None = None
    finished: bool = True
    messages: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)


@dataclass
class _RunEvents:
    steps: list[_Step] = field(default_factory=list)
    last_time: int | None = None
    ending: dict[str, Any] | None = None


def _ns(value: Any) -> int | None:
    """A timestamp (or int64 nanoseconds) as int nanoseconds, None when missing."""
    if value is None or value is pd.NaT or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return int(value.value)
    return int(value)


def _read_runs(frame: pd.DataFrame, starts: dict[str, int | None]) -> dict[str, _RunEvents]:
    """Steps, last event time and ending event of each run of one source, from one pass over its events."""
    runs: dict[str, _RunEvents] = {}
    run_ids = frame["run_key"].to_numpy(dtype=object)  # a run id used twice is two runs
    types = frame["type"].to_numpy(dtype=object)
    times = frame["time"].to_numpy(dtype="datetime64[ns]").view(np.int64)
    missing = np.iinfo(np.int64).min
    for run_id, time in (
        pd.DataFrame({"run": run_ids, "time": times})[times != missing].groupby("run")["time"].max().items()
    ):
        runs.setdefault(run_id, _RunEvents()).last_time = int(time)
    has_steps = set(run_ids[np.isin(types, list(_STEP_TYPES))].tolist())
    wanted = np.isin(types, list(_OUTPUT_TYPES | _STEP_TYPES | RUN_END_TYPES | {"TOOL_CALL_RESULT"}))
    rows = np.flatnonzero(wanted & pd.notna(run_ids))
    message_ids = frame["message_id"].to_numpy(dtype=object)
    call_ids = frame["tool_call_id"].to_numpy(dtype=object)
    step_names = frame["step_name"].to_numpy(dtype=object)
    chars = frame["chars"].to_numpy()
    events = frame["event"].array
    placed: dict[str, set[tuple[bool, str]]] = {}
    open_steps: dict[str, list[_Step]] = {}
    last_result: dict[str, int | None] = {}
    after_result: dict[str, bool] = {}
    for row in rows.tolist():
        run_id, kind = run_ids[row], types[row]
        time = None if times[row] == missing else int(times[row])
        run = runs.setdefault(run_id, _RunEvents())
        if kind in RUN_END_TYPES:
            event = events[row]
            run.ending = event if isinstance(event, dict) else None
            continue
        if run_id in has_steps:
            stack = open_steps.setdefault(run_id, [])
            if kind == "STEP_STARTED":
                parent = stack[-1].index if stack else None
                step = _Step(len(run.steps), _text(step_names[row]) or "", time, parent=parent)
                run.steps.append(step)
                stack.append(step)
                continue
            if kind == "STEP_FINISHED":
                name = _text(step_names[row]) or ""
                match = next((s for s in reversed(stack) if s.name == name), stack[-1] if stack else None)
                if match is not None:
                    match.end = time
                    del stack[stack.index(match) :]
                continue
            if kind == "TOOL_CALL_RESULT" or not stack:
                continue
            step = stack[-1]
        else:
            if kind == "TOOL_CALL_RESULT":
                last_result[run_id] = time if time is not None else last_result.get(run_id)
                after_result[run_id] = True
                continue
            if not run.steps or after_result.get(run_id):
                start = last_result.get(run_id) if run.steps else starts.get(run_id)
                run.steps.append(_Step(len(run.steps), None, start))
                after_result[run_id] = False
            step = run.steps[-1]
        seen = placed.setdefault(run_id, set())
        for is_call, ids, members in ((False, message_ids, step.messages), (True, call_ids, step.tools)):
            value = ids[row]
            if isinstance(value, str) and (is_call or kind in MESSAGE_TYPES) and (is_call, value) not in seen:
                seen.add((is_call, value))
                members.append(value)
        if step.first_chunk is None and time is not None and kind in DELTA_TYPES and chars[row] > 0:
            step.first_chunk = time
    for stack in open_steps.values():
        for step in stack:
            step.finished = False
    return runs


@overload
def _either(value: int | None, fallback: int) -> int: ...
@overload
def _either(value: int | None, fallback: int | None) -> int | None: ...
def _either(value: int | None, fallback: int | None) -> int | None:
    return value if value is not None else fallback


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _usage_names(ending: dict[str, Any] | None, key: str) -> list[str]:
    entries = ending.get("usage") if ending else None
    if isinstance(entries, dict):
        entries = [entries]
    if not isinstance(entries, list):
        return []
    names = [e[key] for e in entries if isinstance(e, dict) and isinstance(e.get(key), str) and e[key]]
    return list(dict.fromkeys(names))


# --- spans ----------------------------------------------------------------------------------------------


class _SpanMaker:
    def __init__(self, resource: Resource | None) -> None:
        trace, sdk_trace, resources, instrumentation = _sdk()
        self.trace = trace
        self.sdk_trace = sdk_trace
        self.resource = resource or resources.Resource.create({"service.name": "agui-notebook"})
        self.scope = instrumentation.InstrumentationScope("agui_notebook", __version__)
        self.spans: list[ReadableSpan] = []

    def context(self, trace_id: int, span_id: int) -> Any:
        trace = self.trace
        return trace.SpanContext(trace_id, span_id, is_remote=False, trace_flags=trace.TraceFlags(1))

    def add(
        self,
        name: str,
        context: Any,
        parent: Any,
        kind: str,
        start: int,
        end: int,
        attributes: dict[str, Any],
        error: str | None = None,
        links: Sequence[Any] = (),
    ) -> None:
        trace = self.trace
        status = (
            trace.Status(trace.StatusCode.ERROR, error)
            if error is not None
            else trace.Status(trace.StatusCode.UNSET)
        )
        span = self.sdk_trace.ReadableSpan(
            name,
            context=context,
            parent=parent,
            resource=self.resource,
            attributes={k: v for k, v in attributes.items() if v is not None},
            links=links,
            kind=getattr(trace.SpanKind, kind),
            status=status,
            start_time=start,
            end_time=max(end, start),
            instrumentation_scope=self.scope,
        )
        self.spans.append(span)


def _number(value: Any) -> Any:
    """A table value as a plain Python number, None when missing."""
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return None
    return value.item() if hasattr(value, "item") else value


def _one(names: list[str]) -> str | None:
    return names[0] if len(names) == 1 else None


@dataclass
class _RunSpan:
    """What the spans of one run share."""

    key: str  # thread, run id and occurrence: what every id of the run is derived from
    trace_id: int
    context: Any
    run_id: str
    run_key: Any
    thread_id: str | None
    start: int
    end: int
    model: str | None
    provider: str | None


@dataclass
class _Content:
    """What ``content=True`` reads: each run's input messages (AG-UI) and each message's kind and text."""

    inputs: dict[str, Any]
    texts: dict[tuple[Any, Any], tuple[str, str]]


def _content_of(source: Any, frame: pd.DataFrame, messages: pd.DataFrame) -> _Content:
    """The run inputs a log holds (RUN_STARTED's ``input``, a chat's run-start records) and the messages' texts."""
    inputs: dict[str, Any] = {}
    for _, recorded in recorded_run_inputs(source, frame):
        if isinstance(recorded.get("runId"), str):
            inputs.setdefault(recorded["runId"], recorded.get("messages"))
    rows = np.flatnonzero((frame["type"] == "RUN_STARTED").to_numpy())
    for event in frame["event"].array[rows] if len(rows) else ():
        run_input = event.get("input") if isinstance(event, dict) else None
        if isinstance(run_input, dict) and isinstance(event.get("runId"), str):
            inputs.setdefault(event["runId"], run_input.get("messages"))
    texts = {
        (r, m): (str(k), t if isinstance(t, str) else "")
        for r, m, k, t in zip(
            messages["run_key"], messages["message_id"], messages["kind"], messages["text"], strict=True
        )
    }
    return _Content(inputs, texts)


def _arguments(call: Record) -> Any:
    """A call's arguments as the export writes them: the parsed JSON, None when it streamed none or its text
    is not JSON (which the table does not keep)."""
    return call["args"] if int(call["args_chars"]) > 0 and bool(call["args_json_valid"]) else None


def _json(value: Any) -> str:
    return orjson.dumps(value, default=str).decode()


def _conversation(
    run: Record, steps: list[_Step], calls: list[Record], content: _Content
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The GenAI content attributes of a run span and of each of its step spans: what each step was sent
    (the run's input, then the earlier steps' output and tool results) and what it answered."""
    run_id = str(run["run_id"])
    history, system = agui_input_messages(content.inputs.get(run_id))
    run_input = list(history)
    by_id = {str(call["tool_call_id"]): call for call in calls}
    failed = str(run["status"]) == "error"
    outputs: list[dict[str, Any]] = []
    per_step: list[dict[str, Any]] = []
    finish: str | None = None
    for i, step in enumerate(steps):
        parts = []
        for message_id in step.messages:
            kind, text = content.texts.get((run["run_key"], message_id), ("text", ""))
            parts.append(reasoning_part(text) if kind == "reasoning" else text_part(text))
        for call_id in step.tools:
            call = by_id.get(call_id)
            if call is not None:
                parts.append(tool_call_part(call_id, _text(call["tool_name"]), _arguments(call)))
        last = i == len(steps) - 1
        if step.tools:
            finish = FINISH_TOOL_CALL
        elif failed and last:
            finish = FINISH_ERROR
        else:
            finish = FINISH_STOP if step.finished else None
        output = message("assistant", parts, finish)
        outputs.append(output)
        per_step.append(
            {
                names.INPUT_MESSAGES: _json(history) if history else None,
                names.OUTPUT_MESSAGES: _json([output]),
                names.SYSTEM_INSTRUCTIONS: _json(system) if system else None,
                names.FINISH_REASONS: (finish,) if finish else None,
            }
        )
        history = [*history, message("assistant", parts)]
        for call_id in step.tools:
            call = by_id.get(call_id)
            if (
                call is not None
                and str(call["status"]) in ("ok", "error")
                and _text(call["result"]) is not None
            ):
                history.append(message("tool", [tool_response_part(call_id, call["result"])]))
    run_attributes = {
        names.INPUT_MESSAGES: _json(run_input) if run_input else None,
        names.OUTPUT_MESSAGES: _json(outputs) if outputs else None,
        names.SYSTEM_INSTRUCTIONS: _json(system) if system else None,
        names.FINISH_REASONS: (finish,) if finish else None,
    }
    return run_attributes, per_step


def _spans_of_source(
    maker: _SpanMaker,
    frame: pd.DataFrame,
    occurrences: dict[tuple[Any, Any], int],
    run_spans: dict[tuple[Any, Any], Any],
    agent_name: str | None,
    content: bool,
    source: Any,
) -> None:
    runs = runs_df(frame)
    messages = messages_df(frame)
    texts = _content_of(source, frame, messages) if content else None
    tools = tool_calls_df(frame)
    message_end = {
        (r, m): _ns(e)
        for r, m, e in zip(messages["run_key"], messages["message_id"], messages["ended_at"], strict=True)
    }
    tools_by_run: dict[str, list[Record]] = {}
    for record in tools.to_dict("records"):
        tools_by_run.setdefault(record["run_key"], []).append(record)
    starts = {key: _ns(start) for key, start in zip(runs["run_key"], runs["started_at"], strict=True)}
    run_events = _read_runs(frame, starts)
    for run in runs.to_dict("records"):
        seen = run_events.get(run["run_key"], _RunEvents())
        calls = tools_by_run.get(run["run_key"], [])
        run_content, step_content = (
            _conversation(run, seen.steps, calls, texts) if texts is not None else ({}, [])
        )
        run_span = _run_span(maker, run, seen, occurrences, run_spans, agent_name, run_content)
        tool_parents = _step_spans(maker, run_span, seen.steps, calls, message_end, step_content)
        _tool_spans(maker, run_span, calls, tool_parents, content)


def _run_span(
    maker: _SpanMaker,
    run: Record,
    seen: _RunEvents,
    occurrences: dict[tuple[Any, Any], int],
    run_spans: dict[tuple[Any, Any], Any],
    agent_name: str | None,
    content: dict[str, Any],
) -> _RunSpan:
    run_id, thread_id = str(run["run_id"]), _text(run["thread_id"])
    number = occurrences.get((thread_id, run_id), 0)
    occurrences[(thread_id, run_id)] = number + 1
    key = f"{thread_id}\x1f{run_id}\x1f{number}"
    trace_id = _digest(key, 16)
    context = maker.context(trace_id, _digest(key + "\x1frun", 8))
    models = _usage_names(seen.ending, "model")
    model, provider = _one(models), _one(_usage_names(seen.ending, "provider"))
    start = _ns(run["started_at"])
    finished = _ns(run["finished_at"])
    end = _either(finished, _either(seen.last_time, start))
    status = str(run["status"])
    error = _text(run["error"]) if status == "error" else None
    ending = seen.ending or {}
    outcome = ending.get("outcome")
    interrupts = outcome.get("interrupts") if isinstance(outcome, dict) else None
    parent_run = _text(run["parent_run_id"])
    links = []
    if parent_run is not None and (thread_id, parent_run) in run_spans:
        links.append(maker.trace.Link(run_spans[(thread_id, parent_run)], {names.LINK: "parent_run"}))
    run_spans[(thread_id, run_id)] = context
    attributes: dict[str, Any] = {
        names.OPERATION: names.INVOKE_AGENT,
        names.AGENT_NAME: agent_name,
        names.PROVIDER: provider,
        names.CONVERSATION_ID: thread_id,
        names.REQUEST_MODEL: model,
        names.RESPONSE_MODEL: model,
        names.USAGE["inputTokens"]: _number(run["input_tokens"]),
        names.USAGE["outputTokens"]: _number(run["output_tokens"]),
        names.USAGE["reasoningTokens"]: _number(run["reasoning_tokens"]),
        names.USAGE["cachedInputTokens"]: _number(run["cached_input_tokens"]),
        names.TIME_TO_FIRST_CHUNK: _number(run["ttft_s"]),
        names.ERROR_TYPE: str(ending.get("code") or "_OTHER") if error is not None else None,
        names.RUN_ID: run_id,
        names.RUN_PARENT_ID: parent_run,
        names.RUN_STATUS: status,
        names.RUN_INTERRUPTS: orjson.dumps(interrupts).decode() if interrupts else None,
        names.USAGE_MODELS: tuple(models) if len(models) > 1 else None,
        names.SOURCE: str(run["source"]),
        names.EVENTS: int(run["events"]),
        UNFINISHED: True if status == "incomplete" else None,  # finished without a time is finished
        NO_TIMES: True if start is None else None,
        **content,
    }
    start = start if start is not None else 0
    end = end if end is not None else start
    name = f"{names.INVOKE_AGENT} {agent_name}" if agent_name else names.INVOKE_AGENT
    maker.add(name, context, None, "CLIENT", start, end, attributes, error=error, links=links)
    return _RunSpan(key, trace_id, context, run_id, run["run_key"], thread_id, start, end, model, provider)


def _step_spans(
    maker: _SpanMaker,
    run: _RunSpan,
    steps: list[_Step],
    calls: list[Record],
    message_end: dict[tuple[Any, Any], int | None],
    content: list[dict[str, Any]],
) -> dict[str, tuple[Any, int]]:
    """The run's step spans; returns the parent (context and start) of each tool call made in a step."""
    contexts: list[tuple[Any, int]] = []
    tool_parents: dict[str, tuple[Any, int]] = {}
    args_end = {str(c["tool_call_id"]): _either(_ns(c["args_end_at"]), _ns(c["started_at"])) for c in calls}
    for step in steps:
        context = maker.context(run.trace_id, _digest(f"{run.key}\x1fstep\x1f{step.index}", 8))
        start = _either(step.start, run.start)
        contexts.append((context, start))
        parent = contexts[step.parent][0] if step.parent is not None else run.context
        for call in step.tools:
            tool_parents.setdefault(call, (context, start))
        if step.name is not None:  # a STEP_STARTED step: up to its STEP_FINISHED
            end = _either(step.end, run.end)
            unfinished = not step.finished or step.end is None
        else:  # up to its last output: the END of its messages and of its tool calls' arguments
            ends = [message_end.get((run.run_key, m)) for m in step.messages]
            ends += [args_end.get(call) for call in step.tools]
            timed = [e for e in ends if e is not None]
            end, unfinished = (max(timed) if timed else start), False
        first_chunk = step.first_chunk
        attributes = {
            names.OPERATION: names.CHAT,
            names.PROVIDER: run.provider,
            names.REQUEST_MODEL: run.model,
            names.RESPONSE_MODEL: run.model,
            names.CONVERSATION_ID: run.thread_id,
            names.TIME_TO_FIRST_CHUNK: (first_chunk - step.start) / 1e9
            if first_chunk is not None and step.start is not None
            else None,
            names.RUN_ID: run.run_id,
            names.STEP_INDEX: step.index,
            names.STEP_NAME: step.name,
            UNFINISHED: True if unfinished else None,
            **(content[step.index] if content else {}),
        }
        name = f"{names.CHAT} {run.model}" if run.model else names.CHAT
        maker.add(name, context, parent, "CLIENT", start, end, attributes)
    return tool_parents


def _tool_spans(
    maker: _SpanMaker,
    run: _RunSpan,
    calls: list[Record],
    tool_parents: dict[str, tuple[Any, int]],
    content: bool,
) -> None:
    occurrences: dict[str, int] = {}
    for call in calls:
        call_id = str(call["tool_call_id"])
        occurrences[call_id] = occurrences.get(call_id, 0) + 1
        key = f"{run.key}\x1ftool\x1f{call_id}\x1f{occurrences[call_id]}"
        parent, parent_start = tool_parents.get(call_id, (run.context, run.start))
        start = _either(_ns(call["args_end_at"]), _ns(call["started_at"]))
        result_at = _ns(call["result_at"])
        tool_name = _text(call["tool_name"])
        failed = str(call["status"]) == "error"
        attributes = {
            names.OPERATION: names.EXECUTE_TOOL,
            names.TOOL_NAME: tool_name,
            names.TOOL_CALL_ID: call_id,
            names.CONVERSATION_ID: run.thread_id,
            names.TOOL_ARGUMENTS: orjson.dumps(_arguments(call)).decode()
            if content and _arguments(call) is not None
            else None,
            names.TOOL_RESULT: _text(call["result"]) if content else None,
            names.ERROR_TYPE: "_OTHER" if failed else None,
            names.RUN_ID: run.run_id,
            names.TOOL_STATUS: str(call["status"]),
            UNFINISHED: True if result_at is None else None,
            NO_TIMES: True if start is None else None,
        }
        maker.add(
            f"execute_tool {tool_name}" if tool_name else names.EXECUTE_TOOL,
            maker.context(run.trace_id, _digest(key, 8)),
            parent,
            "INTERNAL",
            _either(start, parent_start),
            _either(result_at, run.end),
            attributes,
            error=(_text(call["error"]) or "error") if failed else None,
        )


@keyword_options
def to_otel_spans(
    events: EventsOrSource,
    *,
    agent_name: str | None = None,
    content: bool = False,
    resource: Resource | None = None,
) -> list[ReadableSpan]:
    """The log's runs as finished OpenTelemetry spans (``opentelemetry.sdk.trace.ReadableSpan``).

    ``events`` is an events table or anything ``load_events`` reads. Each run becomes one trace: an
    ``invoke_agent`` span, a span per model step under it and an ``execute_tool`` span per tool call under the
    step that made it, with the GenAI semantic conventions' attributes (``gen_ai.usage.input_tokens``,
    ``gen_ai.tool.call.id``, ``gen_ai.response.time_to_first_chunk`` ...). Ids are derived from the thread and
    run ids, so two exports of one log agree. ``agent_name`` names the agent (``gen_ai.agent.name``; AG-UI
    events do not carry it); ``content=True`` adds what the conventions leave opt-in: the tool calls'
    arguments and results, and on the run and step spans ``gen_ai.input.messages`` (the run's input, when
    the log holds it, then the earlier steps' output and tool results), ``gen_ai.output.messages``,
    ``gen_ai.system_instructions`` and ``gen_ai.response.finish_reasons``; ``resource`` defaults to
    ``service.name=agui-notebook``.

    >>> spans = to_otel_spans([
    ...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r", "timestamp": 1000},
    ...     {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "Hi", "timestamp": 1250},
    ...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r", "timestamp": 1500},
    ... ])
    >>> [(s.name, s.attributes.get("gen_ai.response.time_to_first_chunk")) for s in spans]
    [('invoke_agent', 0.25), ('chat', 0.25)]
    """
    if agent_name is not None and type(agent_name) is not str:
        raise OptionError(f"agent_name must be a str (or None), not {type(agent_name).__name__}")
    if resource is not None and not hasattr(resource, "attributes"):
        raise OptionError(
            f"resource must be an OpenTelemetry Resource (or None), not {type(resource).__name__}"
        )
    maker = _SpanMaker(resource)
    frame = events_table(events)
    occurrences: dict[tuple[Any, Any], int] = {}
    run_spans: dict[tuple[Any, Any], Any] = {}
    sources = frame["source"].dropna().unique().tolist() if len(frame) else []
    # Tool calls and messages are told apart by run id within one source; a log of several files goes file by file.
    parts = [frame] if len(sources) <= 1 else [frame[frame["source"] == s] for s in sources]
    for part in parts:
        _spans_of_source(maker, part, occurrences, run_spans, agent_name, content, events)
    return maker.spans


@keyword_options
def export_otel(
    events: EventsOrSource,
    exporter: SpanExporter,
    *,
    agent_name: str | None = None,
    content: bool = False,
    resource: Resource | None = None,
    batch_size: int = 512,
) -> SpanExportResult:
    """Send the log's spans (:func:`to_otel_spans`) to an OpenTelemetry ``SpanExporter``, in batches.

    Any exporter works: ``OTLPSpanExporter`` to Phoenix, Langfuse, Jaeger or a collector, the console, the
    SDK's in-memory one. Returns ``SpanExportResult.SUCCESS`` when the exporter took every batch, else the
    first ``FAILURE`` (later batches are not sent). The exporter is flushed, not shut down.

    >>> from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
    >>> exporter = InMemorySpanExporter()
    >>> export_otel('{"type":"RUN_STARTED","threadId":"t","runId":"r"}', exporter).name
    'SUCCESS'
    >>> [span.name for span in exporter.get_finished_spans()]
    ['invoke_agent']
    """
    if not callable(getattr(exporter, "export", None)) or not callable(
        getattr(exporter, "force_flush", None)
    ):
        raise OptionError(f"exporter must be an OpenTelemetry SpanExporter, not {type(exporter).__name__}")
    if type(batch_size) is not int or batch_size < 1:
        raise OptionError(f"batch_size must be a whole number of spans from 1, not {shown(batch_size)}")
    spans = to_otel_spans(events, agent_name=agent_name, content=content, resource=resource)
    from opentelemetry.sdk.trace.export import SpanExportResult

    for begin in range(0, len(spans), max(1, batch_size)):
        result = exporter.export(spans[begin : begin + max(1, batch_size)])
        if result is not SpanExportResult.SUCCESS:
            return result
    exporter.force_flush()
    return SpanExportResult.SUCCESS
