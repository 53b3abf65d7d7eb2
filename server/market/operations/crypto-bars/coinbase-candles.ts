// This operation's own source, in both kinds:
//   embedded  data/crypto/daily/<SYMBOL>.csv through the shelf's daily series (server/market/providers), with
//             data/crypto/catalog.json's provenance and partial days
//   live      Coinbase's public candles endpoint (GET /api/v3/brokerage/market/products/{id}/candles,
//             granularity ONE_DAY, at most 350 candles a call), base URL COINBASE_BASE_URL; no key
import { AppError } from "../../../errors";
import { addDays, dateToUtcMs, utcDate, utcMsToDate } from "../../lib/dates";
import { cached, dataFile } from "../../providers/data-file";
import { fetchJson } from "../../providers/http";
import { liveSetting } from "../../providers/live-setting";
import { shelfSeries, shelfSeriesDefs } from "../../providers/shelf-daily-series";
import type { ProviderFamily } from "../../providers/types";

export type CryptoDay = { date: string; open: number; high: number; low: number; close: number; volume: number; partial: boolean };

export type CryptoHolding = {
  coverage: { first: string; last: string } | null;
  provenance: string;
  units: { price: string; volume: string };
  partialDays: { date: string; candles: number | null; note: string }[];
};

export interface CryptoBarsSource {
  /** What is held for `symbol`; null when this source has no such product (embedded). */
  describe(symbol: string): CryptoHolding | null;
  /** The last UTC day a bar can exist for: the last held (embedded) or today (live). */
  lastDay(symbol: string): string;
  /** Bars with from <= date <= to, oldest first. Throws unknown_ticker for a product the venue does not list. */
  bars(symbol: string, from: string, to: string): Promise<CryptoDay[]>;
}

type Catalog = {
  symbol: string;
  venue: string;
  units: { price: string; volume: string };
  granularity_in_source: string;
  checked_days: number;
  source: { repo: string; commit: string; path: string };
  partial_days: { date: string; candles: number }[];
}[];

/** Products held offline (the crypto series of the shelf). */
export const heldCryptoProducts = () =>
  shelfSeriesDefs()
    .filter((d) => d.kind === "crypto")
    .map((d) => d.id);

export const embeddedCryptoBars: CryptoBarsSource = {
  describe(symbol) {
    const s = shelfSeries(symbol);
    const c = cached("crypto-catalog", () => dataFile<Catalog>("crypto/catalog.json")).find((x) => x.symbol === symbol);
    if (!s || s.def.kind !== "crypto" || !c) return null;
    const made = c.granularity_in_source.startsWith("1 day")
      ? "Coinbase's own daily candles"
      : `Coinbase ${c.granularity_in_source}, volumes added exactly${c.checked_days ? `; checked equal to Coinbase's daily candles on all ${c.checked_days} days where both exist` : ""}`;
    return {
      coverage: s.coverage,
      provenance: `${made}. Recorded by ${c.source.repo} @ ${c.source.commit.slice(0, 8)} : ${c.source.path} (attribution: Coinbase, via ta4j, MIT).`,
      units: { price: c.units.price, volume: c.units.volume },
      partialDays: s.partialDays.map((p) => ({
        date: p.date,
        candles: p.candles,
        note: `${p.candles} of the day's 6 four-hour candles exist in the source (Coinbase returns none for a window without trades): the bar covers the trades Coinbase reports`,
      })),
    };
  },
  lastDay: (symbol) => shelfSeries(symbol)?.coverage.last ?? "",
  async bars(symbol, from, to) {
    const s = shelfSeries(symbol)!;
    const partial = new Set(s.partialDays.map((p) => p.date));
    return s.points
      .filter((p) => p.date >= from && p.date <= to)
      .map((p) => ({ date: p.date, open: p.open!, high: p.high!, low: p.low!, close: p.close, volume: p.volume ?? 0, partial: partial.has(p.date) }));
  },
};

type CoinbaseCandles = { candles?: { start: string; low: string; high: string; open: string; close: string; volume: string }[] };
/** Coinbase answers at most 350 candles a call. */
const CANDLES_PER_CALL = 350;

export const cryptoBarsSource: ProviderFamily<CryptoBarsSource> = {
  name: "coinbase-candles",
  embedded: () => embeddedCryptoBars,
  live: (cfg) => ({
    describe(symbol) {
      const [base, quote] = symbol.split("-");
      return {
        coverage: null,
        provenance: "Coinbase's public market candles (granularity ONE_DAY), read live.",
        units: { price: `${quote} per coin`, volume: `${base} traded (base currency)` },
        partialDays: [],
      };
    },
    lastDay: () => utcDate(new Date()),
    async bars(symbol, from, to) {
      const base = liveSetting(cfg, "COINBASE_BASE_URL", "https://api.coinbase.com").replace(/\/+$/, "");
      const http = { provider: "coinbase", timeoutMs: cfg.timeoutMs, retries: cfg.retries, backoffMs: cfg.backoffMs };
      const out = new Map<string, CryptoDay>();
      const today = utcDate(new Date());
      for (let start = from; start <= to; start = addDays(start, CANDLES_PER_CALL)) {
        const end = addDays(start, CANDLES_PER_CALL - 1) < to ? addDays(start, CANDLES_PER_CALL - 1) : to;
        const qs = new URLSearchParams({ start: String(dateToUtcMs(start) / 1000), end: String(dateToUtcMs(end) / 1000), granularity: "ONE_DAY" });
        const res = await fetchJson<CoinbaseCandles>(`${base}/api/v3/brokerage/market/products/${encodeURIComponent(symbol)}/candles?${qs}`, http);
        if (!res.ok) {
          const { status, body } = res.failure;
          const message = body && typeof body === "object" && "message" in body ? String((body as { message: unknown }).message) : undefined;
          if (status === 404)
            throw new AppError("unknown_ticker", { detail: `${symbol} is not a Coinbase product (${message ?? "not found"})`, extra: { symbol } });
          if (status === 400) throw new AppError("invalid_request", { reason: "rejected_by_provider", detail: message ?? "coinbase rejected the request" });
          throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `coinbase answered ${status}` });
        }
        if (!Array.isArray(res.body?.candles))
          throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "coinbase candles reply has no candles array" });
        for (const c of res.body.candles) {
          const date = utcMsToDate(Number(c.start) * 1000);
          const bar = { open: Number(c.open), high: Number(c.high), low: Number(c.low), close: Number(c.close), volume: Number(c.volume) };
          if (![bar.open, bar.high, bar.low, bar.close, bar.volume].every(Number.isFinite)) continue;
          // Today's candle is the day so far: flagged, never passed off as a whole day.
          if (date >= from && date <= to) out.set(date, { date, ...bar, partial: date >= today });
        }
      }
      return [...out.values()].sort((a, b) => (a.date < b.date ? -1 : 1));
    },
  }),
};
