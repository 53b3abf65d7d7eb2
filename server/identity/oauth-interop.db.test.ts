// A standard OAuth client library (oauth4webapi) reads both discovery documents and runs the jwt-bearer
// exchange against the real route handlers (routed in-process: no build needed).
import * as oauth from "oauth4webapi";
import { createLocalJWKSet, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { getJson, makeStore, postJson } from "../testing/identity-harness";

let store: Awaited<ReturnType<typeof makeStore>>;
const opts = () => ({ [oauth.customFetch]: store.fetch, [oauth.allowInsecureRequests]: true });

beforeAll(async () => {
  store = await makeStore("interop");
});

describe("oauth4webapi interop", () => {
  it("discovers, exchanges the assertion, and the token verifies against the published JWKS", async () => {
    const issuer = new URL(store.origin);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...opts() }));
    expect(as.token_endpoint).toBe(`${store.origin}/oauth2/token`);
    expect(as.grant_types_supported).toContain("urn:ietf:params:oauth:grant-type:jwt-bearer");
    const agentAuth = (as as unknown as { agent_auth: Record<string, unknown> }).agent_auth;
    expect(agentAuth).toMatchObject({
      registration_endpoint: `${store.origin}/agent/identity`,
      claim_endpoint: `${store.origin}/agent/identity/claim`,
      entitlements_endpoint: `${store.origin}/agent/entitlements`,
      identity_types_supported: ["anonymous", "service_auth", "identity_assertion", "refresh"],
    });

    const rs = await oauth.processResourceDiscoveryResponse(issuer, await oauth.resourceDiscoveryRequest(issuer, opts()));
    expect(rs.authorization_servers).toEqual([store.origin]);

    const reg = await postJson(store, agentAuth.registration_endpoint!.toString().replace(store.origin, ""), { type: "anonymous" });
    const client: oauth.Client = { client_id: reg.body.identity.id };
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      oauth.None(),
      "urn:ietf:params:oauth:grant-type:jwt-bearer",
      new URLSearchParams({ assertion: reg.body.identity.assertion }),
      opts(),
    );
    const tokens = await oauth.processGenericTokenEndpointResponse(as, client, response);
    expect(tokens.token_type).toBe("bearer");
    expect(tokens.expires_in).toBeGreaterThan(0);
    expect(tokens.expires_in).toBeLessThanOrEqual(600);

    const jwks = await getJson(store, "/oauth2/jwks.json");
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, createLocalJWKSet(jwks.body as never), {
      issuer: store.origin,
      audience: store.origin,
      typ: "at+jwt",
    });
    expect(protectedHeader.alg).toBe("ES256");
    expect(payload).toMatchObject({ sub: reg.body.identity.id, agent_status: "unclaimed" });
    // And the token works as a bearer.
    expect((await getJson(store, "/agent/entitlements", { authorization: `Bearer ${tokens.access_token}` })).status).toBe(200);
  });

  it("an error from the token endpoint is a proper OAuth error for the library", async () => {
    const issuer = new URL(store.origin);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...opts() }));
    const client: oauth.Client = { client_id: "agt_x" };
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      oauth.None(),
      "urn:ietf:params:oauth:grant-type:jwt-bearer",
      new URLSearchParams({ assertion: "a.b.c" }),
      opts(),
    );
    const err = await oauth.processGenericTokenEndpointResponse(as, client, response).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(oauth.ResponseBodyError);
    expect((err as oauth.ResponseBodyError).error).toMatch(/invalid_(request|grant)/);
  });
});
