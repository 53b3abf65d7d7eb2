// The `_meta` keys of the two MCP payment bindings this storefront speaks, and its own.
//  - MPP (mpp-specs draft-payment-transport-mcp-00; mppx's `Mcp` module): the credential in
//    `params._meta["org.paymentauth/credential"]`, the receipt in `result._meta["org.paymentauth/receipt"]`, challenges
//    in a JSON-RPC error -32042 (`error.data.challenges`) or, as mppx's McpClient also reads them, in a tool result's
//    `_meta["org.paymentauth/payment-required"]`;
//  - x402 (coinbase/x402 specs/transports-v2/mcp.md): the requirements as a tool result with `isError` (structured
//    content and its JSON text), the payload in `params._meta["x402/payment"]`, the settlement in
//    `result._meta["x402/payment-response"]`.
import { Mcp } from "mppx";

export const MPP_CREDENTIAL_KEY = Mcp.credentialMetaKey;
export const MPP_PAYMENT_REQUIRED_KEY = Mcp.paymentRequiredMetaKey;
export const MPP_RECEIPT_KEY = Mcp.receiptMetaKey;
export const MPP_PAYMENT_REQUIRED_CODE = Mcp.paymentRequiredCode;
export const MPP_VERIFICATION_FAILED_CODE = Mcp.paymentVerificationFailedCode;
export const INVALID_PARAMS_CODE = Mcp.invalidParamsCode;

export const X402_PAYMENT_KEY = "x402/payment";
export const X402_PAYMENT_RESPONSE_KEY = "x402/payment-response";

/** The card rail's hosted checkout over MCP: the retry of a tool call whose checkout a person paid (the header's twin). */
export const PAYMENT_ID_KEY = "svc-payment-id";
/** What a tool answer adds of ours, as the HTTP answer's headers of the same names do. */
export const BILLING_KEY = "svc-billing";
/** The HTTP status the same call answers over HTTP: the upstream's own on a served call, the error's otherwise. */
export const STATUS_KEY = "svc-http-status";

/** Which binding a tool call's payment proof came in: how a refusal of it is answered. */
export type Binding = "mpp" | "x402" | "checkout" | "bearer" | "none";
