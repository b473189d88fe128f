// Receipt health by app or OS version: flags versions whose extension seems not to post.
import { api } from "./api.js";
import { $ } from "./dom.js";
import { campaignFilter, filters } from "./filters.js";
import { milliseconds, number, percent } from "./format.js";
import { renderTable } from "./table.js";

const versionColumns = [
  { key: "version", title: "Version" },
  { key: "receipts", title: "Receipts", format: number },
  { key: "opens", title: "Opens", format: number },
  { key: "receipt_share", title: "Share of receipts", format: percent },
  { key: "open_share", title: "Share of opens", format: percent },
  // A release whose media times out stands out here, beside one whose extension does not post.
  { key: "rich_rate", title: "Rich rate", format: percent },
  { key: "media_timed_out", title: "Media timed out", format: number },
  { key: "extension_ms_p90", title: "p90 extension time", format: milliseconds },
  { key: "flagged", title: "Extension", format: (value) => value ? "⚠ not posting?" : "ok" },
];

export const versionsParams = () => ({ ...filters(), dimension: $("dimension").value, ...campaignFilter() });

export async function loadVersions() {
  const dimension = $("dimension");
  const report = await api("/v1/reports/versions", versionsParams());
  $("health-title").textContent = "Receipt health by " + dimension.selectedOptions[0].textContent.toLowerCase();
  $("versions-empty").hidden = report.versions.length > 0;
  $("versions-table").hidden = report.versions.length === 0;
  renderTable($("versions-table"), versionColumns, report.versions, { flagged: (row) => row.flagged });
}
