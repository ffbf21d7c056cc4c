// Browser-test harness: a fake anywidget model (get/set/on/off/send/save_changes) and `window.agui`, through which
// tests mount views of the built bundle, deliver custom messages and read what the views sent.
import widget from "./widget.js";

class FakeModel {
  constructor(state) {
    this.state = { ...state };
    this.listeners = new Map();
    this.sent = [];
    this.saves = 0;
  }

  get(name) {
    return this.state[name];
  }

  set(name, value) {
    this.state[name] = value;
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
    this.sent.push(JSON.parse(JSON.stringify(content)));
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
  create(state = {}) {
    models.push(new FakeModel({ ...DEFAULTS, ...state }));
    return models.length - 1;
  },
  mount(modelIndex, { width, detached } = {}) {
    // anywidget renders into an element that is attached to the page later: `detached` does the same.
    const host = document.createElement("div");
    host.className = "host";
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
    models[modelIndex].emit("msg:custom", JSON.parse(JSON.stringify(message)), []);
  },
  deliverMany(modelIndex, messages) {
    for (const message of messages) this.deliver(modelIndex, message);
  },
  set(modelIndex, name, value) {
    models[modelIndex].set(name, JSON.parse(JSON.stringify(value)));
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
};
window.aguiReady = true;
