// What pushes caused, over the date range: sessions and conversions by credit (GET /v1/reports/attribution,
// by event time). It covers every campaign: the report has no campaign filter, so picking one leaves it as is.
import { api } from "./api.js";
import { $, el } from "./dom.js";
import { filters } from "./filters.js";
import { money, number } from "./format.js";

const measures = [
  { title: "Sessions", total: "sessions", direct: "direct_opens", influenced: "influenced_opens",
    unattributed: "unattributed_sessions" },
  { title: "Conversions", total: null, direct: "conversions_direct", influenced: "conversions_influenced",
    unattributed: "unattributed_conversions" },
];

function row(cells, header) {
  return el("tr", {}, ...cells.map((cell, index) => index === 0 || header
    ? el("th", { scope: header ? "col" : "row" }, cell) : el("td", {}, cell)));
}

export async function loadAttribution() {
  const report = await api("/v1/reports/attribution", filters());
  const totals = report.attribution[0] || {};
  const table = $("attribution-table");
  table.replaceChildren(
    el("thead", {}, row(["", "Total", "Direct", "Influenced", "Unattributed"], true)),
    el("tbody", {}, ...measures.map((measure) => {
      // The report's `conversions` counts credited conversions only; the total here counts them all.
      const total = measure.total ? totals[measure.total]
        : (totals.conversions || 0) + (totals.unattributed_conversions || 0);
      return row([measure.title, number(total), number(totals[measure.direct]), number(totals[measure.influenced]),
        number(totals[measure.unattributed])]);
    })));
  $("attribution-value").textContent = money(totals.conversion_value);
  $("attribution-unattributed-value").textContent = money(totals.unattributed_conversion_value);
  $("attribution-empty").hidden = Boolean(totals.sessions || totals.conversions || totals.unattributed_conversions);
}
