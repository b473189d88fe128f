// The view in the address bar: campaign, date range, time zone, buckets, platform and the health dimension, as the
// fragment (`#campaign=…&from=2026-11-18&to=2026-11-24&tz=Asia/Shanghai&bucket=hour`). Every change of view is
// a history entry, so a view can be bookmarked or shared and Back returns to the previous one.
import { $, el } from "./dom.js";
import { browserZone, dayParts } from "./filters.js";
import { state } from "./state.js";

const choices = {
  bucket: ["day", "hour"], dimension: ["app_version", "os_version", "platform"],
  platform: ["", "ios", "android", "web", "unknown"],
};

// Puts the address's view into the form and the state; what it lacks takes the defaults.
export function readView() {
  const params = new URLSearchParams(location.hash.slice(1));
  state.campaign = params.get("campaign") || null;
  for (const id of ["from", "to"]) $(id).value = dayParts(params.get(id)) ? params.get(id) : "";
  const zone = params.get("tz") || browserZone();
  if (validZone(zone)) {
    if (![...$("tz").options].some((option) => option.value === zone)) $("tz").append(el("option", { value: zone }, zone));
    $("tz").value = zone;
  }
  for (const [id, values] of Object.entries(choices)) {
    $(id).value = values.includes(params.get(id)) ? params.get(id) : values[0];
  }
}

function validZone(zone) {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch (_) {
    return false;
  }
}

// The fragment for the form's view, with `changes` (such as another campaign) applied.
export function viewHash(changes = {}) {
  const view = { campaign: state.campaign, from: $("from").value, to: $("to").value, tz: $("tz").value,
    bucket: $("bucket").value, platform: $("platform").value, dimension: $("dimension").value, ...changes };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(view)) if (value) params.set(key, value);
  return "#" + params;
}

// A new history entry when the view changed; `replace` rewrites the current one (the first view of a visit).
export function recordView(replace = false) {
  const hash = viewHash();
  if (hash === location.hash) return;
  if (replace) history.replaceState(null, "", location.pathname + hash);
  else history.pushState(null, "", location.pathname + hash);
}
