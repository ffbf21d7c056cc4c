// @ts-check
// The window of the conversation the inspector's page holds (agui_notebook/inspection/_window.py): per message
// index in the window, the message without its parts (its head), where its window of parts starts (`from`), how
// many parts it has (`total`) and those parts. The kernel's `conversation` updates send only the heads and parts
// that differ from what the page holds; an update that does not build on the page's version is refused, and the
// page asks for the whole window (`{kind: "window", version}`), as after a reconnect.

/**
 * @typedef {{head: Record<string, any>, from: number, total: number, parts: any[]}} WindowSlot
 * @typedef {{i: number, reset?: boolean, head?: Record<string, any>, from?: number, parts: Array<[number, any]>,
 *   length: number, total: number}} SlotUpdate
 * @typedef {{kind: "conversation", version: number, base: number | null, count: number, first: number,
 *   slots: number, messages: SlotUpdate[]}} ConversationUpdate
 */

export class ConversationWindow {
  constructor() {
    /** @type {number | null} the version of the last update taken (null: nothing yet) */
    this.version = null;
    /** @type {Map<number, WindowSlot>} message index -> what the page holds of it */
    this.held = new Map();
    this.first = 0;
    this.slots = 0;
    /** messages in the whole conversation */
    this.count = 0;
  }

  /**
   * Take an update; `false` when it does not build on what the page holds (ask for the whole window).
   * @param {ConversationUpdate} update
   */
  apply(update) {
    if (update.base !== null && update.base !== this.version) return false;
    const held = update.base === null ? new Map() : this.held;
    for (const op of update.messages) {
      let slot = held.get(op.i);
      if (op.reset || slot === undefined) {
        slot = { head: op.head ?? {}, from: op.from ?? 0, total: 0, parts: [] };
      } else if (op.head !== undefined) {
        slot = { ...slot, head: op.head };
      }
      const parts = slot.parts.slice(0, op.length);
      for (const [j, part] of op.parts) parts[j] = part;
      held.set(op.i, { ...slot, parts, total: op.total });
    }
    this.first = update.first;
    this.slots = update.slots;
    this.count = update.count;
    this.held = new Map();
    for (let i = this.first; i < this.first + this.slots; i += 1) {
      const slot = held.get(i);
      if (slot !== undefined) this.held.set(i, slot);
    }
    this.version = update.version;
    return true;
  }

  /** The window's messages in order: each its head with the window of its parts, and where those start. */
  messages() {
    /** @type {Array<{index: number, from: number, total: number, message: Record<string, any>}>} */
    const out = [];
    for (const [index, slot] of [...this.held].sort((a, b) => a[0] - b[0])) {
      out.push({ index, from: slot.from, total: slot.total, message: { ...slot.head, parts: slot.parts } });
    }
    return out;
  }
}
