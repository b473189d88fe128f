// Tables: header cells sort them (by the column's `sortValue` when values are not plain), cells are formatted
// per column.
import { el } from "./dom.js";

// A table whose header cells sort it (buttons, so the keyboard works), with formatted cells.
export function renderTable(table, columns, rows, options = {}) {
  table.replaceChildren();
  const sort = options.sort;
  const sortValue = columns.find((column) => column.key === sort?.key)?.sortValue || ((value) => value);
  const sorted = sort ? [...rows].sort((a, b) => compare(sortValue(a[sort.key]), sortValue(b[sort.key])) * sort.dir) : rows;
  const head = el("tr");
  for (const column of columns) {
    const th = el("th", { scope: "col" });
    if (sort) {
      if (sort.key === column.key) th.setAttribute("aria-sort", sort.dir > 0 ? "ascending" : "descending");
      th.append(el("button", { type: "button", onclick: () => {
        sort.dir = sort.key === column.key ? -sort.dir : -1;
        sort.key = column.key;
        renderTable(table, columns, rows, options);
      } }, column.title));
    } else {
      th.textContent = column.title;
    }
    head.append(th);
  }
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const row of sorted) {
    const tr = el("tr", options.flagged && options.flagged(row) ? { class: "flagged" } : {});
    for (const column of columns) {
      const value = (column.format || ((v) => v ?? "–"))(row[column.key], row);
      tr.append(el("td", {}, value));
    }
    body.append(tr);
  }
  table.append(body);
}

function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return typeof a === "number" ? a - b : String(a).localeCompare(String(b));
}
