import { describe, expect, it } from "vitest";
import { redactHeaders, scrubText } from "./redact";

const JWT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhZ3RfMTIzIn0.c2lnbmF0dXJlLXNpZ25hdHVyZQ";
const SIG = `0x${"ab".repeat(65)}`;

describe("redactHeaders", () => {
  it("replaces credentials, payment proofs and cookies, keeps an Authorization's scheme and everything else", () => {
    const out = redactHeaders(
      new Headers({
        authorization: `Bearer ${JWT}`,
        "svc-agent-authorization": "Bearer spt_1234567890abcdef",
        "payment-signature": "eyJ4NDAyVmVyc2lvbiI6Mn0=",
        "x-payment": "eyJ4NDAyVmVyc2lvbiI6MX0=",
        cookie: "next-auth.session-token=abc.def.ghi",
        "svc-payment-id": "pay_0123456789abcdef",
        "user-agent": "agent/1.0",
      }),
    );
    expect(out).toEqual({
      authorization: "Bearer [redacted]",
      "svc-agent-authorization": "Bearer [redacted]",
      "payment-signature": "[redacted]",
      "x-payment": "[redacted]",
      cookie: "[redacted]",
      "svc-payment-id": "pay_0123456789abcdef",
      "user-agent": "agent/1.0",
    });
    expect(redactHeaders({ Authorization: "Payment eyJjaGFsbGVuZ2UiOnt9fQ" })).toEqual({ authorization: "Payment [redacted]" });
  });
});

describe("scrubText", () => {
  it("removes bearer and Payment credentials, JWTs, signing secrets, API keys, wallet signatures and card numbers", () => {
    const text = [
      `Authorization: Bearer ${JWT}`,
      "Authorization: Payment eyJjaGFsbGVuZ2UiOnsiaWQiOiJ4In19",
      `assertion ${JWT}`,
      "secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "key sk_live_51Habcdefghijklmnop",
      `signature ${SIG}`,
      "card 4242 4242 4242 4242 and 4000-0000-0000-0002 and 4111111111111111",
    ].join("\n");
    const out = scrubText(text);
    for (const secret of [
      JWT,
      "eyJjaGFsbGVuZ2UiOnsiaWQiOiJ4In19",
      "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "51Habcdefghijklmnop",
      SIG,
      "4242",
      "4000-0000",
      "4111111111111111",
    ])
      expect(out).not.toContain(secret);
    expect(out).toContain("Authorization: Bearer [redacted]");
    expect(out).toContain("[card redacted]");
  });

  it("leaves ordinary text alone: ids, amounts, timestamps that are not card numbers", () => {
    const text = "pay_0123456789abcdef charged 20000 micros at 1732420000000 for 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
    expect(scrubText(text)).toBe(text);
  });
});
