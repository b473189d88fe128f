// One campaign's drill-down: funnel, what it caused, time to display, actions, its platforms side by side, its
// variants, and its pushes.
import { api } from "./api.js";
import { barChart } from "./charts.js";
import { $ } from "./dom.js";
import { filters, platformFilter } from "./filters.js";
import { funnelColumns, milliseconds, money, number, outcomeColumns, percent, seconds } from "./format.js";
import { isDotSegment } from "./paths.js";
import { loadPlatforms } from "./platforms.js";
import { state } from "./state.js";
import { renderTable } from "./table.js";
import { loadVariants } from "./variants.js";

const pushColumns = [
  { key: "push_id", title: "Push" },
  { key: "title", title: "Title" },
  { key: "sent_at", title: "Sent at", format: (value) => value ? new Date(value).toLocaleString() : "–" },
  ...funnelColumns,
  ...outcomeColumns,
  { key: "time_to_display_p90", title: "p90 time to display", format: seconds },
  { key: "rich_rate", title: "Rich rate", format: percent },
  { key: "extension_ms_p90", title: "p90 extension time", format: milliseconds },
];

// APNs kept only the later push of the same collapse id for a device offline meanwhile: shown when any push was.
const supersededColumn = { key: "superseded_by", title: "Superseded by",
  format: (value, row) => value === null || value === undefined ? "–" : `${value} after ${seconds(row.superseded_after_s)}` };

// A campaign named "." or ".." has its pushes from the pushes report narrowed to it, whose rows are the drill-down's.
export const campaignPath = () => isDotSegment(state.campaign)
  ? "/v1/reports/pushes" : "/v1/reports/campaigns/" + encodeURIComponent(state.campaign || "");

// The campaign's pushes of the platform picked, as its row in the campaigns table counts them.
export const campaignParams = () => ({
  ...filters(), ...platformFilter(), ...(isDotSegment(state.campaign) ? { campaign: state.campaign } : {}),
});

// Reads the campaign's row from the campaigns report, so it must run after loadCampaigns.
export async function loadCampaign() {
  const section = $("campaign-detail");
  if (!state.campaign) { section.hidden = true; $("filter-note").hidden = true; return; }
  const report = await api(campaignPath(), campaignParams());
  const row = state.campaigns.find((campaign) => campaign.campaign === state.campaign) || {};
  section.hidden = false;
  $("detail-title").textContent = `Campaign ${state.campaign}`;
  $("filter-note").hidden = false;
  $("filter-campaign").textContent = state.campaign;
  barChart($("funnel-chart"), [
    // Targeted only when the backend reported it: a bar of 0 above Sent would read as a loss.
    ...(row.targeted ? [{ label: "Targeted", value: row.targeted }] : []),
    { label: "Sent (APNs)", value: row.sent || 0 },
    { label: "Displayed", value: row.displayed_unique || 0, text: `${number(row.displayed_unique)} (${percent(row.display_rate)})` },
    ...mediaBars(row),
    { label: "Opened", value: row.opened_unique || 0, second: true, text: `${number(row.opened_unique)} (${percent(row.open_rate)})` },
  ], { label: "Funnel" });
  outcomesChart(row);
  const histogram = Object.entries(row.time_to_display_histogram || {})
    .map(([bound, count]) => ({ bound: parseInt(bound, 10), count, open: bound.endsWith("+") }))
    .sort((a, b) => a.bound - b.bound);
  barChart($("latency-chart"), histogram.map((bucket) => ({
    label: (bucket.open ? "≥ " : "< ") + seconds(bucket.bound), value: bucket.count })),
  { label: "Time to display histogram", empty: "No timed displays: pushes need a sent_at." });
  barChart($("actions-chart"), [
    { label: "open", value: row.opened || 0 }, { label: "dismiss", value: row.dismissed || 0 },
    ...Object.entries(row.actions || {}).map(([name, count]) => ({ label: name, value: count })),
  ].filter((item) => item.value > 0), { label: "Actions", empty: "No taps reported yet." });
  const superseded = report.pushes.some((push) => push.superseded_by !== null && push.superseded_by !== undefined);
  renderTable($("pushes-table"), superseded ? [...pushColumns, supersededColumn] : pushColumns, report.pushes,
    { sort: { key: "sent_at", dir: -1 } });
  await loadPlatforms();
  await loadVariants();
}

// Of the displays whose push asked for media, those shown with it (the rich rate) and those the extension ran
// out of time for; nothing when no display asked for media.
function mediaBars(row) {
  if (row.rich_rate === null || row.rich_rate === undefined) return [];
  return [
    { label: "With media", value: row.media_attached || 0, text: `${number(row.media_attached)} (${percent(row.rich_rate)} rich)` },
    ...(row.media_timed_out ? [{ label: "Media timed out", value: row.media_timed_out, second: true }] : []),
  ];
}

// Sessions and conversions credited to the campaign's pushes. Direct opens are sessions right after a tap,
// already counted in Opened above; influenced opens are the ones a display alone explains.
function outcomesChart(row) {
  barChart($("outcomes-chart"), [
    { label: "Direct opens", value: row.direct_opens || 0 },
    { label: "Infl. opens", value: row.influenced_opens || 0,
      text: `${number(row.influenced_opens)} (${percent(row.influenced_open_rate)})` },
    { label: "Direct conv.", value: row.conversions_direct || 0, second: true },
    { label: "Infl. conv.", value: row.conversions_influenced || 0, second: true },
  ], { label: "Outcomes" });
  $("outcomes-value").textContent = money(row.conversion_value);
}
