// @ts-check
// Which key events leave the widget for the page (JupyterLab and Notebook 7 read shortcuts from keydown/keyup on
// the document, in the bubbling phase): shortcuts with Ctrl, Cmd or Alt do (Ctrl+S saves the notebook, Ctrl+Shift+C
// opens the command palette), except text editing in a field and keys the widget handled itself. Keys without
// those modifiers never do, so the notebook's single-key command-mode shortcuts (a, b, d d, Esc, Enter...) cannot
// fire while the user types in the widget. (Lumino's `data-lm-suppress-shortcuts` is not used: it makes Lumino
// skip every shortcut for events from inside, Ctrl+S too.)

// With Ctrl/Cmd, these edit text in a field (select all, copy, paste, cut, undo, redo); with Shift too, redo and
// paste as plain text (Ctrl+Shift+C is JupyterLab's command palette: it goes on).
const EDITING_LETTERS = new Set(["a", "c", "v", "x", "z", "y"]);
const SHIFT_EDITING_LETTERS = new Set(["z", "v"]);
// With any modifier, these move the caret or delete by words and lines in a field.
const EDITING_KEYS = new Set([
  "ArrowLeft",
  "ArrowRight",
  "ArrowUp",
  "ArrowDown",
  "Home",
  "End",
  "Backspace",
  "Delete",
  "PageUp",
  "PageDown",
]);
// With Ctrl/Cmd, these act on text selected in the widget (outside a field).
const SELECTION_LETTERS = new Set(["a", "c", "x"]);

/** @param {any} target an event's target: any node, or none */
function editable(target) {
  if (!target || target.nodeType !== 1) return false;
  if (target.isContentEditable) return true;
  if (target.tagName === "TEXTAREA") return !target.readOnly && !target.disabled;
  if (target.tagName !== "INPUT") return false;
  return !target.readOnly && !target.disabled && !["checkbox", "radio", "button", "submit", "reset", "file", "range", "color"].includes(target.type);
}

/** @param {Element} root */
function selectionInside(root) {
  const selection = root.ownerDocument?.getSelection?.();
  return Boolean(selection && !selection.isCollapsed && selection.anchorNode && root.contains(selection.anchorNode));
}

// A modifier pressed alone is no shortcut yet.
const MODIFIERS = new Set(["Control", "Meta", "Alt", "AltGraph", "Shift", "OS", "Hyper", "Super"]);

/**
 * Whether a key event from inside the widget (`root`) may go on to the page's shortcut handlers.
 * @param {KeyboardEvent} event
 * @param {Element} root
 * @returns {boolean}
 */
export function keyLeavesWidget(event, root) {
  if (event.defaultPrevented) return false; // the widget acted on it
  const command = event.ctrlKey || event.metaKey;
  if (!command && !event.altKey) return false; // typing: letters, Enter, Escape, arrows, space, Shift+...
  const key = typeof event.key === "string" ? event.key : "";
  if (MODIFIERS.has(key)) return false;
  const letter = key.length === 1 ? key.toLowerCase() : "";
  if (editable(event.target)) {
    // Option (macOS) and AltGr (Ctrl+Alt on Windows) type characters: "ß", "@", "€" (Alt+W on Linux is "w").
    if (event.altKey && key.length === 1 && !/^[a-z0-9]$/i.test(key)) return false;
    if (command && (event.shiftKey ? SHIFT_EDITING_LETTERS : EDITING_LETTERS).has(letter)) return false;
    if (EDITING_KEYS.has(key)) return false;
  }
  if (command && !event.shiftKey && SELECTION_LETTERS.has(letter) && selectionInside(root)) return false;
  return true;
}
