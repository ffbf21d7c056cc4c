// @ts-check
// The live-patch protocol, front-end side: applies `patch` and `snapshot` custom messages in seq order and asks for a
// snapshot (`resync`) whenever it cannot be sure its state matches the kernel's. See docs/widget.md.
//
// Message and part objects are treated as immutable: an op replaces the objects on its path instead of mutating
// them, because the same op payload is delivered to every view of the model, and because an untouched part keeps
// its identity, which is how the renderer knows what to leave alone.

/**
 * A part of an AI SDK UIMessage; `type` says which ("text", "reasoning", "tool-<name>", "file", ...) and what else
 * it holds.
 * @typedef {{type: string, text?: string, state?: string, [field: string]: any}} UIPart
 */
/**
 * An AI SDK UIMessage as the kernel sends it.
 * @typedef {object} UIMessage
 * @property {string} [id]
 * @property {string} [role] "user" | "assistant" | "system"
 * @property {UIPart[]} [parts]
 * @property {any} [metadata]
 */
/**
 * What a view shows: the conversation and the run status (with the error that ended a run, "" when none).
 * @typedef {object} ConversationState
 * @property {UIMessage[]} messages
 * @property {string} status
 * @property {string} error
 * @property {string | null} [threadId]
 */
/**
 * One compact op of a `patch` message (docs/widget.md, "Sync protocol"): ["m", mi, message] sets or appends a
 * message, ["p", mi, pi, part] a part, ["t", mi, pi, text] appends text to a part, ["meta", mi, metadata] sets the
 * metadata (null removes it), ["parts", mi, parts] replaces the parts, ["len", n] truncates the list, and
 * ["status", status, error] sets the run status. Ops arrive unchecked: applyOps checks each.
 * @typedef {["m", number, UIMessage] | ["p", number, number, UIPart] | ["t", number, number, string]
 *   | ["meta", number, any] | ["parts", number, UIPart[]] | ["len", number] | ["status", string, string?]} PatchOp
 */
/**
 * A custom message from the kernel: a whole conversation (`snapshot`) or ops after the last one (`patch`).
 * @typedef {{kind: "snapshot", seq?: number, messages: UIMessage[], status?: string, error?: string,
 *   threadId?: string} | {kind: "patch", seq: number, ops: PatchOp[]}} SyncMessage
 */

export const BUSY_STATUSES = new Set(["submitted", "streaming"]);

// A resync that got no snapshot is asked for again when patches keep arriving this long after.
const RESYNC_RETRY_MS = 2000;

export class ProtocolError extends Error {}

/** What a batch of ops touched, for the renderer: message indexes, the list length, status. */
export class Touched {
  constructor() {
    /** @type {Set<number>} */
    this.messages = new Set();
    this.all = false;
    this.length = false;
    this.status = false;
    /** @type {UIMessage[] | null} a snapshot's message list, to be merged into the state by the view */
    this.replacement = null;
  }

  get any() {
    return this.all || this.length || this.status || this.messages.size > 0 || this.replacement !== null;
  }
}

/** @param {any} value @returns {value is number} */
function isIndex(value) {
  return Number.isInteger(value) && value >= 0;
}

/** @param {any} value @param {string} where @returns {UIMessage} */
function checkMessage(value, where) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new ProtocolError(`${where}: message is not an object`);
  }
  if (value.parts !== undefined && !Array.isArray(value.parts)) {
    throw new ProtocolError(`${where}: parts is not a list`);
  }
  for (const part of value.parts ?? []) checkPart(part, where);
  return value;
}

/** @param {any} value @param {string} where @returns {UIPart} */
function checkPart(value, where) {
  if (value === null || typeof value !== "object" || typeof value.type !== "string") {
    throw new ProtocolError(`${where}: part has no string type`);
  }
  return value;
}

/** @param {UIMessage[]} messages @param {unknown} mi @param {string} where @returns {UIMessage} */
function messageAt(messages, mi, where) {
  if (!isIndex(mi) || mi >= messages.length) {
    throw new ProtocolError(`${where}: no message ${mi} (have ${messages.length})`);
  }
  return messages[mi];
}

/**
 * @param {UIMessage} message
 * @param {unknown} pi
 * @param {UIPart} part
 * @param {string} where
 * @returns {UIMessage}
 */
function withPart(message, pi, part, where) {
  const parts = Array.isArray(message.parts) ? message.parts.slice() : [];
  if (!isIndex(pi) || pi > parts.length) throw new ProtocolError(`${where}: no part ${pi} (have ${parts.length})`);
  parts[pi] = part;
  return { ...message, parts };
}

/**
 * Apply compact ops to `state` in order, recording what changed in `touched`.
 * @param {ConversationState} state
 * @param {unknown} ops PatchOps, not checked yet
 * @param {Touched} touched
 */
export function applyOps(state, ops, touched) {
  if (!Array.isArray(ops)) throw new ProtocolError("patch: ops is not a list");
  const messages = state.messages;
  for (let k = 0; k < ops.length; k += 1) {
    const op = ops[k];
    const where = `op ${k} (${Array.isArray(op) ? op[0] : typeof op})`;
    if (!Array.isArray(op)) throw new ProtocolError(`${where}: not a list`);
    switch (op[0]) {
      case "m": {
        const [, mi, message] = op;
        if (!isIndex(mi) || mi > messages.length) {
          throw new ProtocolError(`${where}: no message ${mi} (have ${messages.length})`);
        }
        messages[mi] = checkMessage(message, where);
        touched.messages.add(mi);
        break;
      }
      case "p": {
        const [, mi, pi, part] = op;
        messages[mi] = withPart(messageAt(messages, mi, where), pi, checkPart(part, where), where);
        touched.messages.add(mi);
        break;
      }
      case "t": {
        const [, mi, pi, text] = op;
        const message = messageAt(messages, mi, where);
        const part = Array.isArray(message.parts) ? message.parts[pi] : undefined;
        if (!isIndex(pi) || part === undefined) throw new ProtocolError(`${where}: no part ${pi}`);
        if (typeof text !== "string") throw new ProtocolError(`${where}: text is not a string`);
        const previous = typeof part.text === "string" ? part.text : "";
        messages[mi] = withPart(message, pi, { ...part, text: previous + text }, where);
        touched.messages.add(mi);
        break;
      }
      case "meta": {
        const [, mi, metadata] = op;
        const message = messageAt(messages, mi, where);
        const next = { ...message, metadata };
        if (metadata === null || metadata === undefined) delete next.metadata;
        messages[mi] = next;
        touched.messages.add(mi);
        break;
      }
      case "parts": {
        const [, mi, parts] = op;
        const message = messageAt(messages, mi, where);
        if (!Array.isArray(parts)) throw new ProtocolError(`${where}: parts is not a list`);
        for (const part of parts) checkPart(part, where);
        messages[mi] = { ...message, parts };
        touched.messages.add(mi);
        break;
      }
      case "len": {
        const [, length] = op;
        if (!isIndex(length) || length > messages.length) {
          throw new ProtocolError(`${where}: cannot truncate ${messages.length} messages to ${length}`);
        }
        messages.length = length;
        touched.length = true;
        break;
      }
      case "status": {
        const [, status, error] = op;
        if (typeof status !== "string") throw new ProtocolError(`${where}: status is not a string`);
        state.status = status;
        state.error = typeof error === "string" ? error : "";
        touched.status = true;
        break;
      }
      default:
        throw new ProtocolError(`${where}: unknown op`);
    }
  }
}

/**
 * Sequencing: which custom messages to apply, and when to ask for a snapshot.
 *
 * A view starts with no conversation and waiting for a snapshot (the `messages` trait is not synced: every view
 * asks with `resync` when it mounts). `seq` is the seq of the last applied patch or snapshot (`null` for a
 * snapshot without one: then the first patch after it is the base).
 */
export class PatchSync {
  /**
   * @param {(message: {kind: "resync"}) => boolean | void} send the widget's custom-message sender
   * @param {() => number} now
   */
  constructor(send, now = () => Date.now()) {
    this.send = send;
    this.now = now;
    /** @type {number | null} */
    this.seq = null;
    this.awaitingSnapshot = true;
    this.resyncSentAt = -Infinity;
    this.resyncs = 0;
    /** @type {string | null} */
    this.lastError = null;
  }

  /** Ask the kernel for a snapshot and drop patches until it comes; `force` asks even if it asked just now.
   * Returns whether the request went out (false: the kernel cannot be reached, or it was asked just now).
   * @param {string | null} [reason]
   * @param {{force?: boolean}} [options]
   * @returns {boolean}
   */
  requestResync(reason, { force = false } = {}) {
    const now = this.now();
    if (!force && this.awaitingSnapshot && now - this.resyncSentAt < RESYNC_RETRY_MS) return false;
    this.awaitingSnapshot = true;
    this.resyncSentAt = now;
    this.resyncs += 1;
    this.lastError = reason ?? null;
    return this.send({ kind: "resync" }) !== false;
  }

  /**
   * Handle one custom message against `state`; returns what it touched. Unknown kinds are ignored.
   * @param {any} message a SyncMessage, or anything else the kernel sent
   * @param {ConversationState} state
   * @returns {Touched}
   */
  receive(message, state) {
    const touched = new Touched();
    if (message === null || typeof message !== "object") return touched;
    if (message.kind === "snapshot") {
      if (!Array.isArray(message.messages)) {
        this.requestResync("snapshot without a messages list");
        return touched;
      }
      // The kernel's whole conversation: taken as it is (a malformed message or part renders as data; asking
      // again would only bring the same snapshot back).
      touched.replacement = message.messages;
      if (typeof message.status === "string") state.status = message.status;
      state.error = typeof message.error === "string" ? message.error : "";
      if (typeof message.threadId === "string") state.threadId = message.threadId;
      this.seq = Number.isInteger(message.seq) ? message.seq : null;
      this.awaitingSnapshot = false;
      touched.status = true;
      return touched;
    }
    if (message.kind !== "patch") return touched;
    if (this.awaitingSnapshot) {
      this.requestResync("patch while waiting for a snapshot");
      return touched;
    }
    if (!Number.isInteger(message.seq) || (this.seq !== null && message.seq !== this.seq + 1)) {
      this.requestResync(`gap: expected seq ${this.seq === null ? "any" : this.seq + 1}, got ${message.seq}`);
      return touched;
    }
    try {
      applyOps(state, message.ops, touched);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.requestResync(`seq ${message.seq} ${error.message}`);
      touched.all = true;
      return touched;
    }
    this.seq = message.seq;
    return touched;
  }
}
