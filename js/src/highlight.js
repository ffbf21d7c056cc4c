// @ts-check
// Syntax colouring for the code blocks of answers, in the languages of languages.js (Python, JavaScript and
// TypeScript, JSON, shell, SQL, YAML, R, Julia, C and C++, Rust, Go, Java, Kotlin, Swift, C#, Scala, PHP, Ruby,
// Lua, Haskell, MATLAB, HTML and XML, CSS, diff, TOML and INI, markdown, TeX, Dockerfile, Makefile). Each language
// is one regular expression of token rules tried in order at every position; a token becomes a
// <span class="agui-tok-KIND"> holding its text as a text node, so the code is never parsed as HTML and its
// textContent stays exactly the source. Unknown languages are left as plain text.
import { ALIASES, LANGUAGES } from "./languages.js";

const MAX_CHARS = 100_000; // longer blocks stay plain: colouring them on every streamed delta would cost too much

/** @type {Map<string, {spec: import("./languages.js").Grammar, pattern: RegExp, kinds: string[]}>} */
const compiled = new Map();

/** @param {string} language */
function grammar(language) {
  const name = Object.hasOwn(ALIASES, language) ? ALIASES[language] : language;
  if (!Object.hasOwn(LANGUAGES, name)) return null;
  const spec = LANGUAGES[name];
  let entry = compiled.get(name);
  if (!entry) {
    const source = spec.rules.map(([, pattern]) => `(${pattern})`).join("|");
    entry = { spec, pattern: new RegExp(source, "gm"), kinds: spec.rules.map(([kind]) => kind) };
    compiled.set(name, entry);
  }
  return entry;
}

/**
 * The language name a fenced block's info string selects ("" when colouring does not know it).
 * @param {unknown} language
 * @returns {string}
 */
export function highlightLanguage(language) {
  const key = String(language ?? "").toLowerCase();
  return grammar(key) ? (Object.hasOwn(ALIASES, key) ? ALIASES[key] : key) : "";
}

/**
 * Split `text` into [kind, text] tokens (kind null for plain text) by the rules of `language`.
 * @param {string} text
 * @param {unknown} language
 * @returns {Array<[string | null, string]>}
 */
export function tokenize(text, language) {
  const entry = grammar(String(language ?? "").toLowerCase());
  if (!entry) return [[null, text]];
  const { spec, pattern, kinds } = entry;
  /** @type {Array<[string | null, string]>} */
  const tokens = [];
  let plainFrom = 0;
  let defining = false;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const value = match[0];
    if (value === "") {
      pattern.lastIndex += 1; // a rule matched nothing here (cannot happen with the rules above): move on
      continue;
    }
    let kind = kinds[match.slice(1).findIndex((group) => group !== undefined)];
    if (kind === "word") {
      const key = spec.caseless ? value.toLowerCase() : value;
      if (defining) kind = "def";
      else if (spec.keywords?.has(key)) kind = "keyword";
      else if (spec.literals?.has(key)) kind = "literal";
      else if (spec.builtins?.has(key)) kind = "builtin";
      else if (spec.types && /^[A-Z][a-z]/.test(value)) kind = "type";
      else kind = null;
      defining = spec.definers?.has(key) ?? false;
    } else {
      defining = false;
    }
    if (kind === null) continue; // stays in the plain run
    if (match.index > plainFrom) tokens.push([null, text.slice(plainFrom, match.index)]);
    tokens.push([kind, value]);
    plainFrom = match.index + value.length;
  }
  if (plainFrom < text.length) tokens.push([null, text.slice(plainFrom)]);
  return tokens;
}

/**
 * Colour a `<code>` element in place by `language`; returns whether it did.
 * @param {HTMLElement} code
 * @param {unknown} language
 * @returns {boolean}
 */
export function highlightCode(code, language) {
  const text = code.textContent ?? "";
  if (!highlightLanguage(language) || text.length > MAX_CHARS) return false;
  const nodes = tokenize(text, language).map(([kind, value]) => {
    if (kind === null) return document.createTextNode(value);
    const span = document.createElement("span");
    span.className = `agui-tok-${kind}`;
    span.textContent = value;
    return span;
  });
  code.replaceChildren(...nodes);
  code.dataset.highlighted = highlightLanguage(language);
  return true;
}

/**
 * Show `value` in `pre` as prettyJson does, coloured as JSON unless it is a plain string (shown as it is).
 * @param {HTMLElement} pre
 * @param {string} text prettyJson(value)
 * @param {unknown} value
 */
export function showJson(pre, text, value) {
  pre.textContent = text;
  if (typeof value !== "string" && text !== "") highlightCode(pre, "json");
  else delete pre.dataset.highlighted;
}
