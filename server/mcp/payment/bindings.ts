// The MCP payment transport's own words. Where each rail's proof and receipt ride in `_meta` is the rail's (its `mcp`
// bindings, server/payments/rails/rail.ts); what stays here is how answers are shaped:
//  - MPP (mpp-specs draft-payment-transport-mcp-00; mppx's `Mcp` module): challenges in a JSON-RPC error -32042
//    (`error.data.challenges`) or, as mppx's McpClient also reads them, in a tool result's
//    `_meta["org.paymentauth/payment-required"]`; refusals as -32602 and -32043;
//  - x402 (coinbase/x402 specs/transports-v2/mcp.md): the requirements as a tool result with `isError` (structured
//    content and its JSON text).
import { Mcp } from "mppx";

export const MPP_PAYMENT_REQUIRED_KEY = Mcp.paymentRequiredMetaKey;
export const MPP_PAYMENT_REQUIRED_CODE = Mcp.paymentRequiredCode;
export const MPP_VERIFICATION_FAILED_CODE = Mcp.paymentVerificationFailedCode;
export const INVALID_PARAMS_CODE = Mcp.invalidParamsCode;

/** The payment a tool answer concerns (the `svc-payment-id` header's twin). */
export const PAYMENT_ID_KEY = "svc-payment-id";
/** What a tool answer adds of ours, as the HTTP answer's headers of the same names do. */
export const BILLING_KEY = "svc-billing";
/** The HTTP status the same call answers over HTTP: the upstream's own on a served call, the error's otherwise. */
export const STATUS_KEY = "svc-http-status";

/**
 * Which binding a tool call's payment proof came in, how a refusal of it is answered: a rail's binding by its name
 * (server/payments/rails: `mcpBinding`), or "bearer" (plan credit on the MCP request), or "none".
 */
export type Binding = string;
