"""Renderers: user code that shows a message part as something else (a table, a chart, a widget).

``@chat.renderer("data-weather")`` registers ``fn(part) -> object`` for one part type (exact names: ``data-*``,
``tool-*``, ``dynamic-tool``, ``custom``, ``file``; AG-UI activities arrive as ``data-{activityType}`` parts). The
object it returns is turned into a mime bundle by :func:`output_bundle`, the one rule below, and shown in the
part's place; ``None`` keeps the default view.

======================================================  ==========================================================
returned                                                shown as (the bundle's mime type)
======================================================  ==========================================================
``None``                                                the default view of the part (a built-in renderer, or JSON)
pandas ``DataFrame`` / ``Series``                       a table: the first :data:`MAX_TABLE_ROWS` rows and
                                                        :data:`MAX_TABLE_COLUMNS` columns, "N more rows" below
                                                        (:data:`TABLE_MIME`, also what the built-in records table
                                                        draws)
matplotlib ``Figure``                                   a PNG image (``image/png``)
PIL ``Image``                                           a PNG image (``image/png``)
an ipywidget (anything whose mime bundle holds          a live view of the widget where the front end has a widget
``application/vnd.jupyter.widget-view+json``)           manager (JupyterLab 4, Notebook 7); elsewhere its text
an object with ``_repr_mimebundle_``                    its best safe type, in the order of :data:`SAFE_MIME_TYPES`
an object with ``_repr_html_``, ``_repr_markdown_``,    the first of these that returns something, in this order
``_repr_svg_``, ``_repr_png_``, ``_repr_jpeg_``         (``IPython.display.HTML``, ``Markdown``, ``SVG``, ``Image``)
``str``                                                 plain text (``text/plain``)
a ``dict`` or ``list`` of JSON                          a JSON view (``application/json``)
anything else                                           its ``repr()`` as plain text
======================================================  ==========================================================

HTML and markdown go through the front end's one sanitizer (``js/src/sanitize.js``): no script, no styles, no
remote requests without a click. SVG is shown as an ``<img>`` of a data URL, never inline. Images travel as
base64 (SVG too). A bundle larger than :data:`MAX_OUTPUT_CHARS` is refused (the part shows why).

Outputs travel in the ``rendered`` trait, ``{part key: entry}`` (:func:`part_key`: ``"{message id}/{part index}"``),
never inside ``messages``; an entry is ``{"type": part type, "data": {mime: value}}`` or, when the renderer
raised, ``{"type": part type, "error": text, "traceback": text}``. :class:`PartRenderers` decides when a
renderer runs: when a part it renders changes, at most every :data:`MIN_INTERVAL_SECONDS` per part while it streams
(or :data:`SLOW_FACTOR` times the renderer's last cost, when that is longer), and once more when the run ends.

>>> output_bundle("21 °C")
{'text/plain': '21 °C'}
>>> output_bundle(None) is None
True
"""

from __future__ import annotations

import asyncio
import base64
import io
import math
import os
import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from agui_notebook._errors import JsonValueError, OptionError, RendererOutputError
from agui_notebook._options import typed
from agui_notebook._shown import shown
from agui_notebook._types import JSON
from agui_notebook.ui._changes import MessageChange
from agui_notebook.wire._json import copy_json
from agui_notebook.wire._values import is_plain_json, json_value

__all__ = [
    "MAX_OUTPUT_CHARS",
    "MAX_TABLE_COLUMNS",
    "MAX_TABLE_ROWS",
    "MIN_INTERVAL_SECONDS",
    "SAFE_MIME_TYPES",
    "SLOW_FACTOR",
    "TABLE_MIME",
    "WIDGET_MIME",
    "PartRenderers",
    "output_bundle",
    "part_key",
]

TABLE_MIME = "application/vnd.agui-notebook.table+json"
"""A bounded table: ``{"columns": [str], "rows": [[cell]], "rowCount": n, "columnCount": m, "indexColumns": k}``
(cells are JSON; the first ``k`` columns are the frame's index)."""

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"

SAFE_MIME_TYPES = (
    WIDGET_MIME,
    TABLE_MIME,
    "text/html",
    "text/markdown",
    "image/svg+xml",
    "image/png",
    "image/jpeg",
    "image/gif",
    "application/json",
    "text/plain",
)
"""The mime types a rendered output may have, best first; a bundle keeps its best one (and ``text/plain``)."""

_REPR_METHODS = (
    ("_repr_html_", "text/html"),
    ("_repr_markdown_", "text/markdown"),
    ("_repr_svg_", "image/svg+xml"),
    ("_repr_png_", "image/png"),
    ("_repr_jpeg_", "image/jpeg"),
)
_IMAGE_TYPES = frozenset({"image/svg+xml", "image/png", "image/jpeg", "image/gif"})

MAX_TABLE_ROWS = 50
MAX_TABLE_COLUMNS = 20
MAX_TEXT_CHARS = 20_000
"""``text/plain`` outputs (and the text beside a richer one) are cut to this many characters."""
MAX_OUTPUT_CHARS = 4_000_000
"""The largest bundle one part may show (about 3 MB of PNG): the trait travels to every view and is saved."""

MIN_INTERVAL_SECONDS = 0.25
"""A streaming part is rendered again at most this often."""
SLOW_FACTOR = 4.0
"""A renderer slower than ``MIN_INTERVAL_SECONDS / SLOW_FACTOR`` waits this many times its last cost instead, so
renderers take at most about a fifth of the kernel's time while a part streams."""
MAX_TRACEBACK_CHARS = 4_000

Renderer = Callable[[dict[str, JSON]], Any]


def part_key(message_id: Any, index: int) -> str:
    """The key of a part's entry in the ``rendered`` trait: ``"{message id}/{part index}"``.

    >>> part_key("m1", 2)
    'm1/2'
    """
    return f"{message_id if isinstance(message_id, str) else ''}/{index}"


# ---------------------------------------------------------------------------------------------- the one rule
def output_bundle(value: Any) -> dict[str, JSON] | None:
    """The mime bundle a renderer's return value shows as (the table in the module docstring); None: default view.

    >>> output_bundle({"temp": 21})
    {'application/json': {'temp': 21}}
    """
    if value is None:
        return None
    bundle = _bundle(value)
    size = sum(len(v) if isinstance(v, str) else len(str(v)) for v in bundle.values())
    if size > MAX_OUTPUT_CHARS:
        raise RendererOutputError(
            f"the output is {size / 1e6:.1f} MB, more than the {MAX_OUTPUT_CHARS / 1e6:.0f} MB a part may show"
        )
    return bundle


def _bundle(value: Any) -> dict[str, JSON]:
    if isinstance(value, str):
        return {"text/plain": _cut(value)}
    module = type(value).__module__ or ""
    if module.startswith("pandas"):
        table = _pandas_table(value)
        if table is not None:
            return {TABLE_MIME: table, "text/plain": _cut(_safe_repr(value))}
    if module.startswith("matplotlib") and hasattr(value, "savefig"):
        return {"image/png": _figure_png(value), "text/plain": _cut(_safe_repr(value))}
    if module.startswith("PIL") and hasattr(value, "save") and hasattr(value, "mode"):
        return {"image/png": _pil_png(value), "text/plain": _cut(_safe_repr(value))}
    if isinstance(value, (dict, list)):
        try:
            return {"application/json": json_value(value, "the renderer's output")}
        except JsonValueError:
            return {"text/plain": _cut(_safe_repr(value))}
    method = getattr(value, "_repr_mimebundle_", None)
    if callable(method):
        data = method(include=None, exclude=None)
        data = data[0] if isinstance(data, tuple) else data
        if isinstance(data, Mapping):
            chosen = _best_of(data)
            if chosen:
                return chosen
    for name, mime in _REPR_METHODS:
        method = getattr(value, name, None)
        if not callable(method):
            continue
        data = method()
        data = data[0] if isinstance(data, tuple) else data
        if data is None:
            continue
        return {mime: _mime_value(mime, data), "text/plain": _cut(_safe_repr(value))}
    return {"text/plain": _cut(_safe_repr(value))}


def _best_of(data: Mapping[str, Any]) -> dict[str, JSON]:
    """The best safe type of a mime bundle (and its ``text/plain``); empty when it has none we show."""
    for mime in SAFE_MIME_TYPES:
        if mime in data and data[mime] is not None:
            chosen = {mime: _mime_value(mime, data[mime])}
            if mime != "text/plain" and isinstance(data.get("text/plain"), str):
                chosen["text/plain"] = _cut(data["text/plain"])
            return chosen
    return {}


def _mime_value(mime: str, data: Any) -> JSON:
    if mime in _IMAGE_TYPES:
        if isinstance(data, (bytes, bytearray, memoryview)):
            return base64.b64encode(bytes(data)).decode("ascii")
        if mime == "image/svg+xml":
            return base64.b64encode(str(data).encode("utf-8")).decode("ascii")
        return "".join(str(data).split())  # already base64 (IPython gives PNGs as text sometimes)
    if mime in (WIDGET_MIME, TABLE_MIME, "application/json"):
        return json_value(data, f"the renderer's {mime}")
    if isinstance(data, list):  # nbformat's multi-line strings
        data = "".join(str(line) for line in data)
    return _cut(str(data)) if mime == "text/plain" else str(data)


def _cut(text: str) -> str:
    return (
        text
        if len(text) <= MAX_TEXT_CHARS
        else f"{text[:MAX_TEXT_CHARS]}… ({len(text) - MAX_TEXT_CHARS:,} more)"
    )


def _safe_repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception as exc:
        return f"<{type(value).__name__}: repr failed ({type(exc).__name__})>"


def _cell(value: Any) -> JSON:
    if is_plain_json(value):
        return value if not (isinstance(value, float) and not math.isfinite(value)) else None
    try:
        return json_value(value, "cell")
    except JsonValueError:
        return str(value)


def _label(value: Any) -> str:
    if isinstance(value, tuple):
        return " / ".join(str(v) for v in value)
    return "" if value is None else str(value)


def _pandas_table(value: Any) -> dict[str, JSON] | None:
    frame = value.to_frame() if hasattr(value, "to_frame") and not hasattr(value, "columns") else value
    if not (hasattr(frame, "iloc") and hasattr(frame, "columns") and hasattr(frame, "index")):
        return None
    rows, columns = frame.shape
    shown = frame.iloc[:MAX_TABLE_ROWS, :MAX_TABLE_COLUMNS]
    index = shown.index
    default_index = type(index).__name__ == "RangeIndex" and index.start == 0 and index.step == 1
    names: list[str] = []
    body: list[list[JSON]] = [[] for _ in range(len(shown))]
    index_columns = 0
    if not default_index:
        levels = list(index.names)
        index_columns = len(levels)
        names.extend(_label(n) for n in levels)
        for row, label in zip(body, index.tolist(), strict=True):
            row.extend(_cell(v) for v in (label if isinstance(label, tuple) else (label,)))
    for position in range(shown.shape[1]):
        names.append(_label(shown.columns[position]))
        for row, cell in zip(body, shown.iloc[:, position].tolist(), strict=True):
            row.append(_cell(cell))
    return {
        "columns": names,
        "rows": body,
        "rowCount": int(rows),
        "columnCount": int(columns),
        "indexColumns": index_columns,
    }


def _figure_png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _pil_png(image: Any) -> str:
    buffer = io.BytesIO()
    if image.mode not in ("1", "L", "LA", "P", "RGB", "RGBA", "I", "I;16"):
        image = image.convert("RGBA")
    image.save(buffer, format="PNG")
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _error_text(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _traceback_text(exc: BaseException) -> str:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return text if len(text) <= MAX_TRACEBACK_CHARS else "…" + text[-MAX_TRACEBACK_CHARS:]


def frontend_source(value: str | os.PathLike[str]) -> str:
    """An ES module renderer's source: a ``str`` is the source itself, a path a file holding it."""
    if isinstance(value, os.PathLike):
        return Path(value).read_text(encoding="utf-8")
    return value


# ---------------------------------------------------------------------------------------------- registry
class RendererRegistry(MutableMapping[str, Any]):
    """``chat.renderers``: part type -> a Python function or a front-end ES module (its source ``str``).

    ``chat.renderers["data-x"] = fn`` registers (as ``@chat.renderer("data-x")`` does), ``del chat.renderers["data-x"]``
    (or ``chat.renderer("data-x")(None)``) unregisters; the built-in renderer, if any, shows again.
    """

    def __init__(self, owner: PartRenderers) -> None:
        self._owner = owner

    def __getitem__(self, part_type: str) -> Any:
        if part_type in self._owner.python:
            return self._owner.python[part_type]
        return self._owner.frontend[part_type]

    def __setitem__(self, part_type: str, renderer: Any) -> None:
        self._owner.register(part_type, renderer)

    def __delitem__(self, part_type: str) -> None:
        if part_type not in self:
            raise KeyError(part_type)
        self._owner.register(part_type, None)

    def __iter__(self) -> Iterator[str]:
        yield from self._owner.python
        yield from self._owner.frontend

    def __len__(self) -> int:
        return len(self._owner.python) + len(self._owner.frontend)

    def __contains__(self, part_type: object) -> bool:
        return part_type in self._owner.python or part_type in self._owner.frontend

    def __repr__(self) -> str:
        return f"<renderers {sorted(self)}>"


@dataclass(slots=True)
class _Shown:
    """What a part's renderer last saw, and when it may run again."""

    part_type: str
    source: Any
    due: float


class PartRenderers:
    """The renderers of one widget: when they run and what they produced (``rendered`` entries).

    ``publish(rendered, frontend)`` is called with the new trait values whenever they change; ``warn(text)`` with a
    renderer's failure (once per part and error). ``messages()`` returns the live conversation.
    """

    def __init__(
        self,
        messages: Callable[[], list[dict[str, Any]]],
        publish: Callable[[dict[str, JSON], dict[str, str]], None],
        warn: Callable[[str], None],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.python: dict[str, Renderer] = {}
        self.frontend: dict[str, str] = {}
        self.rendered: dict[str, JSON] = {}
        self.calls = 0
        """How many times a Python renderer was called (the tests count them)."""
        self._messages = messages
        self._publish = publish
        self._warn = warn
        self._clock = clock
        self._shown: dict[str, _Shown] = {}
        self._dirty: set[tuple[int, int]] = set()  # (message index, part index or -1 for all its parts)
        self._handle: asyncio.Handle | None = None

    # ------------------------------------------------------------------ registration
    def register_all(self, renderers: Any) -> None:
        """Register each entry of ``renderers=`` (a mapping of part types to renderers, or None)."""
        typed(renderers, "renderers", (Mapping, type(None)), "a mapping of part types to renderers, or None")
        for part_type, renderer in (renderers or {}).items():
            self.register(part_type, renderer)

    def register(self, part_type: str, renderer: Any) -> None:
        """Register (``renderer`` a function or ES module source/path) or unregister (``None``) one part type."""
        if not isinstance(part_type, str) or not part_type:
            raise OptionError(f"renderers: a part type is a non-empty string, not {shown(part_type)}")
        self.python.pop(part_type, None)
        self.frontend.pop(part_type, None)
        if renderer is None:
            pass
        elif isinstance(renderer, (str, os.PathLike)):
            self.frontend[part_type] = frontend_source(renderer)
        elif callable(renderer):
            self.python[part_type] = renderer
        else:
            raise OptionError(
                f"renderers[{shown(part_type)}]: a function, ES module source (str) or a path to one, "
                f"not {type(renderer).__name__}"
            )
        for key in [k for k, v in self._shown.items() if v.part_type == part_type]:
            del self._shown[key]
        self.rendered = {k: v for k, v in self.rendered.items() if _type_of(v) != part_type}
        self.refresh(publish_frontend=True)

    # ------------------------------------------------------------------ when renderers run
    def changed(self, changes: list[MessageChange]) -> None:
        """The conversation changed (a run's changes): render what changed, throttled."""
        if not self.python:
            return
        dirty = self._dirty
        for change in changes:
            kind = change.kind
            if kind in ("part", "text"):
                dirty.add((change.message_index, change.part_index))
            elif kind in ("message", "parts"):
                dirty.add((change.message_index, -1))
        if dirty and self._handle is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                self.flush()
                return
            self._handle = loop.call_soon(self._tick)

    def _tick(self) -> None:
        self._handle = None
        due = self._render_dirty(force=False)
        if due is not None and self._handle is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # pragma: no cover - the tick runs on a loop
                return
            self._handle = loop.call_later(max(0.0, due - self._clock()), self._tick)

    def flush(self) -> None:
        """Render every changed part now (the run ended), whatever the throttle says, and drop stale entries."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self._render_dirty(force=True)
        self._prune()

    def refresh(self, *, publish_frontend: bool = False) -> None:
        """Render every part that has a renderer (new renderers, or messages replaced) and drop stale entries."""
        if self.python:
            messages = self._messages()
            self._dirty.update((mi, -1) for mi in range(len(messages)))
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        before = self.rendered
        self._render_dirty(force=True, publish=False)
        pruned = self._prune(publish=False)
        if self.rendered is not before or pruned or publish_frontend:
            self._publish(self.rendered, dict(self.frontend))

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _targets(self) -> Iterator[tuple[int, int, str, str, dict[str, Any]]]:
        messages = self._messages()
        dirty, self._dirty = self._dirty, set()
        seen: set[tuple[int, int]] = set()
        for mi, pi in sorted(dirty):
            if mi >= len(messages):
                continue
            message = messages[mi]
            parts = message.get("parts")
            if not isinstance(parts, list):
                continue
            indexes: Iterable[int] = range(len(parts)) if pi < 0 else (pi,)
            for index in indexes:
                if index >= len(parts) or (mi, index) in seen:
                    continue
                seen.add((mi, index))
                part = parts[index]
                part_type = part.get("type") if isinstance(part, dict) else None
                if isinstance(part_type, str) and part_type in self.python:
                    yield mi, index, part_key(message.get("id"), index), part_type, part

    def _render_dirty(self, *, force: bool, publish: bool = True) -> float | None:
        """Run the renderers of the changed parts that are due; returns when the next waiting one is due."""
        if not self._dirty:
            return None
        now = self._clock()
        next_due: float | None = None
        changed = False
        waiting: set[tuple[int, int]] = set()
        for message_index, index, key, part_type, part in list(self._targets()):
            shown = self._shown.get(key)
            if not force and shown is not None and now < shown.due:
                waiting.add((message_index, index))
                next_due = shown.due if next_due is None else min(next_due, shown.due)
                continue
            changed |= self._render(key, part_type, part, shown)
        self._dirty |= waiting
        if changed and publish:
            self._publish(self.rendered, dict(self.frontend))
        return next_due

    def _render(self, key: str, part_type: str, part: dict[str, Any], shown: _Shown | None) -> bool:
        """Run one renderer on one part if the part changed since it last ran; True when the entry changed."""
        source = copy_json(part)
        if shown is not None and shown.part_type == part_type and shown.source == source:
            return False  # unchanged since it last ran (whatever it returned then)
        renderer = self.python[part_type]
        started = self._clock()
        entry: dict[str, JSON] | None
        try:
            self.calls += 1
            bundle = output_bundle(renderer(copy_json(source)))
            entry = None if bundle is None else {"type": part_type, "data": bundle}
        except Exception as exc:
            entry = {"type": part_type, "error": _error_text(exc), "traceback": _traceback_text(exc)}
            self._warn(f"renderer for {part_type!r} (part {key}): {_error_text(exc)}")
        cost = self._clock() - started
        self._shown[key] = _Shown(part_type, source, started + max(MIN_INTERVAL_SECONDS, SLOW_FACTOR * cost))
        old = self.rendered.get(key)
        if entry == old:
            return False
        rendered = dict(self.rendered)
        if entry is None:
            rendered.pop(key, None)
        else:
            rendered[key] = entry
        self.rendered = rendered
        return True

    def _prune(self, *, publish: bool = True) -> bool:
        """Drop entries of parts that are gone (or changed type, or lost their renderer)."""
        live: dict[str, str] = {}
        for message in self._messages():
            parts = message.get("parts")
            if not isinstance(parts, list):
                continue
            for index, part in enumerate(parts):
                if isinstance(part, dict) and isinstance(part.get("type"), str):
                    live[part_key(message.get("id"), index)] = part["type"]
        for key in [k for k in self._shown if k not in live]:
            del self._shown[key]
        stale = [
            k
            for k, v in self.rendered.items()
            if live.get(k) != _type_of(v) or _type_of(v) not in self.python
        ]
        if not stale:
            return False
        self.rendered = {k: v for k, v in self.rendered.items() if k not in stale}
        if publish:
            self._publish(self.rendered, dict(self.frontend))
        return True

    # ------------------------------------------------------------------ the static copy
    def static_part_html(self, message_id: Any, index: int, part: Mapping[str, Any]) -> str | None:
        """The saved-notebook copy of a rendered part (tables, raster images, text), or None for the default.

        Built here from escaped values only; HTML, markdown and SVG outputs show their ``text/plain``.
        """
        entry = self.rendered.get(part_key(message_id, index))
        if not isinstance(entry, dict) or entry.get("type") != part.get("type"):
            return None
        return static_entry_html(entry)


def _type_of(entry: Any) -> str | None:
    return entry.get("type") if isinstance(entry, dict) else None


MAX_STATIC_IMAGE_CHARS = 48 * 1024 * 4 // 3
"""Rendered images up to 48 KB are inlined in the saved-notebook copy."""


def static_entry_html(entry: Mapping[str, Any]) -> str | None:
    """A ``rendered`` entry as static HTML: a table, a PNG/JPEG image, or text; None when there is nothing safe.

    >>> static_entry_html({"type": "data-x", "data": {"text/plain": "<b>"}})
    '<pre class="agui-static-rendered">&lt;b&gt;</pre>'
    """
    if isinstance(entry.get("error"), str):
        return f'<div class="agui-static-note">Renderer failed: {escape(entry["error"][:500])}</div>'
    data = entry.get("data")
    if not isinstance(data, Mapping):
        return None
    table = data.get(TABLE_MIME)
    if isinstance(table, Mapping):
        return _static_table(table)
    for mime in ("image/png", "image/jpeg"):
        value = data.get(mime)
        if isinstance(value, str) and len(value) <= MAX_STATIC_IMAGE_CHARS and _is_base64(value):
            return f'<div class="agui-static-file"><img src="data:{mime};base64,{value}" alt="rendered output"></div>'
    text = data.get("text/plain")
    if isinstance(text, str):
        return f'<pre class="agui-static-rendered">{escape(text[:2_000])}</pre>'
    return None


def _is_base64(value: str) -> bool:
    return all(c.isascii() and (c.isalnum() or c in "+/=") for c in value)


def _static_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return escape(value[:200])
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return escape(str(value))
    return escape(str(value)[:200])


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _static_table(table: Mapping[str, Any]) -> str:
    columns = _list(table.get("columns"))
    rows = _list(table.get("rows"))
    head = "".join(f"<th>{_static_cell(c)}</th>" for c in columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_static_cell(c)}</td>" for c in row) + "</tr>"
        for row in rows[:MAX_TABLE_ROWS]
        if isinstance(row, list)
    )
    note = ""
    more = table.get("rowCount")
    if isinstance(more, int) and more > len(rows):
        note = f'<div class="agui-static-note">{more - len(rows):,} more rows</div>'
    return f'<div class="agui-static-rendered"><table><tr>{head}</tr>{body}</table>{note}</div>'
