// transformChunks from @ag-ui/client on each case: {cases: [[event, ...], ...]} -> [{events} | {error, events}].
import { from, lastValueFrom, toArray, tap } from "rxjs";
import { transformChunks } from "@ag-ui/client";
import { readPayload, writeResult, errorMessage } from "./agui_common.mjs";

const payload = await readPayload();
const results = [];
for (const events of payload.cases) {
  const seen = [];
  try {
    await lastValueFrom(from(events).pipe(transformChunks(), tap((e) => seen.push(e)), toArray()), {
      defaultValue: [],
    });
    results.push({ events: seen });
  } catch (error) {
    results.push({ events: seen, error: errorMessage(error) });
  }
}
writeResult(results);
