// The operator's endpoints, rendered: liveness, readiness and the Prometheus metrics (docs/operating.md).
import { timingSafeEqual } from "node:crypto";
import { env } from "../env";
import { AppError } from "../errors";
import { readiness } from "../observability/health";
import { renderMetrics } from "../observability/metrics";
import { json } from "./respond";

const NO_STORE = { "cache-control": "no-store" };

/** GET /healthz: the process answers; nothing else is checked (a restart is the only cure for a process that does not). */
export function healthzResponse(): Response {
  return json({ status: "ok" }, { headers: NO_STORE });
}

/** GET /readyz: 200 when this instance can serve (PostgreSQL, migrations, chain RPC), 503 with the failing check otherwise. */
export async function readyzResponse(): Promise<Response> {
  const r = await readiness();
  return json({ status: r.ready ? "ready" : "not_ready", checks: r.checks }, { status: r.ready ? 200 : 503, headers: NO_STORE });
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics: Prometheus text format for `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN the endpoint
 * does not exist (404): metrics name operations and volumes, which are not for the public.
 */
export async function metricsResponse(req: Request): Promise<Response> {
  const token = env().METRICS_TOKEN;
  if (!token) throw new AppError("not_found", { detail: "metrics are off: set METRICS_TOKEN to serve them" });
  const given = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "")?.[1];
  if (!given || !sameToken(given, token))
    throw new AppError("unauthorized", { detail: "send Authorization: Bearer <METRICS_TOKEN>", headers: { "www-authenticate": 'Bearer realm="metrics"' } });
  const { body, contentType } = await renderMetrics();
  return new Response(body, { headers: { "content-type": contentType, ...NO_STORE } });
}
