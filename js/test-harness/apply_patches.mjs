// Node driver for tests/widget/test_patches.py: applies patch/snapshot messages with the front end's own applier
// (js/src/sync.js) and prints the state after each one. stdin: {"cases": [{"initial": [...], "messages": [...]}]}.
import { readFileSync } from "node:fs";
import { applyOps, Touched } from "../src/sync.js";

const payload = JSON.parse(readFileSync(0, "utf8"));
const results = payload.cases.map(({ initial, messages }) => {
  const state = { messages: structuredClone(initial), status: "ready", error: "" };
  return messages.map((message) => {
    if (message.kind === "snapshot") {
      state.messages = structuredClone(message.messages);
      state.status = message.status;
      state.error = message.error;
    } else {
      applyOps(state, message.ops, new Touched());
    }
    return JSON.parse(JSON.stringify(state));
  });
});
process.stdout.write(JSON.stringify({ cases: results }));
