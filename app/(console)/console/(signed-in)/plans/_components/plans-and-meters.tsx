"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../../providers";
import { OwnerOnly } from "../../../_components/owner-only";
import { LINK, Loaded, PageHeader } from "../../../_components/section";
import { MetersTable, ServicesList } from "./catalog-tables";
import { CreatePlan } from "./create-plan";
import { MeterUsage } from "./meter-usage";
import { PlansTable } from "./plans-table";

export function PlansAndMeters() {
  const trpc = useTRPC();
  const overview = useQuery(trpc.catalog.overview.queryOptions());
  const meterChoices = (overview.data?.meters ?? [])
    .filter((m) => m.priceUsd !== null && m.priceUsd !== "0.000000")
    .map((m) => ({ key: m.key, title: m.title }));
  return (
    <>
      <PageHeader
        title="Plans and meters"
        actions={
          overview.data ? (
            <OwnerOnly>
              <CreatePlan meters={meterChoices} />
            </OwnerOnly>
          ) : null
        }
      >
        What the storefront sells: pay-as-you-go on every priced call, and prepaid credit plans that calls on their meters draw down at the per-request prices.
        A change to a plan is previewed, then applies to the next purchase and shows in /manifest.json at once; credit already bought keeps its amount and
        expiry. Prices are changed on{" "}
        <Link href="/console/prices" className={LINK}>
          Prices
        </Link>
        .
      </PageHeader>
      <PlansTable meters={meterChoices} />
      <MeterUsage />
      <Loaded query={overview} what="the catalog">
        {(o) => (
          <>
            <MetersTable o={o} />
            <ServicesList o={o} />
          </>
        )}
      </Loaded>
    </>
  );
}
