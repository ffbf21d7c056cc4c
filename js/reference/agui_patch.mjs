// fast-json-patch applyPatch(doc, patch, validate=true, mutate=false), as @ag-ui/client applies deltas.
// {cases: [{document, patch}, ...]} -> [{document, input} | {error, input}] (input: the document afterwards,
// to show it was not mutated).
import jsonpatch from "fast-json-patch";
import { readPayload, writeResult, errorMessage } from "./agui_common.mjs";

const payload = await readPayload();
writeResult(
  payload.cases.map(({ document, patch }) => {
    const before = JSON.stringify(document);
    try {
      const result = jsonpatch.applyPatch(document, patch, true, false);
      if (result.newDocument === undefined) return { undefined: true, unchanged: JSON.stringify(document) === before };
      try {
        // A move into its own child makes a cycle, which no JSON document can hold.
        return { document: JSON.parse(JSON.stringify(result.newDocument)), unchanged: JSON.stringify(document) === before };
      } catch {
        return { circular: true, unchanged: JSON.stringify(document) === before };
      }
    } catch (error) {
      return { error: errorMessage(error), unchanged: JSON.stringify(document) === before };
    }
  }),
);
