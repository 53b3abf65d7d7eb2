// MPP over MCP (mpp-specs draft-payment-transport-mcp-00; mppx's `Mcp` module), the binding both MPP-method rails share
// (rails/mpp: evm; rails/card: stripe): the credential object in `params._meta["org.paymentauth/credential"]`, read as
// the `Authorization: Payment` header it serializes to; the receipt in `result._meta["org.paymentauth/receipt"]`;
// refusals as MPP's JSON-RPC errors.
import { Credential, Mcp, Receipt } from "mppx";
import { AppError } from "../../errors";
import { proofRefused } from "../proof-refused";
import type { McpBinding } from "../rails/rail";
import { MAX_CREDENTIAL_BYTES } from "./credential";

const KEY = Mcp.credentialMetaKey;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function authorizationOf(value: unknown): string | AppError {
  const malformed = (detail: string) => proofRefused("malformed_credential", detail);
  if (!isObject(value) || !isObject(value.challenge) || !("payload" in value))
    return malformed(
      `_meta["${KEY}"] must be an MPP credential object {challenge, payload, source?}, the challenge echoed unchanged from the payment-required answer`,
    );
  let header: string;
  try {
    // mppx's own MCP transport reads the object this way: through the wire serializer, and back.
    header = Credential.serialize(value as unknown as Parameters<typeof Credential.serialize>[0]);
    Credential.deserialize(header);
  } catch {
    return malformed(`_meta["${KEY}"] is not a valid MPP credential (its challenge must carry id, realm, method, intent and request as issued)`);
  }
  if (header.length > MAX_CREDENTIAL_BYTES) return malformed(`_meta["${KEY}"] is larger than ${MAX_CREDENTIAL_BYTES} bytes`);
  return header;
}

export const MPP_MCP_BINDING: McpBinding = {
  name: "mpp",
  metaKey: KEY,
  toHeaders(value) {
    const header = authorizationOf(value);
    return header instanceof AppError ? header : [["authorization", header]];
  },
  refusals: "jsonrpc",
  howToPay: `MPP: retry with the credential in params._meta["${KEY}"]`,
  receiptMeta: (headers) => (headers["payment-receipt"] ? { [Mcp.receiptMetaKey]: Receipt.deserialize(headers["payment-receipt"]) } : {}),
};
