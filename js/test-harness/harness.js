// Browser-test harness: a fake anywidget model (get/set/on/off/send/save_changes) that also plays the kernel, and
// `window.agui`, through which tests mount views of the built bundle, deliver custom messages and read what the
// views sent.
//
// The kernel part keeps the conversation as the real one does (docs/widget.md, Sync protocol): the `messages`
// given to `create(...)` are its list, not a trait (views never see them as one); every patch and snapshot a test
// delivers is applied to it with the front end's own applier (js/src/sync.js), and each `resync` a view sends is
// answered, after a macrotask as a comm round trip would be, with a snapshot of that list to every view of the
// model (seq = the last seq delivered, null before any). `set(m, "messages", list)` is the kernel setting its
// conversation from Python: a snapshot to every view. No timers beyond that answer. (The inspector's model,
// `_view: "inspector"`, keeps `messages` as the trait it is there.)
import widget from "./widget.js";
import { applyOps, Touched } from "./sync.js";

const json = (value) => JSON.parse(JSON.stringify(value));

class FakeModel {
  constructor(state, { answerResync = true } = {}) {
    const { messages = [], ...traits } = state;
    // The inspector (`_view: "inspector"`) is another widget: its `messages` is a synced trait.
    this.state = state._view === "inspector" ? { ...state } : { ...traits };
    this.kernel = {
      messages: json(messages),
      status: typeof traits.status === "string" ? traits.status : "ready",
      error: typeof traits.error === "string" ? traits.error : "",
      seq: null,
    };
    this.answerResync = answerResync;
    this.listeners = new Map();
    this.sent = [];
    this.saves = 0;
  }

  get(name) {
    return this.state[name];
  }

  set(name, value) {
    if (name === "messages" && this.state._view !== "inspector") {
      this.kernel.messages = json(value);
      this.emit("msg:custom", this.snapshot(), []);
      return;
    }
    this.state[name] = value;
    if (name === "status") this.kernel.status = value;
    if (name === "error") this.kernel.error = value;
    this.emit(`change:${name}`, this, value);
  }

  save_changes() {
    this.saves += 1;
  }

  on(event, callback) {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event).add(callback);
  }

  off(event, callback) {
    this.listeners.get(event)?.delete(callback);
  }

  send(content) {
    // Kept as JSON, as the comm would carry it.
    this.sent.push(json(content));
    if (content?.kind === "resync" && this.answerResync) {
      setTimeout(() => this.emit("msg:custom", this.snapshot(), []), 0);
    }
  }

  /** The snapshot the kernel answers a resync with. */
  snapshot() {
    const { messages, status, error, seq } = this.kernel;
    const threadId = typeof this.state.thread_id === "string" ? this.state.thread_id : null;
    return json({ kind: "snapshot", seq, messages, status, error, threadId });
  }

  /** What the kernel sent, applied to its own list first (a patch it could not have sent changes nothing). */
  deliver(message) {
    const copy = json(message);
    if (copy?.kind === "snapshot" && Array.isArray(copy.messages)) {
      this.kernel.messages = json(copy.messages);
      if (typeof copy.status === "string") this.kernel.status = copy.status;
      this.kernel.error = typeof copy.error === "string" ? copy.error : "";
      this.kernel.seq = Number.isInteger(copy.seq) ? copy.seq : null;
    } else if (copy?.kind === "patch") {
      const next = { ...this.kernel, messages: this.kernel.messages.slice() };
      try {
        applyOps(next, json(copy.ops), new Touched());
        Object.assign(this.kernel, next);
      } catch {
        // a bad op on purpose: the kernel's own list stays as it was
      }
      if (Number.isInteger(copy.seq)) this.kernel.seq = copy.seq;
    }
    this.emit("msg:custom", copy, []);
  }

  emit(event, ...args) {
    for (const callback of [...(this.listeners.get(event) ?? [])]) callback(...args);
  }

  listenerCount() {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }
}

const DEFAULTS = {
  messages: [],
  status: "ready",
  error: "",
  title: "",
  placeholder: "",
  height: 520,
  show_reasoning: true,
  theme: "auto",
};

const models = [];
const views = [];

window.agui = {
  /** A model with these traits (`messages`: the kernel's conversation); `{answerResync: false}` leaves the view's
   * resyncs for the test to answer. */
  create(state = {}, options = {}) {
    models.push(new FakeModel({ ...DEFAULTS, ...state }, options));
    return models.length - 1;
  },
  mount(modelIndex, { width, detached, disconnected } = {}) {
    // anywidget renders into an element that is attached to the page later: `detached` does the same.
    // `disconnected`: the mark ipywidgets puts on a view whose comm is not live (saved widget state, no kernel).
    const host = document.createElement("div");
    host.className = disconnected ? "host jupyter-widgets-disconnected" : "host";
    if (width) host.style.width = width;
    if (!detached) document.getElementById("root").append(host);
    const cleanup = widget.render({ model: models[modelIndex], el: host });
    views.push({ host, cleanup });
    return views.length - 1;
  },
  attach(viewIndex) {
    document.getElementById("root").append(views[viewIndex].host);
  },
  unmount(viewIndex) {
    const view = views[viewIndex];
    view.cleanup?.();
    view.host.remove();
  },
  reset() {
    for (const view of views) {
      view.cleanup?.();
      view.host.remove();
    }
    views.length = 0;
    models.length = 0;
    document.getElementById("root").replaceChildren();
    document.activeElement?.blur?.();
  },
  deliver(modelIndex, message) {
    models[modelIndex].deliver(message);
  },
  deliverMany(modelIndex, messages) {
    for (const message of messages) this.deliver(modelIndex, message);
  },
  set(modelIndex, name, value) {
    models[modelIndex].set(name, json(value));
  },
  sent(modelIndex) {
    return models[modelIndex].sent;
  },
  clearSent(modelIndex) {
    models[modelIndex].sent.length = 0;
  },
  model(modelIndex) {
    return models[modelIndex];
  },
  /** The kernel's own conversation, as the patches and snapshots delivered so far left it. */
  kernelMessages(modelIndex) {
    return models[modelIndex].kernel.messages;
  },
  listenerCount(modelIndex) {
    return models[modelIndex].listenerCount();
  },
  host(viewIndex) {
    return views[viewIndex].host;
  },
  frames(count = 2) {
    return new Promise((resolve) => {
      const step = (left) => (left === 0 ? resolve() : requestAnimationFrame(() => step(left - 1)));
      step(count);
    });
  },
  /** Wait until every macrotask queued so far (the kernel's answers) has run, then `count` frames. */
  settle(count = 2) {
    return new Promise((resolve) => setTimeout(resolve, 0)).then(() => this.frames(count));
  },
};
window.aguiReady = true;
