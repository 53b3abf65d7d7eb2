// Trusted ID-JAG providers per seller (issuer + inline JWKS or JWKS URL), for the console and tests.
import { z } from "zod";
import { parseWith } from "../validation";
import { deleteTrustedProvider, listTrustedProviders, upsertTrustedProvider, type TrustedProviderRow } from "./trusted-providers.queries";

const jwkSet = z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) });

export const trustedProviderInput = z
  .object({
    issuer: z.string().min(1).max(500),
    jwksUri: z.url({ protocol: /^https?$/ }).optional(),
    jwks: jwkSet.optional(),
    enabled: z.boolean().default(true),
  })
  .refine((v) => Boolean(v.jwksUri) !== Boolean(v.jwks), { message: "give exactly one of jwksUri or jwks", path: ["jwks"] });

// Public members of a JWK (RFC 7517 section 4, RFC 7518 section 6). Everything else is dropped before the
// set is stored, private parts included (d, p, q, dp, dq, qi, oth, k): a pasted private JWK keeps only its
// public half. An allow-list, so members it does not know (`oth`, vendor extensions) are dropped too.
const PUBLIC_JWK_MEMBERS = new Set(["kty", "use", "key_ops", "alg", "kid", "x5u", "x5c", "x5t", "x5t#S256", "crv", "x", "y", "n", "e"]);

export function publicMembersOnly(jwks: { keys: Record<string, unknown>[] }): { keys: Record<string, unknown>[] } {
  return { keys: jwks.keys.map((k) => Object.fromEntries(Object.entries(k).filter(([name]) => PUBLIC_JWK_MEMBERS.has(name)))) };
}

/** Add or replace a seller's trusted provider. Private members of an inline JWKS are dropped, never stored. */
export async function trustIdentityProvider(sellerId: string, raw: unknown): Promise<TrustedProviderRow> {
  const input = parseWith(trustedProviderInput, raw);
  const jwks = input.jwks ? publicMembersOnly(input.jwks) : null;
  return upsertTrustedProvider({ sellerId, issuer: input.issuer, jwksUri: input.jwksUri ?? null, jwks, enabled: input.enabled });
}

export { deleteTrustedProvider as untrustIdentityProvider, listTrustedProviders };
