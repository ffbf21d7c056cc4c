// Benchmark reference: time readUIMessageStream on pre-parsed chunks, inside node (JSON parsing excluded).
// stdin: {"chunks": [...], "runs": n}  stdout: {"seconds": [run, ...], "parts": number of parts at the end}
import { readUIMessageStream } from "ai";
import { performance } from "node:perf_hooks";

const input = [];
for await (const piece of process.stdin) input.push(piece);
const { chunks, runs } = JSON.parse(Buffer.concat(input).toString("utf8"));

const seconds = [];
let parts = 0;
for (let run = 0; run < runs; run++) {
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const start = performance.now();
  let last;
  for await (const message of readUIMessageStream({ stream })) last = message;
  seconds.push((performance.now() - start) / 1000);
  parts = last.parts.length;
}
process.stdout.write(JSON.stringify({ seconds, parts }));
