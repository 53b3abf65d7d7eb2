import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";
import { authorizationServerMetadata } from "@/server/identity/discovery";

// GET /.well-known/oauth-authorization-server - RFC 8414 metadata with the agent_auth block
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => {
    const seller = await ctx.seller();
    return json(await authorizationServerMetadata({ sellerId: seller.id, origin: ctx.origin }), { headers: { "cache-control": "public, max-age=300" } });
  },
});
