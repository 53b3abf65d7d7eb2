// payments.evidence: the evidence file of one payment (server/payments/export-payment-evidence.ts). Declared field by
// field like every output, so a field the domain adds later is stripped until it is listed here: the file leaves the
// storefront, and nothing reaches it by accident. `claims`, audit `before`/`after` and an event's `data` are the
// receipt's, the audit log's and the event's own JSON, shown as they are elsewhere.
import { z } from "zod";
import { PAYMENT_NEXT_STEPS, PAYMENT_PHASES } from "../../contracts/payment-status";
import { iso, paymentStatus, usd } from "./common";

const json = z.record(z.string(), z.unknown());
const micros = z.string().regex(/^\d+$/);

export const evidenceOutput = z.object({
  format: z.literal("storefront-payment-evidence/1"),
  exported_at: iso,
  seller: z.string(),
  payment: z.object({
    id: z.string(),
    status: paymentStatus,
    phase: z.enum(PAYMENT_PHASES),
    next: z.enum(PAYMENT_NEXT_STEPS),
    rail: z.string().nullable(),
    amount: usd,
    currency: z.string(),
    payer: z.string().nullable(),
    transport: z.string(),
    upstream_status: z.number().int().nullable(),
    failure_reason: z.string().nullable(),
    created_at: iso,
    verified_at: iso.nullable(),
    settled_at: iso.nullable(),
    updated_at: iso,
  }),
  receipt: z.object({ jws: z.string(), claims: json, jwks_uri: z.string(), verify: z.string() }).nullable(),
  challenge: z.object({
    issued_at: iso,
    expires_at: iso,
    price: usd,
    amount_micros: micros,
    currency: z.string(),
    operation: z.string(),
    meter: z.string().nullable(),
    request: z.object({ method: z.string(), path: z.string(), query: z.string() }),
    request_binding: z.string(),
    pay_to: z.string().nullable(),
    network: z.string().nullable(),
    asset: z.string().nullable(),
    purchase: z.object({ plan: z.string(), kind: z.string(), credential: z.string(), amount: usd }).nullable(),
  }),
  proof: z.object({
    rail: z.string().nullable(),
    payer: z.string().nullable(),
    answered_challenge: z.boolean(),
    x402_version: z.number().int().nullable(),
    authorization: z
      .object({
        from: z.string().nullable(),
        to: z.string().nullable(),
        value: z.string().nullable(),
        valid_after: z.string().nullable(),
        valid_before: z.string().nullable(),
        nonce: z.string().nullable(),
      })
      .nullable(),
    card_flow: z.string().nullable(),
    credit_source: z.string().nullable(),
    credit_grants: z.array(z.object({ id: z.string().nullable(), amount_micros: z.string().nullable() })).nullable(),
    idempotency_key_used: z.boolean(),
  }),
  settlement: z.object({
    transaction: z.string().nullable(),
    chain: z
      .object({
        status: z.string(),
        detail: z.string().optional(),
        block_number: z.string().optional(),
        transaction_index: z.number().int().optional(),
        log_index: z.number().int().nullable().optional(),
      })
      .nullable(),
    outbox: z
      .object({
        status: z.string(),
        attempts: z.number().int(),
        units: z.number().int(),
        delivered_first: z.boolean(),
        last_error: z.string().nullable(),
        created_at: iso,
        updated_at: iso,
      })
      .nullable(),
    card: z
      .object({
        processor: z.string(),
        flow: z.string(),
        processor_payment_id: z.string().nullable(),
        checkout_status: z.string().nullable(),
        brand: z.string().nullable(),
        last4: z.string().nullable(),
        refund_status: z.string().nullable(),
        refund_id: z.string().nullable(),
      })
      .nullable(),
  }),
  /** Every state the payment went through that its rows record, with the time where one is kept. */
  timeline: z.array(z.object({ state: z.string(), at: iso.nullable(), note: z.string().nullable() })),
  ledger: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      amount: usd,
      amount_micros: micros,
      currency: z.string(),
      units: z.number().int(),
      rail: z.string().nullable(),
      operation: z.string().nullable(),
      meter: z.string().nullable(),
      payer: z.string().nullable(),
      transaction: z.string().nullable(),
      log_index: z.number().int().nullable(),
      gas_cost_wei: z.string().nullable(),
      fee_micros: z.string().nullable(),
      created_at: iso,
    }),
  ),
  audit: z.array(
    z.object({ id: z.string(), action: z.string(), label: z.string(), actor: z.string().nullable(), before: z.unknown(), after: z.unknown(), at: iso }),
  ),
  events: z.array(
    z.object({
      id: z.string(),
      type: z.string(),
      timestamp: iso,
      data: z.unknown(),
      deliveries: z.array(
        z.object({
          id: z.string(),
          endpoint: z.string(),
          url: z.string(),
          status: z.string(),
          attempts: z.number().int(),
          last_status: z.number().int().nullable(),
          last_attempt_at: iso.nullable(),
          delivered_at: iso.nullable(),
          created_at: iso,
        }),
      ),
    }),
  ),
});
