// What each refusal means to a seller, and what the payer can do about it: one table over every error code of
// server/errors.ts (SERVICE.md part 7), keyed by the code type so a new code without an explanation is a compile error,
// plus the reasons that refine a code or say why a payment was released or failed. The console's funnel, overview and
// payment pages show these words beside the code; the code itself stays visible for anyone who reads the spec.
import type { ErrorCode } from "../errors";

/** `setBy: "person"`: the refusal is a rule the agent's person set (a budget, an approval, a freeze, a wallet cap), not a payment problem. */
export type Explanation = { meaning: string; payerCanDo: string; setBy?: "person" };

/** The refusals of the controls a person who claimed an agent holds over its spending (server/controls, budgets, approvals, wallet-caps). */
export const PERSON_CONTROL_CODES: ReadonlySet<string> = new Set([
  "budget_exceeded",
  "approval_required",
  "approval_declined",
  "credential_frozen",
  "wallet_cap_exceeded",
]);

const FIX_REQUEST = "Fix the request as the error's detail says; do not replay it.";
const FRESH_402 = "Make a fresh unpaid request and pay its new 402.";
const SETUP = "Nothing: the storefront's setup is unfinished (see Settings).";

export const ERROR_EXPLANATIONS: Record<ErrorCode, Explanation> = {
  payment_required: {
    meaning: "The call needs payment, or its payment proof was refused (the reason says why); the 402 carried fresh offers.",
    payerCanDo: "Pay one of the 402's offers and retry with the proof.",
  },
  bearer_required: { meaning: "The call needs a registered agent credential.", payerCanDo: "Register an agent credential, then retry with its bearer." },
  invalid_token: {
    meaning: "The agent credential did not verify (expired, malformed or not ours).",
    payerCanDo: "Re-exchange the token, or send exactly one bearer.",
  },
  entitlements_not_available: { meaning: "This storefront sells no plans.", payerCanDo: "Pay per call instead." },
  identity_invalid: { meaning: "The identity proof did not verify.", payerCanDo: "Sign a fresh challenge." },
  plan_required: { meaning: "No plan the credential holds covers this call.", payerCanDo: "Buy one of the plans named in the error, or pay per call." },
  access_not_found: { meaning: "There is no active plan to draw from or extend.", payerCanDo: "Buy a plan first." },
  usage_exhausted: { meaning: "The plan's credit ran out.", payerCanDo: "Top up or buy again, or pay this call per request." },
  budget_exceeded: {
    meaning: "The call would pass a budget the person who claimed the agent set (per call, day or month); nothing was charged.",
    payerCanDo: "Wait until the budget resets (resetsAt), or ask the person to raise it on their account page.",
  },
  settlement_failed: { meaning: "The signed payment did not settle (for example, the wallet lacked funds).", payerCanDo: FRESH_402 },
  payment_refunded: { meaning: "The payment was already refunded.", payerCanDo: FRESH_402 },
  payment_consumed: { meaning: "The payment already bought a response (a replay).", payerCanDo: FRESH_402 },
  payment_failed: { meaning: "The payment failed to settle earlier.", payerCanDo: FRESH_402 },
  payment_released: { meaning: "The payment was released without charge earlier.", payerCanDo: FRESH_402 },
  credential_frozen: { meaning: "The agent's person froze its credential.", payerCanDo: "Nothing until its person unfreezes it on their account page." },
  approval_required: {
    meaning: "Held, not refused: the call is over the approval threshold the agent's person set, and waits for them to approve it (nothing charged yet).",
    payerCanDo: "Have the person approve at approvalUrl, then retry the same request.",
  },
  approval_declined: { meaning: "The agent's person declined the call (or let it expire).", payerCanDo: "Do not retry it; ask the person." },
  wallet_cap_exceeded: {
    meaning: "The paying wallet's person capped its spending here.",
    payerCanDo: "Wait until resetsAt, or ask the person to raise the cap.",
  },
  payment_incomplete: { meaning: "The card checkout is not paid yet.", payerCanDo: "Finish paying the checkout (poll its statusUrl), then retry." },
  payment_unknown: { meaning: "The payment id matches no payment of this storefront.", payerCanDo: "Check the id, or request a fresh 402." },
  payment_provider_unavailable: { meaning: "The card processor or chain could not be reached.", payerCanDo: "Retry the same request later, with backoff." },
  request_timeout: { meaning: "The request's body did not arrive in time.", payerCanDo: "Send the request again, whole." },
  uri_too_long: { meaning: "The request's URL is too long.", payerCanDo: "Shorten the path or query." },
  card_payments_unavailable: { meaning: "This storefront takes no card payments (no card processor is configured).", payerCanDo: "Pay with a wallet rail." },
  payment_in_progress: { meaning: "Another request is using this payment right now.", payerCanDo: "Wait for that request; do not send the proof twice." },
  payment_not_refundable: { meaning: "The payment is not in a refundable state.", payerCanDo: "Nothing: this is the seller's refund, not the payer's." },
  invalid_request: { meaning: "The request was malformed (a parameter, the body, or two payment proofs at once).", payerCanDo: FIX_REQUEST },
  payg_not_purchasable: { meaning: "Pay-as-you-go cannot be bought.", payerCanDo: "Buy a credit plan, or just pay per call." },
  amount_required: { meaning: "A credit plan purchase came without an amount.", payerCanDo: "Send amountUsd." },
  amount_not_cent_increment: { meaning: "The purchase amount was not whole cents.", payerCanDo: "Send a whole-cent amountUsd." },
  amount_below_minimum: { meaning: "The purchase amount was under the plan's minimum.", payerCanDo: "Raise amountUsd to the plan's minimum." },
  amount_above_maximum: { meaning: "The purchase amount was over the plan's maximum.", payerCanDo: "Buy up to the maximum and top up later." },
  amount_below_card_minimum: { meaning: "The purchase was under the card minimum.", payerCanDo: "Raise the amount, or pay with a wallet." },
  seller_not_found: { meaning: "The host maps to no storefront.", payerCanDo: "Use the storefront's own host." },
  plan_not_found: { meaning: "The plan does not exist (or was retired).", payerCanDo: "Use a plan id from the manifest." },
  service_not_found: { meaning: "No such service.", payerCanDo: "Use a service from /services." },
  not_found: { meaning: "No such resource.", payerCanDo: FIX_REQUEST },
  unknown_ticker: { meaning: "The ticker is not known.", payerCanDo: "Use a listed ticker." },
  artifact_not_found: { meaning: "The artifact does not exist or expired.", payerCanDo: "Run the call again for a fresh artifact." },
  archive_day_not_found: { meaning: "That archive day was not captured.", payerCanDo: "Ask the archive catalog for the days held." },
  signing_secret_required: { meaning: "The storefront has no upstream signing secret.", payerCanDo: SETUP },
  payout_address_required: { meaning: "The storefront has no payout address, so nothing can be paid to it.", payerCanDo: SETUP },
  catalog_conflict: { meaning: "A catalog change clashed with what exists.", payerCanDo: "Nothing: a console matter." },
  payment_request_mismatch: {
    meaning: "A payment made for one request was sent with another.",
    payerCanDo: "Request a fresh 402 for this very request and pay it.",
  },
  idempotency_key_reused: {
    meaning: "A plan-credit call reused an Idempotency-Key the same credential had used for another request; nothing was drawn.",
    payerCanDo: "Use a new key for each new request, the same key only for its retries.",
  },
  payment_amount_mismatch: { meaning: "A purchase retry carried another amount than its 402.", payerCanDo: "Retry with the quoted amount." },
  usage_not_priced: {
    meaning: "The upstream reported usage at an unpriced rate; the call could not be billed.",
    payerCanDo: "Nothing; the seller must price it.",
  },
  issuer_not_enabled: { meaning: "The identity provider is not trusted here.", payerCanDo: "Register with a trusted provider, or anonymously." },
  replay_detected: { meaning: "An identity assertion was used twice.", payerCanDo: "Sign a fresh assertion." },
  login_required: { meaning: "The identity provider needs the person to sign in.", payerCanDo: "Have the person sign in, then retry." },
  interaction_required: { meaning: "The identity provider needs the person's consent.", payerCanDo: "Have the person consent, then retry." },
  missing_verified_email: { meaning: "The identity carried no verified email.", payerCanDo: "Use an identity with a verified email." },
  invalid_audience: { meaning: "The assertion was made for another audience.", payerCanDo: "Request an assertion for this storefront." },
  expired: { meaning: "The assertion expired.", payerCanDo: "Sign a fresh one." },
  invalid_signature: { meaning: "A signature did not verify.", payerCanDo: "Sign again with the right key." },
  invalid_login_hint: { meaning: "The login hint was not acceptable.", payerCanDo: FIX_REQUEST },
  anonymous_registration_disabled: { meaning: "Anonymous registration is off here.", payerCanDo: "Register with a trusted identity provider." },
  service_auth_registration_disabled: { meaning: "Service registration is off here.", payerCanDo: "Register another way." },
  invalid_refresh_token: { meaning: "The refresh token is not valid.", payerCanDo: "Register again." },
  invalid_claim_token: { meaning: "The claim token is not valid.", payerCanDo: "Start a new claim." },
  too_many_attempts: { meaning: "Too many wrong codes were tried.", payerCanDo: "Start a new claim later." },
  claim_not_confirmed: { meaning: "The person has not confirmed the claim yet.", payerCanDo: "Wait for the person, then retry." },
  invalid_user_code: { meaning: "The user code was wrong.", payerCanDo: "Ask the person for the code again." },
  user_code_expired: { meaning: "The user code expired.", payerCanDo: "Start a new claim." },
  claim_denied: { meaning: "The person refused the claim.", payerCanDo: "Nothing: the person said no." },
  claim_expired: { meaning: "The claim expired.", payerCanDo: "Start a new claim." },
  already_claimed: { meaning: "The credential is claimed already.", payerCanDo: "Use it as it is." },
  invalid_grant: { meaning: "The token exchange was refused.", payerCanDo: "Exchange a valid assertion." },
  unsupported_grant_type: { meaning: "The grant type is not supported.", payerCanDo: FIX_REQUEST },
  invalid_client: { meaning: "The client did not authenticate.", payerCanDo: FIX_REQUEST },
  invalid_upstream_signature: { meaning: "The upstream refused the gateway's signature.", payerCanDo: SETUP },
  not_included: { meaning: "The data asked for is not included.", payerCanDo: FIX_REQUEST },
  upstream_unavailable: { meaning: "The data upstream could not be reached; nothing was charged.", payerCanDo: "Retry later." },
  upstream_timeout: { meaning: "The data upstream did not answer in time; nothing was charged.", payerCanDo: "Retry later." },
  unauthorized: { meaning: "No session.", payerCanDo: "Sign in." },
  forbidden: { meaning: "Not allowed.", payerCanDo: "Nothing." },
  method_not_allowed: { meaning: "Wrong HTTP method.", payerCanDo: FIX_REQUEST },
  payload_too_large: { meaning: "The body was too large.", payerCanDo: FIX_REQUEST },
  unsupported_media_type: { meaning: "The body's type was not JSON.", payerCanDo: FIX_REQUEST },
  rate_limit_exceeded: { meaning: "Too many requests in a short time; the proof was not used.", payerCanDo: "Wait retry_after seconds, then retry." },
  internal_error: { meaning: "An unexpected error on our side.", payerCanDo: "Retry later; the request id is in the log." },
  not_implemented: { meaning: "Not available here.", payerCanDo: "Nothing." },
};

/**
 * Codes answered before SERVICE.md part 7's were used everywhere, still named by refusals recorded then:
 * payment_invalid is now payment_required with the same reason (or settlement_failed for a wallet's funds).
 */
const FORMER_CODES: Record<string, Explanation> = {
  payment_invalid: { meaning: "The payment proof was refused.", payerCanDo: "Answer a fresh 402 with a proof made for it." },
};

/** Reasons that refine a refusal (payment_required's `reason`, settlement_failed's `settlementReason`) or say why a payment was released or failed. */
const REASONS: Record<string, Explanation> = {
  challenge_expired: { meaning: "The 402 challenge expired before the proof arrived.", payerCanDo: FRESH_402 },
  terms_changed: { meaning: "The price or recipient changed after the 402 was issued.", payerCanDo: FRESH_402 },
  method_unsupported: { meaning: "An MPP method this storefront does not take.", payerCanDo: "Answer one of the 402's own challenges." },
  malformed_payment: { meaning: "The payment header could not be read.", payerCanDo: "Send the header the payment library produces, unchanged." },
  malformed_credential: { meaning: "The MPP credential could not be read.", payerCanDo: "Send the credential the MPP client produces, unchanged." },
  multiple_payment_proofs: { meaning: "Proofs of two rails came at once; nothing was charged.", payerCanDo: "Send exactly one payment proof." },
  amount_mismatch: { meaning: "The proof pays another amount than the 402 asked.", payerCanDo: "Pay the 402's exact amount." },
  recipient_mismatch: { meaning: "The proof pays another address than the storefront's.", payerCanDo: "Pay the 402's payTo." },
  authorization_used: { meaning: "The wallet authorization was spent already.", payerCanDo: "Sign a new authorization for a fresh 402." },
  authorization_expired: { meaning: "The wallet authorization's validity window had passed.", payerCanDo: "Sign with a longer validity window." },
  authorization_not_yet_valid: { meaning: "The wallet authorization is not valid yet.", payerCanDo: "Sign with validAfter in the past." },
  insufficient_funds: { meaning: "The wallet did not hold enough USDC.", payerCanDo: "Fund the wallet, then pay a fresh 402." },
  invalid_exact_evm_insufficient_balance: { meaning: "The wallet did not hold enough USDC.", payerCanDo: "Fund the wallet, then pay a fresh 402." },
  upstream_error: { meaning: "The data upstream answered with an error; nothing was charged.", payerCanDo: "Retry later with a fresh 402." },
  upstream_rejected: {
    meaning: "The data upstream refused the request (4xx: unknown ticker, not included); nothing was charged.",
    payerCanDo: "Fix the request per the body, then pay a fresh 402.",
  },
  upstream_timeout: { meaning: "The data upstream did not answer in time; nothing was charged.", payerCanDo: "Retry later with a fresh 402." },
  usage_error: { meaning: "The upstream's usage report could not be billed; nothing was charged.", payerCanDo: "Nothing; the seller must look." },
  checkout_expired: {
    meaning: "Nobody paid the card checkout before it expired; nothing was charged.",
    payerCanDo: "Open a fresh checkout if the call is still wanted.",
  },
  delivery_failed: { meaning: "The call failed after the card was charged; the card was refunded in full.", payerCanDo: "Retry with a fresh 402." },
  token_expired: { meaning: "The agent's access token expired.", payerCanDo: "Re-exchange it from the stored assertion." },
  token_invalid: { meaning: "The agent's access token is not valid here.", payerCanDo: "Re-exchange, or register again." },
};

/** A refusal code (and its reason, when one refines it) in a seller's words. Unknown codes are named as they are. */
export function explainRefusal(code: string, reason?: string | null): Explanation {
  const byReason = reason ? REASONS[reason] : undefined;
  if (byReason) return byReason;
  const byCode = (ERROR_EXPLANATIONS as Record<string, Explanation | undefined>)[code] ?? FORMER_CODES[code];
  if (byCode && PERSON_CONTROL_CODES.has(code)) return { ...byCode, setBy: "person" };
  return byCode ?? { meaning: `Refused with ${code}${reason ? ` (${reason})` : ""}.`, payerCanDo: FIX_REQUEST };
}

/** Why a payment was released or failed (its failure reason), in a seller's words. */
export function explainFailure(reason: string | null, status: "released" | "failed"): Explanation {
  if (reason && REASONS[reason]) return REASONS[reason];
  if (reason?.startsWith("abandoned"))
    return { meaning: "The serving instance stopped before the upstream answered; nothing was charged.", payerCanDo: "Retry with a fresh 402." };
  if (status === "released") return { meaning: `Released without charge${reason ? ` (${reason})` : ""}.`, payerCanDo: "Retry with a fresh 402." };
  return { meaning: `The payment did not settle${reason ? ` (${reason})` : ""}.`, payerCanDo: FRESH_402 };
}
