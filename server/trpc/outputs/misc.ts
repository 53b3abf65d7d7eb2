// Output schemas of the smaller routers: archive, customers, identity, settings, search, audit's filter menus.
import { z } from "zod";
import { iso, rangeView, usd } from "./common";

export const archiveCoverageOutput = z.object({
  asOf: z.string(),
  note: z.string(),
  feeds: z.array(
    z.object({
      feed: z.string(),
      description: z.string().nullable(),
      entities: z.array(
        z.object({
          entity: z.string(),
          firstDate: z.string().nullable(),
          lastDate: z.string().nullable(),
          days: z.number().int(),
          lastCapturedAt: iso.nullable(),
        }),
      ),
    }),
  ),
});

const coverageOutput = z
  .object({
    summary: z.string(),
    entities: z.array(z.object({ name: z.string(), first_date: z.string().optional(), last_date: z.string().optional() })).optional(),
  })
  .nullable();

export const operationsCoverageOutput = z.object({
  running: z.enum(["embedded", "live"]),
  operations: z.array(
    z.object({
      key: z.string(),
      method: z.string(),
      path: z.string(),
      summary: z.string(),
      service: z.string(),
      embedded: coverageOutput,
      live: coverageOutput,
    }),
  ),
});

export const auditFilterOptionsOutput = z.object({
  actions: z.array(z.object({ action: z.string(), label: z.string(), target: z.string(), targetLabel: z.string() })),
  actors: z.array(z.object({ id: z.string(), email: z.string() })),
});

/** Card payers (customers.cardPayers): by the email given at checkout, or by card. */
export const cardPayersOutput = z.object({
  range: rangeView,
  payers: z.array(
    z.object({
      email: z.string().nullable(),
      cards: z.array(z.string()),
      payments: z.number().int(),
      refunds: z.number().int(),
      paidUsd: usd,
      refundedUsd: usd,
      lastAt: iso.nullable(),
    }),
  ),
});

export const payersOutput = z.object({
  range: rangeView,
  page: z.number().int(),
  pages: z.number().int(),
  total: z.number().int(),
  payers: z.array(
    z.object({
      payer: z.string(),
      kind: z.string(),
      rails: z.array(z.string()),
      calls: z.number().int(),
      refunds: z.number().int(),
      netUsd: usd,
      firstAt: iso,
      lastAt: iso.nullable(),
    }),
  ),
});

const money = { plans: z.array(z.string()), balanceUsd: usd, spentUsd: usd, drawnUsd: usd, calls: z.number().int(), lastCallAt: iso.nullable() };

export const credentialsOutput = z.object({
  credentials: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      state: z.string(),
      human: z.string().nullable(),
      createdAt: iso,
      claimedAt: iso.nullable(),
      expiresAt: iso.nullable(),
      ...money,
    }),
  ),
  nextCursor: z.string().nullable(),
});

export const humansOutput = z.object({
  humans: z.array(
    z.object({
      id: z.string(),
      email: z.string(),
      since: iso,
      credentials: z.array(z.object({ id: z.string(), kind: z.string(), state: z.string() })),
      purchasedUsd: usd,
      ...money,
    }),
  ),
  nextCursor: z.string().nullable(),
});

/** One plan's buyers (customers.planBuyers), largest amount first. */
export const planBuyersOutput = z.object({
  buyers: z.array(
    z.object({
      humanId: z.string().nullable(),
      email: z.string().nullable(),
      credentialIds: z.array(z.string()),
      purchases: z.number().int(),
      topUps: z.number().int(),
      boughtUsd: usd,
      creditLeftUsd: usd,
      lastPurchaseAt: iso,
    }),
  ),
  more: z.boolean(),
});

const provider = z.object({
  id: z.string(),
  issuer: z.string(),
  keySource: z.discriminatedUnion("type", [
    z.object({ type: z.literal("jwks_uri"), jwksUri: z.string() }),
    z.object({ type: z.literal("inline"), keyCount: z.number().int(), kids: z.array(z.string()) }),
  ]),
  keySourceLabel: z.string(),
  enabled: z.boolean(),
  createdAt: iso,
});
export const providerOutput = provider;
export const providersOutput = z.object({
  providers: z.array(provider),
  hosts: z.array(z.object({ hostname: z.string(), createdAt: iso })),
  audience: z.string(),
});
export const providerRemovedOutput = z.object({ id: z.string(), issuer: z.string() });

export const settingsOutput = z.object({
  storefront: z.object({
    name: z.string(),
    slug: z.string(),
    hosts: z.array(z.string()),
    payTo: z.string().nullable(),
    signingSecretSet: z.boolean(),
  }),
  explorers: z.array(z.object({ network: z.string(), name: z.string(), format: z.string().nullable(), defaultFormat: z.string().nullable() })),
  ethUsd: z.object({ usd: usd, setAt: iso.nullable() }).nullable(),
  merchant: z.lazy(() => merchantInfoOutput),
  unsettledCap: z.lazy(() => unsettledCapOutput),
  sellerUnsettledCap: z.lazy(() => unsettledCapOutput),
  creditLease: z.lazy(() => creditLeaseOutput),
});

/** The bounds on leased plan credit: the seller's (null: the default), the defaults, the range allowed, on or off now. */
export const creditLeaseOutput = z.object({
  calls: z.number().int().nullable(),
  ms: z.number().int().nullable(),
  defaultCalls: z.number().int(),
  defaultMs: z.number().int(),
  maxCalls: z.number().int(),
  minMs: z.number().int(),
  maxMs: z.number().int(),
  on: z.boolean(),
});

/** The per-wallet cap on value delivered before settlement: the seller's (null: the default), the default, the most allowed. */
export const unsettledCapOutput = z.object({ usd: usd.nullable(), defaultUsd: usd, maxUsd: usd });

/** The seller's contact, terms and refund policy, as payers read them (null: not given). */
export const merchantInfoOutput = z.object({ contactEmail: z.string().nullable(), termsText: z.string().nullable(), refundPolicy: z.string().nullable() });

export const searchOutput = z.object({
  q: z.string(),
  hits: z.array(
    z.object({
      kind: z.enum(["payment", "wallet", "credential", "person", "plan", "meter", "operation"]),
      id: z.string(),
      label: z.string(),
      detail: z.string(),
      href: z.string(),
      payment: z.object({ amountUsd: usd, status: z.string(), rail: z.string().nullable(), operation: z.string(), createdAt: z.string() }).optional(),
    }),
  ),
});

/** One customer's page (customers.customer): a wallet, a person by email, or an agent credential. */
export const customerOutput = z.object({
  id: z.string(),
  kind: z.enum(["wallet", "email", "credential"]),
  credentials: z.array(z.object({ id: z.string(), kind: z.string(), revoked: z.boolean() })),
  cards: z.array(z.string()),
  spend: z.object({
    paidUsd: usd,
    refundedUsd: usd,
    netUsd: usd,
    payments: z.number().int(),
    refunds: z.number().int(),
    drawnUsd: usd,
    draws: z.number().int(),
  }),
  creditLeftUsd: usd,
  creditHeldByInstancesUsd: usd,
  plans: z.array(z.object({ plan: z.string(), boughtUsd: usd, remainingUsd: usd, expiresAt: iso, live: z.boolean() })),
  firstAt: iso.nullable(),
  lastAt: iso.nullable(),
  payments: z.array(
    z.object({
      id: z.string(),
      createdAt: iso,
      operation: z.string(),
      amountUsd: usd,
      rail: z.string().nullable(),
      status: z.string(),
      refundedUsd: usd.nullable(),
      refundedAt: iso.nullable(),
    }),
  ),
  morePayments: z.boolean(),
});

/** A payout wallet change: the address before (null: none) and now, when, and how many owners were emailed. */
export const payoutChangeOutput = z.object({ previous: z.string().nullable(), payTo: z.string(), changedAt: iso, notified: z.number().int() });
