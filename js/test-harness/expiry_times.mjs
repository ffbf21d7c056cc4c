// The card's reading of `expiresAt` (js/src/interrupts.js expiryTime) on JSON strings from stdin, for the
// differential test against agui_notebook/agui/_interrupts.py is_interrupt_expired. Result: ms or null each.
import { expiryTime } from "../src/interrupts.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
process.stdout.write(JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")).map(expiryTime)));
