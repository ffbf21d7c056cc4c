// @ag-ui/client's check of a run's resume against the thread's pending interrupts (AbstractAgent.runAgent):
// every pending interrupt needs an entry, and an expired one may only be cancelled.
// Payload: [{pending: [Interrupt...], resume: [ResumeEntry...]}, ...]; result: [{error}, ...] (null: accepted).
import { AbstractAgent, EventType } from "@ag-ui/client";
import { Observable } from "rxjs";
import { errorMessage, readPayload, writeResult } from "./agui_common.mjs";

class ScriptedAgent extends AbstractAgent {
  run(input) {
    return new Observable((subscriber) => {
      subscriber.next({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId });
      subscriber.next({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId });
      subscriber.complete();
    });
  }
}

async function check({ pending, resume }) {
  const agent = new ScriptedAgent({ threadId: "t" });
  agent.pendingInterrupts = pending;
  try {
    await agent.runAgent({ runId: "r", resume });
    return { error: null };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

const cases = await readPayload();
const results = [];
for (const item of cases) results.push(await check(item));
writeResult(results);
