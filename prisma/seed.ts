// The demo market data seller (SERVICE.md part 8), as a reusable factory: the demo seeds it once with the
// demo hosts and credentials, and tests create as many isolated sellers as they need. Idempotent: running it
// again changes nothing (prices a seller has edited are kept).
import { hashPassword } from "../server/auth/password";
import { getContract, OPERATIONS, operationsByService, operationsInCatalogOrder } from "../server/market/operations";
import type { PrismaClient } from "../server/db/generated/client";
import { newId } from "../server/lib/ids";

export const DEMO_SELLER = {
  slug: "demo-market-data",
  name: "Demo Market Data",
  hosts: ["localhost", "127.0.0.1"],
  email: "seller@demo.test",
  password: "demo-seller-password",
  // Anvil's mnemonic account 10: receives payments. The facilitator's gas wallet (account 0) and the demo
  // payer wallets (accounts 1-9) are different accounts.
  payTo: "0xBcd4042DE499D14e55001CcbB24a551F3b954096",
} as const;

/** Upstream of the built-in market data API: resolved against this app's own origin. */
export const MARKET_UPSTREAM_URL = "/upstream/market/v1";

type ServiceSeed = { slug: string; title: string; description: string; upstreamUrl: string; operations: string[] };
type MeterSeed = { key: string; title: string; priceMicros: bigint; includedUnits?: number; operations: string[] };

// The free advisor is not a data operation: answered by this app, never by an upstream.
const ADVISOR_SERVICE: ServiceSeed = {
  slug: "agent-advisor",
  title: "Agent advisor",
  description: "Free guidance: which operations and plans fit a goal.",
  upstreamUrl: "",
  operations: ["advisor_guide", "advisor_quote"],
};
const ADVISOR_METER: MeterSeed = { key: "advisor", title: "Advisor (free)", priceMicros: 0n, operations: ["advisor_guide", "advisor_quote"] };

/** The services, from the operations registry (catalog order), then the advisor's. */
export function marketServices(): ServiceSeed[] {
  return [
    ...operationsByService().map(({ service, operations }) => ({ ...service, upstreamUrl: MARKET_UPSTREAM_URL, operations: operations.map((o) => o.key) })),
    ADVISOR_SERVICE,
  ];
}

/** Each data operation's meter at its default price (SERVICE.md part 8; basis, which the spec does not price, $0.05), then the advisor's. */
export function marketMeters(): MeterSeed[] {
  const meters = new Map<string, MeterSeed>();
  for (const op of operationsInCatalogOrder()) {
    const m = meters.get(op.meter.key);
    if (m) m.operations.push(op.key);
    else meters.set(op.meter.key, { ...op.meter, operations: [op.key] });
  }
  return [...meters.values(), ADVISOR_METER];
}

/** The plans: pay as you go and research credits cover every data meter; the archive pass, the archive service's. */
export function marketPlans() {
  const dataMeters = marketMeters()
    .filter((m) => m.key !== ADVISOR_METER.key)
    .map((m) => m.key);
  const archiveMeters = [...new Set(OPERATIONS.filter((o) => o.service === "market-archive").map((o) => o.meter.key))];
  return [
    {
      slug: "payg",
      name: "Pay as you go",
      kind: "payg",
      description: "Pay each request in USDC (x402 or MPP) or by card for $0.50 and up. No account.",
      meters: dataMeters,
      min: null,
      max: null,
      cardMin: null,
    },
    {
      slug: "research-credits",
      name: "Research credits",
      kind: "credit",
      description: "Prepaid credit drawn down at the per-request prices, for every data meter.",
      meters: dataMeters,
      min: 5_000_000n,
      max: 500_000_000n,
      cardMin: 500_000n,
    },
    {
      slug: "archive-pass",
      name: "Archive pass",
      kind: "credit",
      description: "Prepaid credit for the point-in-time archive only.",
      meters: archiveMeters,
      min: 1_000_000n,
      max: 100_000_000n,
      cardMin: 500_000n,
    },
  ] as const;
}

export type SellerSeedInput = {
  slug: string;
  name: string;
  hosts: readonly string[];
  email: string;
  password: string;
  payTo: string | null;
  signingSecret: string | null;
};

/** Create (or complete) a market data seller with its whole catalog. Returns the seller id. */
export async function seedMarketSeller(db: PrismaClient, input: SellerSeedInput): Promise<{ sellerId: string; userId: string }> {
  const seller = await db.seller.upsert({
    where: { slug: input.slug },
    create: { id: newId("sel"), slug: input.slug, name: input.name, signingSecret: input.signingSecret, payToAddress: input.payTo },
    update: {},
  });
  for (const hostname of input.hosts) {
    await db.sellerHost.upsert({ where: { hostname }, create: { hostname, sellerId: seller.id }, update: {} });
  }
  const user =
    (await db.sellerUser.findUnique({ where: { email: input.email } })) ??
    (await db.sellerUser.create({
      data: { id: newId("usr"), sellerId: seller.id, email: input.email, name: `${input.name} admin`, passwordHash: await hashPassword(input.password) },
    }));

  // Read now, not at import: an operation a test registers is part of the catalog it seeds.
  const meters = marketMeters();
  const meterIds = new Map<string, string>();
  for (const m of meters) {
    const meter = await db.meter.upsert({
      where: { sellerId_key: { sellerId: seller.id, key: m.key } },
      create: { id: newId("mtr"), sellerId: seller.id, key: m.key, title: m.title, includedUnits: m.includedUnits ?? 0 },
      update: { title: m.title },
    });
    meterIds.set(m.key, meter.id);
    // Create-if-missing: a price the seller has changed in the console survives a re-seed.
    await db.price.upsert({
      where: { meterId: meter.id },
      create: { id: newId("prc"), sellerId: seller.id, meterId: meter.id, amountMicros: m.priceMicros },
      update: {},
    });
  }
  const meterOf = (opKey: string) => meters.find((m) => m.operations.includes(opKey))?.key;

  let sort = 0;
  for (const [si, s] of marketServices().entries()) {
    const service = await db.service.upsert({
      where: { sellerId_slug: { sellerId: seller.id, slug: s.slug } },
      create: { id: newId("svc"), sellerId: seller.id, slug: s.slug, title: s.title, description: s.description, upstreamUrl: s.upstreamUrl, sortOrder: si },
      update: { title: s.title, description: s.description, sortOrder: si },
    });
    for (const opKey of s.operations) {
      const c = getContract(opKey)!;
      const meterKey = meterOf(opKey);
      const data = {
        method: c.method,
        pathTemplate: c.path,
        upstreamPath: c.upstreamPath,
        summary: c.summary,
        description: c.description,
        meterId: meterKey ? meterIds.get(meterKey)! : null,
        kind: opKey.startsWith("advisor") ? "advisor" : "data",
        sortOrder: sort++,
        serviceId: service.id,
      };
      await db.operation.upsert({
        where: { sellerId_key: { sellerId: seller.id, key: opKey } },
        create: { id: newId("op"), sellerId: seller.id, key: opKey, ...data },
        update: data,
      });
    }
  }

  for (const [pi, p] of marketPlans().entries()) {
    const plan = await db.plan.upsert({
      where: { sellerId_slug: { sellerId: seller.id, slug: p.slug } },
      create: {
        id: newId("pln"),
        sellerId: seller.id,
        slug: p.slug,
        name: p.name,
        kind: p.kind,
        description: p.description,
        minimumMicros: p.min,
        maximumMicros: p.max,
        cardMinimumMicros: p.cardMin,
        sortOrder: pi,
      },
      update: { name: p.name, description: p.description },
    });
    for (const key of p.meters) {
      const meterId = meterIds.get(key)!;
      await db.planMeter.upsert({ where: { planId_meterId: { planId: plan.id, meterId } }, create: { planId: plan.id, meterId }, update: {} });
    }
  }
  return { sellerId: seller.id, userId: user.id };
}

/** The demo seller's contact address, on a domain reserved for examples. */
export const DEMO_CONTACT_EMAIL = "help@demo-seller.example.com";

export async function seedDemo(db: PrismaClient, signingSecret: string) {
  const seeded = await seedMarketSeller(db, { ...DEMO_SELLER, signingSecret });
  // The demo's chain is a local anvil answering as Base: its transactions are on no public explorer, so the console
  // shows hashes without links (a seller sets a format in Settings). Create-if-missing: a seller's choice is kept.
  await db.sellerSettings.upsert({
    where: { sellerId: seeded.sellerId },
    create: { sellerId: seeded.sellerId, explorerTxUrls: { "eip155:8453": "" }, contactEmail: DEMO_CONTACT_EMAIL },
    update: {},
  });
  // The checkout and receipts name a contact address; the demo's is on a reserved domain (RFC 2606), so it is plainly
  // not a real mailbox. Filled where none is set (a demo database seeded before it had one), never over a seller's own.
  await db.sellerSettings.updateMany({ where: { sellerId: seeded.sellerId, contactEmail: null }, data: { contactEmail: DEMO_CONTACT_EMAIL } });
  return seeded;
}
