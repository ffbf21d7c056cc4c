// @ts-check
// Incremental markdown: a streamed text is split into top-level blocks; completed blocks are rendered once and kept,
// only the last (still growing) block is re-lexed and re-rendered when more text arrives.
//
// A block is complete once the lexer sees a later, non-blank block after it: appending text can then only change
// the blocks from the last one on. The last block stays open even when the text is done (it costs one re-render if
// the text grows again, and "done" is also what a part without a state means). Link reference definitions from
// completed blocks are carried forward so that `[text][ref]` in a later block still resolves, and a definition
// that arrives after the blocks using it ("[1]: https://..." at the end of an answer) re-renders just those blocks.
// While the text streams, the live block is drawn with what it left open closed (unfinished.js: `**bold`, an open
// code span, a half-typed link or table delimiter), and drawn once more from the real text when it completes.
// TeX math (math.js) is read by marked extensions and drawn as MathML that goes through the sanitiser.
//
// Hostile text cannot hurt the page. Lexing (the one part that is not linear) runs against a deadline that marked's
// tokenizer checks before every rule it tries (thousands of unclosed emphasis delimiters are quadratic in marked: 40 KB took 5.8 s), nesting is
// limited, and any error in marked, the sanitiser or the colouring is caught. Either way the text from the block
// that could not be rendered on is shown as escaped plain text under a small note; the blocks before it stay.
// While a text streams, a redraw of a live block of some size has LIVE_BUDGET_MS; past that the rest of the text is
// plain until it is done and is then formatted once under the whole-render budget, so a hostile last block costs
// each delta no more than appending text. A live block that costs more than THROTTLE_FROM_MS to draw is redrawn
// after a pause of twice its cost, so a large block cannot keep the page busy every frame.
import { Lexer, Marked, Parser, Tokenizer, getDefaults } from "marked";
import { button, copyText, element, flashCopied, icon, scrollRegion } from "./dom.js";
import { highlightCode } from "./highlight.js";
import { MATH_EXTENSIONS, isMathFence, mathHtml } from "./math.js";
import { sanitizeHtml } from "./sanitize.js";
import { closeUnfinished } from "./unfinished.js";

/** @typedef {import("marked").Token} Token */
/** @typedef {import("marked").Links} Links */
/** @typedef {import("./remote_media.js").RemoteMediaPolicy} RemoteMediaPolicy */
/**
 * A text's top-level blocks, lexed but for their inline content (`inline[i]`: what lexInline still has to do
 * for block i), and the lexer that will do it.
 * @typedef {{tokens: Token[], links: Links, lexer: Lexer, inline: Array<Array<{src: string, tokens: Token[]}>>}} Blocks
 */

/**
 * How long lexing a whole text may take (ms): 250 plus 5 per 1,000 characters; ordinary text needs far less.
 * @param {number} length
 * @returns {number}
 */
export function renderBudgetMs(length) {
  return 250 + length / 200;
}
const LIVE_BUDGET_MS = 60;
const THROTTLE_FROM_MS = 8;
// Below this many characters from the last completed block on, a live redraw is cheap whatever the text: a slow
// one was the machine (a GC pause), not the markdown, and gets neither the live budget nor the pause.
const SMALL_LIVE_CHARS = 500;

const NOTES = {
  error: "Shown as plain text: this text could not be formatted.",
  slow: "Shown as plain text: formatting it took too long.",
  streaming: "Shown as plain text while it streams: formatting it is slow.",
  part: "Shown as plain text: this part could not be displayed.",
};

class OutOfTime extends Error {
  /** @param {number} budget ms */
  constructor(budget) {
    super(`Formatting stopped after ${Math.round(budget)} ms.`);
    this.name = "OutOfTime";
  }
}

let deadline = Infinity;
let budgetMs = 0;

/** marked's tokenizer, checking the deadline before each rule it tries. */
class BudgetedTokenizer extends Tokenizer {}
// The rules are wrapped by name, which marked's types cannot follow.
const budgetedRules = /** @type {Record<string, Function>} */ (/** @type {unknown} */ (BudgetedTokenizer.prototype));
for (const name of Object.getOwnPropertyNames(Tokenizer.prototype)) {
  const rule = /** @type {Record<string, unknown>} */ (/** @type {unknown} */ (Tokenizer.prototype))[name];
  // marked merges paragraphs differently when `paragraph` is not its own: that rule stays as it is.
  if (name === "constructor" || name === "paragraph" || typeof rule !== "function") continue;
  budgetedRules[name] = /** @this {Tokenizer} @param {unknown[]} args */ function budgeted(...args) {
    if (performance.now() > deadline) throw new OutOfTime(budgetMs);
    return rule.apply(this, args);
  };
}

// Block quotes and lists inside each other: marked recurses once per level (4 KB of "> " overflows its stack, or
// not, depending on how warm the JIT is). Deeper nesting than this is shown as plain text.
const MAX_NESTING = 32;
let nesting = 0;
for (const name of ["blockquote", "list"]) {
  const rule = budgetedRules[name];
  budgetedRules[name] = /** @this {Tokenizer} @param {unknown[]} args */ function nested(...args) {
    if (nesting >= MAX_NESTING) throw new Error(`block quotes and lists nested more than ${MAX_NESTING} deep`);
    nesting += 1;
    try {
      return rule.apply(this, args);
    } finally {
      nesting -= 1;
    }
  };
}

const OPTIONS = {
  ...getDefaults(),
  gfm: true,
  breaks: false,
  async: false,
  tokenizer: new BudgetedTokenizer(),
  extensions: new Marked().use({ extensions: MATH_EXTENSIONS }).defaults.extensions,
};

/** @param {string} source @param {Links} links */
function lex(source, links) {
  const lexer = new Lexer(OPTIONS);
  Object.assign(lexer.tokens.links, links);
  const tokens = lexer.lex(source);
  return { tokens, links: lexer.tokens.links };
}

/** @param {object} value @param {(array: unknown[]) => void} visit */
function eachArray(value, visit) {
  for (const item of Object.values(value)) {
    if (Array.isArray(item)) visit(item);
    if (item !== null && typeof item === "object") eachArray(item, visit);
  }
}

/**
 * The top-level blocks of `source` with their inline content not lexed yet: what `lex` does in two steps, so that
 * a block whose inline content is too costly leaves the blocks before it rendered. `lexInline(blocks, i)` finishes
 * block `i`.
 * @param {string} source
 * @param {Links} links
 * @returns {Blocks}
 */
function lexBlocks(source, links) {
  const lexer = new Lexer(OPTIONS);
  Object.assign(lexer.tokens.links, links);
  const tokens = lexer.blockTokens(source, lexer.tokens);
  /** @type {Map<unknown[], number>} each token array in a block -> the block's index */
  const owners = new Map();
  tokens.forEach((token, index) => eachArray(token, (array) => owners.set(array, index)));
  const inline = tokens.map(() => /** @type {Blocks["inline"][number]} */ ([]));
  for (const entry of lexer.inlineQueue) inline[owners.get(entry.tokens)]?.push(entry);
  lexer.inlineQueue = [];
  return { tokens, links: lexer.tokens.links, lexer, inline };
}

/** @param {Blocks} blocks @param {number} index */
function lexInline(blocks, index) {
  for (const entry of blocks.inline[index]) {
    blocks.lexer.state.inRawBlock = false;
    blocks.lexer.inlineTokens(entry.src, entry.tokens);
  }
  blocks.inline[index] = [];
}

/** @param {HTMLElement} root @param {RemoteMediaPolicy | null} remote */
function enhanceCode(root, remote) {
  for (const pre of root.querySelectorAll("pre")) {
    const code = pre.querySelector("code");
    const language = /language-([\w#+.-]+)/.exec(code?.className ?? "")?.[1] ?? "";
    if (isMathFence(language)) {
      pre.replaceWith(sanitizeHtml(mathHtml((code?.textContent ?? "").trim(), true), remote));
      continue;
    }
    const frame = element("div", "agui-code");
    const header = element("div", "agui-code-header");
    header.append(element("span", "agui-code-language", language || "text"));
    const copy = button("copy-code", "Copy code", { icon: icon("copy"), text: "Copy", className: "agui-code-copy" });
    copy.addEventListener("click", async () => flashCopied(copy, await copyText(pre.textContent ?? "", frame)));
    header.append(copy);
    pre.replaceWith(frame);
    frame.append(header, pre);
    scrollRegion(pre, `Code (${language || "text"})`);
    if (code) highlightCode(code, language);
  }
  for (const table of root.querySelectorAll("table")) {
    const scroller = scrollRegion(element("div", "agui-table"), "Table");
    table.replaceWith(scroller);
    scroller.append(table);
  }
}

/**
 * Render markdown tokens (one top-level block) into a sanitized `div.agui-md-block`. This part is linear in its
 * output (the colouring has a size cap): its time does not count against the lexer's deadline.
 * @param {RemoteMediaPolicy | null} remote
 * @param {...Token} tokens
 * @returns {HTMLDivElement}
 */
function renderBlock(remote, ...tokens) {
  const started = performance.now();
  const block = element("div", "agui-md-block");
  const html = Parser.parse(tokens, OPTIONS);
  block.append(sanitizeHtml(html, remote));
  enhanceCode(block, remote);
  deadline += performance.now() - started;
  return block;
}

/**
 * Render a whole markdown string at once (used for non-streamed texts and as the reference in tests).
 * @param {string} text
 * @param {RemoteMediaPolicy | null} [remote]
 * @returns {HTMLDivElement}
 */
export function renderMarkdown(text, remote = null) {
  const view = new MarkdownView("agui-md", remote);
  view.update(text, true);
  return view.el;
}

// Streaming plain text is kept in blocks of a few thousand characters, cut after a line break (or a space, or
// anywhere when a line runs on): appending to one huge text node makes the browser lay all of it out again on every
// delta. A finished text is one block, so no cut shows in it.
const PLAIN_SOFT = 4096;
const PLAIN_HARD = 8192;

/** Escaped, wrapped plain text that can grow: `append(text, done)` costs the length of `text`, not of the whole. */
class PlainText {
  /** @param {string} text @param {boolean} done */
  constructor(text, done) {
    this.el = element("div", "agui-md-plain");
    /** @type {Text} the text node that grows */
    this.block = null;
    this.length = 0;
    this.newBlock();
    this.append(text, done);
  }

  newBlock() {
    this.block = document.createTextNode("");
    const div = element("div", "agui-md-plain-block");
    div.append(this.block);
    this.el.append(div);
    this.length = 0;
  }

  /** @param {string} text @param {boolean} done */
  append(text, done) {
    if (done) {
      this.block.appendData(text);
      this.length += text.length;
      if (this.el.childElementCount > 1) {
        const whole = this.el.textContent;
        this.el.replaceChildren();
        this.newBlock();
        this.block.appendData(whole);
        this.length = whole.length;
      }
      return;
    }
    let rest = text;
    while (rest.length > 0) {
      let cut = rest.length;
      if (this.length + rest.length > PLAIN_SOFT) {
        const from = Math.max(0, PLAIN_SOFT - this.length);
        const room = Math.max(1, PLAIN_HARD - this.length); // characters of `rest` this block can still take
        let at = rest.indexOf("\n", from);
        if (at < 0 || at >= room) at = rest.indexOf(" ", from);
        if (at < 0 || at >= room) at = rest.length > room ? room - 1 : -1;
        if (at >= 0) cut = at + 1;
      }
      this.block.appendData(rest.slice(0, cut));
      this.length += cut;
      rest = rest.slice(cut);
      if (rest.length > 0) this.newBlock();
    }
  }
}

/**
 * Escaped plain text under a note saying why it is not formatted.
 * @param {string} text
 * @param {keyof typeof NOTES} reason
 * @param {string} [detail] the error, as the note's tooltip
 * @param {boolean} [done]
 */
export function plainTextFallback(text, reason, detail, done = true) {
  const node = element("div", "agui-md-fallback");
  node.dataset.agui = "markdown-fallback";
  node.dataset.reason = reason;
  const note = element("div", "agui-md-fallback-note");
  note.append(icon("alert"), element("span", "agui-md-fallback-text", NOTES[reason]));
  if (detail) note.title = detail;
  const body = new PlainText(text, done);
  node.append(note, body.el);
  return { node, body };
}

/**
 * A markdown text that grows: `update(text, done)` re-renders only what changed since the last call.
 * `remote` is the remote-media policy (remote_media.js) markdown images go through.
 */
export class MarkdownView {
  /** @param {string} [className] @param {RemoteMediaPolicy | null} [remote] */
  constructor(className = "agui-md", remote = null) {
    this.el = element("div", className);
    this.remote = remote;
    this.timer = 0;
    this.reset();
  }

  reset() {
    this.el.replaceChildren();
    this.stable = ""; // text of the completed blocks (and the blank lines between them)
    /** @type {Array<{raw: string, node: HTMLElement}>} the completed blocks */
    this.blocks = [];
    /** @type {Links} reference definitions from the completed blocks */
    this.links = Object.create(null);
    /** @type {Map<string, string>} label -> the definition blocks were last rendered with */
    this.references = new Map();
    /** @type {HTMLElement | null} the last, still growing block */
    this.live = null;
    this.liveRaw = null;
    /** @type {{node: HTMLElement, body: PlainText, reason: keyof typeof NOTES} | null} the text from `stable` on, shown as plain text */
    this.plain = null;
    this.shown = ""; // the text the view shows
    this.nextLive = 0; // no live redraw before this time (performance.now())
    clearTimeout(this.timer);
    this.timer = 0;
  }

  /** @param {unknown} rawText @param {boolean} done */
  update(rawText, done) {
    const text = typeof rawText === "string" ? rawText.replace(/\r\n?/g, "\n") : "";
    clearTimeout(this.timer);
    this.timer = 0;
    if (!text.startsWith(this.stable) || (this.plain !== null && !text.startsWith(this.shown))) this.reset();
    if (this.plain !== null) {
      if (!done || this.plain.reason !== "streaming") {
        this.showPlain(text, done);
        return;
      }
      // It was too slow to format while it streamed: now that it is done, one try under the whole budget.
      this.plain.node.remove();
      this.plain = null;
    }
    const started = performance.now();
    if (!done && started < this.nextLive) {
      this.timer = setTimeout(() => {
        this.timer = 0;
        this.update(text, false);
      }, this.nextLive - started);
      return;
    }
    // A catching-up render (a view mounted mid-stream) gets time for the text it has not drawn yet.
    const pending = text.length - this.stable.length;
    const live = !done && pending >= SMALL_LIVE_CHARS;
    const budget = live
      ? LIVE_BUDGET_MS + Math.max(0, text.length - this.shown.length) / 200
      : renderBudgetMs(pending);
    const outer = [deadline, budgetMs];
    deadline = started + budget;
    budgetMs = budget;
    try {
      this.render(text, done);
    } catch (error) {
      this.fallBack(text, error, done);
    } finally {
      [deadline, budgetMs] = outer;
    }
    this.shown = text;
    const cost = performance.now() - started;
    this.nextLive = live && cost > THROTTLE_FROM_MS ? performance.now() + 2 * cost : 0;
  }

  /** @param {string} text @param {boolean} done */
  render(text, done) {
    const blocks = lexBlocks(text.slice(this.stable.length), this.links);
    const tokens = blocks.tokens;
    this.refreshReferences(blocks.links);
    let last = tokens.length - 1;
    while (last >= 0 && tokens[last].type === "space") last -= 1;
    // Even a finished text keeps its last block open: a part without a state counts as done, and may still grow.
    const complete = Math.max(last, 0);
    for (let index = 0; index < complete; index += 1) {
      const token = tokens[index];
      if (token.type === "def") {
        if (!(token.tag in this.links)) this.links[token.tag] = { href: token.href, title: token.title };
      } else if (token.type !== "space") {
        if (this.live !== null && token.raw === this.liveRaw) {
          // The last block is finished and unchanged since it was drawn: keep its node.
          this.live.classList.remove("agui-md-live");
          this.blocks.push({ raw: token.raw, node: this.live });
          this.live = null;
          this.liveRaw = null;
        } else {
          lexInline(blocks, index);
          const block = renderBlock(this.remote, token);
          if (this.live !== null) this.live.before(block);
          else this.el.append(block);
          this.blocks.push({ raw: token.raw, node: block });
        }
      }
      // Only once its block is drawn: a failure leaves `stable` where the plain text has to start.
      this.stable += token.raw;
    }
    if (last >= 0 && tokens[last].type !== "def") {
      const token = tokens[last];
      // While it streams, the last block is drawn as if what it left open were closed (unfinished.js);
      // `liveRaw` is the text it was drawn from, so a block drawn closed is drawn again once it is real.
      const drawn = done ? token.raw : closeUnfinished(token.raw);
      if (this.live === null || drawn !== this.liveRaw) {
        let block;
        if (drawn === token.raw) {
          lexInline(blocks, last);
          block = renderBlock(this.remote, token);
        } else {
          const closed = lex(drawn, this.links).tokens.filter((t) => t.type !== "space" && t.type !== "def");
          block = renderBlock(this.remote, ...closed);
        }
        if (this.live !== null) this.live.replaceWith(block);
        else this.el.append(block);
        this.live = block;
        this.liveRaw = drawn;
      }
      this.live.classList.toggle("agui-md-live", !done);
    } else if (this.live !== null) {
      this.live.remove();
      this.live = null;
      this.liveRaw = null;
    }
  }

  /**
   * Show the text from `stable` on as plain text, after a failure or a render that ran out of time.
   * @param {string} text
   * @param {any} error what render threw
   * @param {boolean} done
   */
  fallBack(text, error, done) {
    const slow = error instanceof OutOfTime;
    const reason = slow ? (done ? "slow" : "streaming") : "error";
    if (this.live !== null) {
      this.live.remove();
      this.live = null;
      this.liveRaw = null;
    }
    const detail = slow ? error.message : `${error?.name ?? "Error"}: ${error?.message ?? error}`;
    this.plain = { ...plainTextFallback(text.slice(this.stable.length), reason, detail, done), reason };
    this.plain.node.classList.toggle("agui-md-live", !done);
    this.el.append(this.plain.node);
  }

  /** @param {string} text @param {boolean} done */
  showPlain(text, done) {
    this.plain.body.append(text.slice(this.shown.length), done);
    this.plain.node.classList.toggle("agui-md-live", !done);
    this.shown = text;
  }

  /**
   * Re-render completed blocks that use a reference label whose definition is new or changed.
   * @param {Links} links
   */
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
        const node = renderBlock(this.remote, ...tokens);
        block.node.replaceWith(node);
        block.node = node;
      }
    }
  }
}
