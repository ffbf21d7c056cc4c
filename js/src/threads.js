// @ts-check
// The conversations a widget keeps (docs/widget.md, "Threads"): a header button showing the current thread's title
// opens a panel listing every thread (the `threads` trait, most recently updated first) with its title, when it
// was last updated and how long it is; a click opens one (`switch_thread`), and each row can be renamed in place
// (`rename_thread`) or deleted after a question asked in place (`delete_thread`). The panel says where the log is
// kept (the `store` trait). "New chat" (`new_thread`) keeps the conversation it leaves as a thread. While the agent
// answers, starting or opening another thread first asks whether to stop the answer, then sends `stop: true`.
//
// Keyboard: the button is a disclosure (aria-expanded; no aria-controls, as the widget sets no ids: agent-proof
// markup has none) for a non-modal dialog; opening it puts the focus on the
// current thread; Up/Down/Home/End move between threads, Left/Right between a row's buttons, Escape closes it and
// gives the focus back to the button. The view never changes a trait: it asks and shows what the kernel syncs.
import { button, element, icon, label } from "./dom.js";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "2 min ago", "3 h ago", "yesterday", "4 days ago", then the date; "" when `iso` is no date.
 *
 *     relativeTime("2026-12-01T12:00:00Z", Date.parse("2026-12-01T12:02:10Z")) === "2 min ago"
 *
 * @param {unknown} iso
 * @param {number} [now] ms since the epoch
 * @returns {string}
 */
export function relativeTime(iso, now = Date.now()) {
  const time = typeof iso === "string" ? Date.parse(iso) : NaN;
  if (Number.isNaN(time)) return "";
  const age = now - time;
  if (age < 45 * 1000) return "just now";
  if (age < HOUR) return `${Math.max(1, Math.round(age / MINUTE))} min ago`;
  if (age < DAY) return `${Math.round(age / HOUR)} h ago`;
  if (age < 2 * DAY) return "yesterday";
  if (age < 7 * DAY) return `${Math.floor(age / DAY)} days ago`;
  const date = new Date(time);
  const sameYear = date.getFullYear() === new Date(now).getFullYear();
  return date.toLocaleDateString(undefined, { day: "numeric", month: "short", ...(sameYear ? {} : { year: "numeric" }) });
}

/** @param {unknown} iso */
function fullDate(iso) {
  const time = typeof iso === "string" ? Date.parse(iso) : NaN;
  return Number.isNaN(time) ? "" : new Date(time).toLocaleString(undefined, { dateStyle: "full", timeStyle: "short" });
}

/** @param {number} turns */
function turnsText(turns) {
  if (!Number.isInteger(turns) || turns <= 0) return "No messages";
  return turns === 1 ? "1 turn" : `${turns} turns`;
}

/** @param {number} bytes */
function sizeText(bytes) {
  if (!Number.isFinite(bytes) || bytes < 0) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10240 ? 1 : 0)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * A conversation of the chat's log, as the `threads` trait lists it (`bytes` -1: not known).
 * @typedef {{id: string, title: string, updated: string, turns: number, bytes: number}} Thread
 */
/** @typedef {{kind: "file" | "memory", path: string, readOnly: boolean}} Store */

/**
 * The `threads` trait as a list of well-formed entries (anything else is left out).
 * @param {unknown} value
 * @returns {Thread[]}
 */
export function threadsFrom(value) {
  /** @type {Thread[]} */
  const threads = [];
  const seen = new Set();
  for (const entry of Array.isArray(value) ? value : []) {
    if (entry === null || typeof entry !== "object" || typeof entry.id !== "string" || entry.id === "") continue;
    if (seen.has(entry.id)) continue;
    seen.add(entry.id);
    threads.push({
      id: entry.id,
      title: typeof entry.title === "string" ? entry.title : "",
      updated: typeof entry.updated === "string" ? entry.updated : "",
      turns: Number.isInteger(entry.turns) ? entry.turns : 0,
      bytes: Number.isFinite(entry.bytes) ? entry.bytes : -1,
    });
  }
  return threads;
}

/**
 * The `store` trait, or null.
 * @param {any} value
 * @returns {Store | null}
 */
export function storeFrom(value) {
  if (value === null || typeof value !== "object") return null;
  const kind = value.kind === "file" ? "file" : value.kind === "memory" ? "memory" : null;
  if (kind === null) return null;
  return { kind, path: typeof value.path === "string" ? value.path : "", readOnly: value.readOnly === true };
}

/**
 * What a thread is called in the widget: its title, else a name that says what it is.
 * @param {Thread | null | undefined} thread
 * @returns {string}
 */
export function threadTitle(thread) {
  const title = label(thread?.title ?? "", 120).trim();
  if (title) return title;
  return thread && thread.turns > 0 ? "Untitled chat" : "New chat";
}

/**
 * An inline question with a confirming and a cancelling button (`hook` names it for tests). The focus goes to
 * `focus` ("confirm" or "cancel") once it is in the page; Escape cancels.
 * @param {{hook: string, text: string, confirm: string, danger?: boolean, focus?: "confirm" | "cancel",
 *   onConfirm: () => void, onCancel: () => void}} question
 * @returns {HTMLDivElement & {focusFirst: () => void}}
 */
export function confirmBox({ hook, text, confirm, danger = false, focus = "cancel", onConfirm, onCancel }) {
  const box = /** @type {HTMLDivElement & {focusFirst: () => void}} */ (element("div", "agui-confirm"));
  box.dataset.agui = hook;
  box.setAttribute("role", "group");
  const question = element("span", "agui-confirm-text", text);
  box.setAttribute("aria-label", text);
  const cancel = button(`${hook}-cancel`, "Cancel", { text: "Cancel", className: "agui-button agui-secondary" });
  const ok = button(`${hook}-confirm`, confirm, {
    text: confirm,
    className: `agui-button ${danger ? "agui-danger" : "agui-primary"}`,
  });
  cancel.addEventListener("click", () => onCancel());
  ok.addEventListener("click", () => onConfirm());
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    onCancel();
  });
  const buttons = element("span", "agui-confirm-buttons");
  buttons.append(cancel, ok);
  box.append(question, buttons);
  box.focusFirst = () => (focus === "confirm" ? ok : cancel).focus({ preventScroll: true });
  return box;
}

/**
 * One thread's row in the menu: its elements, and the thread it shows.
 * @typedef {{li: HTMLLIElement, open: HTMLButtonElement, title: HTMLSpanElement, meta: HTMLSpanElement,
 *   time: HTMLTimeElement, turns: HTMLSpanElement, rename: HTMLButtonElement, remove: HTMLButtonElement,
 *   actions: HTMLSpanElement, thread: Thread | null}} Row
 */
/**
 * What the menu asks of the chat view.
 * @typedef {{root: HTMLElement, header: HTMLElement, send: (message: object) => boolean,
 *   newThread: (options?: {from?: string}) => void, switchThread: (thread: Thread, options?: {row?: Row}) => void}} MenuChat
 */

export class ThreadMenu {
  /** @param {MenuChat} chat the chat view */
  constructor(chat) {
    this.chat = chat;
    /** @type {Thread[]} */
    this.threads = [];
    this.threadId = "";
    /** @type {Store | null} */
    this.store = null;
    this.readOnlyView = false;
    /** @type {Map<string, Row>} thread id -> its row */
    this.rows = new Map();
    /** @type {string | null} id of the row being renamed */
    this.renaming = null;
    /** @type {{id: string | null, box: HTMLElement & {focusFirst: () => void}, where: HTMLElement} | null} a row's (or the head's) confirmation shown */
    this.question = null;

    this.button = element("button", "agui-thread-button");
    this.button.type = "button";
    this.button.dataset.agui = "thread-menu";
    this.button.setAttribute("aria-haspopup", "dialog");
    this.button.setAttribute("aria-expanded", "false");
    this.buttonTitle = element("span", "agui-thread-button-title");
    this.button.append(icon("chats"), this.buttonTitle, icon("chevron"));
    this.button.hidden = true;
    this.button.addEventListener("click", () => (this.isOpen ? this.close(true) : this.open()));

    this.panel = element("div", "agui-thread-panel");
    this.panel.dataset.agui = "thread-panel";
    this.panel.setAttribute("role", "dialog");
    this.panel.setAttribute("aria-label", "Chats");
    this.panel.hidden = true;
    const head = element("div", "agui-thread-head");
    head.append(element("span", "agui-thread-heading", "Chats"));
    this.newButton = button("thread-new", "Start a new chat (this one is kept)", {
      icon: icon("compose"),
      text: "New chat",
      className: "agui-button agui-ghost agui-thread-new",
    });
    this.newButton.addEventListener("click", () => this.chat.newThread({ from: "menu" }));
    head.append(this.newButton);
    this.head = head;
    this.list = element("ul", "agui-thread-list");
    this.list.dataset.agui = "thread-list";
    this.list.setAttribute("aria-label", "Chats, most recent first");
    this.empty = element("div", "agui-thread-empty", "No saved chats yet.");
    this.storeEl = element("div", "agui-thread-store");
    this.storeEl.dataset.agui = "thread-store";
    this.panel.append(head, this.list, this.empty, this.storeEl);
    this.panel.addEventListener("keydown", (event) => this.onKeydown(event));
    this.list.addEventListener("click", (event) => this.onClick(event));

    this.onOutside = (/** @type {Event} */ event) => {
      const path = event.composedPath?.() ?? [];
      if (!path.includes(this.panel) && !path.includes(this.button)) this.close(false);
    };
  }

  get isOpen() {
    return !this.panel.hidden;
  }

  /** Whether there is a menu to show (the kernel keeps threads). */
  get available() {
    return this.threadId !== "" || this.threads.length > 0;
  }

  /** @param {{threads: unknown, threadId: unknown, store: unknown, readOnlyView: unknown}} traits */
  update({ threads, threadId, store, readOnlyView }) {
    this.threads = threadsFrom(threads);
    this.threadId = typeof threadId === "string" ? threadId : "";
    this.store = storeFrom(store);
    this.readOnlyView = readOnlyView === true;
    const current = this.threads.find((thread) => thread.id === this.threadId);
    const title = current ? threadTitle(current) : "New chat";
    this.buttonTitle.textContent = title;
    this.button.title = `${title}: switch, rename or delete chats`;
    this.button.hidden = !this.available;
    this.panel.dataset.readOnly = this.readOnlyView ? "true" : "false";
    if (!this.available && this.isOpen) this.close(false);
    if (this.isOpen) this.renderList();
  }

  open() {
    if (!this.available || this.isOpen) return;
    this.panel.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    this.chat.root.dataset.threadMenu = "open";
    this.renderList();
    this.place();
    document.addEventListener("pointerdown", this.onOutside, true);
    const row = this.rows.get(this.threadId) ?? this.rows.values().next().value;
    (row?.open ?? this.newButton).focus({ preventScroll: true });
  }

  /**
   * Close the panel; `refocus` gives the focus back to the button.
   * @param {boolean} refocus
   */
  close(refocus) {
    if (!this.isOpen) return;
    this.panel.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    delete this.chat.root.dataset.threadMenu;
    document.removeEventListener("pointerdown", this.onOutside, true);
    this.renaming = null;
    this.dropQuestion();
    if (refocus) this.button.focus({ preventScroll: true });
  }

  /** Under the header, on the button's side, inside the widget. */
  place() {
    const root = this.chat.root;
    const header = this.chat.header;
    const top = header.offsetTop + header.offsetHeight + 4;
    this.panel.style.top = `${top}px`;
    this.panel.style.maxHeight = `${Math.max(200, root.clientHeight - top - 8)}px`;
    const width = Math.min(360, root.clientWidth - 16);
    this.panel.style.width = `${width}px`;
    const left = Math.min(Math.max(8, this.button.offsetLeft), root.clientWidth - width - 8);
    this.panel.style.left = `${Math.max(8, left)}px`;
  }

  renderList() {
    const now = Date.now();
    const keep = new Set();
    const writable = !this.readOnlyView && !this.store?.readOnly;
    let previous = null;
    for (const thread of this.threads) {
      keep.add(thread.id);
      let row = this.rows.get(thread.id);
      if (row === undefined) {
        row = this.buildRow(thread.id);
        this.rows.set(thread.id, row);
      }
      const title = threadTitle(thread);
      const current = thread.id === this.threadId;
      row.thread = thread;
      row.li.dataset.current = current ? "true" : "false";
      row.title.textContent = title;
      row.time.textContent = relativeTime(thread.updated, now);
      row.time.title = fullDate(thread.updated);
      row.time.dateTime = thread.updated;
      row.turns.textContent = turnsText(thread.turns);
      const size = sizeText(thread.bytes);
      row.turns.title = size ? `${turnsText(thread.turns)}, ${size} in the log` : "";
      if (current) row.open.setAttribute("aria-current", "true");
      else row.open.removeAttribute("aria-current");
      row.rename.setAttribute("aria-label", `Rename “${title}”`);
      row.rename.title = `Rename “${title}”`;
      row.remove.setAttribute("aria-label", `Delete “${title}”`);
      row.remove.title = `Delete “${title}”`;
      row.rename.hidden = !writable;
      row.remove.hidden = !writable;
      // In order, moving only what is out of place (the focus stays where it is).
      const where = /** @type {ChildNode | null} */ (previous === null ? this.list.firstChild : previous.nextSibling);
      if (where !== row.li) this.list.insertBefore(row.li, where);
      previous = row.li;
    }
    for (const [id, row] of this.rows) {
      if (keep.has(id)) continue;
      const hadFocus = row.li.contains(document.activeElement);
      row.li.remove();
      this.rows.delete(id);
      if (this.renaming === id) this.renaming = null;
      if (this.question?.id === id) this.question = null;
      if (hadFocus) this.button.focus({ preventScroll: true });
    }
    this.empty.hidden = this.threads.length > 0;
    this.newButton.hidden = this.readOnlyView;
    this.renderStore();
  }

  renderStore() {
    const store = this.store;
    this.storeEl.replaceChildren();
    this.storeEl.hidden = store === null;
    if (store === null) return;
    this.storeEl.dataset.kind = store.kind;
    this.storeEl.dataset.readOnly = store.readOnly ? "true" : "false";
    if (store.kind === "file" && store.path) {
      const line = element("div", "agui-thread-store-line");
      const path = element("code", "agui-thread-store-path", label(store.path, 300));
      path.title = label(store.path, 1000);
      const text = element("span", "", "Saved in ");
      text.append(path);
      line.append(icon("file"), text);
      this.storeEl.append(line);
    } else {
      const line = element("div", "agui-thread-store-line");
      line.append(icon("data"), element("span", "", "Kept in this kernel's memory only"));
      this.storeEl.append(line);
    }
    if (store.readOnly) {
      const line = element("div", "agui-thread-store-line agui-thread-store-readonly");
      line.append(icon("lock"), element("span", "", "Read-only: open in another kernel"));
      this.storeEl.append(line);
    }
  }

  /** @param {string} id @returns {Row} */
  buildRow(id) {
    const li = element("li", "agui-thread");
    li.dataset.threadId = id;
    li.dataset.agui = "thread";
    const open = element("button", "agui-thread-open");
    open.type = "button";
    open.dataset.agui = "thread-open";
    const title = element("span", "agui-thread-title");
    const meta = element("span", "agui-thread-meta");
    const time = element("time", "agui-thread-time");
    const turns = element("span", "agui-thread-turns");
    const dot = element("span", "agui-thread-dot", "·");
    dot.setAttribute("aria-hidden", "true");
    meta.append(time, dot, turns); // the button's name: its title, time and size as shown (aria-current: which)
    const check = icon("check");
    check.classList.add("agui-thread-check");
    open.append(check, title, meta);
    const rename = button("thread-rename", "Rename", { icon: icon("pencil"), className: "agui-icon-button" });
    const remove = button("thread-delete", "Delete", { icon: icon("trash"), className: "agui-icon-button agui-thread-delete" });
    const actions = element("span", "agui-thread-actions");
    actions.append(rename, remove);
    li.append(open, actions);
    return { li, open, title, meta, time, turns, rename, remove, actions, thread: null };
  }

  /** @param {MouseEvent} event */
  onClick(event) {
    const target = /** @type {Element} */ (event.target).closest?.("button");
    const li = /** @type {HTMLElement | null} */ (target?.closest("li.agui-thread"));
    const row = li ? this.rows.get(li.dataset.threadId) : undefined;
    if (row === undefined) return;
    if (target === row.open) this.chat.switchThread(row.thread, { row });
    else if (target === row.rename) this.startRename(row);
    else if (target === row.remove) this.askDelete(row);
  }

  /** @param {Row} row */
  startRename(row) {
    if (this.renaming !== null) return;
    this.dropQuestion();
    this.renaming = row.thread.id;
    const input = element("input", "agui-thread-rename-input");
    input.type = "text";
    input.dataset.agui = "thread-title-input";
    input.value = row.thread.title || "";
    input.maxLength = 200;
    input.setAttribute("aria-label", `New title for “${threadTitle(row.thread)}”. Enter saves, Escape cancels`);
    input.placeholder = threadTitle(row.thread);
    row.li.dataset.renaming = "true";
    row.open.hidden = true;
    row.actions.hidden = true;
    row.li.prepend(input);
    const finish = (/** @type {boolean} */ save) => {
      if (this.renaming !== row.thread.id) return;
      const title = input.value.trim();
      this.renaming = null;
      input.remove();
      row.open.hidden = false;
      row.actions.hidden = false;
      delete row.li.dataset.renaming;
      if (save && title !== "" && title !== row.thread.title) {
        this.chat.send({ kind: "rename_thread", threadId: row.thread.id, title });
        row.title.textContent = label(title, 120); // until the kernel's list says so
      }
      (save ? row.open : row.rename).focus({ preventScroll: true });
    };
    input.addEventListener("keydown", (event) => {
      if (event.isComposing || event.keyCode === 229) return;
      if (event.key === "Enter") {
        event.preventDefault();
        finish(true);
      } else if (event.key === "Escape") {
        event.preventDefault();
        finish(false);
      }
    });
    input.addEventListener("blur", () => finish(false));
    input.focus({ preventScroll: true });
    input.select();
  }

  /** @param {Row} row */
  askDelete(row) {
    this.dropQuestion();
    const title = threadTitle(row.thread);
    const box = confirmBox({
      hook: "thread-delete-question",
      text: `Delete “${title}”? Its messages and events are removed from the log.`,
      confirm: "Delete",
      danger: true,
      onConfirm: () => {
        this.dropQuestion();
        this.chat.send({ kind: "delete_thread", threadId: row.thread.id });
        this.close(true); // the focus goes back to the menu button
      },
      onCancel: () => {
        this.dropQuestion();
        row.remove.focus({ preventScroll: true });
      },
    });
    this.ask(row, box);
  }

  /**
   * Ask in place of a row (or of the panel's head when `row` is null).
   * @param {Row | null} row
   * @param {HTMLElement & {focusFirst: () => void}} box
   */
  ask(row, box) {
    this.dropQuestion();
    const where = row === null ? this.head : row.li;
    where.dataset.asking = "true";
    where.append(box);
    this.question = { id: row?.thread.id ?? null, box, where };
    box.focusFirst();
  }

  dropQuestion() {
    if (this.question === null) return;
    this.question.box.remove();
    delete this.question.where.dataset.asking;
    this.question = null;
  }

  /**
   * The row's buttons and the head's New chat, in order, for arrow keys.
   * @param {KeyboardEvent} event
   */
  onKeydown(event) {
    if (event.defaultPrevented) return;
    if (event.key === "Escape") {
      event.preventDefault();
      this.close(true);
      return;
    }
    const target = /** @type {HTMLElement | null} */ (event.target);
    if (target?.tagName === "INPUT") return;
    const rows = [...this.rows.values()].filter((row) => row.li.isConnected && !row.open.hidden);
    rows.sort((a, b) => (a.li.compareDocumentPosition(b.li) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    const at = rows.findIndex((row) => row.li.contains(target));
    let next = null;
    if (event.key === "ArrowDown") next = rows[at < 0 ? 0 : Math.min(at + 1, rows.length - 1)]?.open;
    else if (event.key === "ArrowUp") next = at <= 0 ? (this.newButton.hidden ? rows[0]?.open : this.newButton) : rows[at - 1].open;
    else if (event.key === "Home") next = rows[0]?.open;
    else if (event.key === "End") next = rows[rows.length - 1]?.open;
    else if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && at >= 0) {
      const controls = [rows[at].open, rows[at].rename, rows[at].remove].filter((node) => !node.hidden);
      const here = controls.indexOf(/** @type {HTMLButtonElement} */ (target));
      if (here >= 0) next = controls[Math.min(Math.max(here + (event.key === "ArrowRight" ? 1 : -1), 0), controls.length - 1)];
    }
    if (next) {
      event.preventDefault();
      next.focus({ preventScroll: true });
    }
  }

  destroy() {
    document.removeEventListener("pointerdown", this.onOutside, true);
  }
}
