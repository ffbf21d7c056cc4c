// @ts-check
// `reasoning` parts: a collapsed block, "Thinking…" while it streams, then "Reasoning · 48 words"; a lock when the
// provider sent it encrypted (providerMetadata["ag-ui"].encryptedValue). The label says only what the part holds,
// so a live answer, a replay and a reopened notebook read the same (a duration would exist only for a view that
// watched the stream, and differ between two views of one widget).
import { element, icon } from "../dom.js";
import { MarkdownView } from "../markdown.js";

/** @typedef {import("./part_view.js").PartContext} PartContext */
/** @typedef {import("../sync.js").UIPart} UIPart */

/** @param {UIPart} part */
function isEncrypted(part) {
  const meta = part.providerMetadata?.["ag-ui"];
  return meta !== null && typeof meta === "object" && meta.encryptedValue != null;
}

/** "3 s", "2 min 5 s"; "" for a duration that is not one. @param {number} ms @returns {string} */
export function formatDuration(ms) {
  if (!(ms >= 0)) return "";
  if (ms < 1000) return "under a second";
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * The label of a finished reasoning part: "Reasoning · 48 words" (words as `reasoning_df` counts them).
 * @param {string} text
 * @returns {string}
 */
export function reasoningLabel(text) {
  const words = text.split(/\s+/).filter(Boolean).length;
  return `Reasoning · ${words.toLocaleString("en-US")} ${words === 1 ? "word" : "words"}`;
}

export class ReasoningPartView {
  /** @param {PartContext} context */
  constructor(context) {
    this.el = element("details", "agui-part agui-reasoning");
    this.el.dataset.partType = "reasoning";
    const summary = element("summary", "agui-reasoning-summary");
    summary.append(icon("chevron"));
    this.label = element("span", "agui-reasoning-label");
    this.lock = element("span", "agui-reasoning-lock");
    this.lock.append(icon("lock"));
    this.lock.dataset.agui = "encrypted";
    this.lock.title = "Encrypted reasoning: the provider sent it sealed, only the model can read it";
    this.lock.hidden = true;
    summary.append(this.label, this.lock);
    this.body = new MarkdownView("agui-md agui-reasoning-body", context?.remote);
    this.el.append(summary, this.body.el);
    /** @type {string | null} */
    this.text = null;
    /** @type {string | null} */
    this.state = null;
  }

  /** @param {UIPart} part */
  update(part) {
    const text = typeof part.text === "string" ? part.text : "";
    const streaming = part.state === "streaming";
    const encrypted = isEncrypted(part);
    this.el.dataset.state = streaming ? "streaming" : "done";
    this.el.dataset.encrypted = encrypted ? "true" : "false";
    this.lock.hidden = !encrypted;
    let label;
    if (streaming) label = "Thinking…";
    else if (text === "" && encrypted) label = "Encrypted reasoning";
    else label = reasoningLabel(text);
    this.label.textContent = label;
    if (text !== this.text || streaming !== (this.state === "streaming")) this.body.update(text, !streaming);
    this.body.el.hidden = text === "";
    this.text = text;
    this.state = streaming ? "streaming" : "done";
  }
}
