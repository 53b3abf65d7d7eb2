// Decoding the x402 proof a client sends: `X-PAYMENT` (SERVICE.md; v1 clients) or `PAYMENT-SIGNATURE`
// (the official v2 client), base64 JSON either way. Both versions are normalised to one shape carrying the
// EIP-3009 authorization; anything else is refused before any chain call.
import { z } from "zod";
import { NETWORK, NETWORK_V1 } from "../../../chain/config";
import { authorizationSchema, signatureSchema, type Eip3009Authorization } from "../../eip3009/authorization";

const exactPayloadSchema = z.object({ signature: signatureSchema, authorization: authorizationSchema });

const requirementsEchoSchema = z.looseObject({
  scheme: z.string(),
  network: z.string(),
  asset: z.string(),
  amount: z.string(),
  payTo: z.string(),
  extra: z.looseObject({}).optional(),
});

const v2Schema = z.looseObject({
  x402Version: z.literal(2),
  accepted: requirementsEchoSchema,
  payload: exactPayloadSchema,
  resource: z.looseObject({}).optional(),
});
const v1Schema = z.looseObject({
  x402Version: z.literal(1),
  scheme: z.string(),
  network: z.string(),
  payload: exactPayloadSchema,
});

export type DecodedProof = {
  version: 1 | 2;
  signature: string;
  authorization: Eip3009Authorization;
  /** v2: the requirements the client says it accepted (echo of our offer, including extra.paymentId/challenge). */
  accepted: z.infer<typeof requirementsEchoSchema> | null;
  /** The payload as received (JSON), kept to settle later. */
  raw: Record<string, unknown>;
};

export type ProofHeader = { type: "none" } | { type: "invalid"; detail: string } | { type: "x402"; proof: DecodedProof; header: string };

const MAX_HEADER = 16 * 1024;

export function readProofHeader(headers: Headers): ProofHeader {
  const value = headers.get("payment-signature") ?? headers.get("x-payment");
  if (!value) return { type: "none" };
  const header = headers.has("payment-signature") ? "PAYMENT-SIGNATURE" : "X-PAYMENT";
  if (value.length > MAX_HEADER) return { type: "invalid", detail: `${header} is larger than ${MAX_HEADER} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(value.trim(), "base64").toString("utf8"));
  } catch {
    return { type: "invalid", detail: `${header} is not base64-encoded JSON` };
  }
  // x402's batch-settlement scheme comes in the same header and is a rail of its own (rails/x402-batch): not ours.
  if ((json as { accepted?: { scheme?: unknown } } | null)?.accepted?.scheme === "batch-settlement") return { type: "none" };
  const v2 = v2Schema.safeParse(json);
  if (v2.success) {
    const p = v2.data;
    if (p.accepted.scheme !== "exact" || p.accepted.network !== NETWORK) return { type: "invalid", detail: `only scheme "exact" on ${NETWORK} is accepted` };
    return {
      type: "x402",
      header,
      proof: { version: 2, signature: p.payload.signature, authorization: p.payload.authorization, accepted: p.accepted, raw: json as Record<string, unknown> },
    };
  }
  const v1 = v1Schema.safeParse(json);
  if (v1.success) {
    const p = v1.data;
    if (p.scheme !== "exact" || (p.network !== NETWORK_V1 && p.network !== NETWORK))
      return { type: "invalid", detail: `only scheme "exact" on ${NETWORK} ("${NETWORK_V1}" in x402 v1) is accepted` };
    return {
      type: "x402",
      header,
      proof: { version: 1, signature: p.payload.signature, authorization: p.payload.authorization, accepted: null, raw: json as Record<string, unknown> },
    };
  }
  return { type: "invalid", detail: `${header} is not an x402 exact-scheme EIP-3009 payment payload (x402Version 1 or 2)` };
}
