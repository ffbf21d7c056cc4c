// @ts-check
// The live metrics strip under an answer (ChatWidget(show_metrics=True)): TTFT, tokens/s (reported, else
// estimated and labelled so), chunks/s, the run's duration and a sparkline of the inter-chunk gaps. The kernel
// computes the numbers (widget/_metrics.py) into the `message_metrics` trait, {message id: metrics}; this only
// draws them. One listener per chat view updates every strip of that view when the trait or `show_metrics`
// changes (at most a few times a second: the kernel throttles the trait).
import { element } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const BAR_WIDTH = 2;
const BAR_STEP = 3;
const SPARK_HEIGHT = 14;

/** @typedef {{model?: import("./anywidget.js").AnyModel}} MetricsChat the chat view, whose model holds the metrics */
/** @typedef {{strips: Set<MetricsStrip>, release: (strip: MetricsStrip) => void}} Registry */

/** @type {WeakMap<MetricsChat, Registry>} chat view -> its strips, and how one leaves */
const registries = new WeakMap();

/** @param {MetricsChat} chat @returns {Registry} */
function registryOf(chat) {
  let registry = registries.get(chat);
  if (registry !== undefined) return registry;
  /** @type {Set<MetricsStrip>} */
  const strips = new Set();
  const model = chat.model;
  const refresh = () => {
    for (const strip of strips) strip.refresh();
  };
  model?.on?.("change:message_metrics", refresh);
  model?.on?.("change:show_metrics", refresh);
  registry = {
    strips,
    release(strip) {
      strips.delete(strip);
      if (strips.size === 0) {
        model?.off?.("change:message_metrics", refresh);
        model?.off?.("change:show_metrics", refresh);
        registries.delete(chat);
      }
    },
  };
  registries.set(chat, registry);
  return registry;
}

/** @param {unknown} value @returns {number | null} */
function finite(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * Seconds as a person reads them: "250 ms", "1.25 s", "12.3 s", "2 min 5 s".
 * @param {number} seconds
 * @returns {string}
 */
export function formatSeconds(seconds) {
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  if (seconds < 10) return `${seconds.toFixed(2)} s`;
  if (seconds < 120) return `${seconds.toFixed(1)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** @param {number} rate */
function formatRate(rate) {
  return rate >= 100 ? String(Math.round(rate)) : rate >= 10 ? rate.toFixed(1) : rate.toFixed(2);
}

/**
 * The strip's items: [hook, shown text, spoken text], for the metrics the message has.
 * @param {Record<string, unknown>} metrics one message's, as the kernel computed them (widget/_metrics.py)
 * @returns {Array<[string, string, string]>}
 */
export function metricItems(metrics) {
  /** @type {Array<[string, string, string]>} */
  const items = [];
  const ttft = finite(metrics.ttft_s);
  if (ttft !== null) items.push(["ttft", `TTFT ${formatSeconds(ttft)}`, `time to first token ${formatSeconds(ttft)}`]);
  const tokens = finite(metrics.tokens_per_s);
  if (tokens !== null) {
    const rate = formatRate(tokens);
    if (metrics.tokens_estimated === false) items.push(["tokens", `${rate} tok/s`, `${rate} tokens per second`]);
    else items.push(["tokens", `~${rate} tok/s (est.)`, `about ${rate} tokens per second, estimated from characters`]);
  }
  const chunks = finite(metrics.chunks_per_s);
  if (chunks !== null) items.push(["chunks", `${formatRate(chunks)} chunks/s`, `${formatRate(chunks)} chunks per second`]);
  const duration = finite(metrics.duration_s);
  const elapsed = finite(metrics.elapsed_s);
  if (duration !== null) items.push(["duration", `total ${formatSeconds(duration)}`, `total ${formatSeconds(duration)}`]);
  else if (metrics.running === true && elapsed !== null) {
    items.push(["duration", `${formatSeconds(elapsed)} so far`, `${formatSeconds(elapsed)} so far, still streaming`]);
  }
  return items;
}

/**
 * @param {number[]} gaps seconds between chunks, one per bar
 * @param {number} perBar gaps each bar stands for (the longest of them)
 * @param {number} count gaps in the whole answer
 * @param {number | null} longest
 */
function sparkline(gaps, perBar, count, longest) {
  const svg = document.createElementNS(SVG, "svg");
  svg.classList.add("agui-metrics-sparkline");
  svg.dataset.agui = "metrics-sparkline";
  const width = Math.max(1, gaps.length * BAR_STEP - (BAR_STEP - BAR_WIDTH));
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(SPARK_HEIGHT));
  svg.setAttribute("viewBox", `0 0 ${width} ${SPARK_HEIGHT}`);
  svg.setAttribute("aria-hidden", "true");
  const top = Math.max(...gaps, 1e-9);
  const title = document.createElementNS(SVG, "title");
  const every = perBar > 1 ? `, each bar the longest of ${perBar}` : "";
  title.textContent = `${count} inter-chunk gaps${every}; longest ${formatSeconds(longest ?? top)}`;
  svg.append(title);
  gaps.forEach((gap, index) => {
    const height = Math.max(1, Math.round((Math.max(0, gap) / top) * SPARK_HEIGHT));
    const bar = document.createElementNS(SVG, "rect");
    bar.dataset.bar = String(index);
    bar.setAttribute("x", String(index * BAR_STEP));
    bar.setAttribute("y", String(SPARK_HEIGHT - height));
    bar.setAttribute("width", String(BAR_WIDTH));
    bar.setAttribute("height", String(height));
    svg.append(bar);
  });
  return svg;
}

export class MetricsStrip {
  /** @param {MetricsChat} chat */
  constructor(chat) {
    this.chat = chat;
    this.el = element("div", "agui-metrics");
    this.el.dataset.agui = "metrics";
    this.el.setAttribute("role", "group");
    this.el.hidden = true;
    /** @type {string | null} */
    this.messageId = null;
    /** @type {string | null} */
    this.role = null;
    /** @type {string | null} the JSON text of what is drawn */
    this.shown = null;
    this.registry = registryOf(chat);
    this.registry.strips.add(this);
  }

  /**
   * The message this strip belongs to (called by the message view on every render).
   * @param {string | null} messageId
   * @param {string | null} role
   */
  show(messageId, role) {
    this.messageId = messageId;
    this.role = role;
    this.refresh();
  }

  refresh() {
    const model = this.chat.model;
    const all = model?.get?.("message_metrics");
    const metrics =
      model?.get?.("show_metrics") === true && this.role === "assistant" && all && typeof all === "object"
        ? all[this.messageId]
        : undefined;
    // Touch the DOM only on a change: a patch must not mutate the messages it does not name.
    if (metrics === null || typeof metrics !== "object") {
      if (!this.el.hidden) this.el.hidden = true;
      return;
    }
    const text = JSON.stringify(metrics);
    if (this.el.hidden) this.el.hidden = false;
    if (text === this.shown) return;
    this.shown = text;
    this.draw(metrics);
  }

  /** @param {Record<string, any>} metrics */
  draw(metrics) {
    const items = metricItems(metrics);
    const nodes = items.map(([hook, shown]) => {
      const node = element("span", "agui-metric", shown);
      node.dataset.metric = hook;
      return node;
    });
    const spoken = items.map(([, , said]) => said);
    const gaps = Array.isArray(metrics.gaps_s) ? metrics.gaps_s.filter((/** @type {unknown} */ gap) => finite(gap) !== null) : [];
    if (gaps.length) {
      const count = finite(metrics.gap_count) ?? gaps.length;
      const longest = finite(metrics.max_gap_s);
      // The bars go with their word, so the two wrap as one.
      const group = element("span", "agui-metrics-gaps", "gaps");
      group.dataset.metric = "gaps";
      group.append(sparkline(gaps, finite(metrics.gaps_per_bar) ?? 1, count, longest));
      nodes.push(group);
      spoken.push(`${count} inter-chunk gaps, longest ${formatSeconds(longest ?? Math.max(...gaps))}`);
    }
    this.el.dataset.running = metrics.running === true ? "true" : "false";
    this.el.setAttribute("aria-label", `Answer metrics: ${spoken.join(", ") || "no output yet"}`);
    this.el.replaceChildren(...nodes);
  }

  destroy() {
    this.registry.release(this);
  }
}
