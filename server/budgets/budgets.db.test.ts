// Budgets from the agent's side, in process against real PostgreSQL and the test chain: a call by a claimed credential
// (plan credit, or a wallet proof sent with the agent's bearer) that would pass a limit its person set is refused
// before anything is charged, with budget_exceeded naming the limit, what is left and when it resets; per call, per
// UTC day and month, per credential and for all the person's credentials; the windows reset at midnight UTC (the clock
// moved, never waited for); over HTTP and MCP; lapsed holds released; alerts mailed once per threshold.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as mcpRoute from "../../app/mcp/route";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { getFunnel } from "../analytics/get-funnel";
import { EVENTS } from "../contracts/events";
import { db } from "../db/client";
import { renderEvent } from "../events/render-event";
import { newId } from "../lib/ids";
import { flushCaptures } from "../payments/rails/credits/capture-queue";
import { callGateway, payChallenge, usdcBalance, useGatewayStack } from "../testing/gateway";
import { claimCredential, exchange, grantPlanCredit, registerAnonymous, routedStore, useDevOutbox } from "../testing/identity-harness";
import { flushBudgetAlerts } from "./alert-budget-thresholds";
import { budgetWindows } from "./budget-windows";
import { releaseLapsedBudgetHolds } from "./release-lapsed-budget-holds";
import { exportAccountCsv } from "./export-account-csv";
import { getAccount } from "./get-account";
import { setBudget } from "./set-budget";

const SECRET = "fake-upstream-secret-0123456789";
const stack = useGatewayStack(SECRET);
const AAPL = "/api/v1/aggregates/AAPL?from=2024-07-01&to=2024-07-31";
let store: ReturnType<typeof routedStore>;
let planId: string;

beforeAll(async () => {
  useDevOutbox();
  store = routedStore(stack.seller.host);
  planId = (await db.plan.findFirstOrThrow({ where: { sellerId: stack.seller.sellerId, slug: "research-credits" } })).id;
});

afterEach(() => vi.restoreAllMocks());

type Agent = { credentialId: string; token: string; humanId: string; assertion: string };

/** An agent claimed by the person with `email`, holding $10 of plan credit. */
async function claimedAgent(email: string): Promise<Agent> {
  const a = await registerAnonymous(store);
  const claimed = await claimCredential(store, a.claimToken, email);
  await grantPlanCredit({ sellerId: stack.seller.sellerId, planId, credentialId: a.credentialId, micros: 10_000_000n });
  return { credentialId: a.credentialId, ...claimed };
}

const email = () => `budget-${Math.random().toString(36).slice(2, 10)}@people.test`;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function paidCall(agent: Pick<Agent, "token">): Promise<Response> {
  const res = await callGateway(stack.seller.host, AAPL, { headers: bearer(agent.token) });
  await flushCaptures();
  return res;
}

const remaining = async (credentialId: string) => (await db.creditGrant.findFirstOrThrow({ where: { credentialId } })).remainingMicros;

function budget(agent: Agent, limits: { perCallUsd?: string; perDayUsd?: string; perMonthUsd?: string }, forPerson = false) {
  return setBudget({ sellerId: stack.seller.sellerId, humanId: agent.humanId, credentialId: forPerson ? null : agent.credentialId, ...limits });
}

/** Budget statements (a reservation, its confirmation or release) sent to PostgreSQL, seen at the driver. */
function watchBudgetStatements(): { seen: string[]; restore: () => void } {
  const seen: string[] = [];
  const original = pg.Pool.prototype.query;
  const spy = vi.spyOn(pg.Pool.prototype, "query").mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    const text = typeof q === "string" ? q : (q?.text ?? "");
    // The credential's controls (cached per instance, whether a budget applies among them) are not a budget statement.
    if (/\bbudgets\b|update budget_holds/.test(text) && !/credential_freezes/.test(text)) seen.push(text);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  return { seen, restore: () => spy.mockRestore() };
}

describe("a credential no budget applies to", () => {
  it("runs no budget statement on its paid calls, its ledger still kept; a budget set applies to the very next call, here and from another instance", async () => {
    const agent = await claimedAgent(email());
    // The first call reads its controls (whether a budget applies among them) and this instance caches them.
    expect((await paidCall(agent)).status).toBe(200);
    const watch = watchBudgetStatements();
    for (let i = 0; i < 5; i++) expect((await paidCall(agent)).status).toBe(200);
    watch.restore();
    expect(watch.seen).toEqual([]);
    // The person's account still lists every charged call: one ledger line each, counted in no budget.
    const lines = await db.budgetHold.findMany({ where: { credentialId: agent.credentialId } });
    expect(lines).toHaveLength(6);
    expect(lines.every((h) => h.state === "confirmed" && h.budgetIds.length === 0 && h.chargedMicros === 20_000n)).toBe(true);
    expect((await getAccount(stack.seller.sellerId, agent.humanId)).calls).toHaveLength(6);

    // Set here: the very next call is held to it.
    await budget(agent, { perCallUsd: "0.01" });
    expect(await (await paidCall(agent)).json()).toMatchObject({ error: "budget_exceeded", budgetPeriod: "call" });

    // Written by another instance's statement (no word to this one but PostgreSQL's notification): heard, not waited out.
    const other = await claimedAgent(email());
    expect((await paidCall(other)).status).toBe(200);
    const { day, month } = budgetWindows();
    await db.budget.create({
      data: {
        id: newId("bud"),
        sellerId: stack.seller.sellerId,
        scope: "person",
        subject: other.humanId,
        humanId: other.humanId,
        perCallMicros: 10_000n,
        dayStart: day,
        monthStart: month,
      },
    });
    const t0 = Date.now();
    let status = 200;
    while (status !== 403 && Date.now() - t0 < 2_000) status = (await paidCall(other)).status;
    expect(status).toBe(403);
    expect(Date.now() - t0).toBeLessThan(2_000);
  });
});

describe("a budget per credential", () => {
  it("admits calls up to the daily limit, then refuses the next before anything is charged, saying what is left and when it resets", async () => {
    const agent = await claimedAgent(email());
    await budget(agent, { perDayUsd: "0.05" });
    for (let i = 0; i < 2; i++) expect((await paidCall(agent)).status).toBe(200);
    const before = await remaining(agent.credentialId);
    const payments = await db.payment.count({ where: { credentialId: agent.credentialId } });
    const refused = await paidCall(agent);
    expect(refused.status).toBe(403);
    const body = await refused.json();
    expect(body).toMatchObject({
      error: "budget_exceeded",
      budgetScope: "credential",
      budgetPeriod: "day",
      limitUsd: "0.050000",
      remainingUsd: "0.010000",
      priceUsd: "0.020000",
      resetsAt: budgetWindows().nextDay.toISOString(),
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Nothing charged, nothing even held: no payment row, the credit untouched.
    expect(await remaining(agent.credentialId)).toBe(before);
    expect(await db.payment.count({ where: { credentialId: agent.credentialId } })).toBe(payments);
    const holds = await db.budgetHold.findMany({ where: { credentialId: agent.credentialId } });
    expect(holds.map((h) => h.state).sort()).toEqual(["confirmed", "confirmed"]);
    expect(new Set(holds.map((h) => h.paymentId)).size).toBe(2);

    // The seller hears of it once per budget, limit and window, however often the agent knocks (webhooks alike).
    expect((await paidCall(agent)).status).toBe(403);
    await vi.waitFor(async () => expect(await db.event.count({ where: { subjectId: agent.credentialId, type: "budget.exceeded" } })).toBe(1));
    await new Promise((r) => setTimeout(r, 200));
    const events = await db.event.findMany({ where: { subjectId: agent.credentialId, type: "budget.exceeded" } });
    expect(events).toHaveLength(1);
    const event = renderEvent(events[0]!, `http://${stack.seller.host}`);
    expect(EVENTS["budget.exceeded"].data.safeParse(event.data).error).toBeUndefined();
    expect(event.data).toMatchObject({
      object: { operation: "aggregates", budgetScope: "credential", budgetPeriod: "day", limitUsd: "0.050000", remainingUsd: "0.010000", priceUsd: "0.020000" },
      agent: { id: agent.credentialId, claimed: true },
    });
  });

  it("a per-call limit refuses a price above it, and never resets", async () => {
    const agent = await claimedAgent(email());
    await budget(agent, { perCallUsd: "0.01" });
    const refused = await paidCall(agent);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "budget_exceeded", budgetPeriod: "call", limitUsd: "0.010000", resetsAt: null });
    await budget(agent, { perCallUsd: "0.02" });
    expect((await paidCall(agent)).status).toBe(200);
  });

  it("an upstream failure releases the hold: the budget is not spent by a call that was not charged", async () => {
    const agent = await claimedAgent(email());
    await budget(agent, { perDayUsd: "0.02" });
    stack.upstream.state.mode = { status: 503 };
    expect((await paidCall(agent)).status).toBe(503);
    stack.upstream.state.mode = { status: 200 };
    expect((await paidCall(agent)).status).toBe(200);
    expect((await paidCall(agent)).status).toBe(403);
    const states = (await db.budgetHold.findMany({ where: { credentialId: agent.credentialId } })).map((h) => h.state).sort();
    expect(states).toEqual(["confirmed", "freed"]);
  });
});

describe("a budget for all of a person's credentials", () => {
  it("counts every credential the person claimed here together", async () => {
    const who = email();
    const a = await claimedAgent(who);
    const b = await claimedAgent(who);
    expect(b.humanId).toBe(a.humanId);
    await budget(a, { perDayUsd: "0.05" }, true);
    expect((await paidCall(a)).status).toBe(200);
    expect((await paidCall(b)).status).toBe(200);
    const refused = await paidCall(b);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "budget_exceeded", budgetScope: "person", remainingUsd: "0.010000" });
    // Another person's agent is not held to it.
    expect((await paidCall(await claimedAgent(email()))).status).toBe(200);
  });
});

describe("windows reset at midnight UTC", () => {
  it("the day resets at the next UTC midnight; the month still holds across it", async () => {
    const agent = await claimedAgent(email());
    const midnight = budgetWindows().nextDay.getTime();
    const at = (ms: number) => vi.spyOn(Date, "now").mockReturnValue(ms);
    at(midnight - 30_000);
    // A token issued under the moved clock (the real one would have expired by then).
    const token = (await exchange(store, agent.assertion)).body.access_token as string;
    await budget(agent, { perDayUsd: "0.04", perMonthUsd: "0.06" });
    for (let i = 0; i < 2; i++) expect((await paidCall({ token })).status).toBe(200);
    const refused = await paidCall({ token });
    expect(await refused.json()).toMatchObject({ budgetPeriod: "day", resetsAt: new Date(midnight).toISOString() });
    at(midnight + 30_000);
    expect((await paidCall({ token })).status).toBe(200);
    // Day 2 has spent $0.02 of $0.04; the month $0.06 of $0.06, unless that midnight began a new month.
    const next = await paidCall({ token });
    if (new Date(midnight).getUTCDate() === 1) expect(next.status).toBe(200);
    else expect(await next.json()).toMatchObject({ error: "budget_exceeded", budgetPeriod: "month", remainingUsd: "0.000000" });
  });
});

describe("a wallet proof sent with the agent's bearer", () => {
  it("is refused before the rail is asked: no USDC moves, and the same proof still pays once the bearer is gone", async () => {
    const agent = await claimedAgent(email());
    await budget(agent, { perCallUsd: "0.01" });
    // No credit for this meter path: the unpaid call with the bearer still gets the ordinary 402 (nothing was reserved).
    const challenge = await callGateway(stack.seller.host, AAPL.replace("AAPL", "MSFT"));
    const proof = await payChallenge(challenge, 1);
    const payer = anvilAddress(1);
    const before = await usdcBalance(stack.chain.rpcUrl, payer);
    const refused = await callGateway(stack.seller.host, AAPL.replace("AAPL", "MSFT"), { headers: { ...proof, ...bearer(agent.token) } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "budget_exceeded", budgetPeriod: "call" });
    expect(await usdcBalance(stack.chain.rpcUrl, payer)).toBe(before);
    const paid = await callGateway(stack.seller.host, AAPL.replace("AAPL", "MSFT"), { headers: proof });
    expect(paid.status).toBe(200);
  });
});

describe("over MCP", () => {
  it("a tool call past the budget is a tool error carrying the same body", async () => {
    const agent = await claimedAgent(email());
    await budget(agent, { perCallUsd: "0.01" });
    type RouteModule = Record<string, (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>>;
    const host = stack.seller.host;
    const client = new Client({ name: "budget-test", version: "1.0.0" });
    const routed: typeof fetch = async (input, init) => {
      const req = new Request(input instanceof Request ? input : String(input), init);
      const headers = new Headers(req.headers);
      headers.set("host", host);
      headers.set("authorization", `Bearer ${agent.token}`);
      const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
      return (mcpRoute as unknown as RouteModule)[req.method]!(new Request(req.url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
    };
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://${host}/mcp`), { fetch: routed }));
    const res = (await client.callTool({ name: "aggregates", arguments: { ticker: "AAPL", from: "2024-05-01", to: "2024-05-31" } })) as CallToolResult;
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ error: "budget_exceeded", budgetPeriod: "call", limitUsd: "0.010000" });
    await client.close();
  });
});

describe("holds and alerts", () => {
  it("a hold left by a stopped instance is released after its lease", async () => {
    const agent = await claimedAgent(email());
    await budget(agent, { perDayUsd: "0.02" });
    const b = await db.budget.findFirstOrThrow({ where: { subject: agent.credentialId } });
    const w = budgetWindows();
    await db.budgetHold.create({
      data: {
        id: newId("bgh"),
        sellerId: stack.seller.sellerId,
        credentialId: agent.credentialId,
        humanId: agent.humanId,
        budgetIds: [b.id],
        amountMicros: 20_000n,
        day: w.day,
        month: w.month,
        operationKey: "aggregates",
        leaseUntil: new Date(Date.now() - 1000),
      },
    });
    await db.budget.update({ where: { id: b.id }, data: { dayStart: w.day, dayUsedMicros: 20_000n, monthStart: w.month, monthUsedMicros: 20_000n } });
    expect((await paidCall(agent)).status).toBe(403);
    expect(await releaseLapsedBudgetHolds()).toBeGreaterThanOrEqual(1);
    expect((await paidCall(agent)).status).toBe(200);
  });

  it("mails the person at 80, 90 and 100 % of a limit, once per threshold in the window", async () => {
    const who = email();
    const agent = await claimedAgent(who);
    await budget(agent, { perDayUsd: "0.10" });
    for (let i = 0; i < 6; i++) await paidCall(agent);
    await flushBudgetAlerts();
    const mails = await db.outboxMessage.findMany({ where: { to: who, subject: { contains: "budget" } }, orderBy: { createdAt: "asc" } });
    expect(mails.map((m) => m.subject.match(/(\d+) %/)![1])).toEqual(["80", "100"]);
    expect(mails[1]!.text).toContain("$0.10 of $0.10");
  });
});

describe("the person's account", () => {
  it("shows each agent's spending across rails by day and month, the credit left, the paid calls with receipts, and the CSV", async () => {
    const who = email();
    const agent = await claimedAgent(who);
    for (let i = 0; i < 3; i++) expect((await paidCall(agent)).status).toBe(200);
    const account = await getAccount(stack.seller.sellerId, agent.humanId);
    expect(account.credentials.map((c) => c.id)).toEqual([agent.credentialId]);
    expect(account.today.get(agent.credentialId)).toBe(60_000n);
    expect(account.thisMonth.get(agent.credentialId)).toBe(60_000n);
    expect(account.daily).toEqual([expect.objectContaining({ credentialId: agent.credentialId, rail: "credits", calls: 3, micros: 60_000n })]);
    expect(account.credit).toEqual([expect.objectContaining({ remainingMicros: 10_000_000n - 60_000n })]);
    expect(account.calls).toHaveLength(3);
    expect(account.calls.every((c) => c.hasReceipt && c.operationKey === "aggregates")).toBe(true);
    const csv = (await exportAccountCsv(stack.seller.sellerId, agent.humanId, "https://shop.test")).trim().split("\r\n");
    expect(csv[0]).toBe("paid_at,payment_id,agent_credential,rail,operation,path,query,amount_usd,receipt_url");
    expect(csv).toHaveLength(4);
    expect(csv[1]).toContain(`,${agent.credentialId},credits,aggregates,/api/v1/aggregates/AAPL,`);
    expect(csv[1]).toContain(`,0.020000,https://shop.test/payments/${account.calls[0]!.paymentId}/receipt`);
  });

  it("only the person who claimed a credential sets its budget", async () => {
    const agent = await claimedAgent(email());
    const stranger = await claimedAgent(email());
    await expect(
      setBudget({ sellerId: stack.seller.sellerId, humanId: stranger.humanId, credentialId: agent.credentialId, perDayUsd: "1" }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(budget(agent, { perDayUsd: "1.0000001" })).rejects.toMatchObject({ code: "invalid_request" });
  });
});

describe("the seller's side", () => {
  it("budget refusals are drops in the console's funnel, plan credit's too, with what they mean", async () => {
    const agent = await claimedAgent(email());
    await budget(agent, { perCallUsd: "0.01" });
    const before = (await getFunnel(stack.seller.sellerId, { preset: "7d" })).reasons.find((r) => r.code === "budget_exceeded")?.count ?? 0;
    expect((await paidCall(agent)).status).toBe(403);
    const f = await getFunnel(stack.seller.sellerId, { preset: "7d" });
    expect(f.reasons.find((r) => r.code === "budget_exceeded")).toMatchObject({ step: "proof", count: before + 1 });
    expect(f.explanations["proof:budget_exceeded"]!.meaning).toContain("budget the person who claimed the agent set");
    expect(f.byRail.find((r) => r.rail === "credits")?.refused).toBeGreaterThanOrEqual(1);
    // Apart from payment problems: the buyer's own rule, counted as a budget refusal.
    expect(f.explanations["proof:budget_exceeded"]!.setBy).toBe("person");
    expect(f.personControls.budgetRefused).toBe(before + 1);
  });
});
