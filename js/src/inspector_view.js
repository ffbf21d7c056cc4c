// @ts-check
// The inspector (`inspect(source)`, agui_notebook/widget/_inspector.py): a recorded run event by event. A
// timeline scrubber with play/pause, steps and jumps; the conversation after the selected event, drawn by the
// chat's own message views with the part that event changed highlighted; the event list (virtualised, filtered
// by type, searched); the selected event's JSON, receive time and gap; verify_events' problems at their events;
// the shared state. A click on a part selects the events that built it.
//
// The kernel owns the conversation: this view writes `position` and draws the `changed`, `event` and `state`
// traits the kernel answers with, and the window of the conversation its `conversation` messages keep up to date
// (inspector_window.js: only what differs is sent; scrolling past the window's ends asks for the window there).
// The event list's summaries, times and changed parts come in chunks the view asks for as it shows them; a search
// and a clicked part's events are answered by the kernel. Keys (docs/inspect.md): ← / → step, Shift+← / → ten events, Home / End,
// Space plays or pauses, N / P the next / previous problem.
import { Connection, hideStaticCopyBeside } from "./connection.js";
import { button, element, label, prettyJson } from "./dom.js";
import { FrameScheduler } from "./frame.js";
import css from "./inspector.css";
import { ConversationWindow } from "./inspector_window.js";
import { MessageView } from "./message_view.js";
import { asMessage, mergeMessage } from "./chat_view.js";
import { injectStyles } from "./styles.js";

const STYLE_ID = "agui-notebook-inspector-style";
const ROW_PX = 24; // one row of the event list (fixed, so only the visible rows need to be in the DOM)
const OVERSCAN = 8;
const KEPT_VIEWS = 400; // message views kept for seeks back and forth
const KEPT_CHUNKS = 64; // chunks of the event list kept (summaries, times, changed parts of `chunk` events each)
const EDGE_PX = 24; // a conversation scrolled this close to its window's end asks for the window beyond
const TYPE_CODES = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"; // _inspector.py's
const MAX_MARKS = 400; // scrubber ticks drawn at most per kind (a run with thousands of problems stays light)
const MAX_STEP_S = 2; // recorded pace: a longer pause between two events plays as this
const UNTIMED_EVENTS_PER_S = 20;
const TICK_MS = 33;
/** @type {Record<string, number>} */
const SPEEDS = { "1": 1, "4": 4 };
const THEMES = new Set(["auto", "light", "dark"]);
/** @type {Array<[string, string, ((type: string) => boolean) | null]>} */
const JUMPS = [
  ["text", "Next text event", (type) => type.startsWith("TEXT_MESSAGE") || type.startsWith("REASONING")],
  ["tool", "Next tool event", (type) => type.startsWith("TOOL_CALL")],
  ["state", "Next state event", (type) => type === "STATE_SNAPSHOT" || type === "STATE_DELTA"],
  ["error", "Next problem or error event", null],
];

/**
 * A problem the protocol checker found at an event (timeline trait).
 * @typedef {{index: number, severity: string, rule: string, message: string}} EventProblem
 */
/** @typedef {ReturnType<typeof timelineFrom>} Timeline */
/** @typedef {{message: number, part: number, events?: Set<number> | null}} Selection a clicked part and the events that built it (null: asked for) */
/** @typedef {{summaries: string[], times: Array<number | null>, touched: Array<Array<[number, number]>>}} EventChunk */

/** @param {Element} el */
function injectInspectorStyles(el) {
  injectStyles(el);
  const root = el.getRootNode?.();
  const scope = root instanceof ShadowRoot ? root : document;
  if (scope.getElementById?.(STYLE_ID) ?? scope.querySelector?.(`#${STYLE_ID}`)) return;
  const style = document.createElement("style");
  style.id = STYLE_ID;
  style.textContent = css;
  (root instanceof ShadowRoot ? root : document.head).append(style);
}

/** @param {unknown} value */
function seconds(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) return "";
  if (Math.abs(value) < 1) return `${Math.round(value * 1000)} ms`;
  return `${value.toFixed(3)} s`;
}

/** @param {unknown} value @returns {string} */
function cssSize(value) {
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return `${value}px`;
  if (typeof value === "string" && value.trim() !== "" && value.trim() !== "auto") return value.trim();
  return "";
}

/**
 * The timeline trait, checked: arrays of one length, whatever the kernel sent.
 * @param {any} value
 */
function timelineFrom(value) {
  /** @type {Record<string, any>} */
  const t = value && typeof value === "object" ? value : {};
  /** @type {string[]} */
  const names = Array.isArray(t.type_names) ? t.type_names.map(String) : [];
  const codes = typeof t.types === "string" ? t.types : "";
  /** @type {Map<string, string>} */
  const byCode = new Map();
  /** @type {string[]} */
  const types = new Array(codes.length);
  for (let i = 0; i < codes.length; i += 1) {
    const code = codes[i];
    let name = byCode.get(code);
    if (name === undefined) {
      const at = TYPE_CODES.indexOf(code);
      name = names[at >= 0 ? at : code.charCodeAt(0) - 0x100] ?? "?";
      byCode.set(code, name);
    }
    types[i] = name;
  }
  const count = types.length;
  /** @type {EventProblem[]} */
  const problems = Array.isArray(t.problems) ? t.problems.filter((/** @type {any} */ p) => p && Number.isInteger(p.index)) : [];
  /** @type {Map<number, EventProblem[]>} */
  const byEvent = new Map();
  for (const problem of problems) {
    if (!byEvent.has(problem.index)) byEvent.set(problem.index, []);
    byEvent.get(problem.index).push(problem);
  }
  return {
    count,
    types,
    chunk: Number.isInteger(t.chunk) && t.chunk > 0 ? /** @type {number} */ (t.chunk) : 256,
    runs: /** @type {number[]} */ ((Array.isArray(t.runs) ? t.runs : []).filter(Number.isInteger)),
    steps: /** @type {number[]} */ ((Array.isArray(t.steps) ? t.steps : []).filter(Number.isInteger)),
    problems,
    byEvent,
  };
}

export class InspectorView {
  /** @param {import("./anywidget.js").AnyModel} model @param {HTMLElement} host */
  constructor(model, host) {
    this.model = model;
    this.host = host;
    /** @type {MessageView[]} */
    this.views = [];
    /** @type {Map<string, MessageView>} message id -> its view, drawn or not */
    this.kept = new Map();
    /** @type {import("./sync.js").UIMessage[]} */
    this.messages = [];
    this.window = new ConversationWindow();
    /** @type {number | null | undefined} the window version a request for the window beyond was sent from */
    this.edgeAsked = undefined;
    /** @type {Map<number, EventChunk>} the event list's chunks by their first event */
    this.chunks = new Map();
    /** @type {Set<number>} chunks asked for */
    this.asked = new Set();
    /** @type {{key: string, id: number, indexes: Int32Array | null} | null} the kernel's answer to the search */
    this.found = null;
    this.searches = 0;
    this.renderVersion = 0;
    this.state = { status: "ready" };
    /** @type {Map<string, Omit<import("./parts/part_view.js").PartContext, "remote" | "model">>} */
    this.contexts = new Map();
    this.playing = null;
    /** @type {Selection | null} after a click on a part */
    this.selection = null;
    this.frame = new FrameScheduler(() => this.render());
    /** @type {{messages?: boolean, position?: boolean, list?: boolean, event?: boolean, state?: boolean, timeline?: boolean}} */
    this.dirty = { messages: true, position: true, list: true, event: true, state: true, timeline: true };
    this.build();
    this.listen();
    injectInspectorStyles(host);
    hideStaticCopyBeside(host); // the copy a saved notebook shows without a kernel (Inspector._ipython_display_)
    host.append(this.root);
    this.applyLook();
    this.timeline = timelineFrom(model.get("timeline"));
    this.filtered = null;
    // The conversation comes only from the kernel: a view that cannot reach it says so (the saved static copy
    // beside it shows then), and asks again for the window when it can.
    this.connection = new Connection(model, host, () => {
      const live = this.connection.live;
      if (live && this.root.dataset.connection === "lost") this.askWindow(null);
      this.root.dataset.connection = live ? "live" : "lost";
    });
    this.root.dataset.connection = this.connection.live ? "live" : "lost";
    this.askWindow(null); // the window at the position (a view that comes back after a reconnect asks the same)
    this.render();
  }

  // ------------------------------------------------------------------------------------ the kernel's answers

  /** @param {any} content */
  onCustom(content) {
    if (content === null || typeof content !== "object") return;
    if (content.kind === "conversation") {
      if (this.window.apply(content)) this.mark("messages");
      else this.askWindow(null); // it builds on a window this view does not hold
    } else if (content.kind === "events" && Number.isInteger(content.start)) {
      const list = (/** @type {unknown} */ value) => (Array.isArray(value) ? value : []);
      this.chunks.delete(content.start);
      this.chunks.set(content.start, { summaries: list(content.summaries), times: list(content.times), touched: list(content.touched) });
      this.asked.delete(content.start);
      for (const start of this.chunks.keys()) {
        if (this.chunks.size <= KEPT_CHUNKS) break;
        this.chunks.delete(start);
      }
      this.filtered = null;
      this.mark("list", "position");
    } else if (content.kind === "found" && this.found !== null && content.id === this.found.id) {
      this.found.indexes = Int32Array.from(Array.isArray(content.indexes) ? content.indexes : []);
      this.filtered = null;
      this.mark("list");
    } else if (content.kind === "part-events") {
      const selection = this.selection;
      if (selection === null || selection.message !== content.message || selection.part !== content.part) return;
      selection.events = new Set(Array.isArray(content.indexes) ? content.indexes : []);
      this.filtered = null;
      this.mark("list");
    }
  }

  /**
   * Ask for the window around `focus` ([message, part]; null: where the kernel has it), the whole one unless the
   * kernel's last update is the one this view holds.
   * @param {[number, number] | null} focus
   */
  askWindow(focus) {
    this.model.send({ kind: "window", version: this.window.version, focus });
  }

  /**
   * Event `i`'s summary and receive time, or null while its chunk is asked for.
   * @param {number} i
   */
  eventAt(i) {
    const size = this.timeline.chunk;
    const start = i - (i % size);
    const chunk = this.chunks.get(start);
    if (chunk === undefined) {
      if (i >= 0 && i < this.timeline.count && !this.asked.has(start)) {
        this.asked.add(start);
        this.model.send({ kind: "events", start });
      }
      return null;
    }
    const summary = chunk.summaries[i - start];
    const time = chunk.times[i - start];
    return { summary: typeof summary === "string" ? summary : "", time: typeof time === "number" ? time : null };
  }

  /** Past the top or the bottom of the window: ask for the window there (once per window). */
  reachEdge() {
    const entries = this.window.messages();
    if (entries.length === 0 || this.edgeAsked === this.window.version) return;
    const list = this.list;
    const first = entries[0];
    const last = entries[entries.length - 1];
    let focus = /** @type {[number, number] | null} */ (null);
    if (list.scrollTop <= EDGE_PX && (first.from > 0 || first.index > 0)) {
      focus = first.from > 0 ? [first.index, first.from - 1] : [first.index - 1, -1];
    } else if (list.scrollTop + list.clientHeight >= list.scrollHeight - EDGE_PX) {
      const end = last.from + last.message.parts.length;
      if (end < last.total) focus = [last.index, end];
      else if (last.index + 1 < this.window.count) focus = [last.index + 1, 0];
    }
    if (focus === null) return;
    this.edgeAsked = this.window.version;
    this.askWindow(focus);
  }

  // ------------------------------------------------------------------ what MessageView needs of a chat view

  /** @param {string} role */
  partContext(role) {
    let context = this.contexts.get(role);
    if (context === undefined) {
      context = { role, send: () => false, askedForApproval() {}, followBottom() {} };
      this.contexts.set(role, context);
    }
    return context;
  }

  send() {
    return false; // a recorded run: nothing to regenerate, approve or edit
  }

  regenerate() {}

  followBottom() {}

  // ------------------------------------------------------------------------------------------------ building

  build() {
    const root = (this.root = element("div", "agui-chat agui-inspector"));
    root.dataset.agui = "inspector";
    root.dataset.replayOnly = "true";
    root.tabIndex = 0;
    root.setAttribute("data-lm-suppress-shortcuts", "true");
    root.setAttribute("aria-label", "Run inspector: ← → step, Space play, N next problem");

    const header = element("div", "agui-header agui-inspect-header");
    this.titleEl = element("div", "agui-title");
    this.titleEl.dataset.agui = "title";
    this.positionEl = element("div", "agui-inspect-position");
    this.positionEl.dataset.agui = "inspect-position";
    this.positionEl.setAttribute("aria-live", "polite");
    header.append(this.titleEl, this.positionEl);

    const controls = element("div", "agui-inspect-controls");
    this.prevButton = button("inspect-prev", "Previous event (←)", { text: "‹", className: "agui-button agui-inspect-step" });
    this.playButton = button("inspect-play", "Play (Space)", { text: "Play", className: "agui-button agui-inspect-play" });
    this.nextButton = button("inspect-next", "Next event (→)", { text: "›", className: "agui-button agui-inspect-step" });
    this.speed = element("select", "agui-inspect-select");
    this.speed.dataset.agui = "inspect-speed";
    this.speed.setAttribute("aria-label", "Playback speed");
    for (const [value, text] of [["1", "Recorded pace"], ["4", "4× faster"]]) {
      const option = element("option", "", text);
      option.value = value;
      this.speed.append(option);
    }
    const jumps = element("span", "agui-inspect-jumps");
    jumps.append(element("span", "agui-inspect-jumps-label", "Next:"));
    this.jumpButtons = new Map();
    for (const [kind, title] of JUMPS) {
      const jump = button(`inspect-jump-${kind}`, title, { text: kind, className: "agui-button agui-inspect-jump" });
      jump.dataset.kind = kind;
      jump.addEventListener("click", () => this.jump(kind));
      this.jumpButtons.set(kind, jump);
      jumps.append(jump);
    }
    controls.append(this.prevButton, this.playButton, this.nextButton, this.speed, jumps);

    const scrub = element("div", "agui-inspect-scrub");
    this.scrubber = element("input", "agui-inspect-scrubber");
    this.scrubber.type = "range";
    this.scrubber.min = "0";
    this.scrubber.step = "1";
    this.scrubber.dataset.agui = "inspect-scrubber";
    this.scrubber.setAttribute("aria-label", "Event");
    this.marks = element("div", "agui-inspect-marks");
    this.marks.dataset.agui = "inspect-marks";
    this.marks.setAttribute("aria-hidden", "true");
    scrub.append(this.marks, this.scrubber);

    const body = element("div", "agui-inspect-body");
    this.list = element("div", "agui-messages agui-inspect-conversation");
    this.list.dataset.agui = "messages";
    this.list.setAttribute("aria-label", "The conversation after the selected event");
    this.emptyConversation = element("div", "agui-inspect-empty", "No messages yet at this event.");
    // The window's ends: what lies beyond them, drawn when scrolled to (or clicked).
    this.earlier = button("inspect-earlier", "Show what comes before", { text: "", className: "agui-button agui-inspect-more" });
    this.later = button("inspect-later", "Show what comes after", { text: "", className: "agui-button agui-inspect-more" });
    this.earlier.hidden = this.later.hidden = true;
    this.list.append(this.earlier, this.later, this.emptyConversation);

    const side = element("div", "agui-inspect-side");
    const tools = element("div", "agui-inspect-list-tools");
    this.filter = element("select", "agui-inspect-select");
    this.filter.dataset.agui = "inspect-filter";
    this.filter.setAttribute("aria-label", "Show events of type");
    this.search = element("input", "agui-inspect-search");
    this.search.type = "search";
    this.search.placeholder = "Search events";
    this.search.dataset.agui = "inspect-search";
    this.search.setAttribute("aria-label", "Search events");
    tools.append(this.filter, this.search);
    this.partEvents = element("div", "agui-inspect-part-events");
    this.partEvents.dataset.agui = "inspect-part-events";
    this.partEvents.hidden = true;
    this.partEventsText = element("span", "");
    this.clearPart = button("inspect-clear-part", "Show every event again", { text: "Clear", className: "agui-button agui-inspect-jump" });
    this.partEvents.append(this.partEventsText, this.clearPart);
    this.rows = element("div", "agui-inspect-events");
    this.rows.dataset.agui = "inspect-events";
    this.rows.setAttribute("role", "listbox");
    this.rows.setAttribute("aria-label", "Events");
    this.spacer = element("div", "agui-inspect-spacer");
    this.rows.append(this.spacer);
    this.listCount = element("div", "agui-inspect-count");
    this.listCount.dataset.agui = "inspect-count";

    this.detail = element("div", "agui-inspect-detail");
    this.detail.dataset.agui = "inspect-detail";
    this.timing = element("div", "agui-inspect-timing");
    this.timing.dataset.agui = "inspect-timing";
    this.problemsEl = element("div", "agui-inspect-problems");
    this.problemsEl.dataset.agui = "inspect-problems";
    this.json = element("pre", "agui-inspect-json");
    this.json.dataset.agui = "inspect-json";
    this.detail.append(this.timing, this.problemsEl, this.json);

    this.stateBox = element("details", "agui-inspect-state");
    this.stateBox.dataset.agui = "inspect-state";
    this.stateSummary = element("summary", "", "State");
    this.statePaths = element("div", "agui-inspect-state-paths");
    this.statePaths.dataset.agui = "inspect-state-paths";
    this.stateJson = element("pre", "agui-inspect-json");
    this.stateJson.dataset.agui = "inspect-state-json";
    this.stateBox.append(this.stateSummary, this.statePaths, this.stateJson);

    side.append(tools, this.partEvents, this.rows, this.listCount, this.detail, this.stateBox);
    body.append(this.list, side);
    root.append(header, controls, scrub, body);
  }

  listen() {
    /** @type {Record<string, (content?: any) => void>} model event -> handler */
    this.handlers = {
      "msg:custom": (/** @type {any} */ content) => this.onCustom(content),
      "change:changed": () => this.mark("messages"),
      "change:position": () => this.mark("position", "list", "event"),
      "change:event": () => this.mark("event"),
      "change:state": () => this.mark("state"),
      "change:state_paths": () => this.mark("state"),
      "change:timeline": () => {
        this.timeline = timelineFrom(this.model.get("timeline"));
        this.chunks.clear();
        this.asked.clear();
        this.found = null;
        this.filtered = null;
        this.mark("timeline", "list", "position");
      },
      "change:title": () => this.applyLook(),
      "change:theme": () => this.applyLook(),
      "change:height": () => this.applyLook(),
    };
    for (const trait of ["rendered", "frontend_renderers", "builtin_renderers"]) {
      this.handlers[`change:${trait}`] = () => {
        this.renderVersion += 1;
        this.mark("messages");
      };
    }
    for (const [event, handler] of Object.entries(this.handlers)) this.model.on(event, handler);
    this.prevButton.addEventListener("click", () => this.step(-1));
    this.nextButton.addEventListener("click", () => this.step(1));
    this.playButton.addEventListener("click", () => this.togglePlay());
    this.scrubber.addEventListener("input", () => this.seek(Number(this.scrubber.value)));
    this.filter.addEventListener("change", () => this.refilter());
    this.search.addEventListener("input", () => this.refilter());
    this.clearPart.addEventListener("click", () => this.selectPart(null));
    this.rows.addEventListener("scroll", () => this.mark("list"), { passive: true });
    this.list.addEventListener("scroll", () => this.reachEdge(), { passive: true });
    this.earlier.addEventListener("click", () => {
      this.list.scrollTop = 0;
      this.edgeAsked = undefined;
      this.reachEdge();
    });
    this.later.addEventListener("click", () => {
      this.list.scrollTop = this.list.scrollHeight;
      this.edgeAsked = undefined;
      this.reachEdge();
    });
    this.rows.addEventListener("click", (event) => {
      const row = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest?.("[data-agui=inspect-event]"));
      if (row) this.seek(Number(row.dataset.index));
    });
    this.list.addEventListener("click", (event) => {
      const target = /** @type {Element} */ (event.target);
      if (target.closest?.("button, a, summary, input, select, textarea")) return;
      const part = /** @type {HTMLElement | null} */ (target.closest?.("[data-part-index]"));
      const message = /** @type {HTMLElement | null} */ (target.closest?.(".agui-message"));
      if (!part || !message) return;
      const at = this.views.findIndex((view) => view.el === message);
      if (at >= 0) this.selectPart({ message: this.window.first + at, part: Number(part.dataset.partIndex) });
    });
    this.stopKey = (/** @type {Event} */ event) => event.stopPropagation();
    for (const type of ["keydown", "keyup", "keypress"]) this.root.addEventListener(type, this.stopKey);
    this.root.addEventListener("keydown", (event) => this.onKey(event));
    this.resizeObserver = new ResizeObserver(() => this.mark("list", "timeline"));
    this.resizeObserver.observe(this.rows);
  }

  destroy() {
    this.connection.destroy();
    this.pause();
    this.frame.cancel();
    this.resizeObserver.disconnect();
    for (const [event, handler] of Object.entries(this.handlers)) this.model.off(event, handler);
    for (const view of new Set([...this.views, ...this.kept.values()])) view.destroy();
    this.root.remove();
  }

  /** @param {...(keyof InspectorView["dirty"])} what */
  mark(...what) {
    for (const name of what) this.dirty[name] = true;
    this.frame.request();
  }

  applyLook() {
    const title = this.model.get("title");
    this.titleEl.textContent = label(title ?? "", 200);
    const theme = this.model.get("theme");
    this.root.dataset.theme = THEMES.has(theme) ? theme : "auto";
    this.root.style.height = cssSize(this.model.get("height"));
    if (!this.root.dataset.jp && this.root.isConnected) {
      const jp = getComputedStyle(this.root).getPropertyValue("--jp-layout-color1").trim();
      this.root.dataset.jp = jp ? "yes" : "no";
    }
  }

  // ----------------------------------------------------------------------------------------------- moving

  get position() {
    const value = this.model.get("position");
    return Number.isInteger(value) ? value : -1;
  }

  /**
   * Ask the kernel for the conversation after event `n` (kept inside the run).
   * @param {number} n
   */
  seek(n) {
    const count = this.timeline.count;
    if (count === 0 || !Number.isFinite(n)) return;
    const target = Math.min(count - 1, Math.max(0, Math.round(n)));
    if (target === this.position) return;
    this.model.set("position", target);
    this.model.save_changes();
  }

  /** @param {number} delta */
  step(delta) {
    this.pause();
    this.seek(this.position + delta);
  }

  /**
   * Seek to the next event (after the position) of a jump kind; `back` looks before it instead.
   * @param {string} kind
   * @param {boolean} [back]
   */
  jump(kind, back = false) {
    this.pause();
    const { types, byEvent, count } = this.timeline;
    const test = JUMPS.find(([name]) => name === kind)?.[2];
    const matches = (/** @type {number} */ i) =>
      test ? test(types[i]) : byEvent.has(i) || types[i] === "RUN_ERROR" || types[i] === "TOOL_CALL_ERROR";
    if (back) {
      for (let i = this.position - 1; i >= 0; i -= 1) if (matches(i)) return this.seek(i);
    } else {
      for (let i = this.position + 1; i < count; i += 1) if (matches(i)) return this.seek(i);
    }
  }

  togglePlay() {
    if (this.playing) this.pause();
    else this.play();
  }

  play() {
    const { count } = this.timeline;
    if (count === 0) return;
    if (this.position >= count - 1) this.seek(0);
    const speed = SPEEDS[this.speed.value] ?? 1;
    // Recorded pace: the event whose receive time (from the start position's, long pauses shortened) has come;
    // the times come with the event list's chunks (one not here yet holds the play until it is).
    let played = Math.max(0, this.position);
    let elapsed = 0;
    const started = performance.now();
    this.playing = { timer: 0 };
    const tick = () => {
      const now = ((performance.now() - started) / 1000) * speed;
      while (played + 1 < count) {
        const before = this.eventAt(played);
        const next = this.eventAt(played + 1);
        if (before === null || next === null) break;
        const gap = before.time !== null && next.time !== null ? next.time - before.time : null;
        const due = elapsed + (gap === null ? 1 / UNTIMED_EVENTS_PER_S : Math.min(Math.max(gap, 0), MAX_STEP_S));
        if (due > now) break;
        elapsed = due;
        played += 1;
      }
      if (played !== this.position) this.seek(played);
      if (played >= count - 1) return this.pause();
      this.playing.timer = setTimeout(tick, TICK_MS);
    };
    this.playing.timer = setTimeout(tick, TICK_MS);
    this.root.dataset.playing = "true";
    this.playButton.querySelector(".agui-button-text").textContent = "Pause";
    this.playButton.title = "Pause (Space)";
    this.playButton.setAttribute("aria-label", "Pause (Space)");
  }

  pause() {
    if (!this.playing) return;
    clearTimeout(this.playing.timer);
    this.playing = null;
    this.root.dataset.playing = "false";
    this.playButton.querySelector(".agui-button-text").textContent = "Play";
    this.playButton.title = "Play (Space)";
    this.playButton.setAttribute("aria-label", "Play (Space)");
  }

  /** @param {KeyboardEvent} event */
  onKey(event) {
    const target = /** @type {Element} */ (event.target);
    if (target === this.search || target.closest?.("select, textarea, input:not([type=range])")) return;
    const { key } = event;
    // A focused button's Space or Enter is its click; the scrubber moves itself on arrows, Home, End, pages.
    if (target.closest?.("button") && (key === " " || key === "Enter")) return;
    if (target === this.scrubber && key !== " " && !"nNpP".includes(key)) return;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      this.step((key === "ArrowLeft" ? -1 : 1) * (event.shiftKey ? 10 : 1));
    } else if (key === "Home" || key === "End") {
      this.pause();
      this.seek(key === "Home" ? 0 : this.timeline.count - 1);
    } else if (key === " ") {
      this.togglePlay();
    } else if (key === "n" || key === "N" || key === "p" || key === "P") {
      this.jump("error", key === "p" || key === "P");
    } else {
      return;
    }
    event.preventDefault();
  }

  // ------------------------------------------------------------------------------------- the event list

  refilter() {
    this.filtered = null;
    this.rows.scrollTop = 0;
    this.mark("list");
    this.scrollToSelected = true;
  }

  /** The event indexes the list shows (filter, search and a clicked part), as an Int32Array. */
  shownEvents() {
    if (this.filtered !== null) return this.filtered;
    const { types, count } = this.timeline;
    const type = this.filter.value;
    const needle = this.search.value.trim().toLowerCase();
    const part = this.selection === null ? null : (this.selection.events ?? new Set());
    /** @type {ArrayLike<number> | null} the search's events (the kernel's answer), or all */
    let among = null;
    if (needle) {
      const key = `${type}\u0000${needle}`;
      if (this.found === null || this.found.key !== key) {
        this.searches += 1;
        this.found = { key, id: this.searches, indexes: null };
        this.model.send({ kind: "search", needle, type, id: this.searches });
      }
      among = this.found.indexes ?? new Int32Array(0);
    }
    const total = among === null ? count : among.length;
    const out = new Int32Array(total);
    let length = 0;
    for (let at = 0; at < total; at += 1) {
      const i = among === null ? at : among[at];
      if (type && types[i] !== type) continue;
      if (part && !part.has(i)) continue;
      out[length] = i;
      length += 1;
    }
    this.filtered = out.subarray(0, length);
    return this.filtered;
  }

  /** @param {Selection | null} selection */
  selectPart(selection) {
    if (selection === null) {
      this.selection = null;
    } else {
      const { message, part } = selection;
      this.selection = { message, part, events: null }; // the kernel answers with the events that built it
      this.model.send({ kind: "part-events", message, part });
    }
    this.refilter();
    this.mark("messages");
  }

  renderFilterOptions() {
    const types = [...new Set(this.timeline.types)].sort();
    const value = this.filter.value;
    this.filter.replaceChildren();
    const all = element("option", "", "All types");
    all.value = "";
    this.filter.append(all);
    for (const type of types) {
      const option = element("option", "", type);
      option.value = type;
      this.filter.append(option);
    }
    this.filter.value = types.includes(value) ? value : "";
  }

  renderList() {
    const shown = this.shownEvents();
    const position = this.position;
    this.spacer.style.height = `${shown.length * ROW_PX}px`;
    if (this.scrollToSelected) {
      this.scrollToSelected = false;
      const at = this.selection ? 0 : lowerBound(shown, position);
      const top = at * ROW_PX;
      const view = this.rows.clientHeight;
      if (top < this.rows.scrollTop || top + ROW_PX > this.rows.scrollTop + view) {
        this.rows.scrollTop = Math.max(0, top - view / 2);
      }
    }
    const first = Math.max(0, Math.floor(this.rows.scrollTop / ROW_PX) - OVERSCAN);
    const last = Math.min(shown.length, Math.ceil((this.rows.scrollTop + this.rows.clientHeight) / ROW_PX) + OVERSCAN);
    const { types, byEvent } = this.timeline;
    const rows = [];
    for (let at = first; at < last; at += 1) {
      const index = shown[at];
      const row = element("div", "agui-inspect-row");
      row.dataset.agui = "inspect-event";
      row.dataset.index = String(index);
      row.setAttribute("role", "option");
      row.style.top = `${at * ROW_PX}px`;
      const selected = index === position;
      row.setAttribute("aria-selected", selected ? "true" : "false");
      if (index > position) row.dataset.future = "true";
      const problems = byEvent.get(index);
      if (problems) {
        row.dataset.problem = problems.some((/** @type {EventProblem} */ p) => p.severity === "error") ? "error" : "warning";
        row.title = problems.map((/** @type {EventProblem} */ p) => `${p.severity}: ${p.message}`).join("\n");
      }
      const known = this.eventAt(index); // null: its chunk is on its way, the row is drawn again then
      row.append(
        element("span", "agui-inspect-row-index", String(index)),
        element("span", "agui-inspect-row-type", types[index]),
        element("span", "agui-inspect-row-summary", known === null ? "…" : label(known.summary, 80)),
        element("span", "agui-inspect-row-time", known?.time != null ? `${known.time.toFixed(3)}` : ""),
      );
      rows.push(row);
    }
    this.spacer.replaceChildren(...rows);
    const total = this.timeline.count;
    const part = this.selection;
    this.listCount.textContent =
      shown.length === total ? `${total.toLocaleString("en")} events` : `${shown.length.toLocaleString("en")} of ${total.toLocaleString("en")} events`;
    this.partEvents.hidden = part === null;
    if (part !== null) {
      const n = part.events?.size ?? 0;
      this.partEventsText.textContent = `${n} event${n === 1 ? "" : "s"} built message ${part.message} part ${part.part}`;
    }
  }

  // ---------------------------------------------------------------------------------------------- drawing

  renderMarks() {
    const { count, runs, steps, problems } = this.timeline;
    /** @type {HTMLSpanElement[]} */
    const marks = [];
    const place = (/** @type {number} */ index, /** @type {string} */ kind, /** @type {string} */ title) => {
      const mark = element("span", `agui-inspect-mark agui-inspect-mark-${kind}`);
      mark.dataset.agui = `inspect-${kind}-mark`;
      mark.dataset.index = String(index);
      mark.style.left = `${count > 1 ? (index / (count - 1)) * 100 : 0}%`;
      if (title) mark.title = title;
      marks.push(mark);
    };
    const thin = (/** @type {number[]} */ indexes) => {
      // Ticks closer than a thousandth of the track draw as one.
      const seen = new Set();
      return indexes.filter((/** @type {number} */ i) => {
        const key = Math.round((i / Math.max(1, count - 1)) * 1000);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      }).slice(0, MAX_MARKS);
    };
    for (const index of thin(runs)) place(index, "run", `run starts at event ${index}`);
    for (const index of thin(steps)) place(index, "step", `step starts at event ${index}`);
    for (const index of thin(problems.map((p) => p.index).filter((i) => i >= 0))) place(index, "problem", "");
    this.marks.replaceChildren(...marks);
  }

  renderMessages() {
    const entries = this.window.messages();
    // A message's view is kept (detached) when a seek drops it, so seeking back and forth redraws only what
    // differs: a finished message is the same at every later event.
    const views = [];
    const used = new Set();
    let anchor = this.earlier.nextSibling;
    for (const { from, message: value } of entries) {
      const message = asMessage(value);
      const id = typeof message.id === "string" && message.id !== "" ? message.id : null;
      let view = id !== null && !used.has(id) ? this.kept.get(id) : undefined;
      if (view !== undefined && view.partOffset !== from) {
        // Another window of its parts: drawn anew (its part views are indexed from the window's start).
        view.destroy();
        if (view.el === anchor) anchor = anchor.nextSibling;
        view.el.remove();
        this.kept.delete(/** @type {string} */ (id));
        view = undefined;
      }
      if (view === undefined) {
        view = new MessageView(this);
        view.partOffset = from;
        if (id !== null && !used.has(id)) this.kept.set(id, view);
      } else {
        this.kept.delete(id);
        this.kept.set(id, view); // the newest use last: the oldest is let go first
      }
      if (id !== null) used.add(id);
      view.update(mergeMessage(view.message ?? undefined, message));
      if (view.el !== anchor) this.list.insertBefore(view.el, anchor);
      else anchor = anchor.nextSibling;
      views.push(view);
    }
    for (const view of this.views) if (!views.includes(view)) view.el.remove();
    for (const [id, view] of this.kept) {
      if (this.kept.size <= KEPT_VIEWS) break;
      if (views.includes(view)) continue;
      view.destroy();
      this.kept.delete(id);
    }
    this.views = views;
    this.messages = views.map((view) => view.message);
    this.views.forEach((view, index) => view.setLast(index === this.views.length - 1));
    this.emptyConversation.hidden = this.messages.length > 0;
    this.list.append(this.later, this.emptyConversation);
    this.renderWindowEnds(entries);
    // The highlight: the parts (or whole messages) the selected event changed, and a clicked part.
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (this.list.querySelectorAll("[data-inspect-changed], [data-inspect-picked]"))) {
      delete el.dataset.inspectChanged;
      delete el.dataset.inspectPicked;
    }
    const changed = Array.isArray(this.model.get("changed")) ? this.model.get("changed") : [];
    let first = null;
    for (const pair of changed) {
      const el = this.partElement(pair);
      if (el) {
        el.dataset.inspectChanged = "true";
        first = first ?? el;
      }
    }
    if (this.selection) {
      const el = this.partElement([this.selection.message, this.selection.part]);
      if (el) el.dataset.inspectPicked = "true";
    }
    if (first) this.reveal(first);
  }

  /**
   * The window's ends: how many messages (or parts of a long message) lie beyond each.
   * @param {ReturnType<ConversationWindow["messages"]>} entries
   */
  renderWindowEnds(entries) {
    const top = entries[0];
    const bottom = entries[entries.length - 1];
    const before = top === undefined ? 0 : top.index;
    const after = bottom === undefined ? 0 : this.window.count - bottom.index - 1;
    const partsBefore = top === undefined ? 0 : top.from;
    const partsAfter = bottom === undefined ? 0 : bottom.total - bottom.from - bottom.message.parts.length;
    this.earlier.hidden = before === 0 && partsBefore === 0;
    this.later.hidden = after === 0 && partsAfter <= 0;
    const text = (/** @type {number} */ n, /** @type {string} */ what) => `${n.toLocaleString("en")} ${what}`;
    this.earlier.textContent = partsBefore > 0 ? text(partsBefore, "earlier parts") : text(before, "earlier messages");
    this.later.textContent = partsAfter > 0 ? text(partsAfter, "later parts") : text(after, "later messages");
  }

  /**
   * Scroll the conversation (only it, never the notebook) so that `el` is in view.
   * @param {Element} el
   */
  reveal(el) {
    const list = this.list.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    if (box.bottom > list.bottom) this.list.scrollTop += Math.min(box.bottom - list.bottom + 12, box.top - list.top - 12);
    else if (box.top < list.top) this.list.scrollTop -= list.top - box.top + 12;
  }

  /** @param {[number, number]} place a message index and a part index (-1: the whole message) */
  partElement([message, part]) {
    const view = this.views[message - this.window.first];
    if (!view) return null;
    return part >= 0 ? (view.parts[part - view.partOffset]?.el ?? null) : view.el;
  }

  renderPosition() {
    const { count, types } = this.timeline;
    const position = this.position;
    this.scrubber.max = String(Math.max(0, count - 1));
    this.scrubber.disabled = count === 0;
    if (document.activeElement !== this.scrubber || this.scrubber.value !== String(position)) {
      this.scrubber.value = String(Math.max(0, position));
    }
    this.scrubber.setAttribute("aria-valuetext", position >= 0 ? `event ${position}, ${types[position]}` : "no events");
    this.positionEl.textContent =
      position >= 0 ? `event ${position.toLocaleString("en")} / ${(count - 1).toLocaleString("en")} · ${types[position]}` : "no events";
    this.prevButton.disabled = position <= 0;
    this.nextButton.disabled = position >= count - 1;
    const time = position >= 0 ? this.eventAt(position)?.time : null;
    const before = position > 0 ? this.eventAt(position - 1)?.time : null;
    const parts = [];
    if (typeof time === "number") parts.push(`received +${seconds(time)}`);
    if (typeof time === "number" && typeof before === "number") parts.push(`gap ${seconds(time - before)}`);
    this.timing.textContent = parts.join(" · ") || "no receive time";
  }

  renderEvent() {
    const event = this.model.get("event");
    this.json.textContent = event && Object.keys(event).length ? prettyJson(event) : "";
    const problems = this.timeline.byEvent.get(this.position) ?? [];
    this.problemsEl.replaceChildren(
      ...problems.map((p) => {
        const line = element("div", "agui-inspect-problem");
        line.dataset.agui = "inspect-problem";
        line.dataset.severity = String(p.severity);
        line.append(element("strong", "", `${p.severity} · ${p.rule}`), element("span", "", ` ${label(p.message, 1000)}`));
        return line;
      }),
    );
    this.problemsEl.hidden = problems.length === 0;
  }

  renderState() {
    const state = this.model.get("state");
    const paths = Array.isArray(this.model.get("state_paths")) ? this.model.get("state_paths") : [];
    const at = this.model.get("state_event");
    this.stateJson.textContent = prettyJson(state ?? null);
    this.stateSummary.textContent = Number.isInteger(at) && at >= 0 ? `State (last changed at event ${at})` : "State";
    this.statePaths.replaceChildren(
      ...paths.map((/** @type {string} */ path) => {
        const chip = element("code", "agui-inspect-path", path === "" ? "(whole state)" : label(path, 200));
        chip.dataset.agui = "inspect-state-path";
        return chip;
      }),
    );
    this.statePaths.hidden = paths.length === 0;
    this.stateBox.dataset.changedNow = Number.isInteger(at) && at === this.position ? "true" : "false";
  }

  render() {
    this.frame.cancel();
    const dirty = this.dirty;
    this.dirty = {};
    if (!this.root.dataset.jp) this.applyLook();
    if (dirty.timeline) {
      this.renderFilterOptions();
      this.renderMarks();
    }
    if (dirty.messages) this.renderMessages();
    if (dirty.position) {
      this.renderPosition();
      this.scrollToSelected = true;
    }
    if (dirty.position || dirty.event) this.renderEvent();
    if (dirty.state || dirty.position) this.renderState();
    if (dirty.list || dirty.position) this.renderList();
  }
}

/**
 * The first place in the sorted `array` holding a value ≥ `value`.
 * @param {ArrayLike<number>} array
 * @param {number} value
 */
function lowerBound(array, value) {
  let low = 0;
  let high = array.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (array[mid] < value) low = mid + 1;
    else high = mid;
  }
  return Math.min(low, Math.max(0, array.length - 1));
}
