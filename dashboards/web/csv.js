// "Download CSV": the same report and filters as the view above the button, as a file (with BOM, for Excel).
import { api } from "./api.js";
import { campaignParams, campaignPath } from "./campaign-detail.js";
import { el, setStatus } from "./dom.js";
import { filters, platformFilter } from "./filters.js";
import { versionsParams } from "./receipt-health.js";
import { seriesParams } from "./timeseries.js";
import { variantsParams, variantsPath } from "./variants.js";

export async function downloadCSV(report) {
  const paths = {
    campaigns: ["/v1/reports/campaigns", { ...filters(), ...platformFilter() }],
    campaign: [campaignPath(), campaignParams()],
    timeseries: ["/v1/reports/timeseries", seriesParams()],
    versions: ["/v1/reports/versions", versionsParams()],
    attribution: ["/v1/reports/attribution", filters()],
    audience: ["/v1/reports/audience", filters()],
    devices: ["/v1/reports/devices", {}],
    variants: [variantsPath(), variantsParams()],
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
