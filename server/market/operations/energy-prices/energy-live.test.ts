// The energy live source against EIA API v2 replies as recorded (data/recorded/eia/: the documented shape, filled with
// the shipped values), replayed by a local HTTP server: the route and facets of each series, paging, the missing-key
// reply (HTTP 403 API_KEY_MISSING) mapped to a 502 naming the setting, and the key kept out of every error.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { liveConfig } from "../../test/live-kit";
import { refusalOf as refusal } from "../../test/refusals";
import { recorded as recordedFile, startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { energyPricesResponse, type Commodity } from "./contract";
import { liveEnergy } from "./energy-source";
import { getEnergyPrices } from "./get-energy-prices";

const recorded = (f: string) => recordedFile(`recorded/eia/${f}`);
const REPLIES: Record<string, { route: string; file: string }> = {
  RWTC: { route: "/v2/petroleum/pri/spt/data/", file: "petroleum-pri-spt-data-RWTC.json" },
  RBRTE: { route: "/v2/petroleum/pri/spt/data/", file: "petroleum-pri-spt-data-RBRTE.json" },
  RNGWHHD: { route: "/v2/natural-gas/pri/fut/data/", file: "natural-gas-pri-fut-data-RNGWHHD.json" },
  EMM_EPMR_PTE_NUS_DPG: { route: "/v2/petroleum/pri/gnd/data/", file: "petroleum-pri-gnd-data-EMM_EPMR_PTE_NUS_DPG.json" },
};
const KEY = "test-eia-key-secret";
const NOW = new Date("2026-11-27T12:00:00Z");

let replay: RouteReplay;
beforeAll(async () => void (replay = await startRouteReplay(({ url }) => route(url))));
afterAll(() => replay.close());
beforeEach(() => replay.reset());
const seen = () => replay.seen.map((s) => s.url);

/** EIA as recorded: 403 API_KEY_MISSING without a key, else the series' recorded reply on its route. */
function route(u: URL): { status: number; body: string } {
  if (!u.searchParams.get("api_key")) return { status: 403, body: recorded("error-api-key-missing.json") };
  const r = REPLIES[u.searchParams.get("facets[series][]") ?? ""];
  return r && r.route === u.pathname ? { status: 200, body: recorded(r.file) } : { status: 404, body: "{}" };
}

const source = (settings: Record<string, string>) => liveEnergy(liveConfig({ EIA_BASE_URL: replay.base, ...settings }), () => NOW);
const ask = (
  c: Commodity,
  q: { start?: string; end?: string; frequency?: "daily" | "weekly" | "monthly" | "annual"; limit?: number },
  settings = { EIA_API_KEY: KEY },
) => getEnergyPrices(c, { limit: 1000, ...q }, source(settings), NOW);
const fileRows = (file: string, from: string, to: string) =>
  fs
    .readFileSync(path.join(process.cwd(), "data/energy", file), "utf8")
    .trim()
    .split("\n")
    .map((l) => l.split(","))
    .filter(([d]) => d! >= from && d! <= to)
    .map(([date, v]) => ({ date: date!, value: Number(v) }));

describe("EIA API v2, replayed", () => {
  it.each([
    ["wti", "wti-daily.csv", "2026-08-12", "2026-08-18"],
    ["brent", "brent-daily.csv", "2026-08-12", "2026-08-18"],
    ["henry-hub", "henry-hub-daily.csv", "2026-08-12", "2026-08-18"],
    ["gasoline", "gasoline-regular-weekly.csv", "2025-12-01", "2025-12-29"],
  ] as const)("%s: its route and series, the recorded prices oldest first, equal to the committed file", async (c, file, start, end) => {
    const res = await ask(c, { start, end });
    expect(energyPricesResponse.parse(res)).toBeTruthy();
    expect(res.prices).toEqual(fileRows(file, start, end));
    expect(res.as_of).toBe(NOW.toISOString());
    const q = seen()[0]!.searchParams;
    expect([
      q.get("frequency"),
      q.get("data[0]"),
      q.get("start"),
      q.get("end"),
      q.get("sort[0][column]"),
      q.get("sort[0][direction]"),
      q.get("api_key"),
    ]).toEqual([c === "gasoline" ? "weekly" : "daily", "value", start, end, "period", "asc", KEY]);
  });

  it("without a key EIA answers 403 API_KEY_MISSING: a 502 naming EIA_API_KEY, the storefront's configuration, not the caller's", async () => {
    const r = await refusal(ask("wti", { start: "2026-08-12", end: "2026-08-18" }, { EIA_API_KEY: "" }));
    expect(r).toMatchObject({ status: 502, code: "upstream_unavailable", reason: "provider_not_configured" });
    expect(r.detail).toContain("API_KEY_MISSING");
    expect(r.detail).toContain("EIA_API_KEY");
  });

  it("a server error is a 502 whose detail never holds the key", async () => {
    replay.answer = () => ({ status: 500, body: "{}" });
    const r = await refusal(ask("wti", { start: "2026-08-12", end: "2026-08-18" }));
    expect(r).toMatchObject({ status: 502, code: "upstream_unavailable" });
    expect(r.detail).not.toContain(KEY);
  });

  it("pages by offset until the window's total is read, and stops at limit", async () => {
    const data = JSON.parse(recorded("petroleum-pri-spt-data-RWTC.json")) as { response: { data: unknown[] } };
    // The recording is newest first; pages here come in the order the adapter asks for (oldest first).
    const asc = [...data.response.data].reverse();
    replay.answer = ({ url: u }) => {
      const [offset, length] = [Number(u.searchParams.get("offset")), Number(u.searchParams.get("length"))];
      return {
        status: 200,
        body: JSON.stringify({ ...data, response: { ...data.response, total: "5", data: asc.slice(offset, offset + Math.min(length, 2)) } }),
      };
    };
    const all = await ask("wti", { start: "2026-08-12", end: "2026-08-18" });
    expect(seen().map((u) => u.searchParams.get("offset"))).toEqual(["0", "2", "4"]);
    expect(all.prices).toEqual(fileRows("wti-daily.csv", "2026-08-12", "2026-08-18"));
    replay.seen.length = 0;
    const two = await ask("wti", { start: "2026-08-12", end: "2026-08-18", limit: 2 });
    expect([two.count, two.truncated, seen().length]).toEqual([2, true, 1]);
  });

  it("EIA's own averages are asked for by frequency, with start and end in EIA's period form", async () => {
    replay.answer = () => ({ status: 200, body: JSON.stringify({ response: { total: "0", dateFormat: "YYYY-MM", frequency: "monthly", data: [] } }) });
    expect(await refusal(ask("wti", { frequency: "monthly", start: "2025-01-15", end: "2025-06-30" }))).toMatchObject({
      status: 403,
      reason: "no_observations",
    });
    expect([seen()[0]!.searchParams.get("frequency"), seen()[0]!.searchParams.get("start"), seen()[0]!.searchParams.get("end")]).toEqual([
      "monthly",
      "2025-01",
      "2025-06",
    ]);
    expect(await refusal(ask("gasoline", { frequency: "daily" }))).toMatchObject({ status: 403, reason: "frequency_not_included" });
  });

  it("an answer without response.data is a 502", async () => {
    replay.answer = () => ({ status: 200, body: JSON.stringify({ error: "unexpected" }) });
    expect(await refusal(ask("brent", { start: "2026-08-12", end: "2026-08-18" }))).toMatchObject({ status: 502, reason: "invalid_response" });
  });
});
