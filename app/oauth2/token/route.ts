import { readForm } from "@/server/http/parse";
import { json } from "@/server/http/respond";
import { methods } from "@/server/http/route";
import { exchangeToken } from "@/server/identity/exchange-token";

// POST /oauth2/token - RFC 7523 jwt-bearer: exchange the identity assertion for a short-lived access token
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    const seller = await ctx.seller();
    const token = await exchangeToken(await readForm(ctx.req), { sellerId: seller.id, origin: ctx.origin });
    return json(token, { headers: { "cache-control": "no-store", pragma: "no-cache" } });
  },
});
