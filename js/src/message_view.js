// One message: its element, a view per part (updated only when that part object changed), the run-error banner,
// and a footer with the metadata line and the Copy / Regenerate actions.
import { button, copyText, element, flashCopied, fromTemplate, icon, label } from "./dom.js";
import { describeMetadata, metadataError } from "./metadata.js";
import { createPartView } from "./parts/index.js";

const ROLES = new Set(["system", "user", "assistant"]);

/** The text a "copy message" puts on the clipboard: its text parts, or the parts as JSON when it has none. */
export function messageText(message) {
  const parts = Array.isArray(message?.parts) ? message.parts : [];
  const texts = parts
    .filter((part) => part?.type === "text" && typeof part.text === "string")
    .map((part) => part.text);
  if (texts.length) return texts.join("\n\n");
  try {
    return JSON.stringify(parts, null, 2);
  } catch {
    return "";
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
  footer.append(meta, actions);
  root.append(element("div", "agui-message-body"), error, footer);
  return root;
}

export class MessageView {
  constructor(chat) {
    this.chat = chat;
    this.el = fromTemplate("message", buildMessage);
    [this.body, this.error, this.footer] = this.el.children;
    this.meta = this.footer.firstElementChild;
    [this.copyButton, this.regenerateButton] = this.footer.lastElementChild.children;
    this.el.addEventListener("click", async (event) => {
      const target = event.target.closest?.("[data-agui]");
      if (target === this.copyButton) {
        flashCopied(this.copyButton, await copyText(messageText(this.message), this.el));
      } else if (target === this.regenerateButton) {
        chat.regenerate();
      }
    });
    this.message = null;
    this.role = null;
    this.parts = []; // part views, by part index
    this.isLast = false;
  }

  setLast(isLast) {
    this.isLast = isLast;
    this.el.dataset.last = isLast ? "true" : "false";
    this.regenerateButton.hidden = !(isLast && this.role === "assistant");
  }

  update(message) {
    if (message === this.message) return;
    const previous = this.message;
    this.message = message;
    const role = ROLES.has(message.role) ? message.role : "assistant";
    if (role !== this.role) {
      // Text renders differently per role (markdown vs plain): rebuild the parts.
      for (const view of this.parts) view.el.remove();
      this.parts = [];
      this.role = role;
      this.el.dataset.role = role;
      this.setLast(this.isLast);
    }
    const id = typeof message.id === "string" ? message.id : String(message.id ?? "");
    if (this.el.dataset.messageId !== id) this.el.dataset.messageId = id;
    if (previous === null || message.metadata !== previous.metadata) this.updateMetadata(message.metadata);
    this.updateParts(Array.isArray(message.parts) ? message.parts : []);
  }

  updateParts(parts) {
    const context = this.chat.partContext(this.role);
    for (let index = 0; index < parts.length; index += 1) {
      let part = parts[index];
      if (part === null || typeof part !== "object" || typeof part.type !== "string") {
        // Not a UIMessage part: shown as data rather than breaking the message.
        part = { type: "invalid-part", value: part ?? null };
      }
      const type = part.type;
      let view = this.parts[index];
      if (view !== undefined && view.type === type) {
        if (view.shown !== part) {
          view.shown = part;
          view.update(part);
        }
        continue;
      }
      const fresh = createPartView(type, context);
      fresh.type = type;
      fresh.shown = part;
      fresh.el.dataset.partIndex = String(index);
      fresh.update(part);
      if (view !== undefined) view.el.replaceWith(fresh.el);
      else this.body.append(fresh.el);
      this.parts[index] = fresh;
    }
    while (this.parts.length > parts.length) this.parts.pop().el.remove();
  }

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
