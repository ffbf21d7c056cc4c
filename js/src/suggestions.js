// @ts-check
// Suggestion chips an agent sends as a `data-suggestions` part: shown under the answer (the part itself renders
// nothing in the message body), with the look of the empty state's `suggestions=` chips; a click sends the
// suggestion. Only the newest answer's chips are live: the stylesheet hides those of older messages, and all of
// them while the agent answers or in a replay-only widget.
//
// `data` is read as CopilotKit's suggestions are written, and more loosely: a list of strings, or of
// `{title, message}` objects (`title` is shown, `message` sent; either stands for the other when missing), or an
// object holding such a list under `suggestions`.
import { button, element, label } from "./dom.js";

export const SUGGESTIONS_PART = "data-suggestions";
export const MAX_SUGGESTIONS = 8;

/**
 * The chips of a `data-suggestions` part's data (entries it cannot read are left out).
 * @param {unknown} data a list of strings or {title, message}, or {suggestions: that list}
 * @returns {Array<{title: string, message: string}>}
 */
export function readSuggestions(data) {
  const list = Array.isArray(data) ? data : Array.isArray(/** @type {any} */ (data)?.suggestions) ? /** @type {any} */ (data).suggestions : [];
  /** @type {Array<{title: string, message: string}>} */
  const out = [];
  for (const entry of list) {
    let title = "";
    let message = "";
    if (typeof entry === "string") {
      title = message = entry;
    } else if (entry !== null && typeof entry === "object") {
      title = typeof entry.title === "string" ? entry.title : "";
      message = typeof entry.message === "string" ? entry.message : "";
      title ||= message;
      message ||= title;
    }
    if (message.trim() === "") continue;
    out.push({ title, message });
    if (out.length === MAX_SUGGESTIONS) break;
  }
  return out;
}

/** The part's own place in the body: empty (the chips are shown under the message). */
export class SuggestionsPartView {
  constructor() {
    this.el = element("div", "agui-part agui-suggestions-part");
    this.el.dataset.partType = SUGGESTIONS_PART;
    this.el.hidden = true;
  }

  update() {}
}

/** The chips under one message: the last `data-suggestions` part's. */
export class MessageSuggestions {
  /**
   * @param {{composer?: {sendText: (text: string) => void}}} chat the chat view, whose composer sends a chip's text
   * @param {Element} after the element the chips go after (the message body)
   */
  constructor(chat, after) {
    this.chat = chat;
    this.after = after;
    /** @type {HTMLElement | null} */
    this.el = null;
    /** @type {import("./sync.js").UIPart | null} */
    this.part = null;
  }

  /** @param {import("./sync.js").UIPart[]} parts the message's */
  update(parts) {
    let part = null;
    for (let index = parts.length - 1; index >= 0; index -= 1) {
      if (parts[index]?.type === SUGGESTIONS_PART) {
        part = parts[index];
        break;
      }
    }
    if (part === this.part) return;
    this.part = part;
    const chips = part === null ? [] : readSuggestions(part.data);
    if (chips.length === 0) {
      if (this.el !== null) this.el.hidden = true;
      return;
    }
    if (this.el === null) {
      this.el = element("div", "agui-suggestions agui-message-suggestions");
      this.el.dataset.agui = "message-suggestions";
      this.el.setAttribute("role", "group");
      this.el.setAttribute("aria-label", "Suggested replies");
      this.after.after(this.el);
    }
    this.el.hidden = false;
    this.el.replaceChildren(
      ...chips.map(({ title, message }) => {
        const chip = button("suggestion", label(message, 300), { text: label(title, 120), className: "agui-suggestion" });
        chip.dataset.source = "agent";
        chip.addEventListener("click", () => this.chat.composer?.sendText(message));
        return chip;
      }),
    );
  }
}
