// The campaigns table, its column groups, and the hints shown when it is empty.
import { api } from "./api.js";
import { $, el } from "./dom.js";
import { filters, platformFilter } from "./filters.js";
import { deliveryColumns, hasFCM, money, number, percent, seconds } from "./format.js";
import { state } from "./state.js";
import { renderTable } from "./table.js";

const GROUP_KEY = "pushtally.columns";

// Every column at once is far wider than a laptop's window: the campaign stays first, the rest come in groups
// the marketer switches. Superseded pushes show only when a campaign has some, as most senders never set a
// collapse id; rich media only when a campaign's displays asked for some; FCM's deliveries only once its export
// was imported.
const groups = {
  delivery: (superseded, media, fcm) => [
    ...deliveryColumns(fcm),
    ...(media ? [
      { key: "rich_rate", title: "Rich rate", format: percent },
      { key: "media_timed_out", title: "Media timed out", format: number },
    ] : []),
    ...(superseded ? [{ key: "superseded_pushes", title: "Superseded pushes", format: number }] : []),
    { key: "unexplained_loss", title: "Unexplained loss", format: number },
    { key: "time_to_display_p50", title: "Median time to display", format: seconds },
    { key: "final", title: "Final", format: (value) => value ? "yes" : "not yet" },
  ],
  engagement: () => [
    { key: "displayed_unique", title: "Displayed", format: number },
    { key: "opened_unique", title: "Opened", format: number },
    { key: "open_rate", title: "Open rate", format: percent },
    { key: "influenced_opens", title: "Influenced opens", format: number },
    { key: "influenced_open_rate", title: "Influenced rate", format: percent },
  ],
  outcomes: () => [
    { key: "opened_unique", title: "Opened", format: number },
    { key: "conversions", title: "Conversions", format: number },
    { key: "conversions_direct", title: "Direct conv.", format: number },
    { key: "conversions_influenced", title: "Influenced conv.", format: number },
    // Amounts in different currencies do not add up, so the column sorts by its text.
    { key: "conversion_value", title: "Conversion value", format: money, sortValue: money },
  ],
};

// The group picked last, in this browser; delivery on a first visit.
export function columnGroup() {
  const saved = localStorage.getItem(GROUP_KEY);
  return saved in groups ? saved : "delivery";
}

export function showColumnGroup(name) {
  localStorage.setItem(GROUP_KEY, name);
  for (const input of document.querySelectorAll("#column-groups input")) input.checked = input.value === name;
  drawTable();
}

// A campaign's name links to its view (its address opens in a new tab too); `select` is given by the page,
// which owns navigation. Long names are cut by the stylesheet, whole in the title.
let links = { select: () => {}, href: () => "#" };

function campaignColumn() {
  return { key: "campaign", title: "Campaign", format: (value, row) => row.orphan ? "(unregistered pushes)" :
    el("a", { href: links.href(value), title: value, onclick: (event) => {
      event.preventDefault();
      links.select(value);
    } }, value) };
}

function drawTable() {
  const superseded = state.campaigns.some((row) => row.superseded_pushes > 0);
  const media = state.campaigns.some((row) => row.rich_rate !== null && row.rich_rate !== undefined);
  const columns = [campaignColumn(), ...groups[columnGroup()](superseded, media, hasFCM(state.campaigns))];
  renderTable($("campaigns-table"), columns, state.campaigns, { sort: state.sort });
}

export async function loadCampaigns(select, href) {
  links = { select, href };
  const report = await api("/v1/reports/campaigns", { ...filters(), ...platformFilter() });
  state.campaigns = report.campaigns;
  const filtered = Boolean($("from").value || $("to").value);
  $("campaigns-empty").hidden = report.campaigns.length > 0 || filtered;
  $("campaigns-none-in-range").hidden = report.campaigns.length > 0 || !filtered;
  // Pushes registered but not one receipt: the extension is the first suspect.
  const registered = report.campaigns.filter((row) => !row.orphan);
  $("receipts-empty").hidden = registered.length === 0 || report.campaigns.some((row) => row.displayed > 0);
  drawTable();
}
