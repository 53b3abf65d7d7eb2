import { generateKeyPair, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { issueAccessToken } from "./issue-tokens";
import { requireAgent } from "./require-agent";
import { exchange, getJson, makeStore, postJson } from "../testing/identity-harness";

let store: Awaited<ReturnType<typeof makeStore>>;
let access: string;
let assertion: string;
let agentId: string;

beforeAll(async () => {
  store = await makeStore("bearer");
  const reg = await postJson(store, "/agent/identity", { type: "anonymous" });
  assertion = reg.body.identity.assertion;
  agentId = reg.body.identity.id;
  access = (await exchange(store, assertion)).body.access_token;
});

const entitlements = (headers: Record<string, string>) => getJson(store, "/agent/entitlements", headers);

describe("bearer rules on GET /agent/entitlements", () => {
  it("answers a valid bearer, in either header", async () => {
    const a = await entitlements({ authorization: `Bearer ${access}` });
    expect(a.status).toBe(200);
    // No plan bought (so no credit for any meter), no free units (those are a claimed human's).
    expect(a.body).toEqual({
      agent: { id: agentId, type: "anonymous", claimed: false, human: null },
      credentials: [agentId],
      plans: [],
      credit: [],
      includedUnits: [],
    });
    expect((await entitlements({ authorization: "Payment eyJjcmVkIjoxfQ", "svc-agent-authorization": `Bearer ${access}` })).status).toBe(200);
  });

  it("bearer_required without a bearer, with a resource_metadata challenge", async () => {
    const r = await entitlements({});
    expect(r.status).toBe(401);
    expect(r.body.error).toBe("bearer_required");
    expect(r.headers.get("www-authenticate")).toContain(`resource_metadata="${store.origin}/.well-known/oauth-protected-resource"`);
  });

  const cases: [string, () => Promise<Record<string, string>>, string][] = [
    ["random junk", async () => ({ authorization: "Bearer not-a-token" }), "unrecognized_agent_credential"],
    [
      "a JWT from someone else's key",
      async () => {
        const { privateKey } = await generateKeyPair("ES256");
        return {
          authorization: `Bearer ${await new SignJWT({ sub: agentId }).setProtectedHeader({ alg: "ES256", kid: "evil", typ: "at+jwt" }).setExpirationTime("5m").sign(privateKey)}`,
        };
      },
      "unrecognized_agent_credential",
    ],
    [
      "an expired token",
      async () => {
        const t = await issueAccessToken(
          { sub: agentId, sid: store.sellerId, agent_type: "anonymous", agent_status: "unclaimed" },
          { issuer: store.origin, notAfter: new Date(Date.now() - 120_000) },
        );
        return { authorization: `Bearer ${t.token}` };
      },
      "token_expired",
    ],
    [
      "a tampered token",
      async () => {
        const [h, p, s] = access.split(".");
        const claims = JSON.parse(Buffer.from(p!, "base64url").toString());
        const forged = Buffer.from(JSON.stringify({ ...claims, agent_status: "claimed" })).toString("base64url");
        return { authorization: `Bearer ${h}.${forged}.${s}` };
      },
      "token_invalid",
    ],
    ["the identity assertion instead of an access token", async () => ({ authorization: `Bearer ${assertion}` }), "token_invalid"],
    ["two different tokens", async () => ({ authorization: `Bearer ${access}`, "svc-agent-authorization": "Bearer other" }), "conflicting_agent_credentials"],
    ["a comma-combined Authorization", async () => ({ authorization: `Payment eyJjcmVkIjoxfQ, Bearer ${access}` }), "combined_authorization_unsupported"],
    ["a malformed agent header", async () => ({ "svc-agent-authorization": access }), "malformed_agent_authorization"],
  ];
  for (const [name, headers, reason] of cases) {
    it(`invalid_token/${reason} for ${name}`, async () => {
      const r = await entitlements(await headers());
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ error: "invalid_token", reason });
    });
  }

  it("a token of another storefront is token_invalid there", async () => {
    const other = await makeStore("bearer-other");
    const r = await getJson(other, "/agent/entitlements", { authorization: `Bearer ${access}` });
    expect(r.body).toMatchObject({ error: "invalid_token", reason: "token_invalid" });
  });

  it("requireAgent is usable by other routes and throws AppError", async () => {
    const ok = await requireAgent(new Request("http://x/", { headers: { authorization: `Bearer ${access}` } }), { sellerId: store.sellerId });
    expect(ok).toMatchObject({ credentialId: agentId, claimed: false, humanId: null, kind: "anonymous" });
    await expect(requireAgent(new Request("http://x/"), { sellerId: store.sellerId })).rejects.toBeInstanceOf(AppError);
  });
});

describe("token endpoint errors", () => {
  const post = (body: string, type = "application/x-www-form-urlencoded") =>
    store
      .fetch(`${store.origin}/oauth2/token`, { method: "POST", headers: { "content-type": type }, body })
      .then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string>, headers: r.headers }));

  it("unsupported_grant_type, invalid_request, invalid_grant", async () => {
    expect((await post("grant_type=client_credentials")).body.error).toBe("unsupported_grant_type");
    expect((await post("assertion=x")).body.error).toBe("invalid_request");
    expect((await post("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer")).body.error).toBe("invalid_request");
    const undecodable = await post("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=garbage");
    expect(undecodable.status).toBe(400);
    expect(undecodable.body).toMatchObject({ error: "invalid_request", error_description: expect.any(String) });
    const { privateKey } = await generateKeyPair("ES256");
    const foreign = await new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: "x", typ: "agent-identity+jwt" }).sign(privateKey);
    expect((await post(`grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=${foreign}`)).body.error).toBe("invalid_grant");
    expect((await post(`grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=${access}`)).body.error).toBe("invalid_grant");
    expect((await post("{}", "application/json")).body.error).toBe("invalid_request");
    const ok = await post(`grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=${assertion}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("cache-control")).toBe("no-store");
  });
});
