import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";
import { protectedResourceMetadata } from "@/server/identity/discovery";

// GET /.well-known/oauth-protected-resource - RFC 9728 protected resource metadata
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => {
    await ctx.seller();
    return json(protectedResourceMetadata({ origin: ctx.origin }), { headers: { "cache-control": "public, max-age=300" } });
  },
});
