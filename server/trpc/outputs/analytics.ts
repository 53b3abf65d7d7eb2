import { z } from "zod";
import { TRANSPORTS } from "../../payments/paid-call";
import { explanation, iso, percent, rangeView, usd } from "./common";

const figure = z.object({ netUsd: usd, previousNetUsd: usd, changePercent: percent });
const revenueRow = { payments: z.number().int(), refunds: z.number().int(), chargedUsd: usd, refundedUsd: usd, netUsd: usd, sharePercent: percent };
const customer = <K extends string>(kind: K) =>
  z.object({ kind: z.literal(kind), id: z.string(), payments: z.number().int(), netUsd: usd, lastAt: iso.nullable() });

export const funnelCounts = z.object({
  issued: z.number().int(),
  neverPaid: z.number().int(),
  proofs: z.number().int(),
  refused: z.number().int(),
  verified: z.number().int(),
  released: z.number().int(),
  beingServed: z.number().int(),
  served: z.number().int(),
  failed: z.number().int(),
  settling: z.number().int(),
  settled: z.number().int(),
});
const stages = z.object({
  issued: z.number().int(),
  answered: z.number().int(),
  verified: z.number().int(),
  served: z.number().int(),
  settled: z.number().int(),
  withoutChallenge: z.number().int(),
  conversionPercent: percent,
});
const step = z.enum(["proof", "serve", "settle"]);

const marginView = z.object({
  calls: z.number().int(),
  refunds: z.number().int(),
  netUsd: usd,
  revenuePerCallUsd: usd.nullable(),
  gasEth: z.string(),
  gasKnown: z.number().int(),
  gasCalls: z.number().int(),
  gasPerCallEth: z.string().nullable(),
  gasUsd: usd.nullable(),
  gasPerCallUsd: usd.nullable(),
  feesUsd: usd,
  feeKnown: z.number().int(),
  costKnownForAll: z.boolean(),
  marginUnknownBecause: z.literal("no_eth_rate").nullable(),
  marginUsd: usd.nullable(),
  marginPercent: percent,
});

const headline = z.object({
  today: figure,
  monthToDate: figure.extend({ from: z.string(), previousFrom: z.string() }),
  last7Days: figure,
  last30Days: figure,
});
export const headlineOutput = headline;

export const topCustomersOutput = z.object({ range: rangeView, wallets: z.array(customer("wallet")), credentials: z.array(customer("credential")) });

export const overviewOutput = z.object({
  range: rangeView.extend({ bucket: z.enum(["hour", "day"]) }),
  previous: z.object({ start: iso, end: iso }),
  headline,
  totals: figure.extend({
    chargedUsd: usd,
    refundedUsd: usd,
    paidCalls: z.number().int(),
    previousPaidCalls: z.number().int(),
    paidCallsChangePercent: percent,
    charges: z.number().int(),
    creditCalls: z.number().int(),
    drawnUsd: usd,
    refunds: z.number().int(),
    wallets: z.number().int(),
    credentials: z.number().int(),
    cards: z.number().int(),
    payerKinds: z.array(z.string()),
  }),
  series: z.array(
    z.object({
      bucket: z.string(),
      netUsd: usd,
      chargedUsd: usd,
      refundedUsd: usd,
      calls: z.number().int(),
      previousBucket: z.string(),
      previousNetUsd: usd,
    }),
  ),
  byOperation: z.array(z.object({ operation: z.string(), calls: z.number().int(), refunds: z.number().int(), netUsd: usd })),
  revenueByOperation: z.array(z.object({ operation: z.string(), ...revenueRow })),
  revenueByRail: z.array(z.object({ rail: z.string(), ...revenueRow })),
  cardPayers: z.object({ customers: z.array(customer("card")), unidentified: z.object({ payments: z.number().int(), netUsd: usd }) }),
  problems: z.object({
    released: z.number().int(),
    failed: z.number().int(),
    refused: z.number().int(),
    rateLimited: z.number().int(),
    inProgress: z.number().int(),
    reasons: z.array(explanation.extend({ step, code: z.string(), count: z.number().int() })),
  }),
  conversion: z.object({ issued: z.number().int(), settled: z.number().int(), percent }),
  byTransport: z.array(z.object({ transport: z.enum(TRANSPORTS), calls: z.number().int(), netUsd: usd })),
  margin: marginView.extend({
    rateSet: z.boolean(),
    withoutGas: z.object({ calls: z.number().int(), netUsd: usd, feesUsd: usd, marginUsd: usd.nullable() }),
  }),
});

export const meterUsageOutput = z.object({
  range: rangeView,
  meters: z.array(z.string()),
  days: z.array(z.object({ day: z.string(), calls: z.record(z.string(), z.number().int()) })),
  totals: z.record(z.string(), z.number().int()),
});

export const funnelOutput = z.object({
  range: rangeView,
  filter: z.object({ operation: z.string().nullable(), rail: z.string().nullable() }),
  operations: z.array(z.string()),
  rails: z.array(z.string()),
  steps: funnelCounts,
  conversionPercent: percent,
  stages,
  byOperation: z.array(funnelCounts.extend({ operation: z.string(), conversionPercent: percent, stages })),
  byRail: z.array(funnelCounts.extend({ rail: z.string().nullable() })),
  byTransport: z.array(
    z.object({
      transport: z.enum(TRANSPORTS),
      calls: z.number().int(),
      netUsd: usd,
      answered: z.number().int(),
      served: z.number().int(),
      settled: z.number().int(),
    }),
  ),
  reasons: z.array(z.object({ step, code: z.string(), count: z.number().int() })),
  explanations: z.record(z.string(), explanation),
  personControls: z.object({
    held: z.number().int(),
    pendingNow: z.number().int(),
    declined: z.number().int(),
    budgetRefused: z.number().int(),
    otherControls: z.number().int(),
  }),
});

export const marginOutput = z.object({
  range: rangeView,
  rate: z.object({ ethUsd: usd, setAt: iso.nullable() }).nullable(),
  rows: z.array(marginView.extend({ operation: z.string(), rail: z.string().nullable() })),
  total: marginView,
});

/** Which processor takes card payments (never its key). */
export const cardProcessorOutput = z.discriminatedUnion("processor", [
  z.object({ processor: z.literal("stripe"), mode: z.enum(["live", "test"]) }),
  z.object({ processor: z.literal("test") }),
  z.object({ processor: z.literal("none") }),
]);

export const setupChecklistOutput = z.object({
  items: z.array(z.object({ key: z.enum(["contact", "payout", "card", "webhooks"]), done: z.boolean() })),
  complete: z.boolean(),
  contactEmail: z.string().nullable(),
  payTo: z.string().nullable(),
  cardProcessor: cardProcessorOutput,
  enabledWebhooks: z.number().int(),
});
