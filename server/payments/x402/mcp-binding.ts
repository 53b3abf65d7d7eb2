// x402 over MCP (coinbase/x402 specs/transports-v2/mcp.md), the binding both x402 rails share (rails/x402: `exact`;
// rails/x402-batch: `batch-settlement`, each reading its own `accepted.scheme`): the PaymentPayload object in
// `params._meta["x402/payment"]`, read as the PAYMENT-SIGNATURE header it encodes to; the settlement in
// `result._meta["x402/payment-response"]`; a refused payload answered with fresh requirements.
import { proofRefused } from "../proof-refused";
import type { McpBinding } from "../rails/rail";

const KEY = "x402/payment";
/** As over HTTP (the rails cap their headers at 16 KiB): a proof is small. */
const MAX_PROOF_BYTES = 16 * 1024;

export const X402_MCP_BINDING: McpBinding = {
  name: "x402",
  metaKey: KEY,
  toHeaders(value) {
    const malformed = (detail: string) => proofRefused("malformed_payment", detail);
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return malformed(`_meta["${KEY}"] must be an x402 PaymentPayload object {x402Version, accepted, payload}`);
    const json = JSON.stringify(value);
    if (json.length > MAX_PROOF_BYTES) return malformed(`_meta["${KEY}"] is larger than ${MAX_PROOF_BYTES} bytes`);
    return [["payment-signature", Buffer.from(json).toString("base64")]];
  },
  refusals: "requirements",
  howToPay: `x402: retry with the payment payload in params._meta["${KEY}"]`,
  receiptMeta(headers) {
    if (!headers["payment-response"]) return {};
    try {
      return { "x402/payment-response": JSON.parse(Buffer.from(headers["payment-response"], "base64").toString("utf8")) as unknown };
    } catch {
      return {}; // a receipt we wrote ourselves; never undecodable
    }
  },
};
