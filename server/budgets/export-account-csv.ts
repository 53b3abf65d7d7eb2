// The person's paid calls at one storefront as CSV (RFC 4180): one row per charged call, with the link to its receipt.
import { microsToUsd } from "../lib/money";
import { findPaidCalls } from "./account.queries";

const HEADER = ["paid_at", "payment_id", "agent_credential", "rail", "operation", "path", "query", "amount_usd", "receipt_url"];

/** A field quoted when it holds a comma, quote or line break; a leading = + - @ is prefixed so a spreadsheet shows text. */
function field(v: string): string {
  const safe = /^[=+\-@]/.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export async function exportAccountCsv(sellerId: string, humanId: string, origin: string): Promise<string> {
  const rows = await findPaidCalls(sellerId, humanId, { limit: 100_000 });
  const lines = [HEADER.join(",")];
  for (const r of rows)
    lines.push(
      [
        r.at.toISOString(),
        r.paymentId,
        r.credentialId,
        r.rail,
        r.operationKey,
        r.path,
        r.query,
        microsToUsd(r.micros),
        r.hasReceipt ? `${origin}/payments/${r.paymentId}/receipt` : "",
      ]
        .map(field)
        .join(","),
    );
  return lines.join("\r\n") + "\r\n";
}
