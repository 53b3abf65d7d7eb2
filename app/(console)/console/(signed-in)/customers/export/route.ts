import { currentSession } from "@/server/auth/session";
import { rangeInput } from "@/server/lib/date-range";
import { customersFileName, exportCustomers } from "@/server/payment-reports/export-customers";
import { AppError } from "@/server/errors";
import { methods } from "@/server/http/route";
import { streamedDownload } from "@/server/http/respond";
import { parseWith } from "@/server/validation";

// GET /console/customers/export?range=30d | ?from=&to= - the range's paying wallets and card payers as CSV, streamed
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => {
    const session = await currentSession();
    const user = session?.user;
    if (!user || user.kind !== "seller" || !user.sellerId) throw new AppError("unauthorized", { detail: "sign in to the seller console" });
    const q = ctx.url.searchParams;
    const from = q.get("from") || undefined;
    const to = q.get("to") || undefined;
    const range = parseWith(rangeInput, from && to ? { preset: "custom", from, to } : { preset: q.get("range") || undefined });
    return streamedDownload(exportCustomers(user.sellerId, range), { contentType: "text/csv; charset=utf-8", fileName: customersFileName(range) });
  },
});
