// What the forex operation holds, stated before anyone pays (OpenAPI, the MCP tool): derived from the committed
// catalog of data/forex, never written by hand.
import type { OperationCoverage } from "../operation";
import type { ProviderKind } from "../../providers/types";
import { CURRENCIES } from "./contract";
import { embeddedForex } from "./forex-source";

export function forexCoverage(kind: ProviderKind, liveDaily: string[]): OperationCoverage {
  const nonUsd = CURRENCIES.filter((c) => c !== "USD");
  const monthly = nonUsd.map((c) => ({ c, h: embeddedForex.monthlyHeld(c)! }));
  const current = monthly.filter((m) => m.h.last === monthly[0]!.h.last);
  const legacy = monthly.filter((m) => m.h.last !== monthly[0]!.h.last);
  const monthlyText =
    `monthly G.5 averages ${current[0]!.h.first.slice(0, 7)}..${current[0]!.h.last.slice(0, 7)} for ${current.map((m) => m.c).join(", ")}` +
    [...new Set(legacy.map((m) => m.h.last))]
      .map(
        (last) =>
          `, to ${last.slice(0, 7)} for ${legacy
            .filter((m) => m.h.last === last)
            .map((m) => m.c)
            .join(", ")}`,
      )
      .join("");
  const rules =
    "Any base/quote pair of these and USD; a pair of two non-dollar currencies is a cross rate computed on dates both have. " +
    "A pair or window not held answers 403 not_included.";
  if (kind === "live")
    return {
      summary: `Live daily H.10 noon rates from the Federal Reserve's Data Download Program for ${liveDaily.join(", ")} (any date published); ${monthlyText} from the committed file. ${rules}`,
    };
  const daily = nonUsd.flatMap((c) => {
    const h = embeddedForex.dailyHeld(c);
    return h && h !== "open" ? [{ c, h }] : [];
  });
  return {
    summary: `Offline data: daily H.10 noon rates for ${daily.map((d) => `${d.c} ${d.h.first}..${d.h.last}`).join(", ")}; ${monthlyText}. ${rules}`,
    entities: [
      ...daily.map((d) => ({ name: `${d.c} daily`, first_date: d.h.first, last_date: d.h.last })),
      ...monthly.map((m) => ({ name: `${m.c} monthly`, first_date: m.h.first, last_date: m.h.last })),
    ],
  };
}
