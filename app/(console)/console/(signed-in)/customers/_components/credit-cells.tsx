import { count, usd, utcCell } from "../../../_components/format";

type CreditRow = { plans: string[]; balanceUsd: string; purchasedUsd?: string; spentUsd: string; drawnUsd: string; calls: number; lastCallAt: string | null };

/** The money columns a person and a credential share: plans with live credit and what is left, spend, draws, calls. */
export function CreditCells({ testId, row }: { testId: string; row: CreditRow }) {
  return (
    <>
      <td data-label="Plans (credit left)">
        <span data-testid={`${testId}-plans`}>{row.plans.join(", ") || "—"}</span>
        <span className="block text-xs text-slate-600">
          <span data-testid={`${testId}-balance`}>{usd(row.balanceUsd)}</span> left
        </span>
      </td>
      {row.purchasedUsd !== undefined && (
        <td className="text-right tabular-nums" data-testid={`${testId}-purchased`} data-label="Credit bought">
          {usd(row.purchasedUsd)}
        </td>
      )}
      <td className="text-right tabular-nums" data-testid={`${testId}-spend`} data-label="Spend (net)">
        {usd(row.spentUsd)}
      </td>
      <td className="text-right tabular-nums" data-testid={`${testId}-drawn`} data-label="Drawn on credit">
        {usd(row.drawnUsd)}
      </td>
      <td className="text-right" data-label="Calls (last, UTC)">
        <span className="tabular-nums" data-testid={`${testId}-calls`}>
          {count(row.calls)}
        </span>
        <span className="block font-mono text-xs whitespace-nowrap text-slate-600">{utcCell(row.lastCallAt)}</span>
      </td>
    </>
  );
}
