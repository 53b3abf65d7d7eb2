// A tool call's payment proof, turned into the request headers the rails registry reads today, so MCP tool calls are
// paid by exactly the code that pays HTTP calls (server/payments/rails: readPaymentProof, then the rail's accept):
//   _meta["org.paymentauth/credential"] (an MPP credential object)  -> Authorization: Payment <serialized credential>
//   _meta["x402/payment"] (an x402 PaymentPayload object)           -> PAYMENT-SIGNATURE: <base64 JSON>
//   _meta["svc-payment-id"] (a paid card checkout)                  -> svc-payment-id
//   the MCP HTTP request's Authorization: Bearer (plan credit)      -> Authorization: Bearer, or SVC-Agent-Authorization
//                                                                      when Authorization carries the MPP credential
// No I/O. A `_meta` value that is not the binding's object is a clear refusal in that binding's terms (never a 5xx);
// whether a well-formed proof is valid is the rails' business, as over HTTP.
import { Credential } from "mppx";
import { AppError } from "../../errors";
import { AGENT_AUTHORIZATION_HEADER, parseAgentAuthorization } from "../../identity/parse-agent-authorization";
import { proofRefused } from "../../payments/proof-refused";
import { MPP_CREDENTIAL_KEY, PAYMENT_ID_KEY, X402_PAYMENT_KEY, type Binding } from "./bindings";

export type ToolCallProof =
  { type: "read"; headers: Headers; binding: Binding } | { type: "malformed"; binding: Exclude<Binding, "bearer" | "none">; error: AppError };

/** As over HTTP (the rails cap their headers at 16 KiB): a proof is small. */
const MAX_PROOF_BYTES = 16 * 1024;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function mppHeader(value: unknown): string | AppError {
  const malformed = (detail: string) => proofRefused("malformed_credential", detail);
  if (!isObject(value) || !isObject(value.challenge) || !("payload" in value))
    return malformed(
      `_meta["${MPP_CREDENTIAL_KEY}"] must be an MPP credential object {challenge, payload, source?}, the challenge echoed unchanged from the payment-required answer`,
    );
  let header: string;
  try {
    // mppx's own MCP transport reads the object this way: through the wire serializer, and back.
    header = Credential.serialize(value as unknown as Parameters<typeof Credential.serialize>[0]);
    Credential.deserialize(header);
  } catch {
    return malformed(`_meta["${MPP_CREDENTIAL_KEY}"] is not a valid MPP credential (its challenge must carry id, realm, method, intent and request as issued)`);
  }
  if (header.length > MAX_PROOF_BYTES) return malformed(`_meta["${MPP_CREDENTIAL_KEY}"] is larger than ${MAX_PROOF_BYTES} bytes`);
  return header;
}

function x402Header(value: unknown): string | AppError {
  const malformed = (detail: string) => proofRefused("malformed_payment", detail);
  if (!isObject(value)) return malformed(`_meta["${X402_PAYMENT_KEY}"] must be an x402 PaymentPayload object {x402Version, accepted, payload}`);
  const json = JSON.stringify(value);
  if (json.length > MAX_PROOF_BYTES) return malformed(`_meta["${X402_PAYMENT_KEY}"] is larger than ${MAX_PROOF_BYTES} bytes`);
  return Buffer.from(json).toString("base64");
}

/**
 * `meta`: the tool call's `params._meta` as received; `http`: the MCP HTTP request's headers (whose bearer the MCP
 * route has already verified). The headers returned hold nothing else of the HTTP request.
 */
export function readToolCallProof(meta: unknown, http: Headers): ToolCallProof {
  const m = isObject(meta) ? meta : {};
  const headers = new Headers();
  const mpp = m[MPP_CREDENTIAL_KEY];
  const x402 = m[X402_PAYMENT_KEY];
  const paymentId = m[PAYMENT_ID_KEY];

  if (mpp !== undefined) {
    const h = mppHeader(mpp);
    if (h instanceof AppError) return { type: "malformed", binding: "mpp", error: h };
    headers.set("authorization", h);
  }
  if (x402 !== undefined) {
    const h = x402Header(x402);
    if (h instanceof AppError) return { type: "malformed", binding: "x402", error: h };
    headers.set("payment-signature", h);
  }
  if (paymentId !== undefined) {
    if (typeof paymentId !== "string")
      return {
        type: "malformed",
        binding: "checkout",
        error: new AppError("payment_unknown", { detail: `_meta["${PAYMENT_ID_KEY}"] must be the payment.id string of a payment-required answer` }),
      };
    headers.set("svc-payment-id", paymentId);
  }

  // The agent's bearer rides on the MCP HTTP request (MCP authorization). It keeps SERVICE.md part 5's place: beside an
  // MPP credential it moves to SVC-Agent-Authorization, as an HTTP client sends it.
  const bearer = parseAgentAuthorization(http.get("authorization"), http.get(AGENT_AUTHORIZATION_HEADER));
  const agentHeader = http.get(AGENT_AUTHORIZATION_HEADER);
  if (agentHeader !== null) headers.set(AGENT_AUTHORIZATION_HEADER, agentHeader);
  if (bearer.type === "token" && bearer.via === "authorization") {
    if (headers.has("authorization")) {
      if (agentHeader === null) headers.set(AGENT_AUTHORIZATION_HEADER, `Bearer ${bearer.token}`);
    } else headers.set("authorization", `Bearer ${bearer.token}`);
  }

  const binding: Binding =
    mpp !== undefined ? "mpp" : x402 !== undefined ? "x402" : paymentId !== undefined ? "checkout" : bearer.type === "token" ? "bearer" : "none";
  return { type: "read", headers, binding };
}
