import "./dom.js";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MarkdownView, renderBudgetMs, renderMarkdown } from "../src/markdown.js";

/** Markup of each top-level block, without the newlines marked puts between elements. */
const blocks = (el) => [...el.children].map((node) => node.outerHTML.replaceAll("\n", ""));

describe("renderMarkdown", () => {
  it("renders one sanitised block per top-level markdown block", () => {
    assert.deepEqual(blocks(renderMarkdown("# Hi\n\nsome **bold** and `code`")), [
      '<div class="agui-md-block"><h1>Hi</h1></div>',
      '<div class="agui-md-block"><p>some <strong>bold</strong> and <code>code</code></p></div>',
    ]);
  });

  it("drops javascript: links, scripts and onerror images an answer contains", () => {
    assert.deepEqual(
      blocks(renderMarkdown("[x](javascript:alert(1)) <script>alert(1)</script> <img src=x onerror=alert(1)>")),
      ['<div class="agui-md-block"><p><a>x</a>  <span class="agui-blocked">[image]</span></p></div>'],
    );
  });

  it("keeps inline HTML that is allowed, without its handlers", () => {
    assert.deepEqual(blocks(renderMarkdown("<b>bold</b> <i onmouseover=x>i</i>")), [
      '<div class="agui-md-block"><p><b>bold</b> <i>i</i></p></div>',
    ]);
  });

  it("opens links in a new tab and resolves a reference defined after its use", () => {
    assert.deepEqual(blocks(renderMarkdown("See [the docs][1].\n\n[1]: https://example.com/docs")), [
      '<div class="agui-md-block"><p>See <a href="https://example.com/docs" target="_blank" ' +
        'rel="noopener noreferrer">the docs</a>.</p></div>',
    ]);
  });

  it("colours a fenced code block and gives it a header with its language and a copy button", () => {
    const el = renderMarkdown("```python\nprint(1)\n```");
    const code = el.querySelector("pre > code");
    assert.equal(code.className, "language-python");
    assert.equal(code.innerHTML, '<span class="agui-tok-builtin">print</span>(<span class="agui-tok-number">1</span>)\n');
    assert.equal(el.querySelector(".agui-code-language").textContent, "python");
    assert.equal(el.querySelector('[data-agui="copy-code"]').getAttribute("aria-label"), "Copy code");
  });

  it("draws TeX as MathML with the source as alttext", () => {
    assert.deepEqual(blocks(renderMarkdown("$x^2$")), [
      '<div class="agui-md-block"><p><math alttext="x^2"><msup><mi>x</mi><mn class="tml-sml-pad">2</mn></msup>' +
        "</math></p></div>",
    ]);
  });

  it("renders task lists as disabled check boxes", () => {
    const boxes = [...renderMarkdown("- [x] done\n- [ ] todo").querySelectorAll("input")];
    assert.deepEqual(boxes.map((box) => [box.type, box.checked, box.disabled]), [["checkbox", true, true], ["checkbox", false, true]]);
  });

  it("shows a remote image as a click-to-load placeholder", () => {
    const el = renderMarkdown("![pic](https://evil.example/a.png)");
    assert.equal(el.querySelector("img"), null);
    assert.equal(el.querySelector('[data-agui="remote-media"]').dataset.origin, "https://evil.example");
  });

  it("shows nesting deeper than 32 as escaped plain text under a note", () => {
    const text = `${">".repeat(5000)} <b>deep</b>`;
    const fallback = renderMarkdown(text).querySelector('[data-agui="markdown-fallback"]');
    assert.equal(fallback.dataset.reason, "error");
    assert.equal(fallback.querySelector(".agui-md-fallback-note").title, "Error: block quotes and lists nested more than 32 deep");
    assert.equal(fallback.querySelector(".agui-md-plain").textContent, text);
    assert.equal(fallback.querySelector("b"), null);
  });

  it("stops formatting quadratic emphasis at its budget and shows the text plain", () => {
    // marked needs about 5 times the budget (650 ms) for these 80,000 characters: lexing them is quadratic.
    const text = "a_".repeat(40000);
    const fallback = renderMarkdown(text).querySelector('[data-agui="markdown-fallback"]');
    assert.equal(fallback.dataset.reason, "slow");
    assert.equal(fallback.querySelector(".agui-md-plain").textContent, text);
    assert.match(fallback.querySelector("[title]")?.getAttribute("title") ?? "", /^Formatting stopped after \d+ ms\.$/);
  });
});

describe("renderBudgetMs", () => {
  it("is 250 ms plus 5 ms per 1,000 characters", () => {
    assert.deepEqual([renderBudgetMs(0), renderBudgetMs(1000), renderBudgetMs(60000)], [250, 255, 550]);
  });
});

describe("MarkdownView while a text streams", () => {
  it("closes what the live block left open and keeps completed blocks' nodes", () => {
    const view = new MarkdownView();
    view.update("# Title\n\nSome **bol", false);
    assert.deepEqual(blocks(view.el), [
      '<div class="agui-md-block"><h1>Title</h1></div>',
      '<div class="agui-md-block agui-md-live"><p>Some <strong>bol</strong></p></div>',
    ]);
    const title = view.el.firstElementChild;
    view.update("# Title\n\nSome **bold** text\n\n- a\n- b", false);
    assert.equal(view.el.firstElementChild, title, "a completed block is not drawn again");
    assert.deepEqual(blocks(view.el), [
      '<div class="agui-md-block"><h1>Title</h1></div>',
      '<div class="agui-md-block"><p>Some <strong>bold</strong> text</p></div>',
      '<div class="agui-md-block agui-md-live"><ul><li>a</li><li>b</li></ul></div>',
    ]);
    const list = view.el.lastElementChild;
    view.update("# Title\n\nSome **bold** text\n\n- a\n- b", true);
    assert.equal(view.el.lastElementChild, list, "an unchanged last block is kept when the text is done");
    assert.equal(list.className, "agui-md-block");
  });

  it("starts again when the text is replaced rather than extended", () => {
    const view = new MarkdownView();
    view.update("First answer\n\nmore", true);
    view.update("Other", true);
    assert.deepEqual(blocks(view.el), ['<div class="agui-md-block"><p>Other</p></div>']);
  });

  it("reads CRLF line ends as LF", () => {
    assert.equal(renderMarkdown("x\r\ny\rz").querySelector("p").textContent, "x\ny\nz");
  });
});
