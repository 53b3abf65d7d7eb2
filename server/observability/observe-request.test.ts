import { describe, expect, it } from "vitest";
import { responseFacts, routeTemplate } from "./observe-request";

describe("routeTemplate", () => {
  it("names a request by its route file, so metrics get one label per route", () => {
    expect(routeTemplate("/payments/pay_1/pay", { id: "pay_1" })).toBe("/payments/[id]/pay");
    expect(routeTemplate("/api/v1/aggregates/AAPL", { path: ["aggregates", "AAPL"] })).toBe("/api/v1/[...path]");
    expect(routeTemplate("/api/v1/archive/x%20y", { path: ["archive", "x y"] })).toBe("/api/v1/[...path]");
    expect(routeTemplate("/services/stock-quotes/openapi.json", { slug: "stock-quotes" })).toBe("/services/[slug]/openapi.json");
    expect(routeTemplate("/no/such/thing", { path: ["no", "such", "thing"] })).toBe("/[...path]");
    expect(routeTemplate("/manifest.json", {})).toBe("/manifest.json");
  });
});

describe("responseFacts", () => {
  it("reads what the gateway did from svc-billing, svc-payment-id and Server-Timing", () => {
    const h = new Headers({
      "svc-billing": "payment=pay_1; rail=mpp; operation=aggregates; meter=aggregates; units=1; amount_usd=0.020000; status=charged; tx=0xabc",
      "server-timing": "accept;dur=1.5, upstream;dur=3.25, schedule;dur=0.4, settle;dur=4.0, chain;dur=5.0, own;dur=2.0, total;dur=10.0",
    });
    expect(responseFacts(h)).toEqual({ paymentId: "pay_1", rail: "mpp", operation: "aggregates", billing: "charged", upstreamMs: 3.25, settleMs: 4 });
    expect(responseFacts(new Headers())).toEqual({ paymentId: null, rail: null, operation: null, billing: null, upstreamMs: null, settleMs: null });
  });

  it("counts a re-delivery of a payment charged before as `replayed`, not as a second charge", () => {
    const h = new Headers({ "svc-billing": "payment=pay_1; rail=x402; operation=aggregates; amount_usd=0.020000; status=charged; replay=true; tx=0xabc" });
    expect(responseFacts(h).billing).toBe("replayed");
  });
});
