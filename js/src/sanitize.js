// @ts-check
// HTML sanitising for rendered markdown: a DOMPurify instance of our own (its hooks never touch other widgets'
// DOMPurify) with an allow-list of the tags markdown produces, and our URL policy applied to every href/src. An
// image from a remote origin the user has not trusted becomes a click-to-load placeholder (remote_media.js).
import createDOMPurify from "dompurify";
import { CLICK_TO_LOAD, remotePlaceholder } from "./remote_media.js";
import { safeLinkHref, safeMediaSrc } from "./urls.js";

const ALLOWED_TAGS = [
  "a", "abbr", "b", "blockquote", "br", "code", "dd", "del", "details", "div", "dl", "dt", "em",
  "h1", "h2", "h3", "h4", "h5", "h6", "hr", "i", "img", "input", "ins", "kbd", "li", "mark", "ol", "p",
  "pre", "q", "s", "samp", "small", "span", "strong", "sub", "summary", "sup", "table", "tbody", "td",
  "tfoot", "th", "thead", "tr", "u", "ul", "var",
];
// MathML as temml writes it (math.js): the elements of MathML Core that carry content or layout. DOMPurify checks
// their namespace too, so a MathML name outside <math> is dropped.
const MATH_TAGS = [
  "math", "mi", "mn", "mo", "ms", "mtext", "mspace", "mrow", "mfrac", "msqrt", "mroot", "msub", "msup", "msubsup",
  "munder", "mover", "munderover", "mmultiscripts", "mprescripts", "mtable", "mtr", "mtd", "mpadded", "mphantom",
  "mstyle", "menclose", "merror",
];
const MATH_ATTR = [
  "display", "alttext", "mathvariant", "displaystyle", "scriptlevel", "stretchy", "fence", "separator", "form",
  "lspace", "rspace", "movablelimits", "largeop", "symmetric", "minsize", "maxsize", "accent", "accentunder",
  "linethickness", "depth", "voffset", "notation", "columnalign", "rowalign", "columnspacing", "rowspacing",
  "columnlines", "rowlines", "frame", "framespacing", "style",
];
const ALLOWED_ATTR = ["href", "title", "src", "alt", "class", "align", "start", "type", "checked", "disabled",
  "colspan", "rowspan", "width", "height", ...MATH_ATTR];
const CODE_CLASS = /^(?:language-[\w#+.-]{1,40}|agui-math-error)$/;
// temml's layout classes (tml-display, tml-jot, chr-sml, mathcal, ...): never one of the widget's own (agui-*).
const MATH_CLASS = /^(?!agui-)[a-z][\w-]{0,40}$/;
// What a style attribute on MathML may set (temml's colours, padding, borders and script depth), with values of
// plain words, numbers and colours: nothing that loads (url()), escapes (\\) or moves out of the formula.
const MATH_STYLE = new Set(["color", "background-color", "padding", "padding-left", "padding-right", "padding-top",
  "padding-bottom", "border", "border-top", "border-bottom", "border-left", "border-right", "border-radius",
  "math-depth", "math-style", "math-shift", "display", "width", "height", "margin-left", "margin-right",
  "font-style", "font-weight", "vertical-align"]);
const STYLE_VALUE = /^[#\w .,%()+-]{0,80}$/;
const MATHML_NS = "http://www.w3.org/1998/Math/MathML";

/** @param {string} value a style attribute @returns {string} what of it MATH_STYLE allows */
function mathStyle(value) {
  const kept = [];
  for (const declaration of value.split(";")) {
    const at = declaration.indexOf(":");
    if (at < 0) continue;
    const name = declaration.slice(0, at).trim().toLowerCase();
    const setting = declaration.slice(at + 1).trim();
    if (MATH_STYLE.has(name) && STYLE_VALUE.test(setting) && !/url|expression|var\(/i.test(setting)) {
      kept.push(`${name}:${setting}`);
    }
  }
  return kept.join(";");
}

/** @type {import("dompurify").Config & {RETURN_DOM_FRAGMENT: true}} */
const CONFIG = {
  ALLOWED_TAGS: [...ALLOWED_TAGS, ...MATH_TAGS],
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  RETURN_DOM_FRAGMENT: true,
};

/** @type {import("dompurify").DOMPurify | null} */
let purifier = null;

/** @param {Element} node */
function checkMath(node) {
  if (node.hasAttribute("class")) {
    const classes = node.getAttribute("class").split(/\s+/).filter((name) => MATH_CLASS.test(name));
    if (classes.length) node.setAttribute("class", classes.join(" "));
    else node.removeAttribute("class");
  }
  if (node.hasAttribute("style")) {
    const style = mathStyle(node.getAttribute("style"));
    if (style) node.setAttribute("style", style);
    else node.removeAttribute("style");
  }
  for (const name of ["href", "src"]) node.removeAttribute(name);
}

/** @param {Element} node */
function checkNode(node) {
  if (node.namespaceURI === MATHML_NS) {
    checkMath(node);
    return;
  }
  const tag = node.nodeName;
  if (node.hasAttribute?.("style")) node.removeAttribute("style"); // only MathML keeps a (filtered) style
  if (node.hasAttribute?.("class")) {
    // Only a fenced code block's language class (or a formula shown as source) survives; agent HTML must not
    // borrow the widget's own classes.
    const value = node.getAttribute("class");
    if (tag !== "CODE" || !CODE_CLASS.test(value)) node.removeAttribute("class");
  }
  if (tag === "A") {
    const href = safeLinkHref(node.getAttribute("href"));
    if (href === null) {
      node.removeAttribute("href");
    } else {
      node.setAttribute("href", href);
      node.setAttribute("target", "_blank");
      node.setAttribute("rel", "noopener noreferrer");
    }
  } else if (tag === "IMG") {
    const src = safeMediaSrc(node.getAttribute("src"), "image");
    if (src === null) node.removeAttribute("src");
    else node.setAttribute("src", src);
    node.setAttribute("loading", "lazy");
    node.setAttribute("referrerpolicy", "no-referrer");
  } else if (tag === "INPUT") {
    // Only GFM task-list check boxes, never editable.
    if (node.getAttribute("type") !== "checkbox") node.setAttribute("type", "checkbox");
    node.setAttribute("disabled", "");
  } else if (node.hasAttribute?.("src")) {
    node.removeAttribute("src");
  }
}

function instance() {
  if (purifier === null) {
    purifier = createDOMPurify(window);
    // DOMPurify sanitises attributes, and so calls this hook, on elements only.
    purifier.addHook("afterSanitizeAttributes", /** @type {import("dompurify").NodeHook} */ (/** @type {unknown} */ (checkNode)));
  }
  return purifier;
}

/**
 * Sanitise an HTML string into a DocumentFragment that is safe to insert; images that `remote` (a
 * RemoteMediaPolicy) does not allow yet are placeholders. The fragment belongs to DOMPurify's inert document until
 * it is inserted, so an image taken out of it here never starts loading.
 * @param {string} html
 * @param {import("./remote_media.js").RemoteMediaPolicy | null} [remote]
 * @returns {DocumentFragment}
 */
export function sanitizeHtml(html, remote = CLICK_TO_LOAD) {
  const policy = remote ?? CLICK_TO_LOAD;
  const fragment = instance().sanitize(html, CONFIG);
  // Formulas hold MathML only: HTML that an agent nests in one (in an <mtext>) is kept as its text.
  for (const math of fragment.querySelectorAll("math")) {
    for (const node of math.querySelectorAll("*")) {
      if (node.namespaceURI !== MATHML_NS && math.contains(node)) {
        node.replaceWith(document.createTextNode(node.textContent ?? ""));
      }
    }
  }
  for (const img of fragment.querySelectorAll("img")) {
    const src = img.getAttribute("src");
    if (src === null) {
      // An image whose URL was refused shows its alt text instead of a broken image.
      const alt = img.getAttribute("alt");
      const replacement = document.createElement("span");
      replacement.className = "agui-blocked";
      replacement.textContent = alt ? `[image: ${alt}]` : "[image]";
      img.replaceWith(replacement);
    } else if (!policy.allows(src)) {
      const create = () => {
        img.removeAttribute("loading"); // asked for: load now, even below the fold
        return img;
      };
      const alt = img.getAttribute("alt") ?? "";
      img.replaceWith(remotePlaceholder({ kind: "image", name: alt, src, inline: true, policy, create }));
    }
  }
  return fragment;
}
