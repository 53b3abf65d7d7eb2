// What every bench case shares: a timed call (with its Server-Timing phases), n calls at a given concurrency, the
// profile windows `npm run profile:summary` reads, and percentiles.
import fs from "node:fs";
import path from "node:path";

export type Phases = Map<string, number[]>;

export async function timed(fn: () => Promise<Response>, expect: number, phases?: Phases): Promise<number> {
  const t = performance.now();
  const res = await fn();
  if (phases)
    for (const part of (res.headers.get("server-timing") ?? "").split(",")) {
      const m = /^\s*(\w+);dur=([\d.]+)/.exec(part);
      if (m) phases.set(m[1]!, [...(phases.get(m[1]!) ?? []), Number(m[2])]);
    }
  await res.arrayBuffer();
  if (res.status !== expect) throw new Error(`expected HTTP ${expect}, got ${res.status}`);
  return performance.now() - t;
}

/** n calls, `concurrency` at a time; returns latencies and requests per second. */
export async function pool(n: number, concurrency: number, call: (i: number) => Promise<number>): Promise<{ samples: number[]; rps: number }> {
  const samples: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) samples.push(await call(next++));
    }),
  );
  return { samples, rps: Math.round((n / (performance.now() - t0)) * 1000) };
}

/** With SERVER_CPU_PROF=<dir>, note the load's window for `npm run profile:summary` . */
export async function profileWindow<T>(name: string, calls: number, run: () => Promise<T>): Promise<T> {
  const dir = process.env.SERVER_CPU_PROF;
  if (!dir) return run();
  const startUs = Number(process.hrtime.bigint() / 1000n);
  const result = await run();
  const endUs = Number(process.hrtime.bigint() / 1000n);
  const file = path.join(dir, "windows.json");
  const windows = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : [];
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify([...windows, { name, calls, startUs, endUs }], null, 2));
  return result;
}

export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil((p / 100) * xs.length) - 1))] ?? NaN;

/** The medians of a paid case's Server-Timing phases, and its own time's p50 and p99. */
export function breakdown(phases: Phases): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of phases) if (k !== "own") out[`${k}_p50_ms`] = pct(v, 50).toFixed(2);
  const own = phases.get("own") ?? [];
  out.own_p50_ms = pct(own, 50).toFixed(2);
  out.own_p99_ms = pct(own, 99).toFixed(2);
  return out;
}

/**
 * Two cases' throughput beside each other: both warmed with `warm` calls at `concurrency` (the JIT keeps optimising a
 * route for its first thousand or so calls: a load of 150 calls right after 20 warm-up calls measures compilation as
 * much as the route), then run alternately for `rounds` rounds of `n` calls each, the order swapped every round. Rates
 * are of the totals; `ratio` is b's rate over a's, and each round's ratio is kept so a run shows its spread.
 */
export async function alternate(
  a: { call: () => Promise<number> },
  b: { call: () => Promise<number> },
  opts: { n: number; rounds: number; warm: number; concurrency: number },
): Promise<{ a: number; b: number; ratio: number; rounds: number[] }> {
  await pool(opts.warm, opts.concurrency, a.call);
  await pool(opts.warm, opts.concurrency, b.call);
  const ms = { a: 0, b: 0 };
  const rounds: number[] = [];
  for (let r = 0; r < opts.rounds; r++) {
    const t = { a: 0, b: 0 };
    // ABBA: each case goes first in every other round, so neither always inherits the other's garbage or cold caches.
    for (const k of r % 2 === 0 ? (["a", "b"] as const) : (["b", "a"] as const)) {
      const t0 = performance.now();
      await pool(opts.n, opts.concurrency, (k === "a" ? a : b).call);
      t[k] = performance.now() - t0;
      ms[k] += t[k];
    }
    rounds.push(t.a / t.b);
  }
  const rate = (total: number) => Math.round(((opts.n * opts.rounds) / total) * 1000);
  return { a: rate(ms.a), b: rate(ms.b), ratio: ms.a / ms.b, rounds };
}

/** How a bench row prints `alternate`'s result (b's rate over a's): both rates, the ratio, and each round's. */
export function alternatingFields(r: Awaited<ReturnType<typeof alternate>>): Record<string, string> {
  return {
    rps_alternating: `${r.b}/${r.a}`,
    rps_vs_direct_alternating: r.ratio.toFixed(2),
    alternating_rounds: r.rounds.map((x) => x.toFixed(2)).join("/"),
  };
}
