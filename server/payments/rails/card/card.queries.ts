// The card rail's statements. Every state move is guarded by the state before it (and, for a delivery, by the lease
// that claimed it), so racers (a double click, 50 retries of one svc-payment-id, a webhook and the page, the reconciler
// and an agent's retry) move a payment at most once. A money movement is one statement or one transaction: the
// payment's move, its ledger row and the card row together. Timestamps are UTC wall time, as Prisma writes them.
import { grantForChargeSql } from "../../../billing/billing.queries";
import { db, sql } from "../../../db/client";
import type { Prisma } from "../../../db/generated/client";
import { newId } from "../../../lib/ids";
import { stateSql, transition } from "../../payment-state";
import { unsavedChallengedPayment } from "../../payments.queries";
import { challengeTermsOf } from "../../challenges.queries";
import type { CardDetails, ProcessorError, ProcessorKind } from "./processor/processor";
import { isReferenceDigest, processorReference } from "./processor/processor-reference";

const NOW = "(now() at time zone 'UTC')";

const START_CHECKOUT = transition("challenged", "incomplete");
const COMPLETE_CHECKOUT = transition("incomplete", "settled");
const EXPIRE_CHECKOUT = transition("incomplete", "released");
const DELIVER = transition("settled", "consumed");

export type CardPaymentRow = Prisma.CardPaymentGetPayload<object>;
export type PaymentWithCard = Prisma.PaymentGetPayload<{ include: { card: true } }>;

/** One payment of this seller with its card row. Another seller's id matches nothing. */
/** A signed challenge id nothing acted on yet has no row: its unpaid challenge, as the id describes it (no card row). */
export async function findPaymentWithCard(sellerId: string, paymentId: string): Promise<PaymentWithCard | null> {
  const row = await db.payment.findFirst({ where: { id: paymentId, sellerId }, include: { card: true } });
  if (row) return row;
  const unsaved = unsavedChallengedPayment(sellerId, paymentId);
  return unsaved ? { ...unsaved, card: null } : null;
}

/** A payment's card row, if it has one. */
export async function findCardPayment(paymentId: string): Promise<CardPaymentRow | null> {
  return db.cardPayment.findUnique({ where: { paymentId } });
}

/** The same, by id alone: webhooks and the reconciler act for whichever seller the payment belongs to. */
export async function findPaymentWithCardById(paymentId: string): Promise<PaymentWithCard | null> {
  return db.payment.findUnique({ where: { id: paymentId }, include: { card: true } });
}

/** The payment a processor's event names (./processor/processor-reference.ts): by its id, or by the digest on its card row. */
export async function findPaymentWithCardByReference(reference: string): Promise<PaymentWithCard | null> {
  if (!isReferenceDigest(reference)) return findPaymentWithCardById(reference);
  const card = await db.cardPayment.findUnique({ where: { processorRef: reference }, select: { paymentId: true } });
  return card ? findPaymentWithCardById(card.paymentId) : null;
}

/**
 * challenged -> incomplete for a hosted checkout, and its card row, in one statement: only an unexpired 402 challenge
 * of this seller, of at least the card minimum. From here no other rail can spend it (their locks need `challenged`).
 * A signed challenge id (docs/challenges.md) has no row yet: the statement inserts it from the signed terms, already
 * incomplete (with its plan purchase, if it buys one); a concurrent POST or proof finds the row (unique id) and takes
 * the guarded update, which only a `challenged` row passes.
 */
export async function startCheckout(p: {
  sellerId: string;
  paymentId: string;
  processor: ProcessorKind;
  expiresAt: Date;
  minimumMicros: bigint;
}): Promise<boolean> {
  const signed = challengeTermsOf(p.sellerId, p.paymentId);
  if (signed) {
    const t = signed.terms;
    if (signed.expired || t.amountMicros < p.minimumMicros) return false;
    const { rowCount } = await sql(
      `with p as (
         insert into payments (id, seller_id, status, from_challenge, rail, method, path, query, operation_key, meter_key, amount_micros, credential_id, expires_at,
           created_at, updated_at, transport)
         values ($1, $2, ${START_CHECKOUT.set}, true, 'card', $6, $7, $8, $9, $10, $11, $12, $3::timestamptz at time zone 'UTC', ${NOW}, ${NOW}, $15)
         on conflict (id) do update set status = ${START_CHECKOUT.set}, rail = 'card', expires_at = excluded.expires_at, updated_at = ${NOW}
         where payments.seller_id = $2 and ${START_CHECKOUT.guard("payments.status")} and payments.expires_at > ${NOW} and payments.amount_micros >= $5
         returning id
       ), pp as (
         insert into plan_purchases (payment_id, seller_id, plan_id, credential_id, kind, amount_micros, created_at)
         select p.id, $2, $13, $12, $14, $11, ${NOW} from p where $13::text is not null
         on conflict (payment_id) do nothing
       )
       insert into card_payments (payment_id, processor, flow, checkout_status, processor_ref, created_at, updated_at)
       select p.id, $4, 'checkout', 'open', $16, ${NOW}, ${NOW} from p`,
      [
        p.paymentId,
        p.sellerId,
        p.expiresAt.toISOString(),
        p.processor,
        p.minimumMicros,
        t.method,
        t.path,
        t.query,
        t.operationKey,
        t.meterKey,
        t.amountMicros,
        t.credentialId,
        t.purchase?.planId ?? null,
        t.purchase?.kind ?? "purchase",
        t.transport ?? "http",
        processorReference(p.paymentId),
      ],
    );
    return rowCount === 1;
  }
  const { rowCount } = await sql(
    `with p as (
       update payments set status = ${START_CHECKOUT.set}, rail = 'card', expires_at = $3::timestamptz at time zone 'UTC', updated_at = ${NOW}
       where id = $1 and seller_id = $2 and ${START_CHECKOUT.guard()} and expires_at > ${NOW} and amount_micros >= $5
       returning id
     )
     insert into card_payments (payment_id, processor, flow, checkout_status, processor_ref, created_at, updated_at)
     select p.id, $4, 'checkout', 'open', $6, ${NOW}, ${NOW} from p`,
    [p.paymentId, p.sellerId, p.expiresAt.toISOString(), p.processor, p.minimumMicros, processorReference(p.paymentId)],
  );
  return rowCount === 1;
}

/** The processor's checkout for this payment. A retry that got the same checkout back (idempotency) writes the same. */
export async function recordCheckoutCreated(paymentId: string, checkout: { id: string; url: string | null; expiresAt: Date }): Promise<void> {
  await sql(
    `with c as (
       update card_payments set checkout_id = $2, checkout_url = $3, updated_at = ${NOW}
       where payment_id = $1 and (checkout_id is null or checkout_id = $2)
       returning payment_id
     )
     update payments set expires_at = $4::timestamptz at time zone 'UTC', updated_at = ${NOW}
     where id = (select payment_id from c) and status = ${stateSql("incomplete")}`,
    [paymentId, checkout.id, checkout.url, checkout.expiresAt.toISOString()],
  );
}

/**
 * incomplete -> settled: the card was charged. The payment's move (with the processor's payment id as its
 * transaction), the card's brand and last four, and the ledger's charge row, in one statement; a second report of the
 * same payment (the page and the webhook, a replay) finds it settled already and changes nothing.
 */
export async function completeCheckoutPayment(
  paymentId: string,
  paid: { paymentIntentId: string; card: CardDetails | null; feeCents: number | null },
): Promise<boolean> {
  const { rowCount } = await sql(
    `with p as (
       update payments set status = ${COMPLETE_CHECKOUT.set}, transaction = $2, settled_at = ${NOW}, locked_until = null, updated_at = ${NOW}
       where id = $1 and ${COMPLETE_CHECKOUT.guard()} and rail = 'card'
       returning id, seller_id, meter_key, amount_micros, currency, rail, operation_key, payer
     ), c as (
       update card_payments set processor_payment_id = $2, card_brand = coalesce($3, card_brand), card_last4 = coalesce($4, card_last4),
         checkout_status = 'complete', last_error_code = null, last_decline_code = null, last_error_message = null, updated_at = ${NOW}
       where payment_id = (select id from p)
       returning payment_id
     ), ${grantForChargeSql("$6")}
     insert into ledger_entries (id, seller_id, payment_id, kind, rail, operation_key, payer, meter_key, units, amount_micros, currency, fee_micros, created_at)
     select $5, p.seller_id, p.id, 'charge', p.rail, p.operation_key, p.payer, p.meter_key, 1, p.amount_micros, p.currency, $7::bigint, ${NOW} from p, c`,
    [
      paymentId,
      paid.paymentIntentId,
      paid.card?.brand ?? null,
      paid.card?.last4 ?? null,
      newId("led"),
      newId("grt"),
      paid.feeCents === null ? null : (BigInt(paid.feeCents) * 10_000n).toString(),
    ],
  );
  return rowCount === 1;
}

/**
 * A failed attempt on the checkout (declined, authentication failed): kept for the page and statusUrl, and the next
 * attempt gets a new number. Guarded by the attempt number the form was shown with, so a double click counts once.
 */
export async function recordAttemptFailed(paymentId: string, attempt: number | null, error: ProcessorError, paymentIntentId: string | null): Promise<void> {
  await sql(
    `update card_payments set last_error_code = $3, last_decline_code = $4, last_error_message = $5, checkout_status = 'open',
       processor_payment_id = coalesce(processor_payment_id, $6), attempts = attempts + (case when $2::int is null then 0 else 1 end), updated_at = ${NOW}
     where payment_id = $1 and checkout_status in ('open', 'requires_action') and ($2::int is null or attempts = $2::int)`,
    [paymentId, attempt, error.code, error.declineCode, error.message.slice(0, 500), paymentIntentId],
  );
}

/** The card asked for 3-D Secure: the page shows the confirmation step. */
export async function recordActionRequired(paymentId: string, paymentIntentId: string): Promise<void> {
  await sql(
    `update card_payments set checkout_status = 'requires_action', processor_payment_id = coalesce(processor_payment_id, $2), updated_at = ${NOW}
     where payment_id = $1 and checkout_status in ('open', 'requires_action')`,
    [paymentId, paymentIntentId],
  );
}

/** incomplete -> released: the checkout expired unpaid; nothing was charged and the payment is never spendable. */
export async function expireCheckoutPayment(paymentId: string): Promise<boolean> {
  const { rowCount } = await sql(
    `with p as (
       update payments set status = ${EXPIRE_CHECKOUT.set}, failure_reason = 'checkout_expired', locked_until = null, updated_at = ${NOW}
       where id = $1 and ${EXPIRE_CHECKOUT.guard()}
       returning id
     )
     update card_payments set checkout_status = 'expired', updated_at = ${NOW} where payment_id = (select id from p)`,
    [paymentId],
  );
  return rowCount === 1;
}

/**
 * Claim a paid checkout for delivery: settled and not being delivered (no lease, or one that ran out: the instance
 * that took it crashed). One statement, so of 50 concurrent retries exactly one gets the lease. The lease's value is
 * the claim's fencing token: delivering and refunding check it, so a claim that lost its lease can do neither.
 */
export async function claimCheckoutDelivery(sellerId: string, paymentId: string, leaseSeconds: number): Promise<string | null> {
  const { rows } = await sql<{ lease: string }>(
    `update payments set locked_until = ${NOW} + make_interval(secs => $3), updated_at = ${NOW}
     where id = $1 and seller_id = $2 and status = ${stateSql("settled")} and rail = 'card'
       and (locked_until is null or locked_until < ${NOW})
       and exists (select 1 from card_payments c where c.payment_id = payments.id and c.flow = 'checkout')
     returning locked_until::text as lease`,
    [paymentId, sellerId, leaseSeconds],
  );
  return rows[0]?.lease ?? null;
}

/** settled -> consumed: the paid response is going out, under the lease that claimed it. */
export async function markCheckoutDelivered(paymentId: string, lease: string, receipt?: string): Promise<boolean> {
  // The answer's signed receipt rides in the delivery's statement (the first one stays).
  const { rowCount } = await sql(
    `update payments set status = ${DELIVER.set}, locked_until = null, updated_at = ${NOW}, receipt = coalesce(receipt, $3)
     where id = $1 and ${DELIVER.guard()} and locked_until = $2::timestamp`,
    [paymentId, lease, receipt ?? null],
  );
  return rowCount === 1;
}

/** The MPP card method's card row (charged after delivery): written when the charge is tried. */
export async function upsertTokenCharge(
  paymentId: string,
  processor: ProcessorKind,
  result: { paymentIntentId: string | null; card: CardDetails | null; error: ProcessorError | null },
): Promise<void> {
  await sql(
    `insert into card_payments (payment_id, processor, flow, processor_payment_id, card_brand, card_last4, last_error_code, last_decline_code, last_error_message,
       processor_ref, created_at, updated_at)
     values ($1, $2, 'mpp', $3, $4, $5, $6, $7, $8, $9, ${NOW}, ${NOW})
     on conflict (payment_id) do update set processor_payment_id = coalesce(excluded.processor_payment_id, card_payments.processor_payment_id),
       card_brand = coalesce(excluded.card_brand, card_payments.card_brand), card_last4 = coalesce(excluded.card_last4, card_payments.card_last4),
       last_error_code = excluded.last_error_code, last_decline_code = excluded.last_decline_code, last_error_message = excluded.last_error_message, updated_at = ${NOW}`,
    [
      paymentId,
      processor,
      result.paymentIntentId,
      result.card?.brand ?? null,
      result.card?.last4 ?? null,
      result.error?.code ?? null,
      result.error?.declineCode ?? null,
      result.error?.message.slice(0, 500) ?? null,
      processorReference(paymentId),
    ],
  );
}
