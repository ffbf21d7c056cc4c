// @ts-check
// `data-{name}` parts: a collapsible JSON view (as text).
import { element, icon, label, prettyJson, scrollRegion } from "../dom.js";
import { showJson } from "../highlight.js";

/** @typedef {import("./part_view.js").PartContext} PartContext */
/** @typedef {import("../sync.js").UIPart} UIPart */

export class DataPartView {
  /** @param {PartContext} context @param {string} type "data-<name>" */
  constructor(context, type) {
    this.el = element("details", "agui-part agui-data");
    this.el.dataset.partType = type;
    const summary = element("summary", "agui-data-summary");
    this.name = element("span", "agui-data-name", label(type.slice("data-".length), 120));
    this.id = element("span", "agui-data-id");
    summary.append(icon("chevron"), icon("data"), this.name, this.id);
    this.pre = scrollRegion(element("pre", "agui-json"), `${label(type, 120)} (JSON)`);
    this.el.append(summary, this.pre);
    /** @type {string | null} */
    this.text = null;
  }

  /** @param {UIPart} part */
  update(part) {
    this.id.textContent = part.id === undefined || part.id === null ? "" : label(part.id, 80);
    this.id.hidden = this.id.textContent === "";
    const text = prettyJson(part.data);
    if (text !== this.text) {
      showJson(this.pre, text, part.data);
      this.text = text;
    }
  }
}
