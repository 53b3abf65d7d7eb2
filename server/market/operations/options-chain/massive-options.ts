// This operation's own source, in both kinds:
//   embedded  none: no options chain with a usable licence could be shipped (data/README.md), so every call is the
//             live-only refusal (the gateway gives it before any payment; this is the upstream's own guard)
//   live      Massive's GET /v3/snapshot/options/{underlyingAsset} (MASSIVE_BASE_URL, MASSIVE_API_KEY); its answers
//             mapped as the shared bars adapter maps them: 403 not entitled -> 403 not_included, 404 -> unknown_ticker
import type { z } from "zod";
import { AppError } from "../../../errors";
import { fetchJson } from "../../providers/http";
import type { ProviderFamily } from "../../providers/types";
import { liveOnlyRefusal } from "../operation";
import { contract, type optionsChainQuery } from "./contract";

type Query = z.output<typeof optionsChainQuery>;

/** One result of Massive's options snapshot, as documented (numbers as JSON numbers, times in nanoseconds). */
export type MassiveOptionSnapshot = {
  break_even_price?: number;
  day?: Record<string, number | undefined>;
  details?: { contract_type?: string; exercise_style?: string; expiration_date?: string; shares_per_contract?: number; strike_price?: number; ticker?: string };
  fmv?: number;
  greeks?: { delta?: number; gamma?: number; theta?: number; vega?: number };
  implied_volatility?: number;
  last_quote?: Record<string, number | string | undefined>;
  last_trade?: Record<string, number | string | number[] | undefined>;
  open_interest?: number;
  underlying_asset?: { price?: number; last_updated?: number; ticker?: string; timeframe?: string };
};
export type MassiveOptionsPage = { status?: string; message?: string; results?: MassiveOptionSnapshot[]; next_url?: string };

export interface OptionsChainSource {
  chain(underlying: string, q: Query): Promise<MassiveOptionsPage>;
}

/** Offline: the live-only refusal, the upstream's own guard behind the gateway's (which refuses before any payment). */
export const liveOnlyOptions: OptionsChainSource = {
  chain: async () => {
    throw liveOnlyRefusal({ key: contract.key, contract });
  },
};

const trim = (u: string) => u.replace(/\/+$/, "");

export const optionsChainSource: ProviderFamily<OptionsChainSource> = {
  name: "massive-options",
  embedded: () => liveOnlyOptions,
  live: (cfg) => ({
    async chain(underlying, q) {
      const qs = new URLSearchParams({ sort: q.sort, order: q.order, limit: String(q.limit) });
      if (q.contract_type) qs.set("contract_type", q.contract_type);
      if (q.expiration_date) qs.set("expiration_date", q.expiration_date);
      if (q.expiration_from) qs.set("expiration_date.gte", q.expiration_from);
      if (q.expiration_to) qs.set("expiration_date.lte", q.expiration_to);
      if (q.strike_min !== undefined) qs.set("strike_price.gte", String(q.strike_min));
      if (q.strike_max !== undefined) qs.set("strike_price.lte", String(q.strike_max));
      qs.set("apiKey", cfg.massiveApiKey);
      const url = `${trim(cfg.massiveBaseUrl)}/v3/snapshot/options/${encodeURIComponent(underlying)}?${qs}`;
      const res = await fetchJson<MassiveOptionsPage>(url, {
        provider: "massive",
        redact: [cfg.massiveApiKey],
        timeoutMs: cfg.timeoutMs,
        retries: cfg.retries,
        backoffMs: cfg.backoffMs,
      });
      if (res.ok) return res.body;
      const { status, body } = res.failure;
      const msg = body && typeof body === "object" && "message" in body ? String((body as { message: unknown }).message) : undefined;
      if (status === 403)
        throw new AppError("not_included", {
          reason: "plan_not_included",
          detail: msg ?? "the data vendor's plan does not include options",
          extra: { ticker: underlying },
        });
      if (status === 404) throw new AppError("unknown_ticker", { detail: `${underlying} is not a known underlying`, extra: { ticker: underlying } });
      if (status === 400) throw new AppError("invalid_request", { reason: "rejected_by_provider", detail: msg ?? "the data vendor rejected the request" });
      throw new AppError("upstream_unavailable", {
        reason: "provider_error",
        detail: `massive answered ${status}${status === 401 ? " (check MASSIVE_API_KEY)" : ""}`,
      });
    },
  }),
};
