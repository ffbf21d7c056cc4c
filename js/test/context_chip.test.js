import assert from "node:assert/strict";
import { describe, it } from "node:test";
import "./dom.js";
import { ContextChip, contextEntries, contextSummary } from "../src/context_chip.js";

const SENT = [
  { description: "sales", kind: "DataFrame 1,200×6", chars: 3850, cut: 2140, dynamic: false },
  { description: "selected rows", kind: "callable", chars: null, cut: 0, dynamic: true },
  { description: "units", kind: "text", chars: 6, cut: 0, dynamic: false },
];

describe("contextEntries", () => {
  it("keeps the entries with a description and nothing else", () => {
    assert.deepEqual(contextEntries([SENT[0], null, 3, { kind: "text" }, { description: 5 }]), [SENT[0]]);
    assert.deepEqual(contextEntries("not a list"), []);
    assert.deepEqual(contextEntries(undefined), []);
  });
});

describe("contextSummary", () => {
  it("sums the sizes and marks the entries whose size is not known yet", () => {
    assert.deepEqual(contextSummary(SENT), [
      "3.9k+",
      "The agent sees 3 context entries from the notebook, 3,856 characters and more computed at each run",
    ]);
  });
  it("counts one entry in the singular and small sizes as they are", () => {
    assert.deepEqual(contextSummary([SENT[2]]), [
      "6",
      "The agent sees 1 context entry from the notebook, 6 characters",
    ]);
  });
  it("reads sizes that are not numbers as unknown", () => {
    assert.deepEqual(contextSummary([{ description: "x", chars: "12" }])[0], "0+");
  });
});

describe("ContextChip", () => {
  it("lists each entry with its kind, size, cut and whether it is computed", () => {
    const chip = new ContextChip();
    chip.update(SENT);
    assert.equal(chip.el.hidden, false);
    assert.equal(chip.summary.textContent, "Context 3 · 3.9k+");
    assert.deepEqual(
      [...chip.list.children].map((row) => row.textContent),
      [
        "salesDataFrame 1,200×6 · 3,850 chars · 2,140 cut",
        "selected rowscallable · computed at each run",
        "unitstext · 6 chars",
      ],
    );
    chip.update([]);
    assert.equal(chip.el.hidden, true);
  });
});
