// What @ag-ui/client rejects, and at which input event. Two pipelines:
// - "runAgent": compatibility boundary, enforcement, chunk expansion, verifyEvents (what runAgent runs);
// - "verify": chunk expansion and verifyEvents only (the ordering rules on their own).
// {mode, cases: [[event, ...], ...]} -> [{error, index} | {}]
import { from, lastValueFrom, map, tap } from "rxjs";
import { CompatibilityBoundary, enforceEvents, transformChunks, verifyEvents } from "@ag-ui/client";
import { readPayload, writeResult, errorMessage } from "./agui_common.mjs";

const payload = await readPayload();
const results = [];
for (const events of payload.cases) {
  let index = -1;
  let source$ = from(events).pipe(tap(() => index++));
  if (payload.mode === "runAgent") {
    const boundary = new CompatibilityBoundary();
    source$ = source$.pipe(map((event) => boundary["transformEvent"](event)), enforceEvents());
  }
  try {
    await lastValueFrom(source$.pipe(transformChunks(), verifyEvents()), { defaultValue: null });
    results.push({});
  } catch (error) {
    results.push({ error: errorMessage(error), index });
  }
}
writeResult(results);
