// Incremental markdown: a streamed text is split into top-level blocks; completed blocks are rendered once and kept,
// only the last (still growing) block is re-lexed and re-rendered when more text arrives.
//
// A block is complete once the lexer sees a later, non-blank block after it: appending text can then only change
// the blocks from the last one on. The last block stays open even when the text is done (it costs one re-render if
// the text grows again, and "done" is also what a part without a state means). Link reference definitions from
// completed blocks are carried forward so that `[text][ref]` in a later block still resolves, and a definition
// that arrives after the blocks using it ("[1]: https://..." at the end of an answer) re-renders just those blocks.
import { Lexer, Parser, getDefaults } from "marked";
import { button, copyText, element, flashCopied, icon } from "./dom.js";
import { highlightCode } from "./highlight.js";
import { sanitizeHtml } from "./sanitize.js";

const OPTIONS = { ...getDefaults(), gfm: true, breaks: false, async: false };

function lex(source, links) {
  const lexer = new Lexer(OPTIONS);
  Object.assign(lexer.tokens.links, links);
  const tokens = lexer.lex(source);
  return { tokens, links: lexer.tokens.links };
}

function enhanceCode(root) {
  for (const pre of root.querySelectorAll("pre")) {
    const code = pre.querySelector("code");
    const language = /language-([\w#+.-]+)/.exec(code?.className ?? "")?.[1] ?? "";
    const frame = element("div", "agui-code");
    const header = element("div", "agui-code-header");
    header.append(element("span", "agui-code-language", language || "text"));
    const copy = button("copy-code", "Copy code", { icon: icon("copy"), text: "Copy", className: "agui-code-copy" });
    copy.addEventListener("click", async () => flashCopied(copy, await copyText(pre.textContent ?? "", frame)));
    header.append(copy);
    pre.replaceWith(frame);
    frame.append(header, pre);
    if (code) highlightCode(code, language);
  }
  for (const table of root.querySelectorAll("table")) {
    const scroller = element("div", "agui-table");
    table.replaceWith(scroller);
    scroller.append(table);
  }
}

/** Render markdown tokens (one top-level block) into a sanitized `div.agui-md-block`. */
function renderBlock(...tokens) {
  const block = element("div", "agui-md-block");
  const html = Parser.parse(tokens, OPTIONS);
  block.append(sanitizeHtml(html));
  enhanceCode(block);
  return block;
}

/** Render a whole markdown string at once (used for non-streamed texts and as the reference in tests). */
export function renderMarkdown(text) {
  const view = new MarkdownView();
  view.update(text, true);
  return view.el;
}

/** A markdown text that grows: `update(text, done)` re-renders only what changed since the last call. */
export class MarkdownView {
  constructor(className = "agui-md") {
    this.el = element("div", className);
    this.reset();
  }

  reset() {
    this.el.replaceChildren();
    this.stable = ""; // text of the completed blocks (and the blank lines between them)
    this.blocks = []; // completed blocks: {raw, node}
    this.links = Object.create(null); // reference definitions from the completed blocks
    this.references = new Map(); // label -> the definition blocks were last rendered with
    this.live = null; // node of the last, still growing block
    this.liveRaw = null;
  }

  update(rawText, done) {
    const text = typeof rawText === "string" ? rawText.replace(/\r\n?/g, "\n") : "";
    if (!text.startsWith(this.stable)) this.reset();
    const { tokens, links } = lex(text.slice(this.stable.length), this.links);
    this.refreshReferences(links);
    let last = tokens.length - 1;
    while (last >= 0 && tokens[last].type === "space") last -= 1;
    // Even a finished text keeps its last block open: a part without a state counts as done, and may still grow.
    const complete = Math.max(last, 0);
    for (let index = 0; index < complete; index += 1) {
      const token = tokens[index];
      this.stable += token.raw;
      if (token.type === "def") {
        if (!(token.tag in this.links)) this.links[token.tag] = { href: token.href, title: token.title };
        continue;
      }
      if (token.type === "space") continue;
      if (this.live !== null && token.raw === this.liveRaw) {
        // The last block is finished and unchanged since it was drawn: keep its node.
        this.live.classList.remove("agui-md-live");
        this.blocks.push({ raw: token.raw, node: this.live });
        this.live = null;
        this.liveRaw = null;
        continue;
      }
      const block = renderBlock(token);
      if (this.live !== null) this.live.before(block);
      else this.el.append(block);
      this.blocks.push({ raw: token.raw, node: block });
    }
    if (last >= 0 && tokens[last].type !== "def") {
      const token = tokens[last];
      if (this.live === null || token.raw !== this.liveRaw) {
        const block = renderBlock(token);
        if (this.live !== null) this.live.replaceWith(block);
        else this.el.append(block);
        this.live = block;
        this.liveRaw = token.raw;
      }
      this.live.classList.toggle("agui-md-live", !done);
    } else if (this.live !== null) {
      this.live.remove();
      this.live = null;
      this.liveRaw = null;
    }
  }

  /** Re-render completed blocks that use a reference label whose definition is new or changed. */
  refreshReferences(links) {
    for (const label of Object.keys(links)) {
      const link = links[label];
      const key = `${link.href}\u0000${link.title ?? ""}`;
      if (this.references.get(label) === key) continue;
      this.references.set(label, key);
      const needle = `[${label}]`;
      for (const block of this.blocks) {
        if (!block.raw.toLowerCase().replace(/\s+/g, " ").includes(needle)) continue;
        const tokens = lex(block.raw, links).tokens.filter((token) => token.type !== "space" && token.type !== "def");
        const node = renderBlock(...tokens);
        block.node.replaceWith(node);
        block.node = node;
      }
    }
  }
}
