// The VIX offline against the committed CBOE file (data/sentiment/vix-daily.csv) and live against CBOE's recorded
// VIX_History.csv replayed locally (data/recorded/cboe/): values, dates, close-only days and flags, what is not held.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { liveConfig } from "../../test/live-kit";
import { cboeVixSource, resetVixCache } from "./cboe-vix-source";
import { vixResponse } from "./contract";
import { getVix, type VixQuery } from "./get-vix";
import { failureOf as failure } from "../../test/refusals";

const lines = fs.readFileSync(path.join(process.cwd(), "data/sentiment/vix-daily.csv"), "utf8").trim().split("\n").slice(1);
const csv = lines.map((l) => {
  const [date, open, high, low, close] = l.split(",");
  return { date: date!, open: Number(open), high: Number(high), low: Number(low), close: Number(close) };
});
const RECORDED = fs.readFileSync(path.join(process.cwd(), "data/recorded/cboe/VIX_History.csv"), "utf8");
const offline = cboeVixSource.embedded({} as never);
const q = (over: Partial<VixQuery> = {}): VixQuery => ({ sort: "desc", limit: 30, ...over });
describe("VIX offline (fidelity with the committed CBOE file)", () => {
  it("serves every day with CBOE's values; close-only days with open, high and low null", async () => {
    const res = await getVix(q({ sort: "asc", limit: 10_000 }), offline);
    expect(vixResponse.safeParse(res).error).toBeUndefined();
    expect(res.count).toBe(csv.length);
    expect(res.days.map((d) => d.date)).toEqual(csv.map((r) => r.date));
    res.days.forEach((d, i) => {
      const r = csv[i]!;
      expect(d.close).toBe(r.close);
      if (d.close_only) expect([d.open, d.high, d.low, r.open, r.high, r.low]).toEqual([null, null, null, r.close, r.close, r.close]);
      else expect([d.open, d.high, d.low]).toEqual([r.open, r.high, r.low]);
    });
    expect(res.days.filter((d) => d.close_only).map((d) => d.date)).toEqual(["2004-06-11"]);
  });

  it("flags the rows whose published values contradict each other, served as published", async () => {
    const res = await getVix(q({ sort: "asc", limit: 10_000 }), offline);
    expect(res.days.filter((d) => d.flags.length).map((d) => [d.date, d.flags])).toEqual([
      ["2002-09-11", ["open_outside_range"]],
      ["2004-10-26", ["open_outside_range"]],
      ["2004-11-08", ["open_outside_range"]],
      ["2006-02-08", ["open_outside_range"]],
    ]);
    expect(res.days.find((d) => d.date === "2004-11-08")).toMatchObject({ open: 2.58, high: 14.48, low: 13.68, close: 13.8 });
    expect(res.notes[0]).toContain("in the history read: 2004-06-11.");
  });

  it("answers the latest days by default, a window in either order, and 403 outside the file", async () => {
    const latest = await getVix(q(), offline);
    expect([latest.count, latest.days[0]!.date, latest.last_date]).toEqual([30, csv.at(-1)!.date, csv.at(-1)!.date]);
    const march = await getVix(q({ from: "2020-03-01", to: "2020-03-31", sort: "asc" }), offline);
    expect(march.days.map((d) => d.date)).toEqual(csv.filter((r) => r.date >= "2020-03-01" && r.date <= "2020-03-31").map((r) => r.date));
    expect(march.days.find((d) => d.date === "2020-03-16")!.close).toBe(82.69);
    const early = await failure(getVix(q({ to: "1999-12-31" }), offline));
    expect([early.status, early.reason]).toEqual([403, "timeframe_not_included"]);
    const backwards = await failure(getVix(q({ from: "2020-03-02", to: "2020-03-01" }), offline));
    expect([backwards.status, backwards.extra?.parameter]).toEqual([400, "from"]);
  });

  it("its README states the coverage the file holds", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "README.md"), "utf8");
    expect(readme).toContain(`${csv[0]!.date} .. ${csv.at(-1)!.date} (${csv.length} trading days)`);
  });
});

describe("VIX live (CBOE's VIX_History.csv replayed)", () => {
  let replay: RouteReplay;
  beforeAll(async () => {
    replay = await startRouteReplay((req) => (req.url.pathname === "/VIX_History.csv" ? { body: RECORDED, type: "text/csv" } : undefined));
  });
  afterAll(() => replay.close());
  beforeEach(() => {
    resetVixCache();
    replay.seen.length = 0;
  });
  const live = (file = "/VIX_History.csv") => cboeVixSource.live(liveConfig({ CBOE_VIX_URL: `${replay.base}${file}` }, { timeoutMs: 2_000 }), {} as never);

  it("reads CBOE's MM/DD/YYYY file into the same days as the committed file, once an hour", async () => {
    const source = live();
    const res = await getVix(q({ from: "2026-07-10", sort: "asc" }), source);
    const same = await getVix(q({ from: "2026-07-10", to: "2026-07-23", sort: "asc" }), offline);
    expect(res.days).toEqual(same.days);
    expect(res.count).toBe(10);
    expect(Date.parse(res.as_of!)).not.toBeNaN();
    await getVix(q(), source);
    expect(replay.seen).toHaveLength(1);
  });

  it("answers CBOE's failures with 502s: a missing file, a 5xx twice, a body that is not the history", async () => {
    const missing = await failure(getVix(q(), live("/gone.csv")));
    expect([missing.status, missing.reason]).toEqual([502, "provider_error"]);
    expect(missing.detail).toContain("CBOE_VIX_URL");
    replay.script({ status: 503, body: "busy", type: "text/plain" });
    expect((await getVix(q(), live())).count).toBe(10);
    resetVixCache();
    replay.script({ status: 503, body: "busy", type: "text/plain" }, { status: 503, body: "busy", type: "text/plain" });
    expect((await failure(getVix(q(), live()))).status).toBe(502);
    replay.script({ body: "<html>maintenance</html>", type: "text/html" });
    const html = await failure(getVix(q(), live()));
    expect([html.status, html.reason]).toEqual([502, "invalid_response"]);
  });
});
