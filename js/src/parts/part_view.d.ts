// What a part view is and what it is given: the shapes parts/index.js makes views with and message_view.js holds.
import type { AnyModel } from "../anywidget";
import type { RemoteMediaPolicy } from "../remote_media.js";
import type { UIPart } from "../sync.js";

/** What a part view may ask of the chat it is in (the chat view's partContext, plus the message view's part). */
export interface PartContext {
  /** The role of the message the part is in. */
  role: string;
  /** A custom message to the kernel (an approval, an interrupt's answer); false: the kernel cannot be reached. */
  send(message: unknown): boolean;
  /** An approval card started asking: the chat brings it into view. */
  askedForApproval?(el: Element): void;
  /** A card was answered: the focus moves on. */
  answered?(el: Element): void;
  followBottom?(): void;
  /** Which media may load without a click. */
  remote: RemoteMediaPolicy;
  model: AnyModel;
}

/**
 * What the message view holds for each part: the element, how a new version of the part (and a renderer's
 * output, when one applies) reaches it, and what the message view notes on it to leave an unchanged part alone.
 */
export interface PartView {
  el: HTMLElement;
  update(part: UIPart, rendering?: unknown): void;
  destroy?(): void;
  /** The part type it was made for. */
  type?: string;
  /** The part it shows. */
  shown?: UIPart;
  /** The renderer output it shows. */
  shownRendering?: unknown;
  /** It stands for a part that could not be rendered (message_view.js): the next change builds a view again. */
  failed?: boolean;
}
