// @ts-check
// The message list's groups, which keep a frame's work about the newest messages however long the conversation.
//
// Messages sit in groups of GROUP_SIZE. Each group is its own paint layer (`isolation: isolate`), so a group no
// delta touched is not painted again. Every group but the newest LIVE_GROUPS is sealed: the browser skips its
// style, layout and paint while it is off screen (`content-visibility: auto`). Sealed groups still cost a frame a
// little each (their boxes, the browser's visibility checks), so while an answer streams the groups far above the
// view are parked: taken out of layout (`display: none`) with one spacer holding their height, and put back,
// before they can be seen, when the view scrolls towards them, and all of them once the answer ends. Parked groups
// stay in the document (their text, their state), but screen readers and find-in-page reach them only once they
// are back: hence only while an answer streams, when a frame's cost matters.
import { element } from "./dom.js";
import { FrameScheduler } from "./frame.js";

export const GROUP_SIZE = 50;
const LIVE_GROUPS = 2;
// A group is parked once its end is this far above the top of the view (list heights, and at least PARK_MIN_PX);
// the parked groups come back when the view is half that distance from them.
const PARK_SCREENS = 3;
const PARK_MIN_PX = 2400;

export class MessageGroups {
  /**
   * @param {HTMLElement} list the scrolling list the groups are drawn in
   * @param {Element} end the list's element that comes after every group
   */
  constructor(list, end) {
    this.list = list;
    this.end = end;
    /** @type {HTMLDivElement[]} */
    this.groups = [];
    /** @type {number[]} the height each parked group had, oldest first: the first `heights.length` are parked */
    this.heights = [];
    this.parkedHeight = 0;
    this.space = element("div", "agui-parked-space");
    this.space.hidden = true; // shown while groups are parked
    this.space.setAttribute("aria-hidden", "true");
    list.insertBefore(this.space, end);
    this.settleFrame = new FrameScheduler(() => this.settle());
    this.parking = false; // whether groups may be parked now (while an answer streams)
  }

  /** @returns {number} how many of the oldest groups are parked */
  get parked() {
    return this.heights.length;
  }

  /**
   * The group message `at` goes in (made when needed).
   * @param {number} at
   */
  groupOf(at) {
    const index = Math.floor(at / GROUP_SIZE);
    while (this.groups.length <= index) {
      this.groups.push(element("div", "agui-message-group"));
      this.list.insertBefore(this.groups[this.groups.length - 1], this.end);
      this.seal();
    }
    return this.groups[index];
  }

  /**
   * Drop the groups the first `count` messages do not fill (their elements are already gone).
   * @param {number} count
   */
  truncate(count) {
    const keep = Math.ceil(count / GROUP_SIZE);
    this.unparkFrom(Math.max(0, keep - LIVE_GROUPS - 1));
    while (this.groups.length > keep) this.groups.pop()?.remove();
    this.seal();
  }

  /** Every group but the newest LIVE_GROUPS may be skipped by the browser while off screen. */
  seal() {
    this.groups.forEach((group, index) => {
      const sealed = index < this.groups.length - LIVE_GROUPS ? "true" : "false";
      if (group.dataset.sealed !== sealed) group.dataset.sealed = sealed;
    });
  }

  /**
   * Put back every parked group from group `index` on. (A parked group keeps the height it had, as a skipped
   * group keeps the size it was last drawn at, through a change of its messages or of the width: both are drawn
   * at their new size once the view comes near.)
   * @param {number} index
   */
  unparkFrom(index) {
    if (this.parked <= index) return;
    while (this.parked > index) this.unparkNewest();
    this.showSpace();
  }

  unparkNewest() {
    this.parkedHeight -= /** @type {number} */ (this.heights.pop());
    delete this.groups[this.parked].dataset.parked;
  }

  /** Settle on the next frame (the view scrolled). */
  settleSoon() {
    this.settleFrame.request();
  }

  /**
   * Park the groups now far above the view and put back the ones it came near to. Reads the layout first and
   * writes after (after a frame's changes the layout is computed once, here or by the scroll to the end).
   */
  settle() {
    if (!this.parking) {
      this.unparkFrom(0);
      return;
    }
    if (!this.list.isConnected || this.list.clientHeight === 0) return;
    const top = this.list.scrollTop;
    const reach = Math.max(PARK_MIN_PX, PARK_SCREENS * this.list.clientHeight);
    const origin = this.list.getBoundingClientRect().top - top;
    const offset = (/** @type {Element} */ element) => element.getBoundingClientRect().top - origin;
    const parkedEnd = offset(this.space) + this.parkedHeight;
    if (this.parked > 0 && parkedEnd > top - reach / 2) {
      let end = parkedEnd;
      while (this.parked > 0 && end > top - reach / 2) {
        end -= this.heights[this.parked - 1];
        this.unparkNewest();
      }
      this.showSpace();
      return;
    }
    const active = /** @type {Document | ShadowRoot} */ (this.list.getRootNode()).activeElement;
    /** @type {number[]} */
    const heights = [];
    let start = this.parked < this.groups.length ? offset(this.groups[this.parked]) : parkedEnd;
    for (let at = this.parked; at < this.groups.length - LIVE_GROUPS - 1; at += 1) {
      const next = offset(this.groups[at + 1]);
      if (next > top - reach || (active && this.groups[at].contains(active))) break;
      heights.push(next - start);
      start = next;
    }
    if (heights.length === 0) return;
    for (const height of heights) {
      this.groups[this.parked].dataset.parked = "true";
      this.heights.push(height);
      this.parkedHeight += height;
    }
    this.showSpace();
  }

  showSpace() {
    const height = `${Math.max(0, this.parkedHeight)}px`;
    if (this.space.style.height !== height) this.space.style.height = height;
    if (this.space.hidden !== (this.parked === 0)) this.space.hidden = this.parked === 0;
  }

  destroy() {
    this.settleFrame.cancel();
  }
}
