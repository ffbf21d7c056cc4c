"""Safety: nothing an agent sends can run script, navigate, or become an unsafe link.

Hostile strings go into every part kind and every field the widget shows (text, reasoning, tool names, inputs,
outputs and errors, source and file URLs, filenames, media types, data parts, custom parts, ids, roles, metadata,
traits), both as whole messages and streamed delta by delta. A successful payload sets ``window.__pwned``, opens a
dialog, navigates or loads something; the DOM audit then checks what is left is inert: no handlers, no active
tags, and only allowed URLs.
"""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser

PWN = "window.__pwned=1"

HTML_PAYLOADS = [
    f"<script>{PWN}</script>",
    f'<img src=x onerror="{PWN}">',
    f"<img src=x onerror={PWN}//",
    f'<svg onload="{PWN}"><circle r="9"></circle></svg>',
    f"<svg><script>{PWN}</script></svg>",
    f"<svg><a xlink:href=\"javascript:{PWN}\"><text y='9'>svg link</text></a></svg>",
    f'<math><mtext><table><mglyph><style><img src=x onerror="{PWN}">',
    f'<math><mi href="javascript:{PWN}" xlink:href="javascript:{PWN}">x</mi></math>',
    f'<math><annotation-xml encoding="text/html"><img src=x onerror="{PWN}"></annotation-xml></math>',
    '<math><maction actiontype="statusline"><mi>x</mi><mtext>y</mtext></maction></math>',
    '<math><mi style="position:fixed;inset:0;background:url(https://tracker.example/p.gif)">x</mi></math>',
    '<math><mtext><p onclick="window.__pwned=1">html inside math</p></mtext></math>',
    f"$\\href{{javascript:{PWN}}}{{x}}$ $\\url{{javascript:{PWN}}}$ $\\includegraphics{{https://x.example/a.png}}$",
    f'<iframe src="javascript:{PWN}"></iframe>',
    '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
    '<iframe src="data:text/html,<script>parent.__pwned=1</script>"></iframe>',
    f'<object data="javascript:{PWN}"></object>',
    '<embed src="data:text/html,<script>parent.__pwned=1</script>">',
    f'<a href="javascript:{PWN}">js link</a>',
    f'<a href="JaVaScRiPt:{PWN}">mixed case</a>',
    f'<a href="java&#x09;script:{PWN}">entity tab</a>',
    f'<a href="&#106;avascript:{PWN}">entity j</a>',
    f'<a href="javascript&colon;{PWN}">colon entity</a>',
    f'<a href="  \u0001javascript:{PWN}">control char</a>',
    '<a href="data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0xPC9zY3JpcHQ+">data html</a>',
    '<a href="vbscript:msgbox(1)">vbscript</a>',
    f'<a href="https://ok.example/" onclick="{PWN}" onmouseover="{PWN}">handler on a good link</a>',
    '<a href="/lab/tree/secret.ipynb">relative</a>',
    '<a href="//evil.example/x">protocol relative</a>',
    f'<form action="javascript:{PWN}"><button formaction="javascript:{PWN}">go</button></form>',
    f'<input autofocus onfocus="{PWN}">',
    f'<details open ontoggle="{PWN}"><summary>t</summary>x</details>',
    f'<div style="background:url(javascript:{PWN});width:expression({PWN})">styled</div>',
    f"<style>@import 'javascript:{PWN}'; .agui-chat {{ display: none }}</style>",
    '<base href="javascript:/">',
    f'<meta http-equiv="refresh" content="0;url=javascript:{PWN}">',
    '<link rel="stylesheet" href="https://evil.example/x.css">',
    f'<body onload="{PWN}">',
    f'<video><source onerror="{PWN}"></video>',
    f'<audio src=x onerror="{PWN}"></audio>',
    f'<img srcset="x 1x" onerror="{PWN}">',
    f'<noscript><p title="</noscript><img src=x onerror={PWN}>"></noscript>',
    f"<template><script>{PWN}</script></template>",
    f'"><img src=x onerror={PWN}>',
    f"'><svg/onload={PWN}>",
    f"\u202e<img src=x onerror={PWN}>",
    f'<img src="x" alt="\\" onerror={PWN} x=\\"">',
    '<div class="agui-send" data-agui="send" id="root" name="agui">clobber</div>',
    "{{constructor.constructor('window.__pwned=1')()}}",
]

MARKDOWN_PAYLOADS = [
    f"[md js](javascript:{PWN})",
    f"[md js upper](JAVASCRIPT:{PWN})",
    f"[md js tab](java\tscript:{PWN})",
    f"[md entity](&#106;avascript:{PWN})",
    "[md data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0xPC9zY3JpcHQ+)",
    f"[md fullwidth](ｊａｖａｓｃｒｉｐｔ:{PWN})",
    f"![md img js](javascript:{PWN})",
    "![md img svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9InBhcmVudC5fX3B3bmVkPTEiLz4=)",
    f"[ref link][evil]\n\n[evil]: javascript:{PWN}",
    f"<javascript:{PWN}>",
    f"```html\n<script>{PWN}</script>\n```",
    f"`<img src=x onerror={PWN}>`",
]

URL_PAYLOADS = [
    f"javascript:{PWN}",
    f" JAVASCRIPT:{PWN}",
    f"java\nscript:{PWN}",
    f"\u0000javascript:{PWN}",
    "data:text/html,<script>parent.__pwned=1</script>",
    "data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX19wd25lZD0xPC9zY3JpcHQ+",
    "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='parent.__pwned=1'/>",
    "data:application/xhtml+xml,<html xmlns='http://www.w3.org/1999/xhtml'><script>parent.__pwned=1</script></html>",
    "vbscript:msgbox(1)",
    "file:///etc/passwd",
    "//evil.example/x",
    "/api/contents",
    f"ｊａｖａｓｃｒｉｐｔ:{PWN}",
]

FILE_MEDIA_TYPES = [
    "image/png",
    "image/svg+xml",
    "text/html",
    "application/pdf",
    "audio/wav",
    "video/mp4",
    "text/x",
]


def hostile_messages() -> list[dict]:
    text = "\n\n".join(HTML_PAYLOADS + MARKDOWN_PAYLOADS)
    evil = HTML_PAYLOADS[1]
    parts: list[dict] = [
        {"type": "step-start"},
        {"type": "text", "text": text, "state": "done"},
        {
            "type": "reasoning",
            "text": text,
            "state": "done",
            "providerMetadata": {"ag-ui": {"encryptedValue": evil}},
        },
        {
            "type": "tool-" + evil,
            "toolCallId": evil,
            "state": "input-available",
            "input": {evil: HTML_PAYLOADS},
        },
        {
            "type": 'tool-x" onmouseover="window.__pwned=1" data-x="',
            "toolCallId": "c2",
            "state": "output-available",
            "title": evil,
            "input": evil,
            "output": {"html": HTML_PAYLOADS[0], "md": MARKDOWN_PAYLOADS[0]},
            "providerExecuted": True,
        },
        {
            "type": "dynamic-tool",
            "toolName": evil,
            "toolCallId": "c3",
            "state": "output-error",
            "input": {},
            "errorText": evil,
        },
        {
            "type": "dynamic-tool",
            "toolName": "approve_me",
            "toolCallId": "c4",
            "state": "approval-requested",
            "input": {"cmd": evil},
            "approval": {"id": evil, "requestReason": evil},
        },
        {"type": "data-" + evil, "id": evil, "data": {"html": HTML_PAYLOADS, "url": URL_PAYLOADS}},
        {"type": "custom", "kind": evil, "providerMetadata": {"x": {"html": evil}}},
        {"type": "steering-message", "id": evil, "parts": [{"type": "text", "text": evil}]},
        {"type": evil, "text": evil},
        {"type": "source-document", "sourceId": evil, "mediaType": evil, "title": evil, "filename": evil},
    ]
    for url in URL_PAYLOADS:
        parts.append({"type": "source-url", "sourceId": "s", "url": url, "title": evil})
        for media_type in FILE_MEDIA_TYPES:
            parts.append(
                {"type": "file", "mediaType": media_type, "filename": "\u202egnp.exe" + evil, "url": url}
            )
        parts.append({"type": "reasoning-file", "mediaType": "image/png", "url": url})
    metadata = {
        "ag-ui": {
            "model": evil,
            "usage": {"inputTokens": evil, evil: 3},
            "error": {"message": evil, "code": evil},
            "threadId": evil,
            "runId": evil,
            "outcome": evil,
            "startedAt": evil,
        }
    }
    return [
        {"id": evil, "role": evil, "parts": [{"type": "text", "text": text}]},
        {
            "id": 'x" onmouseover="window.__pwned=1',
            "role": "user",
            "parts": [{"type": "text", "text": text}],
            "metadata": metadata,
        },
        {"id": "a1", "role": "assistant", "metadata": metadata, "parts": parts},
        {"id": "sys", "role": "system", "parts": [{"type": "text", "text": text}]},
    ]


AUDIT = r"""
(root) => {
  const SVG = 'http://www.w3.org/2000/svg';
  const ACTIVE_TAGS = new Set(['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'form', 'base', 'meta',
    'link', 'style', 'template', 'noscript', 'applet', 'portal', 'source', 'track']);
  // MathML (temml's formulas) is kept: only MathML Core's layout elements, nothing of HTML inside them, and a
  // style limited to colours, padding, borders and script depth.
  const MATHML = 'http://www.w3.org/1998/Math/MathML';
  const MATH_TAGS = new Set(['math', 'mi', 'mn', 'mo', 'ms', 'mtext', 'mspace', 'mrow', 'mfrac', 'msqrt', 'mroot',
    'msub', 'msup', 'msubsup', 'munder', 'mover', 'munderover', 'mmultiscripts', 'mprescripts', 'mtable', 'mtr',
    'mtd', 'mpadded', 'mphantom', 'mstyle', 'menclose', 'merror']);
  const MATH_STYLE = /^(?:(?:color|background-color|padding(?:-\w+)?|border(?:-\w+)?|math-depth|math-style|math-shift|display|width|height|margin-left|margin-right|font-style|font-weight|vertical-align):[#\w .,%()+-]*(?:;|$))*$/;
  const problems = [];
  const describe = (el) => el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '');
  for (const el of [root, ...root.querySelectorAll('*')]) {
    const tag = el.tagName.toLowerCase();
    if (ACTIVE_TAGS.has(tag)) problems.push(`active tag <${tag}>`);
    const inMath = el.closest('math') !== null;
    if (el.namespaceURI === MATHML && !MATH_TAGS.has(tag)) problems.push(`MathML <${tag}>`);
    if (inMath && el.namespaceURI !== MATHML) problems.push(`<${tag}> inside math`);
    if (inMath && el.hasAttribute('style') && (!MATH_STYLE.test(el.getAttribute('style')) || /url/i.test(el.getAttribute('style')))) {
      problems.push(`math style ${el.getAttribute('style')}`);
    }
    if (el.namespaceURI === SVG && !el.closest('svg.agui-icon')) problems.push(`foreign svg <${tag}>`);
    if (tag === 'input' && !(el.matches('.agui-approval-reason, .agui-file-input') || (el.type === 'checkbox' && el.disabled))) {
      problems.push(`input ${el.type}`);
    }
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) problems.push(`${describe(el)} has ${name}`);
      if (['srcdoc', 'action', 'formaction', 'xlink:href', 'srcset', 'ping', 'background', 'id', 'name'].includes(name)) {
        problems.push(`${describe(el)} has ${name}`);
      }
      if (name === 'style' && !(el === root || el.matches('textarea.agui-input') || el.namespaceURI === MATHML)) problems.push(`${describe(el)} has style`);
    }
    if (el.hasAttribute('href')) {
      const href = el.getAttribute('href');
      if (tag !== 'a') problems.push(`href on ${tag}`);
      if (/^https?:/i.test(href)) {
        if (el.getAttribute('target') !== '_blank') problems.push(`link without target=_blank: ${href}`);
        const rel = (el.getAttribute('rel') || '').split(/\s+/);
        if (!rel.includes('noopener') || !rel.includes('noreferrer')) problems.push(`link without rel: ${href}`);
        if (!/^https?:\/\/[^\/]/i.test(href)) problems.push(`odd http link ${href}`);
      } else if (/^mailto:/i.test(href)) {
        // fine
      } else if (/^data:/i.test(href)) {
        if (!el.hasAttribute('download')) problems.push(`data link without download: ${href.slice(0, 40)}`);
        if (/^data:[^,]*(html|xml|svg|script)/i.test(href)) problems.push(`active data link: ${href.slice(0, 40)}`);
      } else {
        problems.push(`unsafe href: ${href.slice(0, 60)}`);
      }
    }
    if (el.hasAttribute('src')) {
      const src = el.getAttribute('src');
      if (!['img', 'audio', 'video'].includes(tag)) problems.push(`src on ${tag}`);
      const ok = /^https?:\/\/[^\/]/i.test(src) || /^blob:/i.test(src) ||
        (tag === 'img' && /^data:image\/(png|jpeg|gif|webp|avif|bmp|svg\+xml)[;,]/i.test(src)) ||
        (tag === 'audio' && /^data:audio\/[\w.+-]+[;,]/i.test(src)) ||
        (tag === 'video' && /^data:video\/[\w.+-]+[;,]/i.test(src));
      if (!ok) problems.push(`unsafe src on ${tag}: ${src.slice(0, 60)}`);
    }
  }
  return problems;
}
"""

TOUCH_EVERYTHING = """
async (root) => {
  for (const details of root.querySelectorAll('details')) details.open = true;
  for (const el of root.querySelectorAll('*')) {
    for (const type of ['mouseover', 'mouseenter', 'focus', 'animationstart', 'toggle']) {
      el.dispatchEvent(new Event(type, {bubbles: true}));
    }
  }
  // Give failing images, media and any timers a moment to fire.
  await new Promise((resolve) => setTimeout(resolve, 300));
}
"""


def assert_inert(chat, widget) -> None:
    widget.root.evaluate(TOUCH_EVERYTHING)
    chat.frames()
    assert chat.evaluate("() => window.__pwned ?? null") is None
    assert chat.events.dialogs == []
    assert chat.events.navigations == []
    assert chat.events.popups == []
    assert chat.events.external_requests == []
    assert widget.root.evaluate(AUDIT) == []
    # Our own stylesheet is the only one the widget added, and the widget is still visible.
    assert (
        chat.evaluate("() => document.querySelectorAll('body style, #agui-notebook-chat-style').length") == 1
    )
    assert widget.root.is_visible()


def test_hostile_messages_render_inert(chat):
    evil = HTML_PAYLOADS[1]
    widget = chat.open(
        messages=hostile_messages(),
        title=evil,
        placeholder=evil,
        status="error",
        error=evil,
        height="100px; background: url(javascript:window.__pwned=1)",
        theme=evil,
    )
    assert_inert(chat, widget)
    # Hostile strings are shown as text.
    assert widget.locator("[data-agui=error-text]").inner_text() == evil
    assert widget.locator("[data-agui=title]").inner_text() == evil
    tool = widget.locator(".agui-tool").first
    assert tool.get_attribute("data-part-type") == "tool-" + evil
    assert tool.locator(".agui-tool-name").inner_text() == evil
    assert json.loads(tool.locator(".agui-tool-input pre").text_content()) == {evil: HTML_PAYLOADS}
    assert widget.message(0).get_attribute("data-message-id") == evil
    assert (
        widget.message(0).get_attribute("data-role") == "assistant"
    )  # an unknown role renders as the assistant's
    assert widget.message(1).get_attribute("data-message-id") == 'x" onmouseover="window.__pwned=1'
    assert widget.root.get_attribute("data-theme") == "auto"
    # Bidi overrides are dropped from labels, so "gnp.exe" cannot display as "exe.png".
    names = widget.locator("[data-part-type=file] .agui-chip-title").all_inner_texts()
    assert names and all(name.startswith("gnp.exe<img") for name in names)
    # Markdown code keeps the payload as text.
    assert (
        f"<script>{PWN}</script>"
        in widget.message(2).locator("[data-part-type=text] pre").first.text_content()
    )


def test_unsafe_urls_never_become_links_or_sources(chat):
    parts = []
    for url in URL_PAYLOADS:
        parts.append({"type": "source-url", "sourceId": "s", "url": url, "title": "source"})
        for media_type in FILE_MEDIA_TYPES:
            parts.append({"type": "file", "mediaType": media_type, "filename": "f", "url": url})
    widget = chat.open(messages=[{"id": "a", "role": "assistant", "parts": parts}])
    assert widget.locator("a").count() == 0
    assert widget.locator("audio, video").count() == 0
    # The one image that shows is the SVG data URL under an image type: inert inside <img>, never a link.
    srcs = widget.locator("img").evaluate_all("(els) => els.map((e) => e.getAttribute('src'))")
    svg = next(url for url in URL_PAYLOADS if url.startswith("data:image/svg+xml"))
    assert srcs == [svg, svg]
    assert widget.locator(".agui-blocked").count() == len(parts) - 2


def test_safe_urls_still_work(chat):
    parts = [
        {"type": "source-url", "sourceId": "s", "url": "https://example.com/a b", "title": "ok"},
        {"type": "source-url", "sourceId": "s", "url": "mailto:team@example.com", "title": "mail"},
        {
            "type": "file",
            "mediaType": "image/svg+xml",
            "filename": "chart.svg",
            "url": "data:image/svg+xml,<svg/>",
        },
        {"type": "file", "mediaType": "text/csv", "filename": "t.csv", "url": "data:text/csv;base64,YSxi"},
        {
            "type": "file",
            "mediaType": "image/png",
            "filename": "remote.png",
            "url": "blob:http://127.0.0.1:8711/x",
        },
    ]
    widget = chat.open(messages=[{"id": "a", "role": "assistant", "parts": parts}])
    hrefs = widget.locator("a").evaluate_all("(els) => els.map((e) => e.getAttribute('href'))")
    assert hrefs == ["https://example.com/a%20b", "mailto:team@example.com", "data:text/csv;base64,YSxi"]
    srcs = widget.locator("img").evaluate_all("(els) => els.map((e) => e.getAttribute('src'))")
    assert srcs == ["data:image/svg+xml,<svg/>", "blob:http://127.0.0.1:8711/x"]


def test_streamed_payloads_stay_inert(chat):
    widget = chat.open(
        messages=[
            {"id": "a", "role": "assistant", "parts": [{"type": "text", "text": "", "state": "streaming"}]}
        ]
    )
    text = "\n\n".join(HTML_PAYLOADS + MARKDOWN_PAYLOADS)
    # Two characters at a time: every half-written tag and link passes through the renderer.
    for seq, start in enumerate(range(0, len(text), 60), start=1):
        ops = [["t", 0, 0, text[i : i + 2]] for i in range(start, min(start + 60, len(text)), 2)]
        widget.deliver({"kind": "patch", "seq": seq, "ops": ops})
    assert widget.locator("[data-part-type=text]").get_attribute("data-state") == "streaming"
    assert_inert(chat, widget)


def test_clicking_every_non_http_link_and_blocked_chip_goes_nowhere(chat):
    widget = chat.open(messages=hostile_messages())
    # Element.click() activates links like a user click does (downloads, navigations), in one round trip.
    clicked = widget.root.evaluate(
        """async (root) => {
        const targets = [...root.querySelectorAll("a:not([href^='http']), .agui-blocked")];
        for (const target of targets) target.click();
        await new Promise((resolve) => setTimeout(resolve, 300));
        return targets.length;
      }"""
    )
    assert clicked > 50
    chat.frames()
    assert chat.evaluate("() => window.__pwned ?? null") is None
    assert chat.page.url == "http://127.0.0.1:8711/"
    assert chat.events.navigations == [] and chat.events.dialogs == [] and chat.events.popups == []


PNG_DATA = "data:image/png;base64,iVBORw0KGgo="


@pytest.mark.parametrize(
    ("filename", "media_type", "url", "name", "shown_type"),
    [
        # The extension follows the type the chip shows; for a data: URL that is the URL's own, checked type.
        ("report.html", "application/octet-stream", PNG_DATA, "report.png", "image/png"),
        ("report.html", "text/csv", "data:text/csv;base64,YSxi", "report.csv", "text/csv"),
        (
            "invoice.pdf.exe",
            "application/pdf",
            "data:application/pdf;base64,JVBE",
            "invoice.pdf.pdf",
            "application/pdf",
        ),
        ("photo.JPEG", "application/octet-stream", "data:image/jpeg;base64,/9j/", "photo.JPEG", "image/jpeg"),
        ("data.csv", "text/csv", "data:text/csv;base64,YSxi", "data.csv", "text/csv"),
        ("x.tar.gz", "application/gzip", "data:application/gzip;base64,H4s=", "x.tar.gz", "application/gzip"),
        ("payload.svg", "image/svg+xml", "data:text/plain,<svg>", "payload.txt", "text/plain"),
        ("notes", "text/markdown", "data:text/markdown,hi", "notes.md", "text/markdown"),
        (
            "model.weights",
            "application/x-custom",
            "data:application/x-custom;base64,AA==",
            "model.bin",
            "application/x-custom",
        ),
        ("table", "text/x-unknown", "data:text/x-unknown,a", "table.txt", "text/x-unknown"),
        # Safe names: no path, no leading dots, no reserved characters, no bidi tricks, never empty.
        ("../../.bashrc", "text/plain", "data:text/plain,hi", "bashrc.txt", "text/plain"),
        (
            "C:\\Users\\me\\run.exe",
            "application/pdf",
            "data:application/pdf;base64,JVBE",
            "run.pdf",
            "application/pdf",
        ),
        ('a<b>:"c"?.txt', "text/plain", "data:text/plain,hi", "a_b___c__.txt", "text/plain"),
        (
            "\u202egnp.exe",
            "image/png",
            PNG_DATA.replace("image/png", "application/octet-stream"),
            "gnp.bin",
            "application/octet-stream",
        ),
        ("", "application/zip", "data:application/zip;base64,UEs=", "download.zip", "application/zip"),
        ("...", "text/plain", "data:text/plain,hi", "download.txt", "text/plain"),
        ("x" * 300 + ".csv", "text/csv", "data:text/csv,a", "x" * 100 + ".csv", "text/csv"),
        # A remote link: the part's media type is the one shown.
        ("report.html", "application/pdf", "https://files.example/r", "report.pdf", "application/pdf"),
    ],
)
def test_download_names_carry_the_extension_of_the_type_shown(
    chat, filename, media_type, url, name, shown_type
):
    part = {"type": "file", "mediaType": media_type, "filename": filename, "url": url}
    widget = chat.open(messages=[{"id": "a", "role": "assistant", "parts": [part]}])
    chip = widget.locator("[data-part-type=file] a.agui-file-chip")
    assert chip.get_attribute("download") == name
    assert chip.locator(".agui-chip-title").inner_text() == name
    assert chip.locator(".agui-chip-host").inner_text() == shown_type
