import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PatchSync, ProtocolError, Touched, applyOps } from "../src/sync.js";

const text = (value) => ({ type: "text", text: value });
const conversation = () => ({
  messages: [
    { id: "u1", role: "user", parts: [text("Weather in Paris?")] },
    { id: "a1", role: "assistant", parts: [{ type: "step-start" }, text("It is")] },
  ],
  status: "streaming",
  error: "",
});

function apply(state, ops) {
  const touched = new Touched();
  applyOps(state, ops, touched);
  return touched;
}

describe("applyOps", () => {
  it("appends text to a part and replaces only the objects on the op's path", () => {
    const state = conversation();
    const [user, assistant] = state.messages;
    const touched = apply(state, [["t", 1, 1, " sunny"]]);
    assert.deepEqual(state.messages[1].parts[1], { type: "text", text: "It is sunny" });
    assert.equal(assistant.parts[1].text, "It is", "the previous message object is not mutated");
    assert.notEqual(state.messages[1], assistant);
    assert.equal(state.messages[0], user);
    assert.equal(state.messages[1].parts[0], assistant.parts[0], "an untouched part keeps its identity");
    assert.deepEqual([...touched.messages], [1]);
    assert.equal(touched.any, true);
  });

  it("adds a message at the end, sets a part, replaces parts, metadata and truncates", () => {
    const state = conversation();
    apply(state, [
      ["m", 2, { id: "u2", role: "user", parts: [text("And Oslo?")] }],
      ["p", 1, 2, { type: "reasoning", text: "Looking it up" }],
      ["meta", 0, { feedback: "up" }],
    ]);
    assert.equal(state.messages.length, 3);
    assert.deepEqual(state.messages[1].parts.map((part) => part.type), ["step-start", "text", "reasoning"]);
    assert.deepEqual(state.messages[0].metadata, { feedback: "up" });
    apply(state, [["meta", 0, null], ["parts", 2, [text("And Bergen?")]]]);
    assert.equal("metadata" in state.messages[0], false, "null metadata removes the key");
    assert.deepEqual(state.messages[2].parts, [text("And Bergen?")]);
    const touched = apply(state, [["len", 1]]);
    assert.deepEqual(state.messages.map((message) => message.id), ["u1"]);
    assert.equal(touched.length, true);
  });

  it("sets the status and clears the error unless one is given", () => {
    const state = conversation();
    apply(state, [["status", "error", "model overloaded"]]);
    assert.deepEqual([state.status, state.error], ["error", "model overloaded"]);
    const touched = apply(state, [["status", "ready"]]);
    assert.deepEqual([state.status, state.error, touched.status], ["ready", "", true]);
  });

  const refused = [
    ["not a list", "ops", /^patch: ops is not a list$/],
    ["an op that is not a list", [{ op: "t" }], /^op 0 \(object\): not a list$/],
    ["an unknown op", [["zap", 0]], /^op 0 \(zap\): unknown op$/],
    ["a message past the end", [["m", 5, { parts: [] }]], /^op 0 \(m\): no message 5 \(have 2\)$/],
    ["a message that is not an object", [["m", 2, ["x"]]], /^op 0 \(m\): message is not an object$/],
    ["a part without a string type", [["p", 0, 1, { type: 3 }]], /^op 0 \(p\): part has no string type$/],
    ["a part index past the end", [["p", 0, 3, text("x")]], /^op 0 \(p\): no part 3 \(have 1\)$/],
    ["text for a missing part", [["t", 0, 4, "x"]], /^op 0 \(t\): no part 4$/],
    ["text that is not a string", [["t", 0, 0, 42]], /^op 0 \(t\): text is not a string$/],
    ["a negative message index", [["meta", -1, {}]], /^op 0 \(meta\): no message -1 \(have 2\)$/],
    ["a truncation that grows", [["len", 3]], /^op 0 \(len\): cannot truncate 2 messages to 3$/],
    ["a status that is not a string", [["status", null]], /^op 0 \(status\): status is not a string$/],
    ["the second op", [["status", "ready"], ["parts", 0, "x"]], /^op 1 \(parts\): parts is not a list$/],
  ];
  for (const [name, ops, message] of refused) {
    it(`refuses ${name}`, () => {
      assert.throws(() => apply(conversation(), ops), (error) => error instanceof ProtocolError && message.test(error.message));
    });
  }
});

/** A PatchSync whose clock the test moves, and the messages it sent. */
function syncWithClock({ sendResult } = {}) {
  const sent = [];
  const clock = { now: 1000 };
  const sync = new PatchSync((message) => {
    sent.push(message);
    return sendResult;
  }, () => clock.now);
  return { sync, sent, clock };
}

const snapshot = (seq, messages = conversation().messages) => ({
  kind: "snapshot", seq, messages, status: "ready", error: "", threadId: "t-1",
});

describe("PatchSync", () => {
  it("applies a snapshot, then patches in seq order", () => {
    const { sync, sent } = syncWithClock();
    const state = { messages: [], status: "ready", error: "" };
    const taken = sync.receive(snapshot(7), state);
    assert.equal(taken.replacement.length, 2);
    assert.deepEqual([sync.seq, sync.awaitingSnapshot, state.threadId, state.status], [7, false, "t-1", "ready"]);
    state.messages = taken.replacement.slice();
    const touched = sync.receive({ kind: "patch", seq: 8, ops: [["t", 1, 1, "!"]] }, state);
    assert.deepEqual([...touched.messages], [1]);
    assert.equal(state.messages[1].parts[1].text, "It is!");
    assert.equal(sync.seq, 8);
    assert.deepEqual(sent, []);
  });

  it("takes the first patch after a snapshot without seq as the base", () => {
    const { sync } = syncWithClock();
    const state = { messages: [], status: "ready", error: "" };
    sync.receive({ kind: "snapshot", messages: [] }, state);
    assert.equal(sync.seq, null);
    sync.receive({ kind: "patch", seq: 41, ops: [["status", "submitted"]] }, state);
    assert.deepEqual([sync.seq, state.status], [41, "submitted"]);
  });

  it("asks for a snapshot on a gap and drops patches until it comes", () => {
    const { sync, sent } = syncWithClock();
    const state = { messages: conversation().messages, status: "ready", error: "" };
    sync.receive(snapshot(3, []), state);
    const touched = sync.receive({ kind: "patch", seq: 5, ops: [["status", "error", "boom"]] }, state);
    assert.equal(touched.any, false);
    assert.equal(state.status, "ready", "a patch after a gap is not applied");
    assert.deepEqual(sent, [{ kind: "resync" }]);
    assert.equal(sync.lastError, "gap: expected seq 4, got 5");
    sync.receive({ kind: "patch", seq: 4, ops: [] }, state);
    assert.equal(sync.seq, 3, "nothing is applied while a snapshot is awaited");
    assert.equal(sent.length, 1, "and no second resync within the retry interval");
  });

  it("asks again when patches keep coming 2 s after an unanswered resync", () => {
    const { sync, sent, clock } = syncWithClock();
    assert.equal(sync.requestResync("mounted"), true);
    clock.now += 1999;
    sync.receive({ kind: "patch", seq: 1, ops: [] }, { messages: [] });
    assert.equal(sent.length, 1);
    clock.now += 1;
    sync.receive({ kind: "patch", seq: 2, ops: [] }, { messages: [] });
    assert.equal(sent.length, 2);
    assert.equal(sync.resyncs, 2);
    assert.equal(sync.lastError, "patch while waiting for a snapshot");
    assert.equal(sync.requestResync("again", { force: true }), true, "force asks even just after");
    assert.equal(sent.length, 3);
  });

  it("asks for a snapshot when a patch's ops are malformed, keeping its seq", () => {
    const { sync, sent } = syncWithClock();
    const state = { messages: [], status: "ready", error: "" };
    sync.receive(snapshot(1, []), state);
    const touched = sync.receive({ kind: "patch", seq: 2, ops: [["p", 9, 0, text("x")]] }, state);
    assert.equal(touched.all, true);
    assert.equal(sync.seq, 1);
    assert.deepEqual(sent, [{ kind: "resync" }]);
    assert.equal(sync.lastError, "seq 2 op 0 (p): no message 9 (have 0)");
  });

  it("ignores other kinds and non-objects, and asks again for a snapshot without messages", () => {
    const { sync, sent } = syncWithClock();
    const state = { messages: [], status: "ready", error: "" };
    for (const message of [null, "patch", 7, { kind: "hello" }]) assert.equal(sync.receive(message, state).any, false);
    assert.deepEqual(sent, []);
    sync.receive({ kind: "snapshot", messages: "none" }, state);
    assert.deepEqual(sent, [{ kind: "resync" }]);
    assert.equal(sync.awaitingSnapshot, true);
  });

  it("reports a resync that could not be sent", () => {
    const { sync } = syncWithClock({ sendResult: false });
    assert.equal(sync.requestResync("mounted"), false);
    assert.equal(sync.resyncs, 1);
  });
});
