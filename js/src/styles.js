// @ts-check
// The widget's CSS (styles.css and render.css, bundled as text) is injected once per document, or once per shadow root when the
// widget is rendered inside one, as <style id="agui-notebook-chat-style" data-version="...">. A newer bundle
// replaces an older style element, so a kernel restart with an upgraded package restyles open widgets.
import { iconStyles } from "./dom.js";
import rendering from "./render.css";
import styles from "./styles.css";

const css = `${styles}\n${rendering}\n${iconStyles()}`;

export const STYLE_ID = "agui-notebook-chat-style";
const VERSION = String(css.length);

/**
 * Make sure the widget's style element is present where `el` will render.
 * @param {Element} el
 */
export function injectStyles(el) {
  const root = el.getRootNode?.();
  const target = root instanceof ShadowRoot ? root : document.head;
  const scope = root instanceof ShadowRoot ? root : document;
  /** @type {HTMLElement | null} */
  const existing = scope.getElementById ? scope.getElementById(STYLE_ID) : scope.querySelector(`#${STYLE_ID}`);
  if (existing && existing.dataset.version === VERSION) return existing;
  const style = document.createElement("style");
  style.id = STYLE_ID;
  style.dataset.version = VERSION;
  style.textContent = css;
  if (existing) existing.replaceWith(style);
  else target.append(style);
  return style;
}
