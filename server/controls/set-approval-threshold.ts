// A person's approval threshold at a storefront: for one credential they claimed, or for all of them ("*"). Empty
// removes it. The lower of the two that apply to a credential holds its calls above it. Effective at once on every
// instance (the row's trigger announces it on human_controls_changed; this instance forgets without waiting).
import { findThresholds, writeThreshold } from "../approvals/approvals.queries";
import { AppError } from "../errors";
import { newId } from "../lib/ids";
import { microsToUsd, parseUsd } from "../lib/money";
import { forgetControls } from "./credential-controls";

export async function setApprovalThreshold(person: { humanId: string; sellerId: string }, input: { credentialId: string | null; usd: string }): Promise<void> {
  const text = input.usd.trim();
  const micros = text === "" ? null : parseUsd(text);
  if (text !== "" && micros === null) throw new AppError("invalid_request", { detail: "a threshold is a dollar amount such as 0.50, or empty for none" });
  const ok = await writeThreshold({ id: newId("apt"), humanId: person.humanId, sellerId: person.sellerId, credentialId: input.credentialId, micros });
  if (!ok) throw new AppError("not_found", { detail: "no agent credential of yours has that id at this storefront" });
  forgetControls(input.credentialId ? `c:${input.credentialId}` : `h:${person.humanId}`);
}

/** The person's thresholds, keyed by scope ("*" or a credential id), in USD. */
export async function listApprovalThresholds(humanId: string, sellerId: string): Promise<Record<string, string>> {
  const rows = await findThresholds(humanId, sellerId);
  return Object.fromEntries(rows.map((r) => [r.scope, microsToUsd(r.thresholdMicros)]));
}
