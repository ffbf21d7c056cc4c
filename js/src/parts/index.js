// @ts-check
// Part renderers by part type. Each view has `el` (carrying data-part-type) and `update(part)`.
import { CustomPartView, SteeringPartView } from "./custom.js";
import { DataPartView } from "./data.js";
import { FilePartView } from "./file.js";
import { InterruptPartView } from "../interrupts.js";
import { ReasoningPartView } from "./reasoning.js";
export { RenderedPartView, renderingFor } from "./rendered.js";
import { SourceDocumentPartView, SourceUrlPartView } from "./sources.js";
import { StepStartPartView } from "./step.js";
import { TextPartView } from "./text.js";
import { ToolPartView } from "./tool.js";

/**
 * What the message view holds for each part: the element, how a new version of the part (and a renderer's output,
 * when one applies) reaches it, and what the message view notes on it to leave an unchanged part alone.
 * @typedef {object} PartView
 * @property {HTMLElement} el
 * @property {(part: any, rendering?: any) => void} update
 * @property {() => void} [destroy]
 * @property {string} [type] the part type it was made for
 * @property {object} [shown] the part it shows
 * @property {any} [shownRendering] the renderer output it shows
 */

/**
 * A new view for a part of type `type` in a message of role `context.role`.
 * @param {string} type
 * @param {any} context
 * @returns {PartView}
 */
export function createPartView(type, context) {
  switch (type) {
    case "text":
      return new TextPartView(context);
    case "reasoning":
      return new ReasoningPartView(context);
    case "dynamic-tool":
      return new ToolPartView(context, type);
    case "source-url":
      return new SourceUrlPartView();
    case "source-document":
      return new SourceDocumentPartView();
    case "file":
    case "reasoning-file":
      return new FilePartView(context, type);
    case "step-start":
      return new StepStartPartView();
    case "steering-message":
      return new SteeringPartView(context);
    default:
      if (type.startsWith("tool-")) return new ToolPartView(context, type);
      if (type === "data-interrupt") return new InterruptPartView(context);
      if (type.startsWith("data-")) return new DataPartView(context, type);
      return new CustomPartView(context, type);
  }
}
