import { NETWORK, USDC_ADDRESS } from "../chain/config";
import type { PaidCall } from "./rails/rail";

/**
 * One priced request as the payments domain sees it: who sells it, what exactly was asked (a 402 challenge
 * and the payment it becomes are bound to method, path and canonical query), what it costs, who is paid.
 * `query` may be raw on input; the domain canonicalises it before binding or storing.
 */
export type PricedRequest = {
  sellerId: string;
  method: string;
  path: string;
  query: string;
  operationKey: string;
  meterKey: string | null;
  amountMicros: bigint;
  payTo: string;
};

/** A payment row's request fields for a priced call: what it buys, at what price, and the USDC offer (chain, token, payee). */
export function paymentFieldsOf(call: PaidCall): PricedRequest & { network: string; asset: string } {
  return {
    sellerId: call.sellerId,
    method: call.method,
    path: call.path,
    query: call.canonicalQuery,
    operationKey: call.operationKey,
    meterKey: call.meterKey,
    amountMicros: call.amountMicros,
    network: NETWORK,
    asset: USDC_ADDRESS,
    payTo: call.payTo,
  };
}
