import { json } from "@/server/http/respond";
import { readJson } from "@/server/http/parse";
import { methods } from "@/server/http/route";
import { registerIdentity } from "@/server/identity/register-identity";

// POST /agent/identity - register an agent credential (anonymous, service_auth, identity_assertion) or refresh one
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  POST: async (ctx) => {
    const seller = await ctx.seller();
    const res = await registerIdentity(await readJson(ctx.req), { sellerId: seller.id, origin: ctx.origin, client: ctx.clientAddress });
    return json(res.body, { status: res.status, headers: { "cache-control": "no-store" } });
  },
});
