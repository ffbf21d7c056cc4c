// @ts-check
// Entry point of the ChatWidget front end (an anywidget ESM module). See docs/widget.md for the sync protocol.
// The same bundle draws the inspector (`inspect(source)`): its model says so in `_view`.
import { ChatView } from "./chat_view.js";
import { InspectorView } from "./inspector_view.js";

/** @param {{model: import("./anywidget.js").AnyModel, el: HTMLElement}} view anywidget's render arguments */
function render({ model, el }) {
  const view = model.get("_view") === "inspector" ? new InspectorView(model, el) : new ChatView(model, el);
  return () => view.destroy();
}

export default { render };
