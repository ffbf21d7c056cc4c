// @ts-check
// `source-url` parts as link chips, `source-document` parts as plain chips.
import { element, icon, label } from "../dom.js";
import { hostLabel, safeLinkHref } from "../urls.js";

export class SourceUrlPartView {
  constructor() {
    this.el = element("span", "agui-part agui-source");
    this.el.dataset.partType = "source-url";
  }

  /** @param {import("../sync.js").UIPart} part */
  update(part) {
    const href = safeLinkHref(part.url);
    const host = hostLabel(href);
    const title = label(part.title || host || part.url || "source", 120);
    // A span when there is no href, and then none of a link's fields is set.
    const chip = /** @type {HTMLAnchorElement} */ (element(href ? "a" : "span", "agui-chip"));
    if (href) {
      chip.href = href;
      chip.target = "_blank";
      chip.rel = "noopener noreferrer";
      chip.title = href;
    } else {
      chip.classList.add("agui-blocked");
      chip.title = "Link removed: only http(s) and mailto links are allowed";
    }
    chip.append(icon("link"), element("span", "agui-chip-title", title));
    if (host && host !== title) chip.append(element("span", "agui-chip-host", host));
    this.el.replaceChildren(chip);
  }
}

export class SourceDocumentPartView {
  constructor() {
    this.el = element("span", "agui-part agui-source");
    this.el.dataset.partType = "source-document";
  }

  /** @param {import("../sync.js").UIPart} part */
  update(part) {
    const chip = element("span", "agui-chip");
    const title = label(part.title || part.filename || "document", 120);
    chip.append(icon("file"), element("span", "agui-chip-title", title));
    const detail = [part.filename, part.mediaType]
      .filter((value) => typeof value === "string" && value)
      .map((value) => label(value, 80));
    if (detail.length) chip.append(element("span", "agui-chip-host", detail.join(" · ")));
    this.el.replaceChildren(chip);
  }
}
