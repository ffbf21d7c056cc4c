import "./dom.js";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SchemaForm, payloadProblems, resolveRef } from "../src/form.js";

describe("payloadProblems", () => {
  const trip = {
    type: "object",
    properties: {
      city: { type: "string", minLength: 2 },
      days: { type: "integer", minimum: 1, maximum: 14 },
      mail: { type: "string", format: "email" },
      kind: { enum: ["a", "b"] },
    },
    required: ["city", "days"],
  };
  const rows = [
    ["an answer that fits", trip, { city: "Oslo", days: 3, extra: true }, []],
    ["every wrong property, in schema order", trip, { city: "O", days: 0, mail: "nope", kind: "c" }, [
      ["payload.city", "must be at least 2 characters"],
      ["payload.days", "must be at least 1"],
      ["payload.mail", "must be an email address"],
      ["payload.kind", "must be one of: a, b"],
    ]],
    ["missing required properties", trip, {}, [["payload.city", "is required"], ["payload.days", "is required"]]],
    ["a payload of the wrong type", trip, "Oslo", [["payload", "must be an object"]]],
    ["an impossible date", { type: "string", format: "date" }, "2024-02-30", [["payload", "must be a date (YYYY-MM-DD)"]]],
    ["a leap day", { type: "string", format: "date" }, "2024-02-29", []],
    ["a URL without a scheme", { type: "string", format: "uri" }, "example.com", [
      ["payload", "must be a URL such as https://example.com"],
    ]],
    ["a pattern", { type: "string", pattern: "^[A-Z]{3}$" }, "osl", [["payload", "must match the pattern ^[A-Z]{3}$"]]],
    ["an exclusive maximum and a multiple", { type: "number", multipleOf: 0.5, exclusiveMaximum: 3 }, 3, [
      ["payload", "must be less than 3"],
    ]],
    ["a bool where an integer is asked", { type: "integer" }, true, [["payload", "must be a whole number"]]],
    ["NaN as a number", { type: "number" }, Number.NaN, [["payload", "must be a number"]]],
    ["list items, by index", { type: "array", items: { type: "integer" } }, [1, "2", 3.5], [
      ["payload[1]", "must be a whole number"],
      ["payload[2]", "must be a whole number"],
    ]],
    ["repeated items", { type: "array", uniqueItems: true }, [1, 1], [["payload", "must not repeat a value"]]],
    ["an Optional[str]", { anyOf: [{ type: "string" }, { type: "null" }] }, 3, [["payload", "must be text"]]],
    ["a value two oneOf branches fit", { oneOf: [{ type: "integer" }, { type: "number" }] }, 1, [
      ["payload", "must match exactly one of the choices"],
    ]],
    ["a const", { const: "yes" }, "no", [["payload", "must be yes"]]],
    ["a property not allowed", { type: "object", additionalProperties: false, properties: { a: {} } }, { a: 1, b: 2 }, [
      ["payload.b", "is not allowed"],
    ]],
    ["a recursive $ref, checked at depth", {
      $defs: { Node: { type: "object", properties: { next: { $ref: "#/$defs/Node" } } } },
      $ref: "#/$defs/Node",
    }, { next: { next: { next: 1 } } }, [["payload.next.next.next", "must be an object"]]],
    ["keys named like Object.prototype members",
      JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"required":["__proto__","toString"]}'),
      JSON.parse('{"__proto__": 1}'), [["payload.toString", "is required"], ["payload.__proto__", "must be text"]]],
  ];
  for (const [name, schema, payload, expected] of rows) {
    it(name, () => assert.deepEqual(payloadProblems(schema, payload), expected));
  }

  it("leaves a catastrophic-backtracking pattern to the kernel instead of hanging", () => {
    const started = performance.now();
    assert.deepEqual(payloadProblems({ type: "string", pattern: "(a+)+$" }, `${"a".repeat(40)}!`), []);
    assert.ok(performance.now() - started < 1000);
  });
});

describe("resolveRef", () => {
  const root = { $defs: { "a/b": { type: "string" }, "m~n": 1 }, list: [10, 20] };
  const rows = [
    ["#/$defs/a~1b", { type: "string" }],
    ["#/$defs/m~0n", 1],
    ["#/list/1", 20],
    ["#", root],
    ["#/list/2", undefined],
    ["#/$defs/constructor", undefined],
    ["#/$defs/%E0%A4%A", undefined],
    ["https://example.com/schema#/$defs/a~1b", undefined],
    ["#anchor", undefined],
    [42, undefined],
  ];
  for (const [ref, expected] of rows) it(String(ref), () => assert.deepEqual(resolveRef(root, ref), expected));
});

/** A form for `schema`, on the page (focus and ids work), and a look-up of a field's first input by path. */
function formFor(schema) {
  const form = new SchemaForm(schema);
  document.body.replaceChildren(form.el);
  const input = (path) => form.el.querySelector(`[data-path="${path}"] input, [data-path="${path}"] select`);
  return { form, input };
}

describe("SchemaForm", () => {
  const schema = {
    type: "object",
    properties: {
      city: { type: "string", title: "City <b>x</b>", default: "Bergen" },
      days: { type: "integer", minimum: 1, maximum: 14 },
      kind: { enum: ["a", "b"] },
      ok: { type: "boolean" },
      note: { anyOf: [{ type: "string" }, { type: "null" }] },
    },
    required: ["city", "days"],
  };

  it("reads typed values, fills defaults and leaves an empty optional field out", () => {
    const { form, input } = formFor(schema);
    assert.equal(input("payload.city").value, "Bergen");
    input("payload.days").value = "3";
    form.el.querySelectorAll('[data-path="payload.kind"] input')[1].checked = true;
    assert.deepEqual(form.value(), { city: "Bergen", days: 3, kind: "b", ok: false });
    assert.deepEqual(form.check(true), []);
  });

  it("shows each problem beside its field, and a summary", () => {
    const { form, input } = formFor(schema);
    input("payload.city").value = "";
    input("payload.days").value = "2.5";
    assert.deepEqual(form.check(true), [["payload.city", "is required"], ["payload.days", "must be a whole number"]]);
    const shown = [...form.el.querySelectorAll('[data-agui="field-error"]')]
      .filter((node) => !node.hidden)
      .map((node) => [node.closest('[data-agui="field"]').dataset.path, node.textContent]);
    assert.deepEqual(shown, [["payload.city", "is required"], ["payload.days", "must be a whole number"]]);
    const summary = form.el.querySelector('[data-agui="form-error"]');
    assert.deepEqual([summary.hidden, summary.textContent], [false, "Check the 2 marked fields."]);
  });

  it("shows an agent's title as text, never as markup", () => {
    const { form } = formFor(schema);
    const label = form.el.querySelector('[data-path="payload.city"] label');
    assert.equal(label.textContent, "City <b>x</b>*", "the title, then the required mark");
    assert.equal(label.querySelector("b"), null);
  });

  it("answers with the branch of a oneOf the user picked", () => {
    const { form, input } = formFor({
      type: "object",
      properties: {
        mode: {
          oneOf: [
            { title: "Car", type: "object", properties: { seats: { type: "integer" } } },
            { title: "Train", type: "object", properties: { class: { enum: ["first", "second"] } } },
          ],
        },
      },
    });
    const options = [...form.el.querySelectorAll('[data-agui="field-branch-picker"] label')];
    assert.deepEqual(options.map((option) => option.textContent), ["Car", "Train"]);
    input("payload.mode.seats").value = "4";
    assert.deepEqual(form.value(), { mode: { seats: 4 } });
    const train = options[1].querySelector("input");
    train.checked = true;
    train.dispatchEvent(new Event("change"));
    form.el.querySelectorAll('[data-path="payload.mode.class"] input')[0].checked = true;
    assert.deepEqual(form.value(), { mode: { class: "first" } });
  });

  it("adds list rows and reads them in order", () => {
    const { form } = formFor({ type: "object", properties: { tags: { type: "array", items: { type: "string" } } } });
    const add = form.el.querySelector('[data-agui="field-add"]');
    add.click();
    add.click();
    const rows = form.el.querySelectorAll('[data-path^="payload.tags["] input');
    assert.deepEqual([...rows].map((row) => row.closest('[data-agui="field"]').dataset.path), ["payload.tags[0]", "payload.tags[1]"]);
    rows[0].value = "rain";
    rows[1].value = "wind";
    assert.deepEqual(form.value(), { tags: ["rain", "wind"] });
  });

  it("disables every control while an answer is sent", () => {
    const { form } = formFor(schema);
    form.setDisabled(true);
    const controls = [...form.el.querySelectorAll("input, select, button")];
    assert.deepEqual(controls.filter((control) => !control.disabled).length, 0);
    assert.equal(controls.length, 6);
  });
});
