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

/** @typedef {import("./part_view.js").PartView} PartView */
/** @typedef {import("./part_view.js").PartContext} PartContext */

/**
 * A new view for a part of type `type` in a message of role `context.role`.
 * @param {string} type
 * @param {PartContext} context
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
