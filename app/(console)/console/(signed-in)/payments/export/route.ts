import { currentSession } from "@/server/auth/session";
import { AppError } from "@/server/errors";
import { methods } from "@/server/http/route";
import { streamedDownload } from "@/server/http/respond";
import { exportFileName, exportSellerPayments } from "@/server/payment-reports/export-seller-payments";
import { paymentFilter, paymentFilterFromSearch } from "@/server/payment-reports/payment-filter";
import { parseWith } from "@/server/validation";

// GET /console/payments/export?status=&rail=&operation=&payer=&from=&to=&challenged=1 - the filtered payments as CSV, streamed
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = methods({
  GET: async (ctx) => {
    const session = await currentSession();
    const user = session?.user;
    if (!user || user.kind !== "seller" || !user.sellerId) throw new AppError("unauthorized", { detail: "sign in to the seller console" });
    const filter = parseWith(paymentFilter, paymentFilterFromSearch(ctx.url.searchParams));
    return streamedDownload(exportSellerPayments(user.sellerId, filter), { contentType: "text/csv; charset=utf-8", fileName: exportFileName(filter) });
  },
});
