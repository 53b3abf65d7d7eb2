import { methods } from "@/server/http/route";
import { healthzResponse } from "@/server/http/operations";

// GET /healthz - liveness: the process answers (docs/operating.md)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: () => healthzResponse() });
