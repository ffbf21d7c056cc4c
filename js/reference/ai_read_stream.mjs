// Reference: the AI SDK's readUIMessageStream on a batch of chunk streams.
// stdin: {"streams": [{"chunks": [chunk, ...], "message"?: UIMessage, "terminateOnError"?: bool}, ...]}
// stdout: [{"snapshots": [UIMessage, ...], "errors": [{"name", "message", "chunkIndex"}], "thrown": error|null}, ...]
// chunkIndex is the index of the chunk being processed when the error was reported.
import { readUIMessageStream } from "ai";

const input = [];
for await (const piece of process.stdin) input.push(piece);
const { streams } = JSON.parse(Buffer.concat(input).toString("utf8"));

function describe(error, chunkIndex) {
  return { name: error?.name ?? "Error", message: String(error?.message ?? error), chunkIndex };
}

const results = [];
for (const { chunks, message, terminateOnError } of streams) {
  let current = -1;
  // Record which chunk is being processed: the reducer reads `type` first for every chunk.
  const tracked = chunks.map((chunk, index) => {
    if (chunk === null || typeof chunk !== "object") return chunk;
    const copy = { ...chunk };
    const type = copy.type;
    Object.defineProperty(copy, "type", {
      get() {
        current = index;
        return type;
      },
      enumerable: true,
      configurable: true,
    });
    return copy;
  });
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of tracked) controller.enqueue(chunk);
      controller.close();
    },
  });
  const errors = [];
  const snapshots = [];
  let thrown = null;
  try {
    for await (const snapshot of readUIMessageStream({
      stream,
      message,
      terminateOnError: terminateOnError ?? false,
      onError: error => errors.push(describe(error, current)),
    })) {
      snapshots.push(JSON.parse(JSON.stringify(snapshot)));
    }
  } catch (error) {
    thrown = describe(error, current);
  }
  results.push({ snapshots, errors, thrown });
}
process.stdout.write(JSON.stringify(results));
