// @ts-check
// The shared-state panel: a collapsible bar under the header ("State · 12 keys · 2 changed") over a JSON tree of the
// `state` trait, with what the last update changed (the `state_changes` trait) marked: a short flash, and a lasting
// "changed in the last update" marker on the changed rows (added, replaced; removed keys show as struck-out rows)
// and a dot on the collapsed rows that hold a change. The panel is hidden while the state is null.
//
// The tree is built lazily: a row's children exist only while it is open, and at most PAGE of them at a time (a
// "Show more" row adds the next ones), so a state of 10,000 keys renders as fast as one of 200. Open rows are
// remembered by JSON Pointer across updates. Every value is set as text (strings are shown JSON-escaped).
import { button, element, icon, label } from "./dom.js";

export const PAGE = 200;
const STRING_PREVIEW = 160; // characters of a string shown before its "more" toggle
const AUTO_OPEN_LIMIT = 40; // changed paths whose ancestors open by themselves (more: only dots on the rows)
const FLASH_MS = 1600;

/**
 * The JSON Pointer (RFC 6901) of `tokens`.
 * @param {Array<string | number>} tokens
 * @returns {string}
 */
export function pointer(tokens) {
  return tokens.map((token) => `/${String(token).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** @param {string} path a JSON Pointer */
function parentOf(path) {
  return path.slice(0, path.lastIndexOf("/"));
}

/** @param {string} path a JSON Pointer */
function lastToken(path) {
  return path.slice(path.lastIndexOf("/") + 1).replace(/~1/g, "/").replace(/~0/g, "~");
}

/** @param {unknown} value @returns {value is Record<string, any>} an object or an array */
function isContainer(value) {
  return value !== null && typeof value === "object";
}

/** @param {object} value */
function sizeOf(value) {
  return Array.isArray(value) ? value.length : Object.keys(value).length;
}

/** @param {unknown} value */
function kindOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * The short text a collapsed container shows: `{3 keys}`, `[12 items]`.
 * @param {object} value
 */
function containerPreview(value) {
  const size = sizeOf(value);
  if (Array.isArray(value)) return `[${size} item${size === 1 ? "" : "s"}]`;
  return `{${size} key${size === 1 ? "" : "s"}}`;
}

/**
 * What changed in the state, from the `state_changes` trait.
 * @typedef {{byPath: Map<string, string>, within: Set<string>, seq: number, truncated: boolean, source: string}} Changes
 */

/**
 * Reads the `state_changes` trait: a map path -> op, the ancestors of changed paths, and the summary.
 * @param {any} value the trait, unchecked
 * @returns {Changes}
 */
export function readChanges(value) {
  /** @type {Map<string, string>} */
  const byPath = new Map();
  /** @type {Set<string>} */
  const within = new Set();
  const changes = value && Array.isArray(value.changes) ? value.changes : [];
  for (const change of changes) {
    if (!change || typeof change.path !== "string" || !["add", "replace", "remove"].includes(change.op)) continue;
    byPath.set(change.path, change.op);
    for (let path = change.path; path !== ""; ) {
      path = parentOf(path);
      within.add(path);
    }
  }
  const seq = value && Number.isInteger(value.seq) ? value.seq : 0;
  return { byPath, within, seq, truncated: value?.truncated === true, source: value?.source ?? "" };
}

export class StatePanel {
  /** @param {import("./anywidget.js").AnyModel} model */
  constructor(model) {
    this.model = model;
    this.open = false;
    this.expanded = new Set([""]); // JSON Pointers of open rows; the root is open
    /** @type {Set<string>} strings shown whole */
    this.fullStrings = new Set();
    /** @type {Map<string, number>} path -> how many children are shown */
    this.pages = new Map();
    /** @type {number | null} */
    this.seenSeq = null;
    this.el = element("section", "agui-state-panel");
    this.el.dataset.agui = "state-panel";
    this.el.hidden = true;
    this.toggle = button("state-toggle", "Show the shared state", { className: "agui-state-toggle" });
    this.toggle.setAttribute("aria-expanded", "false");
    this.toggle.append(icon("chevron"), icon("data"), element("span", "agui-state-title", "State"));
    this.summary = element("span", "agui-state-summary");
    this.summary.dataset.agui = "state-summary";
    this.toggle.append(this.summary);
    this.body = element("div", "agui-state-body");
    this.body.dataset.agui = "state-tree";
    this.body.setAttribute("role", "group");
    this.body.setAttribute("aria-label", "Shared state");
    this.body.hidden = true;
    this.toggle.addEventListener("click", () => this.setOpen(!this.open));
    this.body.addEventListener("click", (event) => this.onClick(event));
    this.el.append(this.toggle, this.body);
    this.onState = () => this.refresh();
    model.on("change:state", this.onState);
    model.on("change:state_changes", this.onState);
    this.refresh();
  }

  destroy() {
    clearTimeout(this.flashTimer);
    this.model.off("change:state", this.onState);
    this.model.off("change:state_changes", this.onState);
  }

  /** @param {boolean} open */
  setOpen(open) {
    this.open = open;
    this.toggle.setAttribute("aria-expanded", open ? "true" : "false");
    this.toggle.title = open ? "Hide the shared state" : "Show the shared state";
    // Named by what it shows ("State · 3 keys"), as a screen reader user hears it; aria-expanded says the rest.
    this.toggle.removeAttribute("aria-label");
    this.el.dataset.open = open ? "true" : "false";
    this.body.hidden = !open;
    if (open) this.render(false);
  }

  refresh() {
    const state = this.model.get("state");
    this.state = state === undefined ? null : state;
    this.changes = readChanges(this.model.get("state_changes"));
    const fresh = this.seenSeq !== null && this.changes.seq !== this.seenSeq;
    this.seenSeq = this.changes.seq;
    this.el.hidden = this.state === null;
    if (fresh && this.changes.byPath.size <= AUTO_OPEN_LIMIT) {
      // Open the way to what changed, so the marker is in sight.
      for (const path of this.changes.within) this.expanded.add(path);
    }
    this.updateSummary(fresh);
    if (this.open) this.render(fresh);
  }

  /** @param {boolean} fresh the state changed since the last refresh */
  updateSummary(fresh) {
    const state = this.state;
    let text = "";
    if (isContainer(state)) {
      const size = sizeOf(state);
      text = Array.isArray(state) ? `${size} item${size === 1 ? "" : "s"}` : `${size} key${size === 1 ? "" : "s"}`;
    } else if (state !== null) {
      text = kindOf(state);
    }
    const changed = this.changes.truncated ? "many" : String(this.changes.byPath.size);
    if (this.changes.byPath.size || this.changes.truncated) text += ` · ${changed} changed`;
    this.summary.textContent = text;
    this.el.dataset.changed = this.changes.byPath.size || this.changes.truncated ? "true" : "false";
    if (fresh) {
      this.el.classList.remove("agui-state-flash");
      void this.el.offsetWidth; // restart the animation
      this.el.classList.add("agui-state-flash");
      clearTimeout(this.flashTimer);
      this.flashTimer = setTimeout(() => {
        this.el.classList.remove("agui-state-flash");
        for (const row of this.body.querySelectorAll(".agui-state-flash")) row.classList.remove("agui-state-flash");
      }, FLASH_MS);
    }
  }

  /** @param {boolean} flash mark what changed */
  render(flash) {
    const started = performance.now();
    const root = element("div", "agui-state-root");
    if (this.changes.truncated) {
      root.append(element("div", "agui-state-note", "Too many changes to mark each one: the whole state changed."));
    }
    if (isContainer(this.state)) {
      this.children(this.state, "", root, flash);
    } else {
      root.append(this.row("", "", this.state, flash, true));
    }
    // A rebuild keeps the keyboard focus on the same control.
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focused = this.body.contains(active) ? active : null;
    this.body.replaceChildren(root);
    if (focused?.dataset.agui) this.refocus(focused.dataset.agui, focused.dataset.path ?? "");
    this.body.dataset.renderMs = String(Math.round(performance.now() - started));
  }

  /**
   * Rows for the children of `value` (at `path`), paged, with removed keys shown struck out.
   * @param {Record<string, any>} value
   * @param {string} path
   * @param {HTMLElement} parent
   * @param {boolean} flash
   */
  children(value, path, parent, flash) {
    const keys = Array.isArray(value) ? value.map((_, /** @type {number} */ index) => index) : Object.keys(value);
    const shown = Math.min(keys.length, this.pages.get(path) ?? PAGE);
    for (let index = 0; index < shown; index += 1) {
      const key = keys[index];
      const child = pointer([key]);
      this.subtree(String(key), path + child, value[key], parent, flash);
    }
    if (shown < keys.length) {
      const more = button("state-more", "Show more", {
        text: `Show ${Math.min(PAGE, keys.length - shown)} more (of ${keys.length})`,
        className: "agui-state-more",
      });
      more.dataset.path = path;
      parent.append(more);
    }
    for (const [changed, op] of this.changes.byPath) {
      if (op !== "remove" || parentOf(changed) !== path) continue;
      const key = lastToken(changed);
      const exists = Array.isArray(value) ? Number(key) < value.length : Object.hasOwn(value, key);
      if (!exists) parent.append(this.removedRow(key, changed, flash));
    }
  }

  /** @param {string} key @param {string} path @param {unknown} value @param {HTMLElement} parent @param {boolean} flash */
  subtree(key, path, value, parent, flash) {
    const open = isContainer(value) && this.expanded.has(path);
    parent.append(this.row(key, path, value, flash, open));
    if (open) {
      const group = element("div", "agui-state-group");
      this.children(value, path, group, flash);
      parent.append(group);
    }
  }

  /** @param {string} key @param {string} path @param {unknown} value @param {boolean} flash @param {boolean} open */
  row(key, path, value, flash, open) {
    const row = element("div", "agui-state-row");
    row.dataset.agui = "state-row";
    row.dataset.path = path;
    row.dataset.kind = kindOf(value);
    const op = this.changes.byPath.get(path);
    if (op) {
      row.dataset.change = op;
      row.title = op === "add" ? "Added in the last update" : "Changed in the last update";
      if (flash) row.classList.add("agui-state-flash");
    } else if (this.changes.within.has(path) && !open) {
      row.dataset.changedWithin = "true";
      row.title = "Something inside changed in the last update";
    }
    if (isContainer(value)) {
      const toggle = button("state-expand", open ? `Collapse ${label(key, 80)}` : `Expand ${label(key, 80)}`, {
        icon: icon("chevron"),
        className: "agui-state-expand",
      });
      toggle.dataset.path = path;
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      row.append(toggle);
    } else {
      row.append(element("span", "agui-state-leaf"));
    }
    if (path !== "") row.append(element("span", "agui-state-key", label(key, 200)), element("span", "agui-state-colon", ":"));
    row.append(this.valueView(path, value));
    return row;
  }

  /** @param {string} key @param {string} path @param {boolean} flash */
  removedRow(key, path, flash) {
    const row = element("div", "agui-state-row agui-state-removed");
    row.dataset.agui = "state-row";
    row.dataset.path = path;
    row.dataset.change = "remove";
    row.title = "Removed in the last update";
    if (flash) row.classList.add("agui-state-flash");
    row.append(
      element("span", "agui-state-leaf"),
      element("span", "agui-state-key", label(key, 200)),
      element("span", "agui-state-colon", ":"),
      element("span", "agui-state-value", "removed"),
    );
    return row;
  }

  /** @param {string} path @param {unknown} value */
  valueView(path, value) {
    const kind = kindOf(value);
    if (isContainer(value)) {
      return element("span", "agui-state-value agui-state-preview", containerPreview(value));
    }
    const el = element("span", `agui-state-value agui-tok-${kind === "string" ? "string" : kind === "number" ? "number" : "literal"}`);
    el.dataset.agui = "state-value";
    if (kind !== "string") {
      el.textContent = JSON.stringify(value) ?? String(value);
      return el;
    }
    const text = JSON.stringify(value);
    const whole = this.fullStrings.has(path);
    if (text.length <= STRING_PREVIEW || whole) {
      el.textContent = text;
      if (whole) el.append(this.stringToggle(path, "less"));
      return el;
    }
    el.textContent = `${text.slice(0, STRING_PREVIEW)}…`;
    el.append(this.stringToggle(path, `${(text.length - STRING_PREVIEW).toLocaleString()} more`));
    return el;
  }

  /** @param {string} path @param {string} text */
  stringToggle(path, text) {
    const toggle = button("state-string", text === "less" ? "Show less of the text" : "Show more of the text", {
      text,
      className: "agui-state-string-toggle",
    });
    toggle.dataset.path = path;
    return toggle;
  }

  /** @param {MouseEvent} event */
  onClick(event) {
    const target = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest?.("button[data-agui]"));
    if (!target || !this.body.contains(target)) return;
    const path = target.dataset.path ?? "";
    const hook = target.dataset.agui;
    if (hook === "state-expand") {
      if (this.expanded.has(path)) this.expanded.delete(path);
      else this.expanded.add(path);
    } else if (hook === "state-more") {
      this.pages.set(path, (this.pages.get(path) ?? PAGE) + PAGE);
    } else if (hook === "state-string") {
      if (this.fullStrings.has(path)) this.fullStrings.delete(path);
      else this.fullStrings.add(path);
    } else {
      return;
    }
    this.render(false);
    this.refocus(hook, path);
  }

  /** @param {string} hook @param {string} path */
  refocus(hook, path) {
    const again = /** @type {HTMLButtonElement | null} */ (this.body.querySelector(`button[data-agui="${hook}"][data-path="${CSS.escape(path)}"]`));
    again?.focus({ preventScroll: true });
  }
}
