// Reference: JSON.stringify of JSON.parse'd values, as a JavaScript producer or consumer writes them.
// stdin: {"values": [any, ...]}  stdout: [string, ...] (each value's JSON text)
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { values } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
process.stdout.write(JSON.stringify(values.map((value) => JSON.stringify(value))));
