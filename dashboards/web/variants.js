// A campaign's A/B variants (GET /v1/reports/campaigns/{campaign}/variants, or /v1/reports/variants?campaign=
// for a name a path cannot carry, paths.js): each arm's display and open rates with their Wilson 95 % intervals,
// and its lift and two-sided p-value against the control. One arm has nothing to compare with, so the section
// shows from two.
import { api, HTTPError } from "./api.js";
import { $, el } from "./dom.js";
import { filters } from "./filters.js";
import { lift, number, pValue, rateWithInterval } from "./format.js";
import { isDotSegment } from "./paths.js";
import { state } from "./state.js";
import { renderTable } from "./table.js";

// The control picked in the section's menu, for the campaign it was picked in; otherwise the server's default.
const picked = { campaign: null, control: null };

export const variantsPath = () => isDotSegment(state.campaign)
  ? "/v1/reports/variants" : "/v1/reports/campaigns/" + encodeURIComponent(state.campaign || "") + "/variants";
export const variantsParams = () => ({
  ...filters(), ...(isDotSegment(state.campaign) ? { campaign: state.campaign } : {}),
  ...(picked.campaign === state.campaign && picked.control !== null ? { control: picked.control } : {}),
});

// Bold marks what a 5 % test calls significant; the title says so for those who cannot see bold.
const significance = (value) => value !== null && value !== undefined && value < 0.05
  ? el("strong", { title: "p < 0.05" }, pValue(value)) : pValue(value);

const columns = [
  { key: "variant", title: "Variant", format: (value, row) => (value ?? "(none)") + (row.control ? " (control)" : "") },
  { key: "sent", title: "Sent", format: number },
  { key: "displayed", title: "Displayed", format: number },
  { key: "display_rate", title: "Display rate (95% CI)",
    format: (value, row) => rateWithInterval(value, row.display_rate_ci_low, row.display_rate_ci_high) },
  { key: "display_rate_lift", title: "Display lift", format: lift },
  { key: "display_rate_p_value", title: "Display p", format: significance },
  { key: "opened", title: "Opened", format: number },
  { key: "open_rate", title: "Open rate (95% CI)",
    format: (value, row) => rateWithInterval(value, row.open_rate_ci_low, row.open_rate_ci_high) },
  { key: "open_rate_lift", title: "Open lift", format: lift },
  { key: "open_rate_p_value", title: "Open p", format: significance },
];

export async function loadVariants() {
  const section = $("variants");
  if (!state.campaign) { section.hidden = true; return; }
  section.setAttribute("aria-busy", "true");
  try {
    const variants = await fetchVariants();
    section.hidden = variants.length < 2;
    const menu = $("variant-control");
    menu.replaceChildren(...variants.map((row) => el("option",
      { value: row.variant ?? "", ...(row.control ? { selected: "" } : {}) }, row.variant ?? "(none)")));
    renderTable($("variants-table"), columns, variants);
  } finally {
    section.removeAttribute("aria-busy");
  }
}

// A 404 means the report knows no variants for this campaign (nothing in the range): nothing to show. A 400
// while a control is picked means a new date range left that variant out: back to the server's default.
async function fetchVariants() {
  try {
    return (await api(variantsPath(), variantsParams())).variants || [];
  } catch (error) {
    if (error instanceof HTTPError && error.status === 404) return [];
    if (error instanceof HTTPError && error.status === 400 && picked.control !== null) {
      picked.control = null;
      return fetchVariants();
    }
    throw error;
  }
}

export function pickControl(name) {
  picked.campaign = state.campaign;
  picked.control = name;
  return loadVariants();
}
