// GET /api/v1/sentiment/vix: the CBOE Volatility Index's daily open, high, low and close. Its own source
// (cboe-vix-source.ts: the committed CBOE file offline, CBOE's VIX_History.csv live); archived daily.
import { defineOperation } from "../operation";
import { embeddedVixRows, cboeVixSource } from "./cboe-vix-source";
import { CBOE_SOURCE, contract } from "./contract";
import { getVix, vixQuirks } from "./get-vix";

export const vix = defineOperation({
  contract,
  service: "market-sentiment",
  meter: { key: "vix", title: "VIX daily (CBOE)", priceMicros: 10_000n },
  source: CBOE_SOURCE,
  goal: "VIX volatility index daily history, the market fear gauge and sentiment",
  example: () => ({ query: { from: "2020-03-02", to: "2020-03-31", sort: "asc" } }),
  coverage(kind) {
    if (kind === "live") return { summary: "Live from CBOE's VIX_History.csv: every trading day since 1990-01-02 to the last close CBOE has published." };
    const rows = embeddedVixRows();
    const q = vixQuirks(rows);
    return {
      summary:
        `Offline data: CBOE VIX daily open, high, low and close ${rows[0]!.date}..${rows.at(-1)!.date} (${rows.length} trading days); ` +
        `close-only days (open, high and low null): ${q.closeOnly.join(", ") || "none"}. A window outside these dates answers 403 not_included.`,
      entities: [{ name: "VIX", first_date: rows[0]!.date, last_date: rows.at(-1)!.date }],
    };
  },
  run: ({ query }, ctx) => getVix(query, ctx.providers.family(cboeVixSource)),
  feed: {
    description: "The VIX's last 5 trading days, as GET /api/v1/sentiment/vix returned them",
    entities: ["VIX"],
    fetch: (_e, { providers }) => getVix({ sort: "desc", limit: 5 }, providers.family(cboeVixSource)),
    summarize(p) {
      const r = p as { days: { date: string; close: number }[] };
      return { last_date: r.days[0]?.date ?? null, last_close: r.days[0]?.close ?? null, count: r.days.length };
    },
  },
});
