// The rails registry: the only module that imports a rail's folder (checked by scripts/test/architecture.test.ts).
// Everything else asks it: which rails exist (discovery, the console), which proof a request carries (the pipeline),
// which rail settles, releases or refunds a payment (the outbox, the reconciler, the console).
import { Credential } from "mppx";
import { AppError } from "../../errors";
import { isPaymentCredential } from "../mpp/credential";
import { proofRefused } from "../proof-refused";
import { cardRail } from "./card";
import { creditsRail } from "./credits";
import { mppRail } from "./mpp";
import type { DiscoveryOffer, McpBinding, Rail, RailPrice } from "./rail";
import { registered } from "./registry";
import { x402Rail } from "./x402";
import { x402BatchRail } from "./x402-batch";

const BUILT_IN = [x402Rail, x402BatchRail, mppRail, cardRail, creditsRail] as const;

/** The rails this storefront ships with, by name. */
export type RailName = (typeof BUILT_IN)[number]["name"];
/** What the `payer` of a payment names, per rail (the console counts unique payers per kind). */
export type PayerKind = (typeof BUILT_IN)[number]["payerKind"];

registered.push(...(BUILT_IN as readonly Rail<never>[] as readonly Rail[]));

/** Every rail that really works, in the order their offers appear. A rail that is not here is not advertised. */
export const RAILS: readonly Rail[] = registered;

/** The rail of a payment row (its `rail` column); throws for a name no rail has (a programming error). */
export function railFor(name: string | null): Rail {
  const rail = RAILS.find((r) => r.name === name);
  if (!rail) throw new Error(`no payment rail "${name}"`);
  return rail;
}

/** The rails a 402 at this price offers, each with its price in its own terms. */
export function railsOffering(amountMicros: bigint): { rail: Rail & Required<Pick<Rail, "challenge">>; price: RailPrice }[] {
  const out: { rail: Rail & Required<Pick<Rail, "challenge">>; price: RailPrice }[] = [];
  for (const rail of RAILS) {
    if (!rail.challenge) continue;
    const price = rail.price(amountMicros);
    if (price) out.push({ rail: rail as Rail & Required<Pick<Rail, "challenge">>, price });
  }
  return out;
}

/**
 * The rails a 402 names as paying this call (its `payment.rails`): those offering it, and an implicit rail that pays
 * with what the request carries (plan credit, for a priced data call: credit buys calls, not purchases or the quote's
 * $0 proof), as discovery's `protocols` names them.
 */
export function railsPaying(call: { purpose: "call" | "purchase"; amountMicros: bigint }): Rail[] {
  const implicit = call.purpose === "call" && call.amountMicros > 0n;
  return RAILS.filter((r) => (r.challenge || (implicit && r.implicit)) && r.price(call.amountMicros) !== null);
}

/** A rail's offers in an operation's `x-payment-info` at this price: one at its own price, none when it cannot take it. */
export function discoveryOffers(rail: Rail, amountMicros: bigint): DiscoveryOffer[] {
  const price = rail.price(amountMicros);
  if (!price) return [];
  return [
    {
      protocol: rail.name,
      intent: "charge",
      method: rail.discovery.method,
      currency: price.currency,
      amount: price.amount,
      description: rail.discovery.description,
    },
  ];
}

/**
 * The MCP bindings of the registered rails, each once (rails of one protocol share one), with the first rail naming it:
 * the rail a malformed proof in that binding is refused by. An MCP tool call reads its proof through these, by key.
 */
export function mcpBindings(): { binding: McpBinding; rail: Rail }[] {
  const out: { binding: McpBinding; rail: Rail }[] = [];
  for (const rail of RAILS)
    for (const binding of rail.mcp ?? []) {
      const same = out.find((b) => b.binding.name === binding.name);
      if (same && same.binding !== binding) throw new Error(`two MCP bindings named "${binding.name}"`);
      if (!same) out.push({ binding, rail });
    }
  return out;
}

/** The MCP binding of this name and the rail answering for it, or null ("bearer", "none": no rail's binding). */
export function mcpBinding(name: string): { binding: McpBinding; rail: Rail } | null {
  return mcpBindings().find((b) => b.binding.name === name) ?? null;
}

export type PaymentProof =
  { type: "none" } | { type: "malformed"; rail: Rail; error: AppError; freshChallenge?: boolean } | { type: "proof"; rail: Rail; proof: unknown };

/**
 * An `Authorization: Payment` credential of a method no rail takes (each MPP rail claims only its own methods): refused
 * in MPP's terms, by the rail that speaks the scheme, with the challenges this storefront does offer.
 */
function unclaimedPaymentCredential(authorization: string | null): PaymentProof | null {
  if (!isPaymentCredential(authorization)) return null;
  const speaker = RAILS.find((r) => r.securityScheme.scheme === "Payment");
  if (!speaker) return null;
  let method = "?";
  try {
    const c = Credential.deserialize(authorization).challenge as { method?: unknown; intent?: unknown };
    method = `${String(c.method)}/${String(c.intent)}`;
  } catch {
    /* named "?" below */
  }
  return {
    type: "malformed",
    rail: speaker,
    freshChallenge: true,
    error: proofRefused(
      "method_unsupported",
      `this storefront takes MPP methods evm (USDC on Base) and stripe (card, $0.50 and up), intent charge (not ${method}); answer one of the 402's challenges`,
    ),
  };
}

/**
 * The one payment proof a request carries, read by every rail with no I/O. Refused before any rail library parses
 * anything: a comma-combined `Authorization` (SERVICE.md part 5: one credential per header; MPP clients would
 * otherwise pick the Payment part out of it), and proofs of two rails at once (which could be charged twice).
 */
export function readPaymentProof(headers: Headers): PaymentProof {
  const authorization = headers.get("authorization");
  if (authorization?.includes(","))
    throw new AppError("invalid_token", {
      reason: "combined_authorization_unsupported",
      detail: "Authorization carries exactly one credential; send the agent token in SVC-Agent-Authorization and the payment in Authorization",
    });
  const found: { rail: Rail; read: ReturnType<Rail["readProof"]> }[] = [];
  for (const rail of RAILS) {
    if (rail.implicit) continue;
    const read = rail.readProof(headers);
    if (read.type !== "absent") found.push({ rail, read });
  }
  // No payment proof: an implicit rail (the agent's bearer and its plan) may still pay.
  if (!found.length)
    for (const rail of RAILS) {
      if (!rail.implicit) continue;
      const read = rail.readProof(headers);
      if (read.type !== "absent") {
        found.push({ rail, read });
        break;
      }
    }
  if (found.length > 1) {
    const names = found.map((f) => `${f.rail.name} (${f.read.type === "present" ? f.read.header : "malformed"})`);
    throw new AppError("invalid_request", {
      reason: "multiple_payment_proofs",
      detail: `the request carries payment proofs of two rails, ${names.join(" and ")}; send exactly one, nothing was charged`,
    });
  }
  const one = found[0];
  if (!one) return unclaimedPaymentCredential(authorization) ?? { type: "none" };
  return one.read.type === "malformed"
    ? { type: "malformed", rail: one.rail, error: one.read.error, freshChallenge: one.read.freshChallenge }
    : { type: "proof", rail: one.rail, proof: one.read.type === "present" ? one.read.proof : null };
}

/**
 * The card rail's statusUrl block from a payment and its card row as given (not read): events render a payment's
 * snapshot, taken in the transaction of its change, into the shape GET /payments/{id} shows (server/events).
 */
export { cardBlock } from "./card/checkout/checkout-view";
/** Start-up's one line on which card processor takes payments (or that none does), and the same for the console. */
export { cardProcessorStatus, describeCardProcessor, type CardProcessorStatus } from "./card/processor/get-card-processor";
export type { PaymentWithCard } from "./card/card.queries";
