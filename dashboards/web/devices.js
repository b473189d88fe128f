// Which devices the backend sends pushes to never show them, and why (GET /v1/reports/devices): the last 30
// days, every app and platform together. The report is judged by its own window, not the page's date range.
import { api } from "./api.js";
import { $, el } from "./dom.js";
import { number, percent } from "./format.js";

const states = [
  { key: "rejected", title: "Rejected (the provider refused the last send)" },
  { key: "unknown", title: "Unknown (no event from its app ever)" },
  { key: "gone", title: "Gone (no display or session: likely uninstalled)" },
  { key: "muted", title: "Muted (sessions, no display)" },
  { key: "ignoring", title: "Ignoring (displays, no open)" },
  { key: "engaged", title: "Engaged (displays and opens)" },
];

export async function loadDevices() {
  const report = await api("/v1/reports/devices", {});
  const total = (key) => report.devices.reduce((sum, row) => sum + (row[key] || 0), 0);
  const sentTo = total("sent_to");
  const dark = total("dark");
  $("devices-dark-rate").textContent = sentTo > 0 ? percent(dark / sentTo) : "–";
  $("devices-sent-to").textContent = number(sentTo);
  $("devices-table").replaceChildren(
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "State"), el("th", { scope: "col" }, "Devices"),
      el("th", { scope: "col" }, "Share"))),
    el("tbody", {}, ...states.map((state) => el("tr", { "data-state": state.key },
      el("th", { scope: "row" }, state.title), el("td", {}, number(total(state.key))),
      el("td", {}, sentTo > 0 ? percent(total(state.key) / sentTo) : "–")))));
  $("devices-empty").hidden = sentTo > 0;
}
