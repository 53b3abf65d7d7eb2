// A paid answer passes the upstream's status, body and headers on, with ours in place of any of the same name (in any
// case): a charged answer's billing, receipt and payment id are ours, and it is never stored by a shared cache. The
// upstream's repeated headers (links, cookies) pass on as they came.
import { describe, expect, it } from "vitest";
import type { PaidOutcome } from "./paid-outcome";
import { renderOutcome } from "./render-outcome";

function delivered(headers: Headers, text = '{"ok":true}') {
  return { type: "response" as const, status: 200, headers, text, body: new TextEncoder().encode(text).buffer as ArrayBuffer, usageHeader: null, ms: 1 };
}

function charged(headers: Headers, receipt: Record<string, string>): PaidOutcome {
  return {
    type: "charged",
    call: { operationKey: "aggregates", meterKey: "aggregates", amountMicros: 20_000n },
    rail: { name: "credits" },
    hold: { rail: "credits", payment: { id: "pay_1", amountMicros: 20_000n }, billing: { source: "credit" } },
    delivered: delivered(headers),
    transaction: null,
    units: 1,
    receipt,
  } as unknown as PaidOutcome;
}

describe("renderOutcome passes the upstream's answer on", () => {
  const upstream = () => {
    const h = new Headers({
      "content-type": "application/json",
      "cache-control": "public, max-age=600",
      "svc-billing": "status=free",
      "payment-receipt": "forged",
    });
    h.append("link", "</a>; rel=next");
    h.append("link", "</b>; rel=prev");
    h.append("set-cookie", "a=1");
    h.append("set-cookie", "b=2");
    return h;
  };

  it("ours replace the upstream's of the same name, whatever their case; the rest pass on", async () => {
    const res = renderOutcome(charged(upstream(), { "Payment-Receipt": "ours", "svc-receipt": "jws" }), { serverTiming: "total;dur=1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("payment-receipt")).toBe("ours");
    expect(res.headers.get("svc-receipt")).toBe("jws");
    expect(res.headers.get("svc-billing")).toBe(
      "payment=pay_1; rail=credits; operation=aggregates; meter=aggregates; units=1; amount_usd=0.020000; status=charged; source=credit",
    );
    expect(res.headers.get("svc-payment-id")).toBe("pay_1");
    expect(res.headers.get("server-timing")).toBe("total;dur=1");
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("link")).toBe("</a>; rel=next, </b>; rel=prev");
    expect(res.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await res.text()).toBe('{"ok":true}');
  });

  it("a free answer keeps the upstream's caching and gets its billing", () => {
    const res = renderOutcome({ type: "free", delivered: delivered(upstream()) } as unknown as PaidOutcome);
    expect(res.headers.get("cache-control")).toBe("public, max-age=600");
    expect(res.headers.get("svc-billing")).toBe("status=free; amount_usd=0.000000");
    expect(res.headers.get("payment-receipt")).toBe("forged");
  });
});
