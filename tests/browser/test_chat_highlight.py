"""Code colouring in every common language: each language's characteristic tokens get their kind, the text of the
block is the source exactly, every token is a text node in a span (never markup), and colours differ by kind."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

# language (as an agent writes it), source, {kind: the tokens of that kind, in order}
CASES = [
    (
        "r",
        "x <- c(1, NA) # data\nf <- function(a) TRUE",
        {"operator": ["<-", "<-"], "literal": ["NA", "TRUE"], "keyword": ["function"], "comment": ["# data"]},
    ),
    (
        "julia",
        "function f(x::Int)\n  @show x\nend # c",
        {"keyword": ["function", "end"], "def": ["f"], "meta": ["@show"], "comment": ["# c"]},
    ),
    (
        "c",
        "#include <stdio.h>\nint main(void) { return 0; } // c",
        {"meta": ["#include <stdio.h>"], "builtin": ["int", "void"], "comment": ["// c"]},
    ),
    (
        "c++",
        "template <typename T> class Box { T v; };",
        {"keyword": ["template", "typename", "class"], "def": ["Box"]},
    ),
    (
        "rust",
        "#[derive(Debug)]\nfn main() { let v: Vec<u8> = vec![1]; }",
        {"meta": ["#[derive(Debug)]", "vec!"], "keyword": ["fn", "let"], "builtin": ["Vec", "u8"]},
    ),
    (
        "go",
        "func main() { fmt.Println(len(xs), `raw`, nil) }",
        {"keyword": ["func"], "builtin": ["len"], "string": ["`raw`"], "literal": ["nil"]},
    ),
    (
        "java",
        '@Override\npublic String name() { return "x"; }',
        {"meta": ["@Override"], "keyword": ["public", "return"], "builtin": ["String"]},
    ),
    (
        "html",
        "<a href=\"/x\" class='b'>Hi &amp; bye</a><!-- c -->",
        {
            "tag": ["<a", ">", "</a", ">"],
            "attribute": ["href", "class"],
            "literal": ["&amp;"],
            "comment": ["<!-- c -->"],
        },
    ),
    (
        "xml",
        '<?xml version="1.0"?>\n<note to="a"/>',
        {"meta": ['<?xml version="1.0"?>'], "tag": ["<note", "/>"]},
    ),
    (
        "css",
        ".box:hover { color: #fff !important; }",
        {"tag": [".box", ":hover"], "property": ["color"], "number": ["#fff"], "keyword": ["!important"]},
    ),
    (
        "diff",
        "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same",
        {
            "heading": ["--- a/x", "+++ b/x"],
            "meta": ["@@ -1 +1 @@"],
            "deleted": ["-old"],
            "inserted": ["+new"],
        },
    ),
    (
        "toml",
        "[tool.ruff]\nline-length = 110 # c\nok = true",
        {
            "heading": ["[tool.ruff]"],
            "property": ["line-length", "ok"],
            "number": ["110"],
            "literal": ["true"],
        },
    ),
    (
        "markdown",
        "# Title\n\n**bold** and `code` and [a](b)",
        {"heading": ["# Title"], "builtin": ["**bold**"], "string": ["`code`"], "attribute": ["[a](b)"]},
    ),
    ("kotlin", 'fun main() { val x = "s" }', {"keyword": ["fun", "val"], "def": ["main"]}),
    ("swift", "struct A { let x: Int = 1 }", {"keyword": ["struct", "let"], "builtin": ["Int"]}),
    ("csharp", "public class A { void M() {} }", {"keyword": ["public", "class", "void"], "def": ["A"]}),
    ("ruby", "def go?(x) = :sym # c", {"keyword": ["def"], "def": ["go?"], "literal": [":sym"]}),
    ("php", '<?php $x = "a"; # c', {"meta": ["<?php"], "variable": ["$x"], "comment": ["# c"]}),
    ("lua", "local function f() end -- c", {"keyword": ["local", "function", "end"], "comment": ["-- c"]}),
    ("dockerfile", "FROM python:3.12\nRUN pip install x", {"keyword": ["FROM", "RUN"]}),
    ("latex", "\\begin{equation} x^2 % c", {"keyword": ["\\begin"], "comment": ["% c"]}),
    # Today's six still colour as before.
    ("python", "def f(): return None", {"keyword": ["def", "return"], "def": ["f"], "literal": ["None"]}),
    ("ts", "const n: number = 1", {"keyword": ["const"], "builtin": ["number"]}),
    ("json", '{"a": true}', {"property": ['"a"'], "literal": ["true"]}),
    ("sh", "export A=$HOME", {"keyword": ["export"], "variable": ["$HOME"]}),
    ("sql", "SELECT a FROM t", {"keyword": ["SELECT", "FROM"]}),
    ("yml", "a: 1", {"property": ["a"], "number": ["1"]}),
]


def assistant_text(text: str) -> dict:
    return {"id": "a", "role": "assistant", "parts": [{"type": "text", "text": text, "state": "done"}]}


@pytest.mark.parametrize(("language", "source", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_language_is_coloured(chat, language, source, expected):
    widget = chat.open(messages=[assistant_text(f"```{language}\n{source}\n```")])
    code = widget.locator(".agui-code code")
    assert code.get_attribute("data-highlighted")
    assert code.evaluate("(el) => el.textContent") == source + "\n"
    for kind, texts in expected.items():
        assert code.locator(f".agui-tok-{kind}").all_inner_texts() == texts, kind
    # Only spans of text: no element from the source, every span a single text node.
    assert code.evaluate(
        "(el) => [...el.querySelectorAll('*')].every((s) => s.tagName === 'SPAN' && s.childNodes.length === 1"
        " && s.firstChild.nodeType === 3)"
    )


def test_unknown_languages_and_object_keys_stay_plain(chat):
    text = "```constructor\nx = 1\n```\n\n```__proto__\ny\n```\n\n```cobol-85\nDISPLAY 'HI'.\n```"
    widget = chat.open(messages=[assistant_text(text)])
    assert widget.locator(".agui-code code [class^=agui-tok-]").count() == 0
    assert widget.locator("[data-agui=markdown-fallback]").count() == 0


def test_new_kinds_have_their_own_colours(chat):
    widget = chat.open(messages=[assistant_text("```diff\n-old\n+new\n```\n\n```html\n<a href=x>t</a>\n```")])
    colour = "(el) => getComputedStyle(el).color"
    seen = {
        kind: widget.locator(f".agui-tok-{kind}").first.evaluate(colour)
        for kind in ("inserted", "deleted", "tag", "attribute")
    }
    plain = widget.locator(".agui-code code").first.evaluate(colour)
    assert len(set(seen.values())) == 4 and plain not in seen.values()


SHOWCASE = (
    "```rust\n#[derive(Debug)]\nstruct Point<'a> { name: &'a str, x: f64 }\n\nfn main() {\n"
    '    let p = Point { name: "origin", x: 0.0 }; // start\n    println!("{:?}", p);\n}\n```\n\n'
    "```diff\n@@ -1,3 +1,3 @@\n-timeout = 30\n+timeout = 60\n retries = 3\n```\n\n"
    '```html\n<button class="primary" disabled>Save &amp; close</button> <!-- main -->\n```\n\n'
    '```toml\n[project]\nname = "agui-notebook"  # bumped\n```'
)
SHOWCASE_2 = (
    "```r\nfit <- lm(y ~ x, data = df)  # linear model\nsummary(fit)$r.squared |> round(3)\n```\n\n"
    "```julia\nfunction energy(m::Float64)\n    @assert m > 0\n    return m * 299_792_458.0^2\nend\n```\n\n"
    "```cpp\n#include <vector>\ntemplate <typename T> T sum(const std::vector<T>& xs) { return T{}; }\n```\n\n"
    "```css\n.card:hover { border: 1px solid #1976d2; padding: 0.5em !important; }\n```"
)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_highlight_screenshot(open_chat, artifacts_dir, theme):
    chat = open_chat(theme, width=760, height=1000)
    widget = chat.open(messages=[assistant_text(SHOWCASE)])
    assert widget.locator(".agui-code code[data-highlighted]").count() == 4
    widget.root.screenshot(path=str(artifacts_dir / f"highlight-{theme}.png"), animations="disabled")
    widget = chat.open(messages=[assistant_text(SHOWCASE_2)])
    assert widget.locator(".agui-code code[data-highlighted]").count() == 4
    widget.root.screenshot(path=str(artifacts_dir / f"highlight-2-{theme}.png"), animations="disabled")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_every_colour_of_every_language_meets_wcag_aa_contrast(open_chat, theme):
    from tests.browser.test_chat_look import texts_with_contrast

    chat = open_chat(theme, width=900, height=6000)
    text = "\n\n".join(f"```{language}\n{source}\n```" for language, source, _ in CASES)
    widget = chat.open(messages=[assistant_text(text)], height="auto")
    measured = [m for m in texts_with_contrast(widget) if m["text"].strip()]
    assert len(measured) > 100
    low = sorted({(m["where"], m["text"], round(m["ratio"], 2)) for m in measured if m["ratio"] < 4.5})
    assert low == [], "\n".join(map(str, low))
