import { openApiResponse } from "@/server/http/discovery";
import { methods } from "@/server/http/route";

// GET /openapi.json - OpenAPI 3.1 of the whole storefront; filters q, path, method, service, page
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({ GET: (ctx) => openApiResponse(ctx) });
