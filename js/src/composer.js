// @ts-check
// The input area: a growing textarea (Enter sends, Shift+Enter breaks the line), file attachments read as data
// URLs, Stop while the agent answers, New chat (a new thread; the conversation is kept), the status line and a
// notice line for refusals, and a question asked before New chat stops an answer; and the empty
// state above it, whose example prompts (the `suggestions` trait) send themselves when clicked.
import { NOT_CONNECTED } from "./connection.js";
import { ContextChip } from "./context_chip.js";
import { button, element, icon, label } from "./dom.js";
import { BUSY_STATUSES } from "./sync.js";

// The attachments of one message travel in one comm message, and Jupyter's websocket refuses messages over 10 MiB
// (Tornado's default); base64 makes files a third larger, so their sizes together stay under 6 MiB.
export const MAX_ATTACHMENT_BYTES = 6 * 1024 * 1024;
const NOTICE_MS = 6000;
/** @type {Record<string, string>} */
const STATUS_LABELS = {
  ready: "Ready",
  submitted: "Waiting for the agent…",
  streaming: "Answering…",
  error: "Error",
  disconnected: NOT_CONNECTED,
};
/** @type {Record<string, string>} */
const AWAITING_LABELS = {
  "awaiting-approval": "Waiting for your approval",
  "awaiting-answer": "Waiting for your answer",
};

/** @param {File} file @returns {Promise<string>} */
function readAsDataUrl(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("could not read the file"));
    reader.readAsDataURL(file);
  });
}

/**
 * A file being attached: its data: URL once read (null until then), its chip in the tray, and the reading.
 * @typedef {{file: File, url: string | null, chip: HTMLSpanElement, ready?: Promise<void>}} Attachment
 */
/**
 * What the composer asks of the chat view.
 * @typedef {{send: (message: object) => boolean, followBottom: () => void, newThread: (options?: {from?: string}) => void,
 *   replayOnly: boolean}} ComposerChat
 */

export class Composer {
  /** @param {ComposerChat} chat */
  constructor(chat) {
    this.chat = chat;
    this.status = "ready";
    /** @type {Attachment[]} */
    this.attachments = [];
    this.el = element("div", "agui-composer");
    this.tray = element("div", "agui-attachments");
    this.tray.hidden = true;

    this.input = element("textarea", "agui-input");
    this.input.dataset.agui = "input";
    this.input.rows = 1;
    this.input.setAttribute("aria-label", "Message");
    this.input.addEventListener("keydown", (event) => this.onKeydown(event));
    this.input.addEventListener("input", () => this.onInput());
    this.input.addEventListener("paste", (event) => {
      const files = [...(event.clipboardData?.files ?? [])];
      if (files.length) {
        event.preventDefault();
        this.addFiles(files);
      }
    });

    this.fileInput = element("input", "agui-file-input");
    this.fileInput.type = "file";
    this.fileInput.multiple = true;
    this.fileInput.hidden = true;
    this.fileInput.tabIndex = -1;
    this.fileInput.dataset.agui = "file-input";
    this.fileInput.addEventListener("change", () => {
      this.addFiles([...(this.fileInput.files ?? [])]);
      this.fileInput.value = "";
    });

    const bar = element("div", "agui-composer-bar");
    this.attachButton = button("attach", "Attach files", { icon: icon("attach"), className: "agui-icon-button" });
    this.attachButton.addEventListener("click", () => this.fileInput.click());
    this.statusEl = element("span", "agui-status");
    this.statusEl.dataset.agui = "status";
    this.statusEl.setAttribute("role", "status");
    this.notice = element("span", "agui-notice");
    this.notice.dataset.agui = "notice";
    this.notice.setAttribute("role", "alert");
    this.notice.hidden = true;
    this.newChatButton = button("new-chat", "Start a new chat (this one is kept)", {
      icon: icon("compose"),
      text: "New chat",
      className: "agui-button agui-ghost agui-new-chat",
    });
    this.newChatButton.hidden = true;
    this.newChatButton.addEventListener("click", () => this.chat.newThread({ from: "composer" }));
    this.question = null;
    this.context = new ContextChip();
    const spacer = element("span", "agui-spacer");
    this.stopButton = button("stop", "Stop the answer", {
      icon: icon("stop"),
      className: "agui-round-button agui-stop",
    });
    this.stopButton.addEventListener("click", () => this.stop());
    this.sendButton = button("send", "Send (Enter)", { icon: icon("send"), className: "agui-round-button agui-send" });
    this.sendButton.addEventListener("click", () => this.submit());
    bar.append(this.attachButton, this.newChatButton, this.context.el, this.fileInput, this.statusEl, this.notice, spacer);
    bar.append(this.stopButton, this.sendButton);

    const box = element("div", "agui-composer-box");
    box.append(this.tray, this.input, bar);
    this.el.append(box);
    this.setStatus("ready");
    this.refreshSendable();
  }

  /**
   * Show New chat only when there is a conversation to leave.
   * @param {boolean} hasMessages
   */
  setHasMessages(hasMessages) {
    if (this.newChatButton.hidden === hasMessages) this.newChatButton.hidden = !hasMessages;
  }

  /**
   * Show a question (threads.js confirmBox) above the input, and put the focus in it.
   * @param {HTMLElement & {focusFirst: () => void}} box
   */
  ask(box) {
    this.dropQuestion();
    this.question = box;
    this.el.prepend(box);
    box.focusFirst();
  }

  /** Take the question away (the focus, if it was in it, goes to the New chat button). */
  dropQuestion() {
    if (this.question === null) return;
    const hadFocus = this.question.contains(document.activeElement);
    this.question.remove();
    this.question = null;
    if (hadFocus) (this.newChatButton.hidden ? this.input : this.newChatButton).focus({ preventScroll: true });
  }

  /**
   * Send `text` as the user typed it (a suggestion chip), with whatever files are attached.
   * @param {string} text
   */
  sendText(text) {
    this.input.value = text;
    this.onInput();
    if (!this.submit()) this.input.focus();
  }

  get busy() {
    return BUSY_STATUSES.has(this.status);
  }

  /** @param {unknown} text the placeholder trait */
  setPlaceholder(text) {
    this.input.placeholder = label(text || "Send a message…", 200);
  }

  /** Show the run status; `awaiting` ("approval" or "answer": ready, with an approval or an interrupt form the user
   * has not answered) says so instead.
   * @param {string} status
   * @param {{awaiting?: string | boolean}} [options]
   */
  setStatus(status, { awaiting = false } = {}) {
    const changed = status !== this.status;
    this.status = status;
    const shown = status === "ready" && awaiting ? `awaiting-${awaiting === "answer" ? "answer" : "approval"}` : status;
    this.statusEl.dataset.status = shown;
    const text = AWAITING_LABELS[shown] ?? STATUS_LABELS[status] ?? label(status, 40);
    if (this.statusEl.textContent !== text) this.statusEl.textContent = text;
    this.stopButton.hidden = !this.busy;
    if (changed) this.stopButton.disabled = false;
    this.sendButton.setAttribute("aria-disabled", this.busy ? "true" : "false");
    if (changed && !this.busy && this.notice.dataset.reason === "busy") this.showNotice("");
    this.refreshSendable();
  }

  /** @param {string} text @param {string} [reason] why (a data-reason hook) */
  showNotice(text, reason = "") {
    clearTimeout(this.noticeTimer);
    this.notice.textContent = text;
    this.notice.hidden = text === "";
    this.notice.dataset.reason = reason;
    if (text) this.noticeTimer = setTimeout(() => this.showNotice(""), NOTICE_MS);
  }

  /** @param {KeyboardEvent} event */
  onKeydown(event) {
    // Enter sends, Shift+Enter is a new line; Enter that confirms an IME composition is neither.
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) return;
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    event.preventDefault();
    this.submit();
  }

  onInput() {
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight, 200)}px`;
    this.refreshSendable();
  }

  refreshSendable() {
    const empty = this.input.value.trim() === "" && this.attachments.length === 0;
    this.sendButton.classList.toggle("agui-empty", empty || this.busy);
  }

  /** @param {File[]} files */
  addFiles(files) {
    for (const file of files) {
      const attached = this.attachments.reduce((total, item) => total + item.file.size, 0);
      if (attached + file.size > MAX_ATTACHMENT_BYTES) {
        const limit = MAX_ATTACHMENT_BYTES / 1024 / 1024;
        this.showNotice(`${label(file.name, 80)} is too large to attach (${limit} MB in all per message).`, "size");
        continue;
      }
      /** @type {Attachment} */
      const attachment = { file, url: null, chip: this.attachmentChip(file) };
      attachment.ready = readAsDataUrl(file).then(
        (url) => {
          attachment.url = url;
          attachment.chip.dataset.ready = "true";
          if (file.type.startsWith("image/")) {
            const thumb = element("img", "agui-attachment-thumb");
            thumb.alt = "";
            thumb.src = url;
            attachment.chip.prepend(thumb);
            attachment.chip.querySelector(".agui-icon-file")?.remove();
          }
        },
        () => {
          this.removeAttachment(attachment);
          this.showNotice(`Could not read ${label(file.name, 80)}.`, "read");
        },
      );
      /** @type {HTMLButtonElement} */ (attachment.chip.querySelector("button")).addEventListener("click", () => this.removeAttachment(attachment));
      this.attachments.push(attachment);
      this.tray.append(attachment.chip);
    }
    this.tray.hidden = this.attachments.length === 0;
    this.refreshSendable();
  }

  /** @param {File} file */
  attachmentChip(file) {
    const chip = element("span", "agui-chip agui-attachment");
    chip.dataset.agui = "attachment";
    chip.dataset.ready = "false";
    chip.append(icon("file"), element("span", "agui-chip-title", label(file.name, 60)));
    const remove = button("remove-attachment", `Remove ${label(file.name, 60)}`, {
      icon: icon("close"),
      className: "agui-chip-remove",
    });
    chip.append(remove);
    return chip;
  }

  /** @param {Attachment} attachment */
  removeAttachment(attachment) {
    this.attachments = this.attachments.filter((item) => item !== attachment);
    attachment.chip.remove();
    this.tray.hidden = this.attachments.length === 0;
    this.refreshSendable();
  }

  submit() {
    if (this.busy) {
      this.showNotice("The agent is still answering. Wait for it to finish or press Stop.", "busy");
      return false;
    }
    const text = this.input.value;
    if (text.trim() === "" && this.attachments.length === 0) return false;
    if (this.attachments.some((item) => item.url === null)) {
      this.showNotice("Attachments are still loading; send again in a moment.", "loading");
      return false;
    }
    const files = this.attachments.map(({ file, url }) => ({
      mediaType: file.type || "application/octet-stream",
      filename: file.name,
      url,
    }));
    if (!this.chat.send({ kind: "send", text, files })) return false; // kept for when the kernel is back
    this.input.value = "";
    for (const item of this.attachments) item.chip.remove();
    this.attachments = [];
    this.tray.hidden = true;
    this.onInput();
    this.showNotice("");
    this.chat.followBottom();
    return true;
  }

  stop() {
    if (!this.busy) return;
    this.stopButton.disabled = true;
    this.chat.send({ kind: "stop" });
    // The button goes once the answer is over: the focus is where the next message is typed.
    if (!this.chat.replayOnly) this.input.focus({ preventScroll: true });
  }
}

/**
 * The empty conversation: a line of welcome and the example prompts as chips (none in a replay-only widget, which
 * has no agent to ask). `update(suggestions, replayOnly)` redraws it when either trait changes.
 */
export class EmptyState {
  /** @param {Composer} composer */
  constructor(composer) {
    this.composer = composer;
    this.el = element("div", "agui-empty-state");
    this.el.dataset.agui = "empty-state";
    this.text = element("div", "agui-empty-text", "No messages yet.");
    this.chips = element("div", "agui-suggestions");
    this.chips.hidden = true;
    this.el.append(this.text, this.chips);
    /** @type {string | null} the prompts shown, as JSON */
    this.key = null;
  }

  /** @param {unknown} suggestions the trait @param {boolean} replayOnly */
  update(suggestions, replayOnly) {
    const prompts = replayOnly || !Array.isArray(suggestions) ? [] : suggestions.filter((/** @type {unknown} */ s) => typeof s === "string");
    const key = JSON.stringify(prompts);
    if (key === this.key) return;
    this.key = key;
    this.text.textContent = prompts.length ? "Ask anything, or start from an example:" : "No messages yet.";
    this.chips.replaceChildren(
      ...prompts.map((prompt) => {
        const chip = button("suggestion", label(prompt, 300), {
          text: label(prompt, 120),
          className: "agui-suggestion",
        });
        chip.addEventListener("click", () => this.composer.sendText(prompt));
        return chip;
      }),
    );
    this.chips.hidden = prompts.length === 0;
  }
}
