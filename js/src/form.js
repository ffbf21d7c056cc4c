// A form generated from a JSON Schema (an AG-UI interrupt's `responseSchema`), and the checks its answer must
// pass. The checks are those of agui_notebook/agui/_interrupts.py `payload_problems`, keyword for keyword and
// message for message, so what the form refuses the kernel refuses too (a test keeps the two equal).
//
// Fields: strings (text, email, url, date inputs), numbers and integers (number inputs with their bounds and
// step), booleans (a checkbox), enums (radios up to 4 choices, a select beyond), arrays of enums (a checkbox
// group), nested objects (a fieldset), anything else a JSON text field. Titles label the fields (the property
// name otherwise), descriptions are help under them, required fields carry a mark, defaults fill them in. A
// field's problems show next to it once it was touched, and every field's on submit.
import { element, label } from "./dom.js";

const RADIO_MAX = 4;
const TYPE_MESSAGES = {
  string: "must be text",
  number: "must be a number",
  integer: "must be a whole number",
  boolean: "must be true or false",
  object: "must be an object",
  array: "must be a list",
  null: "must be empty (null)",
};
const TYPE_TEXTS = new Set(Object.values(TYPE_MESSAGES));
// Spelled out (not \s, \d), which Python and JavaScript read differently.
const EMAIL = /^[^ \t\n\r\f\v@]+@[^ \t\n\r\f\v@]+\.[^ \t\n\r\f\v@]+$/;
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^ \t\n\r\f\v]+$/;
const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
const TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|[+-]([0-9]{2}):([0-9]{2}))?$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const FORMAT_MESSAGES = {
  email: "must be an email address",
  uri: "must be a URL such as https://example.com",
  url: "must be a URL such as https://example.com",
  date: "must be a date (YYYY-MM-DD)",
  "date-time": "must be a date and time (YYYY-MM-DDTHH:MM:SS+00:00)",
  time: "must be a time (HH:MM:SS)",
  uuid: "must be a UUID",
};

const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
const isNumber = (value) => typeof value === "number" && Number.isFinite(value);
const own = (object, key) => isObject(object) && Object.hasOwn(object, key);

function shownNumber(value) {
  return String(value);
}

function shownChoice(value) {
  if (typeof value === "string") return value;
  if (value === null) return "null";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function isType(value, kind) {
  switch (kind) {
    case "string":
      return typeof value === "string";
    case "boolean":
      return typeof value === "boolean";
    case "integer":
      return isNumber(value) && Number.isInteger(value);
    case "number":
      return isNumber(value);
    case "object":
      return isObject(value);
    case "array":
      return Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

/** Equal as JSON values (objects whatever their key order). */
function sameJson(a, b) {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameJson(a[k], b[k]));
  }
  return false;
}

function validDate(text) {
  const match = DATE.exec(text);
  if (!match) return false;
  const [y, m, d] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1;
}

/** `HH:MM:SS[.frac][Z|+HH:MM]`, the offset required with `offset` (as in a date-time). */
function validTime(text, offset = false) {
  const match = TIME.exec(text);
  if (!match || (offset && match[5] === undefined)) return false;
  const [hour, minute, second] = match.slice(1, 4).map(Number);
  if (hour > 23 || minute > 59 || second > 60) return false; // 60: a leap second
  return match[6] === undefined || (Number(match[6]) <= 23 && Number(match[7]) <= 59);
}

function validDateTime(text) {
  return text.length > 11 && "Tt".includes(text[10]) && validDate(text.slice(0, 10)) && validTime(text.slice(11), true);
}

function formatOk(format, text) {
  switch (format) {
    case "email":
      return EMAIL.test(text);
    case "uri":
    case "url":
      return URI.test(text);
    case "date":
      return validDate(text);
    case "date-time":
      return validDateTime(text);
    case "time":
      return validTime(text);
    case "uuid":
      return UUID.test(text);
    default:
      return true;
  }
}

// A group with a quantifier inside, itself quantified ("(a+)+"), can take exponential time to fail on each key
// press: an agent's pattern like that, or a very long one, is not checked (the kernel skips it too).
const NESTED_QUANTIFIER = /\([^()]*[+*}][^()]*\)[+*{]/;

function riskyPattern(pattern) {
  return pattern.length > 200 || NESTED_QUANTIFIER.test(pattern);
}

/** Whether `text` matches `pattern` (true for a risky pattern or one this browser cannot read: the agent's). */
function patternMatches(pattern, text) {
  if (typeof pattern !== "string" || riskyPattern(pattern)) return true;
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return true;
  }
}

function stringProblems(schema, value) {
  const problems = [];
  const length = [...value].length; // code points, as JSON Schema (and the kernel) count
  if (Number.isInteger(schema.minLength) && length < schema.minLength) {
    problems.push(schema.minLength === 1 && length === 0 ? "is required" : `must be at least ${schema.minLength} characters`);
  }
  if (Number.isInteger(schema.maxLength) && length > schema.maxLength) {
    problems.push(`must be at most ${schema.maxLength} characters`);
  }
  if (!patternMatches(schema.pattern, value)) problems.push(`must match the pattern ${schema.pattern}`);
  if (!formatOk(schema.format, value)) problems.push(FORMAT_MESSAGES[schema.format]);
  return problems;
}

/** `multipleOf` with a tolerance for binary fractions (0.3 is a multiple of 0.1, as a person means it). */
function multipleOk(step, value) {
  if (!isNumber(step) || step <= 0) return true;
  const quotient = value / step;
  return Math.abs(quotient - Math.round(quotient)) <= 1e-9 * Math.max(1, Math.abs(quotient));
}

function numberProblems(schema, value) {
  const problems = [];
  let { minimum: low, maximum: high, exclusiveMinimum: exLow, exclusiveMaximum: exHigh } = schema;
  if (exLow === true) [exLow, low] = [low, undefined]; // draft 4: a flag on minimum
  if (exHigh === true) [exHigh, high] = [high, undefined];
  if (isNumber(low) && value < low) problems.push(`must be at least ${shownNumber(low)}`);
  if (isNumber(exLow) && value <= exLow) problems.push(`must be more than ${shownNumber(exLow)}`);
  if (isNumber(high) && value > high) problems.push(`must be at most ${shownNumber(high)}`);
  if (isNumber(exHigh) && value >= exHigh) problems.push(`must be less than ${shownNumber(exHigh)}`);
  if (!multipleOk(schema.multipleOf, value)) problems.push(`must be a multiple of ${shownNumber(schema.multipleOf)}`);
  return problems;
}

/** The schema a local `$ref` (`#`, `#/$defs/Name`, `#/definitions/Name`...) points at, else undefined. */
export function resolveRef(root, ref) {
  // A remote schema or an anchor is not followed (the kernel's jsonschema judges it).
  if (typeof ref !== "string" || (ref !== "#" && !ref.startsWith("#/"))) return undefined;
  let target = root;
  const steps = ref === "#" ? [] : ref.slice(2).split("/");
  for (const raw of steps) {
    let key;
    try {
      key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (own(target, key)) target = target[key];
    else if (Array.isArray(target) && /^[0-9]+$/.test(key) && Number(key) < target.length) target = target[Number(key)];
    else return undefined;
  }
  return target;
}

const wrongType = (found, path) => found[0][0] === path && TYPE_TEXTS.has(found[0][1]);

/** One walk of a schema over a value: the root for `$ref`, and the references being followed (a reference that
 * comes back to itself at the same place of the value is a cycle: it adds nothing). */
class Checks {
  constructor(root) {
    this.root = root;
    this.following = new Set();
  }

  fits(schema, value, path) {
    const found = [];
    this.walk(schema, value, path, found);
    return found;
  }

  walk(schema, value, path, out) {
    if (schema === false) {
      out.push([path, "is not allowed"]);
      return;
    }
    if (!isObject(schema)) return;
    const key = `${schema.$ref}\u0000${path}`;
    if (typeof schema.$ref === "string" && !this.following.has(key)) {
      const target = resolveRef(this.root, schema.$ref);
      if (target !== undefined) {
        this.following.add(key);
        const before = out.length;
        try {
          this.walk(target, value, path, out);
        } finally {
          this.following.delete(key);
        }
        if (out.length > before && wrongType(out.slice(before), path)) return;
      }
    }
    for (const branch of Array.isArray(schema.allOf) ? schema.allOf : []) {
      const before = out.length;
      this.walk(branch, value, path, out);
      if (out.length > before && wrongType(out.slice(before), path)) return;
    }
    if (this.choices(schema, value, path, out)) return;
    if (own(schema, "not") && this.fits(schema.not, value, path).length === 0) out.push([path, "is not allowed"]);
    if (own(schema, "if")) {
      this.walk(this.fits(schema.if, value, path).length === 0 ? schema.then : schema.else, value, path, out);
    }
    const kinds = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : [];
    if (kinds.length && !kinds.some((kind) => isType(value, kind))) {
      out.push([path, TYPE_MESSAGES[kinds[0]] ?? `must be of type ${kinds[0]}`]);
      return;
    }
    if (own(schema, "const") && !sameJson(value, schema.const)) out.push([path, `must be ${shownChoice(schema.const)}`]);
    if (Array.isArray(schema.enum) && !schema.enum.some((choice) => sameJson(choice, value))) {
      out.push([path, `must be one of: ${schema.enum.map(shownChoice).join(", ")}`]);
    }
    if (typeof value === "string") {
      for (const problem of stringProblems(schema, value)) out.push([path, problem]);
    } else if (isNumber(value)) {
      for (const problem of numberProblems(schema, value)) out.push([path, problem]);
    } else if (Array.isArray(value)) {
      this.array(schema, value, path, out);
    } else if (isObject(value)) {
      this.object(schema, value, path, out);
    }
  }

  /** `anyOf` (one branch must fit) and `oneOf` (exactly one); true when none fits (then the branch that says most
   * is reported and the rest of the schema is not checked). */
  choices(schema, value, path, out) {
    for (const key of ["anyOf", "oneOf"]) {
      const branches = schema[key];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      const tried = branches.map((branch) => this.fits(branch, value, path));
      const fitting = tried.filter((found) => found.length === 0).length;
      if (fitting === 0) {
        // The branch of the value's own type says most: a type mismatch is the last resort.
        const rank = (found) => [wrongType(found, path) ? 1 : 0, found.length];
        const better = (a, b) => rank(a)[0] < rank(b)[0] || (rank(a)[0] === rank(b)[0] && rank(a)[1] < rank(b)[1]);
        out.push(...tried.reduce((best, found) => (better(found, best) ? found : best)));
        return true;
      }
      if (key === "oneOf" && fitting > 1) out.push([path, "must match exactly one of the choices"]);
    }
    return false;
  }

  array(schema, value, path, out) {
    if (Number.isInteger(schema.minItems) && value.length < schema.minItems) {
      out.push([path, `choose at least ${schema.minItems}`]);
    }
    if (Number.isInteger(schema.maxItems) && value.length > schema.maxItems) {
      out.push([path, `choose at most ${schema.maxItems}`]);
    }
    if (schema.uniqueItems === true && value.some((v, i) => value.slice(0, i).some((w) => sameJson(v, w)))) {
      out.push([path, "must not repeat a value"]);
    }
    let prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    let items = schema.items;
    if (Array.isArray(items)) [prefix, items] = [items, schema.additionalItems]; // draft 4-7 tuples
    value.forEach((item, index) => this.walk(index < prefix.length ? prefix[index] : items, item, `${path}[${index}]`, out));
  }

  object(schema, value, path, out) {
    for (const name of Array.isArray(schema.required) ? schema.required : []) {
      if (typeof name === "string" && !Object.hasOwn(value, name)) out.push([`${path}.${name}`, "is required"]);
    }
    if (isObject(schema.dependentRequired)) {
      for (const [name, needed] of Object.entries(schema.dependentRequired)) {
        if (!Object.hasOwn(value, name) || !Array.isArray(needed)) continue;
        for (const other of needed) {
          if (typeof other === "string" && !Object.hasOwn(value, other)) out.push([`${path}.${other}`, "is required"]);
        }
      }
    }
    const count = Object.keys(value).length;
    if (Number.isInteger(schema.minProperties) && count < schema.minProperties) {
      out.push([path, `must have at least ${schema.minProperties} entries`]);
    }
    if (Number.isInteger(schema.maxProperties) && count > schema.maxProperties) {
      out.push([path, `must have at most ${schema.maxProperties} entries`]);
    }
    const properties = isObject(schema.properties) ? schema.properties : {};
    const patterns = isObject(schema.patternProperties) ? Object.entries(schema.patternProperties) : [];
    for (const [name, item] of Object.entries(value)) {
      let matched = false;
      if (Object.hasOwn(properties, name)) {
        matched = true;
        this.walk(properties[name], item, `${path}.${name}`, out);
      }
      for (const [pattern, sub] of patterns) {
        if (!riskyPattern(pattern) && patternMatches(pattern, name)) {
          matched = true;
          this.walk(sub, item, `${path}.${name}`, out);
        }
      }
      if (!matched && schema.additionalProperties !== undefined) {
        this.walk(schema.additionalProperties, item, `${path}.${name}`, out);
      }
    }
  }
}

/** What `schema` refuses in `payload`: [JSON path, message] pairs (paths start at "payload"), first found first. */
export function payloadProblems(schema, payload) {
  return new Checks(schema).fits(schema, payload, "payload");
}

// ------------------------------------------------------------------------------------------------ the form

/** The schema a field is drawn from: `anyOf`/`oneOf` with a null branch (an optional value) is its other branch,
 * a type list its first non-null type. */
function fieldSchema(schema) {
  if (!isObject(schema)) return {};
  for (const key of ["anyOf", "oneOf"]) {
    const branches = Array.isArray(schema[key]) ? schema[key].filter(isObject) : null;
    if (branches) {
      const real = branches.filter((b) => b.type !== "null");
      if (real.length === 1) return { ...schema, ...real[0], [key]: undefined, title: schema.title ?? real[0].title };
    }
  }
  if (Array.isArray(schema.type)) {
    return { ...schema, type: schema.type.find((t) => t !== "null") ?? "null" };
  }
  return schema;
}

function humanName(name) {
  const words = String(name)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim();
  return words ? words[0].toUpperCase() + words.slice(1) : "";
}

function enumOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum;
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (branches && branches.length && branches.every((b) => isObject(b) && "const" in b)) return branches.map((b) => b.const);
  return null;
}

function choiceLabels(schema) {
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return branches.map((b) => (isObject(b) && typeof b.title === "string" ? b.title : undefined));
}

let formCount = 0;

/** What a field reads when its input is no value at all (text in a number field, broken JSON). */
class Unreadable {
  constructor(problem) {
    this.problem = problem;
  }
}

/** One field: its element, how to read its value (undefined: left empty), where its problems show. */
class Field {
  constructor(form, schema, { name, path, required }) {
    this.form = form;
    this.schema = fieldSchema(schema);
    this.path = path;
    this.required = required;
    this.touched = false;
    this.uid = `${form.uid}-${form.fields.length}`;
    form.fields.push(this);
    this.title = typeof this.schema.title === "string" ? this.schema.title : name === undefined ? "Answer" : humanName(name);
    this.el = element("div", "agui-field");
    this.el.dataset.agui = "field";
    this.el.dataset.path = path;
    this.problem = element("div", "agui-field-error");
    this.problem.dataset.agui = "field-error";
    this.problem.id = `${this.uid}-error`;
    this.problem.hidden = true;
    this.build();
  }

  labelFor(target) {
    const text = element("label", "agui-field-label", label(this.title, 200));
    if (target) text.htmlFor = target;
    if (this.required && this.schema.type !== "boolean") {
      // (A checkbox always answers true or false: there is nothing to leave out.)
      const mark = element("span", "agui-field-required", "*");
      mark.title = "Required";
      mark.setAttribute("aria-hidden", "true");
      text.append(mark);
    }
    return text;
  }

  help() {
    if (typeof this.schema.description !== "string" || this.schema.description === "") return null;
    const help = element("div", "agui-field-help", label(this.schema.description, 1000));
    help.id = `${this.uid}-help`;
    return help;
  }

  describe(control) {
    const ids = [this.problem.id];
    if (this.helpEl) ids.unshift(this.helpEl.id);
    control.setAttribute("aria-describedby", ids.join(" "));
    if (this.required) control.setAttribute("aria-required", "true");
  }

  finish(control, ...body) {
    this.helpEl = this.help();
    this.el.append(...body);
    if (this.helpEl) this.el.append(this.helpEl);
    this.el.append(this.problem);
    if (control) {
      this.describe(control);
      const touch = () => {
        this.touched = true;
        this.form.touched();
      };
      control.addEventListener("change", touch);
      control.addEventListener("blur", touch);
      control.addEventListener("input", () => {
        if (this.touched) this.form.touched();
      });
    }
  }

  build() {
    const schema = this.schema;
    const choices = enumOf(schema);
    const def = schema.default;
    if (choices) return this.buildChoice(choices, def);
    if (schema.type === "object" && isObject(schema.properties)) return this.buildObject();
    if (schema.type === "array") {
      const items = fieldSchema(schema.items);
      const itemChoices = isObject(items) ? enumOf(items) : null;
      if (itemChoices) return this.buildChecklist(itemChoices, def);
    }
    if (schema.type === "boolean") return this.buildCheckbox(def);
    if (schema.type === "string") return this.buildText(def);
    if (schema.type === "number" || schema.type === "integer") return this.buildNumber(def);
    return this.buildJson(def);
  }

  buildText(def) {
    const format = this.schema.format;
    const input = element("input", "agui-field-input");
    input.id = `${this.uid}-input`;
    input.type = format === "email" ? "email" : format === "uri" || format === "url" ? "url" : format === "date" ? "date" : "text";
    input.autocomplete = "off";
    if (typeof def === "string") input.value = def;
    if (typeof this.schema.examples?.[0] === "string") input.placeholder = label(this.schema.examples[0], 80);
    this.read = () => (input.value === "" ? undefined : input.value);
    this.controls = [input];
    this.finish(input, this.labelFor(input.id), input);
  }

  buildNumber(def) {
    const { minimum, maximum, multipleOf, exclusiveMinimum, exclusiveMaximum } = this.schema;
    const input = element("input", "agui-field-input agui-field-number");
    input.id = `${this.uid}-input`;
    input.type = "number";
    input.step = isNumber(multipleOf) ? String(multipleOf) : this.schema.type === "integer" ? "1" : "any";
    if (isNumber(minimum)) input.min = String(minimum);
    else if (isNumber(exclusiveMinimum)) input.min = String(exclusiveMinimum);
    if (isNumber(maximum)) input.max = String(maximum);
    else if (isNumber(exclusiveMaximum)) input.max = String(exclusiveMaximum);
    if (isNumber(def)) input.value = String(def);
    this.read = () => {
      if (input.validity.badInput) return new Unreadable(TYPE_MESSAGES.number);
      return input.value === "" ? undefined : Number(input.value);
    };
    this.controls = [input];
    this.finish(input, this.labelFor(input.id), input);
  }

  buildCheckbox(def) {
    const input = element("input", "agui-field-check");
    input.type = "checkbox";
    input.id = `${this.uid}-input`;
    input.checked = def === true;
    const text = this.labelFor(input.id);
    text.className = "agui-field-label agui-field-inline";
    text.prepend(input);
    // A checkbox always says true or false: it has no "left empty".
    this.read = () => input.checked;
    this.controls = [input];
    this.finish(input, text);
  }

  buildChoice(choices, def) {
    const titles = choiceLabels(this.schema);
    const shown = (index) => label(titles[index] ?? shownChoice(choices[index]), 120);
    const initial = choices.findIndex((choice) => sameJson(choice, def));
    if (choices.length <= RADIO_MAX) {
      const group = element("fieldset", "agui-field-group agui-field-radios");
      group.setAttribute("role", "radiogroup");
      const legend = this.labelFor();
      const legendEl = element("legend", legend.className);
      legendEl.append(...legend.childNodes);
      group.append(legendEl);
      const inputs = choices.map((_, index) => {
        const input = element("input", "agui-field-radio");
        input.type = "radio";
        input.name = this.uid;
        input.value = String(index);
        input.checked = index === initial;
        const option = element("label", "agui-field-option");
        option.append(input, element("span", "", shown(index)));
        group.append(option);
        return input;
      });
      this.read = () => {
        const picked = inputs.findIndex((input) => input.checked);
        return picked < 0 ? undefined : choices[picked];
      };
      this.controls = inputs;
      this.finish(null, group);
      this.describe(group);
      const touch = () => {
        this.touched = true;
        this.form.touched();
      };
      for (const input of inputs) input.addEventListener("change", touch);
      return;
    }
    const select = element("select", "agui-field-input agui-field-select");
    select.id = `${this.uid}-input`;
    const empty = element("option", "", "Choose…");
    empty.value = "";
    select.append(empty, ...choices.map((_, index) => Object.assign(element("option", "", shown(index)), { value: String(index) })));
    select.value = initial < 0 ? "" : String(initial);
    this.read = () => (select.value === "" ? undefined : choices[Number(select.value)]);
    this.controls = [select];
    this.finish(select, this.labelFor(select.id), select);
  }

  buildChecklist(choices, def) {
    const titles = choiceLabels(fieldSchema(this.schema.items));
    const group = element("fieldset", "agui-field-group agui-field-checklist");
    const legend = this.labelFor();
    const legendEl = element("legend", legend.className);
    legendEl.append(...legend.childNodes);
    group.append(legendEl);
    const defaults = Array.isArray(def) ? def : [];
    const inputs = choices.map((choice, index) => {
      const input = element("input", "agui-field-check");
      input.type = "checkbox";
      input.value = String(index);
      input.checked = defaults.some((d) => sameJson(d, choice));
      const option = element("label", "agui-field-option");
      option.append(input, element("span", "", label(titles[index] ?? shownChoice(choice), 120)));
      group.append(option);
      return input;
    });
    this.read = () => {
      const picked = choices.filter((_, index) => inputs[index].checked);
      return picked.length === 0 && !this.required ? undefined : picked;
    };
    this.controls = inputs;
    this.finish(null, group);
    this.describe(group);
    for (const input of inputs) {
      input.addEventListener("change", () => {
        this.touched = true;
        this.form.touched();
      });
    }
  }

  buildObject() {
    const nested = this.path !== "payload";
    const box = element(nested ? "fieldset" : "div", nested ? "agui-field-group agui-field-object" : "agui-form-fields");
    if (nested) {
      const legend = this.labelFor();
      const legendEl = element("legend", legend.className);
      legendEl.append(...legend.childNodes);
      box.append(legendEl);
    }
    const required = new Set(Array.isArray(this.schema.required) ? this.schema.required : []);
    const children = Object.entries(this.schema.properties)
      .filter(([, sub]) => !(isObject(sub) && "const" in sub))
      .map(([name, sub]) => [name, new Field(this.form, sub, { name, path: `${this.path}.${name}`, required: required.has(name) })]);
    const constants = Object.entries(this.schema.properties).filter(([, sub]) => isObject(sub) && "const" in sub);
    for (const [, child] of children) box.append(child.el);
    this.read = () => {
      const value = {};
      for (const [name, sub] of constants) value[name] = sub.const;
      for (const [name, child] of children) {
        const read = child.read();
        if (read !== undefined) value[name] = read;
      }
      // An optional object left wholly empty is left out, not sent as {}.
      return Object.keys(value).length === 0 && nested && !this.required ? undefined : value;
    };
    this.controls = [];
    this.finish(null, box);
  }

  buildJson(def) {
    const area = element("textarea", "agui-field-input agui-field-json");
    area.id = `${this.uid}-input`;
    area.rows = 3;
    area.spellcheck = false;
    area.placeholder = "JSON";
    if (def !== undefined) area.value = JSON.stringify(def, null, 2);
    this.read = () => {
      if (area.value.trim() === "") return undefined;
      try {
        return JSON.parse(area.value);
      } catch {
        return new Unreadable("must be JSON");
      }
    };
    this.controls = [area];
    this.finish(area, this.labelFor(area.id), area);
  }

  show(message) {
    this.problem.textContent = message ?? "";
    this.problem.hidden = !message;
    this.el.dataset.invalid = message ? "true" : "false";
    for (const control of this.controls) {
      if (message) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    }
  }
}

/** A form for `schema`: `el`, `value()` (the payload, or undefined when the top field is left empty),
 * `check(all)` (shows the problems of touched fields, or of all; returns every problem), `setDisabled`. */
export class SchemaForm {
  constructor(schema) {
    formCount += 1;
    this.uid = `agui-form-${formCount}`;
    this.schema = schema;
    this.fields = [];
    this.el = element("div", "agui-form");
    this.el.dataset.agui = "interrupt-form";
    this.root = new Field(this, schema, { path: "payload", required: true });
    this.el.append(this.root.el);
    this.summary = element("div", "agui-form-error");
    this.summary.dataset.agui = "form-error";
    this.summary.hidden = true;
    this.el.append(this.summary);
  }

  /** Read every field: the payload, and the problems fields found reading themselves (bad number, bad JSON). */
  read() {
    const readProblems = [];
    for (const field of this.fields) {
      const own = field.read();
      if (own instanceof Unreadable) readProblems.push([field.path, own.problem]);
    }
    const value = this.root.read();
    return { value: readProblems.length ? undefined : value, readProblems };
  }

  value() {
    return this.read().value;
  }

  /** A field was touched: show what is wrong now, unless a press on a button is under way (a message appearing
   * on blur would move the button away from under the pointer, and the click would be lost). */
  touched() {
    if (!this.holding) this.check(false);
  }

  /** Between a pointer press on `controls` and its click, hold the checks fields ask for on blur. */
  holdChecksDuringPresses(controls) {
    controls.addEventListener("pointerdown", () => {
      this.holding = true;
    });
    const release = () => {
      if (!this.holding) return;
      this.holding = false;
      setTimeout(() => this.check(false), 0); // after the click (which may check everything) ran
    };
    for (const type of ["pointerup", "pointercancel"]) controls.addEventListener(type, () => setTimeout(release, 0));
    controls.addEventListener("pointerleave", release);
  }

  check(all) {
    const { value, readProblems } = this.read();
    const problems = readProblems.length ? readProblems : payloadProblems(this.schema, value === undefined ? null : value);
    if (value === undefined && !readProblems.length) {
      problems.splice(0, problems.length, ["payload", "is required"]);
    }
    const byField = new Map();
    for (const [path, message] of problems) {
      // A problem goes to the field at its path, else the nearest field above it (items of a checklist).
      let field = null;
      for (const candidate of this.fields) {
        if ((path === candidate.path || path.startsWith(`${candidate.path}.`) || path.startsWith(`${candidate.path}[`)) && (field === null || candidate.path.length > field.path.length)) {
          field = candidate;
        }
      }
      if (field !== null && field.read !== undefined && !byField.has(field)) byField.set(field, message);
    }
    for (const field of this.fields) {
      if (field.schema.type === "object" && field !== this.root && !byField.has(field)) {
        field.show("");
        continue;
      }
      const message = byField.get(field);
      const visible = all || field.touched;
      if (all) field.touched = true;
      field.show(visible ? message : "");
    }
    const fieldsWrong = byField.size;
    // Shown by a refused submit; it goes once nothing is wrong (and counts what still is until then).
    if (all || problems.length === 0) this.summary.hidden = !all || problems.length === 0;
    this.summary.textContent = fieldsWrong <= 1 ? "Check the marked field." : `Check the ${fieldsWrong} marked fields.`;
    return problems;
  }

  /** The first field showing a problem (to focus after a refused submit). */
  firstInvalid() {
    const field = this.fields.find((f) => f.el.dataset.invalid === "true" && f.controls.length);
    return field?.controls[0] ?? null;
  }

  setDisabled(disabled) {
    for (const field of this.fields) for (const control of field.controls) control.disabled = disabled;
  }
}
