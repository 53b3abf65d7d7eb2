// The backtest report: the equity curve against buy-and-hold as an SVG string, rasterised to PNG by resvg.
// resvg draws no text without a font file, so a DejaVu Sans TTF from the dejavu-fonts-ttf package is passed
// explicitly (system fonts are not loaded: the output is the same on every machine).
import path from "node:path";
import { Resvg } from "@resvg/resvg-js";

export type ChartInput = {
  title: string;
  subtitle: string;
  dates: string[];
  strategy: number[];
  buyHold: number[];
  strategyLabel: string;
};

const W = 1200;
const H = 600;
const PAD = { left: 90, right: 30, top: 80, bottom: 60 };

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function fmtMoney(n: number): string {
  if (Math.abs(n) >= 1e9) return `$${(n / 1e9).toFixed(1)}B`;
  if (Math.abs(n) >= 1e6) return `$${(n / 1e6).toFixed(1)}M`;
  if (Math.abs(n) >= 1e4) return `$${(n / 1e3).toFixed(0)}k`;
  return `$${n.toFixed(0)}`;
}

/** At most `max` points, keeping the first and the last. */
function thin(n: number, max: number): number[] {
  if (n <= max) return Array.from({ length: n }, (_, i) => i);
  const step = (n - 1) / (max - 1);
  return Array.from({ length: max }, (_, i) => Math.round(i * step));
}

export function equityChartSvg(c: ChartInput): string {
  const n = c.dates.length;
  const all = [...c.strategy, ...c.buyHold];
  let lo = Math.min(...all);
  let hi = Math.max(...all);
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (hi - lo < 1e-9) [lo, hi] = [lo * 0.95, hi * 1.05 + 1];
  const pw = W - PAD.left - PAD.right;
  const ph = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (n > 1 ? (i / (n - 1)) * pw : pw / 2);
  const y = (v: number) => PAD.top + (1 - (v - lo) / (hi - lo)) * ph;
  const idx = thin(n, pw);
  const line = (vals: number[]) => idx.map((i, k) => `${k ? "L" : "M"}${x(i).toFixed(1)},${y(vals[i]!).toFixed(1)}`).join("");

  const grid: string[] = [];
  for (let k = 0; k <= 5; k++) {
    const v = lo + ((hi - lo) * k) / 5;
    grid.push(`<line x1="${PAD.left}" y1="${y(v).toFixed(1)}" x2="${W - PAD.right}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/>`);
    grid.push(`<text x="${PAD.left - 10}" y="${(y(v) + 5).toFixed(1)}" text-anchor="end" font-size="14" fill="#4b5563">${esc(fmtMoney(v))}</text>`);
  }
  const ticks = n ? thin(n, 6) : [];
  ticks.forEach((i, k) => {
    // The end labels are anchored inwards so they are not cut off at the image edge.
    const anchor = ticks.length > 1 && k === 0 ? "start" : ticks.length > 1 && k === ticks.length - 1 ? "end" : "middle";
    grid.push(`<text x="${x(i).toFixed(1)}" y="${H - PAD.bottom + 24}" text-anchor="${anchor}" font-size="14" fill="#4b5563">${esc(c.dates[i]!)}</text>`);
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans">
<rect width="${W}" height="${H}" fill="#ffffff"/>
<text x="${PAD.left}" y="36" font-size="22" font-weight="bold" fill="#111827">${esc(c.title)}</text>
<text x="${PAD.left}" y="60" font-size="15" fill="#4b5563">${esc(c.subtitle)}</text>
${grid.join("\n")}
<rect x="${PAD.left}" y="${PAD.top}" width="${pw}" height="${ph}" fill="none" stroke="#9ca3af"/>
${n ? `<path d="${line(c.buyHold)}" fill="none" stroke="#9ca3af" stroke-width="2"/>` : ""}
${n ? `<path d="${line(c.strategy)}" fill="none" stroke="#2563eb" stroke-width="2.5"/>` : ""}
<line x1="${W - PAD.right - 430}" y1="31" x2="${W - PAD.right - 400}" y2="31" stroke="#2563eb" stroke-width="3"/>
<text x="${W - PAD.right - 392}" y="36" font-size="14" fill="#111827">${esc(c.strategyLabel)}</text>
<line x1="${W - PAD.right - 430}" y1="55" x2="${W - PAD.right - 400}" y2="55" stroke="#9ca3af" stroke-width="3"/>
<text x="${W - PAD.right - 392}" y="60" font-size="14" fill="#111827">Buy and hold</text>
</svg>`;
}

function fontFile(): string {
  return path.join(process.env.MARKET_DATA_ROOT ?? process.cwd(), "node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf");
}

export function renderEquityChartPng(c: ChartInput): Buffer {
  const resvg = new Resvg(equityChartSvg(c), {
    font: { fontFiles: [fontFile()], loadSystemFonts: false, defaultFontFamily: "DejaVu Sans" },
    fitTo: { mode: "original" },
  });
  return resvg.render().asPng();
}
