// @ts-check
// The context chip in the composer bar: what the agent sees of the notebook (the `context_sent` trait, one entry
// per context entry: {description, kind, chars, cut, dynamic}). Collapsed it says how many entries and characters
// go with each run; open it lists each entry with its kind and size, what the budget cut, and which are computed
// at every run. Hidden when the chat sends no context.
import { element, icon } from "./dom.js";

/**
 * What one context entry sent at the last run (the `context_sent` trait's items, from `chat.context_sent`).
 * @typedef {{description: string, kind?: unknown, chars?: unknown, cut?: unknown, dynamic?: unknown}} ContextEntry
 */

/** @param {number} n */
const count = (n) => Number(n).toLocaleString("en-US");

/**
 * The entries of the trait the chip can show (anything else is left out: the kernel validates).
 * @param {unknown} value
 * @returns {ContextEntry[]}
 */
export function contextEntries(value) {
  if (!Array.isArray(value)) return [];
  return value.filter(
    /** @returns {entry is ContextEntry} */
    (entry) => entry !== null && typeof entry === "object" && typeof entry.description === "string",
  );
}

/**
 * The chip's size (e.g. "2.4k", with a "+" while a computed entry's size is not known yet) and its description
 * ("The agent sees 3 context entries from the notebook, 2,412 characters").
 * @param {ContextEntry[]} entries
 * @returns {[string, string]}
 */
export function contextSummary(entries) {
  const chars = entries.reduce((sum, entry) => sum + (isCount(entry.chars) ? entry.chars : 0), 0);
  const computed = entries.some((entry) => !isCount(entry.chars));
  const size = (chars >= 1000 ? `${(chars / 1000).toFixed(1)}k` : String(chars)) + (computed ? "+" : "");
  const noun = entries.length === 1 ? "entry" : "entries";
  const name =
    `The agent sees ${entries.length} context ${noun} from the notebook, ${count(chars)} characters` +
    (computed ? " and more computed at each run" : "");
  return [size, name];
}

/**
 * @param {unknown} value
 * @returns {value is number}
 */
function isCount(value) {
  return typeof value === "number" && Number.isFinite(value);
}

export class ContextChip {
  constructor() {
    this.el = element("details", "agui-context");
    this.el.dataset.agui = "context";
    this.el.hidden = true;
    this.summary = element("summary", "agui-button agui-ghost agui-context-summary");
    this.summary.dataset.agui = "context-summary";
    // In a narrow widget only the icon and the number of entries stay (the style hides the word and the size).
    this.countText = element("span", "agui-context-count");
    this.sizeText = element("span", "agui-context-size");
    const text = element("span");
    text.append(element("span", "agui-context-word", "Context "), this.countText, this.sizeText);
    this.summary.append(icon("data"), text);
    this.panel = element("div", "agui-context-panel");
    this.heading = element("div", "agui-context-heading", "What the agent sees with each run");
    this.list = element("ul", "agui-context-list");
    this.panel.append(this.heading, this.list);
    this.el.append(this.summary, this.panel);
    this.el.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.el.open) {
        event.stopPropagation();
        this.el.open = false;
        this.summary.focus();
      }
    });
  }

  /** @param {unknown} value the `context_sent` trait */
  update(value) {
    const entries = contextEntries(value);
    this.el.hidden = entries.length === 0;
    if (entries.length === 0) {
      this.el.open = false;
      return;
    }
    const [size, name] = contextSummary(entries);
    this.countText.textContent = String(entries.length);
    this.sizeText.textContent = ` · ${size}`;
    // The sentence is the chip's description (its tooltip); its name stays the text it shows, as axe asks.
    this.summary.title = name;
    this.list.replaceChildren(...entries.map((entry) => this.row(entry)));
  }

  /** @param {ContextEntry} entry */
  row(entry) {
    const item = element("li", "agui-context-entry");
    item.dataset.agui = "context-entry";
    const name = element("span", "agui-context-name", entry.description || "(no description)");
    const facts = [typeof entry.kind === "string" ? entry.kind : "value"];
    if (isCount(entry.chars)) facts.push(`${count(entry.chars)} chars`);
    if (isCount(entry.cut) && entry.cut > 0) facts.push(`${count(entry.cut)} cut`);
    if (entry.dynamic === true) facts.push("computed at each run");
    item.append(name, element("span", "agui-context-facts", facts.join(" · ")));
    return item;
  }
}
