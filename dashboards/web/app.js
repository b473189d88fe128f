// PushTally dashboard: plain JavaScript modules, no build step, no CDN. This one signs in and out, loads the
// views, and wires the page's controls; each view lives in its own module.
import { loadAlerts } from "./alerts.js";
import { loadAttribution } from "./attribution.js";
import { AuthError, forgetToken, saveToken, takeTokenFromFragment, token } from "./api.js";
import { loadCampaign } from "./campaign-detail.js";
import { loadCampaigns } from "./campaigns.js";
import { downloadCSV } from "./csv.js";
import { $, setStatus } from "./dom.js";
import { fillTimeZones } from "./filters.js";
import { loadVersions } from "./receipt-health.js";
import { state } from "./state.js";
import { loadSeries } from "./timeseries.js";
import { pickControl } from "./variants.js";

// Each campaign picked is a history entry, so Back returns to the previous view.
function selectCampaign(name) {
  state.campaign = name;
  history.pushState(null, "", location.pathname + (name === null ? "" : "#campaign=" + encodeURIComponent(name)));
  refresh();
}

// `data-loaded` is "true" only while what the page shows matches the last refresh (browser tests wait on it).
async function refresh() {
  document.body.dataset.loaded = "false";
  setStatus("Loading…");
  try {
    await loadCampaigns(selectCampaign);
    await Promise.all([loadAlerts(), loadCampaign(), loadAttribution(), loadSeries(), loadVersions()]);
    setStatus("");
    document.body.dataset.loaded = "true";
  } catch (error) {
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

function showDashboard() {
  $("sign-in").hidden = true;
  $("dashboard").hidden = false;
  $("sign-out").hidden = false;
  refresh();
}

takeTokenFromFragment();
fillTimeZones();
$("sign-in-form").addEventListener("submit", (event) => {
  event.preventDefault();
  saveToken($("token").value.trim());
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
$("variant-control").addEventListener("change", (event) => pickControl(event.target.value)
  .catch((error) => setStatus(error.message, true)));
$("dimension").addEventListener("change", () => loadVersions().catch((error) => setStatus(error.message, true)));
for (const button of document.querySelectorAll("button.csv")) {
  button.addEventListener("click", () => downloadCSV(button.dataset.report));
}
if (token()) showDashboard(); else showSignIn();
