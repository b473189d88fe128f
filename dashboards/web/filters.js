// The filter form (date range, time zone) and the campaign picked, as report query parameters.
import { $, el } from "./dom.js";
import { state } from "./state.js";

// Days in the browser's zone; "To" is inclusive, so the range ends where the day after it begins (the API's
// `to` is exclusive).
export function filters() {
  const params = {};
  const from = $("from").value, to = $("to").value;
  if (from) params.from = new Date(from + "T00:00:00").toISOString();
  if (to) {
    const end = new Date(to + "T00:00:00");
    end.setDate(end.getDate() + 1);
    params.to = end.toISOString();
  }
  return params;
}

// The campaign picked in the table narrows the time series and receipt health too (and their CSVs).
export const campaignFilter = () => state.campaign ? { campaign: state.campaign } : {};

export function fillTimeZones() {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone")
    : ["UTC", "America/New_York", "Europe/London", "Asia/Kolkata", "Asia/Taipei", "Asia/Tokyo"];
  for (const zone of new Set(["UTC", browserZone, ...zones])) {
    $("tz").append(el("option", zone === browserZone ? { value: zone, selected: "" } : { value: zone }, zone));
  }
}
