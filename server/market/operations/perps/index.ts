// GET /api/v1/perps: perpetual futures contexts on Hyperliquid (funding, open interest, mark, oracle), crypto and US
// stock perps. Its own source: perp-contexts.ts (recorded replies offline, the info API live). Archived daily.
import { recordedContexts } from "../../providers/hyperliquid-recordings";
import { defineOperation } from "../operation";
import { contract, perpsQuery } from "./contract";
import { getPerps } from "./get-perps";
import { equityPerpUniverse, inUniverse } from "./perp-contexts";

export const perps = defineOperation({
  contract,
  service: "crypto-markets",
  meter: { key: "perps", title: "Perpetuals: funding, open interest, mark", priceMicros: 20_000n },
  source: "hyperliquid",
  goal: "perpetual futures funding rate and open interest for BTC ETH and stock perps on Hyperliquid",
  example: () => ({ query: { symbols: "BTC,ETH,xyz:TSLA,xyz:NVDA" } }),
  coverage(kind) {
    if (kind === "live")
      return {
        summary:
          "Live from Hyperliquid's info API: every listed perp of the validator-run dex (BTC, ETH, ...) and the US stock perps of its HIP-3 dexes " +
          `(the ${equityPerpUniverse().size} names of the basis universe).`,
      };
    const recs = recordedContexts();
    const parts = recs.map((r) => {
      const names = r.contexts.filter(inUniverse).map((c) => c.symbol);
      return `${r.dex === null ? "validator-run dex" : `dex ${r.dex}`} recorded ${r.recorded_at}: ${names.join(", ")}`;
    });
    const held = new Set(recs.flatMap((r) => r.contexts.filter(inUniverse).map((c) => c.name)));
    const absent = [...equityPerpUniverse()].filter((t) => !held.has(t));
    return {
      summary:
        `Offline data: recorded contexts of one moment each (not live): ${parts.join("; ")}.` +
        (absent.length ? ` Not in the recordings: ${absent.join(", ")}.` : "") +
        " Funding history is a separate operation (/api/v1/perps/{symbol}/funding).",
      entities: recs.flatMap((r) =>
        r.contexts.filter(inUniverse).map((c) => ({ name: c.symbol, first_date: r.recorded_at.slice(0, 10), last_date: r.recorded_at.slice(0, 10) })),
      ),
    };
  },
  run: ({ query }, ctx) => getPerps(query, { providers: ctx.providers }),
  feed: {
    description: "Every perp's funding, open interest, mark and oracle, as GET /api/v1/perps returned them",
    entities: ["hyperliquid"],
    fetch: (_e, { providers }) => getPerps(perpsQuery.parse({ limit: "500" }), { providers }),
    summarize(p) {
      const r = p as { as_of: string; count: number; recorded: boolean; rows: { symbol: string; funding_apr_percent: number | null }[] };
      const btc = r.rows.find((x) => x.symbol === "BTC");
      return { as_of: r.as_of, perps: r.count, recorded: r.recorded, btc_funding_apr_percent: btc?.funding_apr_percent ?? null };
    },
  },
});
