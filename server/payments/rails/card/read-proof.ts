// The card rail's proofs, read off the request with no I/O:
//  - `svc-payment-id: pay_...`: the retry of a request whose hosted checkout a human paid (SERVICE.md part 4 step 4);
//  - `Authorization: Payment <credential>` of method `stripe` (the MPP card method), with the shared payment token in
//    the credential's payload (as mppx's client sends it) or in `SVC-Agent-Authorization: Bearer spt_...` (as
//    SERVICE.md part 4 puts it; never in a body). Other methods belong to other rails.
import { Credential } from "mppx";
import { z } from "zod";
import { AppError } from "../../../errors";
import { MAX_CHALLENGE_ID_LENGTH } from "../../challenge-id";
import { decodeMeta, isPaymentCredential, MAX_CREDENTIAL_BYTES, type MppBinding } from "../../mpp/credential";
import { proofRefused } from "../../proof-refused";
import type { ProofRead } from "../rail";

export type CardTokenProof = {
  kind: "token";
  credential: ReturnType<typeof Credential.deserialize>;
  meta: MppBinding | null;
  spt: string;
  externalId: string | null;
};
export type CardProof = { kind: "checkout"; paymentId: string } | CardTokenProof;

// An ordinary payment id (lib/ids.ts), or a signed challenge id (challenge-id.ts: `pay_<payload>.<mac>`, verified
// where it is looked up); anything else is malformed before any lookup.
const PAYMENT_ID = /^pay_(?:[0-9a-z]{16}|[A-Za-z0-9_-]{16,4000}\.[A-Za-z0-9_-]{22})$/;
const SPT = /^spt_[0-9A-Za-z_]{4,200}$/;

/** The stripe charge credential as this storefront issues its challenge: anything else is malformed, before any check. */
const stripeChargeCredential = z.object({
  challenge: z.looseObject({
    id: z.string().min(1).max(256),
    realm: z.string().min(1).max(255),
    method: z.literal("stripe"),
    intent: z.string().max(64),
    expires: z.string().max(64).optional(),
    opaque: z.string().max(4096).optional(),
    request: z.looseObject({
      amount: z.string().regex(/^\d{1,15}$/),
      currency: z.string().max(8),
      externalId: z.string().max(MAX_CHALLENGE_ID_LENGTH).optional(),
      methodDetails: z.looseObject({ networkId: z.string().max(255), paymentMethodTypes: z.array(z.string().max(64)).max(10) }),
    }),
  }),
  payload: z.object({ spt: z.string().max(256), externalId: z.string().max(MAX_CHALLENGE_ID_LENGTH).optional() }),
  source: z.string().max(256).optional(),
});

function malformed(detail: string, reason = "malformed_credential"): ProofRead<CardProof> {
  return { type: "malformed", error: proofRefused(reason, detail), freshChallenge: true };
}

/** The SPT from `SVC-Agent-Authorization: Bearer spt_...`, if that is what it carries (an agent token is not ours to read). */
function tokenFromAgentHeader(headers: Headers): string | null {
  const m = /^Bearer\s+(spt_\S+)$/i.exec(headers.get("svc-agent-authorization")?.trim() ?? "");
  return m ? m[1]! : null;
}

function readCardCredential(headers: Headers): ProofRead<CardProof> {
  const value = headers.get("authorization");
  if (!isPaymentCredential(value) || value.length > MAX_CREDENTIAL_BYTES) return { type: "absent" };
  let credential: CardTokenProof["credential"];
  try {
    credential = Credential.deserialize(value);
  } catch {
    return { type: "absent" }; // undecodable: the MPP rail answers it
  }
  if (credential?.challenge?.method !== "stripe") return { type: "absent" };
  const shape = stripeChargeCredential.safeParse(credential);
  if (!shape.success) {
    const issue = shape.error.issues[0]!;
    return malformed(`the stripe charge credential is malformed at ${issue.path.join(".") || "the top"}: ${issue.message}`);
  }
  const inPayload = shape.data.payload.spt;
  const inHeader = tokenFromAgentHeader(headers);
  if (inPayload && inHeader && inPayload !== inHeader)
    return malformed("the credential's payload and SVC-Agent-Authorization carry two different shared payment tokens; send one");
  const spt = inPayload || inHeader;
  if (!spt) return malformed("no shared payment token: send it in SVC-Agent-Authorization: Bearer spt_... (or the credential's payload.spt)");
  if (!SPT.test(spt)) return malformed("the shared payment token must look like spt_...");
  return {
    type: "present",
    header: "Authorization",
    proof: { kind: "token", credential, meta: decodeMeta(credential.challenge.opaque), spt, externalId: shape.data.payload.externalId ?? null },
  };
}

export function readCardProof(headers: Headers): ProofRead<CardProof> {
  const token = readCardCredential(headers);
  const raw = headers.get("svc-payment-id");
  if (raw === null) return token;
  if (token.type !== "absent")
    return {
      type: "malformed",
      error: new AppError("invalid_request", {
        reason: "multiple_payment_proofs",
        detail: "the request carries svc-payment-id and a card credential; send exactly one, nothing was charged",
      }),
      freshChallenge: false,
    };
  const paymentId = raw.trim();
  if (!PAYMENT_ID.test(paymentId))
    return {
      type: "malformed",
      error: new AppError("payment_unknown", {
        // The ids a checkout has are challenge ids (challenge-id.ts): measured 218 (no query) to 285 (a plan purchase).
        detail:
          "svc-payment-id must be a payment.id of this storefront, whole, as its 402 gave it: pay_<signed terms>.<signature>, about 200 to 300 characters (more with a long query)",
      }),
      freshChallenge: false,
    };
  return { type: "present", header: "svc-payment-id", proof: { kind: "checkout", paymentId } };
}
