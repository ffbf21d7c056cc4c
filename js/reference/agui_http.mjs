// @ag-ui/client's HttpAgent against a server: for each case, the events its run() gives, or the error it raises.
// Payload: [{url, headers, input}, ...]; result: [{events, error}, ...].
import { HttpAgent } from "@ag-ui/client";
import { errorMessage, readPayload, writeResult } from "./agui_common.mjs";

function run({ url, headers, input }) {
  const agent = new HttpAgent({ url, headers });
  const events = [];
  return new Promise((resolve) => {
    agent.run(input).subscribe({
      next: (event) => events.push(event),
      error: (error) => resolve({ events, error: errorMessage(error) }),
      complete: () => resolve({ events, error: null }),
    });
  });
}

const cases = await readPayload();
const results = [];
for (const item of cases) results.push(await run(item));
writeResult(results);
