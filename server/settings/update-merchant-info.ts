// The seller's contact, terms and refund policy: what a payer reads on the card checkout and the storefront's front
// page before paying a stranger. Validated here (every caller gets the same message); saved with a settings.update
// audit row in the same transaction. Empty text clears a field (the pages then say it was not given).
import { z } from "zod";
import { parseWith } from "../validation";
import { saveMerchantInfo, type MerchantInfoRow } from "./settings.queries";

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `at most ${max} characters`)
    .transform((v) => v || null)
    .nullable();

export const merchantInfoInput = z.object({
  contactEmail: z
    .string()
    .trim()
    .max(254)
    .refine((v) => v === "" || z.email().safeParse(v).success, "must be an email address a payer can write to")
    .transform((v) => v.toLowerCase() || null)
    .nullable(),
  termsText: text(4000),
  refundPolicy: text(2000),
});

export async function updateMerchantInfo(input: { sellerId: string; actorId: string | null; info: unknown }): Promise<MerchantInfoRow> {
  const info = parseWith(merchantInfoInput, input.info);
  return saveMerchantInfo({
    sellerId: input.sellerId,
    actorId: input.actorId,
    info: { contactEmail: info.contactEmail ?? null, termsText: info.termsText ?? null, refundPolicy: info.refundPolicy ?? null },
  });
}
