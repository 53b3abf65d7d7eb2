// What never reaches a log line: credentials (bearer tokens, the agent header, webhook and Stripe signatures, API keys),
// payment proofs (x402's PAYMENT-SIGNATURE and X-PAYMENT, MPP's `Authorization: Payment`), cookies and card data. Headers
// are logged through `redactHeaders` (the scheme of an Authorization stays: which kind of credential came is worth
// knowing, the credential is not); free text (messages, errors, captured console output) through `scrubText`.
// `svc-payment-id` is a payment's public id, not a proof: it is kept.
import { luhnValid } from "../lib/luhn";

const REDACTED = "[redacted]";

/** Request and response headers whose values are secrets or proofs. */
export const SECRET_HEADERS = new Set([
  "authorization",
  "proxy-authorization",
  "svc-agent-authorization",
  "payment-signature",
  "x-payment",
  "payment-authorization",
  "cookie",
  "set-cookie",
  "stripe-signature",
  "webhook-signature",
  "x-upstream-signature",
]);

const SCHEMED = new Set(["authorization", "proxy-authorization", "svc-agent-authorization", "payment-authorization"]);

/** Headers as a plain object safe to log: secret values replaced, an Authorization's scheme kept (`Payment [redacted]`). */
export function redactHeaders(headers: Headers | Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries: [string, string][] =
    headers instanceof Headers
      ? [...headers.entries()]
      : Object.entries(headers).flatMap(([k, v]) => (v === undefined ? [] : [[k, Array.isArray(v) ? v.join(", ") : v] as [string, string]]));
  for (const [rawName, value] of entries) {
    const name = rawName.toLowerCase();
    if (!SECRET_HEADERS.has(name)) out[name] = scrubText(value);
    else if (SCHEMED.has(name)) {
      const scheme = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s/.exec(value)?.[1];
      out[name] = scheme ? `${scheme} ${REDACTED}` : REDACTED;
    } else out[name] = REDACTED;
  }
  return out;
}

const PATTERNS: [RegExp, string | ((m: string) => string)][] = [
  // A credential after its scheme, wherever it appears ("Authorization: Bearer eyJ...", "Payment eyJ...").
  [/\b(Bearer|Payment|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, (m) => `${m.split(/\s+/)[0]} ${REDACTED}`],
  // JWTs (access tokens, assertions, ID-JAGs) without a scheme.
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, REDACTED],
  // Webhook signing secrets, Stripe keys, shared payment tokens, client secrets.
  [/\b(whsec|sk_live|sk_test|rk_live|rk_test|spt|pi_[A-Za-z0-9]+_secret)_[A-Za-z0-9+/=_-]{6,}/g, (m) => `${m.split("_")[0]}_${REDACTED}`],
  // EIP-712 / EIP-3009 signatures (65 bytes as hex): the heart of a wallet payment proof.
  [/\b0x[0-9a-fA-F]{130}\b/g, REDACTED],
  // Card numbers: 13 to 19 digits, optionally grouped by spaces or dashes, that pass the Luhn check.
  [
    /\b\d(?:[ -]?\d){12,18}\b/g,
    (m) => {
      const digits = m.replace(/\D/g, "");
      return digits.length >= 13 && digits.length <= 19 && luhnValid(digits) ? "[card redacted]" : m;
    },
  ],
];

/** Free text with secrets, proofs and card numbers replaced. */
export function scrubText(text: string): string {
  let out = text;
  for (const [re, by] of PATTERNS) out = out.replace(re, by as (m: string) => string);
  return out;
}

/**
 * Object keys pino removes wherever they appear one or two levels down (log calls pass `{ err }`, `{ req: {...} }`,
 * `{ card: {...} }`): secrets and card data by name, as a second line of defence behind redactHeaders and scrubText.
 */
const SECRET_KEYS = [
  "authorization",
  "cookie",
  "password",
  "secret",
  "token",
  "accessToken",
  "refreshToken",
  "assertion",
  "proof",
  "railData",
  "rail_data",
  "card",
  "cardNumber",
  "card_number",
  "number",
  "cvc",
  "cvv",
  "exp",
  '"payment-signature"',
  '"x-payment"',
  '"svc-agent-authorization"',
];

export const REDACT_PATHS = [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`), ...SECRET_KEYS.map((k) => `*.*.${k}`)];

/** The same keys at the top level only: all a line of flat fields (the access line) can hold (logger.ts `flatLogger`). */
export const TOP_LEVEL_REDACT_PATHS = [...SECRET_KEYS];

/** What pino writes instead of a secret field: a credential keeps its scheme (`Bearer [redacted]`), like redactHeaders. */
export function redactValue(value: unknown): string {
  if (typeof value === "string") {
    const scheme = /^\s*(Bearer|Payment|Basic)\s/i.exec(value)?.[1];
    if (scheme) return `${scheme} ${REDACTED}`;
  }
  return REDACTED;
}
