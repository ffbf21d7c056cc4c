// Syntax colouring for the code blocks of answers, for the languages agents write most: Python, JavaScript and
// TypeScript, JSON, shell, SQL and YAML. Each language is one regular expression of token rules tried in order at
// every position; a token becomes a <span class="agui-tok-KIND"> holding its text as a text node, so the code is
// never parsed as HTML and its textContent stays exactly the source. Unknown languages are left as plain text.

const MAX_CHARS = 100_000; // longer blocks stay plain: colouring them on every streamed delta would cost too much

const PY_KEYWORDS =
  "and as assert async await break class continue def del elif else except finally for from global if import in is " +
  "lambda nonlocal not or pass raise return try while with yield";
const PY_BUILTINS =
  "abs all any bool bytes callable chr dict dir divmod enumerate filter float format frozenset getattr hasattr hash " +
  "id input int isinstance issubclass iter len list map max min next object open ord pow print property range repr " +
  "reversed round set setattr slice sorted str sum super tuple type vars zip self cls Exception ValueError TypeError " +
  "KeyError RuntimeError";
const JS_KEYWORDS =
  "async await break case catch class const continue debugger default delete do else export extends finally for " +
  "from function if import in instanceof let new of return static super switch this throw try typeof var void while " +
  "with yield as interface enum implements declare readonly keyof namespace";
const JS_BUILTINS =
  "Array Boolean console Date Error JSON Map Math Number Object Promise Reflect RegExp Set String Symbol window " +
  "document globalThis fetch any number string boolean unknown never";
const SHELL_KEYWORDS =
  "if then else elif fi for while until do done case esac in function return export local readonly unset " +
  "source alias echo cd exit set";
const SQL_KEYWORDS =
  "select from where and or not insert into values update set delete create table drop alter add primary key " +
  "foreign references join left right inner outer full cross on group by order asc desc limit offset having " +
  "distinct as union all with case when then else end is in like between exists index view default unique " +
  "returning";

const words = (list) => new Set(list.split(" "));

// Token rules: [kind, pattern]. A pattern may not match the empty string. "word" tokens are classified by the
// language's word sets; a name after a definition keyword (def, class, function) is a "def".
const NUMBER = String.raw`\b(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.[\d_]*)?(?:[eE][+-]?\d+)?[jJnL]?)\b|\.\d+(?:[eE][+-]?\d+)?\b`;
const DQ = String.raw`"(?:[^"\\\n]|\\.)*"?`;
const SQ = String.raw`'(?:[^'\\\n]|\\.)*'?`;
const WORD = String.raw`[A-Za-z_$][\w$]*`;

const LANGUAGES = {
  python: {
    rules: [
      ["comment", String.raw`#[^\n]*`],
      ["string", String.raw`(?:[rRbBuUfF]{1,2})?(?:"""[\s\S]*?(?:"""|$(?![\s\S]))|'''[\s\S]*?(?:'''|$(?![\s\S]))|${DQ}|${SQ})`],
      ["meta", String.raw`@[A-Za-z_][\w.]*`],
      ["number", NUMBER],
      ["word", String.raw`[A-Za-z_]\w*`],
    ],
    keywords: words(PY_KEYWORDS),
    builtins: words(PY_BUILTINS),
    literals: words("True False None"),
    definers: words("def class"),
  },
  javascript: {
    rules: [
      ["comment", String.raw`\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$(?![\s\S]))`],
      ["string", String.raw`${DQ}|${SQ}|\`(?:[^\`\\]|\\[\s\S])*\`?`],
      ["number", NUMBER],
      ["word", WORD],
    ],
    keywords: words(JS_KEYWORDS),
    builtins: words(JS_BUILTINS),
    literals: words("true false null undefined NaN Infinity"),
    definers: words("function class interface enum"),
  },
  json: {
    rules: [
      ["property", String.raw`"(?:[^"\\\n]|\\.)*"(?=\s*:)`],
      ["string", DQ],
      ["number", String.raw`-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b`],
      ["word", String.raw`[A-Za-z]+`],
    ],
    literals: words("true false null"),
  },
  shell: {
    rules: [
      ["comment", String.raw`(?:^|(?<=\s))#[^\n]*`],
      ["string", String.raw`${DQ}|'[^']*'?`],
      ["variable", String.raw`\$(?:\{[^}\n]*\}?|[A-Za-z_]\w*|[0-9@#?$!*-])`],
      ["meta", String.raw`(?:^|(?<=\s))--?[A-Za-z][\w-]*`],
      ["number", String.raw`\b\d+\b`],
      ["word", String.raw`[A-Za-z_][\w.-]*`],
    ],
    keywords: words(SHELL_KEYWORDS),
    literals: words("true false"),
  },
  sql: {
    rules: [
      ["comment", String.raw`--[^\n]*|\/\*[\s\S]*?(?:\*\/|$(?![\s\S]))`],
      ["string", String.raw`'(?:[^']|'')*'?`],
      ["number", NUMBER],
      ["word", String.raw`[A-Za-z_]\w*`],
    ],
    keywords: words(SQL_KEYWORDS),
    builtins: words("count sum avg min max coalesce cast now lower upper length"),
    literals: words("null true false"),
    caseless: true,
  },
  yaml: {
    rules: [
      ["comment", String.raw`(?:^|(?<=\s))#[^\n]*`],
      ["property", String.raw`[\w.-]+(?=:(?:\s|$))`],
      ["string", String.raw`${DQ}|'(?:[^']|'')*'?`],
      ["number", String.raw`(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])`],
      ["word", String.raw`[A-Za-z_][\w-]*`],
    ],
    literals: words("true false null yes no on off"),
  },
};

const ALIASES = {
  py: "python", python3: "python", py3: "python", ipython: "python", pycon: "python",
  js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript", ts: "javascript", tsx: "javascript",
  typescript: "javascript", node: "javascript",
  jsonc: "json", json5: "json", jsonl: "json",
  sh: "shell", bash: "shell", zsh: "shell", console: "shell", shellscript: "shell",
  postgres: "sql", postgresql: "sql", sqlite: "sql", mysql: "sql",
  yml: "yaml",
};

const compiled = new Map();

function grammar(language) {
  const name = ALIASES[language] ?? language;
  const spec = LANGUAGES[name];
  if (!spec) return null;
  let entry = compiled.get(name);
  if (!entry) {
    const source = spec.rules.map(([, pattern]) => `(${pattern})`).join("|");
    entry = { spec, pattern: new RegExp(source, "gm"), kinds: spec.rules.map(([kind]) => kind) };
    compiled.set(name, entry);
  }
  return entry;
}

/** The language name a fenced block's info string selects ("" when colouring does not know it). */
export function highlightLanguage(language) {
  const key = String(language ?? "").toLowerCase();
  return grammar(key) ? ALIASES[key] ?? key : "";
}

/** Split `text` into [kind, text] tokens (kind null for plain text) by the rules of `language`. */
export function tokenize(text, language) {
  const entry = grammar(String(language ?? "").toLowerCase());
  if (!entry) return [[null, text]];
  const { spec, pattern, kinds } = entry;
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

/** Colour a `<code>` element in place by `language`; returns whether it did. */
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

/** Show `value` in `pre` as prettyJson does, coloured as JSON unless it is a plain string (shown as it is). */
export function showJson(pre, text, value) {
  pre.textContent = text;
  if (typeof value !== "string" && text !== "") highlightCode(pre, "json");
  else delete pre.dataset.highlighted;
}
