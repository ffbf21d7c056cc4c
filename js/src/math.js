// @ts-check
// TeX math in markdown: `$…$`, `$$…$$`, `\(…\)`, `\[…\]` and fenced ```math blocks, drawn as MathML by temml.
//
// The MathML is an HTML string that goes through the markdown's sanitiser (sanitize.js keeps the MathML elements
// and attributes temml writes, nothing else), never straight into the page. TeX that temml cannot read is shown
// as its source in a <code class="agui-math-error"> whose title is temml's message: a typo never breaks the text
// around it. The dollar rules keep prices as text: the opening `$` is not followed by a space, the closing one is
// not preceded by a space nor followed by a digit, so "$5 and $10" stays as it is; `\$` is a dollar sign. An
// unclosed `$…` is text until its closing `$` arrives.
import temml from "temml";

const MAX_TEX = 10_000; // longer formulas are shown as source: temml's cost grows with them
// Nothing an agent writes may make temml fetch, link or style the page: no \href, \url, \includegraphics (trust
// off), sizes bounded, macro expansion bounded (a self-referencing \def stops).
/** @type {import("temml").Options} */
const OPTIONS = { throwOnError: true, trust: false, annotate: false, maxSize: [50, 50], maxExpand: 1000, strict: false };

/** @param {string} text */
const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => /** @type {Record<string, string>} */ ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

/**
 * MathML for `tex` (an HTML string to sanitise), or the TeX source in a <code> that says what is wrong.
 * @param {string} tex
 * @param {boolean} display a block formula rather than one in running text
 * @returns {string}
 */
export function mathHtml(tex, display) {
  const source = display ? `$$${tex}$$` : `$${tex}$`;
  let problem;
  if (tex.length > MAX_TEX) problem = `formula longer than ${MAX_TEX} characters`;
  else {
    try {
      // The TeX rides along as the formula's alttext: read out where MathML is not, and what a copy gives.
      const mathml = temml.renderToString(tex, { ...OPTIONS, displayMode: display });
      return mathml.replace(/^<math/, `<math alttext="${escapeHtml(tex)}"`);
    } catch (error) {
      problem = String(/** @type {{message?: string}} */ (error)?.message ?? error).split("\n")[0];
    }
  }
  const code = `<code class="agui-math-error" title="TeX error: ${escapeHtml(problem)}">${escapeHtml(source)}</code>`;
  return display ? `<p>${code}</p>` : code;
}

// ------------------------------------------------------------------------------------ marked extensions

// `$$…$$` or `\[…\]` as a paragraph of its own, over any number of lines.
const BLOCK = /^ {0,3}(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[ \t]*(?:\n|$)/;
// Inline: `$$…$$`, `\[…\]`, `\(…\)`, and `$…$` by the dollar rules above.
const INLINE_DISPLAY = /^(?:\$\$(?!\$)([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])/;
const INLINE_PAREN = /^\\\(([\s\S]+?)\\\)/;
const INLINE_DOLLAR = /^\$(?![\s$])((?:\\[\s\S]|[^\\$])+?)(?<![\s\\])\$(?![0-9])/;

/** @type {import("marked").TokenizerAndRendererExtension} */
const blockMath = {
  name: "mathBlock",
  level: "block",
  start(src) {
    const at = src.search(/(?:^|\n) {0,3}(?:\$\$|\\\[)/);
    return at < 0 ? undefined : at + (src[at] === "\n" ? 1 : 0);
  },
  tokenizer(src) {
    const match = BLOCK.exec(src);
    if (!match) return undefined;
    const tex = (match[1] ?? match[2]).trim();
    if (tex === "") return undefined;
    return { type: "mathBlock", raw: match[0], tex };
  },
  renderer(token) {
    return `${mathHtml(token.tex, true)}\n`;
  },
};

/** @type {import("marked").TokenizerAndRendererExtension} */
const inlineMath = {
  name: "mathInline",
  level: "inline",
  start(src) {
    const at = src.search(/\$|\\[([]/);
    return at < 0 ? undefined : at;
  },
  tokenizer(src) {
    let match = INLINE_DISPLAY.exec(src);
    let display = true;
    if (!match) {
      display = false;
      match = INLINE_PAREN.exec(src) ?? INLINE_DOLLAR.exec(src);
    }
    if (!match) return undefined;
    const tex = (match[1] ?? match[2]).trim();
    if (tex === "") return undefined;
    return { type: "mathInline", raw: match[0], tex, display };
  },
  renderer(token) {
    return mathHtml(token.tex, token.display);
  },
};

/** The marked extensions that read math (blocks first, as marked wants them in `extensions`). */
export const MATH_EXTENSIONS = [blockMath, inlineMath];

/**
 * Whether a fenced block's info string asks for math.
 * @param {unknown} language
 */
export const isMathFence = (language) => language === "math";
