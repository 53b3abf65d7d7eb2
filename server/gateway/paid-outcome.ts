// What a paid call ends as, as values: the pipeline (run-paid-call.ts) decides, and each entry point's renderer turns
// the value into its transport's shape (an HTTP Response for the data call, a purchase's JSON, a JSON-RPC result for an
// MCP tool call). A challenge, a refusal and a charge are all outcomes here; none is an exception.
import type { AppError } from "../errors";
import type { Challenge } from "../payments/create-challenge";
import type { PaidCall } from "../payments/paid-call";
import type { Hold, Rail } from "../payments/rails/rail";
import type { UpstreamResult } from "./proxy-upstream";

/** What a delivery answered (the upstream's response; for a purchase, an empty 200: the grant is made with the charge). */
export type Delivered = Extract<UpstreamResult, { type: "response" }>;

/**
 * Why a hold was released (or a prepaid one refunded) instead of charged. `upstream_rejected`: the upstream answered
 * 4xx (the request named no data to sell); `upstream_error`: 5xx.
 */
export type ReleaseReason = "upstream_timeout" | "upstream_unreachable" | "upstream_error" | "upstream_rejected" | "usage_error" | "released_meanwhile";

/** A proof was accepted and the call served (or not): what became of the hold. */
export type ServedOutcome =
  | {
      type: "charged";
      call: PaidCall;
      rail: Rail;
      hold: Hold;
      delivered: Delivered;
      transaction: string | null;
      units: number;
      receipt: Record<string, string>;
      /**
       * Served again for the proof that paid it before (resumable delivery): nothing was charged now; `hold` is the
       * original payment and `transaction` its settlement. `chargedAt`: when it was charged.
       */
      replay?: { chargedAt: Date };
    }
  | {
      type: "settlement_pending";
      call: PaidCall;
      rail: Rail;
      hold: Hold;
      delivered: Delivered;
      units: number;
      /** Delivered before inclusion: the transaction as submitted, and the rail's receipt saying it is pending. */
      transaction?: string | null;
      receipt?: Record<string, string>;
    }
  /** `challenge`: a fresh one, for rails that answer refusals with one (retry from the start, SERVICE.md part 7). */
  | { type: "settlement_failed"; call: PaidCall; rail: Rail; hold: Hold; reason: string; challenge?: Challenge }
  | {
      type: "released";
      call: PaidCall;
      rail: Rail;
      hold: Hold;
      delivered: Delivered | null;
      reason: ReleaseReason;
      usageError?: string;
      /** A prepaid hold: the money went back (a refund in full), rather than never moving. */
      refunded?: boolean;
    };

export type PaidOutcome =
  /** A free call (price $0, no proof asked): served. */
  | { type: "free"; delivered: Delivered }
  /** No proof: the 402, one challenge offered on every rail that takes the price. */
  | { type: "challenge"; call: PaidCall; challenge: Challenge }
  /**
   * A refused proof, or a request refused before any rail looked at it (`rail` null: two proofs at once, a combined
   * Authorization; a rate limit). `challenge`: a fresh one, for rails that answer refusals with one (MPP).
   */
  | { type: "refused"; call: PaidCall; rail: Rail | null; error: AppError; challenge?: Challenge }
  /** A $0 wallet proof verified (the free quote): the wallet that signed it. Nothing was held or charged. */
  | { type: "proven"; call: PaidCall; rail: Rail; wallet: string }
  | ServedOutcome;

/** What the pipeline measured, for transports that report it (Server-Timing on a paid HTTP answer). */
export type OutcomeMeta = { serverTiming?: string };
