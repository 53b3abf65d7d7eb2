"use client";

import Link from "next/link";
import { count, usd } from "../../_components/format";
import { Kpi, LINK, Section } from "../../_components/section";
import type { Outputs } from "../../_components/types";

type Overview = Outputs["analytics"]["overview"];

/** What the margin is as far as it is known, and what is not known (never an invented number). */
function marginNote(m: Overview["margin"]): string {
  if (m.calls === 0) return "No charges in this range.";
  const fees = `${usd(m.feesUsd)} card fees`;
  if (m.marginUsd === null) return `Known: ${fees}. Gas is paid in ETH (${m.gasEth} ETH): set an ETH/USD rate in Settings to see it in USD.`;
  const gas = m.gasCalls > 0 ? `, ${usd(m.gasUsd)} gas at your rate` : "";
  const unknown = m.costKnownForAll ? "" : " Some charges' costs were not reported, so the margin is at most this.";
  return `After ${fees}${gas}.${unknown}`;
}

/** Conversion from 402 to paid, payments that failed or were refused, and the margin. */
export function Health({ o, funnelHref }: { o: Overview; funnelHref: string }) {
  const p = o.problems;
  return (
    <Section title="Conversion, failures and margin" testId="section-health">
      <div className="grid gap-3 sm:grid-cols-3">
        <Kpi
          testId="kpi-conversion"
          label="402 to paid"
          value={o.conversion.percent === null ? "—" : `${o.conversion.percent}%`}
          note={`${count(o.conversion.settled)} paid of ${count(o.conversion.issued)} 402 challenges issued`}
        />
        <Kpi
          testId="kpi-failed"
          label="Failed or refused"
          value={count(p.failed + p.released + p.refused)}
          note={`${count(p.refused)} proofs refused, ${count(p.released)} not charged (upstream failed), ${count(p.failed)} did not settle`}
        />
        <Kpi testId="kpi-margin" label="Margin" value={o.margin.marginUsd === null ? "Not known" : usd(o.margin.marginUsd)} note={marginNote(o.margin)} />
      </div>
      {p.reasons.length > 0 && (
        <div className="mt-4">
          <h3 className="font-medium">Why payments failed or were refused</h3>
          <ul className="mt-1 grid gap-1 text-sm" data-testid="overview-reasons">
            {p.reasons.map((r) => (
              <li key={`${r.step}-${r.code}`}>
                <span className="font-medium tabular-nums">{count(r.count)}×</span> {r.meaning}{" "}
                <span className="text-slate-600">
                  The payer can: {r.payerCanDo} <code className="text-xs">{r.code}</code>
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      <p className="mt-3 text-sm text-slate-700">
        Where agents drop off between the 402 and the paid call:{" "}
        <Link className={LINK} href={funnelHref}>
          the 402 funnel
        </Link>
        ; cost per operation:{" "}
        <Link className={LINK} href="/console/margin">
          margin
        </Link>
        .
      </p>
    </Section>
  );
}
