"""The conversation as static, sanitized HTML: what a saved notebook shows where no kernel runs.

A ``ChatWidget`` displays two outputs: the live widget, and this static copy (``text/html`` and ``text/plain``)
under a display id that the widget updates whenever a run ends. Where the live view runs (JupyterLab, Notebook 7)
its stylesheet hides the static copy next to it; where it cannot (a reopened notebook whose kernel no longer has the
widget, ``jupyter nbconvert --to html``, nbviewer, GitHub) the static copy shows and hides the widget's "model not
found" output before it.

Sanitized by construction: every value from the conversation is escaped, and the markup around it is a small
allow-list this module writes itself (``div``, ``span``, ``strong``, ``br``, ``pre``, ``details``, ``summary``, ``a`` with an
http(s) ``href``, ``img`` with a base64 ``data:`` URL of a raster image type, ``table``/``tr``/``th``/``td`` for
rendered tables (``_renderers.static_entry_html``), and one fixed ``<style>``). Nothing runs:
no scripts, no event handlers, no remote requests (remote images show their address as text). Data URLs larger
than ``MAX_INLINE_IMAGE_BYTES`` are not copied: a placeholder names the file, its type and its size.

>>> html = static_html([{"id": "1", "role": "user", "parts": [{"type": "text", "text": "<b>hi</b>"}]}])
>>> "&lt;b&gt;hi&lt;/b&gt;" in html and "<b>" not in html
True
>>> print(static_text([{"id": "1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}]))
user: hi
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

import orjson

__all__ = [
    "CHAT_NOTE",
    "MAX_INLINE_IMAGE_BYTES",
    "STATIC_CLASS",
    "static_bundle",
    "static_html",
    "static_text",
]

STATIC_CLASS = "agui-static"
"""The class of the static copy's root element (the live view's stylesheet hides the one next to it)."""

CHAT_NOTE = "A saved copy of this chat: run the cell to continue the conversation."
"""The line under a chat's copy (an inspector's says where it stood)."""

MAX_INLINE_IMAGE_BYTES = 24 * 1024
"""Images up to this size (decoded) are inlined; larger data URLs become a placeholder with their size."""

MAX_VALUE_CHARS = 2_000
"""Tool inputs, outputs and data parts are cut to this many characters."""

MAX_TEXT_CHARS = 50_000
"""A text or reasoning part is cut to this many characters."""

MAX_PLAIN_CHARS = 20_000
"""The ``text/plain`` copy (a fallback beside the HTML) is cut to this many characters."""

_ROLES = frozenset({"user", "assistant", "system", "tool", "developer", "activity", "reasoning"})
_INLINE_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]*={0,2})", re.ASCII)
_DATA_URL = re.compile(r"data:([^,;]*)((?:;[^,;]*)*),", re.ASCII)
_WEB_URL = re.compile(r"https?://[^\s\"'<>`]+", re.ASCII | re.IGNORECASE)

# Inline styles only where nothing else survives (nbviewer and GitHub drop <style>); colours come from the
# JupyterLab theme variables where there are some, so dark themes read well.
_STYLE = f"""<style>
.{STATIC_CLASS}{{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:13px;line-height:1.5;
color:var(--jp-ui-font-color1,#1f2328);border:1px solid var(--jp-border-color2,#d0d7de);border-radius:8px;
padding:8px 12px;max-width:60rem}}
.{STATIC_CLASS} .agui-static-title{{font-weight:600;margin-bottom:4px}}
.{STATIC_CLASS} .agui-static-message{{margin:6px 0}}
.{STATIC_CLASS} .agui-static-role{{font-weight:600;text-transform:capitalize}}
.{STATIC_CLASS} .agui-static-text{{white-space:pre-wrap;overflow-wrap:anywhere}}
.{STATIC_CLASS} pre{{white-space:pre-wrap;overflow-wrap:anywhere;margin:2px 0;font-size:12px;
background:var(--jp-layout-color2,#f6f8fa);padding:4px 6px;border-radius:4px}}
.{STATIC_CLASS} .agui-static-note{{color:var(--jp-ui-font-color2,#59636e);font-size:12px}}
.{STATIC_CLASS} img{{max-width:100%;max-height:24rem}}
.{STATIC_CLASS} table{{border-collapse:collapse;font-size:12px}}
.{STATIC_CLASS} th,.{STATIC_CLASS} td{{border:1px solid var(--jp-border-color2,#d0d7de);padding:2px 6px;text-align:left}}
.jp-OutputArea-child:has(+ .jp-OutputArea-child .{STATIC_CLASS}):not(:has(.agui-chat)){{display:none}}
</style>"""


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit:,} more characters)"


def _lines(text: str) -> str:
    """Escaped text whose line breaks survive sanitizers that drop styles (GitHub keeps ``<br>``, not CSS)."""
    return "<br>".join(escape(line) for line in _cut(text, MAX_TEXT_CHARS).splitlines())


def _json_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
    except (TypeError, orjson.JSONEncodeError):
        return repr(value)


def _size(count: int) -> str:
    if count < 1024:
        return f"{count} B"
    if count < 1024 * 1024:
        return f"{count / 1024:.1f} KB"
    return f"{count / 1024 / 1024:.1f} MB"


def _data_url_bytes(url: str) -> int | None:
    """The decoded size of a ``data:`` URL's content, or None when ``url`` is not one."""
    head = _DATA_URL.match(url)
    if head is None:
        return None
    payload = len(url) - head.end()
    if ";base64" in head.group(2).lower():
        return payload * 3 // 4 - url.endswith("=") - url.endswith("==")
    return payload


def _url_text(url: str) -> str:
    """How a URL reads in the static copy: a data URL by its type and size, never its content."""
    head = _DATA_URL.match(url)
    size = _data_url_bytes(url)
    if head is None or size is None:
        return _cut(url, 200)
    return f"{head.group(1) or 'text/plain'}, {_size(size)}"


def _link(url: Any, text: str) -> str:
    if isinstance(url, str) and _WEB_URL.fullmatch(url):
        return (
            f'<a href="{escape(url)}" rel="noopener noreferrer nofollow" target="_blank">{escape(text)}</a>'
        )
    return escape(text)


def _tool_name(part: Mapping[str, Any]) -> str:
    part_type = str(part.get("type", ""))
    if part_type == "dynamic-tool":
        return str(part.get("toolName", ""))
    return part_type[len("tool-") :]


_TOOL_STATES = {
    "input-streaming": "preparing",
    "input-available": "running",
    "approval-requested": "waiting for approval",
    "approval-responded": "approved",
    "output-available": "done",
    "output-error": "error",
    "output-denied": "denied",
}


def _tool_state(part: Mapping[str, Any]) -> str:
    """The state in words (as the live card's badge says it); a state this module does not know, as it is."""
    state = str(part.get("state", ""))
    approval = part.get("approval")
    if isinstance(approval, Mapping) and approval.get("approved") is False:
        return "denied"
    return _TOOL_STATES.get(state, state)


def _file_html(part: Mapping[str, Any]) -> str:
    url = part.get("url")
    media_type = str(part.get("mediaType", ""))
    name = str(part.get("filename") or media_type or "file")
    if isinstance(url, str):
        image = _INLINE_IMAGE.fullmatch(url)
        size = _data_url_bytes(url)
        if image is not None and size is not None and size <= MAX_INLINE_IMAGE_BYTES:
            return f'<div class="agui-static-file"><img src="{url}" alt="{escape(name)}"></div>'
        where = _url_text(url)
    else:
        where = "no URL"
    return f'<div class="agui-static-file agui-static-note">[file: {escape(_cut(name, 200))} ({escape(where)})]</div>'


def _value_block(title: str, value: Any) -> str:
    return (
        f'<div class="agui-static-note">{escape(title)}</div>'
        f"<pre>{escape(_cut(_json_text(value), MAX_VALUE_CHARS))}</pre>"
    )


def _part_html(part: Any) -> str:
    if not isinstance(part, Mapping):
        return ""
    part_type = str(part.get("type", ""))
    if part_type == "text":
        return f'<div class="agui-static-text">{_lines(str(part.get("text", "")))}</div>'
    if part_type == "reasoning":
        text = str(part.get("text", ""))
        if not text.strip():
            return ""
        return (
            '<details class="agui-static-reasoning"><summary class="agui-static-note">Reasoning</summary>'
            f'<div class="agui-static-text">{_lines(text)}</div></details>'
        )
    if part_type.startswith("tool-") or part_type == "dynamic-tool":
        body = []
        if part.get("input") is not None:
            body.append(_value_block("Input", part["input"]))
        if part.get("output") is not None:
            body.append(_value_block("Output", part["output"]))
        if part.get("errorText"):
            body.append(_value_block("Error", part["errorText"]))
        approval = part.get("approval")
        if isinstance(approval, Mapping) and approval.get("reason"):
            body.append(_value_block("Reason", approval["reason"]))
        summary = f"Tool <strong>{escape(_tool_name(part))}</strong> · {escape(_tool_state(part))}"
        return f'<details class="agui-static-tool"><summary>{summary}</summary>{"".join(body)}</details>'
    if part_type in ("file", "reasoning-file"):
        return _file_html(part)
    if part_type == "source-url":
        url = part.get("url")
        title = str(part.get("title") or url or "")
        return f'<div class="agui-static-note">Source: {_link(url, _cut(title, 200))}</div>'
    if part_type == "source-document":
        return f'<div class="agui-static-note">Source: {escape(_cut(str(part.get("title", "")), 200))}</div>'
    if part_type.startswith("data-"):
        return _value_block(part_type, part.get("data"))
    return ""  # step-start and parts with nothing to read


def _role(message: Mapping[str, Any]) -> str:
    return str(message.get("role", "")) or "message"


PartHtml = Callable[[Any, int, Mapping[str, Any]], "str | None"]
"""``render_part(message_id, index, part)``: a part's copy in place of the default one (rendered outputs), or None."""


Versions = Mapping[int, "tuple[int, list[list[Mapping[str, Any]]]]"]
"""The forks of a branched conversation: ``{place of the message: (its index among the versions, the other
versions' messages from the fork on)}``, the others oldest first."""


def static_html(
    messages: Sequence[Any],
    *,
    title: str = "",
    render_part: PartHtml | None = None,
    versions: Versions | None = None,
    note: str = CHAT_NOTE,
) -> str:
    """The conversation as one sanitized HTML fragment (see the module docstring for what it may contain).

    ``versions`` (the widget's branches) adds, under each message where the conversation forked, which version
    it is and the other versions, folded, so a saved notebook keeps every branch.
    """
    rows = _rows(messages, render_part, versions or {})
    if not rows:
        rows.append('<div class="agui-static-note">No messages yet.</div>')
    heading = f'<div class="agui-static-title">{escape(_cut(title, 200))}</div>' if title else ""
    footer = f'<div class="agui-static-note">{escape(note)}</div>'
    return f'{_STYLE}<div class="{STATIC_CLASS}">{heading}{"".join(rows)}{footer}</div>'


def _rows(messages: Sequence[Any], render_part: PartHtml | None, versions: Versions) -> list[str]:
    rows = []
    for at, message in enumerate(messages):
        if not isinstance(message, Mapping):
            continue
        parts = message.get("parts")
        if not isinstance(parts, list):
            body = ""
        elif render_part is None:
            body = "".join(_part_html(p) for p in parts)
        else:
            message_id = message.get("id")
            body = "".join(
                (render_part(message_id, i, p) if isinstance(p, Mapping) else None) or _part_html(p)
                for i, p in enumerate(parts)
            )
        if at in versions:
            body += _versions_html(*versions[at])
        role = _role(message)
        kind = (
            role if role in _ROLES else "other"
        )  # a class, not data-role: the live view's hooks stay its own
        rows.append(
            f'<div class="agui-static-message agui-static-{kind}">'
            f'<div class="agui-static-role">{escape(role)}</div>{body}</div>'
        )
    return rows


def _versions_html(index: int, others: list[list[Mapping[str, Any]]]) -> str:
    """Which version a forked message is, and the other versions, folded (each from the fork on)."""
    count = len(others) + 1
    numbers = [n for n in range(1, count + 1) if n != index + 1]
    folded = "".join(
        f'<div class="agui-static-note">Version {number}</div>{"".join(_rows(version, None, {}))}'
        for number, version in zip(numbers, others, strict=True)
    )
    other = "version" if count == 2 else "versions"
    return (
        f'<details class="agui-static-versions"><summary class="agui-static-note">Version {index + 1} of '
        f"{count}: the other {other}</summary>{folded}</details>"
    )


def _part_text(part: Any) -> str:
    if not isinstance(part, Mapping):
        return ""
    part_type = str(part.get("type", ""))
    if part_type == "text":
        return _cut(str(part.get("text", "")), MAX_TEXT_CHARS)
    if part_type.startswith("tool-") or part_type == "dynamic-tool":
        return f"[tool {_tool_name(part)}: {_tool_state(part)}]"
    if part_type in ("file", "reasoning-file"):
        url = part.get("url")
        name = part.get("filename") or part.get("mediaType") or "file"
        return f"[file: {name} ({_url_text(url) if isinstance(url, str) else 'no URL'})]"
    return ""


def static_text(messages: Sequence[Any], *, title: str = "") -> str:
    """The conversation as plain text, one ``role: text`` paragraph per message (``text/plain`` of the copy)."""
    lines = [title] if title else []
    for message in messages:
        if not isinstance(message, Mapping):
            continue
        parts = message.get("parts")
        texts = [t for t in (_part_text(p) for p in parts) if t] if isinstance(parts, list) else []
        lines.append(f"{_role(message)}: {' '.join(texts)}")
    if len(lines) == bool(title):
        lines.append("(no messages)")
    return _cut("\n".join(lines), MAX_PLAIN_CHARS)


def static_bundle(
    messages: Sequence[Any],
    *,
    title: str = "",
    render_part: PartHtml | None = None,
    versions: Versions | None = None,
    note: str = CHAT_NOTE,
) -> dict[str, str]:
    """The static copy's mime bundle: ``text/html`` and ``text/plain`` (``note`` ends the HTML)."""
    return {
        "text/html": static_html(
            messages, title=title, render_part=render_part, versions=versions, note=note
        ),
        "text/plain": static_text(messages, title=title),
    }
