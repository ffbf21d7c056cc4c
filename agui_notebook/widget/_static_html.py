"""The conversation as static, sanitized HTML: what a saved notebook shows where no kernel runs.

A ``ChatWidget`` displays two outputs: the live widget, and this static copy (``text/html`` and ``text/plain``)
under a display id that the widget updates whenever a run ends. Where the live view runs (JupyterLab, Notebook 7)
its stylesheet hides the static copy next to it; where it cannot (a reopened notebook whose kernel no longer has the
widget, ``jupyter nbconvert --to html``, nbviewer, GitHub) the static copy shows and hides the widget's "model not
found" output before it.

Sanitized by construction: every value from the conversation is escaped, and the markup around it is a small
allow-list this module writes itself (``div``, ``span``, ``strong``, ``br``, ``pre``, ``details``, ``summary``,
``dl``/``dt``/``dd``, ``a`` with an http(s) ``href``, ``img`` with a base64 ``data:`` URL of a raster image type,
``table``/``tr``/``th``/``td`` for rendered tables (``_renderers.static_entry_html``), and one fixed ``<style>``).
Tool cards say what happened to their approval, and interrupt cards read as their question, the fields it asked
for and the answer, as the live cards do (``js/src/parts/tool.js``, ``js/src/interrupts.js``). Nothing runs:
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

from agui_notebook.agui._interrupts import is_interrupt_expired
from agui_notebook.bridge._conversation import tool_call_ended
from agui_notebook.chat._interrupts import INTERRUPT_PART
from agui_notebook.wire._json import encode_json, js_number

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
.{STATIC_CLASS} .agui-static-interrupt{{border-left:3px solid var(--jp-warn-color1,#9a6700);padding-left:8px;margin:4px 0}}
.{STATIC_CLASS} dl{{display:grid;grid-template-columns:max-content 1fr;gap:0 12px;margin:2px 0}}
.{STATIC_CLASS} dt{{color:var(--jp-ui-font-color2,#59636e)}}
.{STATIC_CLASS} dd{{margin:0;overflow-wrap:anywhere}}
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
    "input-streaming": "Preparing",
    "input-available": "Running",
    "approval-requested": "Waiting for approval",
    "approval-responded": "Approved",
    "output-available": "Done",
    "output-error": "Error",
    "output-denied": "Denied",
}
_CANCELLED_APPROVAL = "Cancelled: a new message was sent before this was answered."


def _approval(part: Mapping[str, Any]) -> Mapping[str, Any] | None:
    approval = part.get("approval")
    return approval if isinstance(approval, Mapping) else None


def _tool_state(part: Mapping[str, Any]) -> str:
    """The state in words, as the live card's badge says it; a denial with its reason (the closed card shows
    it); a state this module does not know, as it is."""
    ended = tool_call_ended(part)
    if ended in ("cancelled", "stopped"):
        return ended.capitalize()
    state = str(part.get("state", ""))
    approval = _approval(part)
    if approval is not None and approval.get("approved") is False:
        reason = approval.get("reason")
        return f"Denied: {_cut(reason, 200)}" if isinstance(reason, str) and reason else "Denied"
    if state == "output-available" and part.get("preliminary") is True:
        return "Partial result"
    return _TOOL_STATES.get(state, state)


def _approval_text(part: Mapping[str, Any]) -> str:
    """What the card's approval line says (the live card's words): asked, approved or denied (and why), or
    cancelled; "" for a call that asked for no approval."""
    approval = _approval(part)
    if approval is None:
        return ""
    if tool_call_ended(part) == "cancelled":
        return _CANCELLED_APPROVAL
    if part.get("state") == "approval-requested" or approval.get("approved") is None:
        asked = approval.get("requestReason")
        return (
            f"Waiting for approval: {asked}" if isinstance(asked, str) and asked else "Waiting for approval"
        )
    verdict = "Approved" if approval.get("approved") is True else "Denied"
    reason = approval.get("reason")
    return f"{verdict}: {reason}" if isinstance(reason, str) and reason else verdict


def _tool_html(part: Mapping[str, Any]) -> str:
    state = _tool_state(part)
    approval = _approval_text(part)
    # The approval line, unless the closed card's summary already says exactly that.
    body = (
        [f'<div class="agui-static-approval">{_lines(approval)}</div>']
        if approval and approval != state
        else []
    )
    if part.get("input") is not None:
        body.append(_value_block("Input", part["input"]))
    if part.get("output") is not None:
        body.append(_value_block("Output", part["output"]))
    if part.get("errorText"):
        body.append(_value_block("Error", part["errorText"]))
    summary = f"Tool <strong>{escape(_tool_name(part))}</strong> · {escape(state)}"
    return f'<details class="agui-static-tool"><summary>{summary}</summary>{"".join(body)}</details>'


# ---------------------------------------------------------------------------------------------- interrupt cards

_SCHEMA_TYPES = {
    "string": "text",
    "integer": "whole number",
    "number": "number",
    "boolean": "yes or no",
    "null": "empty",
    "array": "list",
    "object": "group",
}
_SCHEMA_FORMATS = {
    "date": "date",
    "date-time": "date and time",
    "time": "time",
    "email": "email address",
    "uri": "web address",
}
_INTERRUPT_STATUS = {
    "open": "Waiting for an answer",
    "resolved": "Answered",
    "cancelled": "Cancelled",
    "expired": "Expired",
}


def _value_text(value: Any) -> str:
    """A JSON value as the live card shows it: text as it is, Yes/No, numbers as JavaScript prints them,
    "empty" for null, a list of plain values joined with commas, anything else as compact JSON."""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if value is None:
        return "empty"
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return js_number(value)
    if isinstance(value, list) and not any(isinstance(v, list | Mapping) for v in value):
        return ", ".join(_value_text(v) for v in value)
    return encode_json(value)


def _choices(values: list[Any]) -> str:
    return ", ".join(_cut(_value_text(v), 80) for v in values[:20]) + (", …" if len(values) > 20 else "")


def _field_title(key: str, schema: Any) -> str:
    title = schema.get("title") if isinstance(schema, Mapping) else None
    return _cut(title, 80) if isinstance(title, str) and title else _cut(key, 80)


def _kind_words(schema: Any, depth: int = 0) -> str:
    """What a ``responseSchema`` field asks for, in words: "whole number", "one of: a, b", "list of: …"."""
    if not isinstance(schema, Mapping):
        return "any value"
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return f"one of: {_choices(schema['enum'])}"
    if "const" in schema:
        return f"exactly: {_cut(_value_text(schema['const']), 80)}"
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options and depth < 3:
            return " or ".join(dict.fromkeys(_kind_words(o, depth + 1) for o in options[:6]))
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(
            dict.fromkeys(_SCHEMA_TYPES.get(k, str(k)) for k in kind[:6] if isinstance(k, str))
        )
    if kind == "string" and isinstance(schema.get("format"), str):
        return _SCHEMA_FORMATS.get(schema["format"], "text")
    if kind == "array":
        items = schema.get("items")
        if isinstance(items, Mapping) and isinstance(items.get("enum"), list) and items["enum"]:
            return f"list of: {_choices(items['enum'])}"  # a checklist
        return (
            f"list of: {_kind_words(items, depth + 1)}"
            if isinstance(items, Mapping) and depth < 3
            else "list"
        )
    if kind == "object" or isinstance(schema.get("properties"), Mapping):
        properties = schema.get("properties")
        if isinstance(properties, Mapping) and properties:
            return f"group of: {', '.join(_field_title(str(k), v) for k, v in list(properties.items())[:20])}"
        return "group"
    if isinstance(kind, str):
        return _SCHEMA_TYPES.get(kind, _cut(kind, 40))
    return "any value"


def _definitions(class_name: str, rows: list[tuple[str, str]]) -> str:
    """A definition list (GitHub's sanitizer keeps ``dl``/``dt``/``dd``), every term and value escaped."""
    items = "".join(f"<dt>{escape(term)}</dt><dd>{_lines(value)}</dd>" for term, value in rows)
    return f'<dl class="{class_name}">{items}</dl>'


def _interrupt_schema(interrupt: Mapping[str, Any]) -> Mapping[str, Any] | None:
    schema = interrupt.get("responseSchema")
    return schema if isinstance(schema, Mapping) else None


def _interrupt_title(interrupt: Mapping[str, Any]) -> str:
    """The card's title as the live card has it: the schema's title, else the reason in words."""
    schema = _interrupt_schema(interrupt)
    if schema is not None and isinstance(schema.get("title"), str):
        return _cut(schema["title"], 120)
    reason = interrupt.get("reason")
    words = re.sub(r"[_-]+", " ", reason).strip() if isinstance(reason, str) else ""
    return _cut(words[0].upper() + words[1:], 80) if words else "Input needed"


def _interrupt_status(data: Mapping[str, Any], interrupt: Mapping[str, Any]) -> str:
    status = data.get("status")
    if status in ("resolved", "cancelled"):
        return status
    return "expired" if is_interrupt_expired(interrupt) else "open"


def _fields_asked(schema: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    properties = schema.get("properties") if schema is not None else None
    if not isinstance(properties, Mapping):
        return []
    required = schema.get("required") if schema is not None else None
    required = set(required) if isinstance(required, list) else set()
    return [
        (_field_title(str(key), field), _kind_words(field) + (", required" if key in required else ""))
        for key, field in list(properties.items())[:50]
    ]


def _answer_rows(payload: Any, schema: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """The answer as (field title, value) rows, as the live card lists it."""
    if not isinstance(payload, Mapping):
        return [("Answer", _cut(_value_text(payload), MAX_VALUE_CHARS))]
    properties = schema.get("properties") if schema is not None else None
    properties = properties if isinstance(properties, Mapping) else {}
    return [
        (_field_title(str(key), properties.get(key)), _cut(_value_text(value), MAX_VALUE_CHARS))
        for key, value in list(payload.items())[:50]
    ]


def _interrupt_outcome(status: str, data: Mapping[str, Any], interrupt: Mapping[str, Any]) -> str:
    """The line under the question: when it expires (or expired), how it was cancelled, or "" ."""
    expires = interrupt.get("expiresAt")
    expires = _cut(expires, 80) if isinstance(expires, str) else ""
    if status == "open":
        return f"Expires {expires}." if expires else ""
    if status == "expired":
        return f"Expired {expires} without an answer."
    if status == "cancelled":
        if data.get("cancelledBy") == "new-message":
            return _CANCELLED_APPROVAL
        return "Cancelled: dismissed without an answer."
    return "" if "payload" in data and data["payload"] is not None else "Continued without an answer."


def _interrupt_parts(part: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any], str]:
    data = part.get("data")
    data = data if isinstance(data, Mapping) else {}
    interrupt = data.get("interrupt")
    interrupt = interrupt if isinstance(interrupt, Mapping) else {}
    return data, interrupt, _interrupt_status(data, interrupt)


def _interrupt_html(part: Mapping[str, Any]) -> str:
    """An interrupt card: its title and state, the question, the fields asked, and the answer or the outcome."""
    data, interrupt, status = _interrupt_parts(part)
    schema = _interrupt_schema(interrupt)
    heading = f"{_interrupt_title(interrupt)} · {_INTERRUPT_STATUS[status]}"
    body = [f'<div class="agui-static-interrupt-title"><strong>{escape(heading)}</strong></div>']
    message = interrupt.get("message")
    if isinstance(message, str) and message:
        body.append(f'<div class="agui-static-interrupt-message agui-static-text">{_lines(message)}</div>')
    fields = _fields_asked(schema)
    if fields and status in ("open", "expired"):
        body.append('<div class="agui-static-note">Asked for</div>')
        body.append(_definitions("agui-static-fields", fields))
    elif fields:  # answered or cancelled: what was asked, folded under the outcome's heading
        count = f"{len(fields)} field{'s' if len(fields) != 1 else ''}"
        body.append(
            f'<details><summary class="agui-static-note">Asked for ({count})</summary>'
            f"{_definitions('agui-static-fields', fields)}</details>"
        )
    if status == "resolved" and data.get("payload") is not None:
        body.append('<div class="agui-static-note">Answer</div>')
        body.append(_definitions("agui-static-answer", _answer_rows(data["payload"], schema)))
    outcome = _interrupt_outcome(status, data, interrupt)
    if outcome:
        body.append(f'<div class="agui-static-interrupt-outcome agui-static-note">{escape(outcome)}</div>')
    return f'<div class="agui-static-interrupt">{"".join(body)}</div>'


def _interrupt_text(part: Mapping[str, Any]) -> str:
    _, interrupt, status = _interrupt_parts(part)
    return f"[{_interrupt_title(interrupt)}: {_INTERRUPT_STATUS[status]}]"


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
        return _tool_html(part)
    if part_type == INTERRUPT_PART:
        return _interrupt_html(part)
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
    if part_type == INTERRUPT_PART:
        return _interrupt_text(part)
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
