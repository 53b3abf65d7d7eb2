// The evidence file of one payment, for the seller answering a dispute (issue 23): everything the storefront knows
// about what was bought, how it was paid and what it delivered, in one JSON document a third party can check without
// us. The signed receipt (and where its key is published), the terms of the challenge, what the proof said (payer,
// nonce, validity window: never the signature, a credential or a token: a proof is a bearer instrument until settled,
// and an EIP-3009 signature plus its challenge binding would let anyone replay a re-delivery), the settlement
// transaction with its block and log where the chain still answers, the ledger rows, the audit rows, and the events
// recorded about it with their webhook deliveries.
import { decodeJwt } from "jose";
import type { Address, Hex } from "viem";
import { listAuditLog } from "../audit/list-audit-log";
import { tokenTransfersIn } from "../chain/transfers";
import { env } from "../env";
import { AppError } from "../errors";
import { storefrontOrigin } from "../events/event-origin";
import { renderEvent } from "../events/render-event";
import { microsToUsd } from "../lib/money";
import { findPaymentEventsWithDeliveries, findPaymentEvidence, type PaymentEvidenceRow } from "./evidence.queries";
import { getPaymentDetail } from "./get-payment-detail";
import { isIdempotencyLock, paymentPhase } from "../payments/payment-phase";
import { requestBinding } from "../payments/request-binding";

export const EVIDENCE_FORMAT = "storefront-payment-evidence/1" as const;

/** How long the export waits for the chain before leaving the block and log unknown (the rest of the file does not need it). */
const CHAIN_TIMEOUT_MS = 3_000;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const strOrNull = (v: unknown) => (typeof v === "string" || typeof v === "number" || typeof v === "bigint" ? String(v) : null);

/**
 * What a rail stored of its proof, reduced to what identifies it. An allow-list: a field a rail adds later stays out
 * of the file until it is named here (signatures, MPP challenge ids and x402 challenge tokens, shared payment tokens
 * and anything else a replay could be built from are never named).
 */
export function proofMetadata(p: Pick<PaymentEvidenceRow, "rail" | "payer" | "lockKey" | "railData" | "fromChallenge">) {
  const data = obj(p.railData);
  const a = obj(data.authorization);
  const grants = Array.isArray(data.grants) ? data.grants.map((g) => ({ id: strOrNull(obj(g).id), amount_micros: strOrNull(obj(g).amount) })) : null;
  return {
    rail: p.rail,
    payer: p.payer,
    answered_challenge: p.fromChallenge,
    x402_version: typeof data.version === "number" ? data.version : null,
    authorization:
      Object.keys(a).length > 0
        ? {
            from: strOrNull(a.from),
            to: strOrNull(a.to),
            value: strOrNull(a.value),
            valid_after: strOrNull(a.validAfter),
            valid_before: strOrNull(a.validBefore),
            nonce: strOrNull(a.nonce),
          }
        : null,
    card_flow: strOrNull(data.flow),
    credit_source: strOrNull(data.source),
    credit_grants: grants,
    // Plan credit drawn under the client's Idempotency-Key: the key itself is the client's and stays out (only its hash is kept).
    idempotency_key_used: isIdempotencyLock(p.lockKey),
  };
}

/** The settlement's place on chain, where the payment settled on one and the chain answers now. */
async function onChain(p: PaymentEvidenceRow) {
  if (!p.transaction || !/^0x[0-9a-fA-F]{64}$/.test(p.transaction) || !p.asset) return null;
  try {
    const found = await Promise.race([
      tokenTransfersIn(env().RPC_URL, p.asset as Address, p.transaction as Hex),
      new Promise<null>((r) => setTimeout(() => r(null), CHAIN_TIMEOUT_MS).unref()),
    ]);
    if (!found) return { status: "unknown", detail: "the chain did not answer in time" };
    if (found.type === "not_found" || found.type === "pending") return { status: found.type };
    const base = { status: found.type, block_number: found.blockNumber.toString(), transaction_index: found.transactionIndex };
    if (found.type !== "mined") return base;
    // The log that moved this payment: payer to the seller's address, the amount charged.
    const log = found.transfers.find(
      (t) => t.from.toLowerCase() === (p.payer ?? "").toLowerCase() && t.to.toLowerCase() === (p.payTo ?? "").toLowerCase() && t.value === p.amountMicros,
    );
    return { ...base, log_index: log?.logIndex ?? null };
  } catch (e) {
    return { status: "unknown", detail: e instanceof Error ? e.message.split("\n")[0]! : String(e) };
  }
}

export async function exportPaymentEvidence(sellerId: string, paymentId: string) {
  const [p, events, audit, origin, detail] = await Promise.all([
    findPaymentEvidence(sellerId, paymentId),
    findPaymentEventsWithDeliveries(sellerId, paymentId),
    listAuditLog(sellerId, { targetType: "payment", targetId: paymentId, limit: 100 }),
    storefrontOrigin(sellerId),
    // The state changes as the console's timeline tells them (null: no such payment, answered below).
    getPaymentDetail(sellerId, paymentId).catch((e: unknown) => {
      if (e instanceof AppError && e.code === "payment_unknown") return null;
      throw e;
    }),
  ]);
  // Another seller's payment id is indistinguishable from a missing one.
  if (!p) throw new AppError("payment_unknown", { detail: "no such payment at this seller", extra: { payment_id: paymentId } });
  const s = p.settlement;
  const phase = paymentPhase(
    {
      ...p,
      idempotencyKeyed: isIdempotencyLock(p.lockKey),
      purchase: p.planPurchase !== null,
      settlement: s ? { status: s.status as "pending" | "succeeded" | "failed", deliveredFirst: s.deliveredFirst } : null,
    },
    Date.now(),
    env().PAYMENT_REPLAY_HOURS,
  );
  const jwksUri = `${origin}/oauth2/jwks.json`;
  return {
    format: EVIDENCE_FORMAT,
    exported_at: new Date().toISOString(),
    seller: sellerId,
    payment: {
      id: p.id,
      status: p.status,
      ...phase,
      rail: p.rail,
      amount: microsToUsd(p.amountMicros),
      currency: p.currency,
      payer: p.payer,
      transport: p.transport,
      upstream_status: p.upstreamStatus,
      failure_reason: p.failureReason,
      created_at: p.createdAt.toISOString(),
      verified_at: p.verifiedAt?.toISOString() ?? null,
      settled_at: p.settledAt?.toISOString() ?? null,
      updated_at: p.updatedAt.toISOString(),
    },
    receipt: p.receipt
      ? {
          jws: p.receipt,
          claims: decodeJwt(p.receipt) as Json,
          jwks_uri: jwksUri,
          verify:
            "Verify the compact JWS (ES256, typ svc-receipt+jwt) with the key named by its kid in jwks_uri (jose: compactVerify(jws, createRemoteJWKSet(new URL(jwks_uri)))); then body_sha256 must equal the base64url SHA-256 of the response body as received.",
        }
      : null,
    challenge: {
      issued_at: p.createdAt.toISOString(),
      expires_at: p.expiresAt.toISOString(),
      price: microsToUsd(p.amountMicros),
      amount_micros: p.amountMicros.toString(),
      currency: p.currency,
      operation: p.operationKey,
      meter: p.meterKey,
      request: { method: p.method, path: p.path, query: p.query },
      // The hash every rail checks a proof against (./request-binding.ts): sha256 of seller, method, path and canonical query.
      request_binding: requestBinding({ sellerId, method: p.method, path: p.path, canonicalQuery: p.query }),
      pay_to: p.payTo,
      network: p.network,
      asset: p.asset,
      purchase: p.planPurchase
        ? { plan: p.planPurchase.planId, kind: p.planPurchase.kind, credential: p.planPurchase.credentialId, amount: microsToUsd(p.planPurchase.amountMicros) }
        : null,
    },
    proof: proofMetadata(p),
    settlement: {
      transaction: p.transaction,
      chain: await onChain(p),
      outbox: s
        ? {
            status: s.status,
            attempts: s.attempts,
            units: s.units,
            delivered_first: s.deliveredFirst,
            last_error: s.lastError,
            created_at: s.createdAt.toISOString(),
            updated_at: s.updatedAt.toISOString(),
          }
        : null,
      card: p.card
        ? {
            processor: p.card.processor,
            flow: p.card.flow,
            processor_payment_id: p.card.processorPaymentId,
            checkout_status: p.card.checkoutStatus,
            brand: p.card.cardBrand,
            last4: p.card.cardLast4,
            refund_status: p.card.refundStatus,
            refund_id: p.card.refundId,
          }
        : null,
    },
    timeline: detail?.timeline ?? [],
    ledger: p.ledgerEntries.map((l) => ({
      id: l.id,
      kind: l.kind,
      amount: microsToUsd(l.amountMicros),
      amount_micros: l.amountMicros.toString(),
      currency: l.currency,
      units: l.units,
      rail: l.rail,
      operation: l.operationKey,
      meter: l.meterKey,
      payer: l.payer,
      transaction: l.transaction,
      log_index: l.logIndex,
      gas_cost_wei: l.gasCostWei?.toFixed() ?? null,
      fee_micros: l.feeMicros?.toString() ?? null,
      created_at: l.createdAt.toISOString(),
    })),
    audit: audit.entries.map((e) => ({ id: e.id, action: e.action, label: e.label, actor: e.actor, before: e.before, after: e.after, at: e.at })),
    events: events.map((e) => ({
      ...renderEvent(e, origin),
      deliveries: e.deliveries.map((d) => ({
        id: d.id,
        endpoint: d.endpoint.id,
        url: d.endpoint.url,
        status: d.status,
        attempts: d.attempts,
        last_status: d.lastStatus,
        last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
        delivered_at: d.deliveredAt?.toISOString() ?? null,
        created_at: d.createdAt.toISOString(),
      })),
    })),
  };
}
