// @ag-ui/client's reducer on each case, driven two ways:
// - "runAgent": an AbstractAgent whose run() replays the events, so the client's whole pipeline runs
//   (compatibility boundary, enforcement, chunk expansion, verification, defaultApplyEvents);
// - "reducer": only what the reducer needs in front of it (compatibility boundary and chunk expansion),
//   without enforcement or verification, to see what defaultApplyEvents itself does with any sequence.
// {mode, cases: [{events, messages?, state?}]} -> [{messages, state, interrupts, error?}]
import { from, lastValueFrom, map, tap } from "rxjs";
import { AbstractAgent, CompatibilityBoundary, defaultApplyEvents, transformChunks } from "@ag-ui/client";
import { readPayload, writeResult, errorMessage } from "./agui_common.mjs";

class ReplayAgent extends AbstractAgent {
  constructor(events, init) {
    super({ threadId: "thread", initialMessages: init.messages, initialState: init.state });
    this.events = events;
  }
  run() {
    return from(this.events);
  }
}

async function viaRunAgent({ events, messages, state }) {
  const agent = new ReplayAgent(events, { messages, state });
  let error;
  try {
    await agent.runAgent();
  } catch (e) {
    error = errorMessage(e);
  }
  return { messages: agent.messages, state: agent.state, interrupts: agent.pendingInterrupts, error };
}

async function viaReducer({ events, messages = [], state = {} }) {
  const agent = { messages, state, pendingInterrupts: [] };
  const input = { threadId: "thread", runId: "run", state, messages, tools: [], context: [] };
  const boundary = new CompatibilityBoundary();
  const events$ = from(events).pipe(
    map((event) => boundary["transformEvent"](event)),
    transformChunks(),
  );
  let current = { messages, state };
  let error;
  try {
    await lastValueFrom(
      defaultApplyEvents(input, events$, agent, []).pipe(
        tap((mutation) => {
          if (mutation.messages !== undefined) current.messages = mutation.messages;
          if (mutation.state !== undefined) current.state = mutation.state;
        }),
      ),
      { defaultValue: null },
    );
  } catch (e) {
    error = errorMessage(e);
  }
  return { ...current, interrupts: agent.pendingInterrupts, error };
}

const payload = await readPayload();
const drive = payload.mode === "runAgent" ? viaRunAgent : viaReducer;
const results = [];
for (const testCase of payload.cases) results.push(await drive(testCase));
writeResult(results);
