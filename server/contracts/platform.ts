// Storefront operations that are not sold: discovery, agent identity, token exchange, plans. They are part
// of every storefront's OpenAPI document (service "storefront"), free, described here once.
import { z } from "zod";
import type { OperationContract } from "./operations";
import { checkoutOpenedResponse, paymentStatusResponse } from "./payment-status";

export const PLATFORM_SERVICE = {
  slug: "storefront",
  title: "Storefront: discovery, identity and plans",
  description: "Free operations every storefront answers: machine-readable discovery, agent credentials, token exchange and plan purchases.",
};

const loose = z.record(z.string(), z.unknown());
const openapiQuery = z.object({
  q: z.string().max(200).optional().meta({ description: "Ranked text search over path, summary, description and parameters." }),
  path: z
    .string()
    .max(300)
    .optional()
    .meta({ description: "Only operations at this path (a template such as /api/v1/aggregates/{ticker}, a concrete path, or a prefix)." }),
  method: z.string().max(10).optional().meta({ description: "Only operations with this HTTP method." }),
  service: z.string().max(64).optional().meta({ description: "Only operations of this service slug (see /services)." }),
  page: z.string().regex(/^\d+$/).optional().meta({ description: "Page number, from 1. A page holds at most 10 operations." }),
});

const usd = z.string().meta({ description: "USD, six decimals." });

/** A plan the bearer holds credit on: the balance over every grant (one per purchase or top-up). */
const planBalance = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  status: z.string().meta({ description: "live, or retired: no longer sold, its credit keeps working." }),
  meters: z.array(z.string()).meta({ description: "The meters the plan's credit pays for." }),
  balanceUsd: usd,
  purchasedUsd: usd,
  expiresAt: z.string().meta({ description: "The last moment any of this credit can be drawn." }),
  grants: z.array(
    z.object({
      id: z.string(),
      amountUsd: usd,
      remainingUsd: usd,
      expiresAt: z.string(),
      sourcePaymentId: z.string().meta({ description: "The payment that bought it (GET /payments/{id})." }),
      credential: z.string().meta({ description: "The credential that bought it." }),
    }),
  ),
});

/** GET /agent/entitlements. */
export const entitlementsResponse = z.object({
  agent: z.object({ id: z.string(), type: z.string(), claimed: z.boolean(), human: z.object({ id: z.string(), email: z.string() }).nullable() }),
  credentials: z.array(z.string()).meta({ description: "This credential and every other one the same human claimed here: they share plans and free units." }),
  plans: z.array(planBalance),
  heldByInstances: z
    .array(z.object({ plan: z.string().meta({ description: "The plan's id (plans[].id)." }), heldUsd: usd }))
    .optional()
    .meta({
      description:
        "Of each plan's balanceUsd, what the storefront's instances hold in short leases now to pay calls from memory (a few seconds or calls' worth each): spendable, not yet recorded as spent; what a lease does not spend comes back to the plan when it ends. Plans with nothing held are left out; absent while nothing is held.",
    }),
  credit: z.array(z.object({ meter: z.string(), priceUsd: usd, creditUsd: usd, calls: z.number().int() })).meta({
    description:
      "What the credit held buys, per priced meter: the credit that can pay it (every grant whose plan covers it: a call's price is drawn from as many grants as it takes) and the calls that is at the current price, rounded down. Meters no credit covers are left out.",
  }),
  includedUnits: z
    .array(z.object({ meter: z.string(), included: z.number().int(), used: z.number().int(), left: z.number().int() }))
    .meta({ description: "Free units per meter, for a claimed human (once per human, whichever credential uses them). Empty before a claim." }),
});

/** POST /plans/{planId}/purchase and POST /extend, once paid. */
export const purchaseResponse = z.object({
  status: z.literal("credited"),
  payment: z.object({ id: z.string(), rail: z.string().nullable(), transaction: z.string().nullable() }),
  grant: z.object({ id: z.string(), plan: z.string(), amountUsd: usd, remainingUsd: usd, expiresAt: z.string(), credential: z.string() }),
  plan: planBalance.nullable(),
});

export const PLATFORM_CONTRACTS: OperationContract[] = [
  {
    key: "openapi",
    method: "GET",
    path: "/openapi.json",
    upstreamPath: "",
    summary: "OpenAPI 3.1 description of this storefront",
    description: "Filters combine. Follow info.x-next or the Link header (rel=next) for the next page.",
    query: openapiQuery,
    response: loose,
    keywords: ["discovery", "openapi", "search", "catalog"],
  },
  {
    key: "services",
    method: "GET",
    path: "/services",
    upstreamPath: "",
    summary: "Service catalog",
    description: "The storefront's services with their operations and prices.",
    response: loose,
    keywords: ["discovery", "catalog"],
  },
  {
    key: "service_openapi",
    method: "GET",
    path: "/services/{slug}/openapi.json",
    upstreamPath: "",
    summary: "OpenAPI description restricted to one service",
    description: "Same filters as /openapi.json.",
    pathParams: z.object({ slug: z.string() }),
    query: openapiQuery,
    response: loose,
    keywords: ["discovery"],
  },
  {
    key: "manifest",
    method: "GET",
    path: "/manifest.json",
    upstreamPath: "",
    summary: "Manifest: live services, meters, plans, prices and free included units",
    description: "Authoritative for prices: it is what the gateway charges.",
    response: loose,
    keywords: ["prices", "pricing", "plans", "meters", "discovery"],
  },
  {
    key: "agent_identity",
    method: "POST",
    path: "/agent/identity",
    upstreamPath: "",
    summary: "Register an agent credential, or refresh one",
    description: "type: anonymous | service_auth (login_hint) | identity_assertion (ID-JAG) | refresh (refresh_token).",
    body: loose,
    response: loose,
    keywords: ["register", "credential", "identity", "id-jag"],
  },
  {
    key: "agent_identity_claim",
    method: "POST",
    path: "/agent/identity/claim",
    upstreamPath: "",
    summary: "Start a claim: a human confirms the credential",
    description: "Returns attempt.verification_uri for the human.",
    body: loose,
    response: loose,
    keywords: ["claim", "human"],
  },
  {
    key: "agent_identity_claim_complete",
    method: "POST",
    path: "/agent/identity/claim/complete",
    upstreamPath: "",
    summary: "Finish a claim with the user code",
    description: "Returns the verified identity once.",
    body: loose,
    response: loose,
    keywords: ["claim", "code"],
  },
  {
    key: "agent_entitlements",
    method: "GET",
    path: "/agent/entitlements",
    upstreamPath: "",
    summary: "Active plans and remaining credit for the bearer",
    description:
      "For this credential plus every credential claimed by the same human: each plan's balance and grants (amount, remaining, expiry, the payment that bought it), and the free included units left.",
    response: entitlementsResponse,
    keywords: ["plans", "credit", "balance"],
  },
  {
    key: "oauth_token",
    method: "POST",
    path: "/oauth2/token",
    upstreamPath: "",
    summary: "Exchange an assertion for a short-lived access token",
    description: "Form body: grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer, assertion.",
    response: loose,
    keywords: ["oauth", "token", "jwt-bearer"],
  },
  {
    key: "oauth_protected_resource",
    method: "GET",
    path: "/.well-known/oauth-protected-resource",
    upstreamPath: "",
    summary: "Protected resource metadata (RFC 9728)",
    description: "",
    response: loose,
    keywords: ["oauth", "discovery"],
  },
  {
    key: "oauth_authorization_server",
    method: "GET",
    path: "/.well-known/oauth-authorization-server",
    upstreamPath: "",
    summary: "Authorization server metadata (RFC 8414) with the agent_auth block",
    description: "",
    response: loose,
    keywords: ["oauth", "discovery", "agent_auth"],
  },
  {
    key: "payment_status",
    method: "GET",
    path: "/payments/{id}",
    upstreamPath: "",
    summary: "State of one payment (the 402's payment.id)",
    description:
      "status: challenged, incomplete (a card checkout is open), verified, settled, consumed, released, refunded or failed; the settlement reference; what was refunded so far (`amount_refunded`, and each refund in `refunds`: a payment still settled or consumed with some refunded is partially refunded) and, once refunded in full, the refund. The 402's card.statusUrl points here: poll card.status until complete. On every rail, `phase` tells settlement pending apart from unpaid (unpaid, in_progress, settlement_pending, paid, unpaid_delivery, released, refunded, expired, failed) and `next` says whether to pay, wait, retry the same request (free within the re-delivery window), pay again, or do nothing (none).",
    pathParams: z.object({ id: z.string() }),
    response: paymentStatusResponse,
    keywords: ["payment", "status", "receipt", "refund", "settlement", "card"],
  },
  {
    key: "payment_checkout",
    method: "POST",
    path: "/payments/{id}/pay",
    upstreamPath: "",
    summary: "Open a hosted card checkout for a 402 of $0.50 or more (its card.payUrl)",
    description:
      'JSON body {"checkout": true}. Needs no funds and no credential. Returns checkout.url, a page a human pays on by card; poll statusUrl until card.status is complete, then retry the original request unchanged with the header svc-payment-id.',
    pathParams: z.object({ id: z.string() }),
    body: z.object({ checkout: z.literal(true) }),
    response: checkoutOpenedResponse,
    keywords: ["card", "checkout", "pay", "stripe", "human"],
  },
  {
    key: "plan_purchase",
    method: "POST",
    path: "/plans/{planId}/purchase",
    upstreamPath: "",
    summary: "Buy credit on a plan (bearer plus payment)",
    description:
      "JSON body: amountUsd (whole-cent decimal, required for credit plans), checkout (boolean). Pay-as-you-go plans cannot be purchased. " +
      "Send the agent bearer (Authorization: Bearer, or SVC-Agent-Authorization on MPP): without a payment the answer is a 402 for amountUsd, " +
      "bound to the plan, the amount and the credential; pay it on any rail and retry the same request with the proof to be credited once " +
      "(a replay answers the same; another amountUsd with that proof is payment_amount_mismatch). Plan-covered calls then need only the bearer.",
    pathParams: z.object({ planId: z.string() }),
    body: loose,
    response: purchaseResponse,
    keywords: ["buy", "purchase", "credit", "plan"],
  },
  {
    key: "plan_extend",
    method: "POST",
    path: "/extend",
    upstreamPath: "",
    summary: "Top up credit on a plan you hold",
    description:
      "Same headers, amountUsd and payment as a purchase; planId names the plan (optional when the bearer holds credit on exactly one). No plan held: 403 access_not_found.",
    body: loose,
    response: purchaseResponse,
    keywords: ["top up", "extend", "credit"],
  },
];
