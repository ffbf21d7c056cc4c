// The form's answer checks (js/src/form.js payloadProblems) on JSON cases from stdin, for the differential test
// against agui_notebook/agui/_interrupts.py. Payload: [{schema, payload}, ...]; result: [[[path, message], ...], ...].
import { payloadProblems } from "../src/form.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const cases = JSON.parse(Buffer.concat(chunks).toString("utf8"));
process.stdout.write(JSON.stringify(cases.map(({ schema, payload }) => payloadProblems(schema, payload))));
