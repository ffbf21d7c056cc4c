// @ts-check
// Rendered parts: a part shown as something other than its default view, by (first that applies)
//   1. a Python renderer's output: the `rendered` trait, {"{message id}/{part index}": {type, data | error}};
//   2. a front-end renderer: the `frontend_renderers` trait, {part type: ES module source}, whose
//      `render({ part, el })` (a named export, or `default.render`) runs in the page, anywidget style, and may
//      return a cleanup function; it runs again (after the cleanup) whenever the part changes;
//   3. a built-in renderer (unless `builtin_renderers` is false): a checklist for plans, a table for records.
// The view keeps the default view one click away ("Raw"); when a renderer fails, its error shows in the part with
// the default view under it, and nothing else in the message is touched.
//
// Python outputs are mime bundles; their best type is shown: a live ipywidget view (where the page has a widget
// manager), a table, HTML and markdown through the one sanitizer (sanitize.js), images (SVG too) as <img> of a
// data URL, JSON, plain text.
import { button, element, icon, label, prettyJson, scrollRegion } from "../dom.js";
import { showJson } from "../highlight.js";
import { renderMarkdown } from "../markdown.js";
import { sanitizeHtml } from "../sanitize.js";
import { safeMediaSrc } from "../urls.js";
import { checklistElement, checklistSteps, checklistSummary } from "./checklist.js";
import { recordsTable, tableElement, tableSummary } from "./records.js";

/** @typedef {import("../sync.js").UIPart} UIPart */
/** @typedef {import("../anywidget.js").AnyModel} AnyModel */
/** @typedef {import("./part_view.js").PartContext} PartContext */
/** @typedef {import("./part_view.js").PartView} PartView */
/**
 * A Python renderer's output for one part (an entry of the `rendered` trait): a mime bundle, or the error it
 * raised.
 * @typedef {{type: string, data?: Record<string, unknown>, error?: string, traceback?: string}} PythonEntry
 */
/**
 * How a part is rendered; the same object while nothing about it changes, so the message view can skip it.
 * @typedef {{kind: "python", entry: PythonEntry} | {kind: "frontend", source: string} | {kind: "checklist"}
 *   | {kind: "records"}} Rendering
 */
/** @typedef {{rendered: unknown, entries: Map<string, Rendering & {kind: "python"}>, frontend: Map<string, Rendering>}} RenderingCache */

export const TABLE_MIME = "application/vnd.agui-notebook.table+json";
export const WIDGET_MIME = "application/vnd.jupyter.widget-view+json";
const SHOWN_MIME_TYPES = [
  WIDGET_MIME,
  TABLE_MIME,
  "text/html",
  "text/markdown",
  "image/svg+xml",
  "image/png",
  "image/jpeg",
  "image/gif",
  "application/json",
  "text/plain",
];
const IMAGE_MIME_TYPES = new Set(["image/svg+xml", "image/png", "image/jpeg", "image/gif"]);

/** @type {Rendering} */
const CHECKLIST = Object.freeze({ kind: "checklist" });
/** @type {Rendering} */
const RECORDS = Object.freeze({ kind: "records" });

/** @param {unknown} a @param {unknown} b */
function sameJson(a, b) {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/** @type {WeakMap<AnyModel, RenderingCache>} */
const caches = new WeakMap();

/**
 * The model's rendered entries, each kept as the same object for as long as its content does not change.
 * @param {AnyModel} model
 * @returns {RenderingCache}
 */
function pythonEntries(model) {
  let cache = caches.get(model);
  if (cache === undefined) {
    cache = { rendered: undefined, entries: new Map(), frontend: new Map() };
    caches.set(model, cache);
  }
  const rendered = model.get?.("rendered");
  if (rendered !== cache.rendered) {
    /** @type {RenderingCache["entries"]} */
    const entries = new Map();
    if (rendered !== null && typeof rendered === "object") {
      for (const [key, entry] of Object.entries(rendered)) {
        if (entry === null || typeof entry !== "object" || typeof entry.type !== "string") continue;
        const old = cache.entries.get(key);
        entries.set(key, old !== undefined && sameJson(old.entry, entry) ? old : { kind: "python", entry });
      }
    }
    cache.rendered = rendered;
    cache.entries = entries;
  }
  return cache;
}

/**
 * The ids of the messages whose Python renderer outputs (the `rendered` trait) changed since it was last read.
 * @param {AnyModel} model
 * @returns {Set<string>}
 */
export function renderedMessageIds(model) {
  const before = caches.get(model)?.entries ?? new Map();
  const { entries } = pythonEntries(model);
  /** @type {Set<string>} */
  const ids = new Set();
  const idOf = (/** @type {string} */ key) => key.slice(0, key.lastIndexOf("/"));
  for (const [key, value] of entries) if (before.get(key) !== value) ids.add(idOf(key));
  for (const key of before.keys()) if (!entries.has(key)) ids.add(idOf(key));
  return ids;
}

/**
 * How part `index` of `message` is rendered: a rendering object (the same object while nothing changed), or null
 * for the part's default view.
 * @param {AnyModel | null | undefined} model
 * @param {import("../sync.js").UIMessage} message
 * @param {number} index
 * @param {UIPart} part
 * @returns {Rendering | null}
 */
export function renderingFor(model, message, index, part) {
  if (!model?.get) return null;
  const type = part.type;
  const cache = pythonEntries(model);
  const id = typeof message?.id === "string" ? message.id : "";
  const python = cache.entries.get(`${id}/${index}`);
  if (python !== undefined && python.entry.type === type) return python;
  const modules = model.get("frontend_renderers");
  const source = modules !== null && typeof modules === "object" ? modules[type] : undefined;
  if (typeof source === "string") {
    let rendering = cache.frontend.get(source);
    if (rendering === undefined) {
      rendering = /** @type {Rendering} */ (Object.freeze({ kind: "frontend", source }));
      cache.frontend.set(source, rendering);
    }
    return rendering;
  }
  if (model.get("builtin_renderers") === false || !type.startsWith("data-")) return null;
  let builtin = builtins.get(part);
  if (builtin === undefined) {
    builtin = checklistSteps(part) !== null ? CHECKLIST : recordsTable(part.data) !== null ? RECORDS : null;
    builtins.set(part, builtin);
  }
  return builtin;
}

/** @type {WeakMap<UIPart, Rendering | null>} part (immutable in the front end) -> the built-in rendering that fits it */
const builtins = new WeakMap();

/** @type {Map<string, Promise<any>>} ES module source -> Promise of the module */
const modules = new Map();

/**
 * Import an ES module from its source, as anywidget imports `_esm` (a blob: URL); each source once per page.
 * @param {string} source
 * @returns {Promise<any>} the module
 */
export function importModule(source) {
  let promise = modules.get(source);
  if (promise === undefined) {
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    promise = import(/* webpackIgnore: true */ url).finally(() => URL.revokeObjectURL(url));
    modules.set(source, promise);
  }
  return promise;
}

/** @param {any} module a renderer's module @returns {Function | null} */
function renderFunction(module) {
  if (typeof module?.render === "function") return module.render;
  if (typeof module?.default?.render === "function") return module.default.render;
  if (typeof module?.default === "function") return module.default;
  return null;
}

/** @param {unknown} error */
function errorText(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** @param {Record<string, unknown>} data a mime bundle @returns {string | null} */
function bestMime(data) {
  return SHOWN_MIME_TYPES.find((mime) => data[mime] !== undefined && data[mime] !== null) ?? null;
}

/** @param {string} type */
function partName(type) {
  if (type.startsWith("data-")) return type.slice(5);
  if (type.startsWith("tool-")) return type.slice(5);
  return type;
}

export class RenderedPartView {
  /**
   * @param {PartContext} context
   * @param {string} type
   * @param {(type: string, context: PartContext) => PartView} createDefault the part's default view ("Raw")
   */
  constructor(context, type, createDefault) {
    this.context = context;
    this.type = type;
    this.createDefault = createDefault;
    this.el = element("div", "agui-part agui-rendered");
    this.el.dataset.partType = type;
    this.bar = element("div", "agui-rendered-bar");
    this.label = element("span", "agui-rendered-label");
    this.label.dataset.agui = "rendered-label";
    this.toggle = button("raw-toggle", "Show the part as it arrived", {
      text: "Raw",
      className: "agui-button agui-rendered-toggle",
    });
    this.toggle.setAttribute("aria-pressed", "false");
    this.toggle.addEventListener("click", () => this.setRaw(!this.raw));
    this.baseIcon = type.startsWith("tool-") || type === "dynamic-tool" ? "tool" : "data";
    this.barIcon = icon(this.baseIcon);
    this.bar.append(this.barIcon, this.label, this.toggle);
    this.output = element("div", "agui-rendered-output");
    this.output.dataset.agui = "rendered-output";
    this.error = element("div", "agui-rendered-error");
    this.error.dataset.agui = "renderer-error";
    this.error.setAttribute("role", "status");
    this.error.hidden = true;
    this.rawBox = element("div", "agui-rendered-raw");
    this.rawBox.dataset.agui = "raw-part";
    this.rawBox.hidden = true;
    this.el.append(this.bar, this.output, this.error, this.rawBox);
    this.raw = false;
    /** @type {PartView | null} */
    this.rawView = null;
    /** @type {UIPart | null} */
    this.part = null;
    /** @type {Rendering | null} */
    this.current = null;
    /** @type {PythonEntry | null} */
    this.shownEntry = null;
    /** @type {Function | null} what the renderer returned to undo itself */
    this.cleanup = null;
    this.generation = 0;
    this.rendererFailed = false;
  }

  /** @param {UIPart} part @param {Rendering} rendering */
  update(part, rendering) {
    const previous = this.current;
    this.part = part;
    this.current = rendering;
    if (this.el.dataset.rendered !== rendering.kind) {
      this.el.dataset.rendered = rendering.kind;
      const fresh = icon(rendering.kind === "checklist" ? "check" : this.baseIcon);
      this.barIcon.replaceWith(fresh);
      this.barIcon = fresh;
    }
    if (rendering.kind === "python") this.showPython(rendering.entry, previous);
    else if (rendering.kind === "frontend") this.showFrontend(part, rendering.source);
    else if (rendering.kind === "checklist") this.showChecklist(part);
    else if (rendering.kind === "records") this.showRecords(part);
    if (this.rawView !== null) this.rawView.update(part);
    this.layout();
  }

  /** Show the output, or (raw pressed, or the renderer failed) the default view; a tool call that waits for the
   * user's approval always shows its default view too, so a renderer cannot hide the Approve and Deny buttons. */
  layout() {
    const showRaw = this.raw || this.rendererFailed || this.part?.state === "approval-requested";
    if (showRaw && this.rawView === null && this.part !== null) {
      this.rawView = this.createDefault(this.type, this.context);
      this.rawView.el.removeAttribute("data-part-type"); // the part is this view; the default one is inside it
      this.rawView.update(this.part);
      if (this.rawView.el.tagName === "DETAILS") /** @type {HTMLDetailsElement} */ (this.rawView.el).open = true;
      this.rawBox.append(this.rawView.el);
    }
    this.rawBox.hidden = !showRaw;
    this.output.hidden = this.raw && !this.rendererFailed;
    this.toggle.hidden = this.rendererFailed;
    this.toggle.setAttribute("aria-pressed", this.raw ? "true" : "false");
    /** @type {Element} */ (this.toggle.querySelector(".agui-button-text")).textContent = this.raw ? "Rendered" : "Raw";
    this.toggle.title = this.raw ? "Show the rendered view" : "Show the part as it arrived";
    this.toggle.setAttribute("aria-label", this.toggle.title);
    this.el.dataset.raw = showRaw ? "true" : "false";
  }

  /** @param {boolean} raw */
  setRaw(raw) {
    this.raw = raw;
    this.layout();
  }

  /** @param {string} text "": no error @param {string} [details] a traceback */
  showError(text, details = "") {
    this.rendererFailed = text !== "";
    this.error.replaceChildren();
    this.error.hidden = !this.rendererFailed;
    if (!this.rendererFailed) return;
    const line = element("div", "agui-rendered-error-line");
    line.append(icon("alert"), element("span", "agui-rendered-error-text", `Renderer failed: ${label(text, 2000)}`));
    this.error.append(line);
    if (details) {
      const more = element("details", "agui-rendered-traceback");
      more.append(element("summary", "", "Traceback"), scrollRegion(element("pre", "agui-json", details), "Traceback"));
      this.error.append(more);
    }
  }

  runCleanup() {
    const cleanup = this.cleanup;
    this.cleanup = null;
    if (typeof cleanup !== "function") return;
    try {
      const result = cleanup();
      if (result && typeof result.catch === "function") result.catch((/** @type {unknown} */ error) => console.warn("agui-notebook: a renderer's cleanup failed", error));
    } catch (error) {
      console.warn("agui-notebook: a renderer's cleanup failed", error);
    }
  }

  destroy() {
    this.generation += 1;
    this.runCleanup();
    this.rawView?.destroy?.();
  }

  // ------------------------------------------------------------------ built-in renderers
  /** @param {UIPart} part */
  showChecklist(part) {
    const plan = checklistSteps(part);
    this.generation += 1;
    this.shownEntry = null;
    this.runCleanup();
    this.showError("");
    this.label.textContent = plan ? checklistSummary(plan, part.type) : label(partName(part.type), 80);
    this.output.dataset.mime = "checklist";
    this.output.replaceChildren(plan ? checklistElement(plan) : element("div"));
  }

  /** @param {UIPart} part */
  showRecords(part) {
    const spec = recordsTable(part.data);
    this.generation += 1;
    this.shownEntry = null;
    this.runCleanup();
    this.showError("");
    this.label.textContent = `${label(partName(part.type), 80)} · ${tableSummary(spec)}`;
    this.output.dataset.mime = "records";
    this.output.replaceChildren(spec ? tableElement(spec) : element("div"));
  }

  // ------------------------------------------------------------------ Python outputs
  /** @param {PythonEntry} entry @param {Rendering | null} previous */
  showPython(entry, previous) {
    if (previous?.kind === "python" && entry === this.shownEntry) return;
    this.generation += 1;
    this.runCleanup();
    this.shownEntry = entry;
    this.label.textContent = label(partName(entry.type), 80);
    if (typeof entry.error === "string") {
      this.output.replaceChildren();
      this.output.dataset.mime = "";
      this.showError(entry.error, typeof entry.traceback === "string" ? entry.traceback : "");
      return;
    }
    this.showError("");
    const data = entry.data !== null && typeof entry.data === "object" ? entry.data : {};
    const mime = bestMime(data);
    this.output.dataset.mime = mime ?? "";
    this.output.replaceChildren(mime === null ? element("div") : this.mimeElement(mime, data));
  }

  /** @param {string} mime @param {Record<string, unknown>} data @returns {HTMLElement} */
  mimeElement(mime, data) {
    const value = data[mime];
    if (mime === WIDGET_MIME) return this.widgetElement(value, data["text/plain"]);
    if (mime === TABLE_MIME) {
      this.label.textContent += ` · ${tableSummary(value)}`;
      return tableElement(value);
    }
    if (mime === "text/html") {
      const box = element("div", "agui-md agui-rendered-html");
      box.append(sanitizeHtml(String(value), this.context?.remote));
      return box;
    }
    if (mime === "text/markdown") return renderMarkdown(String(value), this.context?.remote ?? null);
    if (IMAGE_MIME_TYPES.has(mime)) {
      const src = safeMediaSrc(`data:${mime};base64,${String(value)}`, "image");
      if (src === null) return element("div", "agui-blocked", "[image refused]");
      const img = element("img", "agui-file-image agui-rendered-image");
      img.alt = typeof data["text/plain"] === "string" ? label(data["text/plain"], 200) : "Rendered image";
      img.src = src;
      img.tabIndex = 0;
      img.title = "Open full size";
      return img;
    }
    if (mime === "application/json") {
      const pre = scrollRegion(element("pre", "agui-json"), "Output (JSON)");
      showJson(pre, prettyJson(value), value);
      return pre;
    }
    return element("pre", "agui-rendered-text", String(value));
  }

  /**
   * A live view of an ipywidget, through the page's widget manager (anywidget hands it to us as the model's).
   * @param {any} spec the widget-view mime data ({model_id}), unchecked
   * @param {unknown} text the bundle's text/plain
   */
  widgetElement(spec, text) {
    const box = element("div", "agui-rendered-widget");
    box.dataset.agui = "rendered-widget";
    const manager = this.context?.model?.widget_manager;
    const modelId = typeof spec?.model_id === "string" ? spec.model_id : null;
    const fallback = () => {
      box.dataset.state = "unavailable";
      box.replaceChildren(
        element("pre", "agui-rendered-text", typeof text === "string" ? text : "[widget]"),
        element("div", "agui-rendered-note", "A live widget: it shows where a Jupyter widget manager runs (JupyterLab, Notebook 7)."),
      );
    };
    if (!manager || typeof manager.get_model !== "function" || typeof manager.create_view !== "function" || !modelId) {
      fallback();
      return box;
    }
    box.dataset.state = "loading";
    const generation = this.generation;
    (async () => {
      const model = await manager.get_model(modelId);
      const view = await manager.create_view(model);
      if (generation !== this.generation) {
        view.remove?.();
        return;
      }
      box.replaceChildren(view.el);
      box.dataset.state = "live";
      view.trigger?.("displayed");
      this.cleanup = () => view.remove?.();
    })().catch((error) => {
      if (generation !== this.generation) return;
      fallback();
      box.dataset.state = "failed";
      box.title = errorText(error);
    });
    return box;
  }

  // ------------------------------------------------------------------ front-end renderers
  /** @param {UIPart} part @param {string} source the renderer's ES module */
  showFrontend(part, source) {
    const generation = ++this.generation;
    this.shownEntry = null;
    this.label.textContent = label(partName(part.type), 80);
    this.output.dataset.mime = "frontend";
    importModule(source)
      .then(async (/** @type {unknown} */ module) => {
        if (generation !== this.generation) return;
        const render = renderFunction(module);
        if (render === null) throw new Error("the renderer module exports no render function");
        this.runCleanup();
        const el = element("div", "agui-frontend-output");
        this.output.replaceChildren(el);
        const result = await render({ part: structuredClone(part), el });
        if (generation !== this.generation) {
          if (typeof result === "function") result();
          return;
        }
        this.cleanup = typeof result === "function" ? result : null;
        if (this.rendererFailed) {
          this.showError("");
          this.layout();
        }
      })
      .catch((/** @type {unknown} */ error) => {
        if (generation !== this.generation) return;
        console.error(`agui-notebook: the renderer for ${part.type} failed`, error);
        this.showError(errorText(error));
        this.layout();
      });
  }
}
