// GET /api/v1/options/{underlying}/chain: a live options chain snapshot from Massive. Live-only: no options data can be
// shipped offline (data/README.md), so with the embedded providers the gateway refuses every call before asking for
// payment (403 not_included, reason live_only), and the coverage says so. Not archived: nothing to capture offline.
import { defineOperation } from "../operation";
import { contract } from "./contract";
import { getOptionsChain } from "./get-options-chain";

export const optionsChain = defineOperation({
  contract,
  service: "stock-quotes",
  meter: { key: "options_chain", title: "Options chain snapshot", priceMicros: 30_000n },
  source: "massive",
  goal: "options chain with greeks and implied volatility for AAPL calls and puts",
  liveOnly: true,
  example: () => ({ path: { underlying: "AAPL" }, query: { contract_type: "call", limit: "10" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live from Massive (formerly Polygon.io): US stock and ETF options as this storefront's data plan includes them; a plan without options answers 403 not_included (plan_not_included).",
      };
    return {
      summary:
        "Live-only: no options data is held offline. With MARKET_PROVIDER=embedded every call answers 403 not_included (reason live_only) before any payment is asked.",
    };
  },
  run: ({ path, query }, ctx) => getOptionsChain(path.underlying, query, { providers: ctx.providers, now: ctx.now }),
});
