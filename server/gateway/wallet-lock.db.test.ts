// The wallet rails verify a proof on the chain and lock it in PostgreSQL at the same time
// (server/payments/eip3009/verify-and-lock.ts). These tests hold the lock to what it was when it came after the
// verification: a proof the chain refuses is refused, serves nothing and leaves no lock behind, so once the wallet can
// pay, the very same proof pays the very same challenge; and concurrent copies of a refused proof never serve.
import { describe, expect, it } from "vitest";
import { anvilAddress, anvilPrivateKey } from "../../scripts/lib/local-chain";
import { publicClient, walletClient } from "../chain/clients";
import { USDC_ADDRESS } from "../chain/config";
import { TOKEN_ABI } from "../chain/token";
import { db } from "../db/client";
import {
  callGateway,
  payChallenge,
  payChallengeMpp,
  usdcBalance,
  useGatewayStack,
  type TestChain,
  type FakeUpstream,
  type GatewaySeller,
} from "../testing/gateway";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-01-02&to=2024-01-31";

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

/** Fund a wallet with 1 USDC from payer 8 (never the gateway's gas wallet, account 0: its nonces are the gateway's). */
async function fund(address: string): Promise<void> {
  const hash = await walletClient(chain.rpcUrl, anvilPrivateKey(8)).writeContract({
    address: USDC_ADDRESS,
    abi: TOKEN_ABI,
    functionName: "transfer",
    args: [address, 1_000_000n],
  });
  await publicClient(chain.rpcUrl).waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

const call = (headers: Record<string, string> = {}) => callGateway(seller.host, AAPL, { headers });

// Anvil accounts past the nine the chain funds: wallets with no USDC until a test funds them.
const cases = [
  { name: "x402 (v2, answering a challenge)", payer: 17, pay: (res: Response) => payChallenge(res, 17) },
  { name: "x402 (v1, no challenge: the row is born held)", payer: 18, pay: (res: Response) => payChallenge(res, 18, { v1: true }) },
  { name: "MPP", payer: 19, pay: (res: Response) => payChallengeMpp(res, 19) },
];

describe.each(cases)("a wallet proof the chain refuses: $name", ({ payer, pay }) => {
  it("is refused without serving or locking anything, and pays once the wallet can", async () => {
    const wallet = anvilAddress(payer);
    expect(await usdcBalance(chain.rpcUrl, wallet)).toBe(0n);
    const proof = await pay(await call());
    const callsBefore = upstream.state.calls;

    const refused = await call(proof);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ error: "settlement_failed", settlementReason: "insufficient_funds" });
    // Concurrent copies race for the lock while the chain says no: none is served, each gets a 4xx.
    const copies = await Promise.all(Array.from({ length: 10 }, () => call(proof)));
    for (const r of copies) expect([402, 409]).toContain(r.status);
    expect(upstream.state.calls).toBe(callsBefore);
    // No lock is left behind: no payment names this wallet (a challenge is open again, a born-held row is gone).
    expect(await db.payment.count({ where: { payer: wallet.toLowerCase() } })).toBe(0);

    await fund(wallet);
    const before = await usdcBalance(chain.rpcUrl, wallet);
    const paid = await call(proof);
    expect(paid.status).toBe(200);
    expect(upstream.state.calls).toBe(callsBefore + 1);
    expect(await usdcBalance(chain.rpcUrl, wallet)).toBe(before - 20_000n);
    expect(await db.payment.findFirstOrThrow({ where: { payer: wallet.toLowerCase() } })).toMatchObject({ status: "consumed" });
  });
});
