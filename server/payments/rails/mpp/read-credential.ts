// Reading an MPP credential (`Authorization: Payment <base64url JSON>`) off the request, with no I/O. mppx parses
// it; what comes back is the credential plus our binding, read from the challenge's opaque data (the HMAC over the
// challenge id makes it tamper-proof; it is checked when the credential is validated).
import { Credential } from "mppx";
import { z } from "zod";
import { authorizationSchema } from "../../eip3009/authorization";
import { decodeMeta, isPaymentCredential, MAX_CREDENTIAL_BYTES, type MppBinding } from "../../mpp/credential";
import { proofRefused } from "../../proof-refused";
import type { ProofRead } from "../rail";

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);
const digits = z.string().regex(/^\d{1,78}$/);
/**
 * The one method this storefront offers, strictly: a credential that parses here is well formed for mppx's checks,
 * so anything mppx says afterwards is about its validity, never about its shape.
 */
const evmChargeCredential = z.object({
  challenge: z.looseObject({
    id: z.string().min(1).max(256),
    realm: z.string().min(1).max(255),
    method: z.literal("evm"),
    intent: z.literal("charge"),
    expires: z.string().max(64).optional(),
    opaque: z.string().max(4096).optional(),
    request: z.looseObject({
      amount: digits,
      currency: address,
      recipient: address,
      methodDetails: z.looseObject({
        chainId: z.number().int().positive(),
        decimals: z.number().int().min(0).max(36),
        credentialTypes: z.array(z.string()).optional(),
      }),
    }),
  }),
  // As mppx's evm method carries it: integers as decimal strings, a 65-byte EOA signature (what it can recover).
  payload: authorizationSchema.extend({
    type: z.literal("authorization"),
    value: digits,
    validAfter: digits,
    validBefore: digits,
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/),
  }),
  source: z.string().max(256).optional(),
});

export type MppCredential = ReturnType<typeof Credential.deserialize>;
export type MppProof = { credential: MppCredential; meta: MppBinding | null };

function malformed(detail: string): ProofRead<MppProof> {
  return { type: "malformed", error: proofRefused("malformed_credential", detail) };
}

export function readMppCredential(headers: Headers): ProofRead<MppProof> {
  const value = headers.get("authorization");
  if (!isPaymentCredential(value)) return { type: "absent" };
  if (value.length > MAX_CREDENTIAL_BYTES) return malformed(`the Payment credential is larger than ${MAX_CREDENTIAL_BYTES} bytes`);
  let credential: MppCredential;
  try {
    credential = Credential.deserialize(value);
  } catch {
    return malformed("Authorization: Payment must carry base64url JSON {challenge, payload} as MPP defines it");
  }
  const { challenge } = credential;
  if (!challenge || typeof challenge.id !== "string" || typeof challenge.method !== "string") return malformed("the credential names no challenge");
  // Another method is another rail's (the card rail takes `stripe`); one no rail takes is refused by the registry.
  if (challenge.method !== "evm") return { type: "absent" };
  // Another intent is refused by the rail with its own reason; ours must be exactly the shape we issued.
  if (challenge.intent === "charge") {
    const shape = evmChargeCredential.safeParse(credential);
    if (!shape.success) {
      const issue = shape.error.issues[0]!;
      return malformed(`the evm charge credential is malformed at ${issue.path.join(".") || "the top"}: ${issue.message}`);
    }
  }
  return { type: "present", header: "Authorization", proof: { credential, meta: decodeMeta(challenge.opaque) } };
}
