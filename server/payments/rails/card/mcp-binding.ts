// The card rail's hosted checkout over MCP: the retry of a tool call whose checkout a person paid carries the payment id
// in `params._meta["svc-payment-id"]`, the twin of the HTTP call's `svc-payment-id` header. (The card's MPP method rides
// MPP's own binding, ../../mpp/mcp-binding.ts.)
import { AppError } from "../../../errors";
import type { McpBinding } from "../rail";

const KEY = "svc-payment-id";

export const CHECKOUT_MCP_BINDING: McpBinding = {
  name: "checkout",
  metaKey: KEY,
  toHeaders: (value) =>
    typeof value === "string"
      ? [["svc-payment-id", value]]
      : new AppError("payment_unknown", { detail: `_meta["${KEY}"] must be the payment.id string of a payment-required answer` }),
  refusals: "error",
};
