// @ts-check
// 👍/👎 on an answer, in its footer: toggling buttons (aria-pressed) that send {"kind": "feedback"} to the kernel,
// which keeps the rating in the message's metadata (metadata["agui-notebook"].feedback) and sends it back; and after
// a thumbs-down, a small inline form for an optional comment. The form is built only when asked for.
import { button, element, icon, label } from "./dom.js";

export const MAX_COMMENT_CHARS = 2000;

/** @typedef {"up" | "down"} Rating */

/**
 * The feedback entry of a message (its metadata["agui-notebook"].feedback), or null.
 * @param {import("./sync.js").UIMessage | null | undefined} message
 * @returns {{rating: Rating, comment: string} | null}
 */
export function messageFeedback(message) {
  const own = message?.metadata?.["agui-notebook"];
  const entry = own !== null && typeof own === "object" ? own.feedback : null;
  if (entry === null || typeof entry !== "object" || !["up", "down"].includes(entry.rating)) return null;
  return { rating: entry.rating, comment: typeof entry.comment === "string" ? entry.comment : "" };
}

/** The two buttons, for the message template (wired by `Feedback`). */
export function buildFeedbackButtons() {
  const el = element("span", "agui-feedback");
  el.dataset.agui = "feedback";
  for (const [rating, text] of [
    ["up", "Good answer"],
    ["down", "Bad answer"],
  ]) {
    const thumb = icon("thumb-up");
    if (rating === "down") thumb.classList.add("agui-icon-flipped");
    const node = button(`feedback-${rating}`, text, { icon: thumb, className: "agui-icon-button" });
    node.setAttribute("aria-pressed", "false");
    el.append(node);
  }
  return el;
}

export class Feedback {
  /**
   * `el` is the template's buttons; `after` the element the comment form goes after; `chat` sends.
   * @param {{send: (message: object) => boolean, followBottom?: () => void}} chat
   * @param {HTMLElement} el
   * @param {Element} after
   */
  constructor(chat, el, after) {
    this.chat = chat;
    this.el = el;
    this.after = after;
    const [up, down] = /** @type {HTMLCollectionOf<HTMLButtonElement>} */ (el.children);
    this.upButton = up;
    this.downButton = down;
    /** @type {string | null} */
    this.messageId = null;
    /** @type {Rating | null} */
    this.rating = null;
    this.comment = "";
    /** @type {HTMLDivElement | null} */
    this.form = null;
    el.addEventListener("click", (event) => {
      const target = /** @type {Element} */ (event.target).closest?.("button");
      if (target === this.upButton) this.rate(this.rating === "up" ? null : "up");
      else if (target === this.downButton) this.rate(this.rating === "down" ? null : "down");
    });
  }

  /**
   * Show the rating the message's metadata holds (what the kernel kept).
   * @param {import("./sync.js").UIMessage | null} message
   */
  update(message) {
    this.messageId = typeof message?.id === "string" ? message.id : null;
    const entry = messageFeedback(message);
    this.show(entry?.rating ?? null, entry?.comment ?? "");
  }

  /** @param {Rating | null} rating @param {string} comment */
  show(rating, comment) {
    this.rating = rating;
    this.comment = comment;
    this.upButton.setAttribute("aria-pressed", rating === "up" ? "true" : "false");
    this.downButton.setAttribute("aria-pressed", rating === "down" ? "true" : "false");
    this.el.dataset.rating = rating ?? "";
    const downTitle = rating === "down" && comment ? `Bad answer: “${label(comment, 200)}”` : "Bad answer";
    this.downButton.title = downTitle;
    this.upButton.title = rating === "up" ? "Good answer (click again to take it back)" : "Good answer";
  }

  /**
   * Send a rating (null takes it back), with a comment; returns whether it went out.
   * @param {Rating | null} rating
   * @param {string} [comment] none yet: a thumbs-down then asks for one
   * @returns {boolean}
   */
  rate(rating, comment) {
    if (this.messageId === null) return false;
    /** @type {{kind: "feedback", messageId: string, rating: Rating | null, comment?: string}} */
    const message = { kind: "feedback", messageId: this.messageId, rating };
    if (comment) message.comment = comment;
    const previous = /** @type {[Rating | null, string]} */ ([this.rating, this.comment]);
    this.show(rating, comment ?? (rating === this.rating ? this.comment : ""));
    if (!this.chat.send(message)) {
      this.show(...previous); // not connected: nothing was kept
      return false;
    }
    if (rating === "down" && comment === undefined) this.openForm();
    else this.closeForm();
    return true;
  }

  openForm() {
    if (this.form === null) this.form = this.buildForm();
    this.form.hidden = false;
    this.input.value = this.comment;
    this.after.after(this.form);
    this.input.focus({ preventScroll: true });
    this.chat.followBottom?.();
  }

  closeForm() {
    if (this.form !== null) this.form.hidden = true;
  }

  buildForm() {
    const form = element("div", "agui-feedback-form");
    form.dataset.agui = "feedback-form";
    const prompt = element("span", "agui-feedback-prompt", "What went wrong? (optional)");
    this.input = element("textarea", "agui-feedback-input");
    this.input.dataset.agui = "feedback-comment";
    this.input.rows = 2;
    this.input.maxLength = MAX_COMMENT_CHARS;
    this.input.setAttribute("aria-label", "Comment on this answer (optional)");
    this.input.placeholder = "Tell the developers what went wrong";
    this.input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.closeForm();
        this.downButton.focus({ preventScroll: true });
      } else if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submit();
      }
    });
    const send = button("feedback-send", "Send the comment", {
      text: "Send",
      className: "agui-button agui-secondary agui-feedback-send",
    });
    send.addEventListener("click", () => this.submit());
    const close = button("feedback-close", "No comment", {
      text: "Skip",
      className: "agui-button agui-ghost agui-feedback-close",
    });
    close.addEventListener("click", () => this.closeForm());
    const row = element("div", "agui-feedback-row");
    row.append(this.input, send, close);
    form.append(prompt, row);
    return form;
  }

  submit() {
    const comment = this.input.value.trim();
    if (!comment) {
      this.closeForm();
      return;
    }
    if (this.rate("down", comment.slice(0, MAX_COMMENT_CHARS))) this.closeForm();
  }
}
