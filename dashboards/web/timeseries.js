// Displays and opens over time.
import { api } from "./api.js";
import { seriesChart } from "./charts.js";
import { $ } from "./dom.js";
import { campaignFilter, filters } from "./filters.js";

export const seriesParams = () => ({ ...filters(), bucket: $("bucket").value, tz: $("tz").value, ...campaignFilter() });

export async function loadSeries() {
  const params = seriesParams();
  const report = await api("/v1/reports/timeseries", params);
  const empty = report.buckets.every((row) => !row.displayed && !row.opened);
  $("series-empty").hidden = !empty;
  $("series-chart").hidden = empty;
  if (!empty) seriesChart($("series-chart"), report.buckets, params.bucket);
}
