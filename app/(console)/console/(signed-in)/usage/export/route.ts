import { currentSession } from "@/server/auth/session";
import { AppError } from "@/server/errors";
import { methods } from "@/server/http/route";
import { streamedDownload } from "@/server/http/respond";
import { exportSellerUsage } from "@/server/payment-reports/export-seller-usage";
import { paymentFilter, paymentFilterFromSearch } from "@/server/payment-reports/payment-filter";
import { parseWith } from "@/server/validation";

// GET /console/usage/export?operation=&q=&from=&to= - the draws on prepaid credit the Usage page's filters select, as CSV, streamed
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => {
    const session = await currentSession();
    const user = session?.user;
    if (!user || user.kind !== "seller" || !user.sellerId) throw new AppError("unauthorized", { detail: "sign in to the seller console" });
    const filter = parseWith(paymentFilter, { ...paymentFilterFromSearch(ctx.url.searchParams), usage: true });
    const day = new Date().toISOString().slice(0, 10);
    return streamedDownload(exportSellerUsage(user.sellerId, filter), {
      contentType: "text/csv; charset=utf-8",
      fileName: `usage-${filter.from ?? "start"}-to-${filter.to ?? day}.csv`,
    });
  },
});
