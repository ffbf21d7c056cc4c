// @ts-check
// `custom` parts (provider-specific content), `steering-message` parts, and any part type this front end does not
// know: shown as a labelled, collapsible JSON view so nothing an agent sends is silently lost.
import { element, icon, label, prettyJson, scrollRegion } from "../dom.js";
import { showJson } from "../highlight.js";

/** @typedef {import("./part_view.js").PartContext} PartContext */
/** @typedef {import("../sync.js").UIPart} UIPart */

export class CustomPartView {
  /** @param {PartContext} context @param {string} type */
  constructor(context, type) {
    this.el = element("details", "agui-part agui-data agui-custom");
    this.el.dataset.partType = type;
    const summary = element("summary", "agui-data-summary");
    this.name = element("span", "agui-data-name");
    summary.append(icon("chevron"), icon("spark"), this.name);
    this.pre = scrollRegion(element("pre", "agui-json"), `${label(type, 120)} (JSON)`);
    this.el.append(summary, this.pre);
  }

  /** @param {UIPart} part */
  update(part) {
    const kind = part.type === "custom" ? part.kind : part.type;
    this.name.textContent = label(kind ?? part.type, 120);
    const { type, ...rest } = part;
    const value = part.type === "custom" ? part.providerMetadata ?? rest : rest;
    showJson(this.pre, prettyJson(value), value);
  }
}

export class SteeringPartView {
  /** @param {PartContext} context */
  constructor(context) {
    this.context = context;
    this.el = element("div", "agui-part agui-steering");
    this.el.dataset.partType = "steering-message";
  }

  /** @param {UIPart} part */
  update(part) {
    const heading = element("div", "agui-steering-label", "Steering message");
    const body = element("div", "agui-steering-body");
    for (const inner of Array.isArray(part.parts) ? part.parts : []) {
      if (inner?.type === "text") {
        body.append(element("div", "agui-plain", typeof inner.text === "string" ? inner.text : ""));
      } else if (inner?.type === "file") {
        body.append(element("div", "agui-plain", `[file: ${label(inner.filename ?? inner.mediaType ?? "", 120)}]`));
      }
    }
    this.el.replaceChildren(heading, body);
  }
}
