// @ts-check
// `file` and `reasoning-file` parts: images, audio and video previewed inline, any other type as a download link.
// URLs go through the policy in urls.js; a refused URL leaves a labelled chip without a link. Remote (http(s))
// media wait behind a click-to-load placeholder unless the widget trusts their origin (remote_media.js). A download
// is named after the agent's file name with the extension of the media type the chip shows, which for a data: URL
// is the type the URL itself declares (the one the URL policy checked), never the extension the agent chose.
import { element, icon, label } from "../dom.js";
import { CLICK_TO_LOAD, remotePlaceholder } from "../remote_media.js";
import { dataUrlType, previewKind, safeDownloadHref, safeMediaSrc } from "../urls.js";

// Media type -> file extensions; the first is the one a name gets when it has none of them.
/** @type {Record<string, string[]>} */
const EXTENSIONS = {
  "application/gzip": ["gz"],
  "application/json": ["json"],
  "application/ld+json": ["jsonld"],
  "application/msword": ["doc"],
  "application/octet-stream": ["bin"],
  "application/pdf": ["pdf"],
  "application/vnd.apache.parquet": ["parquet"],
  "application/vnd.ms-excel": ["xls"],
  "application/vnd.oasis.opendocument.presentation": ["odp"],
  "application/vnd.oasis.opendocument.spreadsheet": ["ods"],
  "application/vnd.oasis.opendocument.text": ["odt"],
  "application/vnd.openxmlformats-officedocument.presentationml.presentation": ["pptx"],
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": ["xlsx"],
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ["docx"],
  "application/x-ipynb+json": ["ipynb"],
  "application/x-ndjson": ["jsonl", "ndjson"],
  "application/x-parquet": ["parquet"],
  "application/x-tar": ["tar"],
  "application/x-yaml": ["yaml", "yml"],
  "application/yaml": ["yaml", "yml"],
  "application/zip": ["zip"],
  "audio/aac": ["aac"],
  "audio/flac": ["flac"],
  "audio/mp4": ["m4a"],
  "audio/mpeg": ["mp3"],
  "audio/ogg": ["ogg", "oga"],
  "audio/wav": ["wav"],
  "audio/wave": ["wav"],
  "audio/webm": ["weba"],
  "audio/x-wav": ["wav"],
  "image/avif": ["avif"],
  "image/bmp": ["bmp"],
  "image/gif": ["gif"],
  "image/jpeg": ["jpg", "jpeg"],
  "image/jpg": ["jpg", "jpeg"],
  "image/png": ["png"],
  "image/svg+xml": ["svg"],
  "image/tiff": ["tif", "tiff"],
  "image/vnd.microsoft.icon": ["ico"],
  "image/webp": ["webp"],
  "image/x-icon": ["ico"],
  "text/csv": ["csv"],
  "text/markdown": ["md", "markdown"],
  "text/plain": ["txt", "log", "text"],
  "text/tab-separated-values": ["tsv"],
  "text/x-python": ["py"],
  "video/mp4": ["mp4", "m4v"],
  "video/ogg": ["ogv"],
  "video/quicktime": ["mov"],
  "video/webm": ["webm"],
};
// Windows-reserved and path characters; control and bidi characters go with label().
const UNSAFE_NAME_CHARS = /[<>:"/\\|?*]/g;

/** @typedef {import("../sync.js").UIPart} UIPart */

/** @param {UIPart} part @returns {string} */
function fileName(part) {
  if (typeof part.filename === "string" && part.filename) return label(part.filename, 120);
  return typeof part.mediaType === "string" && part.mediaType ? label(part.mediaType, 80) : "file";
}

/**
 * The extensions a download of `mediaType` may end in: the table's, `txt` for other text, `bin` for the rest.
 * @param {unknown} mediaType
 * @returns {string[]}
 */
export function extensionsFor(mediaType) {
  const type = typeof mediaType === "string" ? mediaType.split(";")[0].trim().toLowerCase() : "";
  return EXTENSIONS[type] ?? (type.startsWith("text/") ? ["txt"] : ["bin"]);
}

/**
 * A safe download name for `filename` holding `mediaType`: the last path segment, unsafe characters replaced,
 * no leading dots, and an extension of that type (`report.html` as image/png is `report.png`).
 * @param {unknown} filename
 * @param {unknown} mediaType
 * @returns {string}
 */
export function downloadName(filename, mediaType) {
  const extensions = extensionsFor(mediaType);
  const base = label(typeof filename === "string" ? filename : "", 400)
    .split(/[/\\]/)
    .pop()
    .replace(UNSAFE_NAME_CHARS, "_")
    .replace(/^[\s.]+|[\s.]+$/g, "");
  const dot = base.lastIndexOf(".");
  const extension = dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
  if (extensions.includes(extension) && base.length <= 120) return base;
  const stem = (dot > 0 ? base.slice(0, dot) : base).replace(/[\s.]+$/, "").slice(0, 100) || "download";
  return `${stem}.${extensions[0]}`;
}

/**
 * @param {import("../urls.js").MediaKind} kind
 * @param {string} src
 * @param {string} name
 * @param {boolean} lazy below the fold: loads when scrolled to
 * @returns {HTMLImageElement | HTMLMediaElement}
 */
function mediaElement(kind, src, name, lazy) {
  /** @type {HTMLImageElement | HTMLMediaElement} */
  let media;
  if (kind === "image") {
    media = element("img", "agui-file-image");
    media.alt = name;
    if (lazy) media.loading = "lazy";
    media.referrerPolicy = "no-referrer";
    // A control: click, Enter or Space opens it full size (message_view.js).
    media.tabIndex = 0;
    media.title = "Open full size";
  } else {
    media = element(kind, `agui-file-${kind}`);
    media.controls = true;
    media.preload = "metadata";
  }
  media.src = src;
  return media;
}

export class FilePartView {
  /** @param {import("./part_view.js").PartContext} context @param {string} type "file" or "reasoning-file" */
  constructor(context, type) {
    this.el = element("div", `agui-part agui-file${type === "reasoning-file" ? " agui-reasoning-file" : ""}`);
    this.el.dataset.partType = type;
    this.remote = context?.remote ?? CLICK_TO_LOAD;
    /** @type {string | null} what the view shows: the part's type, name and url */
    this.key = null;
  }

  /** @param {UIPart} part */
  update(part) {
    // A file part rarely changes; rebuilding only on a new url/type/name keeps playing media untouched.
    const key = `${part.mediaType}\u0000${part.filename}\u0000${part.url}`;
    if (key === this.key) return;
    this.key = key;
    const name = fileName(part);
    const kind = previewKind(part.mediaType);
    const src = kind ? safeMediaSrc(part.url, kind) : null;
    /** @type {Node[]} */
    const children = [];
    if (kind && src) {
      const preview = (/** @type {boolean} */ lazy) => {
        this.el.dataset.preview = kind;
        /** @type {HTMLElement[]} */
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

  /** @param {UIPart} part @param {string} name */
  chip(part, name) {
    const href = safeDownloadHref(part.url);
    // A span when there is no href, and then none of a link's fields is set.
    const chip = /** @type {HTMLAnchorElement} */ (element(href ? "a" : "span", "agui-chip agui-file-chip"));
    let shownType = typeof part.mediaType === "string" ? part.mediaType : "";
    let title = name;
    if (href) {
      // A data: URL downloads as the type it declares, whatever the part says.
      if (href.startsWith("data:")) shownType = dataUrlType(href);
      title = downloadName(part.filename ?? "", shownType);
      chip.href = href;
      chip.download = title;
      chip.rel = "noopener noreferrer";
      if (!href.startsWith("data:")) chip.target = "_blank";
      this.el.dataset.preview = "download";
    } else {
      chip.classList.add("agui-blocked");
      chip.title = "Link removed: this URL or file type is not allowed";
      this.el.dataset.preview = "blocked";
    }
    chip.append(icon("file"), element("span", "agui-chip-title", title));
    if (shownType && shownType !== title) chip.append(element("span", "agui-chip-host", label(shownType, 80)));
    return chip;
  }
}
