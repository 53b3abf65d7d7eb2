"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "../../../../providers";
import { railLabel, usd, utc } from "../../../../_components/format";
import { useOperationTitles } from "../../../../_components/operation-name";
import { StateBadge } from "../../../../_components/state-badge";
import { LINK, Loaded, PageHeader } from "../../../../_components/section";
import { ShortId } from "@/app/_components/short-id";
import { Refund } from "../../_components/refund";
import { Timeline } from "./detail-parts";
import { ExportEvidence } from "./export-evidence";
import { AuditSection, CardSection, MoneySection, RefundSection, Summary, TechnicalDetails } from "./detail-sections";

export function PaymentDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.payments.detail.queryOptions({ id }, { retry: false }));
  const [now] = useState(() => Date.now());
  const operation = useOperationTitles();
  return (
    <>
      <p className="text-sm">
        <Link href="/console/payments" className={LINK}>
          ← Payments
        </Link>
      </p>
      <Loaded query={q} what="the payment">
        {(p) => (
          <div data-testid="payment-detail">
            <div className="mt-2">
              <PageHeader
                title={`${usd(p.amountUsd)} · ${operation(p.operation).title}`}
                actions={
                  <>
                    <ExportEvidence id={p.id} />
                    <Refund payment={{ ...p, feeUsd: p.settlement.feeUsd }} label={p.refundInput === "none" ? "Refund" : "Record refund"} big />
                  </>
                }
              >
                <ShortId value={p.id} what="payment id" testId="payment-id" />{" "}
                <StateBadge
                  status={p.status}
                  partiallyRefunded={p.partiallyRefunded}
                  settling={p.settling}
                  expired={Date.parse(p.expiresAt) < now}
                  reason={p.failure?.reason}
                />{" "}
                {p.unpaidDelivery && (
                  <span
                    className="ml-1 rounded bg-red-100 px-2 py-0.5 text-xs whitespace-nowrap text-red-900"
                    data-testid="unpaid-delivery"
                    title="The answer went out before the on-chain charge was included, and the charge failed: delivered, never paid for"
                  >
                    Unpaid delivery
                  </span>
                )}{" "}
                {p.rail ? `paid with ${railLabel(p.rail)}` : "not paid"} · created {utc(p.createdAt)}
              </PageHeader>
            </div>
            <MoneySection p={p} />
            <Summary p={p} />
            <Timeline p={p} />
            {p.card && <CardSection card={p.card} />}
            <RefundSection p={p} />
            <AuditSection p={p} />
            <TechnicalDetails p={p} />
          </div>
        )}
      </Loaded>
    </>
  );
}
