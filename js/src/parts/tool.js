// @ts-check
// `tool-{name}` and `dynamic-tool` parts: name, a state badge, the arguments (pretty JSON, live while they
// stream), the output or error, and Approve/Deny for `approval-requested`.
import { button, element, icon, label, prettyJson, scrollRegion } from "../dom.js";
import { showJson } from "../highlight.js";
import { detailsList } from "../interrupts.js";

/** @typedef {import("../sync.js").UIPart} UIPart */

/** @type {Record<string, string>} */
const STATE_LABELS = {
  "input-streaming": "Preparing",
  "input-available": "Running",
  "approval-requested": "Needs approval",
  "approval-responded": "Responded",
  "output-available": "Done",
  "output-error": "Error",
  "output-denied": "Denied",
};
/** @type {Record<string, string>} */
const STATE_TONES = {
  "input-streaming": "active",
  "input-available": "active",
  "approval-requested": "warn",
  "approval-responded": "active",
  "output-available": "success",
  "output-error": "error",
  "output-denied": "denied",
};
// States in which the card opens by itself; elsewhere it stays as the user left it (closed at first).
const OPEN_STATES = new Set(["input-streaming", "input-available", "approval-requested", "output-error"]);

/** The tool a part calls (`tool-<name>` parts, or a dynamic tool's toolName). @param {UIPart} part @returns {string} */
export function toolName(part) {
  return part.type === "dynamic-tool" ? String(part.toolName ?? "") : part.type.slice("tool-".length);
}

/** How the kernel ended a call the agent never finished: "cancelled" (an approval a new message superseded),
 * "stopped" (Stop pressed mid-call), or "" (callProviderMetadata["ag-ui"].ended, docs/widget.md).
 * @param {UIPart} part
 * @returns {"cancelled" | "stopped" | ""}
 */
export function toolEnded(part) {
  const ended = part.callProviderMetadata?.["ag-ui"]?.ended;
  return ended === "cancelled" || ended === "stopped" ? ended : "";
}

/** What the card's badge says. @param {UIPart} part @returns {string} */
export function toolStateLabel(part) {
  const state = part.state;
  const ended = toolEnded(part);
  if (ended === "cancelled") return "Cancelled";
  if (ended === "stopped") return "Stopped";
  if (state === "approval-responded") return part.approval?.approved === false ? "Denied" : "Approved";
  if (state === "output-available" && part.preliminary) return "Partial result";
  return STATE_LABELS[state] ?? label(state ?? "unknown", 40);
}

/** @param {unknown} value */
function compactJson(value) {
  let text;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return label(text ?? "", 120);
}

/** @param {string} title @param {string} className */
function section(title, className) {
  const node = element("div", `agui-tool-section ${className}`);
  const heading = element("div", "agui-tool-section-title", title);
  const pre = scrollRegion(element("pre", "agui-json"), `${title} (JSON)`);
  node.append(heading, pre);
  return { node, heading, pre };
}

export class ToolPartView {
  /** @param {import("./part_view.js").PartContext} context @param {string} type */
  constructor(context, type) {
    this.context = context;
    this.el = element("details", "agui-part agui-tool");
    this.el.dataset.partType = type;
    this.userToggled = false;
    this.autoOpen = false;
    // A toggle that leaves the card as we last set it is ours; any other toggle is the user's, and from then on
    // the card stays as the user wants it.
    this.el.addEventListener("toggle", () => {
      if (this.el.open !== this.autoOpen) this.userToggled = true;
    });

    const summary = element("summary", "agui-tool-summary");
    summary.append(icon("chevron"), icon("tool"));
    this.name = element("span", "agui-tool-name");
    this.title = element("span", "agui-tool-title");
    this.preview = element("span", "agui-tool-preview");
    this.provider = element("span", "agui-tool-provider", "provider");
    this.provider.title = "Executed by the model provider";
    this.badge = element("span", "agui-badge");
    this.badge.dataset.agui = "tool-state";
    summary.append(this.name, this.title, this.preview, this.provider, this.badge);

    const body = element("div", "agui-tool-body");
    this.input = section("Arguments", "agui-tool-input");
    this.output = section("Result", "agui-tool-output");
    this.error = element("div", "agui-tool-error");
    this.error.dataset.agui = "tool-error";
    this.approval = this.buildApproval();
    body.append(this.input.node, this.approval, this.output.node, this.error);
    this.el.append(summary, body);
    /** @type {string | null} */
    this.inputText = null;
    /** @type {string | null} */
    this.outputText = null;
  }

  buildApproval() {
    const box = element("div", "agui-approval");
    this.approvalText = element("div", "agui-approval-text");
    const controls = element("div", "agui-approval-controls");
    this.reason = element("input", "agui-approval-reason");
    this.reason.type = "text";
    this.reason.placeholder = "Reason (optional)";
    this.reason.dataset.agui = "approval-reason";
    this.approveButton = button("approve", "Approve this tool call", {
      text: "Approve",
      className: "agui-button agui-primary",
    });
    this.denyButton = button("deny", "Deny this tool call", { text: "Deny", className: "agui-button agui-secondary" });
    this.approveButton.addEventListener("click", () => this.respond(true));
    this.denyButton.addEventListener("click", () => this.respond(false));
    controls.append(this.reason, this.denyButton, this.approveButton);
    this.approvalDetails = element("div", "agui-approval-details");
    /** @type {string | null} */
    this.approvalDetailsKey = null;
    box.append(this.approvalText, this.approvalDetails, controls);
    return box;
  }

  /** @param {boolean} approved */
  respond(approved) {
    const approvalId = this.part?.approval?.id;
    if (this.part?.state !== "approval-requested" || typeof approvalId !== "string") return;
    /** @type {{kind: "approval", approvalId: string, approved: boolean, reason?: string}} */
    const message = { kind: "approval", approvalId, approved };
    const reason = this.reason.value.trim();
    if (reason) message.reason = reason;
    this.context.send(message);
    this.context.followBottom?.(); // the answer that follows streams in view, as after sending a message
    // Until the kernel answers with the new state, the choice cannot be made twice.
    this.approveButton.disabled = true;
    this.denyButton.disabled = true;
    this.el.dataset.approvalSent = approved ? "approved" : "denied";
    this.context.answered?.(this.el); // the focus moves on: the next card waiting, or the input
  }

  /** @param {UIPart} part */
  update(part) {
    const previousState = this.part?.state;
    this.part = part;
    const state = typeof part.state === "string" ? part.state : "unknown";
    this.el.dataset.toolState = state;
    this.el.dataset.preliminary = part.preliminary ? "true" : "false";
    this.name.textContent = label(toolName(part), 120);
    this.name.title = this.name.textContent;
    this.title.textContent = part.title ? label(part.title, 200) : "";
    this.title.hidden = !part.title;
    this.provider.hidden = !part.providerExecuted;
    this.badge.textContent = toolStateLabel(part);
    const ended = toolEnded(part);
    const denied = state === "output-denied" || (state === "approval-responded" && part.approval?.approved === false);
    this.badge.dataset.tone = ended ? "muted" : denied ? "denied" : STATE_TONES[state] ?? "muted";
    this.el.dataset.ended = ended;

    const inputValue = part.input !== undefined ? part.input : part.rawInput;
    const inputText = prettyJson(inputValue);
    if (inputText !== this.inputText) {
      showJson(this.input.pre, inputText, inputValue);
      this.inputText = inputText;
    }
    this.input.node.hidden = inputText === "";
    // A one-line glimpse of the arguments, so a closed card still says what it did.
    // A denial's reason is what the user needs to see, so a closed card shows it instead of the arguments.
    const reason = denied && !ended && typeof part.approval?.reason === "string" ? part.approval.reason : "";
    const preview = reason ? label(reason, 200) : inputValue === undefined ? "" : compactJson(inputValue);
    this.preview.textContent = preview;
    this.preview.hidden = preview === "" || preview === "{}";
    this.preview.dataset.agui = reason ? "denied-reason" : "tool-preview";
    if (reason) this.preview.title = label(reason, 500);
    else this.preview.removeAttribute("title");
    this.input.node.dataset.streaming = state === "input-streaming" ? "true" : "false";

    const hasOutput = state === "output-available" && part.output !== undefined;
    const outputText = hasOutput ? prettyJson(part.output) : "";
    if (outputText !== this.outputText) {
      showJson(this.output.pre, outputText, part.output);
      this.outputText = outputText;
    }
    this.output.node.hidden = !hasOutput;
    this.output.heading.textContent = part.preliminary ? "Result (partial)" : "Result";

    const errorText = state === "output-error" ? String(part.errorText ?? "Tool call failed") : "";
    this.error.textContent = errorText;
    this.error.hidden = errorText === "";

    this.updateApproval(part, state, previousState);
    if (!this.userToggled) {
      this.autoOpen = OPEN_STATES.has(state) && !ended; // a stopped call is no failure to look into
      this.el.open = this.autoOpen;
    }
  }

  /** What the approval request says about itself (the AI SDK's approval fields), as a small definition list:
   * the reason it was asked once the card no longer leads with it, the descriptor, whether it was decided
   * automatically, and the signature binding it to its call.
   * @param {Record<string, any> | null} approval the part's, unchecked
   * @param {boolean} requested
   */
  updateApprovalDetails(approval, requested) {
    /** @type {Array<[string, unknown]>} */
    const rows = approval
      ? [
          ["Asked", requested || typeof approval.requestReason !== "string" ? undefined : approval.requestReason],
          ["Descriptor", approval.descriptor ?? undefined],
          ["Automatic", typeof approval.isAutomatic === "boolean" ? approval.isAutomatic : undefined],
          ["Signature", typeof approval.signature === "string" ? approval.signature : undefined],
        ]
      : [];
    const key = JSON.stringify(rows);
    if (key === this.approvalDetailsKey) return;
    this.approvalDetailsKey = key;
    this.approvalDetails.replaceChildren(detailsList(rows, { hook: "approval-details", code: ["Signature", "Descriptor"] }));
    this.approvalDetails.hidden = rows.every(([, value]) => value === undefined);
  }

  /** @param {UIPart} part @param {string} state @param {string | undefined} previousState */
  updateApproval(part, state, previousState) {
    const approval = part.approval && typeof part.approval === "object" ? part.approval : null;
    this.updateApprovalDetails(approval, state === "approval-requested");
    const requested = state === "approval-requested";
    const answered =
      state === "approval-responded" || state === "output-denied" || (approval && approval.approved !== undefined);
    this.approval.hidden = !requested && !(answered && approval);
    this.approval.dataset.state = requested ? "requested" : "answered";
    const controls = /** @type {HTMLElement} */ (this.approval.querySelector(".agui-approval-controls"));
    controls.hidden = !requested;
    if (requested) {
      this.approvalText.textContent = approval?.requestReason
        ? `Approval needed: ${label(approval.requestReason, 500)}`
        : "This tool call needs your approval.";
      if (previousState !== "approval-requested") {
        this.approveButton.disabled = false;
        this.denyButton.disabled = false;
        delete this.el.dataset.approvalSent;
        this.context.askedForApproval?.(this.el);
      }
    } else if (approval) {
      if (toolEnded(part) === "cancelled") {
        this.approvalText.textContent = "Cancelled: a new message was sent before this was answered.";
        return;
      }
      const verdict = approval.approved === false ? "Denied" : "Approved";
      this.approvalText.textContent = approval.reason ? `${verdict}: ${label(approval.reason, 500)}` : verdict;
    }
  }
}
