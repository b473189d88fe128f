// The campaigns table, and the hints shown when it is empty.
import { api } from "./api.js";
import { $, el } from "./dom.js";
import { filters } from "./filters.js";
import { funnelColumns, number, outcomeColumns, seconds } from "./format.js";
import { state } from "./state.js";
import { renderTable } from "./table.js";

// A campaign's name links to its drill-down; `select` is given by the page, which owns navigation. Superseded
// pushes show only when a campaign has some, as most senders never set a collapse id.
const campaignColumns = (select, superseded) => [
  { key: "campaign", title: "Campaign", format: (value, row) => row.orphan ? "(unregistered pushes)" :
    el("a", { href: "#campaign=" + encodeURIComponent(value), onclick: (event) => {
      event.preventDefault();
      select(value);
    } }, value) },
  ...funnelColumns,
  ...outcomeColumns,
  ...(superseded ? [{ key: "superseded_pushes", title: "Superseded pushes", format: number }] : []),
  { key: "unexplained_loss", title: "Unexplained loss", format: number },
  { key: "time_to_display_p50", title: "Median time to display", format: seconds },
  { key: "final", title: "Final", format: (value) => value ? "yes" : "not yet" },
];

export async function loadCampaigns(select) {
  const report = await api("/v1/reports/campaigns", filters());
  state.campaigns = report.campaigns;
  const filtered = Boolean($("from").value || $("to").value);
  $("campaigns-empty").hidden = report.campaigns.length > 0 || filtered;
  $("campaigns-none-in-range").hidden = report.campaigns.length > 0 || !filtered;
  // Pushes registered but not one receipt: the extension is the first suspect.
  const registered = report.campaigns.filter((row) => !row.orphan);
  $("receipts-empty").hidden = registered.length === 0 || report.campaigns.some((row) => row.displayed > 0);
  const superseded = report.campaigns.some((row) => row.superseded_pushes > 0);
  renderTable($("campaigns-table"), campaignColumns(select, superseded), report.campaigns, { sort: state.sort });
}
