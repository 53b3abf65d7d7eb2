"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { cardProcessorWords } from "../../_components/card-processor-words";
import { LINK, Section } from "../../_components/section";
import type { Outputs } from "../../_components/types";
import { useTRPC } from "../../providers";

type Checklist = Outputs["analytics"]["setupChecklist"];
type Item = Checklist["items"][number];

/** Each item in words: what it is, what is set when done, and where to do it when not. */
function describe(item: Item, c: Checklist): { title: string; done: string; todo: string; href: string; action: string } {
  switch (item.key) {
    case "contact":
      return {
        title: "Contact address",
        done: `Payers see ${c.contactEmail} on the checkout and your front page.`,
        todo: "Payers see no way to reach you on the checkout and your front page.",
        href: "/console/settings",
        action: "Add it in Settings",
      };
    case "payout":
      return {
        title: "Payout wallet",
        done: `Payments are paid to ${c.payTo}.`,
        todo: "No payout wallet: every priced call answers 409 payout_address_required. An owner sets it in Settings.",
        href: "/console/settings#payout-wallet",
        action: "Set it in Settings",
      };
    case "card":
      return {
        title: "Card processor",
        done: `${cardProcessorWords(c.cardProcessor).name} takes card payments.`,
        todo: cardProcessorWords(c.cardProcessor).meaning,
        href: "/console/settings",
        action: "See card payments in Settings",
      };
    case "webhooks":
      return {
        title: "Webhooks",
        done: `${c.enabledWebhooks} endpoint${c.enabledWebhooks === 1 ? "" : "s"} hear of payments and refunds.`,
        todo: "Your systems hear of nothing: add an endpoint to be sent payments, refunds and alerts.",
        href: "/console/webhooks",
        action: "Add an endpoint",
      };
  }
}

/** What is left to set up, shown on the overview until every item is done. */
export function SetupChecklist() {
  const trpc = useTRPC();
  const q = useQuery(trpc.analytics.setupChecklist.queryOptions());
  const c = q.data;
  if (!c || c.complete) return null;
  const left = c.items.filter((i) => !i.done).length;
  return (
    <Section title="Set up your storefront" testId="setup-checklist">
      <p className="mb-3 text-sm text-slate-600">
        {left} of {c.items.length} left. This list goes away once everything is done.
      </p>
      <ul className="grid gap-3">
        {c.items.map((item) => {
          const d = describe(item, c);
          return (
            <li key={item.key} className="flex flex-wrap items-start gap-3 text-sm" data-testid={`setup-${item.key}`} data-done={item.done}>
              <span
                className={`shrink-0 rounded px-2 py-0.5 text-xs font-medium ${item.done ? "bg-emerald-50 text-emerald-800" : "bg-amber-50 text-amber-800"}`}
              >
                {item.done ? "Done" : "To do"}
              </span>
              <div className="min-w-0 grow">
                <div className="font-medium text-slate-900">{d.title}</div>
                <p className="text-slate-600 [overflow-wrap:anywhere]">{item.done ? d.done : d.todo}</p>
                {!item.done && (
                  <Link href={d.href} className={LINK} data-testid={`setup-${item.key}-link`}>
                    {d.action}
                  </Link>
                )}
              </div>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
