// A jsdom window as the browser globals the widget's modules use (document, window, Node, ...). Import it before
// any module under test: DOMPurify needs a real DOM (it refuses linkedom's and would then pass HTML through).
import { JSDOM } from "jsdom";

const { window } = new JSDOM("<!doctype html><html><head></head><body></body></html>", {
  url: "https://notebook.example/lab",
});
for (const name of [
  "window", "document", "navigator", "Node", "Element", "HTMLElement", "HTMLInputElement", "HTMLSelectElement",
  "HTMLTextAreaElement", "HTMLButtonElement", "DocumentFragment", "ShadowRoot", "Event", "KeyboardEvent",
  "MouseEvent", "CustomEvent", "getComputedStyle", "requestAnimationFrame", "cancelAnimationFrame",
]) {
  // Node has its own Event and CustomEvent: jsdom's elements accept only jsdom's.
  Object.defineProperty(globalThis, name, { value: name === "window" ? window : window[name], configurable: true, writable: true });
}
