"""What a scorer reads: one run of a source (``Run``) or one message of it (``Message``), built from the events
frame, ``runs_df``, ``messages_df`` and ``tool_calls_df`` of the source (nothing is parsed again here).

>>> runs = runs_of([
...     {"type": "RUN_STARTED", "threadId": "t", "runId": "r1"},
...     {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m1", "role": "assistant", "delta": "Hello!"},
...     {"type": "RUN_FINISHED", "threadId": "t", "runId": "r1"},
... ])
>>> [(run.key, run.text, run.row["status"]) for run in runs]
[('r1', 'Hello!', 'success')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.inspection._expect import RunExpectation
from agui_notebook.inspection._source import InspectedRun, chat_run_inputs, events_frame
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.logs.tables._tool_calls import tool_calls_df

__all__ = ["Message", "Run", "message_text", "runs_of"]


def message_text(message: dict[str, Any]) -> str:
    """The text of a UIMessage (dict): its text parts, joined."""
    return "".join(
        part["text"]
        for part in message.get("parts") or ()
        if part.get("type") == "text" and isinstance(part.get("text"), str)
    )


@dataclass(eq=False)
class Run:
    """One run of a source, as a scorer sees it: its events, its UIMessages, its answer, its tool calls, its run
    input and its ``runs_df`` row.

    >>> run = runs_of([{"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}])[0]
    >>> run.run_id, run.thread_id, run.text, run.tool_calls.empty
    ('r1', 't', '', True)
    """

    inspected: InspectedRun
    """The run's events as ``expect`` reads them (its frame, wire dicts, place in the source, chat run inputs)."""
    row: pd.Series
    """Its row of ``runs_df`` (``status``, ``ttft_s``, ``model``, tokens ...)."""
    _messages: list[dict[str, Any]] | None = field(default=None, repr=False)
    _calls: pd.DataFrame | None = field(default=None, repr=False)

    @property
    def key(self) -> str:
        """Its ``run_key``: the run id, numbered (``r#2``) when runs of the source share one."""
        return str(self.row["run_key"])

    @property
    def run_id(self) -> str:
        """Its ``run_id``."""
        return str(self.row["run_id"])

    @property
    def thread_id(self) -> str | None:
        """Its ``thread_id`` (None when the events name none)."""
        value = self.row["thread_id"]
        return None if pd.isna(value) else str(value)

    @property
    def source(self) -> str:
        """Where its events were read from: the file path, or ``<events>``, ``<recorder>`` ..."""
        return str(self.row["source"])

    @property
    def frame(self) -> pd.DataFrame:
        """Its rows of the events frame (``load_events``), renumbered from 0."""
        return self.inspected.frame

    @property
    def events(self) -> list[dict[str, Any]]:
        """Its events as AG-UI wire dicts."""
        return self.inspected.events

    @property
    def messages(self) -> list[dict[str, Any]]:
        """Its UIMessages (dicts) as ``ui_messages_from_events`` assembles them: the answer, with the user's turn
        first when the run input holds it (a chat's run)."""
        if self._messages is None:
            self._messages = ui_message_dicts_from_events(self.events)
        return self._messages

    @property
    def text(self) -> str:
        """The final answer: the text of its last assistant message (``""`` when it streamed none)."""
        answers = [message_text(m) for m in self.messages if m.get("role") == "assistant"]
        answers = [text for text in answers if text]
        return answers[-1] if answers else ""

    @property
    def input(self) -> dict[str, Any] | None:
        """Its run input (AG-UI ``RunAgentInput`` wire dict): a chat's recorded input, else ``RUN_STARTED``'s
        ``input``; None when the log has neither."""
        for _, wire in sorted(self.inspected.inputs.items()):
            return wire
        for event in self.events:
            if event.get("type") == "RUN_STARTED" and isinstance(event.get("input"), dict):
                return dict(event["input"])
        return None

    @property
    def question(self) -> str:
        """The text of the last user message of its run input (``""`` when there is none)."""
        run_input = self.input or {}
        messages = run_input.get("messages")
        for message in reversed(messages if isinstance(messages, list) else []):
            if isinstance(message, dict) and message.get("role") == "user":
                content = message.get("content")
                if isinstance(content, str):
                    return content
                if isinstance(content, list):
                    return "".join(
                        item.get("text", "")
                        for item in content
                        if isinstance(item, dict) and item.get("type") == "text"
                    )
        return ""

    @property
    def tool_calls(self) -> pd.DataFrame:
        """Its rows of ``tool_calls_df`` (``tool_name``, ``args``, ``result``, ``status`` ...)."""
        if self._calls is None:
            self._calls = tool_calls_df(self.frame).reset_index(drop=True)
        return self._calls

    def expect(self) -> RunExpectation:
        """``expect``'s checks over this run.

        >>> run = runs_of([{"type": "RUN_STARTED", "threadId": "t", "runId": "r1"}])[0]
        >>> run.expect().no_tool_errors()
        <expect run 'r1': 1 check passed>
        """
        return RunExpectation(self.inspected)

    def __repr__(self) -> str:
        return f"<Run {self.key!r} of {self.source!r}: {self.row['status']}, {len(self.events)} events>"


@dataclass(eq=False)
class Message:
    """One message of a run, as a per-message scorer sees it: its ``messages_df`` row and its run."""

    row: pd.Series
    """Its row of ``messages_df`` (``role``, ``kind``, ``text``, ``feedback`` ...)."""
    run: Run | None
    """The run it belongs to (None for a message outside any run)."""

    @property
    def text(self) -> str:
        """Its text (``""`` when it has none)."""
        value = self.row["text"]
        return "" if pd.isna(value) else str(value)

    @property
    def role(self) -> str:
        """``user``, ``assistant`` ..."""
        return str(self.row["role"])

    @property
    def message_id(self) -> str:
        """Its ``message_id``."""
        return str(self.row["message_id"])

    def __repr__(self) -> str:
        return f"<Message {self.message_id!r} ({self.role}) of run {str(self.row['run_key'])!r}>"


def runs_of(
    source: Any,
    *,
    table: pd.DataFrame | None = None,
    inputs: dict[int, dict[str, Any]] | None = None,
) -> list[Run | None]:
    """The runs of ``source`` (anything ``load_events`` reads, a frame of it, a Chat or ChatWidget), one per row of
    its ``runs_df`` (or of ``table``, a ``runs_df`` of the same events; None for a row whose run has no events
    here). ``inputs`` are a chat's run inputs by row (``chat_run_inputs``), when ``source`` is its frame."""
    frame = events_frame(source)
    if table is None:
        table = runs_df(frame)
    if inputs is None:
        inputs = chat_run_inputs(source, frame)
    keys = frame["run_key"].astype(object).to_numpy()
    rows_by_key: dict[str, list[int]] = {}
    for place, key in enumerate(keys.tolist()):
        if isinstance(key, str):
            rows_by_key.setdefault(key, []).append(place)
    runs: list[Run | None] = []
    for _, row in table.iterrows():
        key = str(row["run_key"])
        rows = rows_by_key.get(key)
        if not rows:
            runs.append(None)
            continue
        picked = frame.iloc[rows].reset_index(drop=True)
        at = {r: i for i, r in enumerate(rows)}
        kept = {at[r]: wire for r, wire in inputs.items() if r in at}
        events = [event if isinstance(event, dict) else {} for event in picked["event"]]
        run_id = picked["run_id"].iloc[0]
        label = f"run {key!r}" if str(run_id) == key else f"run {key!r} (id {run_id!r})"
        runs.append(Run(InspectedRun(picked, events, rows[0], label, kept), row))
    return runs
