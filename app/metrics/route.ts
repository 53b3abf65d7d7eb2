import { methods } from "@/server/http/route";
import { metricsResponse } from "@/server/http/operations";

// GET /metrics - Prometheus metrics, for Authorization: Bearer <METRICS_TOKEN> (docs/operating.md)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: (ctx) => metricsResponse(ctx.req) });
