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
  if (m.marginUsd === null)
    return m.withoutGas.marginUsd !== null && m.withoutGas.calls > 0
      ? `Card payments: ${usd(m.withoutGas.netUsd)} net after ${usd(m.withoutGas.feesUsd)} card fees. Wallet payments' gas is paid in ETH (${m.gasEth} ETH): set an ETH/USD rate in Settings to see their margin.`
      : `Known: ${fees}. Gas is paid in ETH (${m.gasEth} ETH): set an ETH/USD rate in Settings to see it in USD.`;
  const gas = m.gasCalls > 0 ? `, ${usd(m.gasUsd)} gas at your rate` : "";
  const unknown = m.costKnownForAll ? "" : " Some charges' costs were not reported, so the margin is at most this.";
  return `After ${fees}${gas}.${unknown}`;
}

/** The margin when it is known in full, else the card part's (known without an ETH rate), else "Not known". */
function marginValue(m: Overview["margin"]): string {
  if (m.marginUsd !== null) return usd(m.marginUsd);
  if (m.withoutGas.marginUsd !== null && m.withoutGas.calls > 0) return usd(m.withoutGas.marginUsd);
  return "Not known";
}

function marginLabel(m: Overview["margin"]): string {
  return m.marginUsd === null && m.withoutGas.marginUsd !== null && m.withoutGas.calls > 0 ? "Margin (card payments)" : "Margin";
}

function failedNote(p: Overview["problems"], refusedProofs: number): string {
  const parts = [`${count(refusedProofs)} proofs refused`, `${count(p.released)} not charged (upstream failed)`, `${count(p.failed)} did not settle`];
  const not = [
    p.rateLimited > 0 ? `${count(p.rateLimited)} rate-limited (the agent was asked to slow down)` : null,
    p.inProgress > 0 ? `${count(p.inProgress)} retries while a payment was in progress` : null,
  ].filter(Boolean);
  return `${parts.join(", ")}.${not.length ? ` Not counted as failures: ${not.join(", ")}.` : ""}`;
}

/** Conversion from 402 to paid, payments that failed or were refused, and the margin. */
export function Health({ o, funnelHref }: { o: Overview; funnelHref: string }) {
  const p = o.problems;
  // Rate-limited proofs and retries while a payment was being decided are not failures: counted apart.
  const refusedProofs = Math.max(0, p.refused - p.rateLimited - p.inProgress);
  return (
    <Section title="Conversion, failures and margin" testId="section-health">
      <div className="grid gap-3 sm:grid-cols-3">
        <Kpi
          testId="kpi-conversion"
          label="402 to paid"
          value={o.conversion.percent === null ? "—" : `${o.conversion.percent}%`}
          note={`${count(o.conversion.settled)} paid of ${count(o.conversion.issued)} 402 challenges issued`}
        />
        <Kpi testId="kpi-failed" label="Failed or refused" value={count(refusedProofs + p.released + p.failed)} note={failedNote(p, refusedProofs)} />
        <Kpi testId="kpi-margin" label={marginLabel(o.margin)} value={marginValue(o.margin)} note={marginNote(o.margin)} />
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
