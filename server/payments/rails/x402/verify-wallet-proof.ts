// The $0 wallet proof the free quote operation asks for (SERVICE.md part 4: x402 proof in `Payment-Signature`):
// an EIP-3009 TransferWithAuthorization of value 0 signed by the wallet. It proves control of the address and
// moves no money, so it is checked by signature alone (never settled, nothing to simulate), and must be fresh.
import { getAddress } from "viem";
import { signedByFrom } from "../../../chain/eip3009";
import { AppError } from "../../../errors";
import { walletProofRefused } from "../../proof-refused";
import type { WalletProofBinding } from "../rail";
import { verifyChallenge } from "./challenge-token";
import type { DecodedProof } from "./read-proof";

/** A $0 proof may be signed for at most this long (replaying it only re-reads free advice). */
const MAX_WINDOW_SECONDS = 3600;

export async function verifyX402WalletProof(proof: DecodedProof, binding: WalletProofBinding): Promise<{ wallet: string }> {
  const a = proof.authorization;
  const now = Math.floor(Date.now() / 1000);
  const fail = walletProofRefused;
  if (a.value !== "0") throw fail("not_zero_value", "the wallet proof must authorize a transfer of 0");
  if (Number(a.validAfter) > now || Number(a.validBefore) <= now || Number(a.validBefore) - now > MAX_WINDOW_SECONDS)
    throw fail("stale_proof", `the wallet proof must be valid now and for at most ${MAX_WINDOW_SECONDS} seconds`);
  if (getAddress(a.to) !== getAddress(binding.payTo)) throw fail("recipient_mismatch", "the wallet proof must name this seller's payTo");
  if (proof.version === 2) {
    const e = proof.accepted?.extra ?? {};
    const ok =
      typeof e.paymentId === "string" &&
      typeof e.challenge === "string" &&
      typeof e.expiresAt === "number" &&
      e.expiresAt > now &&
      verifyChallenge(
        {
          paymentId: e.paymentId,
          sellerId: binding.sellerId,
          method: binding.method,
          path: binding.path,
          query: "",
          amountMicros: 0n,
          payTo: binding.payTo,
          expiresAt: e.expiresAt,
        },
        e.challenge,
      );
    if (!ok) throw new AppError("payment_request_mismatch", { detail: "this wallet proof answers another challenge; request a fresh 402" });
  }
  const valid = await signedByFrom(a, proof.signature);
  if (!valid) throw fail("invalid_signature", "the wallet proof's signature does not verify");
  return { wallet: getAddress(a.from) };
}
