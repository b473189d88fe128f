// How numbers read in tables and charts; "–" where the server has no value.

export const percent = (value) => value === null || value === undefined ? "–" : (value * 100).toFixed(1) + "%";
export const number = (value) => value === null || value === undefined ? "–" : Number(value).toLocaleString();
// A rate with its 95 % interval, "50.0% (23.7–76.3%)"; the interval only when the server gave one.
export const rateWithInterval = (value, low, high) => value === null || value === undefined ? "–"
  : percent(value) + (low === null || low === undefined || high === null || high === undefined ? ""
    : ` (${(low * 100).toFixed(1)}–${percent(high)})`);
// A relative change, signed: "+60.0%", "-20.0%".
export const lift = (value) => value === null || value === undefined ? "–"
  : (value > 0 ? "+" : value < 0 ? "-" : "") + percent(Math.abs(value));
// Three decimals read as a probability; smaller than that says so rather than "0.000".
export const pValue = (value) => value === null || value === undefined ? "–"
  : value < 0.001 ? "< 0.001" : value.toFixed(3);
// Extension times: milliseconds under a second, else seconds with one decimal.
export const milliseconds = (value) => value === null || value === undefined ? "–"
  : value < 1000 ? `${value} ms` : `${(value / 1000).toFixed(1)} s`;
export const seconds = (value) => {
  if (value === null || value === undefined) return "–";
  if (value < 120) return `${value} s`;
  if (value < 7200) return `${Math.round(value / 60)} min`;
  if (value < 172800) return `${Math.round(value / 3600)} h`;
  return `${Math.round(value / 86400)} d`;
};

// Conversion values: the API's object per currency (`{"EUR": 5, "USD": 9.99}`) as "EUR 5 · USD 9.99", in the
// API's (sorted) order; up to six decimals, as the server keeps millionths.
export const money = (value) => {
  const entries = Object.entries(value || {});
  if (!entries.length) return "–";
  return entries.map(([currency, amount]) => `${currency} ${Number(amount).toLocaleString(undefined, { maximumFractionDigits: 6 })}`)
    .join(" · ");
};

// Sends, unique displays and the display rate, then, once FCM's export was imported, its deliveries and the
// share of them shown beside the display rate.
export const deliveryColumns = (fcm) => [
  { key: "sent", title: "Sent", format: number },
  { key: "displayed_unique", title: "Displayed", format: number },
  { key: "display_rate", title: "Display rate", format: percent },
  ...(fcm ? [
    { key: "device_delivered", title: "Delivered (FCM)", format: number },
    { key: "displayed_of_delivered", title: "Shown of delivered", format: percent },
  ] : []),
];

// Any FCM figure counts: an export of acceptances and errors alone shows its zero deliveries too.
export const hasFCM = (rows) => rows.some((row) => row.device_delivered > 0 || row.fcm_accepted > 0 || row.fcm_failed > 0);

const openColumns = [
  { key: "opened_unique", title: "Opened", format: number },
  { key: "open_rate", title: "Open rate", format: percent },
];

// The funnel's columns, in the order every table of campaigns or pushes shows them.
export const funnelColumns = [...deliveryColumns(false), ...openColumns];

// The funnel with FCM's figures where the rows have some.
export const funnelColumnsFor = (rows) => [...deliveryColumns(hasFCM(rows)), ...openColumns];

// What pushes caused, after the funnel in the same tables: influenced opens, conversions and their value.
export const outcomeColumns = [
  { key: "influenced_opens", title: "Influenced opens", format: number },
  { key: "influenced_open_rate", title: "Influenced rate", format: percent },
  { key: "conversions", title: "Conversions", format: number },
  { key: "conversions_direct", title: "Direct conv.", format: number },
  { key: "conversions_influenced", title: "Influenced conv.", format: number },
  // Amounts in different currencies do not add up, so the column sorts by its text.
  { key: "conversion_value", title: "Conversion value", format: money, sortValue: money },
];
