// How numbers read in tables and charts; "–" where the server has no value.

export const percent = (value) => value === null || value === undefined ? "–" : (value * 100).toFixed(1) + "%";
export const number = (value) => value === null || value === undefined ? "–" : Number(value).toLocaleString();
export const seconds = (value) => {
  if (value === null || value === undefined) return "–";
  if (value < 120) return `${value} s`;
  if (value < 7200) return `${Math.round(value / 60)} min`;
  if (value < 172800) return `${Math.round(value / 3600)} h`;
  return `${Math.round(value / 86400)} d`;
};

// The funnel's columns, in the order every table of campaigns or pushes shows them.
export const funnelColumns = [
  { key: "sent", title: "Sent", format: number },
  { key: "displayed_unique", title: "Displayed", format: number },
  { key: "display_rate", title: "Display rate", format: percent },
  { key: "opened_unique", title: "Opened", format: number },
  { key: "open_rate", title: "Open rate", format: percent },
];
