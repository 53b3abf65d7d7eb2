// What a payer reads about the seller before paying (checkout page, front page): the seller's own words where given,
// and what the platform guarantees whatever the seller wrote (a card charge for something not delivered is refunded
// in full automatically: SERVICE.md part 3).
import { findMerchantInfo } from "./settings.queries";

export const AUTOMATIC_REFUND =
  "If what you paid for cannot be delivered, your card is refunded in full automatically; refunds reach your statement within 5 to 10 business days.";

export type MerchantInfo = { contactEmail: string | null; termsText: string | null; refundPolicy: string | null; automaticRefund: string };

export async function getMerchantInfo(sellerId: string): Promise<MerchantInfo> {
  return { ...(await findMerchantInfo(sellerId)), automaticRefund: AUTOMATIC_REFUND };
}
