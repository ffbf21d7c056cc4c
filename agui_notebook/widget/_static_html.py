"""The conversation as static, sanitized HTML: what a saved notebook shows where no widget front end runs.

A ``ChatWidget`` displays two outputs: the live widget, and this static copy (``text/html`` and ``text/plain``)
under a display id that the widget updates whenever a turn ends. Where the live view runs (JupyterLab, Notebook 7)
its stylesheet hides the static copy next to it; where it cannot (a reopened notebook whose kernel no longer has the
widget, an untrusted notebook, ``jupyter nbconvert --to html``, nbviewer, GitHub) the static copy shows.

**It reads well with every style stripped.** Untrusted JupyterLab drops the copy's ``<style>``, GitHub drops
``class`` and ``style`` too; so the meaning is all in semantic markup: headings, paragraphs, lists, tables with
``<thead>``/``<th>``, ``<pre><code>``, ``<details>`` whose summary says the state in words ("Tool get_weather ·
Done"), plans as ticked lists ("✓ Look up the forecast (done)"). The one ``<style>`` only polishes the trusted
case (and hides the widget's "model not found" output before the copy); nothing is said in colour alone.

Markdown is rendered where the live view renders it (assistant text, reasoning) by markdown-it-py (CommonMark,
tables, strikethrough, task lists as ☑/☐), through our own token renderer: raw HTML in markdown stays text,
headings move down one level (``#`` is ``<h2>``, under the copy's ``<h2>`` title), links
keep only http(s) and mailto URLs, images only ``data:`` raster images up to ``MAX_INLINE_IMAGE_BYTES`` (a remote
image is a link naming its address: nothing loads by itself). User and system text stays plain, line by line.

**Sanitized by construction.** Every value from the conversation is escaped; the markup around it is this
allow-list, and nothing else is written (``_renderers.static_entry_html`` keeps to it for rendered parts):

- ``style`` (one, fixed);
- ``div``, ``p``, ``h2``, ``hr``, ``li``, ``dl``, ``pre``, ``table``, ``figure``, ``details``, each with or without
  a ``class`` (``agui-static-…``, for the one style); ``details`` with ``open``; ``ol`` with a number ``start``;
  ``th``/``td`` with ``align`` (left, right or center); ``code`` with ``class="language-…"``;
- ``h3``–``h6``, ``strong``, ``em``, ``del``, ``code``, ``br``, ``blockquote``, ``ol``, ``ul``, ``dt``, ``dd``,
  ``summary``, ``thead``, ``tbody``, ``tr``, ``th``, ``td``, ``figcaption`` without attributes;
- ``a`` with ``href`` (http, https or mailto only), ``rel="noopener noreferrer nofollow"`` and
  ``target="_blank"``; ``img`` with ``src`` (a base64 ``data:`` URL of a png, jpeg, gif or webp image) and
  ``alt``;
- for TeX math, MathML Core: ``math`` with ``display`` (block or inline) and ``alttext`` (the TeX); ``mrow``,
  ``mi``, ``mn``, ``mo``, ``ms``, ``mtext``, ``mspace``, ``msup``, ``msub``, ``msubsup``, ``mfrac``, ``msqrt``,
  ``mroot``, ``munder``, ``mover``, ``munderover``, ``mtable``, ``mtr``, ``mtd``, ``mstyle``, ``menclose``,
  ``mpadded``, ``mphantom``, each with only the layout attributes of ``_MATH_ATTRIBUTES`` (``mathvariant``,
  ``stretchy``, ``accent``, ``width``...) and values of words and numbers; each formula followed by its TeX in a
  ``code`` with ``class="agui-static-tex"``, which the style hides.

A sanitizer with GitHub's rules leaves all of it but the ``style``, the classes and the MathML (the tests check
it): html-pipeline's sanitizer removes ``<math>`` with its contents, so there each formula reads as its TeX
source in a ``<code>``, shown once no style hides it. JupyterLab's, for an untrusted notebook, leaves all but the
``style``.

Math is written as markdown-it rules of our own that read what the live view reads (``js/src/math.js``):
``$…$`` by the dollar rules (no space inside either dollar, no digit after the closing one: prices stay text),
``$$…$$``, ``\\(…\\)``, ``\\[…\\]`` and fenced ``math`` blocks; the MathML is latex2mathml's, rebuilt under the
allow-list. TeX latex2mathml cannot read (or an environment it does not lay out, such as ``aligned``) is its
source in a ``<code>``.

Nothing runs: no scripts, no event handlers, no remote requests. Data URLs larger than ``MAX_INLINE_IMAGE_BYTES``
are not copied: a line names the file, its type and its size.

The widget keeps each message's HTML (``message_html``, a pure function of its arguments) and re-renders only the
messages that changed; ``document_html`` wraps the rows. ``static_html`` / ``static_bundle`` do it all at once.

>>> html = static_html([{"id": "1", "role": "user", "parts": [{"type": "text", "text": "<b>hi</b>"}]}])
>>> "&lt;b&gt;hi&lt;/b&gt;" in html and "<b>" not in html
True
>>> message_html({"id": "2", "role": "assistant", "parts": [{"type": "text", "text": "## Sum\\n\\n**3**"}]})
'<div class="agui-static-message agui-static-assistant"><p class="agui-static-role"><strong>Assistant</strong></p><div class="agui-static-text"><h3>Sum</h3><p><strong>3</strong></p></div></div>'
>>> print(static_text([{"id": "1", "role": "user", "parts": [{"type": "text", "text": "hi"}]}]))
user: hi
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timezone
from functools import cache
from html import escape
from typing import TYPE_CHECKING, Any, TypedDict

import orjson

from agui_notebook.agui._interrupts import is_interrupt_expired
from agui_notebook.bridge._conversation import tool_call_ended
from agui_notebook.chat._interrupts import INTERRUPT_PART
from agui_notebook.wire._json import encode_json, js_number

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

__all__ = [
    "CHAT_NOTE",
    "MAX_INLINE_IMAGE_BYTES",
    "STATIC_CLASS",
    "StaticThread",
    "document_html",
    "document_text",
    "markdown_html",
    "math_html",
    "message_html",
    "message_text",
    "static_bundle",
    "static_html",
    "static_text",
]

STATIC_CLASS = "agui-static"
"""The class of the static copy's root element (the live view's stylesheet hides the one next to it)."""

CHAT_NOTE = "A saved copy of this chat."
"""The line under a chat's copy unless the caller says more (an inspector's says where it stood)."""

MAX_INLINE_IMAGE_BYTES = 24 * 1024
"""Images up to this size (decoded) are inlined; larger data URLs become a line with their type and size."""

MAX_VALUE_CHARS = 2_000
"""Tool inputs, outputs and data parts are cut to this many characters."""

MAX_TEXT_CHARS = 50_000
"""A text or reasoning part is cut to this many characters (before its markdown is parsed)."""

MAX_PLAIN_CHARS = 20_000
"""The ``text/plain`` copy (a fallback beside the HTML) is cut to this many characters."""

MAX_PLAN_STEPS = 100
"""A ``data-*`` part with more steps than this is no plan (``js/src/parts/checklist.js``)."""

MAX_TABLE_ROWS = 50
MAX_TABLE_COLUMNS = 20
"""A list of records shows at most this many rows and columns (``js/src/parts/records.js``)."""

HEADING_SHIFT = 1
"""Markdown headings move down this many levels (``#`` is ``<h2>``): under the copy's title, and nearer the sizes
the live view gives them (JupyterLab draws an ``<h5>`` as body text, so ``###`` may go no deeper than ``<h4>``)."""

_ROLES = frozenset({"user", "assistant", "system", "tool", "developer", "activity", "reasoning"})
_ROLE_WORDS = {"user": "You", "assistant": "Assistant", "system": "System"}
_PLAIN_ROLES = frozenset({"user", "system"})  # as js/src/message_view.js: every other role reads as markdown
_INLINE_IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp);base64,([A-Za-z0-9+/]*={0,2})", re.ASCII)
_DATA_URL = re.compile(r"data:([^,;]*)((?:;[^,;]*)*),", re.ASCII)
# No spaces, controls, quotes or angle brackets: what could end or bend an attribute, or that a browser strips.
_WEB_URL = re.compile(r"https?://[^\x00-\x20\x7f\"'<>`\\]+", re.ASCII | re.IGNORECASE)  # as _LINK_URL
_LINK_URL = re.compile(r"(?:https?://|mailto:)[^\x00-\x20\x7f\"'<>`\\]+", re.ASCII | re.IGNORECASE)
_CODE_LANGUAGE = re.compile(r"[\w#+.-]{1,40}", re.ASCII)  # the live sanitizer's rule for a code block's class
_PLAIN_LANGUAGES = frozenset({"text", "txt", "plain", "plaintext"})
_TASK = re.compile(r"\[([ xX])\][ \t]")
_TRAILING_PUNCTUATION = ".,:;!?'\"*_~"
_ALIGN = re.compile(r"text-align:(left|right|center)")

# The trusted case only (untrusted JupyterLab and GitHub drop it): the live view's look, in JupyterLab's theme
# variables so dark themes read well. The root class is doubled so that these rules outrank JupyterLab's own for
# rendered HTML (two classes deep: centred, striped tables with right-aligned cells, unboxed code).
_R = f".{STATIC_CLASS}.{STATIC_CLASS}"
_TEXT = "var(--jp-content-font-color1,#1f2328)"
_PAGE = "var(--jp-layout-color0,#fff)"
_MUTED = f"color-mix(in srgb,{_TEXT} 72%,{_PAGE})"  # 4.5:1 and more on the page, in both themes
_LINE = "var(--jp-border-color2,#d0d7de)"
_TINT = f"color-mix(in srgb,{_TEXT} 5%,{_PAGE})"
_UI_FONT = "var(--jp-ui-font-family,system-ui,sans-serif)"
_CODE_FONT = "var(--jp-code-font-family,ui-monospace,monospace)"
_STYLE = f"""<style>
{_R}{{box-sizing:border-box;max-width:60rem;padding:2px 16px 8px;border:1px solid {_LINE};border-radius:8px;
font-family:var(--jp-content-font-family,system-ui,sans-serif);font-size:var(--jp-content-font-size1,14px);
line-height:1.55;color:{_TEXT};overflow-wrap:anywhere}}
{_R} :is(p,ul,ol,dl,table,blockquote,figure,details){{margin:0 0 .6em}}
{_R} :is(h2,h3,h4,h5,h6){{margin:.9em 0 .4em;font-weight:600;line-height:1.3}}
{_R} h2{{font-size:1.35em}} {_R} h3{{font-size:1.2em}} {_R} h4{{font-size:1.08em}} {_R} :is(h5,h6){{font-size:1em}}
{_R} h2.agui-static-title{{margin:8px 0 6px;font-family:{_UI_FONT};font-size:var(--jp-ui-font-size1,13px)}}
{_R} hr.agui-static-rule{{height:0;margin:10px 0;border:0;border-top:1px solid {_LINE};background:none}}
{_R} .agui-static-role{{margin:0 0 4px;font-family:{_UI_FONT};font-size:12px;color:{_MUTED}}}
{_R} .agui-static-role strong{{font-weight:600}}
{_R} .agui-static-user>.agui-static-plain{{display:inline-block;padding:6px 12px;border-radius:12px;
background:color-mix(in srgb,var(--jp-brand-color1,#1976d2) 11%,{_PAGE})}}
{_R} .agui-static-system>.agui-static-plain{{padding:6px 10px;border:1px dashed {_LINE};border-radius:6px}}
{_R} :is(ul,ol){{padding-left:1.6em}}
{_R} li.agui-static-task,{_R} .agui-static-plan li{{list-style:none}}
{_R} li.agui-static-task{{margin-left:-1.2em}}
{_R} .agui-static-plan ol{{padding-left:.1em}}
{_R} blockquote{{padding:0 12px;border-left:3px solid {_LINE};color:{_MUTED}}}
{_R} a{{color:var(--jp-content-link-color,#0969da);text-decoration:none}}
{_R} a:hover{{text-decoration:underline}}
{_R} :not(pre)>code{{padding:.1em .35em;border-radius:4px;background:{_TINT};font-family:{_CODE_FONT};
font-size:.9em}}
{_R} pre{{margin:0;padding:8px 12px;border:0;background:none;font-family:{_CODE_FONT};
font-size:var(--jp-code-font-size,13px);line-height:1.45;white-space:pre-wrap;overflow-wrap:anywhere;
word-break:normal}}
{_R} pre code{{padding:0;background:none;font-size:inherit;line-height:inherit}}
{_R} figure.agui-static-code,{_R} figure.agui-static-value>pre{{border:1px solid {_LINE};border-radius:6px;
background:{_TINT};overflow:hidden}}
{_R} figcaption em{{font-style:normal}}
{_R} figure.agui-static-code>figcaption{{padding:2px 10px;border-bottom:1px solid {_LINE};font-family:{_UI_FONT};
font-size:11px;color:{_MUTED}}}
{_R} figure.agui-static-value>figcaption{{margin:6px 0 2px;font-family:{_UI_FONT};font-size:12px;color:{_MUTED}}}
{_R} table{{margin-left:0;border-collapse:collapse;font-size:.93em;table-layout:auto}}
{_R} :is(th,td){{padding:4px 10px;border:1px solid {_LINE};text-align:left;vertical-align:top}}
{_R} th{{background:{_TINT};font-weight:600}}
{_R} :is(th,td)[align=right]{{text-align:right}} {_R} :is(th,td)[align=center]{{text-align:center}}
{_R} tbody tr:nth-child(n){{background:none}}
{_R} details{{padding:3px 10px;border:1px solid {_LINE};border-radius:6px}}
{_R} details[open]>summary{{margin-bottom:6px}}
{_R} summary{{cursor:pointer;font-family:{_UI_FONT};font-size:var(--jp-ui-font-size1,13px)}}
{_R} details>:last-child{{margin-bottom:4px}}
{_R} .agui-static-label{{margin:6px 0 4px;font-family:{_UI_FONT};font-size:12px;color:{_MUTED}}}
{_R} .agui-static-label strong{{color:{_TEXT};font-weight:600}} {_R} .agui-static-label em{{font-style:normal}}
{_R} :is(.agui-static-note,.agui-static-source,.agui-static-file,figcaption){{font-family:{_UI_FONT};
font-size:12px;color:{_MUTED}}}
{_R} figure.agui-static-file{{display:inline-block}}
{_R} img{{display:block;max-width:100%;max-height:24rem;border-radius:4px}}
{_R} .agui-static-interrupt{{margin:0 0 .6em;padding:2px 0 2px 10px;border-left:3px solid
var(--jp-warn-color1,#9a6700)}}
{_R} dl{{display:grid;grid-template-columns:max-content 1fr;gap:0 12px;overflow:visible}}
{_R} :is(dt,dd){{float:none;width:auto;margin:0;padding:0}}
{_R} dt{{font-weight:400;color:{_MUTED}}}
{_R} code.agui-static-tex{{display:none}}
{_R} math{{font-size:1.08em}} {_R} math[display=block]{{margin:.4em 0;overflow-x:auto}}
.jp-OutputArea-child:has(+ .jp-OutputArea-child .{STATIC_CLASS}):not(:has(.agui-chat)){{display:none}}
</style>"""


_RULE = '<hr class="agui-static-rule">'


class StaticThread(TypedDict):
    """One conversation of a chat's log, for the copy's list of them (``document_html(threads=…)``)."""

    title: str
    updated: str  # ISO 8601
    turns: int
    current: bool


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


def _plural(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _and_list(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


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


def _inline_image(url: Any) -> bool:
    """Whether ``url`` is a data URL of a raster image small enough to copy."""
    if not isinstance(url, str) or _INLINE_IMAGE.fullmatch(url) is None:
        return False
    size = _data_url_bytes(url)
    return size is not None and size <= MAX_INLINE_IMAGE_BYTES


def _anchor(href: str, inner: str) -> str:
    """A link to an already checked ``href`` around already escaped ``inner``."""
    return f'<a href="{escape(href)}" rel="noopener noreferrer nofollow" target="_blank">{inner}</a>'


def _link(url: Any, text: str) -> str:
    """``text`` linked to ``url`` when it is an http(s) or mailto URL, else the text alone."""
    if isinstance(url, str) and _LINK_URL.fullmatch(url):
        return _anchor(url, escape(text))
    return escape(text)


def _host(url: Any) -> str:
    """What a link's chip shows beside its title: the host without ``www.``, or a mailto's address."""
    if not isinstance(url, str) or not _LINK_URL.fullmatch(url):
        return ""
    if url[:7].lower() == "mailto:":
        return url[7:]
    host = url.split("://", 1)[1].split("/", 1)[0].split("?", 1)[0].split("#", 1)[0].rsplit("@", 1)[-1]
    return host[4:] if host.lower().startswith("www.") else host


# ---------------------------------------------------------------------------------------------- markdown


@cache
def _markdown() -> MarkdownIt:
    from markdown_it import MarkdownIt

    # html off: raw HTML is text. maxNesting bounds the recursion (deeper quotes and lists stay text). Every
    # URL is parsed as a link or an image, and judged by the renderer (a refused link is its text, as the live
    # view's link without an href; a refused image names itself), not left as markdown source.
    parser = MarkdownIt("commonmark", {"html": False, "maxNesting": 20}).enable(["table", "strikethrough"])
    parser.validateLink = lambda url: True  # type: ignore[method-assign]  # markdown-it-py's documented hook
    parser.block.ruler.before("fence", "math_block", _math_block, {"alt": ["paragraph"]})
    parser.inline.ruler.before("escape", "math_inline", _math_inline)
    return parser


# The live view's rules (js/src/math.js), in Python's words.
_MATH_BLOCK = re.compile(r" {0,3}(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[ \t]*(?:\n|$)")
_MATH_INLINE_DISPLAY = re.compile(r"\$\$(?!\$)([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]")
_MATH_INLINE_PAREN = re.compile(r"\\\(([\s\S]+?)\\\)")
_MATH_INLINE_DOLLAR = re.compile(r"\$(?![\s$])((?:\\[\s\S]|[^\\$])+?)(?<![\s\\])\$(?![0-9])")
MAX_TEX_CHARS = 10_000
"""Longer formulas are shown as their TeX (as in the live view)."""


def _math_block(state: Any, start_line: int, end_line: int, silent: bool) -> bool:
    """``$$…$$`` or ``\\[…\\]`` as a block of its own, over any number of lines."""
    begin = state.bMarks[start_line] + state.tShift[start_line]
    if state.sCount[start_line] - state.blkIndent >= 4 or state.src[begin : begin + 2] not in ("$$", "\\["):
        return False
    match = _MATH_BLOCK.match(state.src, state.bMarks[start_line])
    if match is None or not (match.group(1) or match.group(2) or "").strip():
        return False
    lines = match.group().count("\n") + (0 if match.group().endswith("\n") else 1)
    if start_line + lines > end_line:
        return False
    if not silent:
        token = state.push("math_block", "math", 0)
        token.content = (match.group(1) or match.group(2) or "").strip()
        token.map = [start_line, start_line + lines]
    state.line = start_line + lines
    return True


def _math_inline(state: Any, silent: bool) -> bool:
    if state.src[state.pos] not in "$\\":
        return False
    display = True
    match = _MATH_INLINE_DISPLAY.match(state.src, state.pos, state.posMax)
    if match is None:
        display = False
        match = _MATH_INLINE_PAREN.match(state.src, state.pos, state.posMax) or _MATH_INLINE_DOLLAR.match(
            state.src, state.pos, state.posMax
        )
    tex = (match.group(1) or match.group(2) or "").strip() if match else ""
    if match is None or not tex:
        return False
    if not silent:
        token = state.push("math_inline", "math", 0)
        token.content = tex
        token.meta = {"display": display}
    state.pos = match.end()
    return True


_MATH_TAGS = frozenset({
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup", "mfrac", "msqrt",
    "mroot", "munder", "mover", "munderover", "mtable", "mtr", "mtd", "mstyle", "menclose", "mpadded",
    "mphantom",
})  # fmt: skip
_MATH_ATTRIBUTES = frozenset({
    "mathvariant", "stretchy", "fence", "separator", "form", "lspace", "rspace", "movablelimits", "largeop",
    "symmetric", "minsize", "maxsize", "accent", "accentunder", "linethickness", "width", "height", "depth",
    "voffset", "columnalign", "rowalign", "columnspacing", "rowspacing", "columnlines", "rowlines",
    "displaystyle", "scriptlevel", "notation", "mathcolor",
})  # fmt: skip
_MATH_VALUE = re.compile(r"[\w .%#-]{0,40}", re.ASCII)
_MATHML_NS = "{http://www.w3.org/1998/Math/MathML}"


class _NoMathML(ValueError):
    """latex2mathml gave what the allow-list cannot say (or did not read the TeX)."""


def _mathml_element(node: Any, out: list[str]) -> None:
    tag = node.tag.removeprefix(_MATHML_NS)
    if tag not in _MATH_TAGS or tag == "math":
        raise _NoMathML(tag)
    attributes = "".join(
        f' {name}="{escape(value)}"'
        for name, value in sorted(node.attrib.items())
        if name in _MATH_ATTRIBUTES and _MATH_VALUE.fullmatch(value)
    )
    text = node.text or ""
    # An unknown command comes back as a token of its own name; "&" as a token is an alignment it did not lay out.
    if tag in ("mi", "mo", "mn") and ("\\" in text or text == "&"):
        raise _NoMathML(text)
    out.append(f"<{tag}{attributes}>{escape(text)}")
    for child in node:
        _mathml_element(child, out)
        out.append(escape(child.tail or ""))
    out.append(f"</{tag}>")


@cache
def math_html(tex: str, display: bool) -> str:
    """A formula as MathML of the allow-list, followed by its TeX for readers without MathML; TeX that cannot be
    made MathML is its source in a ``<code>``.

    >>> math_html("x^2", False)
    '<math display="inline" alttext="x^2"><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow></math><code class="agui-static-tex">$x^2$</code>'
    >>> math_html("\\\\frac{1}{", True)
    '<code>$$\\\\frac{1}{$$</code>'
    """
    source = f"$${tex}$$" if display else f"${tex}$"
    try:
        if len(tex) > MAX_TEX_CHARS:
            raise _NoMathML("too long")
        from xml.etree import ElementTree

        from latex2mathml.converter import convert

        root = ElementTree.fromstring(convert(tex, display="block" if display else "inline"))
        out: list[str] = []
        for child in root:
            _mathml_element(child, out)
    except (
        Exception
    ):  # latex2mathml raises many kinds of error for TeX it cannot read: the source shows instead
        return f"<code>{escape(source)}</code>"
    mode = "block" if display else "inline"
    return (
        f'<math display="{mode}" alttext="{escape(tex)}">{"".join(out)}</math>'
        f'<code class="agui-static-tex">{escape(source)}</code>'
    )


_MARKDOWN_TAGS = {
    "paragraph": "p",
    "blockquote": "blockquote",
    "bullet_list": "ul",
    "ordered_list": "ol",
    "list_item": "li",
    "table": "table",
    "thead": "thead",
    "tbody": "tbody",
    "tr": "tr",
    "th": "th",
    "td": "td",
    "em": "em",
    "strong": "strong",
    "s": "del",
}


def markdown_html(text: str) -> str:
    """Markdown as HTML of the allow-list: each token kind this module knows becomes its own fixed markup, every
    text escaped (raw HTML included), links and images checked.

    >>> markdown_html("# Title\\n\\n- [x] done\\n- <i>raw</i> [link](javascript:alert(1))")
    '<h2>Title</h2><ul><li class="agui-static-task">☑ done</li><li>&lt;i&gt;raw&lt;/i&gt; link</li></ul>'
    """
    source = text if len(text) <= MAX_TEXT_CHARS else text[:MAX_TEXT_CHARS]
    out: list[str] = []
    task_item = False  # just inside a list item: its first text may be a task box
    for token in _markdown().parse(source):
        kind = token.type
        if kind == "inline":
            children = token.children or []
            if task_item and children and children[0].type == "text":
                _task_box(children[0], out)
            task_item = False
            _inline_html(children, out)
            continue
        if kind != "paragraph_open":
            task_item = False
        if kind.endswith("_open") or kind.endswith("_close"):
            opening = kind.endswith("_open")
            name = kind[: -len("_open")] if opening else kind[: -len("_close")]
            if token.hidden:  # a tight list's paragraphs
                continue
            if name == "heading":
                level = min(int(token.tag[1]) + HEADING_SHIFT, 6)
                out.append(f"<h{level}>" if opening else f"</h{level}>")
            elif name in _MARKDOWN_TAGS:
                tag = _MARKDOWN_TAGS[name]
                out.append(_block_open(tag, token) if opening else f"</{tag}>")
                task_item = task_item or (opening and name == "list_item")
        elif kind == "math_block":
            out.append(f"<p>{math_html(token.content, True)}</p>")
        elif kind == "fence" and token.info.strip() == "math":
            out.append(f"<p>{math_html(token.content.strip(), True)}</p>" if token.content.strip() else "")
        elif kind in ("fence", "code_block"):
            out.append(
                _code_html(token.content, token.info.split(maxsplit=1)[0] if token.info.strip() else "")
            )
        elif kind == "hr":
            out.append("<hr>")
        elif token.content:  # anything else (html_block, were it ever on): its text
            out.append(f"<p>{_lines(token.content)}</p>")
    if len(text) > MAX_TEXT_CHARS:
        out.append(f'<p class="agui-static-note">… ({len(text) - MAX_TEXT_CHARS:,} more characters)</p>')
    return "".join(out)


def _code_html(code: str, language: str) -> str:
    """A code block as a figure (a code listing, in HTML's words) captioned with its language: indented and set
    apart from the text around it by the browser's own defaults, where no stylesheet draws a box."""
    known = _CODE_LANGUAGE.fullmatch(language) is not None
    # "python code", not "python": with no style to set it apart, a caption of one word reads as the first line
    named = known and language.lower() not in _PLAIN_LANGUAGES
    caption = f"<figcaption><em>{escape(language)} code</em></figcaption>" if named else ""
    attribute = f' class="language-{language}"' if known else ""
    return f'<figure class="agui-static-code">{caption}<pre><code{attribute}>{escape(code)}</code></pre></figure>'


def _block_open(tag: str, token: Token) -> str:
    if tag == "ol":
        start = token.attrs.get("start")
        return f'<ol start="{start}">' if isinstance(start, int) and start != 1 else "<ol>"
    if tag in ("th", "td"):
        align = _ALIGN.fullmatch(str(token.attrs.get("style", "")))
        return f'<{tag} align="{align.group(1)}">' if align else f"<{tag}>"
    return f"<{tag}>"


def _task_box(first: Token, out: list[str]) -> None:
    """A GFM task item: its ``[x]`` / ``[ ]`` as a ☑ / ☐ character (no form control to sanitize away)."""
    box = _TASK.match(first.content)
    if box is None or not out or out[-1] not in ("<li>", "<p>"):
        return
    if out[-1] == "<p>":
        if len(out) < 2 or out[-2] != "<li>":
            return
        out[-2] = '<li class="agui-static-task">'
    else:
        out[-1] = '<li class="agui-static-task">'
    first.content = ("☐ " if box.group(1) == " " else "☑ ") + first.content[box.end() :]


def _inline_html(children: list[Token], out: list[str]) -> None:
    # For each open link, whether its <a> was written (a link to a refused URL is its text only).
    link_open: list[bool] = []
    for child in children:
        kind = child.type
        if kind == "text":
            out.append(escape(child.content) if link_open else _linkified(child.content))
        elif kind == "softbreak":
            out.append("\n")
        elif kind == "hardbreak":
            out.append("<br>")
        elif kind == "code_inline":
            out.append(f"<code>{escape(child.content)}</code>")
        elif kind == "math_inline":
            out.append(math_html(child.content, child.meta["display"]))
        elif kind == "link_open":
            href = str(child.attrs.get("href", ""))
            allowed = _LINK_URL.fullmatch(href) is not None
            link_open.append(allowed)
            if allowed:
                out.append(f'<a href="{escape(href)}" rel="noopener noreferrer nofollow" target="_blank">')
        elif kind == "link_close":
            if link_open and link_open.pop():
                out.append("</a>")
        elif kind == "image":
            out.append(_markdown_image(child, inside_link=bool(link_open)))
        elif kind.endswith("_open") and kind[: -len("_open")] in _MARKDOWN_TAGS:
            out.append(f"<{_MARKDOWN_TAGS[kind[: -len('_open')]]}>")
        elif kind.endswith("_close") and kind[: -len("_close")] in _MARKDOWN_TAGS:
            out.append(f"</{_MARKDOWN_TAGS[kind[: -len('_close')]]}>")
        elif child.content:
            out.append(escape(child.content))


def _plain_text(children: list[Token] | None) -> str:
    """An image's alt text: the text of its description, markup left out."""
    parts = []
    for child in children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.children:
            parts.append(_plain_text(child.children))
    return "".join(parts)


def _markdown_image(token: Token, *, inside_link: bool) -> str:
    """A small data: raster image inline; any other image as words naming it (and a link to a remote one)."""
    src = str(token.attrs.get("src", ""))
    alt = _cut(_plain_text(token.children), 200)
    if _inline_image(src):
        return f'<img src="{src}" alt="{escape(alt)}">'
    words = f"image: {alt}" if alt else "image"
    if _WEB_URL.fullmatch(src):
        address = escape(_cut(src, 200))
        return (
            f"[{escape(words)}: {address}]" if inside_link else f"[{escape(words)}: {_anchor(src, address)}]"
        )
    if _DATA_URL.match(src):
        return f"[{escape(words)} ({escape(_url_text(src))})]"
    return f"[{escape(words)}]"


def _linkified(text: str) -> str:
    """Escaped text whose bare http(s) URLs are links, as GFM's autolinks (trailing punctuation stays text)."""
    out = []
    at = 0
    for match in _WEB_URL.finditer(text):
        url = match.group().rstrip(_TRAILING_PUNCTUATION)
        # A closing parenthesis ends the URL when it closes none opened inside it: "(see https://x.org/a)".
        unmatched = url.count(")") - url.count("(")
        end = len(url)
        while unmatched > 0 and end > 0 and url[end - 1] == ")":
            end -= 1
            unmatched -= 1
        url = url[:end]
        if len(url) <= len("https://"):
            continue
        out.append(escape(text[at : match.start()]))
        out.append(_anchor(url, escape(url)))
        at = match.start() + len(url)
    out.append(escape(text[at:]))
    return "".join(out)


# ---------------------------------------------------------------------------------------------- tool cards


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
_OPEN_TOOL_STATES = frozenset({"approval-requested", "output-error"})  # what a reader should not miss
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


def _value_block(title: str, value: Any) -> str:
    """A value (JSON, or text as it is) as a captioned figure, like a code block."""
    caption = f"<figcaption><em>{escape(title)}</em></figcaption>" if title else ""
    return (
        f'<figure class="agui-static-value">{caption}'
        f"<pre>{escape(_cut(_json_text(value), MAX_VALUE_CHARS))}</pre></figure>"
    )


def _tool_html(part: Mapping[str, Any]) -> str:
    """A tool card, folded: its summary names the tool and says what happened; inside, the approval line, the
    arguments, the result and the error (the live card's sections)."""
    state = str(part.get("state", ""))
    words = _tool_state(part)
    approval = _approval_text(part)
    # The approval line, unless the summary already says exactly that.
    body = (
        [f'<p class="agui-static-approval">{_lines(approval)}</p>'] if approval and approval != words else []
    )
    arguments = part["input"] if part.get("input") is not None else part.get("rawInput")
    if arguments is not None:
        body.append(_value_block("Arguments", arguments))
    if "output" in part and (part["output"] is not None or state == "output-available"):
        body.append(_value_block("Result (partial)" if part.get("preliminary") else "Result", part["output"]))
    error = part.get("errorText")
    if error or state == "output-error":
        body.append(_value_block("Error", error or "Tool call failed"))
    title = part.get("title")
    named = f"<strong>{escape(_cut(_tool_name(part), 120))}</strong>"
    if isinstance(title, str) and title:
        named += f" ({escape(_cut(title, 200))})"
    opened = " open" if state in _OPEN_TOOL_STATES and not tool_call_ended(part) else ""
    return (
        f'<details class="agui-static-tool"{opened}><summary>Tool {named} · {escape(words)}</summary>'
        f"{''.join(body)}</details>"
    )


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
    body = [f'<p class="agui-static-interrupt-title"><strong>{escape(heading)}</strong></p>']
    message = interrupt.get("message")
    if isinstance(message, str) and message:
        body.append(f'<p class="agui-static-interrupt-message">{_lines(message)}</p>')
    fields = _fields_asked(schema)
    if fields and status in ("open", "expired"):
        body.append('<p class="agui-static-label"><em>Asked for</em></p>')
        body.append(_definitions("agui-static-fields", fields))
    elif fields:  # answered or cancelled: what was asked, folded under the outcome's heading
        body.append(
            f"<details><summary>Asked for ({_plural(len(fields), 'field', 'fields')})</summary>"
            f"{_definitions('agui-static-fields', fields)}</details>"
        )
    if status == "resolved" and data.get("payload") is not None:
        body.append('<p class="agui-static-label"><em>Answer</em></p>')
        body.append(_definitions("agui-static-answer", _answer_rows(data["payload"], schema)))
    outcome = _interrupt_outcome(status, data, interrupt)
    if outcome:
        body.append(f'<p class="agui-static-interrupt-outcome">{escape(outcome)}</p>')
    return f'<div class="agui-static-interrupt">{"".join(body)}</div>'


def _interrupt_text(part: Mapping[str, Any]) -> str:
    _, interrupt, status = _interrupt_parts(part)
    return f"[{_interrupt_title(interrupt)}: {_INTERRUPT_STATUS[status]}]"


# ---------------------------------------------------------------------------------------------- plans and records

# As js/src/parts/checklist.js reads a plan: the shapes agents send and the statuses LangGraph, CopilotKit, the
# AG-UI dojo and our demo use, in five tones.
_PLAN_TYPES = frozenset(
    {"data-plan", "data-steps", "data-tasks", "data-todos", "data-todo", "data-checklist"}
)
_PLAN_LISTS = ("steps", "tasks", "todos")
_STEP_TITLES = ("title", "description", "content", "text", "label", "name", "task")
_STEP_TONES = {
    "done": ("done", "completed", "complete", "finished", "success", "succeeded", "ok"),
    "active": ("in_progress", "in-progress", "inprogress", "running", "executing", "active", "started",
               "working", "current", "doing"),
    "failed": ("failed", "error", "errored", "failure"),
    "skipped": ("skipped", "cancelled", "canceled", "blocked"),
    "pending": ("pending", "todo", "to_do", "not_started", "queued", "waiting", "planned", ""),
}  # fmt: skip
_TONE_OF = {status: tone for tone, statuses in _STEP_TONES.items() for status in statuses}
# A mark that reads without colour, and the status in words beside it.
_TONE_MARKS = {"done": "✓", "active": "◐", "failed": "✗", "skipped": "⊘", "pending": "○"}
_TONE_WORDS = {"done": "done", "active": "in progress", "failed": "failed", "skipped": "skipped",
               "pending": "pending"}  # fmt: skip


def _step_title(step: Mapping[str, Any]) -> str | None:
    for key in _STEP_TITLES:
        value = step.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def _step_status(step: Mapping[str, Any]) -> str | None:
    for key in ("status", "state"):
        if isinstance(step.get(key), str):
            return step[key]
    for key in ("done", "completed"):
        if isinstance(step.get(key), bool):
            return "done" if step[key] else "pending"
    return None


def _plan(part: Mapping[str, Any]) -> tuple[str | None, list[tuple[str, str, str]]] | None:
    """A plan part's title and steps (title, tone, status as sent), or None for other parts; the live view's
    ``checklistSteps``."""
    part_type = str(part.get("type", ""))
    data = part.get("data")
    steps: Any = None
    title = None
    if isinstance(data, list) and part_type in _PLAN_TYPES:
        steps = data
    elif isinstance(data, Mapping):
        steps = next((data[key] for key in _PLAN_LISTS if isinstance(data.get(key), list)), None)
        title = next((data[key] for key in ("title", "goal") if isinstance(data.get(key), str)), None)
    if not steps or len(steps) > MAX_PLAN_STEPS or not all(isinstance(step, Mapping) for step in steps):
        return None
    shown = []
    for step in steps:
        step_title = _step_title(step)
        if step_title is None:
            return None
        status = _step_status(step)
        shown.append((step_title, status))
    # Outside a plan part every step must say where it stands, so a plain list of records is not taken for one.
    if part_type not in _PLAN_TYPES and any(status is None for _, status in shown):
        return None
    return title, [
        (
            step_title,
            _TONE_OF.get(re.sub(r"\s+", "_", (status or "").strip().lower()), "pending"),
            status or "",
        )
        for step_title, status in shown
    ]


def _plan_summary(part_type: str, title: str | None, steps: list[tuple[str, str, str]]) -> str:
    """ "Plan · 1 of 3 done" (the plan's title when it has one), as the live view's bar says it."""
    done = sum(tone == "done" for _, tone, _ in steps)
    name = _cut(title, 80) if title else "Plan" if part_type == "data-plan" else _cut(part_type[5:], 60)
    return f"{name} · {done} of {len(steps)} done"


def _plan_html(part_type: str, title: str | None, steps: list[tuple[str, str, str]]) -> str:
    items = []
    for step_title, tone, status in steps:
        known = re.sub(r"\s+", "_", status.strip().lower()) in _TONE_OF
        words = _TONE_WORDS[tone] if known else _cut(status, 60)  # a status we do not know: as it was sent
        items.append(f"<li>{_TONE_MARKS[tone]} {escape(_cut(step_title, 300))} ({escape(words)})</li>")
    name, counted = _plan_summary(part_type, title, steps).rsplit(" · ", 1)
    return (
        f'<div class="agui-static-plan"><p class="agui-static-label"><strong>{escape(name)}</strong> · '
        f"{escape(counted)}</p><ol>{''.join(items)}</ol></div>"
    )


def _records(data: Any) -> tuple[list[str], list[Mapping[str, Any]], int] | None:
    """A list of records' columns (the first ``MAX_TABLE_COLUMNS``), rows and column count, or None when
    ``data`` is not one: uniform-ish objects, as the live view's ``recordsTable`` takes them."""
    if not isinstance(data, list) or not data or not all(isinstance(row, Mapping) for row in data):
        return None
    columns: dict[str, None] = {}
    widest = 0
    for row in data:
        widest = max(widest, len(row))
        columns.update(dict.fromkeys(str(key) for key in row))
    if widest == 0 or len(columns) > widest * 2:
        return None
    return list(columns)[:MAX_TABLE_COLUMNS], data, len(columns)


def _cell(value: Any) -> tuple[str, bool]:
    """A table cell's text and whether it is a number (aligned right), as the live table writes it."""
    if value is None:
        return "", False
    if isinstance(value, bool):
        return ("true" if value else "false"), False
    if isinstance(value, int | float):
        return js_number(value), True
    if isinstance(value, str):
        return _cut(value, 300), False
    return _cut(encode_json(value), 300), False


def _numbers_only(rows: Sequence[Mapping[str, Any]], column: str) -> bool:
    """Whether a column holds numbers and nothing but gaps besides (its heading aligns right, as the live one)."""
    values = [row.get(column) for row in rows if row.get(column) is not None]
    return bool(values) and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)


def _records_html(part_type: str, columns: list[str], rows: list[Mapping[str, Any]], width: int) -> str:
    shown = rows[:MAX_TABLE_ROWS]
    numeric = [_numbers_only(shown, column) for column in columns]
    head = "".join(
        f'<th align="right">{escape(_cut(c, 120))}</th>' if number else f"<th>{escape(_cut(c, 120))}</th>"
        for c, number in zip(columns, numeric, strict=True)
    )
    body = []
    for row in shown:
        cells = []
        for column in columns:
            text, number = _cell(row.get(column))
            cells.append(f'<td align="right">{escape(text)}</td>' if number else f"<td>{escape(text)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    more = []
    if len(rows) > len(shown):
        more.append(_plural(len(rows) - len(shown), "more row", "more rows"))
    if width > len(columns):
        more.append(_plural(width - len(columns), "more column", "more columns"))
    counted = _plural(len(rows), "row", "rows")
    if width > MAX_TABLE_COLUMNS // 2:
        counted += f" · {_plural(width, 'column', 'columns')}"
    note = f'<p class="agui-static-note">{", ".join(more)} not shown</p>' if more else ""
    return (
        f'<div class="agui-static-records"><p class="agui-static-label"><strong>{escape(_cut(part_type[5:], 80))}'
        f"</strong> · {escape(counted)}</p>"
        f'<table class="agui-static-table"><thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'
        f"{note}</div>"
    )


# ---------------------------------------------------------------------------------------------- other parts


def _file_html(part: Mapping[str, Any]) -> str:
    """A small image as a figure; any other file as a line naming it, its type and size or its address."""
    url = part.get("url")
    filename = part.get("filename")
    filename = _cut(filename, 200) if isinstance(filename, str) and filename else ""
    if _inline_image(url):
        alt = filename or str(part.get("mediaType") or "image")
        caption = f"<figcaption>{escape(filename)}</figcaption>" if filename else ""
        return f'<figure class="agui-static-file"><img src="{url}" alt="{escape(_cut(alt, 200))}">{caption}</figure>'
    if not isinstance(url, str):
        where = "no URL"
    elif _WEB_URL.fullmatch(url):
        where = _anchor(url, escape(_cut(url, 200)))  # a link to follow, never a request the page makes
    else:
        where = escape(_url_text(url))
    named = f"File: <strong>{escape(filename)}</strong>" if filename else "File"
    return f'<p class="agui-static-file">{named} ({where})</p>'


def _source_html(part: Mapping[str, Any]) -> str:
    if part.get("type") == "source-url":
        url = part.get("url")
        host = _host(url)
        title = _cut(str(part.get("title") or host or url or "source"), 200)
        beside = f" ({escape(host)})" if host and host != title else ""
        return f'<p class="agui-static-source">Source: {_link(url, title)}{beside}</p>'
    title = _cut(str(part.get("title") or part.get("filename") or "document"), 200)
    detail = " · ".join(
        _cut(value, 80)
        for value in (part.get("filename"), part.get("mediaType"))
        if isinstance(value, str) and value
    )
    beside = f" ({escape(detail)})" if detail else ""
    return f'<p class="agui-static-source">Source: {escape(title)}{beside}</p>'


def _data_html(kind: str, value: Any) -> str:
    """A part this module has no better view for: its name, and its JSON folded (the live view's data card)."""
    return (
        f'<details class="agui-static-data"><summary>Data · {escape(_cut(kind, 120))}</summary>'
        f"{_value_block('', value)}</details>"
    )


def _suggestions(data: Any) -> list[str]:
    """A ``data-suggestions`` part's titles (``js/src/suggestions.js``)."""
    entries = (
        data if isinstance(data, list) else data.get("suggestions") if isinstance(data, Mapping) else None
    )
    titles = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, str):
            title = entry
        elif isinstance(entry, Mapping):
            title = next(
                (entry[k] for k in ("title", "message") if isinstance(entry.get(k), str) and entry[k]), ""
            )
        else:
            continue
        if title.strip():
            titles.append(_cut(title, 120))
    return titles[:8]


def _reasoning_html(part: Mapping[str, Any]) -> str:
    text = str(part.get("text", ""))
    if not text.strip():
        meta = part.get("providerMetadata")
        meta = meta.get("ag-ui") if isinstance(meta, Mapping) else None
        sealed = isinstance(meta, Mapping) and meta.get("encryptedValue") is not None
        return (
            '<p class="agui-static-note">Encrypted reasoning (only the model can read it)</p>'
            if sealed
            else ""
        )
    words = len(text.split())
    return (
        f'<details class="agui-static-reasoning"><summary>Reasoning · {_plural(words, "word", "words")}</summary>'
        f'<div class="agui-static-text">{markdown_html(text)}</div></details>'
    )


def _plain_html(text: str) -> str:
    """Plain text (user and system messages), its line breaks as ``<br>``."""
    return f'<p class="agui-static-plain">{_lines(text)}</p>' if text else ""


def _part_html(part: Any, markdown: bool) -> str:
    """One part's copy; ``markdown``: whether text parts are markdown (every role but user and system)."""
    if not isinstance(part, Mapping):
        return ""
    part_type = str(part.get("type", ""))
    if part_type == "text":
        text = str(part.get("text", ""))
        if not markdown:
            return _plain_html(text)
        return f'<div class="agui-static-text">{markdown_html(text)}</div>' if text.strip() else ""
    if part_type == "reasoning":
        return _reasoning_html(part)
    if part_type.startswith("tool-") or part_type == "dynamic-tool":
        return _tool_html(part)
    if part_type in ("file", "reasoning-file"):
        return _file_html(part)
    if part_type in ("source-url", "source-document"):
        return _source_html(part)
    if part_type == INTERRUPT_PART:
        return _interrupt_html(part)
    if part_type == "data-suggestions":
        titles = _suggestions(part.get("data"))
        return (
            f'<p class="agui-static-note">Suggested replies: {escape(" · ".join(titles))}</p>'
            if titles
            else ""
        )
    if part_type.startswith("data-"):
        plan = _plan(part)
        if plan is not None:
            return _plan_html(part_type, *plan)
        records = _records(part.get("data"))
        if records is not None:
            return _records_html(part_type, *records)
        return _data_html(part_type[5:], part.get("data"))
    if part_type == "steering-message":
        inner = part.get("parts")
        texts = (
            [p["text"] for p in inner if isinstance(p, Mapping) and isinstance(p.get("text"), str)]
            if isinstance(inner, list)
            else []
        )
        return f'<p class="agui-static-note"><em>Steering message:</em> {_lines(" ".join(texts))}</p>'
    if part_type == "step-start":
        return ""
    value = {k: v for k, v in part.items() if k != "type"}
    if part_type == "custom":
        kind = str(part.get("kind") or "custom")
        return _data_html(kind, part.get("providerMetadata", value))
    return _data_html(part_type or "part", value)  # a part type this module does not know: nothing is lost


# ---------------------------------------------------------------------------------------------- messages


PartHtml = Callable[[Any, int, Mapping[str, Any]], "str | None"]
"""``render_part(message_id, index, part)``: a part's copy in place of the default one (rendered outputs), or None."""

MessageVersions = tuple[int, Sequence[Sequence[Mapping[str, Any]]]]
"""Where a message is a fork: its index among the versions (0 the oldest), and the other versions' messages from
the fork on, oldest first (as ``MessageTree.branches`` lists them)."""

Versions = Mapping[int, MessageVersions]
"""The forks of a branched conversation: ``{place of the message: MessageVersions}``."""


def _role(message: Mapping[str, Any]) -> str:
    return str(message.get("role", "")) or "message"


def _role_words(role: str) -> str:
    return _ROLE_WORDS.get(role) or _cut(role[:1].upper() + role[1:], 60)


def message_html(
    message: Any, *, render_part: PartHtml | None = None, versions: MessageVersions | None = None
) -> str:
    """One message's row of the copy: its role as a visible label, then its parts ("" for what is no message).

    A pure function of its arguments, so a caller can keep each message's row and render again only the
    messages that changed. ``versions`` adds, under a message where the conversation forked, which version it is
    and the other versions, folded, so a saved notebook keeps every branch.

    >>> message_html({"id": "u", "role": "user", "parts": [{"type": "text", "text": "a\\nb"}]})
    '<div class="agui-static-message agui-static-user"><p class="agui-static-role"><strong>You</strong></p><p class="agui-static-plain">a<br>b</p></div>'
    """
    if not isinstance(message, Mapping):
        return ""
    role = _role(message)
    markdown = role not in _PLAIN_ROLES
    parts = message.get("parts")
    parts = parts if isinstance(parts, list) else []
    if render_part is None:
        body = "".join(_part_html(p, markdown) for p in parts)
    else:
        message_id = message.get("id")
        body = "".join(
            (render_part(message_id, i, p) if isinstance(p, Mapping) else None) or _part_html(p, markdown)
            for i, p in enumerate(parts)
        )
    if versions is not None:
        body += _versions_html(*versions)
    kind = role if role in _ROLES else "other"  # a class, not data-role: the live view's hooks stay its own
    return (
        f'<div class="agui-static-message agui-static-{kind}">'
        f'<p class="agui-static-role"><strong>{escape(_role_words(role))}</strong></p>{body}</div>'
    )


def _versions_html(index: int, others: Sequence[Sequence[Mapping[str, Any]]]) -> str:
    """Which version a forked message is, and the other versions, folded (each from the fork on, numbered as the
    live picker numbers them: by age, 1 the oldest)."""
    count = len(others) + 1
    shown = min(max(index, 0), count - 1) + 1
    numbers = [n for n in range(1, count + 1) if n != shown]
    # Folded versions are drawn without the rendered outputs: those belong to the messages on the path.
    folded = "".join(
        f'<p class="agui-static-label"><strong>Version {number}</strong></p>'
        f"{''.join(message_html(m) for m in version)}"
        for number, version in zip(numbers, others, strict=True)
    )
    which = f"{'version' if len(numbers) == 1 else 'versions'} {_and_list([str(n) for n in numbers])}"
    return (
        f'<details class="agui-static-versions"><summary>This is version {shown} of {count} · {which} '
        f"below</summary>{folded}</details>"
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
    if part_type.startswith("data-"):
        plan = _plan(part)
        return f"[{_plan_summary(part_type, *plan)}]" if plan is not None else ""
    return ""


def message_text(message: Any) -> str:
    """One message's line of the ``text/plain`` copy: ``role: text`` ("" for what is no message).

    >>> message_text({"role": "assistant", "parts": [{"type": "text", "text": "**3**"}]})
    'assistant: **3**'
    """
    if not isinstance(message, Mapping):
        return ""
    parts = message.get("parts")
    texts = [t for t in (_part_text(p) for p in parts) if t] if isinstance(parts, list) else []
    return f"{_role(message)}: {' '.join(texts)}"


# ---------------------------------------------------------------------------------------------- the document


def _moment(value: Any) -> str:
    """An ISO 8601 moment as a reader wants it ("2026-01-02 13:04 UTC"); anything else as it is."""
    if not isinstance(value, str) or not value:
        return ""
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return _cut(value, 60)
    if moment.tzinfo is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def _threads_html(threads: Sequence[Mapping[str, Any]] | None) -> str:
    """The chat's conversations, folded, when its log holds more than one (the current one marked)."""
    if not threads or len(threads) < 2:
        return ""
    items = []
    for thread in threads:
        title = _cut(str(thread.get("title") or "Untitled conversation"), 200)
        details = [_moment(thread.get("updated"))]
        turns = thread.get("turns")
        if isinstance(turns, int) and not isinstance(turns, bool):
            details.append(_plural(turns, "turn", "turns"))
        current = " (this one)" if thread.get("current") is True else ""
        said = " · ".join(escape(d) for d in details if d)
        items.append(f"<li><strong>{escape(title)}</strong>{current}{' · ' if said else ''}{said}</li>")
    return (
        f'<details class="agui-static-threads"><summary>{len(threads):,} conversations in this chat\'s log'
        f"</summary><ul>{''.join(items)}</ul></details>"
    )


def document_html(
    rows: Sequence[str],
    *,
    title: str = "",
    note: str = CHAT_NOTE,
    threads: Sequence[Mapping[str, Any]] | None = None,
) -> str:
    """The copy around already rendered rows (``message_html``): the style, the title, the rows, the chat's
    other conversations (``threads``: ``StaticThread`` entries, listed when there are more than one) and
    ``note``, the caller's line about where this copy comes from."""
    shown = [row for row in rows if row] or ['<p class="agui-static-note">No messages yet.</p>']
    heading = f'<h2 class="agui-static-title">{escape(_cut(title, 200))}</h2>' if title else ""
    footer = f'<p class="agui-static-note"><em>{escape(note)}</em></p>' if note else ""
    # A rule between messages (and before the footer): where no stylesheet draws the turns apart, this does.
    return (
        f'{_STYLE}<div class="{STATIC_CLASS}">{heading}{_RULE.join(shown)}{_RULE}{_threads_html(threads)}'
        f"{footer}</div>"
    )


def document_text(lines: Sequence[str], *, title: str = "") -> str:
    """The ``text/plain`` copy around already rendered lines (``message_text``), cut to ``MAX_PLAIN_CHARS``."""
    shown = [line for line in lines if line] or ["(no messages)"]
    return _cut("\n".join([title, *shown] if title else shown), MAX_PLAIN_CHARS)


def static_html(
    messages: Sequence[Any],
    *,
    title: str = "",
    render_part: PartHtml | None = None,
    versions: Versions | None = None,
    note: str = CHAT_NOTE,
    threads: Sequence[Mapping[str, Any]] | None = None,
) -> str:
    """The conversation as one sanitized HTML fragment (see the module docstring for what it may contain):
    ``document_html`` of every message's ``message_html``."""
    forks = versions or {}
    rows = [
        message_html(message, render_part=render_part, versions=forks.get(at))
        for at, message in enumerate(messages)
    ]
    return document_html(rows, title=title, note=note, threads=threads)


def static_text(messages: Sequence[Any], *, title: str = "") -> str:
    """The conversation as plain text, one ``role: text`` paragraph per message (``text/plain`` of the copy)."""
    return document_text([message_text(message) for message in messages], title=title)


def static_bundle(
    messages: Sequence[Any],
    *,
    title: str = "",
    render_part: PartHtml | None = None,
    versions: Versions | None = None,
    note: str = CHAT_NOTE,
    threads: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, str]:
    """The static copy's mime bundle: ``text/html`` and ``text/plain`` (``note`` ends the HTML)."""
    return {
        "text/html": static_html(
            messages, title=title, render_part=render_part, versions=versions, note=note, threads=threads
        ),
        "text/plain": static_text(messages, title=title),
    }
