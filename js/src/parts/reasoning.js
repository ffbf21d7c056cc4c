// `reasoning` parts: a collapsed block, "Thinking…" while it streams, then its duration and length; a lock when the
// provider sent it encrypted (providerMetadata["ag-ui"].encryptedValue).
import { element, icon } from "../dom.js";
import { MarkdownView } from "../markdown.js";

function isEncrypted(part) {
  const meta = part.providerMetadata?.["ag-ui"];
  return meta !== null && typeof meta === "object" && meta.encryptedValue != null;
}

export function formatDuration(ms) {
  if (!(ms >= 0)) return "";
  if (ms < 1000) return "under a second";
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export class ReasoningPartView {
  constructor(context) {
    this.el = element("details", "agui-part agui-reasoning");
    this.el.dataset.partType = "reasoning";
    const summary = element("summary", "agui-reasoning-summary");
    summary.append(icon("chevron"));
    this.label = element("span", "agui-reasoning-label");
    this.lock = element("span", "agui-reasoning-lock");
    this.lock.append(icon("lock"));
    this.lock.dataset.agui = "encrypted";
    this.lock.title = "Encrypted reasoning: the provider sent it sealed, only the model can read it";
    this.lock.hidden = true;
    summary.append(this.label, this.lock);
    this.body = new MarkdownView("agui-md agui-reasoning-body", context?.remote);
    this.el.append(summary, this.body.el);
    this.startedAt = null;
    this.duration = null;
    this.text = null;
    this.state = null;
  }

  update(part) {
    const text = typeof part.text === "string" ? part.text : "";
    const streaming = part.state === "streaming";
    const encrypted = isEncrypted(part);
    if (streaming && this.startedAt === null) this.startedAt = performance.now();
    if (!streaming && this.startedAt !== null && this.duration === null) {
      this.duration = performance.now() - this.startedAt;
    }
    this.el.dataset.state = streaming ? "streaming" : "done";
    this.el.dataset.encrypted = encrypted ? "true" : "false";
    this.lock.hidden = !encrypted;
    let label;
    if (streaming) label = "Thinking…";
    else if (text === "" && encrypted) label = "Encrypted reasoning";
    else {
      const parts = [];
      if (this.duration !== null) parts.push(`Thought for ${formatDuration(this.duration)}`);
      else parts.push("Reasoning");
      parts.push(`${text.length.toLocaleString("en-US")} chars`);
      label = parts.join(" · ");
    }
    this.label.textContent = label;
    if (text !== this.text || streaming !== (this.state === "streaming")) this.body.update(text, !streaming);
    this.body.el.hidden = text === "";
    this.text = text;
    this.state = streaming ? "streaming" : "done";
  }
}
