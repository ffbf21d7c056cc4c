// The part of anywidget's model (its front-end model interface) the views use. anywidget's npm package is not a
// dependency: the bundle gets the model from anywidget at run time.
export interface AnyModel {
  /** A synced trait's current value, as the kernel sent it (so unchecked). */
  get(name: string): any;
  set(name: string, value: unknown): void;
  save_changes(): void;
  /** "change:<trait>", "msg:custom" (content, buffers), or an ipywidgets event such as "comm_live_update". */
  on(event: string, callback: (...args: any[]) => void): void;
  off(event?: string | null, callback?: ((...args: any[]) => void) | null): void;
  send(content: unknown, callbacks?: unknown, buffers?: ArrayBuffer[]): void;
  /** ipywidgets' manager, which JupyterLab and Notebook 7 give a session context (connection.js). */
  widget_manager?: any;
}
