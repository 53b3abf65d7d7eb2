// RFC 9068 section 4 (and RFC 7523 section 3 for the assertion): a token signed with the platform's own key is still
// refused unless its issuer is this storefront and its audience names it. A storefront answers on several hosts, so a
// token issued on one of them is good on all of them; another storefront's host is not this storefront.
import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { withEnvForTests } from "../env";
import { ACCESS_TOKEN_TYP, ASSERTION_TYP } from "./constants";
import { currentSigningKey } from "./signing-keys";
import { verifyAccessToken } from "./verify-access-token";
import { exchange, getJson, makeStore, postJson, routedStore } from "../testing/identity-harness";

type Store = Awaited<ReturnType<typeof makeStore>>;
let store: Store;
let other: Store;
/** The same storefront on its second host. */
let second: { origin: string; fetch: typeof fetch };
let agentId: string;
let generation: number;

beforeAll(async () => {
  store = await makeStore("iss-aud");
  other = await makeStore("iss-aud-other");
  const host2 = `www.${store.host}`;
  await db.sellerHost.create({ data: { hostname: host2, sellerId: store.sellerId } });
  second = routedStore(host2);
  const reg = await postJson(store, "/agent/identity", { type: "anonymous" });
  agentId = reg.body.identity.id;
  generation = (await db.agentCredential.findUniqueOrThrow({ where: { id: agentId } })).generation;
});

/** A token exactly as the platform signs one (its current key, kid, typ, claims), with the given iss and aud. */
async function signed(typ: string, opts: { iss?: string; aud?: string | string[] }): Promise<string> {
  const key = await currentSigningKey();
  const claims = { sub: agentId, sid: store.sellerId, agent_type: "anonymous", agent_status: "unclaimed", client_id: agentId, scope: "agent", gen: generation };
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid: key.kid, typ }).setIssuedAt().setJti(randomUUID()).setExpirationTime("5m");
  if (opts.iss !== undefined) jwt = jwt.setIssuer(opts.iss);
  if (opts.aud !== undefined) jwt = jwt.setAudience(opts.aud);
  return jwt.sign(key.privateKey);
}

const entitlements = (s: { origin: string; fetch: typeof fetch }, token: string) => getJson(s, "/agent/entitlements", { authorization: `Bearer ${token}` });

describe("access tokens: issuer and audience", () => {
  it("accepts the platform's token on the host that issued it and on the storefront's other host", async () => {
    const reg = await postJson(store, "/agent/identity", { type: "anonymous" });
    const token = (await exchange(store, reg.body.identity.assertion)).body.access_token as string;
    expect((await entitlements(store, token)).status).toBe(200);
    expect((await entitlements(second, token)).status).toBe(200);
    // Hand-signed with the storefront's origins: the control that the refusals below are about iss and aud alone.
    expect((await entitlements(store, await signed(ACCESS_TOKEN_TYP, { iss: store.origin, aud: store.origin }))).status).toBe(200);
    expect((await entitlements(store, await signed(ACCESS_TOKEN_TYP, { iss: second.origin, aud: store.origin }))).status).toBe(200);
    // RFC 7519: aud may be an array; it must contain us.
    expect((await entitlements(store, await signed(ACCESS_TOKEN_TYP, { iss: store.origin, aud: ["https://elsewhere.example", store.origin] }))).status).toBe(
      200,
    );
  });

  const refused: [string, () => { iss?: string; aud?: string | string[] }][] = [
    ["another audience", () => ({ iss: store.origin, aud: "https://elsewhere.example" })],
    ["another issuer", () => ({ iss: "https://elsewhere.example", aud: store.origin })],
    ["another storefront's origin as the issuer", () => ({ iss: other.origin, aud: store.origin })],
    ["another storefront's origin as the audience", () => ({ iss: store.origin, aud: other.origin })],
    ["an audience with a path", () => ({ iss: store.origin, aud: `${store.origin}/agent/entitlements` })],
    ["an issuer with credentials", () => ({ iss: `http://user:pw@${store.host}`, aud: store.origin })],
    ["an issuer on another scheme", () => ({ iss: `ftp://${store.host}`, aud: store.origin })],
    ["no audience", () => ({ iss: store.origin })],
    ["no issuer", () => ({ aud: store.origin })],
    ["an audience list without us", () => ({ iss: store.origin, aud: ["https://a.example", other.origin] })],
  ];
  for (const [name, claims] of refused) {
    it(`refuses a token our key signed with ${name}`, async () => {
      const token = await signed(ACCESS_TOKEN_TYP, claims());
      const r = await entitlements(store, token);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ error: "invalid_token", reason: "token_invalid" });
      // The function every bearer path uses (the credits rail calls it directly) refuses it too.
      expect(await verifyAccessToken(token)).toMatchObject({ type: "invalid", reason: "token_invalid" });
    });
  }

  it("accepts PUBLIC_URL as the issuer and audience when it is set", async () => {
    await withEnvForTests({ PUBLIC_URL: "https://shop.example" }, async () => {
      expect((await entitlements(store, await signed(ACCESS_TOKEN_TYP, { iss: "https://shop.example", aud: "https://shop.example" }))).status).toBe(200);
      expect((await entitlements(store, await signed(ACCESS_TOKEN_TYP, { iss: "https://shop.example", aud: "https://elsewhere.example" }))).status).toBe(401);
    });
  });
});

describe("identity assertions at /oauth2/token: issuer and audience", () => {
  it("exchanges an assertion of this storefront, from either host", async () => {
    expect((await exchange(store, await signed(ASSERTION_TYP, { iss: store.origin, aud: store.origin }))).status).toBe(200);
    expect((await exchange(second, await signed(ASSERTION_TYP, { iss: store.origin, aud: store.origin }))).status).toBe(200);
  });

  const refused: [string, () => { iss?: string; aud?: string }][] = [
    ["another audience", () => ({ iss: store.origin, aud: "https://elsewhere.example" })],
    ["another issuer", () => ({ iss: "https://elsewhere.example", aud: store.origin })],
    ["another storefront's origin as the issuer", () => ({ iss: other.origin, aud: store.origin })],
    ["no audience", () => ({ iss: store.origin })],
  ];
  for (const [name, claims] of refused) {
    it(`refuses an assertion our key signed with ${name}`, async () => {
      const r = await exchange(store, await signed(ASSERTION_TYP, claims()));
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ error: "invalid_grant", reason: "invalid_assertion" });
    });
  }
});
