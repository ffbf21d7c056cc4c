// Reference: the AI SDK's parsePartialJson on a batch of texts.
// stdin: {"texts": [string, ...]}  stdout: [[state, value], ...] (value null when undefined)
import { parsePartialJson } from "ai";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { texts } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const results = [];
for (const text of texts) {
  const { value, state } = await parsePartialJson(text);
  results.push([state, value === undefined ? null : value]);
}
process.stdout.write(JSON.stringify(results));
