// @ts-check
// The grammars highlight.js colours with: per language, token rules [kind, pattern] tried in order at every
// position (a pattern may not match the empty string; `^` is a line start), and the word sets that turn a "word"
// into a keyword, literal, builtin or type. A name after one of `definers` is a "def"; with `types`, a word that
// starts with a capital letter is a "type". Kinds are the class names highlight.js gives (agui-tok-KIND).

/**
 * One language: its token rules [kind, pattern] in the order they are tried, and the word sets.
 * @typedef {object} Grammar
 * @property {string[][]} rules
 * @property {Set<string>} [keywords]
 * @property {Set<string>} [builtins]
 * @property {Set<string>} [literals]
 * @property {Set<string>} [definers] a word after one of these is a "def"
 * @property {boolean} [types] a capitalised word is a "type"
 * @property {boolean} [caseless] words are matched in lower case (SQL)
 */

/** @param {string} list words separated by single spaces */
const words = (list) => new Set(list.split(" "));

const NUMBER = String.raw`\b(?:0[xX][\da-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*(?:\.[\d_]*)?(?:[eE][+-]?\d+)?[jJnLfFuU]*)\b|\.\d+(?:[eE][+-]?\d+)?\b`;
const DQ = String.raw`"(?:[^"\\\n]|\\.)*"?`;
const SQ = String.raw`'(?:[^'\\\n]|\\.)*'?`;
const WORD = String.raw`[A-Za-z_$][\w$]*`;
const IDENT = String.raw`[A-Za-z_]\w*`;
const SLASH_COMMENTS = String.raw`\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$(?![\s\S]))`;
const HASH_COMMENT = String.raw`#[^\n]*`;
const TRIPLE_DQ = String.raw`"""[\s\S]*?(?:"""|$(?![\s\S]))`;

// A language of the C family: line and block comments, quoted strings, numbers, words.
/**
 * @param {{keywords: string, builtins?: string, literals?: string, definers?: string, before?: string[][],
 *   strings?: string, types?: boolean}} family
 * @returns {Grammar}
 */
function cLike({ keywords, builtins = "", literals = "true false null", definers = "class", before = [], strings, types = true }) {
  return {
    rules: [
      ...before,
      ["comment", SLASH_COMMENTS],
      ["string", strings ?? `${DQ}|${SQ}`],
      ["number", NUMBER],
      ["word", WORD],
    ],
    keywords: words(keywords),
    builtins: words(builtins),
    literals: words(literals),
    definers: words(definers),
    types,
  };
}

const C_KEYWORDS =
  "auto break case const continue default do else enum extern for goto if inline register restrict return sizeof " +
  "static struct switch typedef union volatile while";
const C_TYPES = "void char short int long float double signed unsigned bool size_t int8_t int16_t int32_t int64_t " +
  "uint8_t uint16_t uint32_t uint64_t FILE";
const CPP_KEYWORDS = `${C_KEYWORDS} alignas alignof and catch class concept consteval constexpr constinit co_await ` +
  "co_return co_yield decltype delete explicit export friend mutable namespace new noexcept not operator or " +
  "private protected public requires static_assert template this thread_local throw try typeid typename using " +
  "virtual override final";
const PREPROCESSOR = ["meta", String.raw`^[ \t]*#[ \t]*[a-z]+(?:[ \t]+<[^>\n]*>)?`];

/** @type {Record<string, Grammar>} */
export const LANGUAGES = {
  python: {
    rules: [
      ["comment", HASH_COMMENT],
      ["string", String.raw`(?:[rRbBuUfF]{1,2})?(?:${TRIPLE_DQ}|'''[\s\S]*?(?:'''|$(?![\s\S]))|${DQ}|${SQ})`],
      ["meta", String.raw`@[A-Za-z_][\w.]*`],
      ["number", NUMBER],
      ["word", IDENT],
    ],
    keywords: words(
      "and as assert async await break class continue def del elif else except finally for from global if import " +
        "in is lambda nonlocal not or pass raise return try while with yield match case",
    ),
    builtins: words(
      "abs all any bool bytes callable chr dict dir divmod enumerate filter float format frozenset getattr hasattr " +
        "hash id input int isinstance issubclass iter len list map max min next object open ord pow print property " +
        "range repr reversed round set setattr slice sorted str sum super tuple type vars zip self cls Exception " +
        "ValueError TypeError KeyError RuntimeError",
    ),
    literals: words("True False None"),
    definers: words("def class"),
  },
  javascript: cLike({
    keywords:
      "async await break case catch class const continue debugger default delete do else export extends finally " +
      "for from function if import in instanceof let new of return static super switch this throw try typeof var " +
      "void while with yield as interface enum implements declare readonly keyof namespace type",
    builtins:
      "Array Boolean console Date Error JSON Map Math Number Object Promise Reflect RegExp Set String Symbol window " +
      "document globalThis fetch any number string boolean unknown never",
    literals: "true false null undefined NaN Infinity",
    definers: "function class interface enum type",
    strings: String.raw`${DQ}|${SQ}|\`(?:[^\`\\]|\\[\s\S])*\`?`,
    types: false,
  }),
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
    keywords: words(
      "if then else elif fi for while until do done case esac in function return export local readonly unset " +
        "source alias echo cd exit set",
    ),
    literals: words("true false"),
  },
  sql: {
    rules: [
      ["comment", String.raw`--[^\n]*|\/\*[\s\S]*?(?:\*\/|$(?![\s\S]))`],
      ["string", String.raw`'(?:[^']|'')*'?`],
      ["number", NUMBER],
      ["word", IDENT],
    ],
    keywords: words(
      "select from where and or not insert into values update set delete create table drop alter add primary key " +
        "foreign references join left right inner outer full cross on group by order asc desc limit offset having " +
        "distinct as union all with case when then else end is in like between exists index view default unique " +
        "returning",
    ),
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
  r: {
    rules: [
      ["comment", HASH_COMMENT],
      ["string", `${DQ}|${SQ}`],
      ["operator", String.raw`<<?-|->>?|%[^%\n]*%|\|>`],
      ["number", String.raw`\b\d+(?:\.\d*)?(?:[eE][+-]?\d+)?[Li]?\b`],
      ["word", String.raw`[A-Za-z.][\w.]*`],
    ],
    keywords: words("if else for while repeat break next function return in library require"),
    literals: words("TRUE FALSE NULL NA NA_integer_ NA_real_ NA_character_ Inf NaN T F"),
    builtins: words("c list data.frame matrix vector length sum mean print paste paste0 cat seq rep apply sapply " +
      "lapply nrow ncol names head tail summary ggplot aes"),
  },
  julia: {
    rules: [
      ["comment", String.raw`#=[\s\S]*?(?:=#|$(?![\s\S]))|#[^\n]*`],
      ["string", String.raw`${TRIPLE_DQ}|${DQ}|'(?:[^'\\\n]|\\.)'`],
      ["meta", String.raw`@[A-Za-z_]\w*`],
      ["number", NUMBER],
      ["word", String.raw`[A-Za-z_]\w*!?`],
    ],
    keywords: words(
      "function end if elseif else for while begin let local global const module baremodule struct mutable " +
        "abstract primitive type using import export return break continue try catch finally do macro quote in " +
        "where isa",
    ),
    literals: words("true false nothing missing NaN Inf"),
    builtins: words("println print length push! map filter reduce sum zeros ones Int Float64 String Vector " +
      "Array Dict Any"),
    definers: words("function struct macro module type"),
  },
  c: cLike({ keywords: C_KEYWORDS, builtins: C_TYPES, literals: "true false NULL", definers: "struct enum union", before: [PREPROCESSOR], types: false }),
  cpp: cLike({
    keywords: CPP_KEYWORDS,
    builtins: `${C_TYPES} std string vector map unique_ptr shared_ptr cout cin endl`,
    literals: "true false nullptr NULL",
    definers: "class struct enum union namespace",
    before: [PREPROCESSOR],
    types: false,
  }),
  rust: cLike({
    keywords:
      "as async await break const continue crate dyn else enum extern fn for if impl in let loop match mod move " +
      "mut pub ref return self Self static struct super trait type unsafe use where while",
    builtins: "i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str String Vec Option Result " +
      "Box Some None Ok Err",
    literals: "true false",
    definers: "fn struct enum trait type mod",
    before: [["meta", String.raw`#!?\[[^\]\n]*\]?|\b[a-z_]\w*!(?=\s*[([{])`], ["variable", String.raw`'[a-z_]\w*(?!')`]],
    strings: String.raw`b?r#*"[\s\S]*?(?:"#*|$(?![\s\S]))|b?'(?:[^'\\\n]|\\.)'`,
  }),
  go: cLike({
    keywords:
      "break case chan const continue default defer else fallthrough for func go goto if import interface map " +
      "package range return select struct switch type var",
    builtins: "bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string uint " +
      "uint8 uint16 uint32 uint64 uintptr append cap close copy delete len make new panic print println recover",
    literals: "true false nil iota",
    definers: "func type",
    strings: String.raw`${DQ}|'(?:[^'\\\n]|\\.)*'|\`[^\`]*\`?`,
    types: false,
  }),
  java: cLike({
    keywords:
      "abstract assert break case catch class continue default do else enum extends final finally for if " +
      "implements import instanceof interface native new package private protected public return static super " +
      "switch synchronized this throw throws transient try volatile while var record sealed permits yield",
    builtins: "boolean byte char double float int long short void String Object System List Map",
    definers: "class interface enum record",
    before: [["meta", String.raw`@[A-Za-z_]\w*`]],
    strings: String.raw`${TRIPLE_DQ}|${DQ}|${SQ}`,
  }),
  kotlin: cLike({
    keywords:
      "as break class continue do else for fun if in interface is object package return super this throw try " +
      "typealias val var when while by catch constructor data enum finally import init internal open override " +
      "private protected public sealed suspend companion",
    builtins: "Int Long Double Float Boolean String Char Unit Any List Map println listOf mapOf",
    definers: "class fun object interface",
    before: [["meta", String.raw`@[A-Za-z_]\w*`]],
    strings: String.raw`${TRIPLE_DQ}|${DQ}|${SQ}`,
  }),
  swift: cLike({
    keywords:
      "actor as associatedtype async await break case catch class continue default defer do else enum extension " +
      "fallthrough for func guard if import in init inout internal is let private protocol public repeat " +
      "return self Self static struct subscript super switch throw throws try typealias var where while",
    builtins: "Int Double Float Bool String Character Array Dictionary Optional print",
    literals: "true false nil",
    definers: "class func struct enum protocol extension actor",
    before: [["meta", String.raw`@[A-Za-z_]\w*|#[a-z]+`]],
    strings: String.raw`${TRIPLE_DQ}|${DQ}`,
  }),
  csharp: cLike({
    keywords:
      "abstract as async await base break case catch class const continue default delegate do else enum event " +
      "explicit extern finally fixed for foreach goto if implicit in interface internal is lock namespace new " +
      "operator out override params private protected public readonly record ref return sealed sizeof static " +
      "struct switch this throw try typeof unsafe using var virtual void volatile while get set init",
    builtins: "bool byte char decimal double float int long object sbyte short string uint ulong ushort Console " +
      "List Dictionary Task",
    definers: "class interface enum struct record namespace",
    before: [PREPROCESSOR],
    strings: String.raw`@"(?:[^"]|"")*"?|\$?${DQ}|${SQ}`,
    types: false,
  }),
  scala: cLike({
    keywords:
      "abstract case catch class def do else enum extends final finally for given if implicit import lazy match " +
      "new object override package private protected return sealed super then this throw trait try type using val " +
      "var while with yield",
    builtins: "Int Long Double Boolean String Unit Any List Map Option Some None println",
    definers: "class def object trait type val var enum",
    strings: String.raw`${TRIPLE_DQ}|${DQ}|${SQ}`,
  }),
  php: cLike({
    keywords:
      "abstract and as break case catch class clone const continue declare default do echo else elseif empty " +
      "enddeclare endfor endforeach endif endswitch endwhile extends final finally fn for foreach function global " +
      "if implements include instanceof interface isset list match namespace new or print private protected " +
      "public readonly require return static switch throw trait try unset use var while yield",
    builtins: "array int float string bool void mixed self parent",
    literals: "true false null TRUE FALSE NULL",
    definers: "function class interface trait",
    before: [["meta", String.raw`<\?(?:php)?|\?>`], ["variable", String.raw`\$[A-Za-z_]\w*`], ["comment", HASH_COMMENT]],
    types: false,
  }),
  ruby: {
    rules: [
      ["comment", String.raw`^=begin[\s\S]*?(?:^=end|$(?![\s\S]))|#[^\n]*`],
      ["string", `${DQ}|${SQ}`],
      ["literal", String.raw`:[A-Za-z_]\w*[?!]?`],
      ["variable", String.raw`@@?[A-Za-z_]\w*|\$[A-Za-z_]\w*`],
      ["number", NUMBER],
      ["word", String.raw`[A-Za-z_]\w*[?!]?`],
    ],
    keywords: words(
      "alias and begin break case class def defined? do else elsif end ensure for if in module next not or redo " +
        "rescue retry return self super then undef unless until when while yield require attr_accessor",
    ),
    literals: words("true false nil"),
    builtins: words("puts print p raise lambda proc loop"),
    definers: words("def class module"),
    types: true,
  },
  lua: {
    rules: [
      ["comment", String.raw`--\[\[[\s\S]*?(?:\]\]|$(?![\s\S]))|--[^\n]*`],
      ["string", String.raw`\[\[[\s\S]*?(?:\]\]|$(?![\s\S]))|${DQ}|${SQ}`],
      ["number", NUMBER],
      ["word", IDENT],
    ],
    keywords: words("and break do else elseif end for function goto if in local not or repeat return then until while"),
    literals: words("true false nil"),
    builtins: words("print pairs ipairs require table string math type tostring tonumber setmetatable"),
    definers: words("function"),
  },
  haskell: {
    rules: [
      ["comment", String.raw`\{-[\s\S]*?(?:-\}|$(?![\s\S]))|--[^\n]*`],
      ["string", String.raw`${DQ}|'(?:[^'\\\n]|\\.)'`],
      ["number", NUMBER],
      ["word", String.raw`[A-Za-z_][\w']*`],
    ],
    keywords: words(
      "case class data default deriving do else if import in infix infixl infixr instance let module newtype of " +
        "then type where qualified as hiding",
    ),
    literals: words("True False Nothing"),
    builtins: words("map filter foldr foldl print putStrLn show return pure fmap"),
    types: true,
  },
  matlab: {
    rules: [
      ["comment", String.raw`%\{[\s\S]*?(?:%\}|$(?![\s\S]))|%[^\n]*`],
      ["string", String.raw`${DQ}|'(?:[^'\n]|'')*'`],
      ["number", NUMBER],
      ["word", IDENT],
    ],
    keywords: words("break case catch classdef continue else elseif end for function global if otherwise " +
      "parfor persistent return switch try while"),
    literals: words("true false pi Inf NaN"),
    builtins: words("disp plot zeros ones size length numel fprintf sprintf"),
    definers: words("function"),
  },
  html: {
    rules: [
      ["comment", String.raw`<!--[\s\S]*?(?:-->|$(?![\s\S]))`],
      ["meta", String.raw`<![A-Za-z][^>\n]*>?|<\?[\s\S]*?(?:\?>|$(?![\s\S]))|<!\[CDATA\[[\s\S]*?(?:\]\]>|$(?![\s\S]))`],
      ["tag", String.raw`<\/?[A-Za-z][\w:.-]*|\/?>`],
      ["attribute", String.raw`(?<=\s)[A-Za-z_:@][\w:.-]*(?=\s*=)`],
      ["string", String.raw`"[^"]*"?|'[^']*'?`],
      ["literal", String.raw`&(?:#\d+|#x[\da-fA-F]+|[A-Za-z]\w*);`],
    ],
  },
  css: {
    rules: [
      ["comment", String.raw`\/\*[\s\S]*?(?:\*\/|$(?![\s\S]))`],
      ["string", `${DQ}|${SQ}`],
      ["keyword", String.raw`@[\w-]+|!important\b`],
      ["property", String.raw`(?:--)?[A-Za-z-]+(?=\s*:(?!:|[\w-]*\s*[{,]))`],
      ["number", String.raw`#[\da-fA-F]{3,8}\b|-?(?:\d+\.?\d*|\.\d+)(?:%|[a-zA-Z]+)?`],
      ["tag", String.raw`(?<![\w-])[.#][A-Za-z_-][\w-]*|::?[A-Za-z-]+(?=[^;{}]{0,200}\{)`],
      ["word", String.raw`[A-Za-z-][\w-]*`],
    ],
    builtins: words("var calc rgb rgba hsl url min max clamp color-mix"),
    literals: words("auto none inherit initial unset transparent currentColor block inline flex grid"),
  },
  diff: {
    rules: [
      ["heading", String.raw`^(?:diff |index |\+\+\+ |--- )[^\n]*`],
      ["meta", String.raw`^@@[^\n]*`],
      ["inserted", String.raw`^[+>][^\n]*`],
      ["deleted", String.raw`^[-<][^\n]*`],
    ],
  },
  toml: {
    rules: [
      ["comment", HASH_COMMENT],
      ["heading", String.raw`^[ \t]*\[\[?[^\]\n]*\]\]?`],
      ["property", String.raw`^[ \t]*[\w."-]+(?=[ \t]*=)`],
      ["string", String.raw`${TRIPLE_DQ}|'''[\s\S]*?(?:'''|$(?![\s\S]))|${DQ}|'[^'\n]*'?`],
      ["number", String.raw`\b\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:\d{2})?)?\b|[+-]?\b\d[\d_]*(?:\.\d+)?(?:[eE][+-]?\d+)?\b`],
      ["word", String.raw`[A-Za-z]+`],
    ],
    literals: words("true false inf nan"),
  },
  markdown: {
    rules: [
      ["meta", String.raw`^ {0,3}(?:\`{3,}|~{3,})[^\n]*`],
      ["heading", String.raw`^ {0,3}#{1,6}(?=[ \t]|$)[^\n]*|^[^\n]+\n(?= {0,3}(?:=+|-+)[ \t]*$)|^ {0,3}(?:=+|-+)[ \t]*$`],
      ["comment", String.raw`^ {0,3}>[^\n]*`],
      ["keyword", String.raw`^[ \t]*(?:[*+-]|\d+[.)])(?=[ \t])`],
      ["string", String.raw`\`[^\`\n]+\`?`],
      ["attribute", String.raw`!?\[[^\[\]\n]{0,300}\](?:\([^)\n]{0,2000}\)?)?`],
      ["builtin", String.raw`\*\*[^*\n]+\*\*|__[^_\n]+__`],
      ["literal", String.raw`(?<![*\w])\*[^*\n]+\*(?!\*)|(?<![_\w])_[^_\n]+_(?![_\w])`],
    ],
  },
  tex: {
    rules: [
      ["comment", String.raw`%[^\n]*`],
      ["keyword", String.raw`\\(?:begin|end|documentclass|usepackage|section|subsection|chapter|newcommand|def)\b`],
      ["builtin", String.raw`\\(?:[A-Za-z]+|.)`],
      ["string", String.raw`\$\$?[^$]*\$?\$?`],
      ["number", String.raw`\b\d+(?:\.\d+)?(?:pt|em|ex|cm|mm|in)?\b`],
    ],
  },
  dockerfile: {
    rules: [
      ["comment", HASH_COMMENT],
      ["keyword", String.raw`^[ \t]*(?:FROM|RUN|CMD|LABEL|EXPOSE|ENV|ADD|COPY|ENTRYPOINT|VOLUME|USER|WORKDIR|ARG|ONBUILD|STOPSIGNAL|HEALTHCHECK|SHELL|MAINTAINER|AS)\b|\bAS\b`],
      ["string", `${DQ}|${SQ}`],
      ["variable", String.raw`\$(?:\{[^}\n]*\}?|[A-Za-z_]\w*)`],
      ["number", String.raw`\b\d+\b`],
    ],
  },
  makefile: {
    rules: [
      ["comment", HASH_COMMENT],
      ["def", String.raw`^[\w./%-]+(?=[ \t]*::?(?!=))`],
      ["variable", String.raw`\$[({][^)}\n]*[)}]?|\$[@<^+?*%]`],
      ["property", String.raw`^[ \t]*[\w.-]+(?=[ \t]*[:+?]?=)`],
      ["keyword", String.raw`^[ \t]*(?:include|ifeq|ifneq|ifdef|ifndef|else|endif|define|endef|export|\.PHONY)\b`],
      ["string", `${DQ}|${SQ}`],
    ],
  },
};

/** @type {Record<string, string>} the names a fence may use for a language of LANGUAGES */
export const ALIASES = {
  py: "python", python3: "python", py3: "python", ipython: "python", pycon: "python", sage: "python",
  js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript", ts: "javascript", tsx: "javascript",
  typescript: "javascript", node: "javascript",
  jsonc: "json", json5: "json", jsonl: "json", ipynb: "json",
  sh: "shell", bash: "shell", zsh: "shell", console: "shell", shellscript: "shell", ksh: "shell", fish: "shell",
  postgres: "sql", postgresql: "sql", sqlite: "sql", mysql: "sql", plsql: "sql", tsql: "sql",
  yml: "yaml",
  rlang: "r", rscript: "r", splus: "r",
  jl: "julia",
  h: "c", "c++": "cpp", cc: "cpp", cxx: "cpp", hpp: "cpp", hxx: "cpp", cuda: "cpp", cu: "cpp", arduino: "cpp",
  objc: "c", "objective-c": "c",
  rs: "rust",
  golang: "go",
  kt: "kotlin", kts: "kotlin",
  cs: "csharp", "c#": "csharp",
  sc: "scala",
  rb: "ruby",
  hs: "haskell",
  m: "matlab", octave: "matlab",
  xml: "html", xhtml: "html", svg: "html", htm: "html", vue: "html", svelte: "html", xsl: "html", plist: "html",
  scss: "css", less: "css", sass: "css",
  patch: "diff", udiff: "diff",
  ini: "toml", cfg: "toml", conf: "toml", properties: "toml",
  md: "markdown", mdx: "markdown", gfm: "markdown", rmd: "markdown", qmd: "markdown",
  latex: "tex",
  docker: "dockerfile", containerfile: "dockerfile",
  make: "makefile", mk: "makefile", gnumake: "makefile",
};
