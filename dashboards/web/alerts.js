// The alerts that fire, as a banner above the reports; no banner while none does. Read with the page's token
// (`GET /v1/alerts` takes a read token) on every refresh.
import { api } from "./api.js";
import { $, el } from "./dom.js";
import { percent } from "./format.js";

// What each kind's value measures (AlertEvaluator on the server).
const kinds = {
  receipts_stopped: { title: "Receipts stopped", value: "display rate" },
  display_rate_drop: { title: "Display rate drop", value: "of the previous 7 days' display rate" },
  version_not_posting: { title: "Version not posting", value: "of its share of opens in receipts" },
};

function valueText(alert) {
  const kind = kinds[alert.kind];
  const value = alert.value === null ? "no value" : kind ? `${percent(alert.value)} ${kind.value}` : percent(alert.value);
  return alert.detail ? `${alert.detail}: ${value}` : value;
}

function alertItem(alert) {
  const since = new Date(alert.since);
  return el("li", { "data-alert": alert.id },
    el("strong", {}, alert.name), " ",
    el("span", { class: "alert-kind" }, `(${kinds[alert.kind]?.title ?? alert.kind})`), " ",
    valueText(alert), ", firing since ",
    el("time", { datetime: alert.since }, since.toLocaleString()));
}

export async function loadAlerts() {
  const { alerts } = await api("/v1/alerts", {}, null);
  const firing = alerts.filter((alert) => alert.state === "firing");
  $("alerts-banner").hidden = firing.length === 0;
  $("alerts-list").replaceChildren(...firing.map(alertItem));
}
