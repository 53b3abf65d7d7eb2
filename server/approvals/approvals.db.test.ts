// Approval above a threshold, from the agent's side (HTTP and MCP) and the person's, in process against real
// PostgreSQL and a real anvil chain: a call over the person's threshold is held (approval_required, its URL, id and
// expiry; the person emailed once), charged nothing; approved, the agent's retry of the same request is served and
// charged exactly once, however many retries race; declined or unanswered, it is refused; over MCP the hold is the URL-mode
// elicitation error (-32042) naming the same page.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "../../app/mcp/route";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { setApprovalThreshold } from "../controls/set-approval-threshold";
import { db } from "../db/client";
import { callGateway, payChallenge, usdcBalance, useGatewayStack, type GatewaySeller, type TestChain } from "../testing/gateway";
import { claimCredential, registerAnonymous, routedStore, useDevOutbox } from "../testing/identity-harness";
import { EVENTS, type EventType } from "../contracts/events";
import { getFunnel } from "../analytics/get-funnel";
import { renderEvent } from "../events/render-event";
import { answerApproval } from "./decide-approval";

type RouteModule = Record<string, (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>>;
let chain: TestChain;
let seller: GatewaySeller;
let store: ReturnType<typeof routedStore>;
const SECRET = "fake-upstream-secret-0123456789";
const uniq = () => Math.random().toString(36).slice(2, 8);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

useGatewayStack(SECRET, (s) => ({ chain, seller } = s));

beforeAll(() => {
  useDevOutbox();
  store = routedStore(seller.host);
});

/** A claimed agent whose person holds every call over $0.01 (all their credentials). */
async function heldAgent() {
  const agent = await registerAnonymous(store);
  const email = `approver-${uniq()}@example.com`;
  const { humanId, token } = await claimCredential(store, agent.claimToken, email);
  const person = { humanId, sellerId: seller.sellerId };
  await setApprovalThreshold(person, { credentialId: null, usd: "0.01" });
  return { credentialId: agent.credentialId, token, email, person };
}

/** An x402-paid call by the agent (its bearer beside the payment), with a fresh proof each time. */
async function paidCall(token: string, path: string, payer: number): Promise<Response> {
  const proof = await payChallenge(await callGateway(seller.host, path), payer);
  return callGateway(seller.host, path, { headers: { ...bearer(token), ...proof } });
}

/** An approval's events as a webhook carries them, each checked against its contract. */
async function approvalEvents(approvalId: string) {
  const rows = await db.event.findMany({ where: { subjectId: approvalId }, orderBy: { seq: "asc" } });
  return rows.map((r) => {
    const e = renderEvent(r, `http://${seller.host}`);
    expect(EVENTS[e.type as EventType].data.safeParse(e.data).error).toBeUndefined();
    return e;
  });
}

const mails = (email: string) => db.outboxMessage.findMany({ where: { to: email, subject: { startsWith: "Approve" } } });

describe("a call over the person's threshold", () => {
  it("is held with the approval's URL, id and expiry, charging nothing; approved, the retry is served and charged once", async () => {
    const a = await heldAgent();
    const hook = await db.webhookEndpoint.create({
      data: {
        id: `whe_${uniq()}`,
        sellerId: seller.sellerId,
        url: "https://hooks.example.com/approvals",
        eventTypes: ["approval.requested", "approval.approved"],
        secretEnc: "unused",
      },
    });
    const path = `/api/v1/aggregates/AAPL?from=2024-02-01&to=2024-02-2${Math.floor(Math.random() * 9)}`;
    const payer = anvilAddress(6);
    const before = await usdcBalance(chain.rpcUrl, payer);
    const seen = async () => (await getFunnel(seller.sellerId, { preset: "7d" })).personControls;
    const seenBefore = await seen();

    const held = await paidCall(a.token, path, 6);
    expect(held.status).toBe(403);
    const body = await held.json();
    expect(body).toMatchObject({ error: "approval_required", amountUsd: "0.020000", thresholdUsd: "0.010000" });
    expect(body.approvalId).toMatch(/^apr_/);
    expect(body.approvalUrl).toBe(`http://${seller.host}/account/approvals/${body.approvalId}`);
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
    // Asked again before the person answers: the same approval, and still one email.
    expect((await (await paidCall(a.token, path, 6)).json()).approvalId).toBe(body.approvalId);
    await new Promise((r) => setTimeout(r, 100));
    const sent = await mails(a.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(body.approvalUrl);
    expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before);
    // The seller's funnel tells the held requests apart from payment problems, and counts the approval waiting now.
    expect(await seen()).toMatchObject({ held: seenBefore.held + 2, pendingNow: seenBefore.pendingNow + 1, budgetRefused: seenBefore.budgetRefused });
    const f = await getFunnel(seller.sellerId, { preset: "7d" });
    expect(f.explanations["proof:approval_required"]).toMatchObject({ setBy: "person", meaning: expect.stringContaining("Held, not refused") });

    await answerApproval(a.person, body.approvalId, true);
    expect((await seen()).pendingNow).toBe(seenBefore.pendingNow);
    // Five retries race: one is served and charged, the others are held anew (the approval is spent once).
    const retries = await Promise.all(Array.from({ length: 5 }, () => paidCall(a.token, path, 6)));
    expect(retries.filter((r) => r.status === 200)).toHaveLength(1);
    expect(retries.filter((r) => r.status === 403)).toHaveLength(4);
    expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before - 20_000n);
    expect((await db.approval.findUniqueOrThrow({ where: { id: body.approvalId } })).status).toBe("used");
    // The seller heard of it: requested, then approved (spending it is not an event), with the agent and the amount.
    const events = await approvalEvents(body.approvalId);
    expect(events.map((e) => e.type)).toEqual(["approval.requested", "approval.approved"]);
    expect(events[1]!.data).toMatchObject({
      object: { id: body.approvalId, status: "approved", amountUsd: "0.020000", thresholdUsd: "0.010000", operation: "aggregates" },
      agent: { id: a.credentialId, claimed: true, human: { email: a.email } },
    });
    // A webhook to each of the seller's endpoints that takes these types, in the event's own transaction.
    expect(await db.webhookDelivery.count({ where: { endpointId: hook.id, eventId: { in: events.map((e) => e.id) } } })).toBe(2);
    await db.webhookEndpoint.update({ where: { id: hook.id }, data: { status: "disabled" } });
  });

  it("approved, the retry with the held proof is served once; that proof's replays re-deliver the paid bytes, never held or charged again", async () => {
    const a = await heldAgent();
    const path = `/api/v1/aggregates/NVDA?from=2024-03-01&to=2024-03-2${Math.floor(Math.random() * 9)}`;
    const payer = anvilAddress(5);
    const before = await usdcBalance(chain.rpcUrl, payer);
    const headers = { ...bearer(a.token), ...(await payChallenge(await callGateway(seller.host, path), 5)) };

    const held = await callGateway(seller.host, path, { headers });
    expect(held.status).toBe(403);
    const { approvalId } = await held.json();
    await answerApproval(a.person, approvalId, true);

    const served = await callGateway(seller.host, path, { headers });
    expect(served.status).toBe(200);
    const paidBody = await served.text();
    // The same proof again, three times at once and once more after: the answer it paid for, never a new hold.
    const replays = [
      ...(await Promise.all([1, 2, 3].map(() => callGateway(seller.host, path, { headers })))),
      await callGateway(seller.host, path, { headers }),
    ];
    for (const r of replays) {
      expect(r.status).toBe(200);
      expect(await r.text()).toBe(paidBody);
    }
    expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before - 20_000n);
    const rows = await db.approval.findMany({ where: { credentialId: a.credentialId } });
    expect(rows.map((r) => [r.id, r.status])).toEqual([[approvalId, "used"]]);
    await new Promise((r) => setTimeout(r, 100));
    expect(await mails(a.email)).toHaveLength(1);

    // A fresh proof for the same request is a new call: held for a new approval, charging nothing.
    const fresh = await paidCall(a.token, path, 5);
    expect(fresh.status).toBe(403);
    expect((await fresh.json()).approvalId).not.toBe(approvalId);
    expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before - 20_000n);
  });

  it("declined, or left unanswered, is refused; a call under the threshold or another person's answer changes nothing", async () => {
    const a = await heldAgent();
    const path = "/api/v1/aggregates/MSFT?from=2024-02-01&to=2024-02-29";
    const first = await (await paidCall(a.token, path, 7)).json();
    const stranger = await heldAgent();
    await expect(answerApproval(stranger.person, first.approvalId, true)).rejects.toMatchObject({ code: "not_found" });
    await answerApproval(a.person, first.approvalId, false);
    const declined = await paidCall(a.token, path, 7);
    expect(declined.status).toBe(403);
    expect(await declined.json()).toMatchObject({ error: "approval_declined", reason: "declined", approvalId: first.approvalId });
    await expect(answerApproval(a.person, first.approvalId, true)).rejects.toMatchObject({ code: "approval_declined" });

    const other = "/api/v1/aggregates/IBM?from=2024-02-01&to=2024-02-29";
    const pending = await (await paidCall(a.token, other, 7)).json();
    await db.approval.update({ where: { id: pending.approvalId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await (await paidCall(a.token, other, 7)).json()).toMatchObject({ error: "approval_declined", reason: "expired" });
    expect((await approvalEvents(first.approvalId)).map((e) => e.type)).toEqual(["approval.requested", "approval.declined"]);
    expect((await approvalEvents(pending.approvalId)).map((e) => e.type)).toEqual(["approval.requested", "approval.expired"]);

    // Raised above the price (for this credential alone: the lower of the two applies, so the person's own goes too).
    await setApprovalThreshold(a.person, { credentialId: null, usd: "" });
    await setApprovalThreshold(a.person, { credentialId: a.credentialId, usd: "0.05" });
    expect((await paidCall(a.token, other, 7)).status).toBe(200);
  });

  it("over MCP is the URL-mode elicitation error naming the approval page", async () => {
    const a = await heldAgent();
    const client = new Client({ name: "approval-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://${seller.host}/mcp`), { fetch: mcpFetch(a.token) }));
    const args = { ticker: "AAPL", from: "2024-06-03", to: "2024-06-28" };
    const error = await client.callTool({ name: "aggregates", arguments: args }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpError);
    const e = error as McpError;
    expect(e.code).toBe(ErrorCode.UrlElicitationRequired);
    // The SDK's client reads it as UrlElicitationRequiredError (its `elicitations`); the approval id is the elicitation's.
    const [elicitation] = (e.data as { elicitations: { mode: string; url: string; elicitationId: string }[] }).elicitations;
    expect(elicitation).toMatchObject({ mode: "url", elicitationId: expect.stringMatching(/^apr_/) });
    expect(elicitation!.url).toBe(`http://${seller.host}/account/approvals/${elicitation!.elicitationId}`);
    expect((await db.approval.findUniqueOrThrow({ where: { id: elicitation!.elicitationId } })).status).toBe("pending");
    await client.close();
  });
});

/** The /mcp route in process, the agent's bearer on every request. */
function mcpFetch(token: string): typeof fetch {
  return async (input, init) => {
    const req = new Request(input instanceof Request ? input : String(input), init);
    const headers = new Headers(req.headers);
    headers.set("host", seller.host);
    headers.set("authorization", `Bearer ${token}`);
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
    return (mcpRoute as unknown as RouteModule)[req.method]!(new Request(req.url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
  };
}
