// @ts-check
// Whether a view can still reach the kernel that owns its model, and the rule that hides the static copy (see
// agui_notebook/widget/_static_html.py) while a live view shows beside it.
//
// ipywidgets marks a view whose comm is not live with the class `jupyter-widgets-disconnected` (after a kernel
// restart, or a model restored from saved widget state); a kernel that was shut down leaves the comm marked live,
// so the widget manager's kernel is asked too (JupyterLab and Notebook 7: null once shut down, `dead` once gone).
// A message sent then would vanish without a word: the view says so instead and keeps what was typed.

export const NOT_CONNECTED = "Not connected — run the cell again";
export const NOT_SENT = "Not sent: your text is kept.";

const STATIC_RULE_ID = "agui-notebook-static-copy";
// The static copy is the output right after the widget's own (ChatWidget._ipython_display_). A view that cannot
// reach its kernel has no conversation to show (it comes only from the kernel): the copy shows beside it then.
const STATIC_RULE =
  '.jp-OutputArea-child:has(.agui-chat:not([data-connection="lost"])) + .jp-OutputArea-child:has(.agui-static){display:none}';

/**
 * Hide the static copy next to a live view (once per document).
 * @param {Element} el
 */
export function hideStaticCopyBeside(el) {
  const root = el.getRootNode?.();
  const scope = root instanceof ShadowRoot ? root : document;
  if (scope.querySelector(`style#${STATIC_RULE_ID}`)) return;
  const style = document.createElement("style");
  style.id = STATIC_RULE_ID;
  style.textContent = STATIC_RULE;
  (root instanceof ShadowRoot ? root : document.head).append(style);
}

/** @param {any} manager ipywidgets' widget manager, whatever the host made it */
function managerKernel(manager) {
  try {
    return manager !== null && typeof manager === "object" && "kernel" in manager ? manager.kernel : undefined;
  } catch {
    return null; // a disposed manager
  }
}

export class Connection {
  /**
   * `onChange` runs whenever the answer may have changed.
   * @param {import("./anywidget.js").AnyModel} model
   * @param {HTMLElement} host the element anywidget renders the view into
   * @param {() => void} onChange
   */
  constructor(model, host, onChange) {
    this.model = model;
    this.host = host;
    this.onChange = onChange;
    this.model.on("comm_live_update", onChange);
    /** @type {Array<{connect: Function, disconnect: Function}>} Lumino signals of the session */
    this.signals = [];
    const session = (() => {
      try {
        return model.widget_manager?.context?.sessionContext ?? null;
      } catch {
        return null;
      }
    })();
    for (const name of ["kernelChanged", "statusChanged", "connectionStatusChanged"]) {
      const signal = session?.[name];
      if (signal && typeof signal.connect === "function") {
        signal.connect(onChange);
        this.signals.push(signal);
      }
    }
  }

  /** False when a message to the kernel cannot arrive (unknown means true: outside Jupyter there is no manager). */
  get live() {
    if (this.host.classList?.contains("jupyter-widgets-disconnected")) return false;
    const kernel = managerKernel(this.model.widget_manager);
    if (kernel === undefined) return true;
    if (kernel === null || kernel.isDisposed) return false;
    return kernel.status !== "dead";
  }

  destroy() {
    this.model.off("comm_live_update", this.onChange);
    for (const signal of this.signals) signal.disconnect(this.onChange);
    this.signals = [];
  }
}
