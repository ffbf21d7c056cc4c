// @ts-check
// The attention cue a browser gives every page: while a chat waits for the user (a tool approval, an interrupt
// form) where the user cannot see it (the page is hidden behind another tab, or the waiting card is out of view),
// the page title reads "(1) Approval needed · " before the title Jupyter set. Chats on the page count together;
// the prefix goes as soon as every waiting card is seen, answered or gone, and Jupyter's title is put back exactly.
// Nothing else: no sound, no system notification, no permission prompt. Dependency-free, for JupyterLab 4,
// Notebook 7 and any page (a widget gets no handle on Jupyter's own cues).

// Shared by every copy of the bundle on the page (anywidget imports it once per widget model): one title, one count.
const BOARD = Symbol.for("agui-notebook.attention/1");
const PREFIX = /^\(\d+\) (?:Approval|Answer|Input) needed · /;
// A card counts as seen when this much of it is on screen (a card taller than the viewport: SEEN_PX of it).
const SEEN_RATIO = 0.5;
const SEEN_PX = 100;
const THRESHOLDS = [0, 0.25, 0.5, 0.75, 1];

/** The title prefix for `approvals` chats waiting for an approval and `answers` for an answer; "" for none.
 *
 *     titlePrefix(1, 0) === "(1) Approval needed · "
 *     titlePrefix(1, 1) === "(2) Input needed · "
 *
 * @param {number} approvals
 * @param {number} answers
 * @returns {string}
 */
export function titlePrefix(approvals, answers) {
  const count = approvals + answers;
  if (count === 0) return "";
  const what = answers === 0 ? "Approval" : approvals === 0 ? "Answer" : "Input";
  return `(${count}) ${what} needed · `;
}

/**
 * `title` without our prefix (however many of them a page's own rewrite carried along).
 * @param {string} title
 * @returns {string}
 */
export function baseTitle(title) {
  let base = String(title);
  while (PREFIX.test(base)) base = base.replace(PREFIX, "");
  return base;
}

/** The page title's owner: what each chat's cue reports, counted per chat; the prefix while any is unseen. */
/**
 * What a chat view waits for, and whether the user can see a card that asks for it.
 * @typedef {{chat: unknown, kind: WaitingFor, seen: boolean}} CueReport
 */
/** @typedef {"approval" | "answer"} WaitingFor */

class TitleBoard {
  /** @param {Document} doc */
  constructor(doc) {
    this.doc = doc;
    /** @type {Map<AttentionCue, CueReport>} */
    this.reports = new Map();
    /** @type {string | null} the page's own title, while the prefix is shown */
    this.base = null;
    /** @type {string | null} the title this board wrote */
    this.shown = null;
    /** @type {MutationObserver | null} */
    this.observer = null;
  }

  /**
   * A cue's report, or null when it waits for nothing.
   * @param {AttentionCue} cue
   * @param {CueReport | null} state
   */
  report(cue, state) {
    if (state) this.reports.set(cue, state);
    else this.reports.delete(cue);
    this.refresh();
  }

  refresh() {
    // A chat shown twice (two views of one model) waits unseen only while neither view shows its card.
    /** @type {Map<unknown, {kind: WaitingFor, seen: boolean}>} */
    const chats = new Map();
    for (const { chat, kind, seen } of this.reports.values()) {
      const known = chats.get(chat);
      chats.set(chat, { kind, seen: seen || known?.seen === true });
    }
    let approvals = 0;
    let answers = 0;
    for (const { kind, seen } of chats.values()) {
      if (seen) continue;
      if (kind === "answer") answers += 1;
      else approvals += 1;
    }
    const prefix = titlePrefix(approvals, answers);
    const title = this.doc.title;
    // Not the title written here: the page (Jupyter, on a tab change) set its own, which is the new base.
    if (this.base !== null && title !== this.shown) this.base = baseTitle(title);
    if (prefix === "") {
      if (this.base === null) return;
      const base = this.base;
      this.observer?.disconnect();
      this.observer = this.base = this.shown = null;
      if (title !== base) this.doc.title = base;
      return;
    }
    if (this.base === null) {
      this.base = baseTitle(title);
      this.watchTitle();
    }
    this.shown = prefix + this.base;
    if (title !== this.shown) this.doc.title = this.shown;
  }

  watchTitle() {
    if (typeof MutationObserver !== "function") return;
    this.observer = new MutationObserver(() => this.refresh());
    const where = this.doc.head ?? this.doc.documentElement;
    if (where) this.observer.observe(where, { childList: true, subtree: true, characterData: true });
  }
}

/** @returns {TitleBoard} the page's one board, shared by every bundle of the widget on it */
function board() {
  const page = /** @type {Record<symbol, TitleBoard>} */ (/** @type {unknown} */ (globalThis));
  page[BOARD] ??= new TitleBoard(document);
  return page[BOARD];
}

function pageVisible() {
  return document.visibilityState === "visible";
}

/** One chat view's part of the cue: what it waits for, and whether its waiting cards are on screen. */
export class AttentionCue {
  /**
   * `chat`: what identifies the chat (its model), so that two views of one chat count once.
   * @param {unknown} chat
   */
  constructor(chat) {
    this.chat = chat;
    /** @type {WaitingFor | false} */
    this.kind = false;
    /** @type {Element[]} */
    this.cards = [];
    /** @type {Set<Element>} cards now on screen */
    this.inView = new Set();
    /** @type {Set<Element>} cards the observer has reported on at least once */
    this.measured = new Set();
    /** @type {IntersectionObserver | null} */
    this.observer = null;
    this.onVisibility = () => this.publish();
  }

  /**
   * What the chat waits for and the cards that ask for it.
   * @param {WaitingFor | false | ""} kind "" or false: nothing
   * @param {Element[]} cards
   */
  update(kind, cards) {
    if (!kind) {
      if (this.kind) this.release();
      return;
    }
    if (kind === this.kind && cards.length === this.cards.length && cards.every((card, i) => card === this.cards[i])) {
      return;
    }
    if (!this.kind) document.addEventListener("visibilitychange", this.onVisibility);
    this.kind = kind;
    this.observer ??= new IntersectionObserver((entries) => this.observed(entries), { threshold: THRESHOLDS });
    for (const card of this.cards) {
      if (!cards.includes(card)) {
        this.observer.unobserve(card);
        this.inView.delete(card);
        this.measured.delete(card);
      }
    }
    for (const card of cards) if (!this.cards.includes(card)) this.observer.observe(card);
    this.cards = [...cards];
    this.publish();
  }

  /** @param {IntersectionObserverEntry[]} entries */
  observed(entries) {
    for (const entry of entries) {
      this.measured.add(entry.target);
      const seen = entry.isIntersecting && (entry.intersectionRatio >= SEEN_RATIO || entry.intersectionRect.height >= SEEN_PX);
      if (seen) this.inView.add(entry.target);
      else this.inView.delete(entry.target);
    }
    this.publish();
  }

  publish() {
    if (!this.kind || this.cards.length === 0) {
      board().report(this, null);
      return;
    }
    const visible = pageVisible();
    // A card the observer has not measured yet (it reports by the next frame) is not called unseen: no flicker.
    const seen = visible && this.cards.some((card) => this.inView.has(card) || !this.measured.has(card));
    board().report(this, { chat: this.chat, kind: this.kind, seen });
  }

  release() {
    this.kind = false;
    this.cards = [];
    this.inView.clear();
    this.measured.clear();
    this.observer?.disconnect();
    this.observer = null;
    document.removeEventListener("visibilitychange", this.onVisibility);
    board().report(this, null);
  }

  destroy() {
    this.release();
  }
}
