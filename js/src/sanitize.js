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
const ALLOWED_ATTR = ["href", "title", "src", "alt", "class", "align", "start", "type", "checked", "disabled",
  "colspan", "rowspan", "width", "height"];
const CODE_CLASS = /^language-[\w#+.-]{1,40}$/;

const CONFIG = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  RETURN_DOM_FRAGMENT: true,
};

let purifier = null;

function checkNode(node) {
  const tag = node.nodeName;
  if (node.hasAttribute?.("class")) {
    // Only a fenced code block's language class survives; agent HTML must not borrow the widget's own classes.
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
    purifier.addHook("afterSanitizeAttributes", checkNode);
  }
  return purifier;
}

/**
 * Sanitise an HTML string into a DocumentFragment that is safe to insert; images that `remote` (a
 * RemoteMediaPolicy) does not allow yet are placeholders. The fragment belongs to DOMPurify's inert document until
 * it is inserted, so an image taken out of it here never starts loading.
 */
export function sanitizeHtml(html, remote = CLICK_TO_LOAD) {
  const policy = remote ?? CLICK_TO_LOAD;
  const fragment = instance().sanitize(html, CONFIG);
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
