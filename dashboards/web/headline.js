// The figures at a glance, above the tables: for the campaign picked, its row of the campaigns report; for all
// campaigns, the registered campaigns summed (displays of unregistered pushes have no send to be a rate of),
// with rates pooled as the API pools them (sum over sum).
import { $ } from "./dom.js";
import { money, number, percent } from "./format.js";
import { state } from "./state.js";

const summed = ["sent", "displayed_unique", "opened_unique", "influenced_opens", "conversions"];
const ratio = (part, whole) => whole > 0 ? part / whole : null;

function totals(rows) {
  const total = Object.fromEntries(summed.map((key) => [key, rows.reduce((sum, row) => sum + (row[key] || 0), 0)]));
  total.conversion_value = {};
  for (const row of rows) {
    for (const [currency, amount] of Object.entries(row.conversion_value || {})) {
      total.conversion_value[currency] = (total.conversion_value[currency] || 0) + Number(amount);
    }
  }
  total.display_rate = ratio(total.displayed_unique, total.sent);
  total.open_rate = ratio(total.opened_unique, total.displayed_unique);
  return total;
}

export function showHeadline() {
  const row = state.campaign ? state.campaigns.find((campaign) => campaign.campaign === state.campaign) || totals([])
    : totals(state.campaigns.filter((campaign) => !campaign.orphan));
  $("headline-scope").textContent = state.campaign ? `Campaign ${state.campaign}` : "All campaigns";
  $("headline-sent").textContent = number(row.sent);
  $("headline-displayed").textContent = number(row.displayed_unique);
  $("headline-display-rate").textContent = percent(row.display_rate);
  $("headline-opened").textContent = number(row.opened_unique);
  $("headline-open-rate").textContent = percent(row.open_rate);
  $("headline-influenced").textContent = number(row.influenced_opens);
  $("headline-conversions").textContent = number(row.conversions);
  $("headline-value").textContent = money(row.conversion_value);
}
