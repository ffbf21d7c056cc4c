// Reference: the AI SDK's readUIMessageStream over each given chunk stream.
// stdin: {"streams": [{"chunks": [...], "message"?: UIMessage}, ...]}
// stdout: [{"message": UIMessage | null, "errors": [errorText...], "thrown": string | null}, ...]
import { readUIMessageStream } from "ai";

const input = JSON.parse(await new Promise((resolve) => {
  let data = "";
  process.stdin.on("data", (chunk) => (data += chunk));
  process.stdin.on("end", () => resolve(data));
}));

const results = [];
for (const { chunks, message } of input.streams) {
  const stream = new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const errors = [];
  let last = null;
  let thrown = null;
  try {
    for await (const snapshot of readUIMessageStream({ stream, message, onError: (e) => errors.push(String(e?.message ?? e)) })) {
      last = snapshot;
    }
  } catch (error) {
    thrown = String(error?.message ?? error);
  }
  results.push({ message: last === null ? null : JSON.parse(JSON.stringify(last)), errors, thrown });
}
process.stdout.write(JSON.stringify(results));
