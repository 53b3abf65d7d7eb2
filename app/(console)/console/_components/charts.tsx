"use client";

// The console's charts (recharts, a charting library for React). They draw in the browser once the page has its data;
// each is paired with the same numbers as a table (for screen readers, exact values and copying), so a chart never holds
// a figure the page does not also print.
import { Bar, BarChart, CartesianGrid, Cell, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { count, fitAxis, plot, usd, type AxisLabel } from "./format";

const AXIS = { fontSize: 12, fill: "#475569" };

type RevenuePoint = { bucket: string; netUsd: string; calls: number; previousBucket?: string; previousNetUsd?: string };

/** Net revenue per day (or per hour for a single day), with the previous period's as a dashed line. */
export function RevenueChart({ series, bucket }: { series: RevenuePoint[]; bucket: "hour" | "day" }) {
  const data = series.map((s) => ({
    label: bucket === "hour" ? `${s.bucket.slice(11, 13)}h` : s.bucket.slice(5),
    net: plot(s.netUsd),
    previous: s.previousNetUsd === undefined ? null : plot(s.previousNetUsd),
    exact: s.netUsd,
    previousExact: s.previousNetUsd,
    previousBucket: s.previousBucket,
    calls: s.calls,
  }));
  return (
    <figure data-testid="chart-revenue" aria-label={`Net revenue per ${bucket}, with the previous period`} className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" minTickGap={12} />
          <YAxis tick={AXIS} width={56} tickFormatter={(v: number) => `$${v}`} />
          <Tooltip
            formatter={(_v, name, item) => {
              const p = item.payload as { exact: string; previousExact?: string; previousBucket?: string };
              return name === "previous" ? [usd(p.previousExact), `Previous period (${p.previousBucket ?? ""})`] : [usd(p.exact), "Net revenue"];
            }}
            labelFormatter={(l) => (bucket === "hour" ? `Hour ${String(l)} UTC` : `${String(l)} (UTC)`)}
          />
          <Bar dataKey="net" name="net" fill="#4f46e5" radius={[3, 3, 0, 0]} isAnimationActive={false} />
          <Line dataKey="previous" name="previous" stroke="#64748b" strokeDasharray="4 3" dot={false} isAnimationActive={false} />
        </ComposedChart>
      </ResponsiveContainer>
    </figure>
  );
}

const CATEGORY_WIDTH = 130;

const plainLabel = (name: string): AxisLabel => ({ short: fitAxis(name), full: name });

/** A category tick drawn from its AxisLabel: the short words, the full ones as the SVG's hover title. */
function CategoryTick(props: { x?: number | string; y?: number | string; payload?: { value?: unknown }; labelOf: (name: string) => AxisLabel }) {
  const l = props.labelOf(String(props.payload?.value ?? ""));
  return (
    <g transform={`translate(${Number(props.x ?? 0)},${Number(props.y ?? 0)})`} data-testid="axis-label" data-operation={l.operation}>
      <title>{l.full}</title>
      <text x={-4} dy={4} textAnchor="end" fontSize={AXIS.fontSize} fill={AXIS.fill}>
        {l.short}
      </text>
    </g>
  );
}

/** Net revenue per operation (or rail), most first. `labelOf` names a bar from its row's `name`. */
export function RevenueBarsChart({
  rows,
  testId,
  label,
  labelOf = plainLabel,
}: {
  rows: { name: string; netUsd: string }[];
  testId: string;
  label: string;
  labelOf?: (name: string) => AxisLabel;
}) {
  const data = rows.map((r) => ({ name: r.name, net: plot(r.netUsd), exact: r.netUsd }));
  return (
    <figure data-testid={testId} aria-label={label} className="w-full" style={{ height: Math.max(120, rows.length * 34 + 24) }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e2e8f0" />
          <XAxis type="number" tick={AXIS} tickFormatter={(v: number) => `$${v}`} />
          <YAxis type="category" dataKey="name" tick={(p: object) => <CategoryTick {...p} labelOf={labelOf} />} width={CATEGORY_WIDTH} />
          <Tooltip
            formatter={(_v, _n, item) => [usd((item.payload as { exact: string }).exact), "Net revenue"]}
            labelFormatter={(l) => labelOf(String(l)).full}
          />
          <Bar dataKey="net" fill="#4f46e5" radius={[0, 3, 3, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

/** Paid calls per operation, most first. `labelOf` names a bar from its operation's key. */
export function CallsByOperationChart({
  rows,
  labelOf = plainLabel,
}: {
  rows: { operation: string; calls: number }[];
  labelOf?: (operation: string) => AxisLabel;
}) {
  const height = Math.max(120, rows.length * 34 + 24);
  return (
    <figure data-testid="chart-calls-by-operation" aria-label="Paid calls per operation" className="w-full" style={{ height }}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" margin={{ top: 0, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} stroke="#e2e8f0" />
          <XAxis type="number" tick={AXIS} allowDecimals={false} />
          <YAxis type="category" dataKey="operation" tick={(p: object) => <CategoryTick {...p} labelOf={labelOf} />} width={CATEGORY_WIDTH} />
          <Tooltip formatter={(v) => [count(Number(v)), "Paid calls"]} labelFormatter={(l) => labelOf(String(l)).full} />
          <Bar dataKey="calls" fill="#0ea5e9" radius={[0, 3, 3, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

const FUNNEL_COLORS = ["#94a3b8", "#6366f1", "#4f46e5", "#4338ca", "#059669"];

/** The funnel's stages as bars, left to right (each a subset of the one before). */
export function FunnelChart({ steps }: { steps: { label: string; count: number }[] }) {
  return (
    <figure data-testid="chart-funnel" aria-label="402 funnel stages" className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={steps} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={AXIS} interval={0} />
          <YAxis tick={AXIS} allowDecimals={false} width={48} />
          <Tooltip formatter={(v) => [count(Number(v)), "Count"]} />
          <Bar dataKey="count" radius={[3, 3, 0, 0]} isAnimationActive={false}>
            {steps.map((s, i) => (
              <Cell key={s.label} fill={FUNNEL_COLORS[i % FUNNEL_COLORS.length]} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}

const METER_COLORS = ["#4f46e5", "#0ea5e9", "#059669", "#f59e0b", "#db2777", "#64748b", "#7c3aed", "#0891b2", "#65a30d"];

/** Served calls per meter per day, stacked (charged and drawn on prepaid credit alike). */
export function MeterUsageChart({ days, meters }: { days: { day: string; calls: Record<string, number> }[]; meters: string[] }) {
  const data = days.map((d) => ({ label: d.day.slice(5), ...d.calls }));
  return (
    <figure data-testid="chart-meter-usage" aria-label="Served calls per meter per day" className="h-64 w-full">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e2e8f0" />
          <XAxis dataKey="label" tick={AXIS} interval="preserveStartEnd" minTickGap={12} />
          <YAxis tick={AXIS} width={40} allowDecimals={false} />
          <Tooltip formatter={(v, name) => [count(Number(v)), String(name)]} labelFormatter={(l) => `${String(l)} (UTC)`} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {meters.map((m, i) => (
            <Bar key={m} dataKey={m} stackId="calls" fill={METER_COLORS[i % METER_COLORS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
