import { methods } from "@/server/http/route";
import { readyzResponse } from "@/server/http/operations";

// GET /readyz - readiness: PostgreSQL reachable and migrated, the chain RPC reachable (docs/operating.md)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: () => readyzResponse() });
