// @ts-check
// One message: its element, a view per part (updated only when that part object changed), the run-error banner,
// a footer with the metadata line and the Copy / Regenerate actions, and the image viewer (a click on an image
// shows it at its natural size in a modal dialog; Escape, the close button or a click beside it closes it).
//
// A message renders in isolation: a part view that throws is replaced by its content as plain text with a note
// (and tried afresh when the part changes), so one bad part never hides the rest of the message or the messages
// after it.
import { MessageBranches } from "./branches.js";
import { button, copyText, element, flashCopied, fromTemplate, icon, label, prettyJson } from "./dom.js";
import { buildFeedbackButtons, Feedback } from "./feedback.js";
import { plainTextFallback } from "./markdown.js";
import { describeMetadata, metadataError } from "./metadata.js";
import { MetricsStrip } from "./metrics_strip.js";
import { createPartView, RenderedPartView, renderingFor } from "./parts/index.js";
import { RemoteMediaPolicy } from "./remote_media.js";
import { MessageSuggestions, SUGGESTIONS_PART, SuggestionsPartView } from "./suggestions.js";

/** @typedef {import("./sync.js").UIMessage} UIMessage */
/** @typedef {import("./sync.js").UIPart} UIPart */
/** @typedef {import("./parts/part_view.js").PartView} PartView */
/** @typedef {import("./parts/part_view.js").PartContext} PartContext */
/**
 * The chat view (chat_view.js), as far as a message view and what it holds use it.
 * @typedef {import("./branches.js").BranchesChat & {partContext: (role: string) => Omit<PartContext, "remote" | "model">,
 *   model: import("./anywidget.js").AnyModel, regenerate: (target: {messageId: string, at: number}) => void,
 *   root: HTMLElement | null, renderVersion: number, composer?: {sendText: (text: string) => void}}} MessageChat
 */

const ROLES = new Set(["system", "user", "assistant"]);

/** @type {WeakMap<MessageChat, import("./remote_media.js").RemoteMediaPolicy>} chat view -> its RemoteMediaPolicy */
const policies = new WeakMap();
/** @type {WeakMap<object, PartContext>} the chat view's part context for a role -> ours (the same, plus `remote`) */
const contexts = new WeakMap();

/**
 * The part context for `role`: the chat view's, plus the remote-media policy of the widget (one per view).
 * @param {MessageChat} chat
 * @param {string} role
 * @returns {PartContext}
 */
function partContext(chat, role) {
  const base = chat.partContext(role);
  let context = contexts.get(base);
  if (context === undefined) {
    let remote = policies.get(chat);
    if (remote === undefined) {
      remote = new RemoteMediaPolicy(() => chat.model?.get?.("trusted_origins"));
      policies.set(chat, remote);
    }
    context = { ...base, remote, model: chat.model };
    contexts.set(base, context);
  }
  return context;
}

/**
 * What a part that could not be rendered shows instead: its text, or the part as JSON, as plain text.
 * @param {UIPart} part
 * @param {any} error what the view threw
 * @returns {PartView}
 */
function failedPartView(part, error) {
  const text = typeof part.text === "string" ? part.text : prettyJson(part);
  const { node } = plainTextFallback(text, "part", `${error?.name ?? "Error"}: ${error?.message ?? error}`);
  const el = element("div", "agui-part agui-part-failed");
  el.dataset.agui = "part-fallback";
  el.dataset.partType = part.type;
  el.append(node);
  return { el, failed: true, update() {} };
}

/**
 * The text a "copy message" puts on the clipboard: its text parts, or the parts as JSON when it has none.
 * @param {UIMessage | null} message
 * @returns {string}
 */
export function messageText(message) {
  const parts = Array.isArray(message?.parts) ? message.parts : [];
  const texts = parts
    .filter((part) => part?.type === "text" && typeof part.text === "string")
    .map((part) => /** @type {string} */ (part.text));
  if (texts.length) return texts.join("\n\n");
  try {
    return JSON.stringify(parts, null, 2);
  } catch {
    return "";
  }
}

/**
 * The image a click or key on `target` opens in the viewer: a shown file or markdown image, not one in a link.
 * @param {EventTarget | null} target
 * @returns {HTMLImageElement | null}
 */
function viewableImage(target) {
  const img = /** @type {HTMLImageElement | null} */ (/** @type {Element | null} */ (target)?.closest?.("img.agui-file-image, .agui-md img"));
  return img && !img.closest("a") && img.complete && img.naturalWidth > 0 ? img : null;
}

/**
 * Show `img` at its natural size (small images up to twice it, to fit the viewport) in a modal <dialog>, which
 * sits above the notebook whatever its layout and gives Escape and focus trapping for free. It shows the pixels
 * already loaded under the same URL: nothing new is requested, so remote media keep their consent rule.
 * @param {HTMLImageElement} img
 * @param {Element} host where the dialog goes (the chat's root, inside the widget's styles)
 * @returns {HTMLDialogElement}
 */
export function openImageViewer(img, host) {
  const dialog = element("dialog", "agui-image-viewer");
  dialog.dataset.agui = "image-viewer";
  dialog.setAttribute("aria-label", img.alt ? `Image: ${label(img.alt, 120)}` : "Image");
  const full = element("img", "agui-image-full");
  full.alt = img.alt;
  full.referrerPolicy = "no-referrer";
  full.src = img.currentSrc || img.src;
  const zoom = Math.min(2, Math.max(1, 320 / Math.max(img.naturalWidth, img.naturalHeight)));
  full.style.width = `${img.naturalWidth * zoom}px`;
  const close = button("close-image", "Close (Esc)", {
    icon: icon("close"),
    className: "agui-icon-button agui-image-close",
  });
  close.addEventListener("click", () => dialog.close());
  // A click on the backdrop lands on the dialog itself.
  dialog.addEventListener("click", (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener("close", () => {
    dialog.remove();
    if (img.isConnected) img.focus({ preventScroll: true });
  });
  dialog.append(full, close);
  host.append(dialog);
  dialog.showModal();
  close.focus({ preventScroll: true });
  return dialog;
}

/**
 * Make the markdown images of a finished part reachable by keyboard (Enter or Space opens the viewer).
 * @param {HTMLElement} el
 * @param {UIPart} part
 */
function focusableImages(el, part) {
  if (part.state === "streaming" || (part.type !== "text" && part.type !== "reasoning")) return;
  for (const img of /** @type {NodeListOf<HTMLImageElement>} */ (el.querySelectorAll(".agui-md img:not([tabindex])"))) {
    if (img.closest("a")) continue;
    img.tabIndex = 0;
    img.title = img.title || "Open full size";
  }
}

function buildMessage() {
  const root = element("div", "agui-message");
  const error = element("div", "agui-message-error");
  error.dataset.agui = "message-error";
  error.hidden = true;
  const footer = element("div", "agui-message-footer");
  const meta = element("span", "agui-message-meta");
  meta.dataset.agui = "meta";
  const actions = element("span", "agui-message-actions");
  const regenerate = button("regenerate", "Regenerate this answer", {
    icon: icon("regenerate"),
    className: "agui-icon-button",
  });
  regenerate.hidden = true;
  actions.append(button("copy", "Copy message", { icon: icon("copy"), className: "agui-icon-button" }), regenerate);
  actions.append(buildFeedbackButtons());
  footer.append(meta, actions);
  root.append(element("div", "agui-message-body"), error, footer);
  return root;
}

export class MessageView {
  /** @param {MessageChat} chat */
  constructor(chat) {
    this.chat = chat;
    this.el = fromTemplate("message", buildMessage);
    const [body, error, footer] = /** @type {HTMLCollectionOf<HTMLElement>} */ (this.el.children);
    this.body = body;
    this.error = error;
    this.footer = footer;
    this.meta = /** @type {HTMLElement} */ (this.footer.firstElementChild);
    const [copy, regenerate] = /** @type {HTMLCollectionOf<HTMLButtonElement>} */ (this.footer.lastElementChild.children);
    this.copyButton = copy;
    this.regenerateButton = regenerate;
    this.feedback = new Feedback(chat, /** @type {HTMLElement} */ (this.footer.lastElementChild.lastElementChild), this.footer);
    this.suggestions = new MessageSuggestions(chat, this.body);
    this.metrics = new MetricsStrip(chat); // ChatWidget(show_metrics=True): the answer's live metrics
    this.footer.before(this.metrics.el);
    this.el.addEventListener("click", async (event) => {
      const target = /** @type {Element} */ (event.target).closest?.("[data-agui]");
      if (target === this.copyButton) {
        flashCopied(this.copyButton, await copyText(messageText(this.message), this.el));
      } else if (target === this.regenerateButton) {
        chat.regenerate(this.branches.target());
      } else {
        const img = viewableImage(event.target);
        if (img) openImageViewer(img, chat.root ?? this.el);
      }
    });
    this.el.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const img = viewableImage(event.target);
      if (img === null || event.target !== img) return;
      event.preventDefault();
      openImageViewer(img, chat.root ?? this.el);
    });
    /** @type {UIMessage | null} */
    this.message = null;
    /** @type {string | null} */
    this.role = null;
    /** @type {PartView[]} by part index */
    this.parts = [];
    /** The index of the message's first part shown (the inspector shows a window of a long message's parts). */
    this.partOffset = 0;
    this.isLast = false;
    /** @type {MessageBranches} the pencil, the inline editor and the ‹ 1/2 › picker */
    this.branches = new MessageBranches(this);
  }

  /** @param {boolean} isLast */
  setLast(isLast) {
    this.isLast = isLast;
    this.el.dataset.last = isLast ? "true" : "false";
    this.regenerateButton.hidden = this.role !== "assistant";
  }

  /** @param {UIMessage} message */
  update(message) {
    // A part's rendered output (parts/rendered.js) can change while the message does not.
    if (message === this.message && this.renderVersion === this.chat.renderVersion) return;
    this.renderVersion = this.chat.renderVersion;
    try {
      this.render(message);
    } catch (error) {
      // Outside the parts and the metadata (which fail on their own): keep what is drawn, retry on the next change.
      console.error("agui-notebook: a message could not be rendered", error);
    }
  }

  /** @param {UIMessage} message */
  render(message) {
    const previous = this.message;
    this.message = message;
    const role = ROLES.has(message.role) ? message.role : "assistant";
    if (role !== this.role) {
      // Text renders differently per role (markdown vs plain): rebuild the parts.
      for (const view of this.parts) {
        view.destroy?.();
        view.el.remove();
      }
      this.parts = [];
      this.role = role;
      this.el.dataset.role = role;
      this.setLast(this.isLast);
    }
    const id = typeof message.id === "string" ? message.id : String(message.id ?? "");
    if (this.el.dataset.messageId !== id) this.el.dataset.messageId = id;
    this.metrics.show(id, role);
    if (previous === null || message.metadata !== previous.metadata) {
      try {
        this.updateMetadata(message.metadata);
        this.feedback.update(message);
      } catch (error) {
        console.error("agui-notebook: a message's metadata could not be shown", error);
      }
    }
    this.updateParts(Array.isArray(message.parts) ? message.parts : []);
    this.suggestions.update(Array.isArray(message.parts) ? message.parts : []);
    this.branches.render(message);
  }

  /** @param {UIPart[]} parts */
  updateParts(parts) {
    const context = partContext(this.chat, this.role);
    for (let index = 0; index < parts.length; index += 1) {
      let part = parts[index];
      if (part === null || typeof part !== "object" || typeof part.type !== "string") {
        // Not a UIMessage part: shown as data rather than breaking the message.
        part = { type: "invalid-part", value: part ?? null };
      }
      const type = part.type;
      const view = this.parts[index];
      const rendering = renderingFor(this.chat.model, this.message, index + this.partOffset, part);
      // unchanged (a failed part is retried on change)
      if (view !== undefined && view.shown === part && view.shownRendering === rendering) continue;
      if (view !== undefined && view.type === type && !view.failed && (view.shownRendering === null) === (rendering === null)) {
        view.shown = part;
        view.shownRendering = rendering;
        try {
          view.update(part, rendering);
          focusableImages(view.el, part);
          continue;
        } catch (error) {
          this.parts[index] = this.failed(index, part, error, view, rendering);
          continue;
        }
      }
      /** @type {PartView} */
      let fresh;
      try {
        if (rendering !== null) fresh = new RenderedPartView(context, type, createPartView);
        else fresh = type === SUGGESTIONS_PART ? new SuggestionsPartView() : createPartView(type, context);
        fresh.update(part, rendering);
      } catch (error) {
        this.parts[index] = this.failed(index, part, error, view, rendering);
        continue;
      }
      focusableImages(fresh.el, part);
      fresh.type = type;
      fresh.shown = part;
      fresh.shownRendering = rendering;
      fresh.el.dataset.partIndex = String(index + this.partOffset);
      view?.destroy?.();
      if (view !== undefined) view.el.replaceWith(fresh.el);
      else this.body.append(fresh.el);
      this.parts[index] = fresh;
    }
    while (this.parts.length > parts.length) {
      const view = this.parts.pop();
      view.destroy?.();
      view.el.remove();
    }
  }

  /** Let go of the part views (renderers' cleanups run). */
  destroy() {
    for (const view of this.parts) view.destroy?.();
    this.metrics.destroy();
  }

  /**
   * Put the plain-text fallback of part `index` where its view (if any) was.
   * @param {number} index
   * @param {UIPart} part
   * @param {unknown} error
   * @param {PartView | undefined} view
   * @param {unknown} [rendering]
   * @returns {PartView}
   */
  failed(index, part, error, view, rendering = null) {
    console.error(`agui-notebook: part ${index} (${part.type}) could not be rendered`, error);
    const fallback = failedPartView(part, error);
    fallback.type = part.type;
    fallback.shown = part;
    fallback.shownRendering = rendering;
    fallback.el.dataset.partIndex = String(index + this.partOffset);
    view?.destroy?.();
    if (view !== undefined) view.el.replaceWith(fallback.el);
    else this.body.append(fallback.el);
    return fallback;
  }

  /** @param {unknown} metadata */
  updateMetadata(metadata) {
    const described = describeMetadata(metadata);
    this.meta.textContent = described?.short ?? "";
    if (described?.long) this.meta.title = described.long;
    else this.meta.removeAttribute("title");
    const error = metadataError(metadata);
    this.error.replaceChildren();
    if (error) this.error.append(icon("alert"), element("span", "agui-error-text", label(error, 4000)));
    this.error.hidden = error === "";
  }
}
