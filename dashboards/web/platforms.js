// A campaign's funnel per platform, side by side: each platform's sends, the displays its devices reported and,
// once FCM's export was imported, the deliveries FCM counted to it. The platform picked in the filters does not
// narrow it: comparing the platforms is what it is for.
import { api } from "./api.js";
import { $ } from "./dom.js";
import { filters } from "./filters.js";
import { funnelColumnsFor } from "./format.js";
import { state } from "./state.js";
import { renderTable } from "./table.js";

// The platforms' names as the platform filter shows them; any other value as the client sent it.
const names = { ios: "iOS", android: "Android", web: "Web", unknown: "Not named" };

const platformColumn = { key: "platform", title: "Platform", format: (value) => names[value] || value };

// Shown when the campaign's events or send records named a platform; a campaign whose clients never say is one
// "Not named" row, which the funnel above already shows.
export async function loadPlatforms() {
  const section = $("platforms");
  const report = await api("/v1/reports/campaigns", { ...filters(), by: "platform", campaign: state.campaign });
  const rows = report.campaigns.filter((row) => !row.orphan && row.campaign === state.campaign);
  section.hidden = !rows.some((row) => row.platform !== "unknown");
  if (section.hidden) return;
  renderTable($("platforms-table"), [platformColumn, ...funnelColumnsFor(rows)], rows, { sort: { key: "sent", dir: -1 } });
}
