// Test-only: an isolated storefront per test file and a fetch that routes to the identity route handlers
// in-process (so oauth4webapi and plain requests exercise the real handlers without a build).
import { randomBytes } from "node:crypto";
import * as wellKnownAs from "../../app/.well-known/oauth-authorization-server/route";
import * as wellKnownPr from "../../app/.well-known/oauth-protected-resource/route";
import * as entitlements from "../../app/agent/entitlements/route";
import * as claimComplete from "../../app/agent/identity/claim/complete/route";
import * as claim from "../../app/agent/identity/claim/route";
import * as identity from "../../app/agent/identity/route";
import * as jwks from "../../app/oauth2/jwks.json/route";
import * as token from "../../app/oauth2/token/route";
import { seedMarketSeller } from "../../prisma/seed";
import { db } from "../db/client";
import { resetEnvForTests } from "../env";

type RouteModule = Record<string, (req: Request, seg: { params: Promise<Record<string, string>> }) => Promise<Response>>;
const ROUTES: Record<string, RouteModule> = {
  "/agent/identity": identity as unknown as RouteModule,
  "/agent/identity/claim": claim as unknown as RouteModule,
  "/agent/identity/claim/complete": claimComplete as unknown as RouteModule,
  "/agent/entitlements": entitlements as unknown as RouteModule,
  "/oauth2/token": token as unknown as RouteModule,
  "/oauth2/jwks.json": jwks as unknown as RouteModule,
  "/.well-known/oauth-authorization-server": wellKnownAs as unknown as RouteModule,
  "/.well-known/oauth-protected-resource": wellKnownPr as unknown as RouteModule,
};

export function useDevOutbox(): void {
  process.env.IDENTITY_DEV_OUTBOX = "1";
  resetEnvForTests();
}

export async function makeStore(label: string): Promise<{ sellerId: string; host: string; origin: string; fetch: typeof fetch }> {
  const tag = `${label}-${randomBytes(4).toString("hex")}`;
  const host = `${tag}.identity.test`;
  const { sellerId } = await seedMarketSeller(db, {
    slug: tag,
    name: `Store ${tag}`,
    hosts: [host],
    email: `${tag}@seller.test`,
    password: "pw-12345678",
    payTo: null,
    signingSecret: "s".repeat(32),
  });
  return { sellerId, host, ...routedStore(host) };
}

/** The identity routes of the storefront on `host`, in process, as a fetch (any seller: a gateway test's too). */
export function routedStore(host: string): { origin: string; fetch: typeof fetch } {
  const origin = `http://${host}`;
  const routed: typeof fetch = async (input, init) => {
    const req = new Request(input instanceof Request ? input : String(input), init);
    const url = new URL(req.url);
    const mod = ROUTES[url.pathname];
    if (!mod) return new Response("not routed in test", { status: 599 });
    const headers = new Headers(req.headers);
    headers.set("host", url.host);
    const body = ["GET", "HEAD"].includes(req.method) ? undefined : await req.text();
    return mod[req.method]!(new Request(req.url, { method: req.method, headers, body }), { params: Promise.resolve({}) });
  };
  return { origin, fetch: routed };
}

type Store = { origin: string; fetch: typeof fetch };

/** A fresh anonymous credential and an access token for it. */
export async function registerAnonymous(store: Store): Promise<{ credentialId: string; assertion: string; token: string; claimToken: string }> {
  const reg = await postJson(store, "/agent/identity", { type: "anonymous" });
  if (reg.status !== 201) throw new Error(`registration failed: ${JSON.stringify(reg.body)}`);
  const token = (await exchange(store, reg.body.identity.assertion)).body.access_token as string;
  return { credentialId: reg.body.identity.id, assertion: reg.body.identity.assertion, token, claimToken: reg.body.claim.token };
}

/** Claim a credential for the human with `email` (signed in through the real email-code path); a fresh post-claim token. */
export async function claimCredential(store: Store, claimToken: string, email: string): Promise<{ humanId: string; token: string; assertion: string }> {
  const { confirmClaimAttempt } = await import("../identity/confirm-claim");
  const start = await postJson(store, "/agent/identity/claim", { claim_token: claimToken });
  if (start.status !== 201) throw new Error(`claim failed: ${JSON.stringify(start.body)}`);
  const human = await signInHuman(email);
  const c = await confirmClaimAttempt(linkTokenOf(start.body.attempt.verification_uri), human);
  if (c.type !== "confirmed") throw new Error(c.detail);
  const done = await postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: c.userCode });
  const assertion = done.body.identity.assertion as string;
  const token = (await exchange(store, assertion)).body.access_token as string;
  return { humanId: human.id, token, assertion };
}

/** Plan credit for a credential as if it had bought it: a settled purchase payment and its grant (valid 30 days). */
export async function grantPlanCredit(g: { sellerId: string; planId: string; credentialId: string; micros: bigint }): Promise<void> {
  const { newId } = await import("../lib/ids");
  const source = await db.payment.create({
    data: {
      id: newId("pay"),
      sellerId: g.sellerId,
      status: "settled",
      rail: "x402",
      method: "POST",
      path: `/plans/${g.planId}/purchase`,
      query: "",
      operationKey: "plan_purchase",
      amountMicros: g.micros,
      expiresAt: new Date(Date.now() + 86_400_000),
    },
  });
  await db.creditGrant.create({
    data: {
      id: newId("grt"),
      sellerId: g.sellerId,
      planId: g.planId,
      credentialId: g.credentialId,
      sourcePaymentId: source.id,
      amountMicros: g.micros,
      remainingMicros: g.micros,
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
    },
  });
}

/** JSON POST against a store; returns status and parsed body. */
export async function postJson(store: { origin: string; fetch: typeof fetch }, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await store.fetch(`${store.origin}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

export async function exchange(store: { origin: string; fetch: typeof fetch }, assertion: string) {
  const res = await store.fetch(`${store.origin}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

export async function getJson(store: { origin: string; fetch: typeof fetch }, path: string, headers: Record<string, string> = {}) {
  const res = await store.fetch(`${store.origin}${path}`, { headers });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers };
}

/** The link secret at the end of a verification_uri. */
export function linkTokenOf(verificationUri: string): string {
  return new URL(verificationUri).pathname.split("/").pop()!;
}

/** A human signed in through the real email-code path (outbox), as the claim page would do it. */
export async function signInHuman(email: string): Promise<{ id: string; email: string }> {
  const { requestSignInCode, verifySignInCode } = await import("../identity/human-sign-in");
  const sent = await requestSignInCode({ email, origin: "http://test" });
  if (sent.type !== "sent") throw new Error(sent.detail);
  const msg = await db.outboxMessage.findFirst({ where: { to: email.toLowerCase() }, orderBy: { createdAt: "desc" } });
  const code = /\b(\d{6})\b/.exec(msg!.text)![1]!;
  const human = await verifySignInCode(email, code);
  if (!human) throw new Error("sign-in failed");
  return human;
}
