// @ts-check
// Tables: the built-in renderer for a `data-*` part whose data is a list of records (uniform-ish objects), and
// the view of a bounded table spec, which a Python renderer's DataFrame also arrives as
// (`application/vnd.agui-notebook.table+json`: {columns, rows, rowCount, columnCount, indexColumns}).
// Every cell is text (textContent); nothing an agent sends becomes markup.
import { element, label, scrollRegion } from "../dom.js";

export const MAX_ROWS = 50;
export const MAX_COLUMNS = 20;

/**
 * A bounded table: the column names, the rows (a list of cells each, at most MAX_ROWS), the whole table's size, and
 * how many leading columns are the index (a DataFrame's).
 * @typedef {{columns: string[], rows: unknown[][], rowCount: number, columnCount: number, indexColumns: number}} TableSpec
 */

/** @param {unknown} value @returns {value is Record<string, unknown>} */
function isRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The table spec of a list of records, or null when `data` is not one: at least one row, every row an object,
 * and uniform-ish (the columns of all rows together at most twice as many as the widest row has).
 * @param {unknown} data
 * @returns {TableSpec | null}
 */
export function recordsTable(data) {
  if (!Array.isArray(data) || data.length === 0 || !data.every(isRecord)) return null;
  /** @type {Map<string, number>} key -> first seen order */
  const columns = new Map();
  let widest = 0;
  for (const row of data) {
    const keys = Object.keys(row);
    widest = Math.max(widest, keys.length);
    for (const key of keys) if (!columns.has(key)) columns.set(key, columns.size);
  }
  if (widest === 0 || columns.size > widest * 2) return null;
  const names = [...columns.keys()];
  const shownNames = names.slice(0, MAX_COLUMNS);
  const rows = data
    .slice(0, MAX_ROWS)
    .map((row) => shownNames.map((name) => (Object.prototype.hasOwnProperty.call(row, name) ? row[name] : undefined)));
  return { columns: shownNames, rows, rowCount: data.length, columnCount: names.length, indexColumns: 0 };
}

/**
 * A cell's text and kind (numbers align right, missing values are faint).
 * @param {unknown} value
 * @returns {{text: string, kind: string}}
 */
function cellText(value) {
  if (value === undefined || value === null) return { text: "", kind: "empty" };
  if (typeof value === "number") return { text: String(value), kind: "number" };
  if (typeof value === "boolean") return { text: String(value), kind: "boolean" };
  if (typeof value === "string") return { text: label(value, 300), kind: "text" };
  let text;
  try {
    text = JSON.stringify(value);
  } catch {
    text = String(value);
  }
  return { text: label(text ?? "", 300), kind: "json" };
}

/** @param {number} count @param {string} one @param {string} many */
function plural(count, one, many) {
  return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}

/**
 * The element of a table spec: a scrolling <table> and a note of the rows and columns left out.
 * @param {any} spec a TableSpec, as a renderer or an agent sent it: each field is checked
 * @returns {HTMLDivElement}
 */
export function tableElement(spec) {
  const columns = Array.isArray(spec?.columns) ? spec.columns.slice(0, MAX_COLUMNS) : [];
  const rows = Array.isArray(spec?.rows) ? spec.rows.slice(0, MAX_ROWS) : [];
  const indexColumns = Number.isInteger(spec?.indexColumns) ? spec.indexColumns : 0;
  const box = element("div", "agui-records");
  box.dataset.agui = "records";
  const scroller = scrollRegion(element("div", "agui-records-scroll"), "Table");
  const table = element("table", "agui-records-table");
  const head = element("thead");
  const headRow = element("tr");
  for (const [index, name] of columns.entries()) {
    const th = element("th", index < indexColumns ? "agui-records-index" : "", label(String(name ?? ""), 120));
    th.scope = "col";
    // A column of numbers is right-aligned, its heading too.
    const values = rows.map((/** @type {unknown} */ row) => (Array.isArray(row) ? row[index] : undefined)).filter((/** @type {unknown} */ v) => v !== null && v !== undefined);
    if (values.length && values.every((/** @type {unknown} */ v) => typeof v === "number")) th.dataset.kind = "number";
    headRow.append(th);
  }
  head.append(headRow);
  const body = element("tbody");
  for (const row of rows) {
    const tr = element("tr");
    const cells = Array.isArray(row) ? row : [];
    for (let index = 0; index < columns.length; index += 1) {
      const { text, kind } = cellText(cells[index]);
      const cell = element(index < indexColumns ? "th" : "td", "", text);
      if (index < indexColumns) {
        cell.scope = "row";
        cell.className = "agui-records-index";
      }
      cell.dataset.kind = kind;
      tr.append(cell);
    }
    body.append(tr);
  }
  table.append(head, body);
  scroller.append(table);
  box.append(scroller);
  const rowCount = Number.isInteger(spec?.rowCount) ? spec.rowCount : rows.length;
  const columnCount = Number.isInteger(spec?.columnCount) ? spec.columnCount : columns.length;
  const more = [];
  if (rowCount > rows.length) more.push(plural(rowCount - rows.length, "more row", "more rows"));
  if (columnCount > columns.length) more.push(plural(columnCount - columns.length, "more column", "more columns"));
  if (more.length) {
    const note = element("div", "agui-records-more", `${more.join(", ")} not shown`);
    note.dataset.agui = "records-more";
    box.append(note);
  }
  return box;
}

/**
 * The bar's summary of a table: "3 rows" or "120 rows · 25 columns".
 * @param {any} spec a TableSpec, unchecked
 * @returns {string}
 */
export function tableSummary(spec) {
  const rows = Number.isInteger(spec?.rowCount) ? spec.rowCount : 0;
  const columns = Number.isInteger(spec?.columnCount) ? spec.columnCount : 0;
  const parts = [plural(rows, "row", "rows")];
  if (columns > MAX_COLUMNS / 2) parts.push(plural(columns, "column", "columns"));
  return parts.join(" · ");
}
