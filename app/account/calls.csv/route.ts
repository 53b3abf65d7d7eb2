import { currentSession } from "@/server/auth/session";
import { exportAccountCsv } from "@/server/budgets/export-account-csv";
import { AppError } from "@/server/errors";
import { methods } from "@/server/http/route";

export const dynamic = "force-dynamic";

// GET /account/calls.csv - the signed-in person's paid calls at this storefront, with their receipt links
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => {
    const s = await currentSession();
    if (s?.user.kind !== "human" || !s.user.id) throw new AppError("unauthorized", { detail: "sign in at /account first" });
    const csv = await exportAccountCsv((await ctx.seller()).id, s.user.id, ctx.origin);
    return new Response(csv, {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="paid-calls.csv"', "cache-control": "no-store" },
    });
  },
});
