"""The conversation after any event of a recorded run, reached fast: checkpoints of the assembler every
``every`` events, and a replay from the nearest one.

``EventTimeline(events).messages_after(n)`` is ``ui_message_dicts_from_events(events[:n + 1])`` (the inspector's
``seek(n)``); building the timeline costs one pass over the events, a seek one unpickled checkpoint and at most
``every`` replayed events. Each event's changes (``MessageChange``) say which part it touched.

>>> timeline = EventTimeline([
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"},
...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"},
...     {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": " there"},
... ], every=2)
>>> timeline.messages_after(2)[0]["parts"][1]["text"], timeline.touched[3]
('Hi', ((0, 1),))
>>> timeline.events_of_part(0, 1)  # the text part: its first delta adds it
[2, 3]
"""

from __future__ import annotations

import contextlib
import io
import pickle
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agui_notebook._errors import OptionError, SeekError
from agui_notebook._shown import shown
from agui_notebook._types import JSON
from agui_notebook.agui._patch import apply_json_patch
from agui_notebook.bridge._assemble import UIMessageAssembler, merge_consecutive_deltas
from agui_notebook.bridge._messages import to_agui_messages_wire, to_ui_messages
from agui_notebook.wire._json import copy_json

__all__ = ["CHECKPOINT_EVERY", "EventTimeline", "RunStart", "StateAt", "run_starts"]

CHECKPOINT_EVERY = 512
"""Events between two checkpoints (each a pickle of the assembler): a seek unpickles one and replays at most this
many events, their consecutive deltas merged (bench/bench_inspect.py)."""


@dataclass(frozen=True, slots=True)
class RunStart:
    """What a run started from that its events may not say: the conversation (AG-UI messages, as a run input
    holds them) and the state the client sent (a ChatWidget's run inputs: the user's turns are there, not in
    the events). The conversation replaces the one so far only where it differs from it (a new turn, an edit,
    another branch); a run that resumes the same conversation (an approval answered) goes on from it."""

    messages: list[dict[str, JSON]]
    state: JSON = None


def run_starts(inputs: Mapping[int, Mapping[str, Any]]) -> dict[int, RunStart]:
    """``RunStart``s from run inputs (AG-UI wire ``RunAgentInput``s) by the event index where each run begins."""
    return {
        index: RunStart(list(run_input.get("messages") or []), run_input.get("state"))
        for index, run_input in inputs.items()
    }


@dataclass(frozen=True, slots=True)
class StateAt:
    """The shared state right after an event, and the JSON Pointer paths the last state event changed."""

    state: JSON
    paths: tuple[str, ...]
    """The paths of the last ``STATE_DELTA``'s operations (``("",)`` for a ``STATE_SNAPSHOT``)."""
    changed_at: int | None
    """The index of that last state event (``None`` before any)."""


class EventTimeline:
    """The UIMessages (and the shared state) after each event of ``events`` (AG-UI wire dicts).

    An event the assembler cannot take is kept in ``failures`` (its index and the error) and left out, here and
    in every replay, so a broken log stays inspectable up to its end.
    """

    def __init__(
        self,
        events: Sequence[dict[str, JSON]],
        *,
        every: int = CHECKPOINT_EVERY,
        starts: Mapping[int, RunStart] | None = None,
    ) -> None:
        if every < 1:
            raise OptionError(f"every={shown(every)}: a checkpoint needs at least one event between")
        self.events = events
        self.every = every
        self.starts = dict(sorted((starts or {}).items()))
        """Event index -> the conversation and state its run started from, put in place before that event."""
        self._anew: dict[int, list[dict[str, JSON]]] = {}
        """The starts whose conversation replaced the one so far, as UIMessages."""
        self._stated = {index: begun.state for index, begun in self.starts.items() if begun.state is not None}
        """The starts that put a state in place."""
        self.failures: dict[int, str] = {}
        """Event index -> why the assembler could not take it."""
        self.touched: list[tuple[tuple[int, int], ...]] = []
        """Per event, the ``(message index, part index)`` pairs it changed, in order (part ``-1``: the message as a
        whole, its metadata, or a message list cut short)."""
        self._checkpoints: list[bytes] = []
        self._states: list[tuple[JSON, tuple[str, ...], int | None]] = []
        self._build()

    def __len__(self) -> int:
        return len(self.events)

    def _build(self) -> None:
        assembler = UIMessageAssembler()
        state: JSON = {}
        paths: tuple[str, ...] = ()
        changed_at: int | None = None
        touched = self.touched
        held: set[tuple[int, int]] = set()
        starts = self.starts
        for index, event in enumerate(self.events):
            if index in starts:
                begun = starts[index]
                if _message_ids(begun.messages) != _message_ids(to_agui_messages_wire(assembler.messages)):
                    self._anew[index] = to_ui_messages(begun.messages)
                    assembler = UIMessageAssembler(copy_json(self._anew[index]))
                    held = set()
                if begun.state is not None:
                    state, paths, changed_at = copy_json(begun.state), (), None
            if index % self.every == 0:
                self._checkpoints.append(_frozen(assembler))
                self._states.append((copy_json(state), paths, changed_at))
            try:
                changes = assembler.push(event)
            except Exception as exc:
                self.failures[index] = str(exc)
                changes = []
            assembler.chunks.clear()  # only the messages are needed; the chunks would be copied at every checkpoint
            pairs: dict[tuple[int, int], None] = {}
            for change in changes:
                pair = (change.message_index, change.part_index if change.kind in ("part", "text") else -1)
                if pair not in held:
                    pairs[pair] = None
            held = set()
            if not pairs and event.get("type") == "TOOL_CALL_RESULT":
                # A result waits for the next event (an outcome claim) before it reaches its part; a seek shows
                # it at once (the end of the input flushes it), so it is this event's change, not the next one's.
                result_pair = _tool_part(assembler.messages, event.get("toolCallId"))
                if result_pair is not None:
                    pairs[result_pair] = None
                    held = {pair}
            touched.append(tuple(pairs))
            stepped = _state_step(state, event)
            if stepped is not None:
                state, paths = stepped
                changed_at = index

    def messages_after(self, n: int) -> list[dict[str, JSON]]:
        """The UIMessages after ``events[:n + 1]`` (a copy, yours to keep); ``n = -1`` gives no messages."""
        n = self._checked(n)
        if n < 0:
            return []
        start = (n // self.every) * self.every
        begun = self._start_within(self._anew, start, n)
        if begun is None:
            assembler = _thawed(self._checkpoints[n // self.every])
        else:  # a run started from its own conversation since the checkpoint: from there
            start, assembler = begun, UIMessageAssembler(copy_json(self._anew[begun]))
        segment = self.events[start : n + 1]
        if any(start <= i <= n for i in self.failures):
            for index, event in enumerate(segment, start):
                if index not in self.failures:
                    assembler.push(event)
        else:
            for event in merge_consecutive_deltas(segment):
                assembler.push(event)
        with contextlib.suppress(
            Exception
        ):  # a held-back result that cannot be placed: the messages as they are
            assembler.close()
        return assembler.messages

    def state_after(self, n: int) -> StateAt:
        """The shared state after ``events[:n + 1]`` (a copy) and what its last state event changed."""
        n = self._checked(n)
        if n < 0:
            return StateAt({}, (), None)
        start = (n // self.every) * self.every
        state, paths, changed_at = self._states[n // self.every]
        begun = self._start_within(self._stated, start, n)
        if begun is not None:
            start, state, paths, changed_at = begun, self._stated[begun], (), None
        state = copy_json(state)
        for index in range(start, n + 1):
            stepped = _state_step(state, self.events[index])
            if stepped is not None:
                state, paths = stepped
                changed_at = index
        return StateAt(state, paths, changed_at)

    def events_of_part(self, message_index: int, part_index: int, *, upto: int | None = None) -> list[int]:
        """The events (up to event ``upto``, default the last) that changed part ``part_index`` of message
        ``message_index``; for a part no event names (a whole message put at once), the events that put it."""
        last = len(self.events) - 1 if upto is None else self._checked(upto)
        touched = self.touched
        exact = [i for i in range(last + 1) if (message_index, part_index) in touched[i]]
        if exact or part_index < 0:
            return exact
        return [i for i in range(last + 1) if (message_index, -1) in touched[i]]

    @staticmethod
    def _start_within(starts: Mapping[int, Any], checkpoint: int, n: int) -> int | None:
        """The last of ``starts`` after event ``checkpoint`` (whose checkpoint holds any start there) up to
        ``n``."""
        begun = None
        for index in starts:
            if index > n:
                break
            if index > checkpoint:
                begun = index
        return begun

    def _checked(self, n: int) -> int:
        if not -1 <= n < len(self.events):
            raise SeekError(f"event {n}: the run has {len(self.events)} events (0 to {len(self.events) - 1})")
        return n


def _message_ids(messages: list[dict[str, JSON]]) -> list[Any]:
    """The ids of a run input's messages, in order (activity messages stay on the client: not in an input)."""
    return [m.get("id") for m in messages if m.get("role") != "activity"]


def _tool_part(messages: list[dict[str, JSON]], tool_call_id: Any) -> tuple[int, int] | None:
    """Where the tool part of call ``tool_call_id`` is, the newest message first."""
    for message_index in range(len(messages) - 1, -1, -1):
        for part_index, part in enumerate(messages[message_index].get("parts") or ()):
            if part.get("toolCallId") == tool_call_id:
                return message_index, part_index
    return None


class _Pickler(pickle.Pickler):
    """Pickles the package's sentinels (``_MISSING = object()`` and the like, compared with ``is``) by reference."""

    def persistent_id(self, obj: Any) -> int | None:
        return _sentinels()[1].get(id(obj)) if type(obj) is object else None


class _Unpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Any:
        return _sentinels()[0][pid]


def _frozen(assembler: UIMessageAssembler) -> bytes:
    """A checkpoint: the assembler as bytes (a pickle is smaller than a deep copy, and faster both ways)."""
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(assembler)
    return buffer.getvalue()


def _thawed(checkpoint: bytes) -> UIMessageAssembler:
    return _Unpickler(io.BytesIO(checkpoint)).load()


def _sentinels() -> tuple[list[object], dict[int, int]]:
    """The package's bare ``object()`` sentinels, and their places in that list by ``id``."""
    global _SENTINELS
    if _SENTINELS is None:
        values = list(
            {
                id(value): value
                for name, module in list(sys.modules.items())
                if name.startswith("agui_notebook.")
                for value in vars(module).values()
                if type(value) is object
            }.values()
        )
        _SENTINELS = values, {id(value): i for i, value in enumerate(values)}
    return _SENTINELS


_SENTINELS: tuple[list[object], dict[int, int]] | None = None


def _state_step(state: JSON, event: dict[str, JSON]) -> tuple[JSON, tuple[str, ...]] | None:
    """The state after a state event and the paths it changed; ``None`` for any other event (or a delta that
    does not apply: the client keeps the old state)."""
    kind = event.get("type")
    if kind == "STATE_SNAPSHOT":
        return copy_json(event.get("snapshot")), ("",)
    if kind == "STATE_DELTA":
        operations: JSON = event.get("delta")
        try:
            state = apply_json_patch(state, operations)
        except Exception:
            return None
        paths = tuple(
            op["path"] for op in operations if isinstance(op, dict) and isinstance(op.get("path"), str)
        )
        return state, paths
    return None
