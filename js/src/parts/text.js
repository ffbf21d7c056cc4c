// @ts-check
// `text` parts: markdown for the assistant (incremental while streaming), plain text for user and system messages.
import { element } from "../dom.js";
import { MarkdownView } from "../markdown.js";

/** @typedef {import("./part_view.js").PartContext} PartContext */
/** @typedef {import("../sync.js").UIPart} UIPart */

export class TextPartView {
  /** @param {PartContext} context */
  constructor(context) {
    this.markdown = context.role === "assistant";
    this.el = element("div", this.markdown ? "agui-part agui-text" : "agui-part agui-text agui-plain");
    this.el.dataset.partType = "text";
    this.view = this.markdown ? new MarkdownView("agui-md", context.remote) : null;
    if (this.view) this.el.append(this.view.el);
    /** @type {string | null} */
    this.text = null;
    /** @type {string | null} */
    this.state = null;
  }

  /** @param {UIPart} part */
  update(part) {
    const text = typeof part.text === "string" ? part.text : "";
    const state = part.state === "streaming" ? "streaming" : "done";
    if (text === this.text && state === this.state) return;
    this.el.dataset.state = state;
    if (this.view) this.view.update(text, state !== "streaming");
    else this.el.textContent = text;
    this.text = text;
    this.state = state;
  }
}
