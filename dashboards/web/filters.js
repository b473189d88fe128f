// The filter form (date range, time zone) and the campaign picked, as report query parameters.
import { $, el } from "./dom.js";
import { state } from "./state.js";

// Days are the selected time zone's days, so a shared link covers the same hours in every browser; "To" is
// inclusive, so the range ends where the day after it begins (the API's `to` is exclusive).
export function filters() {
  const params = {};
  const from = dayParts($("from").value), to = dayParts($("to").value), zone = $("tz").value || "UTC";
  if (from) params.from = startOfDay(from.year, from.month, from.day, zone);
  if (to) params.to = startOfDay(to.year, to.month, to.day + 1, zone);
  return params;
}

// The platform picked narrows the campaigns table, the headline, the time series and the campaign's pushes (receipt
// health, outcomes, audience and variants are not kept by platform, and their reports refuse it).
export const platformFilter = () => $("platform").value ? { platform: $("platform").value } : {};

// The campaign picked in the table narrows the headline, time series and receipt health too (and their CSVs).
export const campaignFilter = () => state.campaign ? { campaign: state.campaign } : {};

export function dayParts(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text || "");
  return match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null;
}

// How far `zone`'s wall clock is ahead of UTC at `instant` (milliseconds).
function offset(zone, instant) {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "numeric",
    day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" }).formatToParts(new Date(instant));
  const part = (type) => Number(parts.find((item) => item.type === type).value);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

// The instant a day begins in `zone`, as ISO 8601 (`day` may run past the month's end: Date.UTC carries it).
// The second pass settles days whose offset differs from the one at UTC midnight (DST changes).
export function startOfDay(year, month, day, zone) {
  const wall = Date.UTC(year, month - 1, day);
  const first = wall - offset(zone, wall);
  return new Date(wall - offset(zone, first)).toISOString();
}

export const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

export function fillTimeZones() {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone")
    : ["UTC", "America/New_York", "Europe/London", "Asia/Kolkata", "Asia/Taipei", "Asia/Tokyo"];
  for (const zone of new Set(["UTC", browserZone(), ...zones])) {
    $("tz").append(el("option", zone === browserZone() ? { value: zone, selected: "" } : { value: zone }, zone));
  }
}
