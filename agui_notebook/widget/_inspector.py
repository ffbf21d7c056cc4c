"""``inspect_run(source)``: a recorded run in a widget, event by event: the conversation as it stood right after the
selected event (drawn by the chat's own front end), the part that event changed, the event list, the event's
JSON and receive time, ``verify_events``' problems at their events and the shared state.

The kernel owns the position: the front end writes ``position`` (scrubber, keys, a click in the list) and the
widget answers with the messages after that event (``_timeline.py`` keeps seeking fast on big logs). The page
holds a window of the conversation around the selected event's part, and each seek sends what differs from it
(``inspection/_window.py``); the event list's summaries, times and changed parts come in chunks the page asks
for as it shows them (docs/inspect.md, The page's protocol).

>>> insp = inspect_run([
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"},
...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": " there"},
...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
... ])
>>> insp.seek(3).messages[0]["parts"][1]["text"], insp.changed, insp.selected_event["type"]
('Hi there', [[0, 1]], 'TEXT_MESSAGE_CONTENT')
>>> insp.seek(2).messages[0]["parts"][1]["text"], insp.position
('Hi', 2)
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping, Sequence
from typing import Any

import anywidget
import traitlets

from agui_notebook._errors import InputTypeError, OptionError, SeekError, internal_failure
from agui_notebook._gc import collections_paused
from agui_notebook._options import check_keywords, listed
from agui_notebook._shown import json_kind, shown
from agui_notebook._types import JSON
from agui_notebook.agui._verify import verify_events
from agui_notebook.inspection._source import inspected_run
from agui_notebook.inspection._timeline import CHECKPOINT_EVERY, EventTimeline, RunStart, run_starts
from agui_notebook.inspection._window import ConversationWindow
from agui_notebook.widget._opening import BUNDLE, bundle_missing
from agui_notebook.widget._renderers import PartRenderers
from agui_notebook.widget._static_copy import StaticCopy
from agui_notebook.widget._static_html import static_bundle

__all__ = ["Inspector", "inspect_run"]

STATIC_REST_SECONDS = 0.5
"""How long the position must rest before the static copy follows it."""

SUMMARY_CHARS = 60
"""How much of an event the list shows (and its search reads) beside the type."""

EVENT_CHUNK = 256
"""Events per chunk of the event list (summaries, times, changed parts) the page asks for as it shows them."""

TYPE_CODES = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
"""The characters of the ``types`` string: event ``i``'s type is ``type_names[TYPE_CODES.index(types[i])]`` (a
character past these for the 63rd type name on)."""

_SUMMARY_KEYS = ("delta", "toolCallName", "content", "name", "stepName", "message", "messageId", "toolCallId")


def _summary(event: dict[str, JSON]) -> str:
    """A short line naming what an event carries: its delta, tool name, step, error message or id."""
    for key in _SUMMARY_KEYS:
        value = event.get(key)
        if isinstance(value, str) and value:
            return value[:SUMMARY_CHARS]
    if event.get("type") == "STATE_DELTA" and isinstance(event.get("delta"), list):
        paths = [op.get("path") for op in event["delta"] if isinstance(op, dict)]
        return " ".join(p for p in paths if isinstance(p, str))[:SUMMARY_CHARS]
    return ""


class Inspector(anywidget.AnyWidget):
    """A recorded run, event by event (see :func:`inspect_run`)."""

    # The bundle's path, or anywidget's FileContents of it once built (a missing bundle is said at first use).
    _esm: Any = BUNDLE if BUNDLE.is_file() else None
    _view = traitlets.Unicode("inspector").tag(sync=True)
    """Which view of the bundle draws this model (the chat's bundle draws both)."""

    position = traitlets.Int(-1).tag(sync=True)
    """The selected event: the view shows the conversation after ``events[:position + 1]`` (``-1``: none)."""
    timeline = traitlets.Dict().tag(sync=True)
    """The run for the scrubber, the jumps and the type filter: ``count`` events, ``types`` (one character per
    event, ``TYPE_CODES`` into ``type_names``: a 500,000-event run's types in 500 kB), ``runs`` and ``steps`` (the
    events that start one), ``problems`` (``verify_events``: ``{"index", "severity", "rule", "message"}``) and
    ``chunk`` (``EVENT_CHUNK``). Summaries, times and changed parts come in chunks (``event_chunk``)."""
    changed = traitlets.List(traitlets.List()).tag(sync=True)
    """The ``[message index, part index]`` pairs the selected event changed (part ``-1``: the whole message)."""
    event = traitlets.Dict().tag(sync=True)
    """The selected event (AG-UI wire JSON)."""
    state = traitlets.Any(None, allow_none=True).tag(sync=True)
    """The shared state after the selected event."""
    state_paths = traitlets.List(traitlets.Unicode()).tag(sync=True)
    """The JSON Pointer paths the last state event up to the selected one changed (``""``: a snapshot)."""
    state_event = traitlets.Int(-1).tag(sync=True)
    """The index of that state event (``-1``: none yet)."""
    title = traitlets.Unicode("").tag(sync=True)
    theme = traitlets.Enum(("auto", "light", "dark"), default_value="auto").tag(sync=True)
    height = traitlets.Union([traitlets.Unicode(), traitlets.Int()], default_value="36rem").tag(sync=True)
    # The chat's renderer traits, read by the part views the inspector shares with the chat.
    rendered = traitlets.Dict().tag(sync=True)
    frontend_renderers = traitlets.Dict(traitlets.Unicode()).tag(sync=True)
    builtin_renderers = traitlets.Bool(True).tag(sync=True)
    trusted_origins = traitlets.List(traitlets.Unicode()).tag(sync=True)

    def __init__(
        self,
        events: list[dict[str, JSON]],
        *,
        times: list[float | None] | None = None,
        runs: list[int] | None = None,
        title: str = "",
        checkpoint_every: int = CHECKPOINT_EVERY,
        starts: Mapping[int, RunStart] | None = None,
        renderers: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        check_keywords("Inspector", kwargs, _OPTIONS, self.class_trait_names())
        if Inspector._esm is None:
            if not BUNDLE.is_file():
                raise bundle_missing()
            from anywidget._util import try_file_contents

            Inspector._esm = try_file_contents(BUNDLE)
        events = _checked_events(events)
        _check_options(len(events), times, runs, checkpoint_every, starts, renderers)
        self.events = events
        """The run's events (AG-UI wire dicts); event ``i`` is ``events[i]``."""
        self.timeline_index = EventTimeline(events, every=checkpoint_every, starts=starts)
        self.problems = verify_events(events, validate=False)
        """``verify_events``' problems (``index`` is the event's)."""
        if type(title) is not str:
            raise OptionError(f"title must be a str, not {type(title).__name__}")
        try:
            super().__init__(title=title, **kwargs)
        except (
            traitlets.TraitError,
            ValueError,
        ) as error:  # a widget option of the wrong kind (theme="blue")
            # (a ValueError: traitlets could not even show the value, an int of 5,000 digits)
            raise OptionError(f"Inspector: {internal_failure(error)}") from None
        self._times = times if times is not None else [None] * len(events)
        self._window = ConversationWindow()
        self._held: tuple[int, list[dict[str, JSON]]] | None = None
        self._read: tuple[int, Sequence[dict[str, JSON]]] | None = None
        self.renderer_warnings: list[str] = []
        """What renderers failed on (each part and error once); the part shows the error too."""
        self._renderers = PartRenderers(
            lambda: self.messages, self._publish_rendered, self.renderer_warnings.append
        )
        self._renderers.register_all(renderers)  # Python ones, and ES module source for the views
        self.timeline = self._timeline_trait(runs)
        self.on_msg(self._on_page_message)
        self._static = StaticCopy(self.model_id, self._static_copy)
        self._static_pending: asyncio.TimerHandle | None = None
        self.observe(self._seeked, "position")
        self.position = len(events) - 1
        if self.position == -1:
            self._show(-1)

    def _timeline_trait(self, runs: list[int] | None) -> dict[str, JSON]:
        events = self.events
        if runs is None:
            runs = [i for i, e in enumerate(events) if e.get("type") == "RUN_STARTED"]
        problems = [
            {"index": p.index, "severity": p.severity, "rule": p.rule, "message": p.message}
            for p in self.problems
        ]
        failures = [
            {"index": i, "severity": "error", "rule": "assembler", "message": message}
            for i, message in self.timeline_index.failures.items()
        ]
        types = [str(e.get("type")) for e in events]
        names = sorted(set(types))
        code = {name: _type_code(i) for i, name in enumerate(names)}
        return {
            "count": len(events),
            "type_names": names,
            "types": "".join([code[t] for t in types]),
            "runs": runs,
            "steps": [i for i, e in enumerate(events) if e.get("type") == "STEP_STARTED"],
            "problems": sorted(problems + failures, key=lambda p: p["index"]),
            "chunk": EVENT_CHUNK,
        }

    def event_chunk(self, start: int) -> dict[str, JSON]:
        """The event list's chunk from event ``start`` (a multiple of ``EVENT_CHUNK``): per event its summary, its
        receive time (seconds since the first event, ``None`` when unknown) and the ``[message, part]`` pairs it
        changed, as the page gets it.

        >>> inspect_run([{"type": "RUN_STARTED", "threadId": "t", "runId": "r"}]).event_chunk(0)["summaries"]
        ['']
        """
        start = max(0, start - start % EVENT_CHUNK)
        end = min(len(self.events), start + EVENT_CHUNK)
        touched = self.timeline_index.touched
        return {
            "kind": "events",
            "start": start,
            "summaries": [_summary(self.events[i]) for i in range(start, end)],
            "times": self._times[start:end],
            "touched": [[list(pair) for pair in touched[i]] for i in range(start, end)],
        }

    def search(self, needle: str, type_name: str = "") -> list[int]:
        """The events whose type or summary holds ``needle`` (any case), of type ``type_name`` when given: what
        the page's search box lists."""
        needle = needle.strip().lower()
        found = []
        for index, event in enumerate(self.events):
            kind = str(event.get("type"))
            if type_name and kind != type_name:
                continue
            if needle in kind.lower() or needle in _summary(event).lower():
                found.append(index)
        return found

    @property
    def messages(self) -> list[dict[str, JSON]]:
        """The UIMessages after the selected event (the page holds a window of them)."""
        n = self.position
        if self._held is None or self._held[0] != n:
            self._held = (n, self.timeline_index.messages_after(n))
        return self._held[1]

    def _conversation(self) -> Sequence[dict[str, JSON]]:
        """The messages after the selected event, read as far as the page's window needs them."""
        n = self.position
        if self._held is not None and self._held[0] == n:
            return self._held[1]
        if self._read is None or self._read[0] != n:
            self._read = (n, self.timeline_index.conversation_after(n))
        return self._read[1]

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """A page's request: the conversation window (``window``: around a ``focus``, or the whole one after a
        reconnect), a chunk of the event list (``events``), a search, or the events that built a part."""
        if not isinstance(content, dict):
            return
        kind = content.get("kind")
        if kind == "window":
            focus = content.get("focus")
            if content.get("version") != self._window.version:
                self._window.forget()  # the page has another window (or none): it gets the whole one
            if not (isinstance(focus, list) and len(focus) == 2 and all(type(v) is int for v in focus)):
                focus = list(self._window.focus)
            with collections_paused():
                self.send(self._window.update(self._conversation(), (focus[0], focus[1])))
        elif kind == "events" and type(content.get("start")) is int:
            self.send(self.event_chunk(content["start"]))
        elif kind == "search" and isinstance(content.get("needle"), str):
            type_name = content.get("type")
            indexes = self.search(content["needle"], type_name if isinstance(type_name, str) else "")
            self.send({"kind": "found", "id": content.get("id"), "indexes": indexes})
        elif (
            kind == "part-events" and type(content.get("message")) is int and type(content.get("part")) is int
        ):
            indexes = self.events_of_part(content["message"], content["part"])
            self.send(
                {
                    "kind": "part-events",
                    "message": content["message"],
                    "part": content["part"],
                    "indexes": indexes,
                }
            )

    def seek(self, n: int) -> Inspector:
        """Show the conversation after ``events[:n + 1]`` (``n`` counts from the end when negative)."""
        count = len(self.events)
        if not -count <= n < count:
            raise SeekError(f"seek({n}): the run has {count} events (0 to {count - 1})")
        self.position = n % count
        return self

    @property
    def selected_event(self) -> dict[str, JSON] | None:
        """The event at ``position`` (``None`` when the run is empty)."""
        return self.events[self.position] if 0 <= self.position < len(self.events) else None

    def events_of_part(self, message_index: int, part_index: int) -> list[int]:
        """The events up to ``position`` that built part ``part_index`` of message ``message_index``."""
        return self.timeline_index.events_of_part(message_index, part_index, upto=self.position)

    @traitlets.validate("position")
    def _valid_position(self, proposal: Any) -> int:
        value = int(proposal["value"])
        return min(max(value, -1 if not self.events else 0), len(self.events) - 1)

    def _seeked(self, change: Any) -> None:
        self._show(change["new"])

    def _show(self, n: int) -> None:
        with collections_paused():  # a seek makes a conversation's worth of objects, then sends them
            self._put(n)

    def _put(self, n: int) -> None:
        timeline = self.timeline_index
        at = timeline.state_after(n)
        changed = [list(pair) for pair in timeline.touched[n]] if n >= 0 else []
        messages = self._conversation()
        focus = (changed[0][0], changed[0][1]) if changed else (len(messages) - 1, -1)
        self.send(self._window.update(messages, focus))
        with self.hold_sync():
            self.changed = changed
            self.event = dict(self.events[n]) if n >= 0 else {}
            self.state = at.state
            self.state_paths = list(at.paths)
            self.state_event = -1 if at.changed_at is None else at.changed_at
        if self._renderers.python:
            self._renderers.refresh()  # the parts after this event, drawn by the same renderers as on the chat
        self._static_later()

    def _publish_rendered(self, rendered: dict[str, JSON], frontend: dict[str, str]) -> None:
        with self.hold_sync():
            self.rendered = rendered
            self.frontend_renderers = frontend

    # ------------------------------------------------------------------------------------------ persistence
    def _ipython_display_(self, **kwargs: Any) -> None:
        """Show the live inspector, then a static copy of the conversation where it stands (what a saved
        notebook shows without a kernel), updated once the scrubbing rests."""
        self._static.display(self, **kwargs)

    def _static_copy(self) -> dict[str, str]:
        n, count = self.position, len(self.events)
        where = f"event {n:,} / {count - 1:,} · {self.events[n].get('type')}" if n >= 0 else "no event"
        title = f"{self.title} · {where}" if self.title else where.capitalize()
        note = f"A saved copy of this inspector at {where}: run the cell to scrub through the run."
        return static_bundle(
            self.messages, title=title, render_part=self._renderers.static_part_html, note=note
        )

    def _static_later(self) -> None:
        """Update the static copy ``STATIC_REST_SECONDS`` after the last seek (at once without an event loop):
        a drag or a play through thousands of events sends the copy once, not per event."""
        if not self._static.displayed:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._static.update()
            return
        if self._static_pending is not None:
            self._static_pending.cancel()
        self._static_pending = loop.call_later(STATIC_REST_SECONDS, self._static_rested)

    def _static_rested(self) -> None:
        self._static_pending = None
        self._static.update()

    def __repr__(self) -> str:
        return f"Inspector({len(self.events)} events, position={self.position})"


def _seconds(frame: Any) -> list[float | None]:
    """Receive times as seconds since the first timed event (``None`` where a row has none)."""
    if "time" not in frame:
        return [None] * len(frame)
    stamps = frame["time"]
    try:
        seconds = stamps.astype("int64") / 1e9
        first = seconds[stamps.notna()].min() if stamps.notna().any() else 0.0
        values = (seconds - first).tolist()
    except (TypeError, ValueError):
        return [None] * len(frame)
    return [
        None if missing or not math.isfinite(v) else round(v, 6)
        for v, missing in zip(values, stamps.isna(), strict=True)
    ]


def inspect_run(source: Any, *, run: int | str | None = None, title: str = "", **kwargs: Any) -> Inspector:
    """An inspector widget over ``source``: a log path, an events frame (``load_events``), a list of events or a
    :class:`ChatWidget` (its ``chat.events``); ``run=`` picks one run (its index or id) as in ``expect``.

    ``renderers=`` draws parts as ``ChatWidget(renderers=...)`` does; a chat's own renderers are used by default.
    A chat's runs start from the inputs it sent them, where its user turns and state are.

    ``insp.seek(n)`` shows the conversation after ``events[:n + 1]``; ``insp.position`` is the selected event
    (the front end's scrubber writes it), ``insp.selected_event`` that event. See docs/inspect.md.
    """
    check_keywords("inspect_run", kwargs, ("run", "title", *_OPTIONS[5:]), Inspector.class_trait_names())
    picked = inspected_run(source, run=run)
    starts = [i for i, key in enumerate(_run_starts(picked.frame)) if key]
    chat_renderers = getattr(source, "_renderers", None)
    if isinstance(chat_renderers, PartRenderers) and "renderers" not in kwargs:
        # A chat's parts look as they do in the chat: its renderers, built-in ones on or off as there.
        kwargs["renderers"] = {**chat_renderers.python, **chat_renderers.frontend}
        kwargs.setdefault("builtin_renderers", source.builtin_renderers)
    return Inspector(
        picked.events,
        times=_seconds(picked.frame),
        runs=starts,
        title=title or picked.label,
        starts=run_starts(picked.inputs),  # a chat's user turns and state: in its run inputs
        **kwargs,
    )


def _type_code(index: int) -> str:
    return TYPE_CODES[index] if index < len(TYPE_CODES) else chr(0x100 + index)


def _checked_events(events: Any) -> list[dict[str, JSON]]:
    """The Inspector's events: a list of AG-UI wire dicts (``inspect_run`` reads any source into one)."""
    found = listed(events, "events", "AG-UI events (wire dicts; inspect_run() reads any source)")
    for index, event in enumerate(found):
        if type(event) is not dict:
            raise InputTypeError(f"events[{index}] is {json_kind(event)}, not an AG-UI event (a dict)")
    return found


def _check_options(
    count: int,
    times: Any,
    runs: Any,
    checkpoint_every: Any,
    starts: Any,
    renderers: Any,
) -> None:
    """Refuse options of the wrong kind before anything is built from them (an OptionError naming the option)."""
    if times is not None and (
        type(times) is not list
        or len(times) != count
        or not all(t is None or (type(t) in (int, float) and t == t) for t in times)
    ):
        raise OptionError(f"times= must be a list of {count} numbers (seconds) or None, one per event")
    if runs is not None and (
        type(runs) is not list or not all(type(r) is int and 0 <= r < max(count, 1) for r in runs)
    ):
        raise OptionError(f"runs= must be a list of event positions (0 to {count - 1}) where runs start")
    if type(checkpoint_every) is not int or not 1 <= checkpoint_every <= 2**31:
        raise OptionError(
            f"checkpoint_every= must be a whole number of events from 1, not {shown(checkpoint_every)}"
        )
    if starts is not None and (
        not isinstance(starts, Mapping)
        or not all(type(k) is int and isinstance(v, RunStart) for k, v in starts.items())
    ):
        raise OptionError("starts= maps event positions to the RunStart each run begins from")
    if renderers is not None and not isinstance(renderers, Mapping):
        raise OptionError(f"renderers= maps part types to renderers, not {type(renderers).__name__}")


_OPTIONS = (
    "times",
    "runs",
    "title",
    "checkpoint_every",
    "starts",
    "renderers",
    "theme",
    "height",
    "builtin_renderers",
    "trusted_origins",
)
"""The Inspector's options: its parameters, then the traits it documents (the widget's other traits, such as
``layout``, are taken too)."""


def _run_starts(frame: Any) -> list[bool]:
    """Per row, whether it begins a run (its run key differs from the row before)."""
    if "run_key" not in frame:
        return [False] * len(frame)
    keys = frame["run_key"].tolist()
    return [
        key is not None and key == key and (i == 0 or keys[i - 1] != key)  # NaN != NaN: no run
        for i, key in enumerate(keys)
    ]
