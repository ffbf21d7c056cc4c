// Shared by the agui_*.mjs reference drivers: read one JSON payload on stdin, print one JSON result.
process.env.SUPPRESS_TRANSFORMATION_WARNINGS = "true";
// The reference warns on every skipped event; the drivers report results, not logs.
console.warn = () => {};
console.error = () => {};
console.log = () => {};
console.debug = () => {};

export async function readPayload() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export function writeResult(result) {
  process.stdout.write(JSON.stringify(result));
}

export function errorMessage(error) {
  return error instanceof Error ? error.message : String(error);
}
