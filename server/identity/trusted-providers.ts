// Trusted ID-JAG providers per seller (issuer + inline JWKS or JWKS URL), for the console and tests.
import { z } from "zod";
import { parseWith } from "../http/parse";
import { deleteTrustedProvider, listTrustedProviders, upsertTrustedProvider, type TrustedProviderRow } from "./identity.queries";

const jwkSet = z.object({ keys: z.array(z.record(z.string(), z.unknown())).min(1) });

export const trustedProviderInput = z
  .object({
    issuer: z.string().min(1).max(500),
    jwksUri: z.url({ protocol: /^https?$/ }).optional(),
    jwks: jwkSet.optional(),
    enabled: z.boolean().default(true),
  })
  .refine((v) => Boolean(v.jwksUri) !== Boolean(v.jwks), { message: "give exactly one of jwksUri or jwks", path: ["jwks"] });

/** Add or replace a seller's trusted provider. Private members of an inline JWKS are dropped, never stored. */
export async function trustIdentityProvider(sellerId: string, raw: unknown): Promise<TrustedProviderRow> {
  const input = parseWith(trustedProviderInput, raw);
  const jwks = input.jwks ? { keys: input.jwks.keys.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, k: _k, ...pub }) => pub) } : null;
  return upsertTrustedProvider({ sellerId, issuer: input.issuer, jwksUri: input.jwksUri ?? null, jwks, enabled: input.enabled });
}

export { deleteTrustedProvider as untrustIdentityProvider, listTrustedProviders };
