"""TeX math in answers: MathML for $…$, $$…$$, \\(…\\), \\[…\\] and ```math, prices left as text, bad TeX shown as
its source with temml's message on hover, and an unclosed $ that stays text while it streams."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def assistant_text(text: str, state: str = "done") -> dict:
    return {"id": "a", "role": "assistant", "parts": [{"type": "text", "text": text, "state": state}]}


def formulas(widget) -> list[list[str]]:
    """[alttext, display] of each formula in the answer."""
    return widget.locator("[data-part-type=text] .agui-md").evaluate(
        "(el) => [...el.querySelectorAll('math')].map((m) => [m.getAttribute('alttext'), m.getAttribute('display')"
        " ?? 'inline'])"
    )


def text_of(widget) -> str:
    return widget.locator("[data-part-type=text] .agui-md").inner_text()


def test_each_delimiter_gives_mathml(chat):
    text = (
        "Inline $E=mc^2$ and \\(a^2+b^2=c^2\\).\n\n"
        "$$\\int_0^\\infty e^{-x}\\,dx = 1$$\n\n"
        "\\[\n\\sum_{i=1}^n i = \\frac{n(n+1)}{2}\n\\]\n\n"
        "```math\n\\begin{pmatrix}1 & 2\\\\ 3 & 4\\end{pmatrix}\n```\n"
    )
    widget = chat.open(messages=[assistant_text(text)])
    assert formulas(widget) == [
        ["E=mc^2", "inline"],
        ["a^2+b^2=c^2", "inline"],
        ["\\int_0^\\infty e^{-x}\\,dx = 1", "block"],
        ["\\sum_{i=1}^n i = \\frac{n(n+1)}{2}", "block"],
        ["\\begin{pmatrix}1 & 2\\\\ 3 & 4\\end{pmatrix}", "block"],
    ]
    # Real MathML elements (in the MathML namespace), with the layout temml chose.
    widget_math = widget.locator("[data-part-type=text] math").first
    assert widget_math.evaluate("(m) => m.namespaceURI") == "http://www.w3.org/1998/Math/MathML"
    assert widget.locator("[data-part-type=text] mfrac").count() == 1
    assert widget.locator("[data-part-type=text] mtable").count() == 1


def test_prices_and_escaped_dollars_stay_text(chat):
    text = "It costs $5 and $10, or $ 3 $ each; \\$x\\$ is not math, nor `$y$` in code, nor 5$ or $20."
    widget = chat.open(messages=[assistant_text(text)])
    assert formulas(widget) == []
    assert (
        text_of(widget)
        == "It costs $5 and $10, or $ 3 $ each; $x$ is not math, nor $y$ in code, nor 5$ or $20."
    )


def test_bad_tex_shows_its_source_with_the_error_on_hover(chat):
    text = "Before $\\frac{1}{$ and $\\notacommand x$ after, then $x^2$ still works."
    widget = chat.open(messages=[assistant_text(text)])
    errors = widget.locator("code.agui-math-error")
    assert errors.all_inner_texts() == ["$\\frac{1}{$", "$\\notacommand x$"]
    titles = errors.evaluate_all("(els) => els.map((e) => e.title)")
    assert titles[0].startswith("TeX error: ")
    assert "\\notacommand" in titles[1]
    assert formulas(widget) == [["x^2", "inline"]]
    assert text_of(widget).startswith("Before $\\frac{1}{$ and")


def test_math_cannot_carry_links_scripts_or_page_styles(chat):
    text = (
        "$\\href{javascript:alert(1)}{x}$ $\\color{red}{y}$ "
        '<math><mi style="position:fixed;background:url(https://x.example/t)" class="agui-chat">z</mi></math>'
    )
    widget = chat.open(messages=[assistant_text(text)])
    md = widget.locator("[data-part-type=text] .agui-md")
    assert md.locator("a").count() == 0
    styles = md.evaluate("(el) => [...el.querySelectorAll('[style]')].map((e) => e.getAttribute('style'))")
    assert styles == [
        "color:#ff0000"
    ]  # temml's colour is kept; the agent's fixed, remote-loading style is not
    assert md.locator("[class*=agui-chat]").count() == 0


def test_an_unclosed_dollar_stays_text_while_it_streams(chat):
    widget = chat.open(messages=[assistant_text("The energy $E=mc", "streaming")])
    assert formulas(widget) == []
    assert "$E=mc" in text_of(widget)
    widget.deliver({"kind": "patch", "seq": 1, "ops": [["t", 0, 0, "^2$ is famous."]]})
    assert formulas(widget) == [["E=mc^2", "inline"]]


def test_math_in_reasoning(chat):
    message = {
        "id": "a",
        "role": "assistant",
        "parts": [
            {"type": "reasoning", "text": "So $x=\\sqrt{2}$.", "state": "done"},
            {"type": "text", "text": "ok"},
        ],
    }
    widget = chat.open(messages=[message])
    assert widget.locator("[data-part-type=reasoning] math msqrt").count() == 1


SHOWCASE = (
    "The mass–energy relation $E = mc^2$ and Euler's identity \\(e^{i\\pi} + 1 = 0\\) sit in the text; "
    "a price of $5 and $10 stays as it is.\n\n"
    "$$\\int_{-\\infty}^{\\infty} e^{-x^2}\\,dx = \\sqrt{\\pi}$$\n\n"
    "\\[\n\\hat{\\beta} = (X^\\top X)^{-1} X^\\top y, \\qquad \\sum_{k=1}^{n} k^2 = \\frac{n(n+1)(2n+1)}{6}\n\\]\n\n"
    "```math\n\\begin{aligned} \\nabla \\cdot \\mathbf{E} &= \\frac{\\rho}{\\varepsilon_0} \\\\ "
    "\\nabla \\times \\mathbf{B} &= \\mu_0 \\mathbf{J} + \\mu_0\\varepsilon_0 \\frac{\\partial \\mathbf{E}}{\\partial t}"
    "\\end{aligned}\n```\n\n"
    "A typo such as $\\frac{a}{$ shows its source; $\\mathbb{R}^n$, $\\binom{n}{k}$ and "
    "$\\begin{pmatrix} a & b \\\\ c & d \\end{pmatrix}$ render inline."
)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_math_screenshot(open_chat, artifacts_dir, theme):
    chat = open_chat(theme, width=760)
    widget = chat.open(
        messages=[
            {"id": "u", "role": "user", "parts": [{"type": "text", "text": "Some maths?"}]},
            assistant_text(SHOWCASE),
        ]
    )
    assert widget.locator("[data-part-type=text] math").count() == 8
    widget.root.screenshot(path=str(artifacts_dir / f"math-{theme}.png"), animations="disabled")
