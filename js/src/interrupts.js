// @ts-check
// `data-interrupt` parts: an AG-UI interrupt no tool card answers (agui_notebook/chat/_interrupts.py). The
// card shows the interrupt's message, a form generated from its `responseSchema` (form.js), the `expiresAt`
// countdown, and Submit / Dismiss; without a schema, Continue / Dismiss and an optional reply. Submitting sends
// {kind: "interrupt", interruptId, status: "resolved", payload}; dismissing {..., status: "cancelled"}. Once
// answered it shows the answer; expired, it can only be dismissed (as @ag-ui/client refuses to resume it).
import { button, element, icon, label, prettyJson } from "./dom.js";
import { SchemaForm } from "./form.js";

const LONG_VALUE = 80;
/** @typedef {"open" | "resolved" | "cancelled" | "expired"} InterruptStatus */

/** @type {Record<InterruptStatus, [string, string]>} the badge's text and tone */
const STATUS = {
  open: ["Needs your input", "warn"],
  resolved: ["Answered", "success"],
  cancelled: ["Dismissed", "muted"],
  expired: ["Expired", "denied"],
};

// ISO 8601 as the kernel reads it (datetime.fromisoformat): a date, a time with a T or a space, a zone.
const ISO_MOMENT = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?))?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** When an interrupt's `expiresAt` passes, in ms since the epoch (the kernel's rule: no zone is UTC, and what is
 * no ISO 8601 moment never expires), or null. The browser's own lenient date parsing is not used.
 * @param {unknown} expiresAt
 * @returns {number | null}
 */
export function expiryTime(expiresAt) {
  const match = typeof expiresAt === "string" ? ISO_MOMENT.exec(expiresAt.trim()) : null;
  if (match === null) return null;
  const [, day, clock = "00:00", zone = "Z"] = match;
  const [hm, fraction = ""] = clock.replace(",", ".").split(".");
  const time = hm.length === 5 ? `${hm}:00` : hm;
  const millis = fraction ? `.${fraction.padEnd(3, "0").slice(0, 3)}` : "";
  const offset = zone.toUpperCase() === "Z" ? "Z" : zone.length === 3 ? `${zone}:00` : zone.length === 5 ? `${zone.slice(0, 3)}:${zone.slice(3)}` : zone;
  const parsed = Date.parse(`${day}T${time}${millis}${offset}`);
  // Date.parse rolls 2026-02-30 over into March; the kernel refuses it.
  const [y, m, d] = day.split("-").map(Number);
  const calendar = new Date(Date.UTC(y, m - 1, d));
  if (calendar.getUTCMonth() !== m - 1 || calendar.getUTCDate() !== d) return null;
  return Number.isNaN(parsed) ? null : parsed;
}

/**
 * "4:59", "1:02:03", "3 d 4 h": what is left until `until` (ms).
 * @param {number} left ms
 * @returns {string}
 */
export function countdownText(left) {
  const seconds = Math.max(0, Math.ceil(left / 1000));
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secs = seconds % 60;
  if (days > 0) return `${days} d ${hours} h`;
  const two = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return hours > 0 ? `${hours}:${two(minutes)}:${two(secs)}` : `${minutes}:${two(secs)}`;
}

/**
 * A small definition list of [term, value] rows: values are text (JSON for objects), a long one cut with a
 * "more" button showing it whole. Rows whose value is undefined are left out.
 * @param {Array<[string, unknown]>} rows
 * @param {{hook?: string, code?: string[]}} [options] `code`: the terms whose values are code
 * @returns {HTMLDListElement}
 */
export function detailsList(rows, { hook = "details", code = [] } = {}) {
  const list = element("dl", "agui-details-list");
  list.dataset.agui = hook;
  for (const [term, value] of rows) {
    if (value === undefined) continue;
    const text = typeof value === "string" ? value : typeof value === "boolean" ? (value ? "Yes" : "No") : prettyJson(value);
    const dt = element("dt", "", term);
    const dd = element("dd", code.includes(term) ? "agui-details-code" : "");
    dd.dataset.term = term;
    const full = label(text, 20000);
    const flat = full.replace(/\s+/g, " ");
    const shown = element("span", "agui-details-value", flat.length > LONG_VALUE ? `${flat.slice(0, LONG_VALUE - 1)}…` : flat);
    dd.append(shown);
    if (flat.length > LONG_VALUE) {
      const more = button("details-more", `Show more of ${term}`, { text: "more", className: "agui-button agui-details-more" });
      more.setAttribute("aria-expanded", "false");
      more.addEventListener("click", () => {
        const open = more.getAttribute("aria-expanded") !== "true";
        more.setAttribute("aria-expanded", String(open));
        dd.dataset.expanded = String(open);
        shown.textContent = open ? full : `${flat.slice(0, LONG_VALUE - 1)}…`;
        /** @type {Element} */ (more.querySelector(".agui-button-text")).textContent = open ? "less" : "more";
      });
      dd.append(more);
    }
    list.append(dt, dd);
  }
  list.hidden = list.childElementCount === 0;
  return list;
}

/** @param {unknown} reason the interrupt's @returns {string} */
function reasonTitle(reason) {
  if (typeof reason !== "string" || reason === "") return "Input needed";
  const words = reason.replace(/[_-]+/g, " ").trim();
  return label(words[0].toUpperCase() + words.slice(1), 80);
}

export class InterruptPartView {
  /** @param {import("./parts/part_view.js").PartContext} context */
  constructor(context) {
    this.context = context;
    this.seenConnected = false;
    this.el = element("div", "agui-part agui-interrupt");
    this.el.dataset.partType = "data-interrupt";
    this.el.setAttribute("role", "group");
    const header = element("div", "agui-interrupt-header");
    this.title = element("span", "agui-interrupt-title");
    this.countdown = element("span", "agui-interrupt-countdown");
    this.countdown.dataset.agui = "interrupt-countdown";
    this.badge = element("span", "agui-badge");
    this.badge.dataset.agui = "interrupt-state";
    header.append(icon("compose"), this.title, this.countdown, this.badge);
    this.message = element("div", "agui-interrupt-message");
    this.message.dataset.agui = "interrupt-message";
    this.body = element("div", "agui-interrupt-body");
    this.answer = element("div", "agui-interrupt-answer");
    this.answer.dataset.agui = "interrupt-answer";
    this.controls = element("div", "agui-interrupt-controls");
    this.note = element("span", "agui-interrupt-note");
    this.note.dataset.agui = "interrupt-note";
    this.dismissButton = button("interrupt-dismiss", "Dismiss: answer that you will not respond", {
      text: "Dismiss",
      className: "agui-button agui-secondary",
    });
    this.submitButton = button("interrupt-submit", "Submit: send this answer", { text: "Submit", className: "agui-button agui-primary" });
    this.dismissButton.addEventListener("click", () => this.dismiss());
    this.submitButton.addEventListener("click", () => this.submit());
    this.controls.append(this.note, this.dismissButton, this.submitButton);
    this.el.append(header, this.message, this.body, this.answer, this.controls);
    this.el.addEventListener("keydown", (event) => {
      // Enter in a one-line field submits, as in any form (not in a textarea, not while composing text).
      const target = /** @type {HTMLInputElement | null} */ (event.target);
      if (event.key !== "Enter" || event.isComposing || target?.tagName !== "INPUT") return;
      if (target.type === "checkbox" || target.type === "radio") return;
      event.preventDefault();
      this.submit();
    });
    /** @type {string | null} the part id and schema the form was built for */
    this.formKey = null;
    /** @type {SchemaForm | null} */
    this.form = null;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
  }

  /**
   * What the card shows: the stored status, or "expired" for an open one whose time is up.
   * @returns {InterruptStatus}
   */
  shownStatus() {
    const status = this.data?.status;
    if (status === "open") {
      const expires = expiryTime(this.interrupt?.expiresAt);
      return expires !== null && expires <= Date.now() ? "expired" : "open";
    }
    return status === "resolved" || status === "cancelled" ? status : "open";
  }

  /** @param {import("./sync.js").UIPart} part */
  update(part) {
    const previous = this.part; // (not `shown`: the message view keeps that one)
    this.part = part;
    this.data = part.data && typeof part.data === "object" ? part.data : {};
    this.interrupt = this.data.interrupt && typeof this.data.interrupt === "object" ? this.data.interrupt : {};
    const interrupt = this.interrupt;
    this.el.dataset.interruptId = label(part.id ?? interrupt.id ?? "", 200);
    const schema = interrupt.responseSchema && typeof interrupt.responseSchema === "object" ? interrupt.responseSchema : null;
    this.title.textContent = schema && typeof schema.title === "string" ? label(schema.title, 120) : reasonTitle(interrupt.reason);
    this.el.setAttribute("aria-label", this.title.textContent);
    const text = typeof interrupt.message === "string" ? label(interrupt.message, 4000) : "";
    this.message.textContent = text;
    this.message.hidden = text === "";
    // The form is built once per interrupt (what the user typed survives updates of the same part).
    const key = JSON.stringify([part.id, schema]);
    if (key !== this.formKey) {
      this.formKey = key;
      this.form = schema ? new SchemaForm(schema) : null;
      this.form?.holdChecksDuringPresses(this.controls);
      this.reply = null;
      if (!schema) {
        this.reply = element("textarea", "agui-field-input agui-interrupt-reply");
        this.reply.dataset.agui = "interrupt-reply";
        this.reply.rows = 2;
        this.reply.placeholder = "Reply (optional)";
        this.reply.setAttribute("aria-label", "Reply (optional)");
      }
      this.body.replaceChildren(this.form ? this.form.el : this.reply);
      this.submitButton.querySelector(".agui-button-text").textContent = schema ? "Submit" : "Continue";
    }
    if (previous !== undefined && previous !== part) delete this.el.dataset.sent;
    this.render();
    if (this.data.status === "open" && previous?.data?.status !== "open") this.context.askedForApproval?.(this.el);
  }

  render() {
    const status = this.shownStatus();
    this.el.dataset.status = status;
    const [text, tone] = STATUS[status];
    this.badge.textContent = text;
    this.badge.dataset.tone = tone;
    const open = status === "open";
    this.body.hidden = !open && status !== "expired";
    this.form?.setDisabled(!open || this.el.dataset.sent !== undefined);
    if (this.reply) this.reply.disabled = !open || this.el.dataset.sent !== undefined;
    this.controls.hidden = !(open || status === "expired");
    this.submitButton.hidden = !open;
    this.submitButton.disabled = this.el.dataset.sent !== undefined;
    this.dismissButton.disabled = this.el.dataset.sent !== undefined;
    this.note.textContent = status === "expired" ? "This request has expired: dismiss it to continue." : "";
    this.note.hidden = this.note.textContent === "";
    this.showAnswer(status);
    this.tick();
  }

  /** @param {InterruptStatus} status */
  showAnswer(status) {
    this.answer.replaceChildren();
    if (status === "resolved") {
      const payload = this.data.payload;
      /** @type {Array<[string, unknown]>} */
      let rows;
      if (payload && typeof payload === "object" && !Array.isArray(payload)) {
        const properties = this.interrupt.responseSchema?.properties ?? {};
        rows = Object.entries(payload).map(([key, value]) => /** @type {[string, unknown]} */ ([
          typeof properties[key]?.title === "string" ? label(properties[key].title, 80) : key,
          Array.isArray(value) && value.every((v) => typeof v !== "object") ? value.join(", ") : value,
        ]));
      } else {
        rows = payload === undefined ? [] : [["Answer", payload]];
      }
      if (rows.length) this.answer.append(detailsList(rows, { hook: "interrupt-payload" }));
      else this.answer.append(element("span", "agui-interrupt-done", "Continued without an answer."));
    } else if (status === "cancelled") {
      const text =
        this.data.cancelledBy === "new-message" ? "Dismissed: a new message was sent before this was answered." : "Dismissed.";
      this.answer.append(element("span", "agui-interrupt-done", text));
    }
    this.answer.hidden = this.answer.childElementCount === 0;
  }

  /** The countdown: updated every second while open; when the time is up the card turns expired. */
  tick() {
    clearTimeout(this.timer);
    this.timer = null;
    const expires = expiryTime(this.interrupt?.expiresAt);
    const status = this.shownStatus();
    if (expires === null || status === "resolved" || status === "cancelled") {
      this.countdown.hidden = true;
      return;
    }
    this.countdown.hidden = false;
    const left = expires - Date.now();
    const at = new Date(expires).toLocaleString();
    this.countdown.title = `Expires ${at}`;
    if (left <= 0) {
      this.countdown.textContent = `expired ${new Date(expires).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`;
      if (this.el.dataset.status !== "expired") this.render();
      return;
    }
    this.countdown.textContent = `expires in ${countdownText(left)}`;
    this.countdown.dataset.soon = left < 60000 ? "true" : "false";
    // A card no longer on the page stops counting (its next update starts again).
    if (this.el.isConnected || !this.seenConnected) {
      this.seenConnected ||= this.el.isConnected;
      this.timer = setTimeout(() => this.tick(), left % 1000 || 1000);
    }
  }

  submit() {
    const interruptId = this.part?.id ?? this.interrupt?.id;
    if (this.shownStatus() !== "open" || typeof interruptId !== "string" || this.el.dataset.sent) return;
    /** @type {{kind: "interrupt", interruptId: string, status: "resolved", payload?: unknown}} */
    const message = { kind: "interrupt", interruptId, status: "resolved" };
    if (this.form) {
      const problems = this.form.check(true);
      if (problems.length) {
        this.form.firstInvalid()?.focus();
        return;
      }
      const payload = this.form.value();
      if (payload !== undefined) message.payload = payload;
    } else if (this.reply && this.reply.value.trim() !== "") {
      message.payload = this.reply.value;
    }
    this.send(message, "resolved");
  }

  dismiss() {
    const interruptId = this.part?.id ?? this.interrupt?.id;
    const status = this.shownStatus();
    if ((status !== "open" && status !== "expired") || typeof interruptId !== "string" || this.el.dataset.sent) return;
    this.send({ kind: "interrupt", interruptId, status: "cancelled" }, "cancelled");
  }

  /** @param {object} message @param {string} how "resolved" or "cancelled": what the card shows until the kernel answers */
  send(message, how) {
    if (this.context.send(message) === false) return;
    this.context.followBottom?.();
    // Until the kernel answers with the new state, the answer cannot be given twice.
    this.el.dataset.sent = how;
    this.render();
    this.context.answered?.(this.el); // the focus moves on: the next card waiting, or the input
  }
}
