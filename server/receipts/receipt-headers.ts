// The receipt headers of a paid answer, the same for a charge, a capture, a prepaid delivery, a charge pending
// inclusion and a replay: the rail's protocol receipt (x402's PAYMENT-RESPONSE, MPP's Payment-Receipt; none for
// credits or a card checkout) and ours, `svc-receipt`, which always wins its name.

export function receiptHeaders(railReceipt: Record<string, string> | null | undefined, svcReceipt: string): Record<string, string> {
  return { ...railReceipt, "svc-receipt": svcReceipt };
}
