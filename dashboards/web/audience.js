// Who can see a push at all, over the date range: devices with a session by their latest notification setting
// and the opt-in rate (GET /v1/reports/audience, by event time). Sessions name no campaign, so picking one
// leaves it as is.
import { api } from "./api.js";
import { $, el } from "./dom.js";
import { filters } from "./filters.js";
import { number, percent } from "./format.js";

const settings = [
  { key: "authorized", title: "Authorized" },
  { key: "provisional", title: "Provisional" },
  { key: "ephemeral", title: "Ephemeral" },
  { key: "denied", title: "Denied" },
  { key: "not_determined", title: "Not asked yet" },
  { key: "unknown", title: "Unknown (the app did not say)" },
];

export async function loadAudience() {
  const report = await api("/v1/reports/audience", filters());
  const row = report.audience[0] || {};
  $("audience-opt-in").textContent = percent(row.opt_in_rate);
  $("audience-devices").textContent = number(row.devices);
  // Shares of the devices whose setting is known, as the opt-in rate is; unknown ones of all devices.
  const known = (row.devices || 0) - (row.unknown || 0);
  const share = (key) => {
    const whole = key === "unknown" ? row.devices : known;
    return whole > 0 ? percent((row[key] || 0) / whole) : "–";
  };
  $("audience-table").replaceChildren(
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Setting"), el("th", { scope: "col" }, "Devices"),
      el("th", { scope: "col" }, "Share"))),
    el("tbody", {}, ...settings.map((setting) => el("tr", { "data-setting": setting.key },
      el("th", { scope: "row" }, setting.title), el("td", {}, number(row[setting.key])), el("td", {}, share(setting.key))))));
  $("audience-empty").hidden = Boolean(row.devices);
}
