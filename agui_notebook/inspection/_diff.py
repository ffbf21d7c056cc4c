"""``diff_runs``: two runs aligned part by part, their differences as a table and side by side.

Each run's conversation is assembled (``ui_message_dicts_from_events``; a whole ChatWidget is its
``chat.messages``, one run of a chat starts from the input the chat sent it) and flattened into its parts in order (``step-start`` parts, which only mark steps, left
out). The two part lists are aligned like ``difflib`` aligns lines, each part keyed by its message's role, its
type and, for a tool call, the tool's name: aligned parts are compared field by field, unaligned ones are added
or removed. The runs' metrics (``runs_df``) are compared after the parts.

>>> a = [{"type": "RUN_STARTED", "threadId": "t", "runId": "a", "timestamp": 0},
...      {"type": "TEXT_MESSAGE_CHUNK", "messageId": "m", "delta": "Sunny.", "timestamp": 300},
...      {"type": "RUN_FINISHED", "threadId": "t", "runId": "a", "timestamp": 900}]
>>> b = [{**a[0], "runId": "b"}, {**a[1], "delta": "Rainy.", "timestamp": 500}, {**a[2], "runId": "b"}]
>>> diff_runs(a, b).table[["change", "where", "a", "b"]]
         change             where       a       b
0  text_changed  message 0 part 1  Sunny.  Rainy.
1        ttft_s               run     0.3     0.5
"""

from __future__ import annotations

import difflib
import html
import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pandas as pd

from agui_notebook._errors import OptionError
from agui_notebook._options import keyword_options
from agui_notebook.bridge._assemble import ui_message_dicts_from_events
from agui_notebook.logs.tables._runs import runs_df
from agui_notebook.wire._json import encode_json

from ._source import InspectedRun, inspected_run
from ._timeline import EventTimeline, run_starts

__all__ = ["CHANGES", "DIFF_COLUMNS", "METRICS", "RunDiff", "diff_runs"]

CHANGES: dict[str, str] = {
    "text_changed": "an aligned text part says something else (a and b: the texts)",
    "text_added": "a text part only b has",
    "text_removed": "a text part only a has",
    "reasoning_length": "an aligned reasoning part is longer or shorter (a and b: characters)",
    "reasoning_added": "a reasoning part only b has (b: its characters)",
    "reasoning_removed": "a reasoning part only a has (a: its characters)",
    "tool_added": "a tool call only b made (b: `name(arguments)`)",
    "tool_removed": "a tool call only a made (a: `name(arguments)`)",
    "tool_args_changed": "an aligned call of the same tool with other arguments (a and b: the arguments)",
    "tool_result_changed": "an aligned tool call with another result, error or state (a and b: what it returned)",
    "part_changed": "another aligned part (files, sources, data) that differs (a and b: the parts as JSON)",
    "part_added": "another part only b has",
    "part_removed": "another part only a has",
    "ttft_s": "time to first text or reasoning chunk (`runs_df`; the first run's when there are several)",
    "duration_s": "run duration (summed over the runs)",
    "input_tokens": "input tokens (summed over the runs)",
    "output_tokens": "output tokens (summed over the runs)",
}
"""Every ``change`` a diff row may name, with what ``a`` and ``b`` hold for it."""

METRICS = ("ttft_s", "duration_s", "input_tokens", "output_tokens")
"""The ``runs_df`` columns compared, in this order, after the parts."""

DIFF_COLUMNS = ("change", "where", "a", "b", "delta")
"""The table's columns: the kind of difference (:data:`CHANGES`), where (``message 1 part 2``; both places when
they differ, ``a`` first; ``run`` for metrics), the two values, and ``b - a`` for numbers."""

PREVIEW_CHARS = 2000
"""The side-by-side view shows this many characters of a part."""


@dataclass(frozen=True)
class _Part:
    message: int
    index: int
    role: str
    part: dict[str, Any]

    @property
    def kind(self) -> str:
        kind = str(self.part.get("type", ""))
        if kind.startswith("tool-") or kind == "dynamic-tool":
            return "tool"
        return kind if kind in ("text", "reasoning") else "part"

    @property
    def key(self) -> tuple[str, ...]:
        if self.kind == "tool":
            return (self.role, "tool", self.tool_name)
        return (self.role, str(self.part.get("type", "")))

    @property
    def tool_name(self) -> str:
        kind = str(self.part.get("type", ""))
        return str(self.part.get("toolName") or kind.removeprefix("tool-"))

    @property
    def place(self) -> str:
        return f"message {self.message} part {self.index}"


def _json(value: Any) -> str:
    try:
        return value if isinstance(value, str) else encode_json(value)
    except Exception:
        return repr(value)


def _tool_call(part: _Part) -> str:
    return f"{part.tool_name}({_json(part.part.get('input'))})"


def _tool_outcome(part: dict[str, Any]) -> str:
    """What a tool part returned: its output, its error, or (none yet) its state."""
    if part.get("errorText"):
        return f"error: {part['errorText']}"
    if "output" in part:
        return _json(part["output"])
    return f"({part.get('state', 'no result')})"


def _parts(messages: list[dict[str, Any]]) -> list[_Part]:
    return [
        _Part(mi, pi, str(message.get("role", "")), part)
        for mi, message in enumerate(messages)
        for pi, part in enumerate(message.get("parts") or ())
        if isinstance(part, dict) and part.get("type") != "step-start"
    ]


@dataclass(frozen=True)
class _Row:
    """One row of the side-by-side view: an aligned pair, or a part one side alone has."""

    a: _Part | None
    b: _Part | None
    status: str  # "same", "changed", "added", "removed"


@dataclass
class RunDiff:
    """What :func:`diff_runs` returns: ``table`` (one row per difference), and the two runs side by side when
    shown in a notebook (``_repr_html_``)."""

    table: pd.DataFrame
    """One row per difference: :data:`DIFF_COLUMNS`, ``change`` from :data:`CHANGES`."""
    rows: list[_Row]
    """The aligned parts, in order, as the side-by-side view draws them."""
    labels: tuple[str, str]

    def __len__(self) -> int:
        return len(self.table)

    def __bool__(self) -> bool:
        return not self.table.empty

    def __repr__(self) -> str:
        if self.table.empty:
            return f"<RunDiff {self.labels[0]} vs {self.labels[1]}: no differences>"
        return f"<RunDiff {self.labels[0]} vs {self.labels[1]}: {len(self.table)} differences>\n{self.table}"

    def _repr_html_(self) -> str:
        return _html(self)


@keyword_options
def diff_runs(a: Any, b: Any, *, run: Any = None) -> RunDiff:
    """The differences between two runs: logs, events frames, event lists or ChatWidgets.

    ``run`` picks the run of each source that has several (an index or id as for :func:`expect`; a pair
    ``(run_a, run_b)`` picks one for each); ``None`` compares the sources whole (a ChatWidget: its
    conversation, ``chat.messages``). Returns a :class:`RunDiff`: ``.table`` is the DataFrame (an empty one
    when the runs agree), and a notebook shows the two runs side by side, aligned part by part, with the
    differences highlighted.

    >>> diff_runs("before.jsonl", "after.jsonl").table.query("change == 'tool_args_changed'")  # doctest: +SKIP
    """
    if isinstance(run, tuple) and len(run) != 2:
        raise OptionError(f"run=(run_a, run_b) picks a run of each source: a pair, not {len(run)} values")
    run_a, run_b = run if isinstance(run, tuple) else (run, run)
    first, second = inspected_run(a, run_a), inspected_run(b, run_b)
    parts_a, parts_b = _parts(_messages(a, first, run_a)), _parts(_messages(b, second, run_b))
    rows, changes = _align(parts_a, parts_b)
    changes += _metric_changes(first, second)
    table = pd.DataFrame(changes, columns=list(DIFF_COLUMNS))
    table["delta"] = pd.Series([c["delta"] for c in changes], dtype=object)  # None, not NaN, where no number
    return RunDiff(table, rows, (_label(a, first), _label(b, second)))


def _label(source: Any, run: InspectedRun) -> str:
    """A path's name (with the run, if one was picked), else the run's label."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and os.path.isfile(source)):
        name = os.fspath(source)
        return name if run.label == "the events" else f"{name} {run.label}"
    if (
        run.label == "the events"
        and hasattr(source, "events")
        and isinstance(getattr(source, "messages", None), list)
    ):
        return "the chat"
    return run.label


def _messages(source: Any, run: InspectedRun, picked: Any) -> list[dict[str, Any]]:
    held = getattr(source, "messages", None)
    if picked is None and hasattr(source, "events") and isinstance(held, list):
        return held  # a whole ChatWidget: its conversation (user turns are not in its events)
    if (
        run.inputs and run.events
    ):  # a run of a chat: from the input the chat sent it, as inspect_run() shows it
        return EventTimeline(run.events, starts=run_starts(run.inputs)).messages_after(len(run.events) - 1)
    return ui_message_dicts_from_events(run.events)


def _align(parts_a: list[_Part], parts_b: list[_Part]) -> tuple[list[_Row], list[dict[str, Any]]]:
    rows: list[_Row] = []
    changes: list[dict[str, Any]] = []
    matcher = difflib.SequenceMatcher(
        None, [p.key for p in parts_a], [p.key for p in parts_b], autojunk=False
    )
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for left, right in zip(parts_a[i1:i2], parts_b[j1:j2], strict=True):
                found = _compared(left, right)
                changes += found
                rows.append(_Row(left, right, "changed" if found else "same"))
            continue
        for left in parts_a[i1:i2]:
            changes.append(_one_side(left, "removed"))
            rows.append(_Row(left, None, "removed"))
        for right in parts_b[j1:j2]:
            changes.append(_one_side(right, "added"))
            rows.append(_Row(None, right, "added"))
    return rows, changes


def _where(left: _Part, right: _Part) -> str:
    return left.place if left.place == right.place else f"{left.place} / {right.place}"


def _change(change: str, where: str, a: Any, b: Any) -> dict[str, Any]:
    delta = None
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (a, b)):
        delta = b - a
    return {"change": change, "where": where, "a": a, "b": b, "delta": delta}


def _compared(left: _Part, right: _Part) -> list[dict[str, Any]]:
    where = _where(left, right)
    one, two = left.part, right.part
    if left.kind == "text":
        same = one.get("text") == two.get("text")
        return [] if same else [_change("text_changed", where, one.get("text"), two.get("text"))]
    if left.kind == "reasoning":
        sizes = len(str(one.get("text", ""))), len(str(two.get("text", "")))
        return [] if sizes[0] == sizes[1] else [_change("reasoning_length", where, *sizes)]
    if left.kind == "tool":
        found = []
        if one.get("input") != two.get("input"):
            found.append(
                _change("tool_args_changed", where, _json(one.get("input")), _json(two.get("input")))
            )
        if _tool_outcome(one) != _tool_outcome(two):
            found.append(_change("tool_result_changed", where, _tool_outcome(one), _tool_outcome(two)))
        return found
    return [] if one == two else [_change("part_changed", where, _json(one), _json(two))]


def _one_side(part: _Part, how: str) -> dict[str, Any]:
    value: Any
    if part.kind == "tool":
        change, value = f"tool_{how}", _tool_call(part)
    elif part.kind == "text":
        change, value = f"text_{how}", part.part.get("text")
    elif part.kind == "reasoning":
        change, value = f"reasoning_{how}", len(str(part.part.get("text", "")))
    else:
        change, value = f"part_{how}", _json(part.part)
    a, b = (value, None) if how == "removed" else (None, value)
    return {"change": change, "where": part.place, "a": a, "b": b, "delta": None}


def _metric(runs: pd.DataFrame, column: str) -> Any:
    values = runs[column].dropna()
    if values.empty:
        return None
    if column == "ttft_s":
        return float(runs[column].iloc[0]) if not pd.isna(runs[column].iloc[0]) else None
    total = values.sum()
    return float(total) if column.endswith("_s") else int(total)


def _metric_changes(first: InspectedRun, second: InspectedRun) -> list[dict[str, Any]]:
    runs_a, runs_b = runs_df(first.frame), runs_df(second.frame)
    changes = []
    for column in METRICS:
        a, b = _metric(runs_a, column), _metric(runs_b, column)
        if a is None and b is None:
            continue
        if a is not None and b is not None and math.isclose(a, b, rel_tol=0, abs_tol=1e-9):
            continue
        changes.append(_change(column, "run", a, b))
    return changes


# ------------------------------------------------------------------------------------------ side by side
_STYLE = """
.agui-diff{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:var(--jp-ui-font-size1,13px);
color:var(--jp-ui-font-color1,inherit);border-collapse:collapse;width:100%;table-layout:fixed}
.agui-diff th,.agui-diff td{border:1px solid var(--jp-border-color2,rgba(128,128,128,.35));padding:4px 8px;
vertical-align:top;text-align:left}
.agui-diff th{background:var(--jp-layout-color2,rgba(128,128,128,.12));font-weight:600}
.agui-diff .agui-diff-where{font-size:var(--jp-ui-font-size0,11px);color:var(--jp-ui-font-color2,#888)}
.agui-diff pre{margin:2px 0 0;white-space:pre-wrap;word-break:break-word;font-family:var(--jp-code-font-family,
monospace);font-size:var(--jp-code-font-size,12px);background:none;color:inherit}
.agui-diff tr[data-diff=changed] td{background:color-mix(in srgb,var(--jp-warn-color1,#f57c00) 14%,transparent);
box-shadow:inset 3px 0 var(--jp-warn-color1,#f57c00)}
.agui-diff tr[data-diff=added] td.agui-diff-b{background:color-mix(in srgb,var(--jp-success-color1,#4caf50) 14%,
transparent);box-shadow:inset 3px 0 var(--jp-success-color1,#4caf50)}
.agui-diff tr[data-diff=removed] td.agui-diff-a{background:color-mix(in srgb,var(--jp-error-color1,#f44336) 14%,
transparent);box-shadow:inset 3px 0 var(--jp-error-color1,#f44336)}
.agui-diff caption{caption-side:bottom;text-align:left;padding-top:4px;font-size:var(--jp-ui-font-size0,11px);
color:var(--jp-ui-font-color2,#888)}
.agui-diff td.agui-diff-empty{background:var(--jp-layout-color2,rgba(128,128,128,.08))}
.agui-diff ins{background:color-mix(in srgb,var(--jp-success-color1,#4caf50) 32%,transparent);color:inherit;
text-decoration:none}
.agui-diff del{background:color-mix(in srgb,var(--jp-error-color1,#f44336) 32%,transparent);color:inherit}
"""


def _cut(text: str) -> str:
    return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS] + "…"


def _words(text: str) -> list[str]:
    return re.split(r"(\s+)", text)


WORD_DIFF_PAIRS = 20_000
"""The most word pairs (words of a times words of b, after their common start and end) the view aligns word by
word; a longer difference is marked whole, so a cell costs in proportion to its text, not to its square."""


def _marked(one: str, two: str) -> tuple[str, str]:
    """Both texts escaped, the words only one has marked (``del`` on the left, ``ins`` on the right)."""
    left, right = _words(_cut(one)), _words(_cut(two))
    start = 0
    while start < min(len(left), len(right)) and left[start] == right[start]:
        start += 1
    end = 0
    while end < min(len(left), len(right)) - start and left[-1 - end] == right[-1 - end]:
        end += 1
    middle_a, middle_b = left[start : len(left) - end], right[start : len(right) - end]
    out_a = [html.escape("".join(left[:start]))]
    out_b = [out_a[0]]
    if len(middle_a) * len(middle_b) <= WORD_DIFF_PAIRS:
        opcodes = difflib.SequenceMatcher(None, middle_a, middle_b, autojunk=False).get_opcodes()
    else:
        opcodes = [("replace", 0, len(middle_a), 0, len(middle_b))]
    for tag, i1, i2, j1, j2 in opcodes:
        chunk_a, chunk_b = html.escape("".join(middle_a[i1:i2])), html.escape("".join(middle_b[j1:j2]))
        if tag == "equal":
            out_a.append(chunk_a)
            out_b.append(chunk_b)
            continue
        if chunk_a:
            out_a.append(f"<del>{chunk_a}</del>")
        if chunk_b:
            out_b.append(f"<ins>{chunk_b}</ins>")
    tail = html.escape("".join(left[len(left) - end :])) if end else ""
    return "".join(out_a) + tail, "".join(out_b) + tail


def _body(part: _Part) -> str:
    """The escaped text a cell shows for a part."""
    if part.kind in ("text", "reasoning"):
        return html.escape(_cut(str(part.part.get("text", ""))))
    if part.kind == "tool":
        return html.escape(_cut(f"{_tool_call(part)} → {_tool_outcome(part.part)}"))
    return html.escape(_cut(_json(part.part)))


def _cell(part: _Part | None, side: str, body: str | None = None) -> str:
    if part is None:
        return f'<td class="agui-diff-{side} agui-diff-empty"></td>'
    head = html.escape(f"{part.place} · {part.role} · {part.part.get('type', '')}")
    shown = _body(part) if body is None else body
    return f'<td class="agui-diff-{side}"><div class="agui-diff-where">{head}</div><pre>{shown}</pre></td>'


def _cells(row: _Row) -> Iterator[str]:
    if row.status == "changed" and row.a is not None and row.b is not None and row.a.kind == "text":
        left, right = _marked(str(row.a.part.get("text", "")), str(row.b.part.get("text", "")))
        yield _cell(row.a, "a", left)
        yield _cell(row.b, "b", right)
        return
    yield _cell(row.a, "a")
    yield _cell(row.b, "b")


def _html(diff: RunDiff) -> str:
    label_a, label_b = (html.escape(label) for label in diff.labels)
    summary = "no differences" if diff.table.empty else f"{len(diff.table)} differences"
    lines = [f"<style>{_STYLE}</style>", '<table class="agui-diff" data-agui="run-diff">']
    lines.append(f"<caption>{html.escape(summary)}</caption>")
    lines.append(f"<thead><tr><th>a: {label_a}</th><th>b: {label_b}</th></tr></thead><tbody>")
    for row in diff.rows:
        lines.append(f'<tr data-diff="{row.status}">{"".join(_cells(row))}</tr>')
    metrics = diff.table[diff.table["where"] == "run"]
    for change in metrics.itertuples():
        name = html.escape(str(change.change))
        lines.append(
            f'<tr data-diff="changed"><td class="agui-diff-a"><div class="agui-diff-where">{name}</div>'
            f"<pre>{html.escape(_number(change.a))}</pre></td>"
            f'<td class="agui-diff-b"><div class="agui-diff-where">{name}</div>'
            f"<pre>{html.escape(_number(change.b))}</pre></td></tr>"
        )
    if not diff.rows and metrics.empty:
        lines.append('<tr data-diff="same"><td colspan="2">both runs are empty</td></tr>')
    lines.append("</tbody></table>")
    return "\n".join(lines)


def _number(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)
