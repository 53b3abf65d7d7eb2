import { revokeToken } from "@/server/controls/revoke-token";
import { readForm } from "@/server/http/parse";
import { methods } from "@/server/http/route";

// POST /oauth2/revoke - RFC 7009: revoke an agent's access or refresh token (and with it the credential, for good)
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    const seller = await ctx.seller();
    await revokeToken(await readForm(ctx.req), { sellerId: seller.id });
    return new Response(null, { status: 200, headers: { "cache-control": "no-store", pragma: "no-cache" } });
  },
});
