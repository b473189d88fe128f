// Charts, drawn here as SVG (no chart library, no CDN).
import { el } from "./dom.js";
import { number } from "./format.js";

// Charts are drawn at the container's own width, so their 11 px labels stay 11 px on a phone.
const chartWidth = (container, fallback) => Math.max(container.clientWidth || fallback, 260);

// Horizontal bars: [{label, value, second?}].
export function barChart(container, items, options = {}) {
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
export function seriesChart(container, buckets, bucketSize) {
  container.replaceChildren();
  const width = chartWidth(container, 900), height = 180, left = 44, top = 22, bottom = 30, usable = width - left - 8;
  const max = Math.max(1, ...buckets.map((b) => b.displayed_unique));
  // The API lists every bucket of the range, empty ones too: they share the whole width, so the axis spans
  // the range picked however long it is.
  const step = usable / Math.max(buckets.length, 1);
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
  // A pair of bars per bucket, centred in its slot; few buckets make slots wide, not bars.
  const bar = Math.max(Math.min(step * 0.45, 40), 1);
  buckets.forEach((bucket, index) => {
    const x = left + index * step + Math.max(0, (step - 2 * bar) / 2);
    const h1 = height * bucket.displayed_unique / max, h2 = height * bucket.opened_unique / max;
    svg.append(svgNode("rect", { class: "bar", x, y: top + height - h1, width: bar, height: h1 },
      svgNode("title", {}, `${bucket.start}: ${bucket.displayed_unique} displayed`)));
    svg.append(svgNode("rect", { class: "bar second", x: x + bar, y: top + height - h2, width: bar, height: h2 },
      svgNode("title", {}, `${bucket.start}: ${bucket.opened_unique} opened`)));
    if (index % every === 0) {
      svg.append(svgNode("text", { x: left + index * step, y: top + height + 18 }, bucket.start.slice(5, bucketSize === "hour" ? 16 : 10).replace("T", " ")));
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
