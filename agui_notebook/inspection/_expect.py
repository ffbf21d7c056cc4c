"""``expect``: readable assertions over a recorded run, for pytest and notebooks.

Each check returns the expectation, so they chain; a failed one raises ``AssertionError`` saying what the run did
instead (the tools it called with their arguments, the events involved with their index and type, its TTFT).
The facts come from the logs tables (``tool_calls_df``, ``runs_df``), the assembler
(``ui_message_dicts_from_events``) and the checker (``verify_events``); nothing is derived twice.

>>> events = [
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "get_weather"},
...     {"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": '{"city": "Paris"}'},
...     {"type": "TOOL_CALL_END", "toolCallId": "c1"},
...     {"type": "TOOL_CALL_RESULT", "messageId": "r", "toolCallId": "c1", "content": "sunny"},
...     {"type": "TEXT_MESSAGE_START", "messageId": "m1", "role": "assistant"},
...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Sunny in Paris."},
...     {"type": "TEXT_MESSAGE_END", "messageId": "m1"},
...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
... ]
>>> check = expect(events).tool_called("get_weather", city="Paris").before("get_weather", "Sunny")
>>> check.no_tool_errors().text_contains("Paris").verify()
<expect the events: 5 checks passed>
>>> expect(events).tool_called("get_weather", city="Rome")
Traceback (most recent call last):
...
AssertionError: expected the events to call 'get_weather' with arguments containing {"city":"Rome"}; it called get_weather({"city":"Paris"}) at event 1 (TOOL_CALL_START)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import pandas as pd

from agui_notebook._errors import UIMessageStreamError
from agui_notebook._options import keyword_options
from agui_notebook._types import JSON
from agui_notebook.agui._intake import EVENT_TYPES
from agui_notebook.agui._verify import verify_events
from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.logs._kinds import TEXT_DELTA_TYPES
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df
from agui_notebook.ui._chunk_types import is_ui_chunk_type
from agui_notebook.ui._read_stream import ui_message_from_chunks
from agui_notebook.wire._json import encode_json
from agui_notebook.wire._records import is_chat_record

from ._source import InspectedRun, inspected_run

__all__ = ["RunExpectation", "expect"]

SHOWN_TEXT_CHARS = 200
"""A failure message quotes this many characters of the run's text."""


@keyword_options
def expect(source: Any, *, run: int | str | None = None) -> RunExpectation:
    """Assertions over a recorded run: a log path, an events frame (``load_events``), a list of events or a
    :class:`~agui_notebook.ChatWidget` (its ``chat.events``).

    ``run`` picks one run of several: its index (in order of their first event; ``-1`` the last) or its id;
    ``None`` (the default) checks every event of the source. Checks: :meth:`~RunExpectation.tool_called`,
    :meth:`~RunExpectation.before`, :meth:`~RunExpectation.no_tool_errors`,
    :meth:`~RunExpectation.text_contains`, :meth:`~RunExpectation.ttft_below`, :meth:`~RunExpectation.verify`.

    >>> expect("run.jsonl", run=-1).tool_called("search", q="x").ttft_below(2.0)  # doctest: +SKIP
    """
    return RunExpectation(inspected_run(source, run))


def _json(value: Any) -> str:
    try:
        return encode_json(value)
    except Exception:
        return repr(value)


def _contains(value: Any, subset: Any) -> bool:
    """Whether ``value`` holds ``subset``: every key of a dict subset with a value that holds the subset's (so
    nested objects match partly too); any other value is compared whole."""
    if isinstance(subset, Mapping):
        return isinstance(value, Mapping) and all(
            key in value and _contains(value[key], wanted) for key, wanted in subset.items()
        )
    return bool(value == subset)


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"


class RunExpectation:
    """Chainable checks over one run (what :func:`expect` returns); each returns ``self`` or raises
    ``AssertionError``."""

    def __init__(self, run: InspectedRun) -> None:
        self.run = run
        """The events checked: their frame, wire dicts and place in the source."""
        self.passed: list[str] = []
        """The checks that passed, in order (what the repr counts)."""
        self._calls: pd.DataFrame | None = None
        self._messages: list[dict[str, Any]] | None = None

    def __repr__(self) -> str:
        count = len(self.passed)
        return f"<expect {self.run.label}: {count} check{'' if count == 1 else 's'} passed>"

    # ------------------------------------------------------------------------------------------ facts
    @property
    def tool_calls(self) -> pd.DataFrame:
        """``tool_calls_df`` of the run, with ``row``: the row of each call's first event in ``run.frame``."""
        if self._calls is None:
            frame = self.run.frame
            calls = tool_calls_df(frame).reset_index(drop=True)
            ids = frame["tool_call_id"].astype(object)
            first = {}
            for row, call_id in enumerate(ids.tolist()):
                if isinstance(call_id, str) and call_id not in first:
                    first[call_id] = row
            calls["row"] = [first.get(str(call_id), -1) for call_id in calls["tool_call_id"].astype(object)]
            self._calls = calls
        return self._calls

    @property
    def messages(self) -> list[dict[str, Any]]:
        """The run's UIMessages (dicts), as ``ui_messages_from_events`` assembles them."""
        if self._messages is None:
            self._messages = ui_message_dicts_from_events(self.run.events)
        return self._messages

    def _call_text(self, call: Any) -> str:
        args = call.args if call.args_json_valid else "<arguments not JSON>"
        shown = f"{call.tool_name}({_json(args) if call.args_json_valid else args})"
        return f"{shown} at {self.run.where(call.row)}" if call.row >= 0 else shown

    def _calls_text(self) -> str:
        calls = self.tool_calls
        if calls.empty:
            return "it called no tool"
        return "it called " + ", ".join(self._call_text(call) for call in calls.itertuples())

    def _texts(self) -> list[str]:
        return [
            part["text"]
            for message in self.messages
            if message.get("role") == "assistant"
            for part in message.get("parts") or ()
            if part.get("type") == "text" and isinstance(part.get("text"), str)
        ]

    def _fail(self, message: str) -> AssertionError:
        return AssertionError(message)

    def _pass(self, check: str) -> RunExpectation:
        self.passed.append(check)
        return self

    # ------------------------------------------------------------------------------------------ checks
    def tool_called(self, name: str, /, *, times: int | None = None, **args_subset: Any) -> RunExpectation:
        """The run called tool ``name`` with arguments containing ``args_subset`` (nested objects may match
        partly); with ``times=``, exactly that many such calls (so a tool argument named ``times`` cannot be matched
        here: read ``tool_calls`` for it)."""
        calls = self.tool_calls
        matching = [
            call
            for call in calls.itertuples()
            if call.tool_name == name and (not args_subset or _contains(call.args, args_subset))
        ]
        wanted = f"call {name!r}" + (
            f" with arguments containing {_json(args_subset)}" if args_subset else ""
        )
        if times is None and not matching:
            raise self._fail(f"expected {self.run.label} to {wanted}; {self._calls_text()}")
        if times is not None and len(matching) != times:
            found = "never" if not matching else _times(len(matching))
            raise self._fail(
                f"expected {self.run.label} to {wanted} {_times(times)}; it did {found} ({self._calls_text()})"
            )
        return self._pass(f"tool_called({name!r})")

    def no_tool_errors(self) -> RunExpectation:
        """No tool call of the run ended with an error (``tool_calls_df``'s ``status == "error"``)."""
        failed = [call for call in self.tool_calls.itertuples() if call.status == "error"]
        if failed:
            # The error names how the call ended itself ("failed: ...", "retried: ...", or the tool's own text).
            listed = "; ".join(f"{self._call_text(call)}: {call.error}" for call in failed)
            raise self._fail(f"expected no tool errors in {self.run.label}; {listed}")
        return self._pass("no_tool_errors()")

    def text_contains(self, *snippets: str) -> RunExpectation:
        """Each snippet is in the text of one of the run's assistant text parts."""
        texts = self._texts()
        for snippet in snippets:
            if not any(snippet in text for text in texts):
                if not texts:
                    did = "it streamed no text"
                else:
                    joined = " | ".join(texts)
                    cut = joined if len(joined) <= SHOWN_TEXT_CHARS else joined[:SHOWN_TEXT_CHARS] + "…"
                    did = f"its text: {cut!r}"
                raise self._fail(f"expected the text of {self.run.label} to contain {snippet!r}; {did}")
        return self._pass("text_contains()")

    def ttft_below(self, seconds: float) -> RunExpectation:
        """Every run checked streamed its first text or reasoning within ``seconds`` of its start
        (``runs_df``'s ``ttft_s``)."""
        runs = runs_df(self.run.frame)
        slow = []
        for run_key, ttft in zip(runs["run_key"].tolist(), runs["ttft_s"].tolist(), strict=True):
            if ttft is None or (isinstance(ttft, float) and math.isnan(ttft)):
                slow.append(f"run {run_key!r} streamed no text or reasoning (no TTFT)")
            elif not ttft < seconds:
                slow.append(f"run {run_key!r} had a TTFT of {ttft:.3f} s")
        if runs.empty:
            slow.append("there is no run")
        if slow:
            raise self._fail(f"expected a TTFT below {seconds:g} s in {self.run.label}; " + "; ".join(slow))
        return self._pass(f"ttft_below({seconds:g})")

    def verify(self) -> RunExpectation:
        """``verify_events`` finds no error in the run (warnings pass). A run read from AI SDK chunks (a UI-message
        stream log, a ChatWidget whose agent streamed text or chunks) is checked as the AI SDK reads it instead:
        its chunks go through the UI-message stream reducer, which raises at a malformed one."""
        chunk_errors = self._chunk_stream_errors()
        if chunk_errors is not None:
            if chunk_errors:
                raise self._fail(
                    f"expected {self.run.label} to be a valid UI message stream; " + "; ".join(chunk_errors)
                )
            return self._pass("verify()")
        errors = [p for p in verify_events(self.run.events) if p.severity == "error"]
        if errors:
            lines = []
            for problem in errors:
                where = "end of stream" if problem.index < 0 else f"event {self.run.start + problem.index}"
                if problem.event_type is not None:
                    where += f" ({problem.event_type})"
                lines.append(f"{where}: {problem.message}")
            count = f"{len(errors)} error{'' if len(errors) == 1 else 's'}"
            raise self._fail(f"expected {self.run.label} to pass verify_events; {count}: " + "; ".join(lines))
        return self._pass("verify()")

    def _chunk_stream_errors(self) -> list[str] | None:
        """The AI SDK reducer's error on each run's chunks, for a run read from chunks (else None)."""
        events = self.run.events
        ours = [is_chat_record(event) for event in events]  # a chat's own records: not the agent's stream
        raws = [event.get("rawEvent") for event, own in zip(events, ours, strict=True) if not own]
        if not raws or not all(isinstance(r, dict) and is_ui_chunk_type(str(r.get("type"))) for r in raws):
            return None
        frame = self.run.frame
        streams: dict[str, list[JSON]] = {}
        seen: set[tuple[str, int]] = set()
        rows = zip(
            [e.get("rawEvent") for e in events], ours, frame["run_key"].astype(str), frame["source"].astype(str),
            frame["line"], strict=True,
        )  # fmt: skip
        for raw, own, key, source, line in rows:
            if own or (source, int(line)) in seen:
                continue  # one chunk read as two events (a text-delta opening its message)
            seen.add((source, int(line)))
            streams.setdefault(key, []).append(raw)
        errors = []
        for key, chunks in streams.items():
            try:
                ui_message_from_chunks(chunks)
            except UIMessageStreamError as exc:
                errors.append(f"run {key!r}: {exc}")
        return errors

    def before(self, first: str, then: str) -> RunExpectation:
        """``first`` happens before ``then``: the first event ``first`` names comes before the first ``then``
        names. A name is, in this order: an AG-UI event type (``"TOOL_CALL_RESULT"``: its first event), a tool
        the run called (``"get_weather"``: the first event of its first call), else a text snippet (the text
        event at which an assistant message's text first contains it)."""
        found: dict[str, tuple[int, str]] = {}
        for name in (first, then):
            row, kind = self._first(name)
            if row is None:
                tools = sorted(set(self.tool_calls["tool_name"].dropna().astype(str)))
                called = f"tool called ({', '.join(tools)})" if tools else "tool called"
                raise self._fail(
                    f"expected {first!r} before {then!r} in {self.run.label}; {name!r} never happens: it is no "
                    f"event type, no {called} and no text of the run"
                )
            found[name] = (row, kind)
        (row_a, kind_a), (row_b, kind_b) = found[first], found[then]
        if not row_a < row_b:
            raise self._fail(
                f"expected {first!r} before {then!r} in {self.run.label}; {then!r} ({kind_b}) first at "
                f"{self.run.where(row_b)}, {first!r} ({kind_a}) first at {self.run.where(row_a)}"
            )
        return self._pass(f"before({first!r}, {then!r})")

    def _first(self, name: str) -> tuple[int | None, str]:
        """The row of the first event ``name`` stands for, and what kind of name it is."""
        frame = self.run.frame
        types = frame["type"].astype(str)
        if name in EVENT_TYPES:
            rows = (types == name).to_numpy().nonzero()[0]
            return (int(rows[0]) if len(rows) else None), "event type"
        calls = self.tool_calls
        named = calls[calls["tool_name"] == name]
        if len(named):
            return int(named["row"].min()), "tool call"
        texts: dict[str, str] = {}
        for row, (kind, message_id, role, delta) in enumerate(
            zip(types, frame["message_id"], frame["role"], frame["delta"], strict=True)
        ):
            if kind not in TEXT_DELTA_TYPES or not isinstance(delta, str):
                continue
            if role != "assistant" and not pd.isna(role):
                continue
            key = str(message_id)
            texts[key] = texts.get(key, "") + delta
            if name in texts[key]:
                return row, "text"
        return None, "text"
