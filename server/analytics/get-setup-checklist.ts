// The overview's setup checklist: what a seller needs before a business runs on its own, each item done or not, in a
// fixed order. The payout wallet (without it every priced call answers 409 payout_address_required), the contact
// address payers read at checkout, a card processor (without one the card rail is not offered: a deployment setting,
// STRIPE_SECRET_KEY or CARD_TEST_PROCESSOR), and a webhook endpoint (so the seller's systems hear of payments and
// refunds). The console shows the list until every item is done.
import { cardProcessorStatus, type CardProcessorStatus } from "../payments/rails";
import { findSetupFacts } from "./setup-checklist.queries";

export const SETUP_ITEMS = ["contact", "payout", "card", "webhooks"] as const;
export type SetupItem = (typeof SETUP_ITEMS)[number];

export type SetupChecklist = {
  items: { key: SetupItem; done: boolean }[];
  /** Every item done: the console hides the checklist. */
  complete: boolean;
  contactEmail: string | null;
  payTo: string | null;
  cardProcessor: CardProcessorStatus;
  enabledWebhooks: number;
};

export async function getSetupChecklist(sellerId: string): Promise<SetupChecklist> {
  const facts = await findSetupFacts(sellerId);
  const cardProcessor = cardProcessorStatus();
  const done: Record<SetupItem, boolean> = {
    contact: facts.contactEmail !== null,
    payout: facts.payTo !== null,
    card: cardProcessor.processor !== "none",
    webhooks: facts.enabledWebhooks > 0,
  };
  const items = SETUP_ITEMS.map((key) => ({ key, done: done[key] }));
  return { items, complete: items.every((i) => i.done), ...facts, cardProcessor };
}
