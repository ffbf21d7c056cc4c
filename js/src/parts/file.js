// `file` and `reasoning-file` parts: images, audio and video previewed inline, any other type as a download link.
// URLs go through the policy in urls.js; a refused URL leaves a labelled chip without a link.
import { element, icon, label } from "../dom.js";
import { previewKind, safeDownloadHref, safeMediaSrc } from "../urls.js";

function fileName(part) {
  if (typeof part.filename === "string" && part.filename) return label(part.filename, 120);
  return typeof part.mediaType === "string" && part.mediaType ? label(part.mediaType, 80) : "file";
}

export class FilePartView {
  constructor(context, type) {
    this.el = element("div", `agui-part agui-file${type === "reasoning-file" ? " agui-reasoning-file" : ""}`);
    this.el.dataset.partType = type;
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
      let media;
      if (kind === "image") {
        media = element("img", "agui-file-image");
        media.alt = name;
        media.loading = "lazy";
        media.referrerPolicy = "no-referrer";
      } else {
        media = element(kind, `agui-file-${kind}`);
        media.controls = true;
        media.preload = "metadata";
      }
      media.src = src;
      this.el.dataset.preview = kind;
      children.push(media);
      if (part.filename) children.push(element("div", "agui-file-caption", name));
    } else {
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
      children.push(chip);
    }
    if (this.el.dataset.partType === "reasoning-file") {
      children.unshift(element("div", "agui-file-label", "Reasoning file"));
    }
    this.el.replaceChildren(...children);
  }
}
