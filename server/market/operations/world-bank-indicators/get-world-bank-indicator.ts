// One World Bank indicator for a few countries between two years: the codes resolved (alpha-3, aggregates, alpha-2),
// the years defaulted from what the source holds, and every gap said in `notes` rather than filled.
import type { z } from "zod";
import { AppError, invalidParameter } from "../../../errors";
import { WORLD_BANK_INDICATORS, WORLD_BANK_SOURCE, type worldBankIndicatorsResponse, type WorldBankIndicator } from "./contract";
import type { WorldBankSource } from "./world-bank-source";

export type WorldBankIndicatorsResponse = z.infer<typeof worldBankIndicatorsResponse>;
type Query = { countries: string; start_year?: number; end_year?: number };

const DEFAULT_YEARS = 10;

/** The indicator an id or alias names (the contract's enum guarantees one). */
export function indicatorNamed(name: string): WorldBankIndicator {
  const ind = WORLD_BANK_INDICATORS.find((i) => i.id === name || i.alias === name);
  if (!ind) throw invalidParameter("indicator", `unknown indicator ${name}`);
  return ind;
}

export async function getWorldBankIndicator(name: string, q: Query, source: WorldBankSource, now: Date): Promise<WorldBankIndicatorsResponse> {
  const ind = indicatorNamed(name);
  const codes = [...new Set(q.countries.toUpperCase().split(","))];
  const held = source.held(ind.id);
  const end = q.end_year ?? held?.last_year ?? now.getUTCFullYear() - 1;
  const start = q.start_year ?? Math.min(end, held ? Math.max(held.first_year, end - DEFAULT_YEARS + 1) : end - DEFAULT_YEARS + 1);
  if (start > end) throw invalidParameter("start_year", `start_year ${start} is after end_year ${end}`);
  if (held && (end < held.first_year || start > held.last_year))
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: `${ind.id} is held for ${held.first_year}..${held.last_year}; ${start}..${end} is outside it`,
      extra: { indicator: ind.id, first_year: held.first_year, last_year: held.last_year },
    });

  const ans = await source.observations(ind.id, codes, start, end);
  const unknown = ans.countries.filter((c) => !c.country).map((c) => c.requested);
  if (source.kind === "embedded" && unknown.length)
    throw new AppError("not_found", {
      reason: "unknown_country",
      detail: `no World Bank economy or aggregate is coded ${unknown.join(", ")} (ISO 3166-1 alpha-3 such as USA, alpha-2 such as US, or an aggregate such as WLD)`,
      extra: { countries: unknown },
    });
  if (ans.rows.length === 0)
    throw new AppError("not_included", {
      reason: "no_observations",
      detail: `the World Bank has no ${ind.id} value for ${codes.join(", ")} in ${start}..${end}${held ? ` (held: ${held.first_year}..${held.last_year})` : ""}`,
      extra: { indicator: ind.id },
    });

  const byCode = new Map<string, typeof ans.rows>();
  for (const r of ans.rows) byCode.set(r.country_code, [...(byCode.get(r.country_code) ?? []), r]);
  const notes: string[] = [];
  if (held && end > held.last_year) notes.push(`${ind.id} is held to ${held.last_year}: no value after it is in this answer.`);
  if (held && start < held.first_year) notes.push(`${ind.id} is held from ${held.first_year}: no value before it is in this answer.`);
  const seen = new Set<string>();
  const countries = ans.countries.map(({ requested, country }) => {
    const code = country?.code ?? requested;
    const again = seen.has(code);
    seen.add(code);
    const rows = again ? [] : (byCode.get(code) ?? []);
    const missing = yearsMissing(rows, Math.max(start, held?.first_year ?? start), Math.min(end, held?.last_year ?? end));
    if (again) notes.push(`${requested} names ${code} again: its rows are listed once.`);
    else if (rows.length === 0) notes.push(`${code}: no value in ${start}..${end}.`);
    else if (missing) notes.push(`${code}: no value for ${missing} (none published; nothing is filled in).`);
    if (country?.aggregate) notes.push(`${code} (${country.name}) is a World Bank aggregate, not an economy.`);
    if (requested !== code) notes.push(`${requested} is read as ${code}.`);
    return { requested, code, name: country?.name ?? null, aggregate: country?.aggregate ?? null, observations: rows.length, rows };
  });
  const observations = countries.flatMap((c) => [...c.rows].sort((a, b) => a.year - b.year));
  return {
    source: WORLD_BANK_SOURCE,
    as_of: ans.as_of,
    indicator: { id: ind.id, alias: ind.alias, name: ind.name, units: ind.units },
    start_year: start,
    end_year: end,
    countries: countries.map(({ rows: _rows, ...c }) => c),
    count: observations.length,
    observations,
    last_updated: ans.last_updated,
    notes,
  };
}

/** The years in start..end without a row, as ranges ("1990-1994, 2024"); "" when none. */
function yearsMissing(rows: { year: number }[], start: number, end: number): string {
  const have = new Set(rows.map((r) => r.year));
  const ranges: string[] = [];
  for (let y = start; y <= end; y++) {
    if (have.has(y)) continue;
    let last = y;
    while (last + 1 <= end && !have.has(last + 1)) last++;
    ranges.push(last === y ? String(y) : `${y}-${last}`);
    y = last;
  }
  return ranges.join(", ");
}
