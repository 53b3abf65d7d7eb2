// Congressional trades offline against the committed CSV (data/congress/senate-ptr-transactions.csv): every row once
// with its values, the filters and their counts, the sort orders, and what is not held.
import fs from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { congressTradesResponse } from "./contract";
import { findCongressTrades, namesMember, type CongressTradesQuery } from "./find-congress-trades";
import { tidyName, tickersOf, type SenateRow } from "./senate-rows";
import { senateTradesSource } from "./senate-source";
import { failureOf as failure } from "../../test/refusals";

const csv = parse(fs.readFileSync(path.join(process.cwd(), "data/congress/senate-ptr-transactions.csv"), "utf8"), { columns: true }) as SenateRow[];
const source = senateTradesSource.embedded({} as never);
const q = (over: Partial<CongressTradesQuery> = {}): CongressTradesQuery => ({
  date_field: "transaction",
  sort: "disclosure_date",
  order: "desc",
  limit: 500,
  offset: 0,
  ...over,
});
const all = async (over: Partial<CongressTradesQuery> = {}) => {
  const out = [];
  for (let offset: number | null = 0; offset !== null;) {
    const page = await findCongressTrades(q({ ...over, offset }), source);
    expect(congressTradesResponse.safeParse(page).error).toBeUndefined();
    out.push(...page.trades);
    offset = page.next_offset;
  }
  return out;
};
describe("congressional trades offline (fidelity with the committed CSV)", () => {
  it("serves every row once across pages, with the file's dates, member, amount range as published and report link", async () => {
    const trades = await all();
    expect(trades).toHaveLength(csv.length);
    const key = (t: { transaction_date: string; disclosure_date: string; report_url: string; amount_range: string; transaction_type: string }) =>
      [t.transaction_date, t.disclosure_date, t.report_url, t.amount_range, t.transaction_type].join("|");
    const expected = csv.map((r) => [r.transaction_date, r.disclosure_date, r.ptr_link, r.amount_range, r.type].join("|")).sort();
    expect(trades.map(key).sort()).toEqual(expected);
    expect(new Set(trades.map((t) => t.member))).toEqual(new Set(csv.map((r) => tidyName(r.member))));
    expect(trades.every((t) => t.chamber === "senate")).toBe(true);
    const order = trades.map((t) => t.disclosure_date);
    expect(order).toEqual([...order].sort().reverse());
  });

  it("filters by ticker (either symbol of an exchange), member, type, owner and either date", async () => {
    const aapl = await all({ ticker: "AAPL" });
    expect(aapl).toHaveLength(csv.filter((r) => tickersOf(r.ticker).includes("AAPL")).length);
    const rtx = await all({ ticker: "RTX" });
    expect(rtx.some((t) => t.tickers[0] === "RTN" && t.tickers[1] === "RTX")).toBe(true);
    const loeffler = await all({ member: "loeffler" });
    expect(loeffler).toHaveLength(csv.filter((r) => r.member.includes("Loeffler")).length);
    expect(await all({ member: "L000594" })).toHaveLength(csv.filter((r) => r.bioguide_id === "L000594").length);
    const sales = await all({ type: "sale" });
    expect(sales).toHaveLength(csv.filter((r) => r.type.startsWith("Sale")).length);
    expect(await all({ type: "sale_partial", owner: "spouse" })).toHaveLength(csv.filter((r) => r.type === "Sale (Partial)" && r.owner === "Spouse").length);
    const march = await all({ from: "2020-03-01", to: "2020-03-31" });
    expect(march).toHaveLength(csv.filter((r) => r.transaction_date >= "2020-03-01" && r.transaction_date <= "2020-03-31").length);
    const disclosed = await all({ from: "2020-03-01", to: "2020-03-31", date_field: "disclosure", sort: "transaction_date", order: "asc" });
    expect(disclosed).toHaveLength(csv.filter((r) => r.disclosure_date >= "2020-03-01" && r.disclosure_date <= "2020-03-31").length);
    expect(disclosed.map((t) => t.transaction_date)).toEqual(disclosed.map((t) => t.transaction_date).sort());
  });

  it("matches members by words of the name or a Bioguide ID", () => {
    expect(namesMember("Mitch McConnell", "A. Mitchell McConnell, Jr.", "M000357")).toBe(true);
    expect(namesMember("david perdue", "David A Perdue, Jr", "P000612")).toBe(true);
    expect(namesMember("Perdue Perdue", "David A Perdue, Jr", "P000612")).toBe(false);
    expect(namesMember("P000612", "David A Perdue, Jr", "P000612")).toBe(true);
    expect(namesMember("Pelosi", "David A Perdue, Jr", "P000612")).toBe(false);
  });

  it("refuses what it does not hold with 403: the House, a member with no report here, a window outside the dates", async () => {
    const house = await failure(findCongressTrades(q({ chamber: "house" }), source));
    expect([house.status, house.code, house.reason]).toEqual([403, "not_included", "chamber_not_included"]);
    const pelosi = await failure(findCongressTrades(q({ member: "Pelosi" }), source));
    expect([pelosi.status, pelosi.reason]).toEqual([403, "member_not_included"]);
    expect(pelosi.detail).toContain("Kelly Loeffler");
    const late = await failure(findCongressTrades(q({ from: "2022-01-01" }), source));
    expect([late.status, late.reason]).toEqual([403, "timeframe_not_included"]);
    const backwards = await failure(findCongressTrades(q({ from: "2021-01-02", to: "2021-01-01" }), source));
    expect([backwards.status, backwards.extra?.parameter]).toEqual([400, "from"]);
    // A held window with no trade is an answer, not a refusal.
    expect((await findCongressTrades(q({ ticker: "ZZZZ" }), source)).total).toBe(0);
  });

  it("its README states the coverage the file holds", () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "README.md"), "utf8");
    const dates = (k: keyof SenateRow) => csv.map((r) => r[k]).sort();
    const members = new Set(csv.map((r) => r.member)).size;
    expect(readme).toContain(
      `${csv.length} transactions from reports received ${dates("disclosure_date")[0]} .. ${dates("disclosure_date").at(-1)} ` +
        `(transaction dates ${dates("transaction_date")[0]} .. ${dates("transaction_date").at(-1)}), ${members} senators`,
    );
  });
});
