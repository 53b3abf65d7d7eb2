// OAuth discovery documents: RFC 8414 authorization server metadata with the `agent_auth` block (where agents
// register, claim and read entitlements), and RFC 9728 protected resource metadata. The issuer and resource are
// the storefront's origin, so each seller host describes itself.
import { env } from "../env";
import { ACCESS_TOKEN_TTL_S, ANONYMOUS_TTL_MS, CLAIM_LINK_TTL_MS, ID_JAG_TOKEN_TYPE, JWT_BEARER_GRANT } from "./constants";
import { listTrustedProviders } from "./trusted-providers.queries";

export async function authorizationServerMetadata(ctx: { sellerId: string; origin: string }) {
  const e = env();
  const o = ctx.origin;
  const types = [
    ...(e.IDENTITY_ANONYMOUS_REGISTRATION ? ["anonymous"] : []),
    ...(e.IDENTITY_SERVICE_AUTH_REGISTRATION ? ["service_auth"] : []),
    "identity_assertion",
    "refresh",
  ];
  const trusted = (await listTrustedProviders(ctx.sellerId)).filter((p) => p.enabled).map((p) => p.issuer);
  return {
    issuer: o,
    token_endpoint: `${o}/oauth2/token`,
    jwks_uri: `${o}/oauth2/jwks.json`,
    grant_types_supported: [JWT_BEARER_GRANT],
    // Agents are public clients: the assertion is the credential, no client authentication.
    token_endpoint_auth_methods_supported: ["none"],
    // RFC 7009: an access or refresh token revokes its credential for good (server/controls/revoke-token.ts).
    revocation_endpoint: `${o}/oauth2/revoke`,
    revocation_endpoint_auth_methods_supported: ["none"],
    response_types_supported: [],
    scopes_supported: ["agent"],
    service_documentation: `${o}/vendor/agent/guide`,
    agent_auth: {
      registration_endpoint: `${o}/agent/identity`,
      claim_endpoint: `${o}/agent/identity/claim`,
      claim_complete_endpoint: `${o}/agent/identity/claim/complete`,
      entitlements_endpoint: `${o}/agent/entitlements`,
      token_endpoint: `${o}/oauth2/token`,
      identity_types_supported: types,
      assertion_types_supported: [ID_JAG_TOKEN_TYPE],
      identity_audience: e.IDENTITY_AUDIENCE,
      trusted_issuers: trusted,
      agent_authorization_header: "SVC-Agent-Authorization",
      anonymous_credential_ttl_seconds: ANONYMOUS_TTL_MS / 1000,
      claim_link_ttl_seconds: CLAIM_LINK_TTL_MS / 1000,
      access_token_ttl_seconds: ACCESS_TOKEN_TTL_S,
    },
  };
}

export function protectedResourceMetadata(ctx: { origin: string }) {
  const o = ctx.origin;
  return {
    resource: o,
    authorization_servers: [o],
    bearer_methods_supported: ["header"],
    scopes_supported: ["agent"],
    resource_name: "Market and economic data storefront",
    resource_documentation: `${o}/openapi.json`,
  };
}
