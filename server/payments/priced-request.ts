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
