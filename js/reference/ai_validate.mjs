// Reference: the AI SDK's safeValidateUIMessages on a batch of cases.
// stdin: {"cases": [{"messages": ..., "schemas"?: {"metadata"?: P, "data"?: {name: P}, "tools"?: {name: {"input": P, "output"?: P}}}}]}
// where P names a preset schema below. stdout: [{"success": bool, "data"?: [...], "error"?: string}, ...]
import { safeValidateUIMessages } from "ai";
import { z } from "zod";

const PRESETS = {
  meta: z.object({ model: z.string() }),
  weather: z.object({ temp: z.number() }),
  city: z.object({ city: z.string() }),
  text: z.string(),
};

const input = [];
for await (const piece of process.stdin) input.push(piece);
const { cases } = JSON.parse(Buffer.concat(input).toString("utf8"));

const results = [];
for (const { messages, schemas = {} } of cases) {
  const options = { messages };
  if (schemas.metadata) options.metadataSchema = PRESETS[schemas.metadata];
  if (schemas.data) {
    options.dataSchemas = Object.fromEntries(Object.entries(schemas.data).map(([k, v]) => [k, PRESETS[v]]));
  }
  if (schemas.tools) {
    options.tools = Object.fromEntries(
      Object.entries(schemas.tools).map(([k, v]) => [
        k,
        { inputSchema: PRESETS[v.input], ...(v.output ? { outputSchema: PRESETS[v.output] } : {}) },
      ]),
    );
  }
  const result = await safeValidateUIMessages(options);
  results.push(result.success ? { success: true, data: result.data } : { success: false, error: String(result.error?.message) });
}
process.stdout.write(JSON.stringify(results));
