// A rail that exists only in tests: vouchers. A 402 offers a voucher for its payment id; the payer's voucher is the
// payment id signed with a key only the payer (this file) holds; it is charged from the settlement outbox like a
// wallet rail and leaves a receipt header. It is written against the Rail interface and the payments domain's own
// functions only, and is registered by a test with one line (`registerTestRail(voucherRail)`): that it then passes the
// conformance battery (rail-conformance.ts), over HTTP and as an MCP tool call's `_meta["x-voucher"]` (its `mcp`
// binding), with no edit anywhere else is what shows a rail is one folder.
import { createHmac } from "node:crypto";
import { env } from "../env";
import { AppError } from "../errors";
import { heldByError, paymentStateError, sameRequest } from "../payments/payment-state";
import { findPayment, findPaymentByLockKey, releasePayment } from "../payments/payments.queries";
import { lockChallengedPayment } from "../payments/locks.queries";
import { proofRefused } from "../payments/proof-refused";
import type { Rail } from "../payments/rails/rail";
import { replayOf } from "../payments/replay";
import type { RailKit } from "./rail-conformance";

const HEADER = "x-voucher";
const KEY = "voucher-test-key";

/** What the payer's wallet does: sign the payment id the 402 offers. */
export function signVoucher(paymentId: string): string {
  return `${paymentId}.${createHmac("sha256", KEY).update(paymentId).digest("base64url")}`;
}

type Voucher = { paymentId: string; signature: string };

export const voucherRail = {
  name: "voucher",
  payerKind: "voucher",
  howToPay: "voucher: sign the 402's voucher.paymentId and retry with X-Voucher",
  securityScheme: { type: "apiKey", in: "header", name: "X-Voucher", description: "A signed voucher (tests only)." },
  discovery: { method: "voucher", description: "a signed voucher (tests only), USD micros" },
  describe: () => ({ proofHeader: "X-Voucher" }),
  // Any positive price up to $100; a $0 call proves nothing here.
  price: (amountMicros) =>
    amountMicros > 0n && amountMicros <= 100_000_000n ? { amount: amountMicros.toString(), currency: "USD", network: null, asset: null } : null,

  challenge: {
    offer: (_call, challenge) => ({ body: { voucher: { paymentId: challenge.paymentId } }, headers: [["X-Voucher-Offer", challenge.paymentId]] }),
  },

  readProof(headers) {
    const value = headers.get(HEADER);
    if (value === null) return { type: "absent" };
    const m = /^(pay_[0-9a-z]{16}|pay_[A-Za-z0-9_-]{16,4000}\.[A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(value.trim());
    if (!m)
      return {
        type: "malformed",
        error: proofRefused("malformed_payment", "X-Voucher must be <payment id>.<signature>"),
      };
    return { type: "present", header: "X-Voucher", proof: { paymentId: m[1]!, signature: m[2]! } };
  },

  async accept(call, proof) {
    if (signVoucher(proof.paymentId) !== `${proof.paymentId}.${proof.signature}`)
      return { type: "refused", error: proofRefused("invalid_signature", "the voucher's signature does not verify") };
    const row = await findPayment(call.sellerId, proof.paymentId);
    if (!row) return { type: "refused", error: new AppError("payment_unknown", { detail: "no such payment", extra: { payment_id: proof.paymentId } }) };
    if (!sameRequest(row, call)) return { type: "refused", error: heldByError(row, call) };
    const lockKey = `voucher:${proof.paymentId}`;
    const railData = { voucher: proof.signature };
    const locked = await lockChallengedPayment(call.sellerId, proof.paymentId, {
      rail: "voucher",
      lockKey,
      payer: "voucher-holder",
      railData,
      leaseSeconds: env().PAYMENT_LEASE_SECONDS,
      payTo: call.payTo,
    });
    if (locked !== "locked") {
      const holder = (await findPaymentByLockKey(lockKey)) ?? (await findPayment(call.sellerId, proof.paymentId));
      // The voucher that paid for this request, retried: served again, never charged again.
      const replay = replayOf(holder, call, (r) => (r.railData as { voucher?: string } | null)?.voucher === proof.signature);
      if (replay) return { type: "replay", payment: replay };
      return { type: "refused", error: holder ? heldByError(holder, call) : paymentStateError(row) };
    }
    const payment = {
      id: row.id,
      sellerId: row.sellerId,
      amountMicros: row.amountMicros,
      payTo: row.payTo,
      network: null,
      asset: null,
      payer: "voucher-holder",
      railData,
    };
    return { type: "held", hold: { rail: "voucher", payment } };
  },

  release: releasePayment,

  charge: {
    settle: async (payment) => ({ type: "settled", transaction: `voucher_${payment.id}` }),
    receipt: (hold, transaction) => ({ "X-Voucher-Receipt": `${hold.payment.id} ${transaction}` }),
  },

  // Over MCP: the voucher string in the tool call's `_meta["x-voucher"]`, its receipt back in `_meta["x-voucher-receipt"]`.
  mcp: [
    {
      name: "voucher",
      metaKey: "x-voucher",
      toHeaders: (value) =>
        typeof value === "string" ? [[HEADER, value]] : proofRefused("malformed_payment", '_meta["x-voucher"] must be the signed voucher string'),
      refusals: "error",
      howToPay: 'voucher: retry with the signed voucher in params._meta["x-voucher"]',
      receiptMeta: (headers) => (headers["x-voucher-receipt"] ? { "x-voucher-receipt": headers["x-voucher-receipt"] } : {}),
    },
  ],
} satisfies Rail<Voucher>;

/** How the conformance battery pays with vouchers. */
export const voucherKit: RailKit = {
  rail: "voucher",
  ways: [
    {
      name: "a signed voucher",
      path: "/api/v1/aggregates/AAPL?from=2024-05-01&to=2024-05-31",
      receiptHeaders: ["x-voucher-receipt"],
      async pay(challenge) {
        const body = (await challenge.json()) as { voucher?: { paymentId: string } };
        if (!body.voucher) throw new Error("the 402 offers no voucher");
        return { "x-voucher": signVoucher(body.voucher.paymentId) };
      },
    },
  ],
  mcp: {
    tool: "aggregates",
    args: { ticker: "AAPL", from: "2024-05-01", to: "2024-05-31" },
    receiptMeta: ["x-voucher-receipt"],
    malformed: [42, "", "x", { voucher: 1 }, null],
    async pay(unpaid) {
      const voucher = (unpaid.structuredContent as { voucher?: { paymentId: string } } | undefined)?.voucher;
      if (!voucher) throw new Error("the payment-required tool result offers no voucher");
      return { "x-voucher": signVoucher(voucher.paymentId) };
    },
  },
};
