// @ts-check
// Edit and branches on a message: the pencil of a user message (which opens the inline editor), the ‹ 1/2 ›
// picker where the conversation forked, and the requests they send (`edit`, `select_branch`; docs/widget.md).
// The kernel owns the message tree: a view only shows the `branch_points` trait ({at, index, count} for each
// message that has alternatives) and asks; it never changes its messages itself.
import { button, element, icon } from "./dom.js";
import { InlineEditor } from "./editor.js";
import { BUSY_STATUSES } from "./sync.js";

/** @typedef {import("./sync.js").UIMessage} UIMessage */
/** @typedef {{index: number, count: number}} BranchPoint which of `count` versions a message shows */
/**
 * The message view that owns a MessageBranches (message_view.js), as far as this module uses it.
 * @typedef {{el: HTMLElement, body: HTMLElement, footer: HTMLElement, role: string | null,
 *   message: UIMessage | null, chat: BranchesChat, branches: MessageBranches}} BranchesView
 */
/**
 * The chat view (chat_view.js), as far as this module uses it; `branchFocus`, `editing` and `branchesShown` are
 * this module's notes on it.
 * @typedef {{views: BranchesView[], state: {status: string}, send: (message: object) => boolean,
 *   followBottom: () => void, branchFocus?: {at: number, which: "previous" | "next"} | null,
 *   editing?: Set<BranchesView>, branchesShown?: {points: Map<number, BranchPoint>, busy: boolean, views: number}}} BranchesChat
 */

/** @type {Map<number, BranchPoint>} */
const NO_POINTS = new Map();

/**
 * The `branch_points` trait as a Map from message place to {index, count}; anything malformed is left out.
 * @param {unknown} value
 * @returns {Map<number, BranchPoint>}
 */
export function branchPointsFrom(value) {
  /** @type {Map<number, BranchPoint>} */
  const points = new Map();
  for (const point of Array.isArray(value) ? value : []) {
    const { at, index, count } = point ?? {};
    if (![at, index, count].every(Number.isInteger) || at < 0 || count < 2 || index < 0 || index >= count) continue;
    points.set(at, { index, count });
  }
  return points;
}

/** @param {UIMessage | null} message */
function messageText(message) {
  const parts = Array.isArray(message?.parts) ? message.parts : [];
  return parts
    .filter((part) => part?.type === "text" && typeof part.text === "string")
    .map((part) => /** @type {string} */ (part.text))
    .join("\n\n");
}

/** @param {UIMessage | null} message */
function hasOtherParts(message) {
  const parts = Array.isArray(message?.parts) ? message.parts : [];
  return parts.some((part) => part?.type !== "text" && part?.type !== "step-start");
}

function buildPicker() {
  const picker = element("span", "agui-branch-picker");
  picker.dataset.agui = "branch-picker";
  picker.setAttribute("role", "group");
  const previous = button("branch-previous", "Previous version", {
    icon: icon("chevron"),
    className: "agui-icon-button agui-branch-previous",
  });
  const count = element("span", "agui-branch-count");
  count.dataset.agui = "branch-count";
  const next = button("branch-next", "Next version", { icon: icon("chevron"), className: "agui-icon-button" });
  picker.append(previous, count, next);
  picker.hidden = true;
  return picker;
}

/** One message's pencil, editor and picker (a MessageView owns one). */
export class MessageBranches {
  /** @param {BranchesView} view */
  constructor(view) {
    this.view = view;
    this.point = null;
    this.busy = false;
    this.editor = null;
    this.editing = null; // the message being edited
    this.pencil = button("edit", "Edit message", { icon: icon("pencil"), className: "agui-icon-button" });
    this.pencil.hidden = true;
    this.pencil.addEventListener("click", () => this.openEditor());
    this.picker = buildPicker();
    const [previous, count, next] = /** @type {HTMLCollectionOf<HTMLElement>} */ (this.picker.children);
    this.previous = previous;
    this.count = count;
    this.next = next;
    this.previous.addEventListener("click", () => this.select(-1));
    this.next.addEventListener("click", () => this.select(1));
    const actions = view.footer.lastElementChild;
    actions.prepend(this.picker, this.pencil);
  }

  /**
   * After the message rendered: the pencil for user messages; an editor of another message closes.
   * @param {UIMessage | null} message
   */
  render(message) {
    const user = this.view.role === "user";
    if (this.pencil.hidden === user) this.pencil.hidden = !user;
    if (this.editor !== null && (message?.id !== this.editing?.id || !user)) this.closeEditor(false);
  }

  /**
   * The picker for this message's fork and whether the agent is busy.
   * @param {BranchPoint | null} point
   * @param {boolean} busy
   */
  show(point, busy) {
    if (this.busy === busy && this.point?.index === point?.index && this.point?.count === point?.count) return;
    this.point = point;
    this.busy = busy;
    this.picker.hidden = point === null;
    this.view.el.dataset.branched = point === null ? "false" : "true";
    if (point !== null) {
      const { index, count } = point;
      this.count.textContent = `${index + 1}/${count}`;
      this.picker.setAttribute("aria-label", `Version ${index + 1} of ${count}`);
      // aria-disabled, not disabled: the button keyboard users just pressed keeps the focus at an end.
      this.previous.setAttribute("aria-disabled", busy || index === 0 ? "true" : "false");
      this.next.setAttribute("aria-disabled", busy || index === count - 1 ? "true" : "false");
    }
    // The pencil is not disabled here: this is called only for forks and new views (not every message when the
    // status changes), and the stylesheet hides every pencil while the agent answers; openEditor checks too.
    this.editor?.setBusy(busy);
  }

  place() {
    return this.view.chat.views.indexOf(this.view);
  }

  target() {
    return { messageId: this.view.el.dataset.messageId ?? "", at: this.place() };
  }

  /** @param {number} step -1 or 1 */
  select(step) {
    if (this.point === null || BUSY_STATUSES.has(this.view.chat.state.status)) return;
    const index = this.point.index + step;
    if (index < 0 || index >= this.point.count) return;
    const chat = this.view.chat;
    if (!chat.send({ kind: "select_branch", ...this.target(), index })) return;
    // The snapshot that follows re-renders the message: the focus stays on this button (chat_view.js).
    chat.branchFocus = { at: this.place(), which: step < 0 ? "previous" : "next" };
  }

  openEditor() {
    const chat = this.view.chat;
    this.busy = BUSY_STATUSES.has(chat.state.status);
    if (this.busy || this.editor !== null) return;
    (chat.editing ??= new Set()).add(this.view); // its busy state follows the chat's (showBranchPoints)
    const message = this.view.message;
    this.editing = message;
    this.editor = new InlineEditor({
      text: messageText(message),
      hasOtherParts: hasOtherParts(message),
      onSave: (text) => this.save(text),
      onCancel: () => this.closeEditor(true),
    });
    this.editor.setBusy(this.busy);
    this.view.el.dataset.editing = "true";
    this.view.body.after(this.editor.el);
    this.editor.focus();
  }

  /** @param {string} text */
  save(text) {
    const chat = this.view.chat;
    if (BUSY_STATUSES.has(chat.state.status)) return;
    if (!chat.send({ kind: "edit", ...this.target(), text })) return; // not connected: keep what was typed
    this.closeEditor(false);
    chat.followBottom();
  }

  /** @param {boolean} refocus */
  closeEditor(refocus) {
    if (this.editor === null) return;
    this.editor.el.remove();
    this.editor = null;
    this.editing = null;
    this.view.chat.editing?.delete(this.view);
    delete this.view.el.dataset.editing;
    if (refocus && !this.pencil.hidden) this.pencil.focus({ preventScroll: true });
  }
}

/**
 * Show the `branch_points` of `chat` on its message views, when they, the views or the busy state changed: only
 * the views at a fork (before or now) and views new since the last call are visited, not every message.
 * @param {BranchesChat} chat
 * @param {Map<number, BranchPoint>} [points]
 */
export function showBranchPoints(chat, points = NO_POINTS) {
  const busy = BUSY_STATUSES.has(chat.state.status);
  const shown = chat.branchesShown ?? { points: NO_POINTS, busy: false, views: 0 };
  const views = chat.views.length;
  if (shown.points !== points || shown.busy !== busy) {
    const visit = new Set([...shown.points.keys(), ...points.keys()]);
    if (shown.busy !== busy) for (const view of chat.editing ?? []) visit.add(chat.views.indexOf(view));
    for (const at of visit) if (at >= 0 && at < views) chat.views[at].branches.show(points.get(at) ?? null, busy);
  }
  for (let at = Math.min(shown.views, views); at < views; at += 1) chat.views[at].branches.show(points.get(at) ?? null, busy);
  chat.branchesShown = { points, busy, views };
}
