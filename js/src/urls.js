// @ts-check
// URL policy: which URLs an agent may put in a link or a media element. Everything else is dropped.
//
// Links (markdown links, source chips, download links) may be absolute http(s) or mailto URLs, or data: URLs of a
// non-active media type when the link is a download. Media elements (img/audio/video) may load http(s), blob: and
// data: URLs whose own media type matches the element. Relative URLs are refused: a chat answer has no base to be
// relative to, and a relative link would point into the Jupyter server. Whether a remote (http(s)) media URL may
// load without a click is remote_media.js's decision; this file only says which URLs are remote and from where.

/** @typedef {"image" | "audio" | "video"} MediaKind */

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
const MEDIA_PROTOCOLS = new Set(["http:", "https:", "blob:"]);

// Browsers drop tabs and newlines anywhere in a URL and trim C0 controls and spaces; do the same before checking so
// that the checked string is the string the browser will use ("java\tscript:" must be seen as "javascript:").
const DROPPED = /[\t\n\r]/g;
// eslint-disable-next-line no-control-regex -- the C0 controls browsers trim
const TRIMMED = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const DATA_HEADER = /^data:([^,]*),/i;

const IMAGE_TYPES = new Set([
  "image/png",
  "image/jpeg",
  "image/jpg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "image/x-icon",
  "image/vnd.microsoft.icon",
  // SVG is inert inside <img> (no script, no external loads); it is never allowed as a link.
  "image/svg+xml",
]);
const MEDIA_TYPE_TOKEN = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/;
// Types a browser may render as a document (and so run script in) if a download link were ever opened in place.
const ACTIVE_TYPE = /html|xml|svg|script|x-sh\b|x-msdownload|shockwave/;

/** @param {unknown} raw @returns {string | null} */
function normalise(raw) {
  if (typeof raw !== "string") return null;
  const text = raw.replace(DROPPED, "").replace(TRIMMED, "");
  return text === "" ? null : text;
}

/**
 * The media type a data: URL declares for itself ("" when it declares none), or null for a non-data URL.
 * @param {unknown} raw
 * @returns {string | null}
 */
export function dataUrlType(raw) {
  const text = normalise(raw);
  if (text === null) return null;
  const match = DATA_HEADER.exec(text.slice(0, 256));
  if (!match) return null;
  return match[1].split(";")[0].trim().toLowerCase();
}

/** @param {string} text @returns {URL | null} */
function parseAbsolute(text) {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * The href to use for a link to `raw`, or null when it must not be a link.
 * @param {unknown} raw
 * @returns {string | null}
 */
export function safeLinkHref(raw) {
  const text = normalise(raw);
  if (text === null || /^data:/i.test(text)) return null;
  const url = parseAbsolute(text);
  if (url === null || !LINK_PROTOCOLS.has(url.protocol)) return null;
  return url.href;
}

/**
 * The href for a download link to a file, or null: like safeLinkHref, plus data: URLs of inert types.
 * @param {unknown} raw
 * @returns {string | null}
 */
export function safeDownloadHref(raw) {
  const text = normalise(raw);
  if (text === null) return null;
  if (/^data:/i.test(text)) {
    const type = dataUrlType(text);
    if (!type || !MEDIA_TYPE_TOKEN.test(type) || ACTIVE_TYPE.test(type)) return null;
    return text;
  }
  return safeLinkHref(text);
}

/**
 * The src for an <img>/<audio>/<video> loading `raw`, or null.
 * @param {unknown} raw
 * @param {MediaKind} kind
 * @returns {string | null}
 */
export function safeMediaSrc(raw, kind) {
  const text = normalise(raw);
  if (text === null) return null;
  if (/^data:/i.test(text)) {
    const type = dataUrlType(text);
    if (!type || !MEDIA_TYPE_TOKEN.test(type)) return null;
    if (kind === "image") return IMAGE_TYPES.has(type) ? text : null;
    return type.startsWith(`${kind}/`) && !ACTIVE_TYPE.test(type) ? text : null;
  }
  const url = parseAbsolute(text);
  if (url === null || !MEDIA_PROTOCOLS.has(url.protocol)) return null;
  return url.href;
}

/**
 * The origin ("https://example.com") an http(s) URL loads from, or null for data:, blob: and anything else.
 * @param {unknown} raw
 * @returns {string | null}
 */
export function remoteOrigin(raw) {
  const text = normalise(raw);
  const url = text === null ? null : parseAbsolute(text);
  return url !== null && (url.protocol === "http:" || url.protocol === "https:") ? url.origin : null;
}

/**
 * The origins named by a `trusted_origins` value: each entry any http(s) URL, of which only the origin counts.
 * @param {unknown} entries
 * @returns {Set<string>}
 */
export function originSet(entries) {
  const origins = new Set();
  for (const entry of Array.isArray(entries) ? entries : []) {
    const origin = remoteOrigin(entry);
    if (origin !== null) origins.add(origin);
  }
  return origins;
}

/**
 * The top-level media kind a file part can be previewed as, or null.
 * @param {unknown} mediaType
 * @returns {MediaKind | null}
 */
export function previewKind(mediaType) {
  if (typeof mediaType !== "string") return null;
  const top = mediaType.split("/")[0].trim().toLowerCase();
  return top === "image" || top === "audio" || top === "video" ? top : null;
}

/**
 * A short host label for a source chip ("example.com"), or "" when the URL has none.
 * @param {string | null | undefined} href
 * @returns {string}
 */
export function hostLabel(href) {
  const url = href ? parseAbsolute(href) : null;
  if (url === null) return "";
  return url.protocol === "mailto:" ? url.pathname : url.hostname.replace(/^www\./, "");
}
