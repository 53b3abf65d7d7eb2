// Freeze and revoke, from the agent's side and the person's, in process against real PostgreSQL and a real anvil chain:
// a frozen credential's paid calls are refused before anything is charged on every rail that carries it (x402, MPP,
// plan credit, a purchase), on another instance at once (the notification, not this process's own forgetting); a
// person unfreezes it and it pays again; RFC 7009 /oauth2/revoke revokes an access or refresh token's credential for
// good (exchange, refresh and paid calls refused), answers 200 for tokens it does not know; the seller gets events.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { beforeAll, describe, expect, it } from "vitest";
import * as mcpRoute from "../../app/mcp/route";
import * as revokeRoute from "../../app/oauth2/revoke/route";
import * as purchaseRoute from "../../app/plans/[planId]/purchase/route";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { db } from "../db/client";
import {
  callGateway,
  payChallenge,
  payChallengeMpp,
  usdcBalance,
  useGatewayStack,
  type FakeUpstream,
  type GatewaySeller,
  type TestChain,
} from "../testing/gateway";
import { claimCredential, exchange, getJson, postJson, registerAnonymous, routedStore, useDevOutbox } from "../testing/identity-harness";
import { freezeCredential, unfreezeCredential } from "./freeze-credential";
import { revokeCredential } from "./revoke-credential";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
let store: ReturnType<typeof routedStore>;
let planId: string;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-03-01&to=2024-03-29";
const uniq = () => Math.random().toString(36).slice(2, 8);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

beforeAll(async () => {
  useDevOutbox();
  store = routedStore(seller.host);
  planId = (await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } })).id;
});

/** A claimed agent: its credential, a post-claim access token, its refresh token and assertion, and its person. */
async function claimedAgent() {
  const agent = await registerAnonymous(store);
  const email = `person-${uniq()}@example.com`;
  const { humanId, token } = await claimCredential(store, agent.claimToken, email);
  const refresh = await db.refreshToken.findFirstOrThrow({ where: { credentialId: agent.credentialId, status: "active" } });
  return { ...agent, token, humanId, person: { humanId, sellerId: seller.sellerId }, refreshRow: refresh };
}

function revoke(form: Record<string, string>): Promise<Response> {
  return revokeRoute.POST(
    new Request(`http://${seller.host}/oauth2/revoke`, {
      method: "POST",
      headers: { host: seller.host, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    }),
    { params: Promise.resolve({}) },
  );
}

function purchase(amountUsd: string, headers: Record<string, string>): Promise<Response> {
  return purchaseRoute.POST(
    new Request(`http://${seller.host}/plans/${planId}/purchase`, {
      method: "POST",
      headers: { host: seller.host, "content-type": "application/json", ...headers },
      body: JSON.stringify({ amountUsd }),
    }),
    { params: Promise.resolve({ planId }) },
  );
}

const events = (credentialId: string) => db.event.findMany({ where: { subjectId: credentialId }, orderBy: { seq: "asc" }, select: { type: true, data: true } });

describe("a frozen credential", () => {
  it("is refused on x402, MPP, plan credit and a purchase before anything is charged; unfrozen, it pays again", async () => {
    const a = await claimedAgent();
    // Credit first, while it is live (a purchase is a paid call too).
    const quote = await purchase("5.00", bearer(a.token));
    expect(quote.status).toBe(402);
    expect((await purchase("5.00", { ...bearer(a.token), ...(await payChallenge(quote, 3, { maxAmountPerPayment: "$10" })) })).status).toBe(200);
    const grant = await db.creditGrant.findFirstOrThrow({ where: { credentialId: a.credentialId } });
    // A purchase's 402, paid; sent once frozen. (Frozen, even its unpaid request is refused: the bearer is a proof, credit's.)
    const buyProof = await payChallenge(await purchase("5.00", bearer(a.token)), 3, { maxAmountPerPayment: "$10" });

    await freezeCredential(a.person, a.credentialId);
    const payer = anvilAddress(3);
    const before = await usdcBalance(chain.rpcUrl, payer);
    const calls = upstream.state.calls;
    const since = new Date();

    const x402 = await callGateway(seller.host, AAPL, { headers: { ...bearer(a.token), ...(await payChallenge(await callGateway(seller.host, AAPL), 3)) } });
    expect(x402.status).toBe(403);
    expect(await x402.json()).toMatchObject({ error: "credential_frozen", credential: a.credentialId });

    const mpp = await callGateway(seller.host, AAPL, {
      headers: { "svc-agent-authorization": `Bearer ${a.token}`, ...(await payChallengeMpp(await callGateway(seller.host, AAPL), 3)) },
    });
    expect(mpp.status).toBe(403);
    expect((await mpp.json()).error).toBe("credential_frozen");

    const credit = await callGateway(seller.host, AAPL, { headers: bearer(a.token) });
    expect(credit.status).toBe(403);
    expect((await credit.json()).error).toBe("credential_frozen");

    const buy = await purchase("5.00", { ...bearer(a.token), ...buyProof });
    expect(buy.status).toBe(403);
    expect((await purchase("5.00", bearer(a.token))).status).toBe(403);

    // Nothing moved: no USDC, no credit drawn, the upstream never asked, no payment held.
    expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before);
    expect((await db.creditGrant.findUniqueOrThrow({ where: { id: grant.id } })).remainingMicros).toBe(grant.remainingMicros);
    expect(upstream.state.calls).toBe(calls);
    expect(await db.payment.count({ where: { sellerId: seller.sellerId, createdAt: { gte: since } } })).toBe(0);

    // Entitlements still answer (a freeze stops spending, not reading).
    expect((await getJson(store, "/agent/entitlements", bearer(a.token))).status).toBe(200);

    await unfreezeCredential(a.person, a.credentialId);
    const again = await callGateway(seller.host, AAPL, { headers: bearer(a.token) });
    expect(again.status).toBe(200);
    expect(again.headers.get("svc-billing")).toContain("rail=credits");

    expect((await events(a.credentialId)).map((e) => e.type)).toEqual(expect.arrayContaining(["credential.frozen", "credential.unfrozen"]));
  });

  it("takes effect at once on another instance: a freeze written by someone else's statement is heard, not waited out", async () => {
    const a = await claimedAgent();
    const payFor = async () => ({ ...bearer(a.token), ...(await payChallenge(await callGateway(seller.host, AAPL), 4)) });
    // This instance has read and cached the credential's controls.
    expect((await callGateway(seller.host, AAPL, { headers: await payFor() })).status).toBe(200);
    // Another instance freezes it: only PostgreSQL's notification can tell this one.
    await db.credentialFreeze.create({ data: { credentialId: a.credentialId, sellerId: seller.sellerId, humanId: a.humanId } });
    const t0 = Date.now();
    let status = 200;
    while (status !== 403 && Date.now() - t0 < 2_000) status = (await callGateway(seller.host, AAPL, { headers: await payFor() })).status;
    expect(status).toBe(403);
    expect(Date.now() - t0).toBeLessThan(2_000);
  });

  it("over MCP: a frozen credential's paid tool call is the tool error credential_frozen; revoked, /mcp refuses its bearer", async () => {
    const a = await claimedAgent();
    await freezeCredential(a.person, a.credentialId);
    const client = new Client({ name: "controls-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://${seller.host}/mcp`), { fetch: mcpFetch(a.token) }));
    const res = (await client.callTool({ name: "aggregates", arguments: { ticker: "AAPL", from: "2024-03-01", to: "2024-03-29" } })) as CallToolResult;
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toMatchObject({ error: "credential_frozen" });
    await client.close();
    await revokeCredential(a.person, a.credentialId);
    const refused = await mcpFetch(a.token)(`http://${seller.host}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toBe("invalid_token");
  });

  it("is only its person's to freeze or revoke", async () => {
    const a = await claimedAgent();
    const b = await claimedAgent();
    await expect(freezeCredential(b.person, a.credentialId)).rejects.toMatchObject({ code: "not_found" });
    await expect(revokeCredential(b.person, a.credentialId)).rejects.toMatchObject({ code: "not_found" });
    await expect(freezeCredential({ humanId: a.humanId, sellerId: "sel_other" }, a.credentialId)).rejects.toMatchObject({ code: "not_found" });
    expect(await db.credentialFreeze.count({ where: { credentialId: a.credentialId } })).toBe(0);
    expect((await db.agentCredential.findUniqueOrThrow({ where: { id: a.credentialId } })).revokedAt).toBeNull();
  });
});

describe("revocation", () => {
  it("RFC 7009 with an access token revokes the credential for good: paid calls, exchange and refresh refused; an event with via", async () => {
    const a = await claimedAgent();
    const res = await revoke({ token: a.token, token_type_hint: "access_token" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");

    const paid = await callGateway(seller.host, AAPL, { headers: { ...bearer(a.token), ...(await payChallenge(await callGateway(seller.host, AAPL), 5)) } });
    expect(paid.status).toBe(401);
    expect(await paid.json()).toMatchObject({ error: "invalid_token", reason: "token_invalid" });
    const ex = await exchange(store, a.assertion);
    expect(ex.body).toMatchObject({ error: "invalid_grant", reason: "revoked" });
    expect((await db.refreshToken.findUniqueOrThrow({ where: { id: a.refreshRow.id } })).status).toBe("revoked");

    const revoked = (await events(a.credentialId)).find((e) => e.type === "credential.revoked");
    expect(revoked?.data).toMatchObject({ via: "token_revocation", agent: { id: a.credentialId, claimed: true } });
    // Revoking again, or a token nobody issued, answers the same 200 (section 2.2).
    expect((await revoke({ token: a.token })).status).toBe(200);
    expect((await revoke({ token: "not-a-token" })).status).toBe(200);
    expect((await revoke({ token: "rt_never-issued" })).status).toBe(200);
  });

  it("takes the refresh token the same way, by its hint or not; refuses a request without a token or for another client_id", async () => {
    const a = await claimedAgent();
    const missing = await revoke({});
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("invalid_request");
    const wrongClient = await revoke({ token: a.token, client_id: "agt_someone_else" });
    expect(wrongClient.status).toBe(401);
    expect((await wrongClient.json()).error).toBe("invalid_client");
    expect((await db.agentCredential.findUniqueOrThrow({ where: { id: a.credentialId } })).revokedAt).toBeNull();

    // The agent's refresh token, as the registration answered it: look it up by the value the agent holds.
    const reg = await registerAnonymous(store);
    const email = `refresh-${uniq()}@example.com`;
    await claimCredential(store, reg.claimToken, email);
    const fresh = await postJson(store, "/agent/identity", { type: "refresh", refresh_token: await currentRefreshToken(reg.credentialId) });
    const value = fresh.body.identity.refresh_token.value as string;
    expect((await revoke({ token: value, client_id: reg.credentialId })).status).toBe(200);
    expect((await db.agentCredential.findUniqueOrThrow({ where: { id: reg.credentialId } })).revokedAt).not.toBeNull();
    expect((await postJson(store, "/agent/identity", { type: "refresh", refresh_token: value })).body.error).toBe("invalid_refresh_token");
  });

  it("is listed in the authorization server metadata", async () => {
    const meta = await getJson(store, "/.well-known/oauth-authorization-server");
    expect(meta.body).toMatchObject({ revocation_endpoint: `${store.origin}/oauth2/revoke`, revocation_endpoint_auth_methods_supported: ["none"] });
  });

  it("by the person: the event says so", async () => {
    const a = await claimedAgent();
    await revokeCredential(a.person, a.credentialId);
    expect((await events(a.credentialId)).find((e) => e.type === "credential.revoked")?.data).toMatchObject({ via: "person" });
    await expect(revokeCredential(a.person, a.credentialId)).rejects.toMatchObject({ code: "not_found" });
  });
});

/** A refresh token value for a claimed credential: the harness keeps only hashes, so the claim's answer is re-run. */
async function currentRefreshToken(credentialId: string): Promise<string> {
  const { newRefreshToken } = await import("../identity/identity-view");
  const { value, row } = newRefreshToken();
  await db.refreshToken.updateMany({ where: { credentialId, status: "active" }, data: { status: "revoked" } });
  await db.refreshToken.create({ data: { ...row, credentialId } });
  return value;
}

type RouteModule = Record<string, (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>>;

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
