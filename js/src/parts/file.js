// `file` and `reasoning-file` parts: images, audio and video previewed inline, any other type as a download link.
// URLs go through the policy in urls.js; a refused URL leaves a labelled chip without a link. Remote (http(s))
// media wait behind a click-to-load placeholder unless the widget trusts their origin (remote_media.js).
import { element, icon, label } from "../dom.js";
import { CLICK_TO_LOAD, remotePlaceholder } from "../remote_media.js";
import { previewKind, safeDownloadHref, safeMediaSrc } from "../urls.js";

function fileName(part) {
  if (typeof part.filename === "string" && part.filename) return label(part.filename, 120);
  return typeof part.mediaType === "string" && part.mediaType ? label(part.mediaType, 80) : "file";
}

function mediaElement(kind, src, name, lazy) {
  let media;
  if (kind === "image") {
    media = element("img", "agui-file-image");
    media.alt = name;
    if (lazy) media.loading = "lazy";
    media.referrerPolicy = "no-referrer";
  } else {
    media = element(kind, `agui-file-${kind}`);
    media.controls = true;
    media.preload = "metadata";
  }
  media.src = src;
  return media;
}

export class FilePartView {
  constructor(context, type) {
    this.el = element("div", `agui-part agui-file${type === "reasoning-file" ? " agui-reasoning-file" : ""}`);
    this.el.dataset.partType = type;
    this.remote = context?.remote ?? CLICK_TO_LOAD;
    this.key = null;
  }

  update(part) {
    // A file part rarely changes; rebuilding only on a new url/type/name keeps playing media untouched.
    const key = `${part.mediaType}\u0000${part.filename}\u0000${part.url}`;
    if (key === this.key) return;
    this.key = key;
    const name = fileName(part);
    const kind = previewKind(part.mediaType);
    const src = kind ? safeMediaSrc(part.url, kind) : null;
    const children = [];
    if (kind && src) {
      const preview = (lazy) => {
        this.el.dataset.preview = kind;
        const nodes = [mediaElement(kind, src, name, lazy)];
        if (part.filename) nodes.push(element("div", "agui-file-caption", name));
        return nodes;
      };
      if (this.remote.allows(src)) {
        children.push(...preview(true));
      } else {
        this.el.dataset.preview = "remote";
        const create = () => preview(false);
        children.push(remotePlaceholder({ kind, name, src, inline: false, policy: this.remote, create }));
      }
    } else {
      children.push(this.chip(part, name));
    }
    if (this.el.dataset.partType === "reasoning-file") {
      children.unshift(element("div", "agui-file-label", "Reasoning file"));
    }
    this.el.replaceChildren(...children);
  }

  chip(part, name) {
    const href = safeDownloadHref(part.url);
    const chip = element(href ? "a" : "span", "agui-chip agui-file-chip");
    if (href) {
      chip.href = href;
      chip.download = name;
      chip.rel = "noopener noreferrer";
      if (!href.startsWith("data:")) chip.target = "_blank";
      this.el.dataset.preview = "download";
    } else {
      chip.classList.add("agui-blocked");
      chip.title = "Link removed: this URL or file type is not allowed";
      this.el.dataset.preview = "blocked";
    }
    chip.append(icon("file"), element("span", "agui-chip-title", name));
    if (part.filename && part.mediaType) chip.append(element("span", "agui-chip-host", label(part.mediaType, 80)));
    return chip;
  }
}
