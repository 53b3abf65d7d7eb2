// SEC EDGAR live (live-edgar.ts) against EDGAR's own documents replayed by a local server: the committed submissions and
// companyfacts files (data/filings/, EDGAR's shape), the recorded ticker map and block page (data/recorded/sec-edgar/).
// The replay answers like EDGAR: a request without a declared User-Agent gets the block page; an unknown CIK a 404.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { findSecFilings } from "../../operations/sec-filings/find-sec-filings";
import { getSecKeyFacts } from "../../operations/sec-key-facts/get-sec-key-facts";
import { startRouteReplay, type ReplayedRequest, type Reply, type RouteReplay } from "../../test/route-replay";
import type { LiveConfig } from "../types";
import { embeddedEdgar } from "./embedded-edgar";
import type { EdgarSubmissions, FilingsColumns } from "./edgar-types";
import { liveEdgar, resetEdgarCache } from "./live-edgar";
import type { TokenBucket } from "./token-bucket";
import { failureOf as failure } from "../../test/refusals";

const data = (rel: string) => path.join(process.cwd(), "data", rel);
const read = (rel: string) => fs.readFileSync(data(rel), "utf8");
const BLOCK_PAGE = read("recorded/sec-edgar/error-undeclared-automated-tool.txt");
const UA = "Storefront Tests tests@example.com";

/** Walmart's shipped filings split as EDGAR splits a long history: `recent` from 2025 on, the rest in an older document. */
function splitWalmart(): { recent: EdgarSubmissions; older: FilingsColumns; olderName: string } {
  const doc = JSON.parse(read("filings/submissions/CIK0000104169.json")) as EdgarSubmissions;
  const cols = doc.filings.recent as unknown as Record<string, unknown[]>;
  const keep = (pred: (i: number) => boolean) =>
    Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, v.filter((_, i) => pred(i))])) as unknown as FilingsColumns;
  const isRecent = (i: number) => doc.filings.recent.filingDate[i]! >= "2025-01-01";
  const older = keep((i) => !isRecent(i));
  const olderName = "CIK0000104169-submissions-001.json";
  const dates = [...older.filingDate].sort();
  const files = [{ name: olderName, filingCount: older.accessionNumber.length, filingFrom: dates[0]!, filingTo: dates.at(-1)! }];
  return { recent: { ...doc, filings: { recent: keep(isRecent), files } }, older, olderName };
}

/** EDGAR as replayed: `split` serves Walmart's history in two documents. */
function edgarRoute(split: boolean) {
  const walmart = split ? splitWalmart() : null;
  return (req: ReplayedRequest): Reply | undefined => {
    const ua = String(req.headers["user-agent"] ?? "");
    if (!/@/.test(ua) || ua.includes("blocked")) return { status: 403, body: BLOCK_PAGE, type: "text/html" };
    const p = req.url.pathname;
    if (p === "/files/company_tickers.json") return { body: read("recorded/sec-edgar/company_tickers.json") };
    if (walmart && p === "/submissions/CIK0000104169.json") return { body: JSON.stringify(walmart.recent) };
    if (walmart && p === `/submissions/${walmart.olderName}`) return { body: JSON.stringify(walmart.older) };
    const sub = /^\/submissions\/(CIK\d{10}\.json)$/.exec(p);
    if (sub && fs.existsSync(data(`filings/submissions/${sub[1]}`))) return { body: read(`filings/submissions/${sub[1]}`) };
    const facts = /^\/api\/xbrl\/companyfacts\/(CIK\d{10}\.json)$/.exec(p);
    if (facts && fs.existsSync(data(`filings/companyfacts/${facts[1]}`))) return { body: read(`filings/companyfacts/${facts[1]}`) };
    return undefined; // 404, as EDGAR answers a CIK it has no document for
  };
}

let replay: RouteReplay;
let splitReplay: RouteReplay;
beforeAll(async () => {
  replay = await startRouteReplay(edgarRoute(false));
  splitReplay = await startRouteReplay(edgarRoute(true));
});
afterAll(async () => {
  await replay.close();
  await splitReplay.close();
});
beforeEach(() => {
  resetEdgarCache();
  replay.seen.length = 0;
  splitReplay.seen.length = 0;
});

const cfg = (settings: Record<string, string | undefined>, base = replay.base): LiveConfig => ({
  massiveBaseUrl: "http://unused",
  massiveApiKey: "",
  treasuryBaseUrl: "http://unused",
  hyperliquidBaseUrl: "http://unused",
  timeoutMs: 2_000,
  retries: 1,
  backoffMs: 1,
  settings: { SEC_DATA_BASE_URL: base, SEC_WWW_BASE_URL: base, ...settings },
});
const counting = (): TokenBucket & { taken: number } => {
  const b = { taken: 0, take: async () => void b.taken++ };
  return b;
};
const filingsQuery = { amendments: true, sort: "desc" as const, limit: 200, offset: 0 };

describe("SEC EDGAR live: the User-Agent EDGAR requires", () => {
  it("refuses to call EDGAR without SEC_USER_AGENT, naming the setting, and sends nothing", async () => {
    const e = await failure(findSecFilings("AAPL", filingsQuery, liveEdgar(cfg({}))));
    expect([e.status, e.code, e.reason]).toEqual([502, "upstream_unavailable", "provider_not_configured"]);
    expect(e.detail).toMatch(/^SEC_USER_AGENT is not set: SEC EDGAR requires an identifying User-Agent/);
    expect(replay.seen).toHaveLength(0);
  });

  it("refuses a User-Agent with no contact e-mail before any request", async () => {
    const e = await failure(findSecFilings("AAPL", filingsQuery, liveEdgar(cfg({ SEC_USER_AGENT: "curl/8" }))));
    expect([e.status, e.reason]).toEqual([502, "provider_not_configured"]);
    expect(e.detail).toContain("SEC_USER_AGENT names no contact e-mail");
    expect(replay.seen).toHaveLength(0);
  });

  it("maps EDGAR's block page for undeclared tools to a 502 that names the setting", async () => {
    const e = await failure(findSecFilings("AAPL", filingsQuery, liveEdgar(cfg({ SEC_USER_AGENT: "blocked tool ops@example.com" }))));
    expect([e.status, e.code, e.reason]).toEqual([502, "upstream_unavailable", "provider_refused"]);
    expect(e.detail).toContain("undeclared automated tool: check SEC_USER_AGENT");
  });

  it("sends the configured User-Agent on every request and one bucket token per request", async () => {
    const bucket = counting();
    const edgar = liveEdgar(cfg({ SEC_USER_AGENT: UA }), { bucket });
    await findSecFilings("AAPL", filingsQuery, edgar);
    await getSecKeyFacts("AAPL", { period: "annual", limit: 5 }, edgar);
    expect(replay.seen.map((s) => s.url.pathname)).toEqual([
      "/files/company_tickers.json",
      "/submissions/CIK0000320193.json",
      "/api/xbrl/companyfacts/CIK0000320193.json",
    ]);
    expect(replay.seen.every((s) => s.headers["user-agent"] === UA)).toBe(true);
    expect(bucket.taken).toBe(replay.seen.length);
  });

  it("keeps the ticker map: two companies by ticker read it once", async () => {
    const edgar = liveEdgar(cfg({ SEC_USER_AGENT: UA }), { bucket: counting() });
    await edgar.company("AAPL");
    await edgar.company("NKE");
    expect(replay.seen.filter((s) => s.url.pathname === "/files/company_tickers.json")).toHaveLength(1);
  });

  it("retries a 5xx with a new token, then answers", async () => {
    const bucket = counting();
    replay.script({ status: 503, body: "Service Unavailable", type: "text/plain" });
    const company = await liveEdgar(cfg({ SEC_USER_AGENT: UA }), { bucket }).company("WMT");
    expect(company).toEqual({ cik: "0000104169", ticker: "WMT", name: "Walmart Inc." });
    expect([replay.seen.length, bucket.taken]).toEqual([2, 2]);
  });
});

describe("SEC EDGAR live: the answers", () => {
  it("the filings index equals the offline answer over the same EDGAR document, retrieved now", async () => {
    const live = await findSecFilings("AAPL", { ...filingsQuery, form: "10-K,10-Q,8-K" }, liveEdgar(cfg({ SEC_USER_AGENT: UA }), { bucket: counting() }));
    const offline = await findSecFilings("AAPL", { ...filingsQuery, form: "10-K,10-Q,8-K" }, embeddedEdgar);
    expect(live.filings).toEqual(offline.filings);
    expect(live.total).toBe(offline.total);
    expect(Date.parse(live.as_of!)).not.toBeNaN();
    expect(live.coverage).toMatchObject({ complete: true, note: null });
  });

  it("resolves a CIK without the ticker map, and answers 404 for a ticker or a CIK EDGAR does not know", async () => {
    const edgar = liveEdgar(cfg({ SEC_USER_AGENT: UA }), { bucket: counting() });
    expect(await edgar.company("320193")).toEqual({ cik: "0000320193", ticker: "AAPL", name: "Apple Inc." });
    expect(replay.seen.map((s) => s.url.pathname)).toEqual(["/submissions/CIK0000320193.json"]);
    const t = await failure(edgar.company("ZZZZ"));
    expect([t.status, t.code]).toEqual([404, "unknown_ticker"]);
    const c = await failure(edgar.company("1"));
    expect([c.status, c.code, c.reason]).toEqual([404, "not_found", "company_not_found"]);
  });

  it("key facts equal the offline answer; a filer without company facts is a 404 live (403 not_included offline)", async () => {
    const edgar = liveEdgar(cfg({ SEC_USER_AGENT: UA }), { bucket: counting() });
    const q = { period: "quarterly" as const, limit: 40 };
    const live = await getSecKeyFacts("HD", q, edgar);
    expect(live.facts).toEqual((await getSecKeyFacts("HD", q, embeddedEdgar)).facts);
    const e = await failure(getSecKeyFacts("MSFT", q, edgar));
    expect([e.status, e.code]).toEqual([404, "not_found"]);
    const off = await failure(getSecKeyFacts("MSFT", q, embeddedEdgar));
    expect([off.status, off.code, off.reason]).toEqual([403, "not_included", "facts_not_included"]);
  });

  it("reads EDGAR's older filings documents only when `from` reaches them, and says what it did not read", async () => {
    const edgar = liveEdgar(cfg({ SEC_USER_AGENT: UA }, splitReplay.base), { bucket: counting() });
    const recentOnly = await findSecFilings("WMT", filingsQuery, edgar);
    expect(recentOnly.coverage.complete).toBe(false);
    expect(recentOnly.coverage.note).toMatch(/^EDGAR holds \d+ older filings \(through 2024-12-\d\d\) beyond its recent list: pass from to read them\.$/);
    expect(splitReplay.seen.some((s) => s.url.pathname.endsWith("-submissions-001.json"))).toBe(false);

    const q = { ...filingsQuery, from: "2024-03-01", to: "2025-02-28", limit: 200 };
    const both = await findSecFilings("WMT", q, edgar);
    const offline = await findSecFilings("WMT", q, embeddedEdgar);
    expect(both.filings).toEqual(offline.filings);
    expect(both.total).toBe(offline.total);
    expect(both.coverage.complete).toBe(true);
    expect(splitReplay.seen.filter((s) => s.url.pathname.endsWith("-submissions-001.json"))).toHaveLength(1);
  });
});
