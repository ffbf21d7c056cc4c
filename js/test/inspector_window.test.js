// The inspector page's conversation window: updates that build on it, one that does not, a reset slot.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ConversationWindow } from "../src/inspector_window.js";

const text = (t) => ({ type: "text", text: t });

test("an update changes only the parts it names and drops what left the window", () => {
  const window = new ConversationWindow();
  assert.equal(
    window.apply({
      kind: "conversation", version: 1, base: null, count: 3, first: 1, slots: 2,
      messages: [
        { i: 1, reset: true, head: { id: "a", role: "assistant" }, from: 2, parts: [[0, text("c")], [1, text("d")]], length: 2, total: 4 },
        { i: 2, reset: true, head: { id: "u", role: "user" }, from: 0, parts: [], length: 0, total: 0 },
      ],
    }),
    true,
  );
  assert.deepEqual(window.messages().map((m) => [m.index, m.from, m.message.parts.map((p) => p.text)]), [[1, 2, ["c", "d"]], [2, 0, []]]);
  assert.equal(
    window.apply({
      kind: "conversation", version: 2, base: 1, count: 2, first: 1, slots: 1,
      messages: [{ i: 1, parts: [[1, text("d!")], [2, text("e")]], length: 3, total: 5 }],
    }),
    true,
  );
  assert.deepEqual(window.messages(), [{ index: 1, from: 2, total: 5, message: { id: "a", role: "assistant", parts: [text("c"), text("d!"), text("e")] } }]);
  // An update built on a version the page does not hold: refused, the page keeps what it has.
  assert.equal(window.apply({ kind: "conversation", version: 4, base: 3, count: 2, first: 0, slots: 1, messages: [] }), false);
  assert.equal(window.version, 2);
  assert.equal(window.count, 2);
});
