"""Live metrics of the answers a ChatWidget streams: TTFT, rates, duration and the inter-chunk gaps.

Read from ``chat.events`` (the recorder's records, with their receive times) as they are recorded, O(1) per
event, with the definitions of the logs tables (docs/metrics.md, "How the numbers are defined"), so a
message's strip and ``runs_df``/``chunks_df`` of ``load_events(chat)`` agree:

- ``ttft_s``: the run's RUN_STARTED to its first non-empty text or reasoning chunk (``runs_df.ttft_s``); a
  stream without RUN_STARTED is timed from the user's send (the logs, which never saw it, from its first
  event);
- ``chunks_per_s``: chunks after the first per second from the first to the last (``runs_df.chunks_per_s``);
- ``tokens_per_s``: (output tokens - 1) / (last chunk - first chunk), that is ``1 / runs_df.tpot_s``, with the
  tokens the run reports on RUN_FINISHED/RUN_ERROR ``usage``; without usage the tokens are estimated as
  characters / ``CHARS_PER_TOKEN`` and ``tokens_estimated`` says so;
- ``duration_s``: RUN_STARTED to RUN_FINISHED/RUN_ERROR (``runs_df.duration_s``); ``elapsed_s`` runs on while
  the answer streams;
- ``gaps_s``: the gaps between consecutive chunks of the same text or reasoning message (``chunks_df.gap_s``),
  as at most ``MAX_BARS`` bars, each the largest of ``gaps_per_bar`` consecutive gaps.

AI SDK chunk streams are read as the logs read them (``logs/_aisdk.py``: ``start`` opens the run).

>>> metrics = RunMetrics(sent_ns=0)
>>> for ns, event in [(0, {"type": "RUN_STARTED"}), (200_000_000, {"type": "TEXT_MESSAGE_CONTENT",
...     "messageId": "m", "delta": "Hi"}), (300_000_000, {"type": "TEXT_MESSAGE_CONTENT", "messageId": "m",
...     "delta": " there"}), (500_000_000, {"type": "RUN_FINISHED"})]:
...     metrics.add(ns, event)
>>> summary = metrics.summary()
>>> summary["ttft_s"], summary["duration_s"], summary["chunks_per_s"], summary["gaps_s"]
(0.2, 0.5, 10.0, [0.1])
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agui_notebook._types import JSON
from agui_notebook.chat._recorder import RecordedEvent
from agui_notebook.logs._aisdk import UIChunkConverter
from agui_notebook.logs._kinds import CHUNK_ID_KEYS, REASONING_DELTA_TYPES, RUN_END_TYPES, TEXT_DELTA_TYPES
from agui_notebook.logs._odd_values import OddValues
from agui_notebook.logs.tables._runs import _usage
from agui_notebook.ui._chunk_types import is_ui_chunk_type
from agui_notebook.wire._records import is_chat_record

__all__ = [
    "CHARS_PER_TOKEN",
    "MAX_BARS",
    "METRICS_SYNC_SECONDS",
    "READ_BATCH",
    "GapBars",
    "LiveMetrics",
    "MessageMetrics",
    "RunMetrics",
]

MAX_BARS = 60
"""The most bars a message's sparkline has; longer streams are downsampled by max (a long stall stays visible)."""

METRICS_SYNC_SECONDS = 0.25
"""During a run ``message_metrics`` is synced at most this often (and when the run ends)."""

READ_BATCH = 256
"""Records the metrics read at a time while a run streams, shown or not: they keep up in steps of about a
millisecond, and the run's end has little left to read (100,000 records read at once stalled the loop 0.4 s)."""

CHARS_PER_TOKEN = 4.0
"""Characters per token when a run reports no usage (the usual rule of thumb for English text)."""

_CHUNK_TYPES = TEXT_DELTA_TYPES | REASONING_DELTA_TYPES
_NS = 1e-9


def _rounded(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds, 6)


@dataclass(slots=True)
class GapBars:
    """Inter-chunk gaps as at most ``MAX_BARS`` bars, each the largest gap of ``per_bar`` consecutive ones.

    >>> bars = GapBars(capacity=2)
    >>> for gap in (1.0, 3.0, 2.0):
    ...     bars.add(gap)
    >>> bars.bars, bars.per_bar, bars.count
    ([3.0, 2.0], 2, 3)
    """

    capacity: int = MAX_BARS
    bars: list[float] = field(default_factory=list)
    per_bar: int = 1
    count: int = 0
    _in_last: int = 0  # gaps in the last bar

    def add(self, gap: float) -> None:
        """One more gap (amortised O(1): the bars are halved, pairwise max, each time they fill up)."""
        self.count += 1
        if self.bars and self._in_last == self.per_bar and len(self.bars) == self.capacity:
            old = self.bars
            self.bars = [max(old[i], old[i + 1]) for i in range(0, len(old) - 1, 2)]
            if len(old) % 2:  # the odd bar out is the first half of a bar of the new width
                self.bars.append(old[-1])
            else:
                self._in_last *= 2
            self.per_bar *= 2
        if self.bars and self._in_last < self.per_bar:
            if gap > self.bars[-1]:
                self.bars[-1] = gap
            self._in_last += 1
            return
        self.bars.append(gap)
        self._in_last = 1


@dataclass(slots=True)
class RunMetrics:
    """The numbers of one run, advanced event by event (``add``); ``summary()`` is what the strip shows."""

    sent_ns: int | None = None
    """When the user sent (the run's begin): the start when the stream has no RUN_STARTED."""
    started_ns: int | None = None
    first_event_ns: int | None = None
    last_event_ns: int | None = None
    first_chunk_ns: int | None = None
    last_chunk_ns: int | None = None
    ended_ns: int | None = None
    chunks: int = 0
    chars: int = 0
    output_tokens: int | None = None
    gaps: GapBars = field(default_factory=GapBars)
    max_gap_s: float = 0.0
    _last_by_message: dict[Any, int] = field(default_factory=dict)
    _chunk_message: Any = None  # the message a *_CHUNK without its id continues
    _converter: UIChunkConverter | None = None

    def add_record(self, record: RecordedEvent) -> None:
        """One record of ``chat.events``: an AG-UI event, or an AI SDK chunk read as the logs read it."""
        event = record["event"]
        if is_chat_record(event):
            return  # what the user did (the chat's own records) is no part of the agent's stream
        received_ns = record["received_ns"]
        kind = event.get("type") if type(event) is dict else None
        if kind in _CHUNK_TYPES or not is_ui_chunk_type(kind):
            self.add(received_ns, event)
            return
        if self._converter is None:
            self._converter = UIChunkConverter()
        for converted in self._converter.feed(event):
            self.add(received_ns, converted)

    def add(self, received_ns: int, event: dict[str, Any]) -> None:
        """One AG-UI event received at ``received_ns``."""
        if self.first_event_ns is None:
            self.first_event_ns = received_ns
        self.last_event_ns = received_ns
        kind = event.get("type")
        if kind in _CHUNK_TYPES:
            delta = event.get("delta")
            if type(delta) is not str or not delta:
                return
            message = event.get("messageId")
            if message is None and kind in CHUNK_ID_KEYS:
                message = self._chunk_message
            self._chunk_message = message
            self.chunks += 1
            self.chars += len(delta)
            if self.first_chunk_ns is None:
                self.first_chunk_ns = received_ns
            self.last_chunk_ns = received_ns
            key = message if type(message) is str else repr(message)
            previous = self._last_by_message.get(key)
            self._last_by_message[key] = received_ns
            if previous is not None:
                gap = (received_ns - previous) * _NS
                self.gaps.add(gap)
                if gap > self.max_gap_s:
                    self.max_gap_s = gap
        elif kind == "RUN_STARTED":
            if self.started_ns is None:
                self.started_ns = received_ns
        elif kind in RUN_END_TYPES and self.ended_ns is None:
            # The first end is the run's (an AI SDK stream goes on after its ``error`` chunk, to ``finish``:
            # the logs read that tail as a run of its own).
            self.ended_ns = received_ns
            self.output_tokens = _usage(event, -1, OddValues()).get("output_tokens")

    def _start_ns(self) -> int | None:
        if self.started_ns is not None:
            return self.started_ns
        return self.sent_ns if self.sent_ns is not None else self.first_event_ns

    def summary(self) -> dict[str, JSON]:
        """The strip's numbers (seconds, rounded to the microsecond); ``None`` where there is nothing to measure."""
        start = self._start_ns()
        first, last = self.first_chunk_ns, self.last_chunk_ns
        span = (last - first) * _NS if first is not None and last is not None else 0.0
        estimated = self.output_tokens is None
        tokens = self.chars / CHARS_PER_TOKEN if estimated else float(self.output_tokens or 0)
        end = self.ended_ns
        return {
            "ttft_s": _rounded((first - start) * _NS if first is not None and start is not None else None),
            "duration_s": _rounded((end - start) * _NS if end is not None and start is not None else None),
            "elapsed_s": _rounded(
                (self.last_event_ns - start) * _NS
                if self.last_event_ns is not None and start is not None
                else None
            ),
            "running": end is None,
            "chunks": self.chunks,
            "chars": self.chars,
            "chunks_per_s": _rounded((self.chunks - 1) / span if span > 0 and self.chunks > 1 else None),
            "output_tokens": self.output_tokens,
            "tokens_per_s": _rounded((tokens - 1) / span if span > 0 and tokens > 1 else None),
            "tokens_estimated": estimated,
            "gaps_s": [round(gap, 6) for gap in self.gaps.bars],
            "gaps_per_bar": self.gaps.per_bar,
            "gap_count": self.gaps.count,
            "max_gap_s": _rounded(self.max_gap_s if self.gaps.count else None),
        }


class MessageMetrics:
    """Per assistant message, the metrics of the run that streamed it, read from a recorder's records.

    ``begin_run`` when a run starts, ``read()`` whenever records may have been added (each record is read once),
    ``assign(message_id)`` to say which message the run streams into; ``as_trait()`` is the synced value
    ``{message id: summary}``. A run that continues a message (an answered interrupt) replaces its numbers.
    """

    def __init__(self, records: list[RecordedEvent]) -> None:
        self._records = records
        self._read = len(records)
        self._run: RunMetrics | None = None
        self._message_id: str | None = None
        self._done: dict[str, dict[str, JSON]] = {}
        self.changed = False
        """Whether anything changed since the owner last took ``as_trait()``."""

    def begin_run(self, sent_ns: int | None) -> None:
        self.read()
        self._run = RunMetrics(sent_ns=sent_ns)
        self._message_id = None
        self._read = len(self._records)

    @property
    def unread(self) -> int:
        """Records recorded since the last read."""
        return len(self._records) - self._read

    def read(self) -> None:
        records = self._records
        if self._read > len(records):  # the records were cleared
            self._read = 0
        run = self._run
        if run is not None:
            for index in range(self._read, len(records)):
                run.add_record(records[index])
            self.changed = self.changed or self._read != len(records)
        self._read = len(records)

    def assign(self, message_id: str | None) -> None:
        if message_id is not None and message_id != self._message_id and self._run is not None:
            self._message_id = message_id
            self.changed = True

    def end_run(self) -> None:
        self.read()
        if self._run is not None and self._message_id is not None:
            self._done[self._message_id] = self._run.summary()
            self.changed = True
        self._run = None
        self._message_id = None

    def clear(self) -> None:
        self._done.clear()
        self._run = None
        self._message_id = None
        self._read = len(self._records)
        self.changed = True

    def as_trait(self) -> dict[str, dict[str, JSON]]:
        self.changed = False
        value = dict(self._done)
        if self._run is not None and self._message_id is not None:
            value[self._message_id] = self._run.summary()
        return value


class LiveMetrics:
    """A view's ``message_metrics``: the metrics of a chat's records, synced at most every
    ``METRICS_SYNC_SECONDS`` during a run (and when it ends) while the view shows them."""

    def __init__(
        self, records: list[RecordedEvent], publish: Callable[[dict[str, dict[str, JSON]]], None]
    ) -> None:
        self.metrics = MessageMetrics(records)
        self._records = records
        self._publish = publish
        self._from = 0  # the first message the run in progress may stream into
        self._synced_at = 0.0

    def reads(self, records: list[RecordedEvent]) -> bool:
        """Whether these metrics are read from ``records`` (a thread switch gives the view others)."""
        return self._records is records

    def run_begun(self, messages: list[dict[str, JSON]], sent_ns: int | None, resumes: bool) -> None:
        resumed = resumes and bool(messages) and messages[-1].get("role") == "assistant"
        self._from = len(messages) - 1 if resumed else len(messages)
        self.metrics.begin_run(sent_ns)

    def _message_id(self, messages: list[dict[str, JSON]]) -> str | None:
        """The assistant message the run in progress streams into (None before it has one)."""
        if len(messages) > self._from and messages[-1].get("role") == "assistant":
            message_id = messages[-1].get("id")
            return message_id if type(message_id) is str else None
        return None

    def follow(self) -> None:
        """Read the new records once ``READ_BATCH`` of them wait (called as the run's changes arrive)."""
        if self.metrics.unread >= READ_BATCH:
            self.metrics.read()

    def run_ended(self, messages: list[dict[str, JSON]]) -> None:
        self.metrics.assign(self._message_id(messages))
        self.metrics.end_run()

    def sync(self, messages: list[dict[str, JSON]], *, force: bool = False) -> None:
        """Publish the metrics when they changed (during a run, at most every ``METRICS_SYNC_SECONDS``)."""
        if not force and time.monotonic() - self._synced_at < METRICS_SYNC_SECONDS:
            return
        metrics = self.metrics
        metrics.read()
        metrics.assign(self._message_id(messages))
        if not metrics.changed and not force:
            return
        self._synced_at = time.monotonic()
        self._publish(metrics.as_trait())
