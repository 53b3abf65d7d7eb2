import { z } from "zod";
import { usd } from "./common";

export const sellerOverviewOutput = z.object({
  seller: z.object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    hosts: z.array(z.string()),
    signingSecretSet: z.boolean(),
    payTo: z.string().nullable(),
  }),
  services: z.array(
    z.object({
      id: z.string(),
      slug: z.string(),
      title: z.string(),
      status: z.string(),
      upstreamUrl: z.string(),
      operations: z.array(
        z.object({ id: z.string(), key: z.string(), method: z.string(), path: z.string(), summary: z.string(), meter: z.string().nullable() }),
      ),
    }),
  ),
  meters: z.array(
    z.object({
      id: z.string(),
      key: z.string(),
      title: z.string(),
      unit: z.string(),
      includedUnits: z.number().int(),
      priceUsd: usd.nullable(),
      priceLabel: z.string(),
    }),
  ),
});

export const priceChangeOutput = z.object({ meter: z.string(), beforeUsd: usd, afterUsd: usd });

const railOffers = z.array(z.object({ rail: z.string(), methods: z.array(z.string()) }));
export const pricePreviewOutput = z.object({
  meter: z.object({ id: z.string(), key: z.string(), title: z.string(), operations: z.array(z.string()) }),
  beforeUsd: usd.nullable(),
  afterUsd: usd,
  unchanged: z.boolean(),
  last30Days: z.object({
    byPrice: z.array(z.object({ priceUsd: usd, calls: z.number().int(), draws: z.number().int(), revenueUsd: usd, drawnUsd: usd, current: z.boolean() })),
    atNewPrice: z.object({ calls: z.number().int(), revenueUsd: usd }).nullable(),
  }),
  rails: z.object({ before: railOffers, after: railOffers, gained: z.array(z.string()), lost: z.array(z.string()) }),
  cardMinimumUsd: usd,
});

export const plansOutput = z.array(
  z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string(),
    kind: z.string(),
    status: z.string(),
    meters: z.array(z.string()),
    minimumUsd: z.string().nullable(),
    maximumUsd: z.string().nullable(),
    cardMinimumUsd: z.string().nullable(),
    creditValidityDays: z.number().int(),
    liveCreditUsd: usd,
    purchasedUsd: usd,
    holders: z.number().int(),
  }),
);

export const planChangeOutput = z.object({ planId: z.string() });
export const planRetireOutput = z.object({ planId: z.string(), alreadyRetired: z.boolean() });
export const meterChangeOutput = z.object({ meter: z.string() });

export const planPreviewOutput = z.object({
  plan: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
  changes: z.array(z.object({ field: z.string(), label: z.string(), before: z.string(), after: z.string() })),
  metersAdded: z.array(z.string()),
  metersRemoved: z.array(z.string()),
  liveCreditUsd: usd,
  holders: z.number().int(),
  blocked: z.string().nullable(),
});
