import { currentSession } from "@/server/auth/session";
import { AppError } from "@/server/errors";
import { methods } from "@/server/http/route";
import { streamedDownload } from "@/server/http/respond";
import { exportSellerRefunds, refundsFileName } from "@/server/payment-reports/export-seller-refunds";
import { refundFilter, refundFilterFromSearch } from "@/server/payment-reports/refund-filter";
import { parseWith } from "@/server/validation";

// GET /console/refunds/export?status=&rail=&from=&to= - the filtered refunds as CSV, streamed
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => {
    const session = await currentSession();
    const user = session?.user;
    if (!user || user.kind !== "seller" || !user.sellerId) throw new AppError("unauthorized", { detail: "sign in to the seller console" });
    const filter = parseWith(refundFilter, refundFilterFromSearch(ctx.url.searchParams));
    return streamedDownload(exportSellerRefunds(user.sellerId, filter), { contentType: "text/csv; charset=utf-8", fileName: refundsFileName(filter) });
  },
});
