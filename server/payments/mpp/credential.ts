// What both MPP-method rails (rails/mpp: method `evm`; rails/card: method `stripe`) read the same way: an
// `Authorization: Payment <credential>` header, and the binding we put in each challenge's opaque data (the payment id
// and the request binding; the challenge's HMAC id makes it tamper-proof, checked when the credential is validated).

/** Credentials larger than this are refused before any parsing. */
export const MAX_CREDENTIAL_BYTES = 16 * 1024;

const PAYMENT_SCHEME = /^Payment(\s|$)/i;

/** Whether an Authorization value is an MPP credential (`Payment ...`), whichever method it is for. */
export function isPaymentCredential(authorization: string | null | undefined): authorization is string {
  return !!authorization && PAYMENT_SCHEME.test(authorization);
}

/** What our challenges carry in `opaque`: the payment row they pay and the request they were issued for. */
export type MppBinding = { payment_id: string; binding: string };

export function decodeMeta(opaque: string | undefined): MppBinding | null {
  if (!opaque) return null;
  try {
    const m = JSON.parse(Buffer.from(opaque, "base64url").toString("utf8")) as Record<string, unknown>;
    return typeof m.payment_id === "string" && typeof m.binding === "string" ? { payment_id: m.payment_id, binding: m.binding } : null;
  } catch {
    return null;
  }
}
