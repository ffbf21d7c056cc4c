// @ts-check
// One rendered view of a ChatWidget model: owns its copy of the messages, applies the sync protocol (sync.js),
// and renders on animation frames only what the applied ops touched. The conversation comes only from the kernel's
// custom messages: a view asks for a snapshot (`resync`) when it mounts and shows nothing of it until it comes.
//
// Cost per delta is independent of the conversation's length: a patch marks the messages it touched and only
// those re-render; messages sit in groups (message_groups.js) that the browser skips while off screen and that
// are taken out of layout far above the view, so a frame's style, layout and paint work is about the newest
// messages, not all of them.
import { AttentionCue } from "./attention.js";
import { branchPointsFrom, showBranchPoints } from "./branches.js";
import { Composer, EmptyState } from "./composer.js";
import { Connection, hideStaticCopyBeside, NOT_SENT } from "./connection.js";
import { button, element, icon, label } from "./dom.js";
import { FrameScheduler } from "./frame.js";
import { keyLeavesWidget } from "./keys.js";
import { MessageGroups } from "./message_groups.js";
import { MessageView } from "./message_view.js";
import { renderedMessageIds } from "./parts/rendered.js";
import { StatePanel } from "./state_panel.js";
import { injectStyles } from "./styles.js";
import { BUSY_STATUSES, PatchSync } from "./sync.js";
import { confirmBox, threadTitle, ThreadMenu } from "./threads.js";

const THEMES = new Set(["auto", "light", "dark"]);
const KEY_EVENTS = ["keydown", "keyup", "keypress"];
// What a card's "first control" is: the fields and buttons a user answers it with.
const CARD_CONTROLS =
  ":is(.agui-approval-controls, .agui-interrupt-body, .agui-interrupt-controls) :is(input, textarea, select, button):not([disabled]):not([type=hidden])";
// How close to the bottom (px) the list must be for new content to keep it scrolled to the bottom.
const STICK_PX = 48;
// Cards that wait for the user: a tool call to approve, an interrupt form (still open, or expired: to dismiss).
const PENDING_CARDS =
  '[data-tool-state="approval-requested"], [data-part-type="data-interrupt"]:is([data-status="open"], [data-status="expired"])';
const TRAITS = [
  "title",
  "placeholder",
  "height",
  "show_reasoning",
  "theme",
  "error_details",
  "warnings",
  "suggestions",
  "replay_only",
  "branch_points",
  "threads",
  "thread_id",
  "store",
  "context_sent",
];

/** @typedef {import("./sync.js").UIMessage} UIMessage */

/** @param {unknown} a @param {unknown} b */
function sameJson(a, b) {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

/**
 * Keep the objects of `old` equal to their counterparts in `next`, so unchanged messages and parts are not redrawn.
 * @param {UIMessage | undefined} old
 * @param {UIMessage} next
 * @returns {UIMessage}
 */
export function mergeMessage(old, next) {
  if (old === undefined || old === null) return next;
  if (sameJson(old, next)) return old;
  if (old.id !== next.id || !Array.isArray(old.parts) || !Array.isArray(next.parts)) return next;
  const parts = next.parts.map((part, /** @type {number} */ index) =>
    index < old.parts.length && sameJson(old.parts[index], part) ? old.parts[index] : part,
  );
  return { ...next, parts };
}

/**
 * A message object to render, whatever the snapshot holds (the kernel validates; this only keeps the view alive).
 * @param {unknown} value
 * @returns {UIMessage}
 */
export function asMessage(value) {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return value;
  return { id: "", role: "system", parts: [{ type: "invalid-message", value: value ?? null }] };
}

/** @param {unknown} value the height trait @returns {string} a CSS length, "" for none */
function cssSize(value) {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return `${value}px`;
  if (typeof value === "string" && value.trim() !== "" && value.trim() !== "auto") return value.trim();
  return "";
}

export class ChatView {
  /**
   * @param {import("./anywidget.js").AnyModel} model
   * @param {HTMLElement} host the element anywidget renders into
   */
  constructor(model, host) {
    this.model = model;
    /** @type {import("./sync.js").ConversationState} */
    this.state = {
      messages: [],
      status: typeof model.get("status") === "string" ? model.get("status") : "ready",
      error: typeof model.get("error") === "string" ? model.get("error") : "",
      threadId: null,
    };
    // A branch picker's button (branches.js) that was pressed: it keeps the focus once the snapshot is drawn.
    this.branchFocus = null;
    this.loaded = false; // whether a snapshot came: until then nothing of the conversation shows
    this.sync = new PatchSync((message) => this.send(message));
    /** @type {MessageView[]} by message index */
    this.views = [];
    /** @type {Set<number>} indexes of the messages to draw again */
    this.dirty = new Set();
    this.dirtyAll = false;
    this.statusDirty = true;
    this.lastIndex = -1;
    this.stick = true;
    /** @type {Map<string, Omit<import("./parts/part_view.js").PartContext, "remote" | "model">>} role -> the part context */
    this.contexts = new Map();
    this.attention = new AttentionCue(model);
    this.frame = new FrameScheduler(() => this.render());
    this.connection = new Connection(model, host, () => {
      this.statusDirty = true;
      // A view that mounted while the kernel could not be reached asks once it can.
      if (!this.loaded && this.resyncUnsent && this.connection.live) this.askForConversation(true);
      this.frame.request();
    });
    this.build();
    this.listen();
    for (const trait of TRAITS) this.applyTrait(trait);
    injectStyles(host);
    hideStaticCopyBeside(host);
    host.append(this.root);
    this.render();
    this.askForConversation(false);
  }

  /**
   * Ask the kernel for the conversation (every mount does: the `messages` trait is not synced).
   * @param {boolean} force
   */
  askForConversation(force) {
    this.resyncUnsent = !this.sync.requestResync("mounted", { force }) && !this.connection.live;
  }

  build() {
    this.root = element("div", "agui-chat");
    this.root.dataset.loaded = "false";
    this.header = element("div", "agui-header");
    this.titleEl = element("div", "agui-title");
    this.titleEl.dataset.agui = "title";
    this.threadMenu = new ThreadMenu(this);
    this.header.append(this.titleEl, this.threadMenu.button);
    this.list = element("div", "agui-messages");
    this.list.setAttribute("role", "log");
    this.list.setAttribute("aria-live", "polite");
    this.list.dataset.agui = "messages";
    // The run's error: its text, and the traceback behind it in a collapsed "Details" view.
    this.banner = element("div", "agui-error-banner");
    this.banner.dataset.agui = "error";
    this.banner.setAttribute("role", "alert");
    this.banner.hidden = true;
    this.errorText = element("span", "agui-error-text");
    this.errorText.dataset.agui = "error-text";
    this.details = element("details", "agui-error-details");
    this.details.dataset.agui = "error-details";
    this.details.hidden = true;
    this.detailsText = element("pre", "agui-error-trace");
    this.details.append(element("summary", "", "Details"), this.detailsText);
    // A failed run can be tried again (the failed answer is dropped, as Regenerate does).
    this.retryButton = button("retry", "Retry: run the agent again on the same conversation", {
      text: "Retry",
      className: "agui-button agui-secondary agui-retry",
    });
    this.retryButton.hidden = true;
    this.retryButton.addEventListener("click", () => this.regenerate());
    this.banner.append(this.errorText, this.retryButton, this.details);
    // Problems the run survived (unknown event types, ...), under its message.
    this.warningsEl = element("div", "agui-run-warnings");
    this.warningsEl.dataset.agui = "run-warnings";
    this.warningsEl.hidden = true;
    this.composer = new Composer(this);
    this.emptyState = new EmptyState(this.composer);
    this.empty = this.emptyState.el;
    this.statePanel = new StatePanel(this.model);
    // Until the kernel's snapshot comes: a quiet line (shown only if it takes a moment), no empty state.
    this.loading = element("div", "agui-loading", "Loading the conversation…");
    this.loading.dataset.agui = "loading";
    this.loading.setAttribute("role", "status");
    this.empty.hidden = true;
    this.root.append(this.header, this.statePanel.el, this.list, this.banner, this.composer.el, this.threadMenu.panel);
    this.list.append(this.loading, this.empty, this.warningsEl);
    this.groups = new MessageGroups(this.list, this.warningsEl);
  }

  /** @param {unknown} value the warnings trait */
  showWarnings(value) {
    const warnings = Array.isArray(value) ? value.filter((/** @type {unknown} */ w) => typeof w === "string") : [];
    this.warningsEl.replaceChildren(
      ...warnings.map((text) => {
        const line = element("div", "agui-run-warning");
        line.dataset.agui = "run-warning";
        line.append(icon("alert"), element("span", "", label(text, 1000)));
        return line;
      }),
    );
    this.warningsEl.hidden = warnings.length === 0;
  }

  listen() {
    /** @type {Record<string, (...args: any[]) => void>} model event -> handler */
    this.handlers = {
      "msg:custom": (/** @type {unknown} */ message) => this.receive(message),
      "change:status": () => {
        this.state.status = String(this.model.get("status") ?? "ready");
        this.statusDirty = true;
        this.frame.request();
      },
      "change:error": () => {
        this.state.error = String(this.model.get("error") ?? "");
        this.statusDirty = true;
        this.frame.request();
      },
    };
    for (const trait of TRAITS) this.handlers[`change:${trait}`] = () => this.applyTrait(trait);
    // Renderers' outputs (parts/rendered.js): the messages whose outputs changed look at their parts again (a
    // Python renderer's output changes while its part streams); a change of the renderers themselves: all do.
    this.renderVersion = 0;
    this.handlers["change:rendered"] = () => {
      const ids = renderedMessageIds(this.model);
      if (ids.size === 0) return;
      this.renderVersion += 1;
      this.state.messages.forEach((message, index) => {
        if (ids.has(typeof message?.id === "string" ? message.id : "")) this.dirty.add(index);
      });
      this.frame.request();
    };
    for (const trait of ["frontend_renderers", "builtin_renderers"]) {
      this.handlers[`change:${trait}`] = () => {
        this.renderVersion += 1;
        this.dirtyAll = true;
        this.frame.request();
      };
    }
    for (const [event, handler] of Object.entries(this.handlers)) this.model.on(event, handler);
    // Keys typed in the widget are the widget's (notebook command-mode shortcuts must not see them); shortcuts
    // with Ctrl/Cmd/Alt go on to JupyterLab (Ctrl+S saves), except text editing and keys the widget used (keys.js).
    this.onKey = (/** @type {Event} */ event) => {
      if (!keyLeavesWidget(/** @type {KeyboardEvent} */ (event), this.root)) event.stopPropagation();
    };
    for (const type of KEY_EVENTS) this.root.addEventListener(type, this.onKey);
    // Fires when the widget is attached (anywidget renders into a detached element) and whenever its size
    // changes: the moment to look at the page's theme variables and to keep the newest message in view.
    this.resizeObserver = new ResizeObserver(() => this.onResize());
    this.resizeObserver.observe(this.list);
    this.list.addEventListener(
      "scroll",
      () => {
        this.stick = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < STICK_PX;
        this.groups.settleSoon();
      },
      { passive: true },
    );
    this.root.addEventListener("dragover", (event) => {
      if ([...(event.dataTransfer?.types ?? [])].includes("Files")) event.preventDefault();
    });
    this.root.addEventListener("drop", (event) => {
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length && this.root.dataset.replayOnly !== "true") {
        event.preventDefault();
        this.composer.addFiles(files);
      }
    });
  }

  destroy() {
    this.frame.cancel();
    this.threadMenu.destroy();
    this.attention.destroy();
    this.connection.destroy();
    this.statePanel.destroy();
    this.resizeObserver.disconnect();
    this.groups.destroy();
    for (const [event, handler] of Object.entries(this.handlers)) this.model.off(event, handler);
    for (const view of this.views) view.destroy();
    this.root.remove();
  }

  /**
   * Send a request to the kernel; false (and said in the widget) when the kernel cannot be reached.
   * @param {any} message
   * @returns {boolean}
   */
  send(message) {
    if (!this.connection.live) {
      this.statusDirty = true;
      this.frame.request();
      if (message?.kind !== "resync") this.composer.showNotice(NOT_SENT, "connection");
      return false;
    }
    this.model.send(message);
    return true;
  }

  /**
   * Regenerate the last answer, or the message `target` names.
   * @param {{messageId: string, at: number}} [target]
   */
  regenerate(target) {
    if (BUSY_STATUSES.has(this.state.status)) {
      this.composer.showNotice("The agent is still answering. Wait for it to finish or press Stop.", "busy");
      return;
    }
    if (this.send({ kind: "regenerate", ...target }) && target === undefined) this.focusComposer(); // Retry
    this.followBottom();
  }

  get busy() {
    return BUSY_STATUSES.has(this.state.status);
  }

  get replayOnly() {
    return this.root.dataset.replayOnly === "true";
  }

  /** Put the focus in the input (none in a replay-only view: then on the thread menu's button, if any). */
  focusComposer() {
    if (!this.replayOnly) this.composer.input.focus({ preventScroll: true });
    else if (!this.threadMenu.button.hidden) this.threadMenu.button.focus({ preventScroll: true });
  }

  /**
   * `{do: "focus"}` / `{do: "blur"}`: what ipywidgets' DOMWidget.focus() and .blur() send to every view.
   * @param {unknown} what
   */
  command(what) {
    if (what === "focus") {
      if (this.root.isConnected && !this.replayOnly) this.composer.input.focus({ preventScroll: true });
    } else if (what === "blur") {
      const root = /** @type {Document | ShadowRoot} */ (this.root.getRootNode());
      const active = /** @type {HTMLElement | null} */ (root.activeElement);
      if (active && active !== this.root && this.root.contains(active)) active.blur();
    }
  }

  /** After a card was answered (Approve/Deny, Submit/Dismiss): the focus goes to the next card waiting, to its
   * first control, else to the input.
   * @param {Element} card
   */
  afterAnswer(card) {
    const next = this.pendingCards().find((el) => el !== card && !el.dataset.approvalSent && !el.dataset.sent);
    const control = /** @type {HTMLElement | null} */ (next?.querySelector(CARD_CONTROLS));
    if (control) {
      if (next.tagName === "DETAILS") /** @type {HTMLDetailsElement} */ (next).open = true;
      control.focus({ preventScroll: true });
    } else {
      this.focusComposer();
    }
  }

  /** Start a new thread (the current one is kept); while the agent answers, ask first. `from`: "composer" or
   * "menu", where the question is asked. */
  newThread({ from = "composer" } = {}) {
    const go = (/** @type {boolean} */ stop) => {
      if (!this.send(stop ? { kind: "new_thread", stop: true } : { kind: "new_thread" })) return;
      this.threadMenu.close(false);
      this.composer.dropQuestion();
      this.followBottom();
      this.focusComposer();
    };
    if (!this.busy) return go(false);
    const box = confirmBox({
      hook: "stop-question",
      text: "Stop the answer and start a new chat?",
      confirm: "Stop and start",
      focus: "confirm",
      onConfirm: () => go(true),
      onCancel: () => {
        if (from === "menu") {
          this.threadMenu.dropQuestion();
          this.threadMenu.newButton.focus({ preventScroll: true });
        } else {
          this.composer.dropQuestion();
          this.composer.newChatButton.focus({ preventScroll: true });
        }
      },
    });
    if (from === "menu") this.threadMenu.ask(null, box);
    else this.composer.ask(box);
  }

  /** Open another thread; while the agent answers, ask first (in the thread's row). */
  /**
   * @param {import("./threads.js").Thread} thread
   * @param {{row?: import("./threads.js").Row | null}} [options] the menu's row, where the question goes
   */
  switchThread(thread, { row = null } = {}) {
    if (thread.id === this.threadMenu.threadId) {
      this.threadMenu.close(false);
      this.focusComposer();
      return;
    }
    const go = (/** @type {boolean} */ stop) => {
      /** @type {{kind: "switch_thread", threadId: string, stop?: boolean}} */
      const message = { kind: "switch_thread", threadId: thread.id };
      if (stop) message.stop = true;
      if (!this.send(message)) return;
      this.threadMenu.close(false);
      this.followBottom();
      this.focusComposer();
    };
    if (!this.busy) return go(false);
    const box = confirmBox({
      hook: "stop-question",
      text: `Stop the answer and open “${threadTitle(thread)}”?`,
      confirm: "Stop and open",
      focus: "confirm",
      onConfirm: () => go(true),
      onCancel: () => {
        this.threadMenu.dropQuestion();
        row?.open.focus({ preventScroll: true });
      },
    });
    this.threadMenu.ask(row, box);
  }

  followBottom() {
    this.stick = true;
    this.frame.request();
  }

  /** @param {string} role */
  partContext(role) {
    let context = this.contexts.get(role);
    if (context === undefined) {
      context = {
        role,
        send: (/** @type {unknown} */ message) => this.send(message),
        askedForApproval: (/** @type {Element} */ el) => this.revealApproval(el),
        answered: (/** @type {Element} */ el) => this.afterAnswer(el),
        followBottom: () => this.followBottom(),
      };
      this.contexts.set(role, context);
    }
    return context;
  }

  /**
   * An approval card just started asking: bring it into view once it is laid out (the newest one wins).
   * @param {Element} el
   */
  revealApproval(el) {
    this.approvalToReveal = el;
    this.statusDirty = true;
    this.frame.request();
  }

  /** What the last message waits for from the user: "approval" (a tool call to approve), "answer" (an open
   * interrupt form), or false. */
  awaitingApproval() {
    const last = this.state.messages[this.state.messages.length - 1];
    const parts = last?.role === "assistant" && Array.isArray(last.parts) ? last.parts : [];
    if (parts.some((part) => part?.state === "approval-requested")) return "approval";
    if (parts.some((part) => part?.type === "data-interrupt" && part.data?.status === "open")) return "answer";
    return false;
  }

  /** The last message's cards that wait for the user (the page title's attention cue watches them). */
  pendingCards() {
    const el = this.views[this.state.messages.length - 1]?.el;
    return el ? [.../** @type {NodeListOf<HTMLElement>} */ (el.querySelectorAll(PENDING_CARDS))] : [];
  }

  scrollToApproval() {
    const el = this.approvalToReveal;
    this.approvalToReveal = null;
    if (!el?.isConnected || !this.list.contains(el)) return;
    // Within the message list, always; the notebook itself only when the widget is on screen already (a
    // notebook scrolled elsewhere is not pulled away), and then only as far as needed.
    const list = this.list.getBoundingClientRect();
    const card = el.getBoundingClientRect();
    if (card.bottom > list.bottom) this.list.scrollTop += card.bottom - list.bottom + 8;
    else if (card.top < list.top) this.list.scrollTop -= list.top - card.top + 8;
    this.stick = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < STICK_PX;
    const root = this.root.getBoundingClientRect();
    if (root.bottom > 0 && root.top < window.innerHeight) el.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** @param {string} trait */
  applyTrait(trait) {
    const value = this.model.get(trait);
    if (trait === "title") {
      this.titleEl.textContent = label(value ?? "", 200);
      this.titleEl.hidden = this.titleEl.textContent === "";
      this.showHeader();
    } else if (trait === "placeholder") {
      this.composer.setPlaceholder(typeof value === "string" ? value : "");
    } else if (trait === "height") {
      const size = cssSize(value);
      this.root.style.height = size;
      this.root.classList.toggle("agui-auto-height", size === "");
    } else if (trait === "show_reasoning") {
      this.root.classList.toggle("agui-hide-reasoning", value === false);
    } else if (trait === "theme") {
      this.root.dataset.theme = THEMES.has(value) ? value : "auto";
    } else if (trait === "error_details") {
      const details = typeof value === "string" ? value : "";
      this.detailsText.textContent = details;
      this.details.hidden = details === "";
      if (details === "") this.details.open = false;
    } else if (trait === "branch_points") {
      this.branchPoints = branchPointsFrom(value);
      this.frame.request();
    } else if (trait === "warnings") {
      this.showWarnings(value);
    } else if (trait === "suggestions" || trait === "replay_only") {
      // Without an agent (a replay) there is nothing to send to: no input, no approval controls, no examples.
      const replayOnly = this.model.get("replay_only") === true;
      this.root.dataset.replayOnly = replayOnly ? "true" : "false";
      this.emptyState.update(this.model.get("suggestions"), replayOnly);
      if (trait === "replay_only") this.applyTrait("threads");
    } else if (trait === "context_sent") {
      this.composer.context.update(value);
    } else if (trait === "threads" || trait === "thread_id" || trait === "store") {
      this.threadMenu.update({
        threads: this.model.get("threads"),
        threadId: this.model.get("thread_id"),
        store: this.model.get("store"),
        readOnlyView: this.model.get("replay_only") === true,
      });
      this.showHeader();
    }
  }

  showHeader() {
    const hidden = this.titleEl.textContent === "" && this.threadMenu.button.hidden;
    if (this.header.hidden !== hidden) this.header.hidden = hidden;
  }

  /** @param {any} message a custom message from the kernel: sync's, or a command ({do}) */
  receive(message) {
    if (message !== null && typeof message === "object" && typeof message.do === "string") {
      this.command(message.do);
      return;
    }
    const touched = this.sync.receive(message, this.state);
    if (touched.replacement !== null) this.replaceMessages(touched.replacement);
    // A patch that failed part way (a resync is on its way): look at everything again.
    if (touched.all) this.dirtyAll = true;
    for (const index of touched.messages) this.dirty.add(index);
    if (touched.status) this.statusDirty = true;
    if (touched.any) this.frame.request();
  }

  /**
   * A snapshot: merged into the state, so that only the messages whose content changed re-render.
   * @param {unknown} next the snapshot's messages
   */
  replaceMessages(next) {
    const list = Array.isArray(next) ? next : [];
    const old = this.state.messages;
    const messages = new Array(list.length);
    for (let index = 0; index < list.length; index += 1) {
      messages[index] = mergeMessage(old[index], asMessage(list[index]));
      if (messages[index] !== old[index]) this.dirty.add(index);
    }
    this.state.messages = messages;
    // A branch switch's snapshot: the picker button pressed keeps the focus once it is drawn again.
    if (this.branchFocus) [this.restoreFocus, this.branchFocus] = [this.branchFocus, null];
    if (this.state.threadId !== this.shownThreadId) {
      // Another conversation (a thread switch, a new chat): it opens at its end.
      /** @type {string | null | undefined} the thread the list shows */
      this.shownThreadId = this.state.threadId;
      this.stick = true;
    }
    if (!this.loaded) {
      this.loaded = true;
      this.root.dataset.loaded = "true";
    }
    this.statusDirty = true; // whether an approval is waiting may have changed
    this.frame.request();
  }

  /** @param {number} index @returns {MessageView} the view of message `index`, made with those before it */
  view(index) {
    while (this.views.length <= index) {
      const at = this.views.length;
      const view = new MessageView(this);
      const message = this.state.messages[at];
      this.views.push(view);
      this.groups.groupOf(at).append(view.el);
      if (message !== undefined) view.update(message);
    }
    return this.views[index];
  }

  checkPage() {
    if (!this.root.isConnected || this.root.dataset.jp) return;
    injectStyles(this.root);
    // Outside JupyterLab there are no --jp-* variables; "auto" then follows the browser's colour scheme.
    const jp = getComputedStyle(this.root).getPropertyValue("--jp-layout-color1").trim();
    this.root.dataset.jp = jp ? "yes" : "no";
  }

  onResize() {
    this.checkPage();
    if (this.stick && this.root.isConnected) this.list.scrollTop = this.list.scrollHeight;
  }

  render() {
    this.frame.cancel();
    this.checkPage();
    const messages = this.state.messages;
    if (this.dirtyAll) {
      for (let index = 0; index < messages.length; index += 1) this.view(index).update(messages[index]);
    } else {
      for (const index of this.dirty) if (index < messages.length) this.view(index).update(messages[index]);
    }
    if (this.views.length > messages.length) {
      while (this.views.length > messages.length) {
        const view = this.views.pop();
        view.destroy();
        view.el.remove();
      }
      this.groups.truncate(this.views.length);
    }
    this.dirty.clear();
    this.dirtyAll = false;
    const last = messages.length - 1;
    if (last !== this.lastIndex) {
      this.views[this.lastIndex]?.setLast(false);
      this.views[last]?.setLast(true);
      this.lastIndex = last;
    }
    // Attribute writes are mutations even when the value is the same; skip them on the per-delta path.
    const loading = !this.loaded && this.connection.live;
    if (this.loading.hidden !== !loading) this.loading.hidden = !loading;
    const empty = this.loaded && messages.length === 0;
    if (this.empty.hidden !== !empty) this.empty.hidden = !empty;
    this.composer.setHasMessages(messages.length > 0);
    if (this.statusDirty) {
      this.statusDirty = false;
      const live = this.connection.live;
      this.root.dataset.status = this.state.status;
      this.root.dataset.connection = live ? "live" : "lost";
      this.composer.setStatus(live ? this.state.status : "disconnected", { awaiting: live && this.awaitingApproval() });
      this.errorText.textContent = label(this.state.error, 4000);
      this.banner.hidden = this.state.error === "";
      // Only a failed run is retried; a refused request (the status left as it was) is not.
      this.retryButton.hidden =
        this.state.status !== "error" || !this.state.messages.some((message) => message?.role === "user");
      // One visible error: while the banner shows the run's error, the failed message's own copy is hidden.
      this.root.dataset.errorShown = this.banner.hidden ? "false" : "true";
      // "Stop the answer and ...?" no longer applies once the answer is over.
      if (!this.busy) {
        this.composer.dropQuestion();
        if (this.threadMenu.question?.box.dataset.agui === "stop-question") this.threadMenu.dropQuestion();
      }
    }
    const waiting = this.connection.live && !this.replayOnly && this.awaitingApproval();
    this.attention.update(waiting, waiting ? this.pendingCards() : []);
    showBranchPoints(this, this.branchPoints);
    if (this.restoreFocus) this.focusPicker();
    if (this.stick) this.list.scrollTop = this.list.scrollHeight;
    if (this.approvalToReveal) this.scrollToApproval();
    this.groups.parking = this.busy;
    this.groups.settle();
  }

  focusPicker() {
    const { at, which } = this.restoreFocus;
    /** @type {{at: number, which: "previous" | "next"} | null} the picker button to focus once drawn */
    this.restoreFocus = null;
    const branches = this.views[at]?.branches;
    const target = branches && !branches.picker.hidden ? branches[which] : null;
    const active = /** @type {Document | ShadowRoot} */ (this.root.getRootNode()).activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    if (target && target !== active && (lost || this.root.contains(active))) target.focus({ preventScroll: true });
  }
}
