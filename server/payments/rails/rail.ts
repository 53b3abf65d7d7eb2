// The one contract every payment rail implements (x402, MPP; card and prepaid credits fit the same shape). The
// gateway asks the registry (./index.ts) instead of branching on rail names: a new rail is a new folder here plus
// one line in RAILS. Protocol outcomes are values (AcceptOutcome, SettleOutcome); only programming errors throw.
import type { AppError } from "../../errors";
import type { PaymentRow } from "../payments.queries";

export type RailName = "x402" | "mpp" | "card" | "credits";

/**
 * One priced call, computed once per request by the gateway (server/gateway/paid-call.ts) and carried through
 * every step: nothing below recomputes the canonical query, the price or the binding.
 */
export type PaidCall = {
  /** A data call (proxied to the upstream), or a plan purchase / top-up (credits a grant when charged). */
  purpose: "call" | "purchase";
  sellerId: string;
  /** The seller's payout address (wallet rails pay it). */
  payTo: string;
  /** Public origin for links (`https://host`), and the host alone (the MPP realm). */
  origin: string;
  realm: string;
  method: string;
  path: string;
  canonicalQuery: string;
  operationKey: string;
  meterKey: string | null;
  /** The meter's free units per claimed human (0: none). */
  includedUnits: number;
  serviceSlug: string;
  summary: string;
  amountMicros: bigint;
  /**
   * sha256 over seller, method, path and canonical query: what a proof must have been made for. Rails that carry
   * opaque data through the client (MPP) bind their challenge to it; the challenge HMAC keeps it honest.
   */
  binding: string;
  /** Purchases only: the buyer's agent credential the payment is bound to (the plan is bought for it). */
  credentialId?: string;
};

/** The unpaid challenge (a payment row in state `challenged`) that every rail of one 402 offers to settle. */
export type ChallengeRef = { paymentId: string; /** Unix seconds. */ expiresAt: number };

/** A rail's part of a 402: body fields merged into the one JSON body, and response headers (repeatable). */
export type RailOffer = { body?: Record<string, unknown>; headers?: [name: string, value: string][] };

/**
 * What a rail reads off the request headers, with no I/O. A malformed proof's `freshChallenge` overrides the rail's
 * `refusal.freshChallenge` (the card rail answers a bad `svc-payment-id` without a new 402, a bad card credential with one).
 */
export type ProofRead<P> =
  { type: "absent" } | { type: "malformed"; error: AppError; freshChallenge?: boolean } | { type: "present"; proof: P; header: string };

/** The fields of a payment row a rail needs to charge it (the whole row satisfies it). */
export type HeldPayment = Pick<PaymentRow, "id" | "sellerId" | "amountMicros" | "payTo" | "network" | "asset" | "payer" | "railData">;

/**
 * A payment this request holds: verified and locked for exactly this call, not yet charged. It carries what the
 * rail wrote, so charging it inline needs no second read of the row.
 *
 * `prepaid`: the money already moved before this call (a card checkout a human paid): there is nothing to charge,
 * the hold is a delivery lease (its value is the fencing token), and undoing it is a refund (the rail's `prepaid`).
 */
export type Hold = {
  rail: RailName;
  payment: HeldPayment;
  prepaid?: { lease: string; reference: string | null };
  /** Fields this rail adds to `svc-billing` on the paid answer (credits: the balance left). */
  billing?: Record<string, string>;
};

export type AcceptOutcome =
  | { type: "held"; hold: Hold }
  /** `freshChallenge` overrides the rail's default for this one refusal (see ProofRead). */
  | { type: "refused"; error: AppError; freshChallenge?: boolean }
  /**
   * Not payable this way, and not an error (an implicit rail whose credential covers nothing here): the caller gets
   * the ordinary 402, with `reason` refining it (SERVICE.md part 7: `usage_exhausted`) and the plans that would cover it.
   */
  | { type: "declined"; reason?: string; detail?: string };

/**
 * What settling a payment cost the seller, where the rail knows it (the console's margin): gas its wallet paid, in wei
 * of the chain's native token, and a provider's fee in micro-USD (card processing). Absent: not known, never guessed.
 */
export type SettlementCost = { gasWei?: bigint; feeMicros?: bigint };

export type SettleOutcome =
  | { type: "settled"; transaction: string | null; payer?: string; cost?: SettlementCost }
  /** Definitive: this proof will never be charged (insufficient funds, used elsewhere, expired, reverted). */
  | { type: "failed"; reason: string; transaction?: string }
  /** Transient (RPC unreachable, receipt not seen yet): left in the outbox for the reconciler. */
  | { type: "pending"; detail: string };

/** What a $0 wallet proof (the free quote) is bound to. */
export type WalletProofBinding = { sellerId: string; method: string; path: string; payTo: string; realm: string };

/** One offer of an operation's `x-payment-info` (the MPP discovery draft's shape). */
export type DiscoveryOffer = { protocol: RailName; intent: "charge"; method: string; currency: string; amount: string | null; description: string };

export interface Rail<P = unknown> {
  readonly name: RailName;
  /**
   * An implicit rail's proof is a credential the request carries anyway (credits: the agent's bearer token), not a
   * payment: it is consulted only when the request carries no payment proof, and never counts as a second one.
   */
  readonly implicit?: boolean;
  /**
   * What the `payer` it records names (the console counts unique payers per kind): a wallet address (x402, MPP), a
   * card (card rail), an agent credential (prepaid credits).
   */
  readonly payerKind: "wallet" | "card" | "credential";
  /** One line for the 402's `detail`: how to pay on this rail. */
  readonly howToPay: string;
  /** Discovery: this rail's block under `payment` in /manifest.json (how it is paid, where it settles). */
  describe(seller: { payTo: string | null }): Record<string, unknown>;
  /** Discovery: the OpenAPI security scheme a client reads to know where this rail's proof goes. */
  readonly securityScheme: Record<string, unknown>;
  /** Discovery: this rail's offers in an operation's `x-payment-info` at this price (empty: not offered). */
  discoveryOffers(amountMicros: bigint): DiscoveryOffer[];
  /** Whether this rail can pay this call at all (card: $0.50 and up); decides its part of the 402. */
  canOffer(call: PaidCall): boolean;
  /** Its part of the 402 for this challenge. */
  offer(call: PaidCall, challenge: ChallengeRef): RailOffer | Promise<RailOffer>;
  /** Does the request carry this rail's proof? No I/O. A malformed proof is the rail's own clear 4xx. */
  readProof(headers: Headers): ProofRead<P>;
  /** The wallet whose per-payer rate limit this proof spends, only once its signature recovers to it. */
  payer?(proof: P): Promise<string | null>;
  /**
   * Whether this call's upstream may be started while `accept` is still deciding (a read, see serve-paid-call.ts): only
   * for proofs that have lately been paying, since an upstream answer whose acceptance then fails is thrown away
   * unserved. No I/O. A rail that says yes here learns the acceptance's end from its own `accept`.
   */
  deliverWhileAccepting?(call: PaidCall, proof: P): boolean;
  /** Verify the proof against exactly this call, then lock it: a hold, or the error to answer with. */
  accept(call: PaidCall, proof: P): Promise<AcceptOutcome>;
  /** Charge a held payment. Called from the settlement outbox (and by the reconciler after a crash, `retry`). */
  settle(payment: HeldPayment, opts: { retry: boolean }): Promise<SettleOutcome>;
  /**
   * Rails that charge off the response path (credits: the draw is already reserved) take the served call here; the
   * gateway then writes no outbox row and does not wait. A crash before the capture lands releases the reservation
   * after its lease (the reconciler), in the caller's favour.
   */
  capture?(hold: Hold, served: { units: number; upstreamStatus: number }): void;
  /** Undo a hold that will not be charged (upstream 5xx, timeout, unbillable usage, abandoned). */
  release(paymentId: string, reason: string, upstreamStatus?: number): Promise<boolean>;
  /** Response headers of a charged call (PAYMENT-RESPONSE, Payment-Receipt, ...). Never on errors. */
  receipt(hold: Hold, transaction: string | null): Record<string, string>;
  /**
   * How a refused proof of this rail is answered beyond the error itself: with a fresh challenge (MPP: every failed
   * credential gets one), and as RFC 9457 problem details of this type (our `error` field stays in the body).
   */
  readonly refusal?: { freshChallenge: boolean; problemType?(error: AppError): { type: string; title: string } };
  /** $0 wallet proofs (the free quote): the wallet that signed, or a thrown AppError. */
  verifyWalletProof?(proof: P, binding: WalletProofBinding): Promise<{ wallet: string }>;
  /**
   * Rails whose holds can be prepaid (card checkout: charged before the call). The gateway asks instead of settling:
   * `delivered` when the paid response goes out (settled -> consumed under the hold's lease), `refund` when the
   * upstream failed (the money goes back in full). Both false when the lease was lost to another instance.
   */
  readonly prepaid?: {
    delivered(hold: Hold): Promise<boolean>;
    refund(hold: Hold, reason: string, upstreamStatus?: number): Promise<boolean>;
  };
  /** Periodic work of this rail the reconciler runs beside the shared outbox (card: checkouts, undelivered payments, refunds). */
  reconcile?(): Promise<{ settled?: number; released?: number; refunded?: number }>;
}
