// @ts-check
// Message metadata (metadata["ag-ui"]): the model, token usage, timing and outcome shown on hover, and run errors.
import { label } from "./dom.js";
import { formatDuration } from "./parts/reasoning.js";

/**
 * @param {unknown} metadata a message's
 * @returns {Record<string, any> | null} what the AG-UI bridge recorded in it, unchecked
 */
function agui(metadata) {
  const value = metadata && typeof metadata === "object" ? /** @type {Record<string, unknown>} */ (metadata)["ag-ui"] : null;
  return value && typeof value === "object" ? value : null;
}

/** @param {unknown} value seconds or milliseconds since the epoch, or an ISO date @returns {number | null} */
function toMillis(value) {
  if (typeof value === "number" && Number.isFinite(value)) return value < 1e11 ? value * 1000 : value;
  if (typeof value === "string" && value) {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

/** @param {unknown} value */
function count(value) {
  return typeof value === "number" && Number.isFinite(value) ? value.toLocaleString("en-US") : null;
}

/**
 * Token counts added up over usage entries; provider and model names are left out.
 * @param {object[]} entries
 * @returns {Record<string, number>}
 */
function sumUsage(entries) {
  /** @type {Record<string, number>} */
  const total = {};
  for (const entry of entries) {
    for (const [key, value] of Object.entries(entry)) {
      if (typeof value === "number" && Number.isFinite(value)) total[key] = (total[key] ?? 0) + value;
    }
  }
  return total;
}

/**
 * The hover line ("model · 1,234 in · 56 out · 3 s") and a longer tooltip, or null when there is nothing.
 * @param {unknown} metadata
 * @returns {{short: string, long: string} | null}
 */
export function describeMetadata(metadata) {
  const info = agui(metadata);
  if (info === null) return null;
  const short = [];
  const long = [];
  // RUN_FINISHED carries usage as a list (one entry per provider and model); a single object is accepted too.
  const entries = (Array.isArray(info.usage) ? info.usage : [info.usage]).filter(
    (/** @type {any} */ entry) => entry && typeof entry === "object" && !Array.isArray(entry),
  );
  const models = [info.model, ...entries.map((/** @type {any} */ entry) => entry.model)].filter(
    (model, index, all) => typeof model === "string" && model && all.indexOf(model) === index,
  );
  if (models.length > 0) {
    const model = models.join(", ");
    short.push(label(model, 60));
    long.push(`Model: ${label(model, 200)}`);
  }
  const usage = entries.length > 0 ? sumUsage(entries) : null;
  if (usage) {
    const input = count(usage.inputTokens);
    const output = count(usage.outputTokens);
    const reasoning = count(usage.reasoningTokens);
    const total = count(usage.totalTokens);
    if (input !== null) short.push(`${input} in`);
    if (output !== null) short.push(`${output} out`);
    if (reasoning !== null && usage.reasoningTokens > 0) short.push(`${reasoning} reasoning`);
    if (input === null && output === null && total !== null) short.push(`${total} tokens`);
    for (const [key, value] of Object.entries(usage)) {
      const shown = count(value);
      if (shown !== null) long.push(`${label(key, 40)}: ${shown}`);
    }
  }
  const started = toMillis(info.startedAt);
  const finished = toMillis(info.finishedAt);
  if (started !== null && finished !== null && finished >= started) {
    short.push(formatDuration(finished - started));
    long.push(`Duration: ${((finished - started) / 1000).toFixed(2)} s`);
  }
  // The AG-UI outcome is an object ({type: "success" | "interrupt" | "cancelled", ...}); a bare string is accepted.
  const outcome = typeof info.outcome === "string" ? info.outcome : info.outcome?.type;
  if (typeof outcome === "string" && outcome) {
    if (outcome !== "success") short.push(label(outcome, 40));
    long.push(`Outcome: ${label(outcome, 60)}`);
  }
  if (typeof info.threadId === "string") long.push(`Thread: ${label(info.threadId, 80)}`);
  if (typeof info.runId === "string") long.push(`Run: ${label(info.runId, 80)}`);
  if (short.length === 0 && long.length === 0) return null;
  return { short: short.join(" · "), long: long.join("\n") };
}

/**
 * The run error recorded in a message's metadata, as text, or "".
 * @param {unknown} metadata
 * @returns {string}
 */
export function metadataError(metadata) {
  const error = agui(metadata)?.error;
  if (error === undefined || error === null || error === false || error === "") return "";
  if (typeof error === "string") return error;
  if (typeof error === "object" && typeof error.message === "string") {
    const code = typeof error.code === "string" ? error.code : "";
    // "ConnectionError: unreachable" already names its code: do not say it twice.
    const named = code === "" || error.message === code || error.message.startsWith(`${code}:`);
    return named ? error.message : `${error.message} (${code})`;
  }
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
