// @ts-check
// The inline editor a user message shows in place of its bubble (the pencil opens it): a textarea holding the old
// text, Save and Cancel. Enter saves, Shift+Enter breaks the line, Escape cancels; an Enter that ends an IME
// composition does neither. Save is disabled while the agent answers and while there is nothing to send.
import { button, element } from "./dom.js";

const MAX_HEIGHT_PX = 240;

export class InlineEditor {
  /**
   * `text`: the old text; `hasOtherParts`: whether the message keeps attachments (then empty text may be saved).
   * @param {{text: string, hasOtherParts: boolean, onSave: (text: string) => void, onCancel: () => void}} options
   */
  constructor({ text, hasOtherParts, onSave, onCancel }) {
    this.hasOtherParts = hasOtherParts;
    this.onSave = onSave;
    this.onCancel = onCancel;
    this.busy = false;
    this.el = element("div", "agui-editor");
    this.el.dataset.agui = "editor";
    this.input = element("textarea", "agui-editor-input");
    this.input.dataset.agui = "edit-input";
    this.input.rows = 1;
    this.input.value = text;
    this.input.setAttribute("aria-label", "Edit your message");
    this.input.addEventListener("keydown", (event) => this.onKeydown(event));
    this.input.addEventListener("input", () => this.refresh());
    const bar = element("div", "agui-editor-bar");
    this.cancelButton = button("edit-cancel", "Cancel editing (Esc)", {
      text: "Cancel",
      className: "agui-button agui-ghost",
    });
    this.saveButton = button("edit-save", "Save and send again (Enter)", {
      text: "Save",
      className: "agui-button agui-primary",
    });
    this.cancelButton.addEventListener("click", () => this.onCancel());
    this.saveButton.addEventListener("click", () => this.save());
    bar.append(this.cancelButton, this.saveButton);
    this.el.append(this.input, bar);
    this.refresh();
  }

  /** Put the caret at the end of the text, and size the box to it, once the editor is in the page. */
  focus() {
    this.grow();
    this.input.focus({ preventScroll: true });
    this.input.setSelectionRange(this.input.value.length, this.input.value.length);
  }

  /** @param {boolean} busy */
  setBusy(busy) {
    this.busy = busy;
    this.refresh();
  }

  sendable() {
    return !this.busy && (this.input.value.trim() !== "" || this.hasOtherParts);
  }

  refresh() {
    this.grow();
    const disabled = !this.sendable();
    this.saveButton.disabled = disabled;
    this.saveButton.setAttribute("aria-disabled", disabled ? "true" : "false");
    this.saveButton.title = this.busy ? "The agent is still answering" : "Save and send again (Enter)";
  }

  grow() {
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight + 2, MAX_HEIGHT_PX)}px`;
  }

  save() {
    if (this.sendable()) this.onSave(this.input.value.trim() === "" ? "" : this.input.value);
  }

  /** @param {KeyboardEvent} event */
  onKeydown(event) {
    if (event.key === "Escape") {
      event.preventDefault();
      this.onCancel();
      return;
    }
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) return;
    if (event.ctrlKey || event.altKey || event.metaKey) return;
    event.preventDefault();
    this.save();
  }
}
