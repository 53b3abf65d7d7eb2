// The budget holds across instances: two app instances (two processes, each its own pool and caches, one PostgreSQL)
// send 1,000 concurrent paid calls by two agents of one person against the person's $1.00 daily budget, at $0.0016 a
// call: 625 calls' worth, more than either instance's 500 calls, so the limit can only be reached by both together and
// is tested across them whichever instance runs first (a loaded run can start one long after the other). Exactly $1.00
// is admitted (overshoot 0), every admitted call is charged once (one consumed payment and one confirmed hold each),
// every refused call is budget_exceeded and charged nothing (no payment row, no credit drawn).
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "../db/client";
import { resetEnvForTests } from "../env";
import { newId } from "../lib/ids";
import { createGatewaySeller, startFakeUpstream, type FakeUpstream } from "../testing/gateway";
import { claimCredential, grantPlanCredit, registerAnonymous, routedStore, useDevOutbox } from "../testing/identity-harness";
import { setBudget } from "./set-budget";

const SECRET = "fake-upstream-secret-0123456789";
const PATH = "/api/v1/aggregates/AAPL?from=2024-07-01&to=2024-07-31";
const CALLS = 1_000;
const PRICE = 1_600n;
const ADMITTED = 625;
let upstream: FakeUpstream;

beforeAll(() => {
  useDevOutbox();
  process.env.RATE_LIMIT_DISABLED = "1";
  resetEnvForTests();
});
afterAll(() => upstream?.stop());

function startInstance(env: Record<string, string>) {
  const tsx = path.join(process.cwd(), "node_modules", "tsx", "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, "--conditions=react-server", path.join(import.meta.dirname, "..", "testing", "budget-instance-child.ts")], {
    env: { ...process.env, NODE_ENV: "test", RATE_LIMIT_DISABLED: "1", ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  let markReady!: () => void;
  const ready = new Promise<void>((r) => (markReady = r));
  child.stdout.on("data", (d) => {
    out += d;
    if (/^ready$/m.test(out)) markReady();
  });
  const result = new Promise<{ statuses: Record<string, number>; paid: string[] }>((resolve, reject) =>
    child.on("exit", (code) => {
      const m = /^result (.*)$/m.exec(out);
      if (m) resolve(JSON.parse(m[1]!));
      else reject(new Error(`instance exited ${code}:\n${out}`));
    }),
  );
  return { ready, go: () => child.stdin.write("go\n"), result };
}

it("1,000 concurrent calls on two instances against a $1.00 daily budget: $1.00 admitted, each charged once, the rest charged nothing", async () => {
  upstream = await startFakeUpstream(SECRET);
  const seller = await createGatewaySeller(upstream.url, { signingSecret: SECRET });
  const store = routedStore(seller.host);
  const meter = await db.meter.findFirstOrThrow({ where: { sellerId: seller.sellerId, key: "aggregates" } });
  await db.price.update({ where: { meterId: meter.id }, data: { amountMicros: PRICE } });
  await db.seller.update({ where: { id: seller.sellerId }, data: { catalogVersion: { increment: 1 } } });
  const planId = (await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } })).id;
  const email = `two-${newId("tst").slice(4)}@people.test`;
  /** An agent of the person `email` signs in as, claimed, with $10.00 of plan credit. */
  const claimedAgent = async (email: string) => {
    const a = await registerAnonymous(store);
    const { humanId, token } = await claimCredential(store, a.claimToken, email);
    await grantPlanCredit({ sellerId: seller.sellerId, planId, credentialId: a.credentialId, micros: 10_000_000n });
    return { credentialId: a.credentialId, token, humanId };
  };
  const agents = [await claimedAgent(email), await claimedAgent(email)];
  // A third agent, another person's, with no budget: each instance warms its paid path with it before the race.
  const warm = await claimedAgent(`warm-${newId("tst").slice(4)}@people.test`);
  await setBudget({ sellerId: seller.sellerId, humanId: agents[0]!.humanId, credentialId: null, perDayUsd: "1.00" });

  const env = {
    BUDGET_HOST: seller.host,
    BUDGET_PATH: PATH,
    BUDGET_TOKENS: agents.map((a) => a.token).join(","),
    BUDGET_CALLS: String(CALLS / 2),
    BUDGET_WARM_TOKEN: warm.token,
  };
  const instances = [startInstance(env), startInstance(env)];
  await Promise.all(instances.map((i) => i.ready));
  for (const i of instances) i.go();
  const [a, b] = await Promise.all(instances.map((i) => i.result));

  const count = (key: string) => (a!.statuses[key] ?? 0) + (b!.statuses[key] ?? 0);
  expect(count("200")).toBe(ADMITTED);
  expect(count("403 budget_exceeded")).toBe(CALLS - ADMITTED);
  // Both instances admitted some: the limit held across them, not within one.
  expect(a!.paid.length).toBeGreaterThan(0);
  expect(b!.paid.length).toBeGreaterThan(0);

  const credentialIds = agents.map((x) => x.credentialId);
  const payments = await db.payment.findMany({ where: { credentialId: { in: credentialIds }, operationKey: "aggregates" } });
  // Every admitted call charged once, and nothing else even held: the refused calls wrote no payment.
  expect(payments).toHaveLength(ADMITTED);
  expect(payments.every((p) => p.status === "consumed")).toBe(true);
  expect(new Set(payments.map((p) => p.id))).toEqual(new Set([...a!.paid, ...b!.paid]));
  const charged = payments.reduce((s, p) => s + p.amountMicros, 0n);
  expect(charged).toBe(1_000_000n);
  const grants = await db.creditGrant.findMany({ where: { credentialId: { in: credentialIds } } });
  expect(grants.reduce((s, g) => s + g.remainingMicros, 0n)).toBe(20_000_000n - 1_000_000n);

  const holds = await db.budgetHold.findMany({ where: { credentialId: { in: credentialIds } } });
  expect(holds).toHaveLength(ADMITTED);
  expect(holds.every((h) => h.state === "confirmed" && h.chargedMicros === PRICE)).toBe(true);
  const budget = await db.budget.findFirstOrThrow({ where: { sellerId: seller.sellerId, scope: "person" } });
  expect(budget.dayUsedMicros).toBe(1_000_000n);
}, 120_000);
