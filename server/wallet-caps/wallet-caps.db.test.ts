// Wallet caps from the person's side and the agent's, in process against real PostgreSQL and a real anvil chain: a
// person links a wallet by signing an EIP-4361 message (a forged or replayed one is refused) and caps it; x402 and MPP
// payments from it at this storefront honour the caps with no credential at all, exactly under concurrency (the day's
// conditional UPDATE), refused before anything is charged.
import { privateKeyToAccount } from "viem/accounts";
import { beforeAll, describe, expect, it } from "vitest";
import { anvilAddress, anvilPrivateKey } from "../../scripts/lib/local-chain";
import { db } from "../db/client";
import { callGateway, payChallenge, payChallengeMpp, usdcBalance, useGatewayStack, type GatewaySeller, type TestChain } from "../testing/gateway";
import { signInHuman, useDevOutbox } from "../testing/identity-harness";
import { linkWallet, setWalletCaps, walletLinkMessage } from "./link-wallet";

let chain: TestChain;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";
const uniq = () => Math.random().toString(36).slice(2, 8);

useGatewayStack(SECRET, (s) => ({ chain, seller } = s));
beforeAll(() => useDevOutbox());

async function personWithWallet(payer: number) {
  const human = await signInHuman(`wallet-${uniq()}@example.com`);
  const person = { humanId: human.id, sellerId: seller.sellerId };
  const origin = `http://${seller.host}`;
  const account = privateKeyToAccount(anvilPrivateKey(payer) as `0x${string}`);
  const message = await walletLinkMessage(person, { address: account.address, origin });
  const wallet = await linkWallet(person, { message, signature: await account.signMessage({ message }), origin });
  return { person, wallet, origin, account, message };
}

const path = (n: number) => `/api/v1/aggregates/AAPL?from=2024-01-02&to=2024-01-${String(10 + n).padStart(2, "0")}`;

describe("a capped wallet", () => {
  it("is linked only by a fresh message its key signed", async () => {
    const { person, origin, account, message } = await personWithWallet(8);
    // The same message again: its nonce is spent.
    await expect(linkWallet(person, { message, signature: await account.signMessage({ message }), origin })).rejects.toMatchObject({ code: "invalid_request" });
    // Signed by another key.
    const fresh = await walletLinkMessage(person, { address: account.address, origin });
    const other = privateKeyToAccount(anvilPrivateKey(9) as `0x${string}`);
    await expect(linkWallet(person, { message: fresh, signature: await other.signMessage({ message: fresh }), origin })).rejects.toMatchObject({
      code: "invalid_request",
    });
    // For another site.
    const elsewhere = await walletLinkMessage(person, { address: account.address, origin: "http://evil.test" });
    await expect(linkWallet(person, { message: elsewhere, signature: await account.signMessage({ message: elsewhere }), origin })).rejects.toMatchObject({
      code: "invalid_request",
    });
  });

  it("pays at most its day's cap however many calls race, on x402 and MPP, with no credential; over the per-call cap, nothing", async () => {
    const payer = 5;
    const { person, wallet } = await personWithWallet(payer);
    await setWalletCaps(person, { wallet, perCallUsd: "", perDayUsd: "0.05" });
    const before = await usdcBalance(chain.rpcUrl, anvilAddress(payer));
    const proofs = await Promise.all(Array.from({ length: 6 }, async (_, i) => payChallenge(await callGateway(seller.host, path(i)), payer)));
    const answers = await Promise.all(proofs.map((p, i) => callGateway(seller.host, path(i), { headers: p })));
    const statuses = await Promise.all(answers.map(async (r) => `${r.status} ${await r.clone().text()}`.slice(0, 200)));
    expect(
      answers.filter((r) => r.status === 200),
      statuses.join("\n"),
    ).toHaveLength(2);
    const refused = answers.filter((r) => r.status === 403);
    expect(refused).toHaveLength(4);
    expect(await refused[0]!.json()).toMatchObject({ error: "wallet_cap_exceeded", reason: "per_day", limitUsd: "0.050000", remainingUsd: "0.010000" });
    expect(await usdcBalance(chain.rpcUrl, anvilAddress(payer))).toBe(before - 40_000n);

    const mpp = await callGateway(seller.host, path(7), { headers: await payChallengeMpp(await callGateway(seller.host, path(7)), payer) });
    expect(mpp.status).toBe(403);
    expect((await mpp.json()).error).toBe("wallet_cap_exceeded");
    expect(await usdcBalance(chain.rpcUrl, anvilAddress(payer))).toBe(before - 40_000n);

    await setWalletCaps(person, { wallet, perCallUsd: "0.01", perDayUsd: "" });
    const perCall = await callGateway(seller.host, path(8), { headers: await payChallenge(await callGateway(seller.host, path(8)), payer) });
    expect(await perCall.json()).toMatchObject({ error: "wallet_cap_exceeded", reason: "per_call", limitUsd: "0.010000" });
    // Another wallet is not this person's to cap.
    await expect(setWalletCaps(person, { wallet: anvilAddress(11), perCallUsd: "1", perDayUsd: "" })).rejects.toMatchObject({ code: "not_found" });
    expect(await db.walletCapDay.count({ where: { sellerId: seller.sellerId, wallet } })).toBe(1);
  });
});
