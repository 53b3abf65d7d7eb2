"use client";

import { useQuery } from "@tanstack/react-query";
import { cardProcessorWords } from "../../../_components/card-processor-words";
import { Section } from "../../../_components/section";
import { useTRPC } from "../../../providers";

/** Which processor takes card payments: a deployment setting, read-only here, in words. */
export function CardProcessor() {
  const trpc = useTRPC();
  const q = useQuery(trpc.settings.cardProcessor.queryOptions());
  if (!q.data) return null;
  const words = cardProcessorWords(q.data);
  return (
    <Section title="Card payments" testId="section-card-processor">
      <dl className="grid gap-2 text-sm sm:grid-cols-[12rem_1fr]">
        <dt className="text-slate-500">Card processor</dt>
        <dd data-testid="card-processor-name">{words.name}</dd>
        <dt className="text-slate-500">What it means</dt>
        <dd data-testid="card-processor-meaning">{words.meaning}</dd>
      </dl>
      <p className="mt-2 text-xs text-slate-500">Set by whoever runs this deployment (its environment), not from the console.</p>
    </Section>
  );
}
