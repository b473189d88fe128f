// PushTally dashboard: plain JavaScript, no build step, no CDN. Charts are SVG drawn here.
"use strict";

const TOKEN_KEY = "pushtally.token";
const state = { campaign: null, sort: { key: "sent", dir: -1 }, campaigns: [] };
const $ = (id) => document.getElementById(id);

// A token may arrive in the URL fragment (never sent to the server, so never in its logs); it moves to
// this tab's session storage and leaves the address bar at once.
function takeTokenFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.get("token")) sessionStorage.setItem(TOKEN_KEY, params.get("token"));
  if (params.get("campaign")) state.campaign = params.get("campaign");
  if (params.has("token")) {
    params.delete("token");
    history.replaceState(null, "", location.pathname + (params.toString() ? "#" + params : ""));
  }
}

function token() { return sessionStorage.getItem(TOKEN_KEY); }

function setStatus(text, isError) {
  const status = $("status");
  status.textContent = text || "";
  status.className = isError ? "error" : "";
}

class AuthError extends Error {}

async function api(path, params = {}, format = "json") {
  const query = new URLSearchParams({ ...params, format });
  if (format === "csv") query.set("bom", "1");
  let response;
  try {
    response = await fetch(`${path}?${query}`, { headers: { Authorization: `Bearer ${token()}` } });
  } catch (error) {
    throw new Error("Cannot reach the PushTally server. Is it running?");
  }
  if (response.status === 401 || response.status === 403) {
    throw new AuthError("Your token was refused (expired, revoked, or without the read role). Sign in again.");
  }
  if (!response.ok) {
    let message = `The server answered ${response.status}.`;
    try { message = (await response.json()).message || message; } catch (_) { /* not JSON */ }
    throw new Error(message);
  }
  return format === "csv" ? response : response.json();
}

// Days in the browser's zone; "To" is inclusive, so the range ends where the day after it begins (the API's
// `to` is exclusive).
function filters() {
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
const campaignFilter = () => state.campaign ? { campaign: state.campaign } : {};

const percent = (value) => value === null || value === undefined ? "–" : (value * 100).toFixed(1) + "%";
const number = (value) => value === null || value === undefined ? "–" : Number(value).toLocaleString();
const seconds = (value) => {
  if (value === null || value === undefined) return "–";
  if (value < 120) return `${value} s`;
  if (value < 7200) return `${Math.round(value / 60)} min`;
  if (value < 172800) return `${Math.round(value / 3600)} h`;
  return `${Math.round(value / 86400)} d`;
};

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "onclick") node.addEventListener("click", value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

// A table whose header cells sort it (buttons, so the keyboard works), with formatted cells.
function renderTable(table, columns, rows, options = {}) {
  table.replaceChildren();
  const sort = options.sort;
  const sorted = sort ? [...rows].sort((a, b) => compare(a[sort.key], b[sort.key]) * sort.dir) : rows;
  const head = el("tr");
  for (const column of columns) {
    const th = el("th", { scope: "col" });
    if (sort) {
      if (sort.key === column.key) th.setAttribute("aria-sort", sort.dir > 0 ? "ascending" : "descending");
      th.append(el("button", { type: "button", onclick: () => {
        sort.dir = sort.key === column.key ? -sort.dir : -1;
        sort.key = column.key;
        renderTable(table, columns, rows, options);
      } }, column.title));
    } else {
      th.textContent = column.title;
    }
    head.append(th);
  }
  table.append(el("thead", {}, head));
  const body = el("tbody");
  for (const row of sorted) {
    const tr = el("tr", options.flagged && options.flagged(row) ? { class: "flagged" } : {});
    for (const column of columns) {
      const value = (column.format || ((v) => v ?? "–"))(row[column.key], row);
      tr.append(el("td", {}, value));
    }
    body.append(tr);
  }
  table.append(body);
}

function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return typeof a === "number" ? a - b : String(a).localeCompare(String(b));
}

// Charts are drawn at the container's own width, so their 11 px labels stay 11 px on a phone.
const chartWidth = (container, fallback) => Math.max(container.clientWidth || fallback, 260);

// Horizontal bars: [{label, value, second?}].
function barChart(container, items, options = {}) {
  container.replaceChildren();
  if (!items.length) {
    container.append(el("p", { class: "empty" }, options.empty || "Nothing yet."));
    return;
  }
  const max = Math.max(1, ...items.map((item) => item.value));
  const width = chartWidth(container, 420), rowHeight = 24, labelWidth = Math.min(130, width * 0.35);
  const svg = svgNode("svg", { viewBox: `0 0 ${width} ${items.length * rowHeight + 4}`, role: "img",
    "aria-label": options.label || "bar chart" });
  items.forEach((item, index) => {
    const y = index * rowHeight + 2;
    const barWidth = (width - labelWidth - 90) * item.value / max;
    svg.append(svgNode("text", { x: 0, y: y + 15 }, item.label));
    svg.append(svgNode("rect", { class: "bar" + (item.second ? " second" : ""), x: labelWidth, y, width: Math.max(barWidth, 1),
      height: rowHeight - 6 }));
    svg.append(svgNode("text", { x: labelWidth + barWidth + 4, y: y + 15 }, item.text ?? number(item.value)));
  });
  container.append(svg);
}

// Vertical bars per time bucket: displayed_unique, with opened_unique beside it, a baseline and a legend.
function seriesChart(container, buckets, bucketSize) {
  container.replaceChildren();
  const width = chartWidth(container, 900), height = 180, left = 44, top = 22, bottom = 30, usable = width - left - 8;
  const max = Math.max(1, ...buckets.map((b) => b.displayed_unique));
  const step = Math.min(usable / Math.max(buckets.length, 1), 60);
  const svg = svgNode("svg", { viewBox: `0 0 ${width} ${top + height + bottom}`, role: "img",
    "aria-label": `Unique displays and opens per ${bucketSize}` });
  svg.append(svgNode("rect", { class: "bar", x: left, y: 4, width: 10, height: 10 }));
  svg.append(svgNode("text", { x: left + 14, y: 13 }, "displayed (unique)"));
  svg.append(svgNode("rect", { class: "bar second", x: left + 140, y: 4, width: 10, height: 10 }));
  svg.append(svgNode("text", { x: left + 154, y: 13 }, "opened (unique)"));
  svg.append(svgNode("text", { x: 0, y: top + 10 }, number(max)));
  svg.append(svgNode("text", { x: 0, y: top + height }, "0"));
  svg.append(svgNode("line", { class: "axis", x1: left, y1: top + height, x2: width, y2: top + height }));
  const every = Math.ceil(buckets.length / Math.max(1, Math.floor(usable / 90)));
  buckets.forEach((bucket, index) => {
    const x = left + index * step;
    const h1 = height * bucket.displayed_unique / max, h2 = height * bucket.opened_unique / max;
    svg.append(svgNode("rect", { class: "bar", x, y: top + height - h1, width: Math.max(step * 0.45, 1), height: h1 },
      svgNode("title", {}, `${bucket.start}: ${bucket.displayed_unique} displayed`)));
    svg.append(svgNode("rect", { class: "bar second", x: x + step * 0.45, y: top + height - h2, width: Math.max(step * 0.45, 1), height: h2 },
      svgNode("title", {}, `${bucket.start}: ${bucket.opened_unique} opened`)));
    if (index % every === 0) {
      svg.append(svgNode("text", { x, y: top + height + 18 }, bucket.start.slice(5, bucketSize === "hour" ? 16 : 10).replace("T", " ")));
    }
  });
  container.append(svg);
}

function svgNode(tag, attributes = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

const campaignColumns = [
  { key: "campaign", title: "Campaign", format: (value, row) => row.orphan ? "(unregistered pushes)" :
    el("a", { href: "#campaign=" + encodeURIComponent(value), onclick: (event) => {
      event.preventDefault();
      selectCampaign(value);
    } }, value) },
  { key: "sent", title: "Sent", format: number },
  { key: "displayed_unique", title: "Displayed", format: number },
  { key: "display_rate", title: "Display rate", format: percent },
  { key: "opened_unique", title: "Opened", format: number },
  { key: "open_rate", title: "Open rate", format: percent },
  { key: "unexplained_loss", title: "Unexplained loss", format: number },
  { key: "time_to_display_p50", title: "Median time to display", format: seconds },
  { key: "final", title: "Final", format: (value) => value ? "yes" : "not yet" },
];

const pushColumns = [
  { key: "push_id", title: "Push" },
  { key: "title", title: "Title" },
  { key: "sent_at", title: "Sent at", format: (value) => value ? new Date(value).toLocaleString() : "–" },
  { key: "sent", title: "Sent", format: number },
  { key: "displayed_unique", title: "Displayed", format: number },
  { key: "display_rate", title: "Display rate", format: percent },
  { key: "opened_unique", title: "Opened", format: number },
  { key: "open_rate", title: "Open rate", format: percent },
  { key: "time_to_display_p90", title: "p90 time to display", format: seconds },
];

const versionColumns = [
  { key: "version", title: "Version" },
  { key: "receipts", title: "Receipts", format: number },
  { key: "opens", title: "Opens", format: number },
  { key: "receipt_share", title: "Share of receipts", format: percent },
  { key: "open_share", title: "Share of opens", format: percent },
  { key: "flagged", title: "Extension", format: (value) => value ? "⚠ not posting?" : "ok" },
];

async function loadCampaigns() {
  const report = await api("/v1/reports/campaigns", filters());
  state.campaigns = report.campaigns;
  const filtered = Boolean($("from").value || $("to").value);
  $("campaigns-empty").hidden = report.campaigns.length > 0 || filtered;
  $("campaigns-none-in-range").hidden = report.campaigns.length > 0 || !filtered;
  // Pushes registered but not one receipt: the extension is the first suspect.
  const registered = report.campaigns.filter((row) => !row.orphan);
  $("receipts-empty").hidden = registered.length === 0 || report.campaigns.some((row) => row.displayed > 0);
  renderTable($("campaigns-table"), campaignColumns, report.campaigns, { sort: state.sort });
}

async function loadSeries() {
  const bucket = $("bucket").value, tz = $("tz").value;
  const report = await api("/v1/reports/timeseries", { ...filters(), bucket, tz, ...campaignFilter() });
  const empty = report.buckets.every((row) => !row.displayed && !row.opened);
  $("series-empty").hidden = !empty;
  $("series-chart").hidden = empty;
  if (!empty) seriesChart($("series-chart"), report.buckets, bucket);
}

async function loadVersions() {
  const dimension = $("dimension");
  const report = await api("/v1/reports/versions", { ...filters(), dimension: dimension.value, ...campaignFilter() });
  $("health-title").textContent = "Receipt health by " + dimension.selectedOptions[0].textContent.toLowerCase();
  $("versions-empty").hidden = report.versions.length > 0;
  $("versions-table").hidden = report.versions.length === 0;
  renderTable($("versions-table"), versionColumns, report.versions, { flagged: (row) => row.flagged });
}

async function loadCampaign() {
  const section = $("campaign-detail");
  if (!state.campaign) { section.hidden = true; $("filter-note").hidden = true; return; }
  const report = await api("/v1/reports/campaigns/" + encodeURIComponent(state.campaign), filters());
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
    { label: "Opened", value: row.opened_unique || 0, second: true, text: `${number(row.opened_unique)} (${percent(row.open_rate)})` },
  ], { label: "Funnel" });
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
  renderTable($("pushes-table"), pushColumns, report.pushes, { sort: { key: "sent_at", dir: -1 } });
}

// Each campaign picked is a history entry, so Back returns to the previous view.
function selectCampaign(name) {
  state.campaign = name;
  history.pushState(null, "", location.pathname + (name === null ? "" : "#campaign=" + encodeURIComponent(name)));
  refresh();
}

async function refresh() {
  setStatus("Loading…");
  try {
    await loadCampaigns();
    await Promise.all([loadCampaign(), loadSeries(), loadVersions()]);
    setStatus("");
    document.body.dataset.loaded = "true";
  } catch (error) {
    if (error instanceof AuthError) signOut();
    setStatus(error.message, true);
  }
}

async function downloadCSV(report) {
  const paths = {
    campaigns: ["/v1/reports/campaigns", filters()],
    campaign: ["/v1/reports/campaigns/" + encodeURIComponent(state.campaign || ""), filters()],
    timeseries: ["/v1/reports/timeseries", { ...filters(), bucket: $("bucket").value, tz: $("tz").value, ...campaignFilter() }],
    versions: ["/v1/reports/versions", { ...filters(), dimension: $("dimension").value, ...campaignFilter() }],
  };
  try {
    const response = await api(...paths[report], "csv");
    const name = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "")?.[1] || `${report}.csv`;
    const link = el("a", { href: URL.createObjectURL(await response.blob()), download: name });
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    setStatus(error.message, true);
  }
}

function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  showSignIn();
}

function showSignIn() {
  $("sign-in").hidden = false;
  $("dashboard").hidden = true;
  $("sign-out").hidden = true;
  $("token").focus();
}

function showDashboard() {
  $("sign-in").hidden = true;
  $("dashboard").hidden = false;
  $("sign-out").hidden = false;
  refresh();
}

function fillTimeZones() {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone")
    : ["UTC", "America/New_York", "Europe/London", "Asia/Kolkata", "Asia/Taipei", "Asia/Tokyo"];
  for (const zone of new Set(["UTC", browserZone, ...zones])) {
    $("tz").append(el("option", zone === browserZone ? { value: zone, selected: "" } : { value: zone }, zone));
  }
}

takeTokenFromFragment();
fillTimeZones();
$("sign-in-form").addEventListener("submit", (event) => {
  event.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
  $("token").value = "";
  showDashboard();
});
$("sign-out").addEventListener("click", signOut);
$("all-campaigns").addEventListener("click", () => selectCampaign(null));
window.addEventListener("popstate", () => {
  state.campaign = new URLSearchParams(location.hash.slice(1)).get("campaign");
  refresh();
});
$("filters").addEventListener("submit", (event) => { event.preventDefault(); refresh(); });
$("dimension").addEventListener("change", () => loadVersions().catch((error) => setStatus(error.message, true)));
for (const button of document.querySelectorAll("button.csv")) {
  button.addEventListener("click", () => downloadCSV(button.dataset.report));
}
if (token()) showDashboard(); else showSignIn();
