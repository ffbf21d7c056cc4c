// @ts-check
// Streaming markdown that looks finished: the last block of a text that is still arriving is drawn as if its
// open constructs were closed (`**bold` as bold, `` `code `` as code, `[text](https://ex` as a link, a table whose
// delimiter row is half typed as a table). Only the live block is drawn from the closed text; once the text goes
// on or is done the block is drawn from what really arrived, so the final render is the plain markdown's.
//
// One pass, linear in the block: code spans and math are skipped whole, emphasis delimiters are paired on a stack
// by the flanking rules (an `_` inside a word and a `*` between spaces are no delimiters), and whatever is still
// open at the end is closed in reverse order. A delimiter with nothing after it yet is dropped rather than closed
// (`**` alone would draw as a rule or as stars).

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TABLE_ROW = /^ {0,3}\|?(?:[^|\n]*\|)+[^|\n]*$/;
const PARTIAL_DELIMITER = /^ {0,3}\|?[ :|-]*-[ :|-]*$/;
const SPACE = /\s/;
const WORDY = /[\p{L}\p{N}]/u;

/**
 * `text` (one markdown block) with its unterminated inline constructs closed, for drawing while it streams.
 * @param {string} text
 * @returns {string}
 */
export function closeUnfinished(text) {
  if (text === "") return text;
  const lines = text.split("\n");
  // An open fence is drawn as code already (a fence runs to the end of the text); close it so nothing after the
  // block can be read into it.
  let fence = null;
  for (const line of lines) {
    const match = FENCE.exec(line);
    if (!match) continue;
    if (fence === null) fence = match[1];
    else if (match[1][0] === fence[0] && match[1].length >= fence.length && line.trim() === match[1]) fence = null;
  }
  if (fence !== null) return `${text}${text.endsWith("\n") ? "" : "\n"}${fence}`;
  const table = closeTable(lines);
  if (table !== null) return table;
  return closeInline(text);
}

/**
 * A header row and a delimiter row being typed ("| a | b |\n| --"): the delimiter row completed.
 * @param {string[]} lines
 * @returns {string | null}
 */
function closeTable(lines) {
  if (lines.length !== 2 || !TABLE_ROW.test(lines[0]) || !PARTIAL_DELIMITER.test(lines[1])) return null;
  const cells = lines[0].trim().replace(/^\|/, "").replace(/\|$/, "").split("|").length;
  return `${lines[0]}\n${Array(cells).fill("---").join(" | ")}`;
}

/** @typedef {[string, number]} OpenDelimiter an emphasis delimiter not closed yet, and where it is */
/** @typedef {{at: number, inUrl: boolean}} OpenLink an unclosed "[" (or "](") of a link */

/** @param {string} text */
function closeInline(text) {
  /** @type {OpenDelimiter[]} */
  const open = [];
  /** @type {OpenLink | null} */
  let link = null;
  let index = 0;
  while (index < text.length) {
    const char = text[index];
    if (char === "\\") {
      index += 2;
      continue;
    }
    if (char === "`") {
      let run = 1;
      while (text[index + run] === "`") run += 1;
      const closing = text.indexOf("`".repeat(run), index + run);
      if (closing < 0) return finish(`${trimEnd(text)}${"`".repeat(run)}`, [], null);
      index = closing + run;
      continue;
    }
    if (char === "$") {
      // Math is not markdown inside: skip a closed $…$ or $$…$$ whole (an unclosed one stays text).
      const mark = text[index + 1] === "$" ? "$$" : "$";
      const closing = text.indexOf(mark, index + mark.length);
      const next = text[index + mark.length] ?? "";
      // An opening `$` (not a price: no space or digit after it) still waiting for its close: what follows is
      // TeX, not markdown to close.
      if (closing < 0 && next !== "" && !/[\s0-9]/.test(next)) break;
      index = closing < 0 ? index + mark.length : closing + mark.length;
      continue;
    }
    if (char === "[") {
      link = { at: index, inUrl: false };
      index += 1;
      continue;
    }
    if (char === "]" && link !== null) {
      if (text[index + 1] === "(") {
        const closing = text.indexOf(")", index + 2);
        if (closing < 0) {
          link.inUrl = true;
          break;
        }
        index = closing + 1;
      } else index += 1;
      link = null;
      continue;
    }
    if (char === "*" || char === "_" || char === "~") {
      let run = 1;
      while (text[index + run] === char) run += 1;
      const before = index === 0 ? " " : text[index - 1];
      const after = index + run >= text.length ? " " : text[index + run];
      const leftFlanking = !SPACE.test(after);
      const rightFlanking = !SPACE.test(before);
      const intraword = char === "_" && WORDY.test(before) && WORDY.test(after);
      const atLineStart = char !== "~" && (index === 0 || text[index - 1] === "\n") && after === " ";
      if (!intraword && !atLineStart && (char !== "~" || run === 2)) {
        const delimiter = char.repeat(Math.min(run, 3));
        const top = open.at(-1);
        if (rightFlanking && top && top[0] === delimiter) open.pop();
        else if (leftFlanking || index + run >= text.length) open.push([delimiter, index]);
      }
      index += run;
      continue;
    }
    index += 1;
  }
  return finish(text, open, link);
}

/** @param {string} text */
function trimEnd(text) {
  return text.replace(/[ \t]+$/, "");
}

/**
 * @param {string} text
 * @param {OpenDelimiter[]} open
 * @param {OpenLink | null} link
 * @returns {string}
 */
function finish(text, open, link) {
  let result = text;
  if (link !== null && link.inUrl) {
    result = `${trimEnd(result)})`;
    open = open.filter(([, at]) => at < link.at);
  } else if (link !== null) {
    // "[text" with no "]" yet: drawn as its text, without the bracket.
    result = result.slice(0, link.at) + result.slice(link.at + 1);
    open = open.map(([delimiter, at]) => [delimiter, at > link.at ? at - 1 : at]);
  }
  for (let i = open.length - 1; i >= 0; i -= 1) {
    const [delimiter, at] = open[i];
    if (trimEnd(result.slice(at + delimiter.length)) === "") result = trimEnd(result.slice(0, at));
    else result = `${trimEnd(result)}${delimiter}`;
  }
  return result;
}
