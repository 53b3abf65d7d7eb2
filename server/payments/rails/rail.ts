// What a payment rail is: a small core every rail implements, and optional capabilities, each its own interface, so
// a rail implements only what it does (as x402's packages split a scheme into client, server and facilitator roles).
// The pipeline, the reconciler, discovery and the console ask the registry (./index.ts) and a rail's capabilities,
// never a rail's name: a new rail is a folder here plus one line in RAILS. Protocol outcomes are values
// (AcceptOutcome, SettleOutcome); only programming errors throw.
import type { AppError } from "../../errors";
import type { PaidCall } from "../paid-call";
import type { PaymentRow, SettlementCost } from "../payments.queries";

export type { PaidCall, SettlementCost };

/** The unpaid challenge (a payment row in state `challenged`) that every rail of one 402 offers to settle. */
export type ChallengeRef = {
  paymentId: string;
  /** Unix seconds. */
  expiresAt: number;
  /** A fresh challenge answering a refused proof: why it was refused, for protocols whose offer says (x402's `error`). */
  refused?: string;
};

/**
 * A rail's part of a 402: body fields merged into the one JSON body, response headers (repeatable), and additions to a
 * header another rail of the same protocol writes (`amend`: x402's PAYMENT-REQUIRED is one document listing every
 * scheme's requirements, so a second x402 scheme adds its own to it; `with` gets the value so far, null if none).
 */
export type RailOffer = {
  body?: Record<string, unknown>;
  headers?: [name: string, value: string][];
  amend?: { header: string; with(current: string | null): string }[];
};

/**
 * What a rail charges for a price in micro-USD, in its own terms: the amount in the smallest unit of what it charges
 * (USDC: 6 decimals, so micro-USD; card: cents), that currency (a token address, an ISO code), and, for a rail that
 * settles on chain, the chain (CAIP-2) and token it writes on the payment rows it locks.
 */
export type RailPrice = { amount: string; currency: string; network: string | null; asset: string | null };

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
  /** The name of the rail that holds it. */
  rail: string;
  payment: HeldPayment;
  prepaid?: { lease: string; reference: string | null };
  /** Fields this rail adds to `svc-billing` on the paid answer (credits: the balance left). */
  billing?: Record<string, string>;
  /**
   * False: no proof can ever replay this payment (a plan draw without an Idempotency-Key), so its answer is not kept
   * for re-delivery (../delivered-answers). Absent: it may be replayed.
   */
  replayable?: boolean;
};

export type AcceptOutcome =
  | { type: "held"; hold: Hold }
  /**
   * The very proof that already paid for this very request, charged within the replay window (../replay.ts): served
   * again, never charged again. A rail answers it only after comparing the proof with the one it stored.
   */
  | { type: "replay"; payment: PaymentRow }
  /** `freshChallenge` overrides the rail's default for this one refusal (see ProofRead). */
  | { type: "refused"; error: AppError; freshChallenge?: boolean }
  /**
   * Not payable this way, and not an error (an implicit rail whose credential covers nothing here): the caller gets
   * the ordinary 402, with the plans that would cover it; `error` names it where SERVICE.md part 7 has a code for why
   * (`usage_exhausted`: the plan's credit ran out), else it is `payment_required`.
   */
  | { type: "declined"; error?: "usage_exhausted"; detail?: string };

export type SettleOutcome =
  | { type: "settled"; transaction: string | null; payer?: string; cost?: SettlementCost }
  /** Definitive: this proof will never be charged (insufficient funds, used elsewhere, expired, reverted). */
  | { type: "failed"; reason: string; transaction?: string }
  /** Transient (RPC unreachable, receipt not seen yet): left in the outbox for the reconciler. */
  | { type: "pending"; detail: string };

/** What a $0 wallet proof (the free quote) is bound to. */
export type WalletProofBinding = { sellerId: string; method: string; path: string; payTo: string; realm: string };

/** One offer of an operation's `x-payment-info` (the MPP discovery draft's shape), made from `Rail.price`. */
export type DiscoveryOffer = { protocol: string; intent: "charge"; method: string; currency: string; amount: string | null; description: string };

/** A seller's refund from the console (one procedure for every rail that refunds). */
export type RefundRequest = {
  sellerId: string;
  actorId: string | null;
  paymentId: string;
  /** When the rail's `refund.needs` it. */
  transaction?: string;
  /** A partial refund's amount in dollars and cents, where the rail's `refund.partial` allows one; absent: all that is left. */
  amount?: string;
  /** One submit of the console's dialog: a retried or doubled request makes one refund. */
  requestKey?: string;
  /** Why the seller refunds, in their words: kept in the audit row. */
  reason?: string;
};

/**
 * What a refund did: the common fields, and those its rail knows. A second submit returns the first result, saying so:
 * `alreadyRecorded` (a wallet rail: this transfer was recorded before) or `alreadyRefunded` (card: refunded before).
 */
export type RefundOutcome = { paymentId: string; status: "refunded" | "partially_refunded"; amountUsd: string } & Partial<{
  refundedUsd: string;
  remainingUsd: string;
  transaction: string;
  logIndex: number;
  recordedAt: string;
  alreadyRecorded: boolean;
  refundStatus: string;
  refundId: string | null;
  alreadyRefunded: boolean;
}>;

/** Every rail: who it is, how discovery lists it, what it charges, how its proof is read, accepted and undone. */
export interface RailCore<P = unknown> {
  readonly name: string;
  /**
   * What the `payer` it records names, so the console counts unique payers per kind without a branch on rail names: a
   * wallet address (x402, MPP), a card (card rail), an agent credential (prepaid credits).
   */
  readonly payerKind: string;
  /** One line for the 402's `detail` and discovery: how to pay on this rail. */
  readonly howToPay: string;
  /** Discovery: the OpenAPI security scheme a client reads to know where this rail's proof goes. */
  readonly securityScheme: Record<string, unknown>;
  /** Discovery: how an operation's `x-payment-info` names this rail's offer (its method) and describes it. */
  readonly discovery: { method: string; description: string };
  /** Discovery: this rail's block under `payment` in /manifest.json (how it is paid, where it settles). */
  describe(seller: { payTo: string | null }): Record<string, unknown>;
  /** The price in this rail's terms, or null when it cannot take this price (card: below $0.50, or not whole cents). */
  price(amountMicros: bigint): RailPrice | null;
  /** Does the request carry this rail's proof? No I/O. A malformed proof is the rail's own clear 4xx. */
  readProof(headers: Headers): ProofRead<P>;
  /** Verify the proof against exactly this call, then lock it: a hold, or the error to answer with. */
  accept(call: PaidCall, proof: P): Promise<AcceptOutcome>;
  /** Undo a hold that will not be charged (upstream 5xx, timeout, unbillable usage, abandoned). */
  release(paymentId: string, reason: string, upstreamStatus?: number): Promise<boolean>;
}

/** The 402 offers it (x402, MPP, card), at every price it can take. A rail without it is paid otherwise (credits). */
export interface Offers {
  readonly challenge: {
    /** Its part of the 402 for this challenge, at its own price for the call. */
    offer(call: PaidCall, challenge: ChallengeRef, price: RailPrice): RailOffer | Promise<RailOffer>;
  };
}

/** Charged from the settlement outbox once the upstream answered 2xx or 3xx, and by the reconciler after a crash. */
export interface Charges {
  readonly charge: {
    /** `onSubmitted`: the charge is signed and on its way (its transaction, where known), before it is included. */
    settle(payment: HeldPayment, opts: { retry: boolean; onSubmitted?: (transaction: string | null) => void }): Promise<SettleOutcome>;
    /**
     * Response headers of a charged call (PAYMENT-RESPONSE, Payment-Receipt, ...). Never on errors. `pending`: the
     * answer goes out before the charge is included (submitted, in the protocol's own words).
     */
    receipt?(hold: Hold, transaction: string | null, pending?: boolean): Record<string, string>;
    /**
     * Its charge is a transfer that is signed before it lands (a chain's), so a served call may be answered before
     * inclusion, within the seller's cap per payer (server/payments/settle-payment.ts).
     */
    readonly deliversFirst?: boolean;
  };
}

/**
 * Charged off the response path from a reservation made before the call (credits): the pipeline writes no outbox row
 * and does not wait. A crash before the capture lands releases the reservation after its lease (the reconciler).
 */
export interface Captures {
  /**
   * `receipt`: the answer's signed receipt, kept by the capture's statement. Returns the protocol's receipt headers for
   * the answer, if it has any (an x402 voucher's PAYMENT-RESPONSE: the charge and the channel's state).
   */
  capture(hold: Hold, served: { units: number; upstreamStatus: number; receipt: string }): Record<string, string> | void;
}

/**
 * Holds paid before the call (a card checkout): the pipeline asks instead of settling, `delivered` when the paid
 * response goes out (settled -> consumed under the hold's lease, keeping the answer's signed `receipt` in the same
 * statement), `refund` when the upstream failed (in full). Both false when the lease was lost to another instance.
 */
export interface Prepays {
  readonly prepaid: {
    delivered(hold: Hold, receipt?: string): Promise<boolean>;
    refund(hold: Hold, reason: string, upstreamStatus?: number): Promise<boolean>;
  };
}

/** The seller refunds a paid payment from the console (one tRPC procedure, one widget, whatever the rail). */
export interface Refunds {
  readonly refund: {
    /** What the seller supplies: the transaction they sent the money back with (wallet rails), or nothing (card). */
    readonly needs: "transaction" | null;
    /** True where the processor refunds part of a payment, several times up to its amount (card); else in full only. */
    readonly partial?: boolean;
    refund(r: RefundRequest): Promise<RefundOutcome>;
  };
}

/** Periodic work beside the shared outbox, run by the reconciler on every instance (card: checkouts, refunds). */
export interface Reconciles {
  reconcile(): Promise<{ settled?: number; released?: number; refunded?: number }>;
}

/** Its own block in statusUrl's answer, under its name (card: the checkout's state an agent polls), or null. */
export interface ReportsStatus {
  paymentStatus(payment: PaymentRow, origin: string): Promise<Record<string, unknown> | null>;
}

/** Proves a wallet with a $0 proof (the free quote). */
export interface ProvesWallets<P> {
  verifyWalletProof(proof: P, binding: WalletProofBinding): Promise<{ wallet: string }>;
}

/** The wallet whose per-payer rate limit this proof spends, only once its signature recovers to it. */
export interface LimitsPayers<P> {
  payer(proof: P): Promise<string | null>;
}

/**
 * An implicit rail's proof is a credential the request carries anyway (credits: the agent's bearer token), not a
 * payment: it is consulted only when the request carries no payment proof, and never counts as a second one.
 */
export interface Implicit {
  readonly implicit: true;
}

/**
 * Whether this call's upstream may be started while `accept` is still deciding (a read): only for proofs that have
 * lately been paying, since an upstream answer whose acceptance then fails is thrown away unserved. No I/O. A rail
 * that says yes here learns the acceptance's end from its own `accept`.
 */
export interface StartsEarly<P> {
  deliverWhileAccepting(call: PaidCall, proof: P): boolean;
}

/**
 * How a refused proof of this rail is answered beyond the error itself: with a fresh challenge (MPP: every failed
 * credential gets one), and as RFC 9457 problem details of this type (our `error` field stays in the body).
 */
export interface AnswersRefusals {
  readonly refusal: { freshChallenge: boolean; problemType?(error: AppError): { type: string; title: string } };
}

/**
 * How a rail's proof rides in an MCP tool call (server/mcp): under one `params._meta` key, turned into exactly the
 * request headers its `readProof` reads, so a tool call is paid by the code that pays an HTTP call. Rails of one
 * protocol share a binding (x402 and x402-batch: one payload key; MPP's evm and stripe methods: one credential key);
 * the first rail of the registry naming it answers for a malformed one.
 */
export type McpBinding = {
  /** The binding's name, as the MCP renderer is told which binding a proof came in ("x402", "mpp", "checkout"). */
  readonly name: string;
  /** Its key in the tool call's `params._meta`. */
  readonly metaKey: string;
  /** The `_meta` value as request headers, or the refusal of a value that is not the binding's object. No I/O. */
  toHeaders(value: unknown): [name: string, value: string][] | AppError;
  /**
   * How a refused proof is answered: `jsonrpc` (MPP: -32602 for a malformed credential, -32043 with fresh challenges),
   * `requirements` (x402: a tool result with fresh requirements, also where the HTTP rail makes none), `error` (a
   * plain tool error).
   */
  readonly refusals: "jsonrpc" | "requirements" | "error";
  /** The unpaid answer's words on retrying with this binding (its proof's `_meta` key), if a 402 is answered so. */
  readonly howToPay?: string;
  /** Its receipt headers (lower-case names, as the rail's `charge.receipt` writes them) as the tool result's `_meta` entries. */
  receiptMeta?(headers: Record<string, string>): Record<string, unknown>;
};

/** Paid over MCP too: its proof's place in a tool call (an implicit rail's credential rides on the MCP request itself). */
export interface BindsMcp {
  readonly mcp: readonly McpBinding[];
}

export type RailCapabilities<P> = Offers &
  Charges &
  Captures &
  Prepays &
  Refunds &
  Reconciles &
  ReportsStatus &
  ProvesWallets<P> &
  LimitsPayers<P> &
  Implicit &
  StartsEarly<P> &
  AnswersRefusals &
  BindsMcp;

/** A rail: its core, and whichever capabilities it has. */
export type Rail<P = unknown> = RailCore<P> & Partial<RailCapabilities<P>>;
