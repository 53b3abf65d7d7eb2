// Discovery latency and throughput over HTTP: the documents agents fetch first.
import autocannon from "autocannon";
import type { BenchContext } from "./types";

async function sequential(url: string, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status}`);
    samples.push(performance.now() - t);
  }
  return samples;
}

async function throughput(url: string, seconds = 5): Promise<number> {
  const result = await autocannon({ url, connections: 10, duration: seconds });
  if (result.non2xx > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers under load`);
  return Math.round(result.requests.average);
}

export async function run(ctx: BenchContext) {
  const cases: [string, string][] = [
    ["discovery GET /manifest.json", "/manifest.json"],
    ["discovery GET /openapi.json (page 1)", "/openapi.json"],
    ["discovery GET /openapi.json?q=treasury interest", "/openapi.json?q=treasury%20interest"],
    ["discovery GET /vendor/agent/guide", "/vendor/agent/guide?goal=daily%20stock%20prices"],
  ];
  for (const [name, path] of cases) {
    const url = `${ctx.baseUrl}${path}`;
    await sequential(url, 20); // warm-up
    const samples = await sequential(url, 200);
    ctx.record(name, samples, { rps_10conn: await throughput(url, 4) });
  }
}
