// The storefront's payout wallet (sellers.pay_to_address, the payTo every 402 offers) changed from the console, as a
// payments dashboard treats a change of bank account: the address is checked before anything else (a typo spends no
// code), then the member proves who they are (`confirm`, the console's password and second factor, given by the
// caller: this floor knows no sign-in), then the row and its audit row are written in one transaction. Money in flight
// is not carried over: a challenge issued to the old address is refused with a fresh offer naming the new one
// (docs/security.md "Changing the payout wallet"); payments already made keep the payTo they were paid to.
import { getAddress, isAddress, zeroAddress } from "viem";
import { AppError, invalidParameter } from "../errors";
import { invalidateSeller } from "../catalog/resolve-seller";
import { findPayoutAddress, savePayoutAddress } from "./settings.queries";

export type PayoutChange = { previous: string | null; payTo: string; changedAt: Date };

/** The address in its EIP-55 checksum form, or the reason it cannot be a payout wallet. */
export function parsePayoutAddress(raw: string): string {
  const text = raw.trim();
  // strict: false takes an all-lower-case or all-upper-case address as typed; a mixed-case one must carry a valid checksum.
  if (!isAddress(text, { strict: false })) throw invalidParameter("address", "give a wallet address on Base: 0x followed by 40 hexadecimal characters");
  if (text !== text.toLowerCase() && text.slice(2) !== text.slice(2).toUpperCase() && !isAddress(text, { strict: true }))
    throw invalidParameter("address", "this address's mixed-case checksum is wrong: it was mistyped; copy it again from your wallet");
  const address = getAddress(text);
  if (address === zeroAddress) throw invalidParameter("address", "the zero address burns what is paid to it; give a wallet you control");
  return address;
}

export async function setPayoutAddress(input: { sellerId: string; actorId: string; address: string; confirm: () => Promise<void> }): Promise<PayoutChange> {
  const payTo = parsePayoutAddress(input.address);
  const previous = await findPayoutAddress(input.sellerId);
  if (previous !== null && getAddress(previous) === payTo) throw invalidParameter("address", "this is already the payout wallet");
  await input.confirm();
  const changedAt = await savePayoutAddress({ sellerId: input.sellerId, actorId: input.actorId, expected: previous, address: payTo });
  if (!changedAt)
    throw new AppError("invalid_request", {
      reason: "changed_meanwhile",
      detail: "the payout wallet was changed by someone else meanwhile; reload and check it",
    });
  // This instance forgets the seller now; the others hear the sellers trigger's notice at commit.
  invalidateSeller(input.sellerId);
  return { previous, payTo, changedAt };
}
