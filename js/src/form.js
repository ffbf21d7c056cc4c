// @ts-check
// A form generated from a JSON Schema (an AG-UI interrupt's `responseSchema`), and the checks its answer must
// pass. The checks are those of agui_notebook/agui/_interrupts.py `payload_problems`, keyword for keyword and
// message for message, so what the form refuses the kernel refuses too (a test keeps the two equal on fixtures
// from pydantic models, LangGraph and CopilotKit; the kernel then also runs jsonschema).
//
// Schemas as Python agents send them: local `$ref`s (`$defs`, `definitions`, `#`) are followed, a reference that
// comes back to one above it is a JSON field; `allOf` is merged. Fields: strings (text, email, url, date,
// date-time and time inputs), numbers and integers (number inputs with their bounds and step), booleans (a
// checkbox), enums and literals (radios up to 4 choices, a select beyond), `const` (shown, sent as it is),
// `Optional[X]` (`anyOf [X, null]`: the field of X, null when left empty and answer required), other
// `anyOf`/`oneOf` (a picker of the branches, labelled by title or discriminator, and the picked branch's form),
// arrays of enums (a checkbox group), other arrays and tuples (rows with add and remove), objects (a fieldset,
// with key/value rows for `additionalProperties`), anything else a JSON text field. Titles label the fields (the
// property name otherwise), descriptions are help under them, examples are placeholders, required fields carry a
// mark, defaults fill them in. A field's problems show next to it once it was touched, and every field's on
// submit.
import { button, element, icon, label } from "./dom.js";

/** @typedef {any} Schema a JSON Schema as an agent sent it, unchecked: every keyword is checked where it is read */
/** @typedef {[string, string]} Problem a JSON path ("payload.city", "payload.tags[2]") and what is wrong there */

const RADIO_MAX = 4;
/** @type {Record<string, string>} */
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
/** @type {Record<string, string>} */
const FORMAT_MESSAGES = {
  email: "must be an email address",
  uri: "must be a URL such as https://example.com",
  url: "must be a URL such as https://example.com",
  date: "must be a date (YYYY-MM-DD)",
  "date-time": "must be a date and time (YYYY-MM-DDTHH:MM:SS+00:00)",
  time: "must be a time (HH:MM:SS)",
  uuid: "must be a UUID",
};

/** @param {unknown} value @returns {value is Record<string, any>} */
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
/** @param {unknown} value @returns {value is number} */
const isNumber = (value) => typeof value === "number" && Number.isFinite(value);
/** @param {unknown} object @param {string} key */
const own = (object, key) => isObject(object) && Object.hasOwn(object, key);

/** @param {unknown} value */
function shownNumber(value) {
  return String(value);
}

/** @param {unknown} value @returns {string} */
function shownChoice(value) {
  if (typeof value === "string") return value;
  if (value === null) return "null";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** @param {unknown} value @param {unknown} kind a JSON Schema type name */
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

/**
 * Equal as JSON values (objects whatever their key order).
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
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

/** @param {string} text */
function validDate(text) {
  const match = DATE.exec(text);
  if (!match) return false;
  const [y, m, d] = match.slice(1).map(Number);
  const date = new Date(Date.UTC(2000, m - 1, d));
  date.setUTCFullYear(y);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d && y >= 1;
}

/**
 * `HH:MM:SS[.frac][Z|+HH:MM]`, the offset required with `offset` (as in a date-time).
 * @param {string} text
 * @param {boolean} [offset]
 */
function validTime(text, offset = false) {
  const match = TIME.exec(text);
  if (!match || (offset && match[5] === undefined)) return false;
  const [hour, minute, second] = match.slice(1, 4).map(Number);
  if (hour > 23 || minute > 59 || second > 60) return false; // 60: a leap second
  return match[6] === undefined || (Number(match[6]) <= 23 && Number(match[7]) <= 59);
}

/** @param {string} text */
function validDateTime(text) {
  return text.length > 11 && "Tt".includes(text[10]) && validDate(text.slice(0, 10)) && validTime(text.slice(11), true);
}

/** @param {unknown} format @param {string} text */
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

/** @param {string} pattern */
function riskyPattern(pattern) {
  return pattern.length > 200 || NESTED_QUANTIFIER.test(pattern);
}

/**
 * Whether `text` matches `pattern` (true for a risky pattern or one this browser cannot read: the agent's).
 * @param {unknown} pattern
 * @param {string} text
 */
function patternMatches(pattern, text) {
  if (typeof pattern !== "string" || riskyPattern(pattern)) return true;
  try {
    return new RegExp(pattern, "u").test(text);
  } catch {
    return true;
  }
}

/** @param {Schema} schema @param {string} value @returns {string[]} */
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

/**
 * `multipleOf` with a tolerance for binary fractions (0.3 is a multiple of 0.1, as a person means it).
 * @param {unknown} step
 * @param {number} value
 */
function multipleOk(step, value) {
  if (!isNumber(step) || step <= 0) return true;
  const quotient = value / step;
  return Math.abs(quotient - Math.round(quotient)) <= 1e-9 * Math.max(1, Math.abs(quotient));
}

/** @param {Schema} schema @param {number} value @returns {string[]} */
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

/**
 * The schema a local `$ref` (`#`, `#/$defs/Name`, `#/definitions/Name`...) points at, else undefined.
 * @param {Schema} root
 * @param {unknown} ref
 * @returns {Schema | undefined}
 */
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

/** Whether the first of `found` is a type mismatch at `path`. @param {Problem[]} found @param {string} path */
const wrongType = (found, path) => found[0][0] === path && TYPE_TEXTS.has(found[0][1]);

/** One walk of a schema over a value: the root for `$ref`, and the references being followed (a reference that
 * comes back to itself at the same place of the value is a cycle: it adds nothing). */
class Checks {
  /** @param {Schema} root */
  constructor(root) {
    this.root = root;
    /** @type {Set<string>} a $ref and the path it is followed at */
    this.following = new Set();
  }

  /** @param {Schema} schema @param {unknown} value @param {string} path @returns {Problem[]} */
  fits(schema, value, path) {
    /** @type {Problem[]} */
    const found = [];
    this.walk(schema, value, path, found);
    return found;
  }

  /** @param {Schema} schema @param {unknown} value @param {string} path @param {Problem[]} out */
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
    if (kinds.length && !kinds.some((/** @type {unknown} */ kind) => isType(value, kind))) {
      out.push([path, TYPE_MESSAGES[kinds[0]] ?? `must be of type ${kinds[0]}`]);
      return;
    }
    if (own(schema, "const") && !sameJson(value, schema.const)) out.push([path, `must be ${shownChoice(schema.const)}`]);
    if (Array.isArray(schema.enum) && !schema.enum.some((/** @type {unknown} */ choice) => sameJson(choice, value))) {
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
   * is reported and the rest of the schema is not checked).
   * @param {Schema} schema @param {unknown} value @param {string} path @param {Problem[]} out
   */
  choices(schema, value, path, out) {
    for (const key of ["anyOf", "oneOf"]) {
      const branches = schema[key];
      if (!Array.isArray(branches) || branches.length === 0) continue;
      const tried = branches.map((/** @type {Schema} */ branch) => this.fits(branch, value, path));
      const fitting = tried.filter((/** @type {Problem[]} */ found) => found.length === 0).length;
      if (fitting === 0) {
        // The branch of the value's own type says most: a type mismatch is the last resort.
        const rank = (/** @type {Problem[]} */ found) => [wrongType(found, path) ? 1 : 0, found.length];
        const better = (/** @type {Problem[]} */ a, /** @type {Problem[]} */ b) => rank(a)[0] < rank(b)[0] || (rank(a)[0] === rank(b)[0] && rank(a)[1] < rank(b)[1]);
        out.push(...tried.reduce((/** @type {Problem[]} */ best, /** @type {Problem[]} */ found) => (better(found, best) ? found : best)));
        return true;
      }
      if (key === "oneOf" && fitting > 1) out.push([path, "must match exactly one of the choices"]);
    }
    return false;
  }

  /** @param {Schema} schema @param {unknown[]} value @param {string} path @param {Problem[]} out */
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

  /** @param {Schema} schema @param {Record<string, unknown>} value @param {string} path @param {Problem[]} out */
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

/**
 * What `schema` refuses in `payload`: [JSON path, message] pairs (paths start at "payload"), first found first.
 * @param {Schema} schema
 * @param {unknown} payload
 * @returns {Problem[]}
 */
export function payloadProblems(schema, payload) {
  return new Checks(schema).fits(schema, payload, "payload");
}

// ------------------------------------------------------------------------------------------------ the form

const MAX_REF_HOPS = 32;

/** `schema` with its `$ref` followed (the reference's siblings win: title, description, default) and its `allOf`
 * merged, for drawing. `refs` are the references the fields above followed: meeting one again is a cycle, drawn
 * as a JSON field.
 * @param {Schema} schema
 * @param {Schema} root
 * @param {Iterable<string>} refs
 * @returns {{schema: Schema, refs: Set<string>, cyclic: boolean}}
 */
function expandSchema(schema, root, refs) {
  let current = isObject(schema) ? schema : {};
  const seen = new Set(refs);
  for (let hops = 0; typeof current.$ref === "string"; hops += 1) {
    const { $ref: ref, ...siblings } = current;
    const target = resolveRef(root, ref);
    if (seen.has(ref) || hops > MAX_REF_HOPS) return { schema: siblings, refs: seen, cyclic: true };
    if (!isObject(target)) {
      current = siblings;
      break;
    }
    seen.add(ref);
    current = { ...target, ...siblings };
  }
  if (Array.isArray(current.allOf)) {
    const { allOf, ...rest } = current;
    let merged = rest;
    for (const branch of allOf) {
      const part = expandSchema(branch, root, seen);
      if (part.cyclic) return { schema: rest, refs: seen, cyclic: true };
      for (const ref of part.refs) seen.add(ref);
      merged = mergeSchemas(merged, part.schema);
    }
    current = merged;
  }
  return { schema: current, refs: seen, cyclic: false };
}

/**
 * Two schemas that must both hold, as one for drawing: properties merged, required joined, the first's others.
 * @param {Schema} first
 * @param {Schema} second
 * @returns {Schema}
 */
function mergeSchemas(first, second) {
  const merged = { ...second, ...first };
  if (isObject(first.properties) || isObject(second.properties)) {
    merged.properties = { ...(second.properties ?? {}), ...(first.properties ?? {}) };
  }
  if (Array.isArray(first.required) || Array.isArray(second.required)) {
    merged.required = [...new Set([...(first.required ?? []), ...(second.required ?? [])])];
  }
  return merged;
}

/** @param {Schema} schema */
const isNullSchema = (schema) => isObject(schema) && (schema.type === "null" || (own(schema, "const") && schema.const === null));

/**
 * The branches of a choice (`anyOf`/`oneOf`) and whether one of them is null, or null when there is no choice.
 * @param {Schema} schema
 * @returns {Choice | null}
 */
function choiceOf(schema) {
  for (const key of ["anyOf", "oneOf"]) {
    if (!Array.isArray(schema[key]) || schema[key].length === 0) continue;
    const branches = schema[key].filter(isObject);
    return { key, branches: branches.filter((/** @type {Schema} */ b) => !isNullSchema(b)), nullable: branches.some(isNullSchema) };
  }
  return null;
}

/** "startDate" or "start_date" as "Start date". @param {unknown} name @returns {string} */
function humanName(name) {
  const words = String(name)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim();
  return words ? words[0].toUpperCase() + words.slice(1) : "";
}

/** The choices of an enum, a literal or a oneOf of constants, else null. @param {Schema} schema @returns {unknown[] | null} */
function enumOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum;
  if (own(schema, "const") && !isObject(schema.const) && !Array.isArray(schema.const)) return null;
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (branches && branches.length && branches.every((/** @type {Schema} */ b) => isObject(b) && own(b, "const"))) return branches.map((/** @type {Schema} */ b) => b.const);
  return null;
}

/** @param {Schema} schema @returns {Array<string | undefined>} */
function choiceLabels(schema) {
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return branches.map((/** @type {Schema} */ b) => (isObject(b) && typeof b.title === "string" ? b.title : undefined));
}

/** @type {Record<string, string>} */
const TYPE_NAMES = { string: "Text", number: "Number", integer: "Whole number", boolean: "Yes or no", object: "Details", array: "List" };

/**
 * What a choice's branch is called: its title, the constant that tells it apart (a discriminator), its type.
 * @param {Schema} branch
 * @param {number} index
 * @returns {string}
 */
function branchLabel(branch, index) {
  if (typeof branch.title === "string" && branch.title) return humanName(branch.title);
  if (isObject(branch.properties)) {
    const tag = Object.values(branch.properties).find((p) => isObject(p) && typeof p.const === "string");
    if (tag) return humanName(tag.const);
  }
  if (typeof branch.type === "string" && TYPE_NAMES[branch.type]) return TYPE_NAMES[branch.type];
  return `Choice ${index + 1}`;
}

/**
 * A choice between schemas (`anyOf`/`oneOf`): its keyword, its branches other than null, and whether null is one.
 * @typedef {{key: string, branches: Schema[], nullable: boolean}} Choice
 */

let formCount = 0;

/** What a field reads when its input is no value at all (text in a number field, broken JSON). */
class Unreadable {
  /** @param {string} problem */
  constructor(problem) {
    this.problem = problem;
  }
}

/**
 * A date-time input's local "YYYY-MM-DDTHH:MM[:SS]" as RFC 3339 with the browser's offset.
 * @param {string} value
 * @returns {string}
 */
function localDateTime(value) {
  const withSeconds = value.length === 16 ? `${value}:00` : value;
  const moment = new Date(withSeconds);
  if (Number.isNaN(moment.getTime())) return value;
  const minutes = -moment.getTimezoneOffset();
  const sign = minutes >= 0 ? "+" : "-";
  const pad = (/** @type {number} */ n) => String(Math.trunc(Math.abs(n))).padStart(2, "0");
  return `${withSeconds}${sign}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}

/**
 * The other way: an RFC 3339 default shown in a date-time input (its local time).
 * @param {unknown} value
 * @returns {string}
 */
function dateTimeInput(value) {
  const moment = new Date(/** @type {string} */ (value));
  if (typeof value !== "string" || Number.isNaN(moment.getTime())) return "";
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${moment.getFullYear()}-${pad(moment.getMonth() + 1)}-${pad(moment.getDate())}T${pad(moment.getHours())}:${pad(moment.getMinutes())}:${pad(moment.getSeconds())}`;
}

/**
 * One field: its element, how to read its value (undefined: left empty), where its problems show. `path` is a
 * string or a function (rows of a list or of a map move and rename); `parent`/`branch` place it under a choice,
 * whose branches not picked are neither read nor checked.
 */
class Field {
  /**
   * @param {SchemaForm} form
   * @param {Schema} schema this field's JSON Schema
   * @param {{name?: string, path: string | (() => string), required: boolean, parent?: Field | null,
   *   branch?: number | null, refs?: Set<string>}} place
   */
  constructor(form, schema, { name, path, required, parent = null, branch = null, refs = new Set() }) {
    this.form = form;
    this.parent = parent;
    this.branch = branch;
    this.pathOf = typeof path === "function" ? path : () => path;
    const expanded = expandSchema(schema, form.schema, refs);
    this.refs = expanded.refs;
    this.cyclic = expanded.cyclic;
    this.schema = expanded.schema;
    this.nullable = false;
    const choice = this.cyclic ? null : choiceOf(this.schema);
    if (choice && choice.branches.length === 1 && !enumOf(this.schema)) {
      // Optional[X]: the field of X, which may be left empty (null when the answer must say something).
      const { [choice.key]: _, ...rest } = this.schema;
      const inner = expandSchema(choice.branches[0], form.schema, this.refs);
      this.refs = inner.refs;
      this.cyclic = inner.cyclic;
      this.schema = { ...inner.schema, ...rest, title: rest.title ?? inner.schema.title };
      this.nullable = choice.nullable;
    } else if (Array.isArray(this.schema.type) && !this.schema.type.includes("object") && !this.schema.type.includes("array")) {
      this.nullable = this.schema.type.includes("null");
      this.schema = { ...this.schema, type: this.schema.type.find((/** @type {unknown} */ t) => t !== "null") ?? "null" };
    }
    this.required = required;
    this.touched = false;
    this.uid = `${form.uid}-${form.fields.length}`;
    form.fields.push(this);
    this.title = typeof this.schema.title === "string" ? this.schema.title : name === undefined ? "Answer" : humanName(name);
    this.el = element("div", "agui-field");
    this.el.dataset.agui = "field";
    this.el.dataset.path = this.path;
    this.problem = element("div", "agui-field-error");
    this.problem.dataset.agui = "field-error";
    this.problem.id = `${this.uid}-error`;
    this.problem.hidden = true;
    this.build();
  }

  get path() {
    return this.pathOf();
  }

  /** Whether the field is part of the answer: not under a choice's branch that is not picked. */
  active() {
    for (let field = /** @type {Field} */ (this); field.parent !== null; field = field.parent) {
      if (field.branch !== null && field.parent.picked !== field.branch) return false;
    }
    return true;
  }

  /**
   * @param {Schema} schema
   * @param {{name?: string, path: string | (() => string), required: boolean, branch?: number}} options
   * @returns {Field}
   */
  child(schema, options) {
    return new Field(this.form, schema, { parent: this, refs: this.refs, ...options });
  }

  /** Read the value, null for a nullable field left empty that must be answered. */
  value() {
    const read = this.read();
    return read === undefined && this.nullable && this.required ? null : read;
  }

  /** @param {string} [target] the id of the control it labels */
  labelFor(target) {
    const text = element("label", "agui-field-label", label(this.title, 200));
    if (target) text.htmlFor = target;
    if (this.required && !this.nullable && this.schema.type !== "boolean") {
      // (A checkbox always answers true or false, and a nullable field may be left empty: nothing to leave out.)
      const mark = element("span", "agui-field-required", "*");
      mark.title = "Required";
      mark.setAttribute("aria-hidden", "true");
      text.append(mark);
    }
    return text;
  }

  legend() {
    const text = this.labelFor();
    const legend = element("legend", text.className);
    legend.append(...text.childNodes);
    return legend;
  }

  help() {
    if (typeof this.schema.description !== "string" || this.schema.description === "") return null;
    const help = element("div", "agui-field-help", label(this.schema.description, 1000));
    help.id = `${this.uid}-help`;
    return help;
  }

  /** @param {Element} control */
  describe(control) {
    const ids = [this.problem.id];
    if (this.helpEl) ids.unshift(this.helpEl.id);
    control.setAttribute("aria-describedby", ids.join(" "));
    if (this.required && !this.nullable) control.setAttribute("aria-required", "true");
  }

  /** @param {Element} control */
  watch(control) {
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

  /**
   * @param {Element | null} control the one the help and the problem describe, if there is one
   * @param {...Node} body
   */
  finish(control, ...body) {
    this.helpEl = this.help();
    this.el.append(...body);
    if (this.helpEl) this.el.append(this.helpEl);
    this.el.append(this.problem);
    if (control) {
      this.describe(control);
      this.watch(control);
    }
  }

  build() {
    const schema = this.schema;
    if (this.cyclic) return this.buildJson(schema.default);
    const choices = enumOf(schema);
    const def = schema.default;
    if (choices) return this.buildChoice(choices, def);
    if (own(schema, "const")) return this.buildConst();
    const choice = choiceOf(schema);
    if (choice && choice.branches.length > 1) return this.buildBranches(choice);
    if (schema.type === "null") return this.buildConst(null);
    if (schema.type === "object" || (schema.type === undefined && isObject(schema.properties))) {
      if (isObject(schema.properties) || isObject(schema.additionalProperties) || schema.additionalProperties === true) {
        return this.buildObject();
      }
    }
    if (schema.type === "array") {
      const items = isObject(schema.items) ? expandSchema(schema.items, this.form.schema, this.refs) : null;
      const itemChoices = items && !items.cyclic ? enumOf(items.schema) : null;
      if (itemChoices) return this.buildChecklist(itemChoices, def, items.schema);
      if (Array.isArray(schema.prefixItems) || isObject(schema.items)) return this.buildRows();
    }
    if (schema.type === "boolean") return this.buildCheckbox(def);
    if (schema.type === "string") return this.buildText(def);
    if (schema.type === "number" || schema.type === "integer") return this.buildNumber(def);
    return this.buildJson(def);
  }

  /** @param {unknown} def the schema's default */
  buildText(def) {
    const format = this.schema.format;
    const input = element("input", "agui-field-input");
    input.id = `${this.uid}-input`;
    /** @type {Record<string, string>} */
    const types = { email: "email", uri: "url", url: "url", date: "date", "date-time": "datetime-local", time: "time" };
    input.type = types[format] ?? "text";
    input.autocomplete = "off";
    if (format === "date-time" || format === "time") input.step = "1";
    if (typeof def === "string") input.value = format === "date-time" ? dateTimeInput(def) : def;
    const example = this.schema.examples?.[0];
    if (typeof example === "string" && input.type !== "date" && !input.type.includes("time")) {
      input.placeholder = label(example, 80);
    }
    /** @type {() => unknown} the value (undefined: left empty, Unreadable: not a value); set by the builder */
    this.read = () => {
      if (input.value === "") return input.validity.badInput ? new Unreadable(FORMAT_MESSAGES[format] ?? "must be text") : undefined;
      if (format === "date-time") return localDateTime(input.value);
      if (format === "time" && /^[0-9]{2}:[0-9]{2}$/.test(input.value)) return `${input.value}:00`;
      return input.value;
    };
    /** @type {Array<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>} what takes the user's answer */
    this.controls = [input];
    this.finish(input, this.labelFor(input.id), input);
  }

  /** @param {unknown} def */
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
    if (isNumber(this.schema.examples?.[0])) input.placeholder = String(this.schema.examples[0]);
    this.read = () => {
      if (input.validity.badInput) return new Unreadable(TYPE_MESSAGES.number);
      return input.value === "" ? undefined : Number(input.value);
    };
    this.controls = [input];
    this.finish(input, this.labelFor(input.id), input);
  }

  /** @param {unknown} def */
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

  /** A constant (a literal, or null): shown, not asked. */
  buildConst(value = this.schema.const) {
    this.read = () => value;
    this.controls = [];
    if (value === null) {
      this.finish(null);
      this.el.hidden = true;
      return;
    }
    const shown = element("div", "agui-field-const", label(shownChoice(value), 200));
    this.finish(null, this.labelFor(), shown);
  }

  /**
   * Radios (up to RADIO_MAX) or a select; `onPick(index)` hears a change.
   * @param {number} count
   * @param {(index: number) => string} labelOf
   * @param {number} initial the index picked at first, -1 for none
   * @param {(index: number) => void} [onPick]
   * @returns {{nodes: HTMLElement[], controls: Array<HTMLInputElement | HTMLSelectElement>, picked: () => number, describe: HTMLElement}}
   */
  picker(count, labelOf, initial, onPick) {
    if (count <= RADIO_MAX) {
      const group = element("fieldset", "agui-field-group agui-field-radios");
      group.setAttribute("role", "radiogroup");
      group.append(this.legend());
      const inputs = Array.from({ length: count }, (_, index) => {
        const input = element("input", "agui-field-radio");
        input.type = "radio";
        input.name = this.uid;
        input.value = String(index);
        input.checked = index === initial;
        const option = element("label", "agui-field-option");
        option.append(input, element("span", "", labelOf(index)));
        group.append(option);
        input.addEventListener("change", () => {
          onPick?.(index);
          this.touched = true;
          this.form.touched();
        });
        return input;
      });
      return { nodes: [group], controls: inputs, picked: () => inputs.findIndex((input) => input.checked), describe: group };
    }
    const select = element("select", "agui-field-input agui-field-select");
    select.id = `${this.uid}-input`;
    const empty = element("option", "", "Choose…");
    empty.value = "";
    select.append(empty, ...Array.from({ length: count }, (_, index) => Object.assign(element("option", "", labelOf(index)), { value: String(index) })));
    select.value = initial < 0 ? "" : String(initial);
    select.addEventListener("change", () => onPick?.(select.value === "" ? -1 : Number(select.value)));
    this.watch(select);
    return { nodes: [this.labelFor(select.id), select], controls: [select], picked: () => (select.value === "" ? -1 : Number(select.value)), describe: select };
  }

  /** @param {unknown[]} choices @param {unknown} def */
  buildChoice(choices, def) {
    const titles = choiceLabels(this.schema);
    const initial = choices.findIndex((choice) => sameJson(choice, def));
    const picker = this.picker(choices.length, (index) => label(titles[index] ?? shownChoice(choices[index]), 120), initial);
    this.read = () => {
      const picked = picker.picked();
      return picked < 0 ? undefined : choices[picked];
    };
    this.controls = picker.controls;
    this.finish(null, ...picker.nodes);
    this.describe(picker.describe);
  }

  /**
   * `anyOf`/`oneOf` of several shapes: a picker of the branches, and the picked branch's own form below it.
   * @param {Choice} choice
   */
  buildBranches(choice) {
    const branches = choice.branches.map((branch) => expandSchema(branch, this.form.schema, this.refs).schema);
    if (choice.nullable) branches.push({ type: "null", title: "None" });
    const { [choice.key]: _, ...common } = this.schema;
    const fits = (/** @type {Schema} */ branch) => this.schema.default !== undefined && new Checks(this.form.schema).fits(branch, this.schema.default, "payload").length === 0;
    /** @type {number} the branch picked, whose fields are read */
    this.picked = Math.max(0, branches.findIndex(fits));
    const box = element("div", "agui-field-branches");
    const picker = this.picker(branches.length, (index) => label(branchLabel(branches[index], index), 120), this.picked, (index) => {
      this.picked = index;
      children.forEach((/** @type {Field} */ child, /** @type {number} */ i) => {
        child.el.hidden = i !== index;
      });
    });
    picker.describe.dataset.agui = "field-branch-picker";
    const children = branches.map((branch, index) => {
      const { title: _title, description: _description, ...body } = { ...common, ...branch, default: branch.default ?? common.default };
      const child = this.child(body, { name: branchLabel(branch, index), path: () => this.path, required: true, branch: index });
      child.el.classList.add("agui-field-branch");
      child.el.dataset.branch = String(index);
      child.el.hidden = index !== this.picked;
      // The branch's own label repeats the picker's: its fields stand for themselves.
      child.el.querySelector(":scope > legend, :scope > fieldset > legend")?.remove();
      return child;
    });
    box.append(...picker.nodes, ...children.map((child) => child.el));
    this.read = () => (this.picked < 0 ? undefined : children[this.picked].value());
    this.controls = picker.controls;
    this.finish(null, box);
    this.describe(picker.describe);
  }

  /** @param {unknown[]} choices @param {unknown} def @param {Schema} items the items' schema */
  buildChecklist(choices, def, items) {
    const titles = choiceLabels(items);
    const group = element("fieldset", "agui-field-group agui-field-checklist");
    group.append(this.legend());
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
      const picked = choices.filter((_, /** @type {number} */ index) => inputs[index].checked);
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
    const nested = this.path !== "payload" || this.parent !== null;
    const box = element(nested ? "fieldset" : "div", nested ? "agui-field-group agui-field-object" : "agui-form-fields");
    if (nested) box.append(this.legend());
    const required = new Set(Array.isArray(this.schema.required) ? this.schema.required : []);
    const properties = isObject(this.schema.properties) ? Object.entries(this.schema.properties) : [];
    const constants = properties.filter(([, sub]) => isObject(sub) && own(sub, "const"));
    const children = properties
      .filter(([, sub]) => !(isObject(sub) && own(sub, "const")))
      .map(([name, sub]) => /** @type {[string, Field]} */ ([name, this.child(sub, { name, path: () => `${this.path}.${name}`, required: required.has(name) })]));
    for (const [, child] of children) box.append(child.el);
    const extra = this.schema.additionalProperties;
    const rows = isObject(extra) || extra === true ? this.mapRows(extra === true ? {} : extra, new Set(properties.map(([n]) => n))) : null;
    if (rows) box.append(rows.node);
    this.read = () => {
      /** @type {Record<string, unknown>} */
      const value = {};
      for (const [name, sub] of constants) value[name] = sub.const;
      for (const [name, child] of children) {
        const read = child.value();
        if (read !== undefined) value[name] = read;
      }
      if (rows) Object.assign(value, rows.read());
      // An optional object left wholly empty is left out, not sent as {}.
      return Object.keys(value).length === constants.length && nested && !this.required ? undefined : value;
    };
    this.controls = [];
    this.finish(null, box);
  }

  /** Rows of a list (items, or a tuple's prefixItems) with add and remove. */
  buildRows() {
    /** @typedef {{node: HTMLDivElement, label: HTMLSpanElement, field?: Field, remove?: HTMLButtonElement}} Row */
    const group = element("fieldset", "agui-field-group agui-field-rows");
    group.append(this.legend());
    const list = element("div", "agui-field-row-list");
    group.append(list);
    const prefix = Array.isArray(this.schema.prefixItems) ? this.schema.prefixItems : [];
    const fixed = prefix.length > 0 && (this.schema.items === false || this.schema.maxItems === prefix.length);
    /** @type {Row[]} */
    const rows = [];
    const max = Number.isInteger(this.schema.maxItems) ? this.schema.maxItems : Infinity;
    const add = this.adder("Add an item", () => addRow(undefined, true));
    const refresh = () => {
      this.form.repath();
      rows.forEach((row, index) => {
        row.remove?.setAttribute("aria-label", `Remove item ${index + 1}`);
        // Its visible label is the row's number: a reader hears the list's name with it.
        for (const control of row.field.controls ?? []) control.setAttribute("aria-label", `${this.title} ${index + 1}`);
        row.label.textContent = prefix[index] && typeof prefix[index].title === "string" ? prefix[index].title : `${index + 1}`;
      });
      add.hidden = fixed || rows.length >= max;
    };
    const addRow = (/** @type {unknown} */ def, /** @type {boolean} */ focus) => {
      const index = rows.length;
      const schema = index < prefix.length ? prefix[index] : isObject(this.schema.items) ? this.schema.items : {};
      /** @type {Row} */
      const row = { node: element("div", "agui-field-row"), label: element("span", "agui-field-row-label") };
      rows.push(row); // before its field, whose path is its place among the rows
      row.field = this.child(def === undefined ? schema : { ...schema, default: def }, {
        name: `Item ${index + 1}`,
        path: () => `${this.path}[${rows.indexOf(row)}]`,
        required: true,
      });
      if (row.field.schema.type !== "boolean") {
        row.field.el.querySelector(":scope > .agui-field-label, :scope > fieldset > legend")?.remove();
      }
      row.node.append(row.label, row.field.el);
      if (!fixed) {
        row.remove = this.remover(() => {
          const at = rows.indexOf(row);
          rows.splice(at, 1);
          row.node.remove();
          this.form.forget(row.field);
          refresh();
          this.form.touched();
        });
        row.node.append(row.remove);
      }
      list.append(row.node);
      refresh();
      if (focus) row.field.controls?.[0]?.focus();
    };
    const defaults = Array.isArray(this.schema.default) ? this.schema.default : [];
    const count = Math.max(fixed ? prefix.length : 0, Number.isInteger(this.schema.minItems) ? Math.min(this.schema.minItems, 20) : 0, defaults.length);
    for (let i = 0; i < count; i += 1) addRow(defaults[i], false);
    group.append(add);
    refresh();
    this.read = () => {
      const values = rows.map((row) => row.field.value()).filter((v) => v !== undefined);
      return values.length === 0 && !this.required ? undefined : values;
    };
    this.controls = [];
    this.finish(null, group);
  }

  /**
   * Key and value rows for `additionalProperties` (a dict[str, X]); keys of `taken` are the named fields'.
   * @param {Schema} schema the values'
   * @param {Set<string>} taken
   * @returns {{node: HTMLDivElement, read: () => Record<string, unknown>}}
   */
  mapRows(schema, taken) {
    /** @typedef {{node: HTMLDivElement, key: HTMLInputElement, field: Field, remove: HTMLButtonElement}} MapRow */
    const node = element("div", "agui-field-map");
    node.dataset.agui = "field-map";
    const list = element("div", "agui-field-row-list");
    /** @type {MapRow[]} */
    const rows = [];
    const add = this.adder("Add an entry", () => addRow("", undefined, true));
    const addRow = (/** @type {string} */ key, /** @type {unknown} */ def, /** @type {boolean} */ focus) => {
      const row = /** @type {MapRow} */ ({ node: element("div", "agui-field-row agui-field-map-row") });
      row.key = element("input", "agui-field-input agui-field-key");
      row.key.placeholder = "Name";
      row.key.value = key;
      row.key.dataset.agui = "field-key";
      row.field = this.child(def === undefined ? schema : { ...schema, default: def }, {
        name: "Value",
        path: () => `${this.path}.${row.key.value}`,
        required: true,
      });
      if (row.field.schema.type !== "boolean") row.field.el.querySelector(":scope > .agui-field-label")?.remove();
      const named = () => {
        for (const control of row.field.controls ?? []) control.setAttribute("aria-label", `${this.title}: ${row.key.value || "value"}`);
      };
      named();
      row.key.setAttribute("aria-label", `${this.title}: name`);
      row.key.addEventListener("input", () => {
        this.form.repath();
        named();
      });
      this.form.repath();
      row.remove = this.remover(() => {
        rows.splice(rows.indexOf(row), 1);
        row.node.remove();
        this.form.forget(row.field);
        this.form.touched();
      });
      row.node.append(row.key, row.field.el, row.remove);
      rows.push(row);
      list.append(row.node);
      if (focus) row.key.focus();
    };
    const defaults = isObject(this.schema.default) ? this.schema.default : {};
    for (const [key, value] of Object.entries(defaults)) if (!taken.has(key)) addRow(key, value, false);
    // Two entries with one name (or a named field's): the answer could not say both.
    this.form.maps.push({
      field: this,
      problems: () => {
        const seen = new Set(taken);
        /** @type {Problem[]} */
        const found = [];
        for (const row of rows) {
          const key = row.key.value;
          if (key !== "" && seen.has(key)) found.push([row.field.path, `repeats the name ${label(key, 40)}`]);
          seen.add(key);
        }
        return found;
      },
    });
    node.append(list, add);
    return {
      node,
      read: () => {
        /** @type {Record<string, unknown>} */
        const value = {};
        for (const row of rows) {
          const key = row.key.value;
          if (key === "") continue;
          const read = row.field.value();
          if (read !== undefined) value[key] = read;
        }
        return value;
      },
    };
  }

  /** @param {string} text @param {() => void} onClick */
  adder(text, onClick) {
    const add = button("field-add", text, { text: `+ ${text}`, className: "agui-button agui-field-add" });
    add.addEventListener("click", onClick);
    return add;
  }

  /** @param {() => void} onClick */
  remover(onClick) {
    const remove = button("field-remove", "Remove", { icon: icon("close"), className: "agui-button agui-field-remove" });
    remove.addEventListener("click", onClick);
    return remove;
  }

  /** @param {unknown} def */
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

  /** @param {string | undefined} message "" or undefined: nothing wrong */
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
  /** @param {Schema} schema the interrupt's responseSchema */
  constructor(schema) {
    formCount += 1;
    this.uid = `agui-form-${formCount}`;
    this.schema = schema;
    /** @type {Field[]} */
    this.fields = [];
    /** @type {Array<{field: Field, problems: () => Problem[]}>} the key/value rows of additionalProperties, whose names must differ */
    this.maps = [];
    this.el = element("div", "agui-form");
    this.el.dataset.agui = "interrupt-form";
    this.root = new Field(this, schema, { path: "payload", required: true });
    this.el.append(this.root.el);
    this.summary = element("div", "agui-form-error");
    this.summary.dataset.agui = "form-error";
    this.summary.hidden = true;
    this.el.append(this.summary);
  }

  /** Rows moved or were renamed: the fields' data-path hooks follow. */
  repath() {
    for (const field of this.fields) field.el.dataset.path = field.path;
  }

  /**
   * A field (and those under it) left the form: a removed row.
   * @param {Field} field
   */
  forget(field) {
    const gone = new Set();
    for (const candidate of this.fields) {
      for (let f = candidate; f !== null; f = f.parent) {
        if (f === field) {
          gone.add(candidate);
          break;
        }
      }
    }
    this.fields = this.fields.filter((f) => !gone.has(f));
  }

  /** Read every field: the payload, and the problems fields found reading themselves (bad number, bad JSON, a
   * name two entries share). */
  read() {
    /** @type {Problem[]} */
    const readProblems = [];
    for (const field of this.fields) {
      if (!field.active()) continue;
      const own = field.read();
      if (own instanceof Unreadable) readProblems.push([field.path, own.problem]);
    }
    for (const map of this.maps) if (map.field.active() && this.fields.includes(map.field)) readProblems.push(...map.problems());
    // `raw` still holds the unreadable values (as Unreadable): the other fields' problems show beside them.
    const raw = this.root.value();
    return { value: readProblems.length ? undefined : raw, raw, readProblems };
  }

  value() {
    return this.read().value;
  }

  /** A field was touched: show what is wrong now, unless a press on a button is under way (a message appearing
   * on blur would move the button away from under the pointer, and the click would be lost). */
  touched() {
    if (!this.holding) this.check(false);
  }

  /**
   * Between a pointer press on `controls` and its click, hold the checks fields ask for on blur.
   * @param {Element} controls
   */
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

  /**
   * @param {boolean} all show every field's problem (a submit), not only touched fields'
   * @returns {Problem[]} every problem
   */
  check(all) {
    const { raw, readProblems } = this.read();
    /** @type {Problem[]} */
    const problems =
      raw === undefined
        ? readProblems.length ? readProblems : [["payload", "is required"]]
        : [...readProblems, ...payloadProblems(this.schema, raw)];
    const active = this.fields.filter((f) => f.active());
    const byField = new Map();
    for (const [path, message] of problems) {
      // A problem goes to the field at its path, else the nearest field above it (items of a checklist).
      let field = null;
      for (const candidate of active) {
        const at = candidate.path;
        if ((path === at || path.startsWith(`${at}.`) || path.startsWith(`${at}[`)) && (field === null || at.length >= field.path.length)) {
          field = candidate;
        }
      }
      if (field !== null && field.read !== undefined && !byField.has(field)) byField.set(field, message);
    }
    for (const field of this.fields) {
      if (!active.includes(field) || (field.schema.type === "object" && field !== this.root && !byField.has(field))) {
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

  /** @param {boolean} disabled */
  setDisabled(disabled) {
    for (const field of this.fields) for (const control of field.controls) control.disabled = disabled;
    const buttons = /** @type {NodeListOf<HTMLButtonElement | HTMLInputElement>} */ (this.el.querySelectorAll(".agui-field-add, .agui-field-remove, .agui-field-key"));
    for (const button of buttons) button.disabled = disabled;
  }
}
