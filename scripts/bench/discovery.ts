// Discovery latency and throughput over HTTP: the documents agents fetch first.
import autocannon from "autocannon";
import type { BenchContext } from "./types";

async function sequential(url: string, n: number, headers: Record<string, string> = {}, expect = 200): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== expect) throw new Error(`${url}: HTTP ${res.status}, expected ${expect}`);
    samples.push(performance.now() - t);
  }
  return samples;
}

async function throughput(url: string, seconds = 5, headers: Record<string, string> = {}, expect = 200): Promise<number> {
  const result = await autocannon({ url, connections: 10, duration: seconds, headers });
  // 304 is the only 3xx these routes answer.
  const unexpected = expect === 200 ? result.non2xx : result["2xx"] + (result.non2xx - result["3xx"]) + result.errors;
  if (unexpected > 0) throw new Error(`${url}: ${unexpected} answers other than ${expect} under load`);
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
  // What an agent that re-reads the manifest before each call pays once it holds the ETag: a 304, no body.
  const url = `${ctx.baseUrl}/manifest.json`;
  const etag = (await fetch(url)).headers.get("etag");
  if (!etag) throw new Error("/manifest.json has no ETag");
  const ifNoneMatch = { "if-none-match": etag };
  await sequential(url, 20, ifNoneMatch, 304);
  ctx.record("discovery GET /manifest.json revalidated (304)", await sequential(url, 200, ifNoneMatch, 304), {
    rps_10conn: await throughput(url, 4, ifNoneMatch, 304),
  });
  ctx.ratio("manifest revalidation vs full fetch", "discovery GET /manifest.json revalidated (304)", "discovery GET /manifest.json");
}
