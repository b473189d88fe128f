// A campaign's funnel per platform, side by side: each platform's sends, the displays its devices reported and,
// once FCM's export was imported, the deliveries FCM counted to it. The platform picked in the filters does not
// narrow it: comparing the platforms is what it is for.
import { api } from "./api.js";
import { $ } from "./dom.js";
import { filters } from "./filters.js";
import { number, percent } from "./format.js";
import { state } from "./state.js";
import { renderTable } from "./table.js";

// The platforms' names as the platform filter shows them; any other value as the client sent it.
const names = { ios: "iOS", android: "Android", web: "Web", unknown: "Not named" };

function columns(fcm) {
  return [
    { key: "platform", title: "Platform", format: (value) => names[value] || value },
    { key: "sent", title: "Sent", format: number },
    { key: "displayed_unique", title: "Displayed", format: number },
    { key: "display_rate", title: "Display rate", format: percent },
    ...(fcm ? [
      { key: "device_delivered", title: "Delivered (FCM)", format: number },
      { key: "displayed_of_delivered", title: "Shown of delivered", format: percent },
    ] : []),
    { key: "opened_unique", title: "Opened", format: number },
    { key: "open_rate", title: "Open rate", format: percent },
  ];
}

// Shown when the campaign's events or send records named a platform; a campaign whose clients never say is one
// "Not named" row, which the funnel above already shows.
export async function loadPlatforms() {
  const section = $("platforms");
  const report = await api("/v1/reports/campaigns", { ...filters(), by: "platform", campaign: state.campaign });
  const rows = report.campaigns.filter((row) => !row.orphan && row.campaign === state.campaign);
  section.hidden = !rows.some((row) => row.platform !== "unknown");
  if (section.hidden) return;
  const fcm = rows.some((row) => row.device_delivered > 0 || row.fcm_accepted > 0 || row.fcm_failed > 0);
  renderTable($("platforms-table"), columns(fcm), rows, { sort: { key: "sent", dir: -1 } });
}
