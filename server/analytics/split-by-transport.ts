// HTTP API calls beside MCP tool calls, for the overview and the funnel: per transport, the paid calls (prepaid credit
// draws included, as the overview counts calls), the net money they brought (payments only: draws are usage, refunded
// ones gave it back), and the funnel's stages a proof reaches (answered, served, settled; payments only, as the funnel
// counts them). A 402 challenge issued is not split: an unpaid one is deleted after a day and the daily rollups it is
// counted in carry no transport.
import { microsToUsd } from "../lib/money";
import { TRANSPORTS, type Transport } from "../payments/paid-call";
import { PAID_STATES } from "../payments/payment-state";
import { RAILS } from "../payments/rails";
import type { Span } from "./span";
import { groupPaymentsByTransport } from "./transport.queries";

export type TransportSplit = { transport: Transport; calls: number; netUsd: string; answered: number; served: number; settled: number };

const CHARGED = new Set<string>([...PAID_STATES, "refunded"]);
const SERVED = new Set<string>([...CHARGED, "failed"]);

/** `filter`: the funnel's operation and rail, when it is narrowed to them. */
export async function splitByTransport(
  sellerId: string,
  span: Span,
  filter: { operation?: string | null; rail?: string | null } = {},
): Promise<TransportSplit[]> {
  const implicit = new Set(RAILS.filter((r) => r.implicit).map((r) => r.name as string));
  const groups = (await groupPaymentsByTransport(sellerId, span)).filter(
    (g) => (!filter.operation || g.operationKey === filter.operation) && (!filter.rail || g.rail === filter.rail),
  );
  return TRANSPORTS.map((transport) => {
    const of = groups.filter((g) => g.transport === transport);
    const money = of.filter((g) => !implicit.has(g.rail));
    const count = (rows: typeof of, states: Set<string>) => rows.filter((g) => states.has(g.status)).reduce((s, g) => s + g.count, 0);
    return {
      transport,
      calls: count(of, CHARGED),
      netUsd: microsToUsd(money.filter((g) => (PAID_STATES as readonly string[]).includes(g.status)).reduce((s, g) => s + g.amountMicros, 0n)),
      answered: money.reduce((s, g) => s + g.count, 0),
      served: count(money, SERVED),
      settled: count(money, CHARGED),
    };
  });
}
