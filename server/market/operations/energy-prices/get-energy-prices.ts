// Prices of one energy commodity between two dates, at a frequency EIA publishes, exactly as published: nothing is
// averaged or filled in here; what is not held is a 403 naming what is.
import type { z } from "zod";
import { AppError, invalidParameter } from "../../../errors";
import { addDays } from "../../lib/dates";
import { COMMODITIES, ENERGY_SOURCE, type Commodity, type EnergyFrequency, type energyPricesResponse } from "./contract";
import type { EnergySource } from "./energy-source";

export type EnergyPricesResponse = z.infer<typeof energyPricesResponse>;
type Query = { start?: string; end?: string; frequency?: EnergyFrequency; limit: number };

/** The default window before `end`, in days, per frequency. */
const DEFAULT_SPAN: Record<EnergyFrequency, number> = { daily: 30, weekly: 365, monthly: 5 * 365, annual: 20 * 365 };
const FREQUENCY_NOTE: Record<EnergyFrequency, string> = {
  daily: "Daily spot prices on trading days, as EIA publishes them.",
  weekly: "Weekly prices as EIA publishes them (for gasoline, the retail survey of each Monday; for spot prices, EIA's weekly average).",
  monthly: "EIA's monthly averages, as EIA publishes them; each row is dated the first day of its month.",
  annual: "EIA's annual averages, as EIA publishes them; each row is dated 1 January of its year.",
};

export async function getEnergyPrices(commodity: Commodity, q: Query, source: EnergySource, now: Date): Promise<EnergyPricesResponse> {
  const c = COMMODITIES[commodity];
  const published: readonly EnergyFrequency[] = c.published;
  const frequency = q.frequency ?? published[0]!;
  if (!published.includes(frequency))
    throw new AppError("not_included", {
      reason: "frequency_not_included",
      detail: `EIA publishes ${c.name} ${published.join(", ")}; not ${frequency}`,
      extra: { commodity, frequency },
    });
  const held = source.held(c.series, frequency);
  if (!held)
    throw new AppError("not_included", {
      reason: "frequency_not_included",
      detail: `${frequency} ${commodity} prices are not held here (held: ${published.filter((f) => source.held(c.series, f)).join(", ")}; EIA's averages are served by the live provider; none is computed here)`,
      extra: { commodity, frequency },
    });
  const end = q.end ?? (held === "open" ? now.toISOString().slice(0, 10) : held.last);
  const start = q.start ?? addDays(end, -DEFAULT_SPAN[frequency]);
  if (start > end) throw invalidParameter("start", `start ${start} is after end ${end}`);
  if (held !== "open" && (end < held.first || start > held.last))
    throw new AppError("not_included", {
      reason: "timeframe_not_included",
      detail: `${commodity} ${frequency} prices are held for ${held.first}..${held.last}; ${start}..${end} is outside it`,
      extra: { commodity, first_date: held.first, last_date: held.last },
    });

  const got = await source.prices(c.series, frequency, start, end, q.limit);
  if (got.prices.length === 0)
    throw new AppError("not_included", { reason: "no_observations", detail: `EIA published no ${frequency} ${commodity} price in ${start}..${end}` });
  const notes: string[] = [];
  if (held !== "open" && start < held.first) notes.push(`Prices before ${held.first} are not held.`);
  if (held !== "open" && end > held.last) notes.push(`Prices after ${held.last} are not held.`);
  if (got.unpriced.length)
    notes.push(
      `EIA lists ${got.unpriced.slice(0, 20).join(", ")}${got.unpriced.length > 20 ? ` and ${got.unpriced.length - 20} more` : ""} with no price: no row (nothing is filled in).`,
    );
  if (got.prices.some((p) => p.value < 0)) notes.push("This window holds negative prices: they are EIA's published values.");
  if (got.prices.length < got.total)
    notes.push(`Truncated at limit=${q.limit} of ${got.total} prices in the window: ask again from the day after ${got.prices.at(-1)!.date}.`);
  return {
    source: ENERGY_SOURCE,
    as_of: got.as_of,
    commodity,
    series: { id: c.series, name: c.name, units: c.units },
    frequency,
    frequency_note: FREQUENCY_NOTE[frequency],
    start,
    end,
    count: got.prices.length,
    truncated: got.prices.length < got.total,
    prices: got.prices,
    notes,
  };
}
