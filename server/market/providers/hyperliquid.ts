// Hyperliquid's public info API (POST {HYPERLIQUID_BASE_URL}/info, no key), shared by the operations that read perps
// (basis, the perps contexts and funding history): the request with the shared timeouts and retries, and the parsing of
// its replies' shapes (numbers come as strings; `metaAndAssetCtxs` is [meta, ctxs] with meta.universe[i] aligned with
// ctxs[i]). Hyperliquid's own error replies: an unknown dex 500 with body null, a malformed request 422 text, an
// unknown coin 200 with body null (data/crypto/perps/errors.json).
import { AppError } from "../../errors";
import { fetchJson } from "./http";
import type { LiveConfig } from "./types";

/** One market's context as the venue reports it; numbers null when absent or not numeric. */
export type AssetContext = {
  /** The HIP-3 dex, or null for the validator-run dex (BTC, ETH, ...). */
  dex: string | null;
  /** Venue symbol: "xyz:TSLA" on a HIP-3 dex, "BTC" on the validator-run dex. */
  symbol: string;
  /** Bare name: "TSLA", "BTC". */
  name: string;
  isDelisted: boolean;
  maxLeverage: number | null;
  markPx: number | null;
  oraclePx: number | null;
  midPx: number | null;
  /** Current hourly funding rate (a fraction). */
  funding: number | null;
  /** In coins or shares of the underlying, not dollars. */
  openInterest: number | null;
  premium: number | null;
  prevDayPx: number | null;
  /** 24-hour notional volume (USDC). */
  dayNtlVlm: number | null;
  /** 24-hour volume in the underlying's units. */
  dayBaseVlm: number | null;
};

const num = (v: unknown) => (v === null || v === undefined || v === "" || !Number.isFinite(Number(v)) ? null : Number(v));

/** A `metaAndAssetCtxs` reply for one dex, every market in it, in the venue's order. */
export function readAssetContexts(dex: string | null, doc: unknown): AssetContext[] {
  if (!Array.isArray(doc) || doc.length < 2)
    throw new AppError("upstream_unavailable", {
      reason: "invalid_response",
      detail: `hyperliquid metaAndAssetCtxs for ${dex ?? "the validator-run dex"} has an unexpected shape`,
    });
  const universe = (doc[0] as { universe?: { name: string; isDelisted?: boolean; maxLeverage?: number }[] })?.universe ?? [];
  const ctxs = (Array.isArray(doc[1]) ? doc[1] : []) as Record<string, unknown>[];
  return universe.map((u, i) => {
    const c = ctxs[i] ?? {};
    return {
      dex,
      symbol: u.name,
      name: u.name.includes(":") ? u.name.slice(u.name.indexOf(":") + 1) : u.name,
      isDelisted: u.isDelisted === true,
      maxLeverage: num(u.maxLeverage),
      markPx: num(c.markPx),
      oraclePx: num(c.oraclePx),
      midPx: num(c.midPx),
      funding: num(c.funding),
      openInterest: num(c.openInterest),
      premium: num(c.premium),
      prevDayPx: num(c.prevDayPx),
      dayNtlVlm: num(c.dayNtlVlm),
      dayBaseVlm: num(c.dayBaseVlm),
    };
  });
}

/** One row of a `fundingHistory` reply. */
export type FundingRow = { coin: string; time: number; fundingRate: number; premium: number | null };

/** A `fundingHistory` reply (an array, oldest first); null is Hyperliquid's answer for a coin it does not list. */
export function readFundingHistory(doc: unknown): FundingRow[] | null {
  if (doc === null) return null;
  if (!Array.isArray(doc)) throw new AppError("upstream_unavailable", { reason: "invalid_response", detail: "hyperliquid fundingHistory is not an array" });
  return doc.flatMap((r: Record<string, unknown>) => {
    const rate = num(r.fundingRate);
    const time = num(r.time);
    return rate === null || time === null ? [] : [{ coin: String(r.coin), time, fundingRate: rate, premium: num(r.premium) }];
  });
}

/** POST one info request; the parsed body (null included), or the venue's failure as a clear error. Reads only: retrying is safe. */
export function hyperliquidInfo(cfg: LiveConfig): (body: Record<string, unknown>, what: string) => Promise<unknown> {
  const url = `${cfg.hyperliquidBaseUrl.replace(/\/+$/, "")}/info`;
  const http = { provider: "hyperliquid", method: "POST" as const, timeoutMs: cfg.timeoutMs, retries: cfg.retries, backoffMs: cfg.backoffMs };
  return async (body, what) => {
    const res = await fetchJson<unknown>(url, { ...http, body });
    if (res.ok) return res.body;
    throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `hyperliquid ${what} answered ${res.failure.status}` });
  };
}
