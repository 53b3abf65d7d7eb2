// The seller console's trusted ID-JAG providers (SERVICE.md part 3: "a trusted agent identity provider on a
// configured list"): list, add, enable or disable, remove, plus the storefront's hosts (read-only). Every
// function takes the seller id from the session (sellerProcedure), never from the client, so another
// seller's provider ids match nothing. Every change writes its audit row in the same transaction.
import { env } from "../env";
import { AppError, invalidParameter } from "../errors";
import { parseWith } from "../validation";
import { newId } from "../lib/ids";
import {
  createTrustedProviderAudited,
  deleteTrustedProviderAudited,
  listSellerHosts,
  listTrustedProvidersWithTimes,
  setTrustedProviderEnabledAudited,
  type ProviderAuditDescriber,
  type TrustedProviderListRow,
} from "./trusted-providers.queries";
import { literalHostAllowed } from "../lib/public-address";
import { publicMembersOnly, trustedProviderInput } from "./trusted-providers";

export const MAX_INLINE_KEYS = 20;

/**
 * The console's input: the shared `trustedProviderInput` (issuer, exactly one of jwksUri or jwks), plus two
 * rules for keys a seller types in: a JWKS URL must be https (keys fetched over plain http could be swapped
 * in transit, and any key in the set can mint identities here), and an inline set stays small.
 */
export const consoleProviderInput = trustedProviderInput
  .refine((v) => !v.jwksUri || v.jwksUri.toLowerCase().startsWith("https://"), { message: "jwksUri must be an https URL", path: ["jwksUri"] })
  // An address literal must be public (a name is judged by the address it resolves to, on every fetch).
  .refine((v) => !v.jwksUri || literalHostAllowed(new URL(v.jwksUri), false), {
    message: "jwksUri must not point at a private, loopback or reserved address",
    path: ["jwksUri"],
  })
  .refine((v) => !v.jwks || v.jwks.keys.length <= MAX_INLINE_KEYS, { message: `jwks may hold at most ${MAX_INLINE_KEYS} keys`, path: ["jwks"] });

function inlineKeys(row: { jwks: unknown }): Record<string, unknown>[] | null {
  const keys = row.jwks && typeof row.jwks === "object" ? (row.jwks as { keys?: unknown }).keys : null;
  return Array.isArray(keys) ? (keys as Record<string, unknown>[]) : null;
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** An audit row's view of a provider: issuer, state and where its keys come from; of the keys only kid and kty. */
const describeProvider: ProviderAuditDescriber = (row) => {
  const keys = inlineKeys(row);
  return keys
    ? { issuer: row.issuer, enabled: row.enabled, jwks: { keys: keys.map((k) => ({ kid: str(k.kid), kty: str(k.kty) })) } }
    : { issuer: row.issuer, enabled: row.enabled, jwksUri: row.jwksUri };
};

export type ProviderKeySource = { type: "jwks_uri"; jwksUri: string } | { type: "inline"; keyCount: number; kids: string[] };

function providerView(row: TrustedProviderListRow) {
  const keys = inlineKeys(row);
  const keySource: ProviderKeySource = keys
    ? { type: "inline", keyCount: keys.length, kids: keys.map((k) => str(k.kid)).filter((k): k is string => k !== null) }
    : { type: "jwks_uri", jwksUri: row.jwksUri ?? "" };
  return {
    id: row.id,
    issuer: row.issuer,
    keySource,
    keySourceLabel: keySource.type === "inline" ? `inline JWKS, ${keySource.keyCount} ${keySource.keyCount === 1 ? "key" : "keys"}` : keySource.jwksUri,
    enabled: row.enabled,
    createdAt: row.createdAt.toISOString(),
  };
}

export type IdentityProviderView = ReturnType<typeof providerView>;

/** The seller's trusted providers, its hosts, and the audience an ID-JAG must name. */
export async function listIdentityProviders(sellerId: string) {
  const [providers, hosts] = await Promise.all([listTrustedProvidersWithTimes(sellerId), listSellerHosts(sellerId)]);
  return {
    providers: providers.map(providerView),
    hosts: hosts.map((h) => ({ hostname: h.hostname, createdAt: h.createdAt.toISOString() })),
    audience: env().IDENTITY_AUDIENCE,
  };
}

export async function addIdentityProvider(input: { sellerId: string; actorId: string; provider: unknown }): Promise<IdentityProviderView> {
  const p = parseWith(consoleProviderInput, input.provider);
  const res = await createTrustedProviderAudited(
    {
      id: newId("tip"),
      sellerId: input.sellerId,
      issuer: p.issuer,
      jwksUri: p.jwksUri ?? null,
      jwks: p.jwks ? publicMembersOnly(p.jwks) : null,
      enabled: p.enabled,
    },
    { actorId: input.actorId, describe: describeProvider },
  );
  // Adding never replaces: changing an issuer's keys is remove then add, each with its own audit row.
  if (res.type === "exists") throw invalidParameter("issuer", `issuer ${p.issuer} is already trusted; remove it first to change its keys`);
  return providerView(res.provider);
}

export async function setIdentityProviderEnabled(input: { sellerId: string; actorId: string; id: string; enabled: boolean }): Promise<IdentityProviderView> {
  const res = await setTrustedProviderEnabledAudited(
    { sellerId: input.sellerId, id: input.id, enabled: input.enabled },
    { actorId: input.actorId, describe: describeProvider },
  );
  // Another seller's provider id matches no row: indistinguishable from a missing one.
  if (res.type === "not_found") throw new AppError("not_found", { detail: "no such identity provider" });
  return providerView(res.provider);
}

export async function removeIdentityProvider(input: { sellerId: string; actorId: string; id: string }): Promise<{ id: string; issuer: string }> {
  const res = await deleteTrustedProviderAudited({ sellerId: input.sellerId, id: input.id }, { actorId: input.actorId, describe: describeProvider });
  if (res.type === "not_found") throw new AppError("not_found", { detail: "no such identity provider" });
  return { id: res.provider.id, issuer: res.provider.issuer };
}
