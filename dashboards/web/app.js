// PushTally dashboard: plain JavaScript modules, no build step, no CDN. This one signs in and out, loads the
// views, and wires the page's controls; each view lives in its own module.
import { loadAlerts } from "./alerts.js";
import { loadAttribution } from "./attribution.js";
import { loadAudience } from "./audience.js";
import { loadDevices } from "./devices.js";
import { AuthError, forgetToken, saveToken, takeTokenFromFragment, token } from "./api.js";
import { loadCampaign } from "./campaign-detail.js";
import { columnGroup, loadCampaigns, showColumnGroup } from "./campaigns.js";
import { downloadCSV } from "./csv.js";
import { $, setStatus } from "./dom.js";
import { fillTimeZones } from "./filters.js";
import { showHeadline } from "./headline.js";
import { loadVersions } from "./receipt-health.js";
import { state } from "./state.js";
import { loadSeries } from "./timeseries.js";
import { pickControl } from "./variants.js";
import { readView, recordView, viewHash } from "./view.js";

function selectCampaign(name) {
  state.campaign = name;
  recordView();
  refresh();
}

const campaignHref = (name) => viewHash({ campaign: name });

// `data-loaded` is "true" only while what the page shows matches the last refresh (browser tests wait on it).
// A view asked for while another loads wins: the older one's answers are dropped.
let generation = 0;
async function refresh() {
  const current = ++generation;
  document.body.dataset.loaded = "false";
  setStatus("Loading…");
  try {
    await loadCampaigns(selectCampaign, campaignHref);
    showHeadline();
    await Promise.all([loadAlerts(), loadCampaign(), loadAttribution(), loadAudience(), loadDevices(), loadSeries(), loadVersions()]);
    if (current !== generation) return;
    setStatus("");
    document.body.dataset.loaded = "true";
  } catch (error) {
    if (current !== generation) return;
    if (error instanceof AuthError) signOut();
    setStatus(error.message, true);
  }
}

function signOut() {
  forgetToken();
  showSignIn();
}

function showSignIn() {
  $("sign-in").hidden = false;
  $("dashboard").hidden = true;
  $("sign-out").hidden = true;
  $("token").focus();
}

// The view in the address is kept through sign-in, so a shared link opens on that view.
function showDashboard() {
  $("sign-in").hidden = true;
  $("dashboard").hidden = false;
  $("sign-out").hidden = false;
  recordView(true);
  refresh();
}

takeTokenFromFragment();
fillTimeZones();
readView();
showColumnGroup(columnGroup());
$("sign-in-form").addEventListener("submit", (event) => {
  event.preventDefault();
  saveToken($("token").value.trim());
  $("token").value = "";
  showDashboard();
});
$("sign-out").addEventListener("click", signOut);
$("all-campaigns").addEventListener("click", () => selectCampaign(null));
window.addEventListener("popstate", () => {
  readView();
  if (token()) refresh();
});
$("filters").addEventListener("submit", (event) => {
  event.preventDefault();
  recordView();
  refresh();
});
for (const input of document.querySelectorAll("#column-groups input")) {
  input.addEventListener("change", () => showColumnGroup(input.value));
}
$("variant-control").addEventListener("change", (event) => pickControl(event.target.value)
  .catch((error) => setStatus(error.message, true)));
$("dimension").addEventListener("change", () => {
  recordView();
  loadVersions().catch((error) => setStatus(error.message, true));
});
for (const button of document.querySelectorAll("button.csv")) {
  button.addEventListener("click", () => downloadCSV(button.dataset.report));
}
if (token()) showDashboard(); else showSignIn();
