// Agent identity over HTTP against the built app: discovery read by a standard OAuth client (oauth4webapi),
// the jwt-bearer exchange, the bearer rules, refresh-free anonymous credentials.
import { expect, test } from "@playwright/test";
import * as oauth from "oauth4webapi";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

test("oauth4webapi reads both discovery documents and performs the jwt-bearer exchange", async ({ baseURL, request }) => {
  const issuer = new URL(baseURL!);
  const opts = { [oauth.allowInsecureRequests]: true };
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...opts }));
  const agentAuth = (as as unknown as { agent_auth: Record<string, string> }).agent_auth;
  expect(agentAuth.registration_endpoint).toBe(`${issuer.origin}/agent/identity`);
  expect(agentAuth.entitlements_endpoint).toBe(`${issuer.origin}/agent/entitlements`);
  const rs = await oauth.processResourceDiscoveryResponse(issuer, await oauth.resourceDiscoveryRequest(issuer, opts));
  expect(rs.authorization_servers).toEqual([issuer.origin]);

  const reg = await (await request.post(agentAuth.registration_endpoint!, { data: { type: "anonymous" } })).json();
  const client: oauth.Client = { client_id: reg.identity.id };
  const res = await oauth.genericTokenEndpointRequest(as, client, oauth.None(), JWT_BEARER, new URLSearchParams({ assertion: reg.identity.assertion }), opts);
  const tokens = await oauth.processGenericTokenEndpointResponse(as, client, res);
  expect(tokens.token_type).toBe("bearer");

  const ent = await request.get("/agent/entitlements", { headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(await ent.json()).toMatchObject({ agent: { id: reg.identity.id, claimed: false }, plans: [] });
  const jwks = await (await request.get(as.jwks_uri!)).json();
  expect(jwks.keys.length).toBeGreaterThanOrEqual(1);
  expect(jwks.keys[0]).not.toHaveProperty("d");
});

test("oauth4webapi's default discovery (/.well-known/openid-configuration) finds the same authorization server metadata", async ({ baseURL, request }) => {
  const issuer = new URL(baseURL!);
  const opts = { [oauth.allowInsecureRequests]: true };
  // No `algorithm`: the library's default, OpenID Connect discovery's path.
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, opts));
  const rfc8414 = await (await request.get("/.well-known/oauth-authorization-server")).json();
  expect(as).toEqual(rfc8414);
  expect(as.token_endpoint).toBe(`${issuer.origin}/oauth2/token`);
});

test("bearer rules over HTTP", async ({ request }) => {
  const reg = await (await request.post("/agent/identity", { data: { type: "anonymous" } })).json();
  const { access_token } = await (await request.post("/oauth2/token", { form: { grant_type: JWT_BEARER, assertion: reg.identity.assertion } })).json();
  const call = (headers: Record<string, string>) =>
    request.get("/agent/entitlements", { headers }).then(async (r) => ({ status: r.status(), body: await r.json() }));
  expect((await call({})).body.error).toBe("bearer_required");
  expect((await call({ authorization: "Payment abc", "svc-agent-authorization": `Bearer ${access_token}` })).status).toBe(200);
  expect((await call({ authorization: `Payment abc, Bearer ${access_token}` })).body.reason).toBe("combined_authorization_unsupported");
  expect((await call({ authorization: `Bearer ${access_token}`, "svc-agent-authorization": "Bearer other" })).body.reason).toBe(
    "conflicting_agent_credentials",
  );
  expect((await call({ "svc-agent-authorization": "nope" })).body.reason).toBe("malformed_agent_authorization");
  expect((await call({ authorization: "Bearer garbage" })).body.reason).toBe("unrecognized_agent_credential");
  expect((await call({ authorization: `Bearer ${reg.identity.assertion}` })).body.reason).toBe("token_invalid");
  const bad = await request.post("/oauth2/token", { form: { grant_type: "password", username: "x" } });
  expect((await bad.json()).error).toBe("unsupported_grant_type");
});
