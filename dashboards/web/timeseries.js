// Displays and opens over time, drawn again at the new width when the window changes size.
import { api } from "./api.js";
import { seriesChart } from "./charts.js";
import { $ } from "./dom.js";
import { campaignFilter, filters, platformFilter } from "./filters.js";

export const seriesParams = () => ({
  ...filters(), bucket: $("bucket").value, tz: $("tz").value, ...campaignFilter(), ...platformFilter(),
});

let drawn = null;

export async function loadSeries() {
  const params = seriesParams();
  const report = await api("/v1/reports/timeseries", params);
  const empty = report.buckets.every((row) => !row.displayed && !row.opened);
  $("series-empty").hidden = !empty;
  $("series-chart").hidden = empty;
  drawn = empty ? null : { buckets: report.buckets, bucket: params.bucket };
  if (drawn) seriesChart($("series-chart"), drawn.buckets, drawn.bucket);
}

let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => { if (drawn) seriesChart($("series-chart"), drawn.buckets, drawn.bucket); }, 150);
});
