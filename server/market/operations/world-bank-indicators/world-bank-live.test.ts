// The World Bank live source against its recorded replies (data/recorded/world-bank/: the API v2 shape, filled with
// the shipped values), replayed by a local HTTP server: the values it answers, the paging it follows, and its error
// reply (an HTTP 200 holding a message array) mapped to a clear 404, other failures to a 502.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { liveConfig } from "../../test/live-kit";
import { refusalOf } from "../../test/refusals";
import { recorded as recordedFile, startRouteReplay, type RouteReplay } from "../../test/route-replay";
import { worldBankIndicatorsResponse } from "./contract";
import { getWorldBankIndicator } from "./get-world-bank-indicator";
import { liveWorldBank } from "./world-bank-source";

const recorded = (f: string) => recordedFile(`recorded/world-bank/${f}`);
const POPULATION = recorded("country-USA-indicator-SP.POP.TOTL.json");
const INVALID = recorded("error-invalid-value.json");
const NOW = new Date("2026-11-27T12:00:00Z");

let replay: RouteReplay;
beforeAll(async () => void (replay = await startRouteReplay(({ url }) => route(url))));
afterAll(() => replay.close());
beforeEach(() => replay.reset());
const seen = () => replay.seen.map((s) => s.url);

/** What the World Bank answers, as recorded: the one request recorded, and its "Invalid value" reply for any other code. */
function route(u: URL): { status: number; body: string } {
  if (u.pathname === "/v2/country/USA/indicator/SP.POP.TOTL" && u.searchParams.get("date") === "2015:2024") return { status: 200, body: POPULATION };
  if (u.pathname.startsWith("/v2/country/")) return { status: 200, body: INVALID };
  return { status: 404, body: "{}" };
}

const source = () => liveWorldBank(liveConfig({ WORLD_BANK_BASE_URL: replay.base }), () => NOW);
const ask = (q: { countries: string; start_year?: number; end_year?: number }, indicator = "population") => getWorldBankIndicator(indicator, q, source(), NOW);
const refusal = (p: Promise<unknown>) => refusalOf(p, ["status", "code", "reason"]);

describe("World Bank API v2, replayed", () => {
  it("answers the recorded population of the USA, 2015..2024, as the committed file holds it", async () => {
    const res = await ask({ countries: "USA", start_year: 2015, end_year: 2024 });
    expect(worldBankIndicatorsResponse.parse(res)).toBeTruthy();
    const file = recordedFile("world-bank/SP.POP.TOTL.csv")
      .trim()
      .split("\n")
      .map((l) => l.split(","))
      .filter(([c, y]) => c === "USA" && Number(y) >= 2015);
    expect(res.observations).toEqual(file.map(([c, y, v]) => ({ country_code: c, year: Number(y), value: Number(v) })));
    expect(res.countries).toEqual([{ requested: "USA", code: "USA", name: "United States", aggregate: false, observations: 10 }]);
    expect(res.as_of).toBe(NOW.toISOString());
    const q = seen()[0]!.searchParams;
    expect([seen()[0]!.pathname, q.get("format"), q.get("date"), q.get("page")]).toEqual(["/v2/country/USA/indicator/SP.POP.TOTL", "json", "2015:2024", "1"]);
  });

  it("reads an alpha-2 code the World Bank answers for (country.id) as the country asked", async () => {
    replay.answer = ({ url: u }) => (u.pathname === "/v2/country/US/indicator/SP.POP.TOTL" ? { status: 200, body: POPULATION } : route(u));
    const res = await ask({ countries: "US", start_year: 2015, end_year: 2024 });
    expect(res.countries[0]).toMatchObject({ requested: "US", code: "USA", observations: 10 });
  });

  it("follows every page the answer announces, and skips null values (no row, nothing filled)", async () => {
    const [meta, rows] = JSON.parse(POPULATION) as [Record<string, unknown>, { value: number | null }[]];
    replay.answer = ({ url: u }) => {
      const page = Number(u.searchParams.get("page"));
      const slice = page === 1 ? rows.slice(0, 5) : rows.slice(5).map((r, i) => (i === 0 ? { ...r, value: null } : r));
      return { status: 200, body: JSON.stringify([{ ...meta, page, pages: 2, per_page: 5 }, slice]) };
    };
    const res = await ask({ countries: "USA", start_year: 2015, end_year: 2024 });
    expect(seen().map((u) => u.searchParams.get("page"))).toEqual(["1", "2"]);
    expect(res.count).toBe(9);
    expect(res.notes.some((n) => n.startsWith("USA: no value for"))).toBe(true);
  });

  it("maps the recorded 'Invalid value' reply (HTTP 200, a message array) to 404 not_found", async () => {
    expect(await refusal(ask({ countries: "ZZZ", start_year: 2015, end_year: 2024 }))).toEqual({ status: 404, code: "not_found", reason: "unknown_country" });
  });

  it("maps another message, an unexpected shape and a server error to 502, never a 5xx the caller caused", async () => {
    replay.answer = () => ({ status: 200, body: JSON.stringify([{ message: [{ id: "175", key: "Invalid format", value: "The indicator was not found." }] }]) });
    expect(await refusal(ask({ countries: "USA" }))).toEqual({ status: 502, code: "upstream_unavailable", reason: "provider_error" });
    replay.answer = () => ({ status: 200, body: JSON.stringify({ page: 1 }) });
    expect(await refusal(ask({ countries: "USA" }))).toEqual({ status: 502, code: "upstream_unavailable", reason: "invalid_response" });
    replay.answer = () => ({ status: 500, body: "{}" });
    expect(await refusal(ask({ countries: "USA" }))).toMatchObject({ status: 502, code: "upstream_unavailable" });
  });

  it("an answer holding no value is a 403 not_included, not an empty paid answer", async () => {
    replay.answer = () => ({ status: 200, body: JSON.stringify([{ page: 0, pages: 0, per_page: 1000, total: 0 }, null]) });
    expect(await refusal(ask({ countries: "USA", start_year: 1960, end_year: 1961 }))).toMatchObject({ status: 403, reason: "no_observations" });
  });
});
