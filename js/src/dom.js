// @ts-check
// Small DOM builders. Agent-supplied strings only ever reach the DOM as textContent or checked attribute values.

/**
 * An element with a class name and optional text (set as textContent).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {unknown} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

/** @type {Map<string, Node>} */
const templates = new Map();

/**
 * A deep clone of a node built once by `build` (cloning is several times faster than building many elements).
 * @template {Node} N
 * @param {string} key
 * @param {() => N} build
 * @returns {N}
 */
export function fromTemplate(key, build) {
  let node = /** @type {N | undefined} */ (templates.get(key));
  if (node === undefined) {
    node = build();
    templates.set(key, node);
  }
  return /** @type {N} */ (node.cloneNode(true));
}

/** Make a box that scrolls reachable by keyboard (axe's scrollable-region-focusable): a tab stop, named for
 * screen readers ("Code (python)", "Table"); styles.css gives it a focus ring. Returns `node`.
 * @template {HTMLElement} E
 * @param {E} node
 * @param {string} name
 * @returns {E}
 */
export function scrollRegion(node, name) {
  node.tabIndex = 0;
  node.setAttribute("role", "region");
  node.setAttribute("aria-label", name);
  return node;
}

/**
 * A <button type="button"> with a data-agui hook, an accessible label and optional icon and text.
 * @param {string} hook
 * @param {string} label
 * @param {{icon?: Node, text?: string, className?: string}} [options]
 * @returns {HTMLButtonElement}
 */
export function button(hook, label, { icon, text, className } = {}) {
  const node = element("button", className ?? "agui-button");
  node.type = "button";
  if (hook) node.dataset.agui = hook;
  node.title = label;
  node.setAttribute("aria-label", label);
  if (icon) node.append(icon);
  if (text) node.append(element("span", "agui-button-text", text));
  return node;
}

// Bidirectional-override and zero-width characters let a name display as something else ("gnp.exe" shown as
// "exe.png"); labels drop them. Control characters are dropped too.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVISIBLE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/g;

/**
 * A display label from an agent-supplied string: invisible and control characters removed, length capped.
 * @param {unknown} value
 * @param {number} [max]
 * @returns {string}
 */
export function label(value, max = 200) {
  const text = typeof value === "string" ? value : value === undefined || value === null ? "" : String(value);
  const clean = text.replace(INVISIBLE, "");
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/**
 * Pretty JSON for display (as text), tolerant of values JSON cannot encode.
 * @param {unknown} value
 * @returns {string}
 */
export function prettyJson(value) {
  if (value === undefined) return "";
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

// Our own 16x16 stroke icons (never agent content), drawn as CSS masks (iconStyles): one empty element per icon,
// no inline <svg>. A page keeps every <svg> root as an animation time container that each frame visits, and a
// long conversation has several icons per message.
/** @type {Record<string, string[]>} */
export const ICON_PATHS = {
  send: ["M8 13V3", "M3.5 7.5 8 3l4.5 4.5"],
  stop: [], // a filled square (ICON_SHAPES)
  attach: ["M13 7.5 8 12.5a3 3 0 0 1-4.5-4.5l5.5-5.5a2 2 0 0 1 3 3L6.5 11a1 1 0 0 1-1.5-1.5L10 4.5"],
  copy: ["M5.5 5.5h7v8h-7z", "M3.5 10.5v-8h7"],
  check: ["M3 8.5 6.5 12 13 4.5"],
  regenerate: ["M13 8a5 5 0 1 1-1.6-3.7", "M13 2.5v3h-3"],
  tool: [
    "M9.5 2.5a3.2 3.2 0 0 0-2.8 4.3L2.5 11a1.4 1.4 0 0 0 2 2l4.2-4.2a3.2 3.2 0 0 0 4.3-2.8l-1.9 1.5-1.9-.4-.4-1.9z",
  ],
  chevron: ["M6 4l4 4-4 4"],
  pencil: ["M10.5 3 13 5.5 6 12.5l-3 .5.5-3z", "M9 4.5 11.5 7"],
  lock: ["M4.5 7.5h7v6h-7z", "M6 7.5V5.5a2 2 0 0 1 4 0v2"],
  file: ["M4 1.5h5l3 3v10H4z", "M9 1.5v3h3"],
  image: ["M2.5 3.5h11v9h-11z", "M2.5 11 6 7.5l3 3 2-2 2.5 2.5", "M11 6a1 1 0 1 1-2 0 1 1 0 0 1 2 0z"],
  play: ["M5.5 3.5v9l7-4.5z"],
  alert: ["M8 2 14.5 13.5h-13z", "M8 6.5v3", "M8 11.5v.2"],
  link: ["M6.5 9.5l3-3", "M7 4.5l1-1a2.5 2.5 0 0 1 3.5 3.5l-1 1", "M9 11.5l-1 1A2.5 2.5 0 0 1 4.5 9l1-1"],
  close: ["M4.5 4.5l7 7", "M11.5 4.5l-7 7"],
  compose: ["M13.5 8.5v4a1 1 0 0 1-1 1h-9a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h4", "M11 2.5l2.5 2.5L8 10.5H5.5V8z"],
  data: [
    "M3 4.5c0-1.1 2.2-2 5-2s5 .9 5 2-2.2 2-5 2-5-.9-5-2z",
    "M3 4.5v7c0 1.1 2.2 2 5 2s5-.9 5-2v-7",
    "M3 8c0 1.1 2.2 2 5 2s5-.9 5-2",
  ],
  chats: ["M2.5 3.5h8v6h-4l-3 2.5v-2.5h-1z", "M10.5 6h3v5.5h-1V14l-3-2.5h-3"],
  trash: ["M3 4.5h10", "M6.5 4.5v-2h3v2", "M4.5 4.5l.7 9h5.6l.7-9", "M7 7v4", "M9 7v4"],
  "thumb-up": [
    "M5.5 7.5v6h-3v-6z",
    "M5.5 7.5 8 2.8c.9 0 1.6.7 1.6 1.6V6.5h3a1.2 1.2 0 0 1 1.2 1.4l-.9 4.6a1.2 1.2 0 0 1-1.2 1H5.5",
  ],
  spark: ["M8 2v3", "M8 11v3", "M2 8h3", "M11 8h3", "M4 4l2 2", "M10 10l2 2", "M12 4l-2 2", "M6 10l-2 2"],
};

// Icons drawn filled rather than stroked, and stroke widths other than 1.5.
/** @type {Record<string, string>} */
const ICON_SHAPES = { stop: '<rect x="4" y="4" width="8" height="8" rx="1.5" fill="#000"/>' };
/** @type {Record<string, number>} */
const ICON_STROKES = { send: 2, check: 2 };

/** @param {string} name @param {{filled?: boolean}} [options] */
function iconSvg(name, { filled = false } = {}) {
  const shape = ICON_SHAPES[name] ?? (ICON_PATHS[name] ?? []).map((d) => `<path d="${d}"/>`).join("");
  const stroke = ICON_STROKES[name] ?? 1.5;
  const paint = filled ? 'fill="#000"' : 'fill="none"';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16" ${paint} stroke="#000" stroke-width="${stroke}" stroke-linecap="round" stroke-linejoin="round">${shape}</svg>`;
}

/** @param {string} svg */
function cssUrl(svg) {
  return `url("data:image/svg+xml,${encodeURIComponent(svg).replace(/'/g, "%27")}")`;
}

/** The stylesheet rules that draw every icon (added to styles.css by styles.js). */
export function iconStyles() {
  const rules = Object.keys(ICON_PATHS).map((name) => `.agui-chat .agui-icon-${name}{--agui-icon:${cssUrl(iconSvg(name))}}`);
  // A pressed thumb is a filled one.
  rules.push(`.agui-chat [aria-pressed="true"] > .agui-icon-thumb-up{--agui-icon:${cssUrl(iconSvg("thumb-up", { filled: true }))}}`);
  return rules.join("\n");
}

/**
 * One of our icons (a CSS mask over currentColor), decorative (aria-hidden).
 * @param {string} name a key of ICON_PATHS
 * @returns {HTMLSpanElement}
 */
export function icon(name) {
  const node = document.createElement("span");
  node.className = `agui-icon agui-icon-${name}`;
  node.setAttribute("aria-hidden", "true");
  return node;
}

/**
 * Copy text to the clipboard; falls back to a hidden textarea where the async clipboard is unavailable.
 * @param {string} text
 * @param {Element | null} [host] where the textarea goes (inside a dialog, which holds the focus)
 * @returns {Promise<boolean>} whether it was copied
 */
export async function copyText(text, host) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the textarea route (permissions, insecure origin)
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.cssText = "position:fixed;top:-1000px;left:-1000px;opacity:0";
  (host ?? document.body).append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  return copied;
}

/**
 * Briefly swap a copy button to a "Copied" check mark.
 * @param {HTMLElement & {_aguiCopyTimer?: ReturnType<typeof setTimeout>}} node
 * @param {boolean} copied
 */
export function flashCopied(node, copied) {
  node.classList.toggle("agui-copied", copied);
  node.dataset.copied = copied ? "true" : "false";
  clearTimeout(node._aguiCopyTimer);
  node._aguiCopyTimer = setTimeout(() => {
    node.classList.remove("agui-copied");
    delete node.dataset.copied;
  }, 1500);
}
