// Times @ag-ui/client on pre-parsed events (JSON parsing is outside the timed region).
// {events, repeats, mode: "runAgent" | "reducer"} -> {seconds: [...], messages: <count>}
// "runAgent": an AbstractAgent replaying the events through runAgent's whole pipeline;
// "reducer": the compatibility boundary, chunk expansion and defaultApplyEvents only.
import { performance } from "node:perf_hooks";
import { from, lastValueFrom, map } from "rxjs";
import { AbstractAgent, CompatibilityBoundary, defaultApplyEvents, transformChunks } from "@ag-ui/client";
import { readPayload, writeResult } from "./agui_common.mjs";

class ReplayAgent extends AbstractAgent {
  constructor(events) {
    super({ threadId: "thread" });
    this.events = events;
  }
  run() {
    return from(this.events);
  }
}

async function once(events, mode) {
  if (mode === "runAgent") {
    const agent = new ReplayAgent(events);
    const start = performance.now();
    await agent.runAgent();
    return [performance.now() - start, agent.messages.length];
  }
  const agent = { messages: [], state: {}, pendingInterrupts: [] };
  const input = { threadId: "thread", runId: "run", state: {}, messages: [], tools: [], context: [] };
  const boundary = new CompatibilityBoundary();
  let messages = [];
  const start = performance.now();
  const events$ = from(events).pipe(map((e) => boundary["transformEvent"](e)), transformChunks());
  await lastValueFrom(
    defaultApplyEvents(input, events$, agent, []).pipe(map((m) => (messages = m.messages ?? messages))),
    { defaultValue: null },
  );
  return [performance.now() - start, messages.length];
}

const payload = await readPayload();
const seconds = [];
let count = 0;
for (let i = 0; i < payload.repeats; i++) {
  const [ms, n] = await once(structuredClone(payload.events), payload.mode);
  seconds.push(ms / 1000);
  count = n;
}
writeResult({ seconds, messages: count });
