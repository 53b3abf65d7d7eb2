import { openApiResponse } from "@/server/http/discovery";
import { methods } from "@/server/http/route";

// GET /services/{slug}/openapi.json - the OpenAPI document restricted to one service
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: (ctx) => openApiResponse(ctx, String(ctx.params.slug)),
});
