import http from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env, withEnvForTests } from "../env";
import { confirmClaimAttempt } from "./confirm-claim";
import { exchange, getJson, linkTokenOf, makeStore, postJson, signInHuman, useDevOutbox } from "../testing/identity-harness";
import { makeIdJagProvider, mintIdJag, registerWithIdJag, uniq, type IdJagProvider, type Mint } from "../testing/id-jag";
import { trustIdentityProvider } from "./trusted-providers";

const ISSUER = "https://provider.example";
let store: Awaited<ReturnType<typeof makeStore>>;
let provider: IdJagProvider;
let strangerKey: CryptoKey;
let publicJwk: JWK;
let jwksServer: http.Server;

const mint = (opts: Mint = {}) => mintIdJag(provider, opts);
const register = (assertion: string, s = store) => registerWithIdJag(s, assertion);

beforeAll(async () => {
  useDevOutbox();
  store = await makeStore("idjag");
  provider = await makeIdJagProvider(ISSUER);
  publicJwk = provider.publicJwk;
  ({ privateKey: strangerKey } = await generateKeyPair("ES256"));
  await trustIdentityProvider(store.sellerId, { issuer: ISSUER, jwks: { keys: [publicJwk] } });
  jwksServer = http.createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [publicJwk] })));
  await new Promise<void>((r) => jwksServer.listen(0, "127.0.0.1", r));
});

afterAll(() => new Promise<void>((r) => jwksServer.close(() => r())));

describe("identity_assertion (ID-JAG)", () => {
  it("registers a claimed credential from a trusted provider, no ceremony", async () => {
    const email = `ivy-${uniq()}@example.com`;
    const r = await register(await mint({ claims: { email } }));
    expect(r.status).toBe(201);
    expect(r.body.identity).toMatchObject({ type: "identity_assertion", status: "claimed", claimed: true, human: { email } });
    expect(r.body.identity.refresh_token.value).toMatch(/^rt_/);
    expect(r.body.claim).toBeUndefined();
    const tok = await exchange(store, r.body.identity.assertion);
    expect(tok.status).toBe(200);
    const ent = await getJson(store, "/agent/entitlements", { authorization: `Bearer ${tok.body.access_token}` });
    expect(ent.body.agent).toMatchObject({ claimed: true, human: { email } });
  });

  it("accepts the storefront's own URL as audience, and keys from a JWKS URL", async () => {
    expect((await register(await mint({ claims: { aud: store.origin } }))).status).toBe(201);
    const other = await makeStore("idjag-uri");
    const { port } = jwksServer.address() as AddressInfo;
    await trustIdentityProvider(other.sellerId, { issuer: ISSUER, jwksUri: `http://127.0.0.1:${port}/jwks.json` });
    // A provider on this machine: its keys are fetched only because the test allows private JWKS URLs.
    await withEnvForTests({ IDENTITY_ALLOW_PRIVATE_JWKS_URLS: "on" }, async () => {
      expect((await register(await mint({ claims: { aud: [other.origin, "https://elsewhere.example"] } }), other)).status).toBe(201);
    });
  });

  it("never fetches a JWKS URL on a private address: the server is not connected to, the assertion does not verify", async () => {
    const other = await makeStore("idjag-private");
    let hits = 0;
    const trap = http.createServer(
      (_req, res) => (hits++, res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [publicJwk] }))),
    );
    await new Promise<void>((r) => trap.listen(0, "127.0.0.1", r));
    try {
      const { port } = trap.address() as AddressInfo;
      await trustIdentityProvider(other.sellerId, { issuer: ISSUER, jwksUri: `http://127.0.0.1:${port}/jwks.json` });
      const r = await register(await mint({ claims: { aud: other.origin } }), other);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
      expect(hits).toBe(0);
    } finally {
      await new Promise<void>((r) => trap.close(() => r()));
    }
  });

  it("the same provider identity registers again silently (it is linked to its human)", async () => {
    const sub = `user-${uniq()}`;
    const email = `jon-${uniq()}@example.com`;
    const a = await register(await mint({ claims: { sub, email } }));
    const b = await register(await mint({ claims: { sub, email } }));
    expect(b.status).toBe(201);
    expect(b.body.identity.human.id).toBe(a.body.identity.human.id);
  });

  const battery: [string, () => Promise<string>, string, number][] = [
    [
      "alg none",
      async () => {
        const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
        const now = Math.floor(Date.now() / 1000);
        return `${enc({ alg: "none", typ: "oauth-id-jag+jwt" })}.${enc({ iss: ISSUER, sub: "x", aud: env().IDENTITY_AUDIENCE, email: "n@example.com", email_verified: true, jti: uniq(), exp: now + 60, auth_time: now })}.`;
      },
      "invalid_signature",
      401,
    ],
    ["a key not in the provider's JWKS", () => mint({ key: strangerKey }), "invalid_signature", 401],
    ["a key not in the JWKS, claiming a known kid", () => mint({ key: strangerKey, header: { kid: "provider-key-1" } }), "invalid_signature", 401],
    [
      "an HMAC signature (symmetric algorithms are refused)",
      async () => {
        const now = Math.floor(Date.now() / 1000);
        return new SignJWT({
          iss: ISSUER,
          sub: "x",
          aud: env().IDENTITY_AUDIENCE,
          email: "h@example.com",
          email_verified: true,
          jti: uniq(),
          exp: now + 60,
          auth_time: now,
        })
          .setProtectedHeader({ alg: "HS256", typ: "oauth-id-jag+jwt" })
          .sign(new TextEncoder().encode("k".repeat(32)));
      },
      "invalid_signature",
      401,
    ],
    ["the wrong typ", () => mint({ header: { typ: "JWT" } }), "invalid_request", 400],
    ["the wrong aud", () => mint({ claims: { aud: "https://other-as.example" } }), "invalid_audience", 401],
    ["exp more than 10 minutes ahead", () => mint({ claims: { exp: Math.floor(Date.now() / 1000) + 11 * 60 } }), "expired", 401],
    ["an expired assertion", () => mint({ claims: { exp: Math.floor(Date.now() / 1000) - 120 } }), "expired", 401],
    ["a stale auth_time", () => mint({ claims: { auth_time: Math.floor(Date.now() / 1000) - 31 * 86400 } }), "login_required", 401],
    ["no auth_time", () => mint({ omit: ["auth_time"] }), "login_required", 401],
    ["an unverified email", () => mint({ claims: { email_verified: false } }), "missing_verified_email", 400],
    ["no email", () => mint({ omit: ["email"] }), "missing_verified_email", 400],
    ["no jti", () => mint({ omit: ["jti"] }), "invalid_request", 400],
    ["an untrusted issuer", () => mint({ claims: { iss: "https://untrusted.example" } }), "issuer_not_enabled", 400],
    ["not a JWT", async () => "definitely-not-a-jwt", "invalid_request", 400],
  ];
  for (const [name, make, code, status] of battery) {
    it(`rejects ${name} with ${code}`, async () => {
      const r = await register(await make());
      expect(r.body.error).toBe(code);
      expect(r.status).toBe(status);
      expect(r.body.identity).toBeUndefined();
    });
  }

  it("rejects a replayed jti with replay_detected", async () => {
    const assertion = await mint();
    expect((await register(assertion)).status).toBe(201);
    const again = await register(assertion);
    expect(again.status).toBe(401);
    expect(again.body.error).toBe("replay_detected");
  });

  it("concurrent replays: exactly one registration wins", async () => {
    const assertion = await mint();
    const results = await Promise.all(Array.from({ length: 8 }, () => register(assertion)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.body.error === "replay_detected")).toHaveLength(7);
  });

  it("a disabled provider is issuer_not_enabled", async () => {
    const other = await makeStore("idjag-off");
    await trustIdentityProvider(other.sellerId, { issuer: ISSUER, jwks: { keys: [publicJwk] }, enabled: false });
    expect((await register(await mint(), other)).body.error).toBe("issuer_not_enabled");
  });

  it("an email that already has an account needs the human once: interaction_required with a claim block", async () => {
    const email = `kim-${uniq()}@example.com`;
    const kim = await signInHuman(email);
    const r = await register(await mint({ claims: { email } }));
    expect(r.status).toBe(401);
    expect(r.body.error).toBe("interaction_required");
    expect(r.body.claim.token).toMatch(/^ct_/);
    expect(r.body.claim.attempt.verification_uri).toMatch(/\/claim\//);
    const c = await confirmClaimAttempt(linkTokenOf(r.body.claim.attempt.verification_uri), kim);
    if (c.type !== "confirmed") throw new Error(c.detail);
    const done = await postJson(store, "/agent/identity/claim/complete", { claim_token: r.body.claim.token, user_code: c.userCode });
    expect(done.body.identity).toMatchObject({ type: "identity_assertion", status: "claimed", human: { id: kim.id } });
  });
});
