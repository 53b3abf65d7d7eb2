// SEC EDGAR live: data.sec.gov's submissions and companyfacts documents and www.sec.gov's ticker map, as EDGAR's
// "Accessing EDGAR Data" page asks them to be used:
// - an identifying User-Agent ("Company Name admin@company.com") on every request, from SEC_USER_AGENT. Without it EDGAR
//   answers a 403 block page ("Undeclared Automated Tool"), so no request is sent at all and the first call answers a 502
//   naming the setting; a 403 block page that still comes back is a 502 naming it too;
// - at most 10 requests a second: one token bucket per process (every provider set shares it), one token per attempt;
// - the ticker map (about 10,000 rows) is read once a day per process; a company's facts, reduced to the concepts the
//   operations read, are kept for an hour, a submissions document for ten minutes.
// Base URLs: SEC_DATA_BASE_URL (https://data.sec.gov) and SEC_WWW_BASE_URL (https://www.sec.gov), so tests replay them.
import { AppError } from "../../../errors";
import { fetchJson } from "../http";
import { liveSetting } from "../live-setting";
import type { LiveConfig } from "../types";
import {
  cik10,
  type EdgarCompany,
  type EdgarCompanyFacts,
  type EdgarSubmissions,
  type FilingsColumns,
  type SecEdgar,
  type SubmissionsFileRef,
} from "./edgar-types";
import { createTokenBucket, type TokenBucket } from "./token-bucket";

export const SEC_MAX_REQUESTS_PER_SECOND = 10;
/** The older filings documents one call may read (each holds up to a few thousand filings). */
export const SEC_MAX_OLDER_FILES = 4;
/** The concepts the key-facts operation reads; the live companyfacts document is reduced to these before it is kept. */
export const SEC_FACT_CONCEPTS: Record<string, string[]> = {
  "us-gaap": [
    "Revenues",
    "RevenueFromContractWithCustomerExcludingAssessedTax",
    "RevenueFromContractWithCustomerIncludingAssessedTax",
    "SalesRevenueNet",
    "NetIncomeLoss",
    "EarningsPerShareBasic",
    "EarningsPerShareDiluted",
  ],
  dei: ["EntityCommonStockSharesOutstanding"],
};

const DAY_MS = 86_400_000;
const TICKERS_TTL_MS = DAY_MS;
const FACTS_TTL_MS = 3_600_000;
const SUBMISSIONS_TTL_MS = 600_000;
const MAX_KEPT = 64;

let processBucket: TokenBucket | undefined;
/** The one bucket of this process: EDGAR's limit is per client, whatever the number of provider sets. */
const edgarBucket = () => (processBucket ??= createTokenBucket({ perSecond: SEC_MAX_REQUESTS_PER_SECOND }));

type Kept<T> = { at: number; value: Promise<T> };
const kept = new Map<string, Kept<unknown>>();

/** `load` once per key within `ttl`; a failed load is forgotten so the next call asks again. */
function keep<T>(key: string, ttl: number, load: () => Promise<T>): Promise<T> {
  const hit = kept.get(key) as Kept<T> | undefined;
  if (hit && Date.now() - hit.at < ttl) return hit.value;
  const value = load();
  kept.set(key, { at: Date.now(), value });
  value.catch(() => kept.delete(key));
  if (kept.size > MAX_KEPT) kept.delete(kept.keys().next().value!);
  return value;
}

/** Tests only: forget the kept ticker maps, facts and submissions. */
export function resetEdgarCache(): void {
  kept.clear();
}

const USER_AGENT_HELP =
  "SEC EDGAR requires an identifying User-Agent naming the caller and a contact e-mail, e.g. 'Example Corp admin@example.com' " +
  "(sec.gov, Accessing EDGAR Data)";

function notConfigured(why: string): AppError {
  return new AppError("upstream_unavailable", {
    reason: "provider_not_configured",
    detail: `SEC_USER_AGENT ${why}: ${USER_AGENT_HELP}; the live SEC operations do not call EDGAR without it`,
  });
}

/** EDGAR's page for undeclared automated tools (a 403 with HTML). */
export const isEdgarBlockPage = (body: unknown) => typeof body === "string" && /undeclared automated tool/i.test(body);

const trim = (u: string) => u.replace(/\/+$/, "");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const RETRYABLE = new Set(["provider_error", "provider_rate_limited", "provider_unreachable"]);

export function liveEdgar(cfg: LiveConfig, deps: { bucket?: TokenBucket } = {}): SecEdgar {
  const bucket = deps.bucket ?? edgarBucket();
  const dataBase = () => trim(liveSetting(cfg, "SEC_DATA_BASE_URL", "https://data.sec.gov"));
  const wwwBase = () => trim(liveSetting(cfg, "SEC_WWW_BASE_URL", "https://www.sec.gov"));

  function userAgent(): string {
    const ua = cfg.settings?.SEC_USER_AGENT?.trim();
    if (!ua) throw notConfigured("is not set");
    if (!/\S+@\S+\.\S+/.test(ua)) throw notConfigured("names no contact e-mail");
    return ua;
  }

  /** One EDGAR document: null on 404; a token per attempt; 5xx, 429 and network failures retried with backoff. */
  async function get<T>(url: string, what: string): Promise<T | null> {
    const ua = userAgent();
    const retries = cfg.retries ?? 2;
    let backoff = cfg.backoffMs ?? 250;
    for (let attempt = 0; ; attempt++) {
      await bucket.take();
      let res: Awaited<ReturnType<typeof fetchJson<T>>>;
      try {
        res = await fetchJson<T>(url, { provider: "SEC EDGAR", headers: { "user-agent": ua }, timeoutMs: cfg.timeoutMs ?? 15_000, retries: 0 });
      } catch (err) {
        const retryable = err instanceof AppError && (err.code === "upstream_timeout" || RETRYABLE.has(err.reason ?? ""));
        if (!retryable || attempt >= retries) throw err;
        await sleep(backoff);
        backoff *= 2;
        continue;
      }
      if (res.ok) return res.body;
      const { status, body } = res.failure;
      if (status === 404) return null;
      if (status === 403 && isEdgarBlockPage(body))
        throw new AppError("upstream_unavailable", {
          reason: "provider_refused",
          detail: `SEC EDGAR refused ${what} as an undeclared automated tool: check SEC_USER_AGENT (now "${ua}"); ${USER_AGENT_HELP}`,
        });
      throw new AppError("upstream_unavailable", { reason: "provider_error", detail: `SEC EDGAR answered ${status} for ${what}` });
    }
  }

  /** www.sec.gov/files/company_tickers.json: {"0": {cik_str, ticker, title}, ...}, as a ticker -> company map. */
  const tickerMap = () =>
    keep(`tickers:${wwwBase()}`, TICKERS_TTL_MS, async () => {
      const doc = await get<Record<string, { cik_str: number; ticker: string; title: string }>>(`${wwwBase()}/files/company_tickers.json`, "the ticker map");
      if (!doc || typeof doc !== "object") throw invalid("the ticker map");
      const map = new Map<string, EdgarCompany>();
      for (const row of Object.values(doc)) {
        if (!row?.ticker || !Number.isFinite(row.cik_str)) continue;
        const t = row.ticker.toUpperCase();
        // The file lists a company's tickers in its own order; the first row for a ticker wins.
        if (!map.has(t)) map.set(t, { cik: cik10(row.cik_str), ticker: row.ticker, name: row.title });
      }
      return map;
    });

  const submissions = (cik: string) =>
    keep(`sub:${dataBase()}:${cik}`, SUBMISSIONS_TTL_MS, async () => {
      const doc = await get<EdgarSubmissions>(`${dataBase()}/submissions/CIK${cik}.json`, `the submissions of CIK ${cik}`);
      if (doc && !doc.filings?.recent?.accessionNumber) throw invalid(`the submissions of CIK ${cik}`);
      return doc ? { doc, at: new Date().toISOString() } : null;
    });

  const notFound = (company: EdgarCompany, what: string) =>
    new AppError("not_found", { reason: "company_not_found", detail: `SEC EDGAR has no ${what} for CIK ${company.cik}`, extra: { cik: company.cik } });

  return {
    kind: "live",
    async company(id) {
      if (/^\d{1,10}$/.test(id)) {
        const cik = cik10(id);
        const hit = await submissions(cik);
        if (!hit) throw new AppError("not_found", { reason: "company_not_found", detail: `SEC EDGAR knows no filer with CIK ${cik}`, extra: { cik } });
        return { cik, ticker: hit.doc.tickers?.[0] ?? null, name: hit.doc.name };
      }
      const map = await tickerMap();
      const company = map.get(id) ?? map.get(id.replace(".", "-"));
      if (!company) throw new AppError("unknown_ticker", { detail: `${id} is not in SEC EDGAR's ticker map`, extra: { ticker: id } });
      return company;
    },
    async filings(company, window) {
      const hit = await submissions(company.cik);
      if (!hit) throw notFound(company, "submissions");
      const { doc } = hit;
      const files = doc.filings.files ?? [];
      // Older documents only when the window reaches before them, newest first, at most SEC_MAX_OLDER_FILES a call.
      const wanted = window.from ? files.filter((f) => f.filingTo >= window.from!).sort((a, b) => (a.filingTo < b.filingTo ? 1 : -1)) : [];
      const read = wanted.slice(0, SEC_MAX_OLDER_FILES);
      const blocks: FilingsColumns[] = [doc.filings.recent];
      for (const f of read) {
        const older = await get<FilingsColumns>(`${dataBase()}/submissions/${encodeURIComponent(f.name)}`, `the filings document ${f.name}`);
        if (!older?.accessionNumber) throw invalid(`the filings document ${f.name}`);
        blocks.push(older);
      }
      const unread: SubmissionsFileRef[] = files.filter((f) => !read.includes(f));
      return { doc, blocks, unread, retrievedAt: hit.at };
    },
    async companyFacts(company) {
      const hit = await keep(`facts:${dataBase()}:${company.cik}`, FACTS_TTL_MS, async () => {
        const doc = await get<EdgarCompanyFacts>(`${dataBase()}/api/xbrl/companyfacts/CIK${company.cik}.json`, `the company facts of CIK ${company.cik}`);
        if (doc && typeof doc.facts !== "object") throw invalid(`the company facts of CIK ${company.cik}`);
        return doc ? { facts: reduceFacts(doc), retrievedAt: new Date().toISOString() } : null;
      });
      if (!hit) throw notFound(company, "XBRL company facts");
      return hit;
    },
    held: () => null,
  };
}

const invalid = (what: string) =>
  new AppError("upstream_unavailable", { reason: "invalid_response", detail: `SEC EDGAR answered ${what} in an unexpected shape` });

/** Only the concepts the operations read, so a kept document is kilobytes, not megabytes. */
export function reduceFacts(doc: EdgarCompanyFacts): EdgarCompanyFacts {
  const facts: EdgarCompanyFacts["facts"] = {};
  for (const [taxonomy, names] of Object.entries(SEC_FACT_CONCEPTS)) {
    for (const name of names) {
      const concept = doc.facts?.[taxonomy]?.[name];
      if (concept) (facts[taxonomy] ??= {})[name] = concept;
    }
  }
  return { cik: doc.cik, entityName: doc.entityName, facts };
}
