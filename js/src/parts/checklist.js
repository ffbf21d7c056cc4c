// @ts-check
// Checklists: the built-in renderer for plan / steps activities (AG-UI activities arrive as `data-{activityType}`
// parts). It takes the shapes agents commonly send: `{steps: [...]}` (also `tasks`, `todos`), or the list itself
// in a `data-plan`/`data-steps`/`data-tasks`/`data-todos` part, each step an object with a title (`title`,
// `description`, `content`, `text`, `label`, `name` or `task`) and a status (`status` or `state`; or a boolean
// `done`/`completed`). The statuses of LangGraph, CopilotKit, the AG-UI dojo and our demo map to five:
// done, active, failed, skipped, pending. Text only (textContent).
import { element, icon, label } from "../dom.js";

const MAX_STEPS = 100;
const LIST_KEYS = ["steps", "tasks", "todos"];
const PLAN_TYPES = new Set(["data-plan", "data-steps", "data-tasks", "data-todos", "data-todo", "data-checklist"]);
const TITLE_KEYS = ["title", "description", "content", "text", "label", "name", "task"];
const STATUSES = {
  done: ["done", "completed", "complete", "finished", "success", "succeeded", "ok"],
  active: ["in_progress", "in-progress", "inprogress", "running", "executing", "active", "started", "working",
    "current", "doing"],
  failed: ["failed", "error", "errored", "failure"],
  skipped: ["skipped", "cancelled", "canceled", "blocked"],
  pending: ["pending", "todo", "to_do", "not_started", "queued", "waiting", "planned", ""],
};
/** @type {Map<string, Tone>} */
const STATUS_OF = new Map(Object.entries(STATUSES).flatMap(([tone, names]) => names.map((n) => /** @type {[string, Tone]} */ ([n, tone]))));
/**
 * One step of a plan: its title, its tone (how it is drawn) and the status the agent gave.
 * @typedef {{title: string, tone: Tone, status: string}} Step
 */
/** @typedef {"done" | "active" | "failed" | "skipped" | "pending"} Tone */
/** @typedef {{title: string | null, steps: Step[]}} Plan */

/** @type {Record<Tone, string>} */
const STATUS_LABELS = { done: "Done", active: "In progress", failed: "Failed", skipped: "Skipped", pending: "Pending" };

/** @param {string} status */
function normalStatus(status) {
  return status.trim().toLowerCase().replace(/\s+/g, "_");
}

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** @param {Record<string, any>} step @returns {string | null} */
function stepTitle(step) {
  for (const key of TITLE_KEYS) if (typeof step[key] === "string" && step[key].trim()) return step[key];
  return null;
}

/** @param {Record<string, any>} step @returns {string | null} */
function rawStatus(step) {
  for (const key of ["status", "state"]) if (typeof step[key] === "string") return step[key];
  for (const key of ["done", "completed"]) if (typeof step[key] === "boolean") return step[key] ? "done" : "pending";
  return null;
}

/**
 * The steps of a plan part (plus the plan's own title), or null for other parts.
 * @param {import("../sync.js").UIPart | null | undefined} part
 * @returns {Plan | null}
 */
export function checklistSteps(part) {
  if (typeof part?.type !== "string" || !part.type.startsWith("data-")) return null;
  const data = part.data;
  /** @type {unknown[] | null} */
  let list = null;
  /** @type {string | null} */
  let title = null;
  if (Array.isArray(data) && PLAN_TYPES.has(part.type)) list = data;
  else if (isRecord(data)) {
    const key = LIST_KEYS.find((name) => Array.isArray(data[name]));
    if (key !== undefined) list = /** @type {unknown[]} */ (data[key]);
    title = typeof data.title === "string" ? data.title : typeof data.goal === "string" ? data.goal : null;
  }
  if (list === null || list.length === 0 || list.length > MAX_STEPS || !list.every(isRecord)) return null;
  /** @type {Step[]} */
  const steps = [];
  let withStatus = 0;
  for (const step of list) {
    const text = stepTitle(step);
    if (text === null) return null;
    const status = rawStatus(step);
    if (status !== null) withStatus += 1;
    const tone = STATUS_OF.get(normalStatus(status ?? "")) ?? "pending";
    steps.push({ title: text, tone, status: status ?? "" });
  }
  // Outside a plan part every step must say where it stands, so a plain list of records is not taken for a plan.
  if (!PLAN_TYPES.has(part.type) && withStatus < steps.length) return null;
  return { title, steps };
}

/** @type {Partial<Record<Tone, string>>} */
const TONE_ICONS = { done: "check", failed: "close", skipped: "skip" };

/**
 * The checklist element; `plan` is what checklistSteps returned.
 * @param {Plan} plan
 * @returns {HTMLOListElement}
 */
export function checklistElement(plan) {
  const list = element("ol", "agui-checklist");
  list.dataset.agui = "checklist";
  for (const step of plan.steps) {
    const item = element("li", "agui-checklist-step");
    item.dataset.agui = "checklist-step";
    item.dataset.status = step.tone;
    const mark = element("span", "agui-checklist-mark");
    mark.setAttribute("role", "img");
    mark.setAttribute("aria-label", STATUS_LABELS[step.tone]);
    const iconName = TONE_ICONS[step.tone];
    if (iconName === "skip") mark.append(element("span", "agui-checklist-dash"));
    else if (iconName) mark.append(icon(iconName));
    const text = element("span", "agui-checklist-title", label(step.title, 300));
    if (step.status && STATUS_OF.get(normalStatus(step.status)) === undefined) {
      text.title = `Status: ${label(step.status, 60)}`; // a status we do not know: shown as pending, named here
    }
    item.append(mark, text);
    list.append(item);
  }
  return list;
}

/**
 * "Plan · 1 of 3 done" (with the plan's title when it has one).
 * @param {Plan} plan
 * @param {string} type the part's
 * @returns {string}
 */
export function checklistSummary(plan, type) {
  const done = plan.steps.filter((step) => step.tone === "done").length;
  const name = plan.title ? label(plan.title, 80) : type === "data-plan" ? "Plan" : label(type.slice(5), 60);
  return `${name} · ${done} of ${plan.steps.length} done`;
}
