// Entry point of the ChatWidget front end (an anywidget ESM module). See docs/widget.md for the sync protocol.
import { ChatView } from "./chat_view.js";

function render({ model, el }) {
  const view = new ChatView(model, el);
  return () => view.destroy();
}

export default { render };
