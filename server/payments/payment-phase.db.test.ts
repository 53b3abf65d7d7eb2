// One status vocabulary on GET /payments/{id}, driven through real payments on every rail (x402 and MPP against anvil,
// the card rail's two ways against the test processor, plan credit): `phase` and `next` at each step, and "settlement
// pending" told apart from "unpaid". The rails' own conformance kits pay, the way their clients do.
import { encodeFunctionData } from "viem";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anvilAddress, anvilPrivateKey } from "../../scripts/lib/local-chain";
import { publicClient } from "../chain/clients";
import { CHAIN_ID, USDC_ADDRESS } from "../chain/config";
import { signEip1559Transaction } from "../chain/sign-transaction";
import { TOKEN_ABI } from "../chain/token";
import { db } from "../db/client";
import { renderEvent } from "../events/render-event";
import { openCheckoutOf, paymentStatus } from "../testing/card";
import { callGateway, payOn, usdcBalance, useGatewayStack, type FakeUpstream, type GatewaySeller, type TestChain } from "../testing/gateway";
import type { ProofWay } from "../testing/rail-conformance";
import { railFor } from "./rails";
import { kit as cardKit } from "./rails/card/conformance.test-kit";
import { flushCaptures } from "./rails/credits/capture-queue";
import { kit as creditsKit } from "./rails/credits/conformance.test-kit";
import { kit as mppKit } from "./rails/mpp/conformance.test-kit";
import { kit as x402Kit } from "./rails/x402/conformance.test-kit";
import { setInclusionEstimateForTests } from "./settle-payment";
import { readChallengeId, signChallengeId } from "./challenge-id";
import { resetEnvForTests } from "../env";

let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;
const SECRET = "fake-upstream-secret-0123456789";

const stack = () => ({ chain, upstream, seller });
const status = (id: string) => paymentStatus(seller.host, id);
const phaseOf = async (id: string) => {
  const s = await status(id);
  return { phase: s.phase, next: s.next };
};

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s), { ownChain: "its wallet-rail tests turn automine off and mine by hand" });

beforeEach(() => {
  setInclusionEstimateForTests(null);
});

type Way = ProofWay & { rail: string; challenged: boolean };
const WAYS: Way[] = [x402Kit, mppKit, cardKit, creditsKit].flatMap((k) => k.ways.map((w) => ({ ...w, rail: k.rail, challenged: k.rail !== "credits" })));

/** The paid call, with the payment it made and the response. A credits draw is charged off the response path: flushed. */
async function paidCall(way: Way) {
  const challenge = await callGateway(seller.host, way.path);
  expect(challenge.status).toBe(402);
  const challengeId = (await challenge.clone().json()).payment.id as string;
  const proof = await way.pay(challenge, stack());
  return { challengeId, proof };
}

describe.each(WAYS)("$rail: $name", (way) => {
  it("unpaid -> in progress while served -> paid (retry the same request, free) -> none once the re-delivery window passed", async () => {
    const { challengeId, proof } = await paidCall(way);
    // A 402's payment: unpaid until a proof answers it (a checkout a person paid is already paid).
    if (way.name.includes("hosted checkout")) expect(await phaseOf(challengeId)).toEqual({ phase: "paid", next: "retry_same_request" });
    else expect(await phaseOf(challengeId)).toEqual({ phase: "unpaid", next: "pay" });

    // Served right now: in progress, wait (never "unpaid": the agent must not pay again). A checkout paid in advance
    // stays paid while it is delivered.
    upstream.state.mode = { status: 200, delayMs: 400 };
    const started = new Date();
    const pending = callGateway(seller.host, way.path, { headers: proof });
    if (!way.name.includes("hosted checkout")) {
      const held = () =>
        way.challenged
          ? db.payment.findFirst({ where: { id: challengeId, status: "verified" } })
          : db.payment.findFirst({
              where: { sellerId: seller.sellerId, rail: "credits", status: "verified", createdAt: { gte: new Date(started.getTime() - 5_000) } },
            });
      await expect.poll(held, { timeout: 5_000, interval: 20 }).not.toBeNull();
      expect(await phaseOf((await held())!.id)).toEqual({ phase: "in_progress", next: "wait" });
    }
    const res = await pending;
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await flushCaptures();
    const id = res.headers.get("svc-payment-id")!;
    if (way.challenged) expect(id).toBe(challengeId);
    expect(await status(id)).toMatchObject({ status: "consumed", complete: true, phase: "paid", next: "retry_same_request" });

    // Past PAYMENT_REPLAY_HOURS (24) after the charge, a retry is not served free any more: nothing more to do.
    const dayAgo = new Date(Date.now() - 25 * 3_600_000);
    await db.payment.update({ where: { id }, data: { settledAt: dayAgo, verifiedAt: dayAgo, createdAt: dayAgo } });
    expect(await phaseOf(id)).toEqual({ phase: "paid", next: "none" });
  });

  it("an upstream failure: released, or refunded for a checkout paid in advance; pay again", async () => {
    const { proof } = await paidCall(way);
    upstream.state.mode = { status: 503 };
    const res = await callGateway(seller.host, way.path, { headers: proof });
    expect(res.status).toBe(503);
    const id = res.headers.get("svc-payment-id") ?? proof["svc-payment-id"]!;
    expect(id).toMatch(/^pay_/);
    expect(await status(id)).toMatchObject(
      way.name.includes("hosted checkout")
        ? { status: "refunded", phase: "refunded", next: "pay_again" }
        : { status: "released", reason: "upstream_error", phase: "released", next: "pay_again" },
    );
  });
});

describe("a 402 nobody paid", () => {
  it("is unpaid while open and expired once its challenge lapsed: pay, then pay again", async () => {
    const challenge = await callGateway(seller.host, x402Kit.ways[0]!.path);
    const id = (await challenge.json()).payment.id as string;
    expect(await status(id)).toMatchObject({ status: "challenged", phase: "unpaid", next: "pay" });
    // An unpaid 402 has no row (docs/challenges.md): the same terms, signed with an expiry that has passed.
    const read = readChallengeId(id);
    if (read.type !== "challenge") throw new Error(`not a signed challenge id: ${id}`);
    const lapsed = signChallengeId({ ...read.terms, expiresAt: Math.floor(Date.now() / 1000) - 1 });
    expect(await status(lapsed)).toMatchObject({ status: "challenged", phase: "expired", next: "pay_again" });
  });

  it("a card checkout: unpaid -> in progress while a person has it open (wait) -> expired once it closed unpaid (pay again)", async () => {
    const challenge = await callGateway(seller.host, cardKit.ways[0]!.path);
    const opened = await openCheckoutOf(seller.host, challenge);
    expect(await status(opened.paymentId)).toMatchObject({ status: "incomplete", phase: "in_progress", next: "wait", card: { status: "incomplete" } });
    await db.payment.update({ where: { id: opened.paymentId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await railFor("card").reconcile!();
    expect(await status(opened.paymentId)).toMatchObject({ status: "released", reason: "checkout_expired", phase: "expired", next: "pay_again" });
  });

  it("plan credit drawn with an Idempotency-Key replays; without one a retry is a new draw, so there is nothing to retry", async () => {
    const way = creditsKit.ways[0]!;
    const { "idempotency-key": _key, ...bearerOnly } = await way.pay(new Response(), stack());
    const res = await callGateway(seller.host, way.path, { headers: bearerOnly });
    expect(res.status).toBe(200);
    await flushCaptures();
    expect(await phaseOf(res.headers.get("svc-payment-id")!)).toEqual({ phase: "paid", next: "none" });
  });
});

describe.each([
  ["x402", 6],
  ["mpp", 7],
] as const)("delivered before inclusion (%s)", (rail, payer) => {
  // The chain mines only when told (evm_mine), as Base takes its 2 s: a signed transfer stays in flight until then.
  async function rpc(method: string, params: unknown[] = []): Promise<unknown> {
    const res = await fetch(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(body.error.message);
    return body.result;
  }
  const path = x402Kit.ways[0]!.path;

  /** A call answered before its transfer is included, and its payment id. */
  async function deliveredFirst() {
    setInclusionEstimateForTests(2_000);
    const proof = await payOn(rail, await callGateway(seller.host, path), payer);
    const res = await callGateway(seller.host, path, { headers: proof });
    expect(res.status).toBe(200);
    expect(res.headers.get("svc-billing")).toContain("status=settlement_pending");
    return res.headers.get("svc-payment-id")!;
  }

  // Delivery before inclusion is on in production ("auto"), off in the other tests' environment.
  let deliverBeforeInclusion: string | undefined;
  beforeEach(async () => {
    deliverBeforeInclusion = process.env.DELIVER_BEFORE_INCLUSION;
    process.env.DELIVER_BEFORE_INCLUSION = "auto";
    resetEnvForTests();
    await rpc("evm_setAutomine", [false]);
  });
  afterEach(async () => {
    if (deliverBeforeInclusion === undefined) delete process.env.DELIVER_BEFORE_INCLUSION;
    else process.env.DELIVER_BEFORE_INCLUSION = deliverBeforeInclusion;
    resetEnvForTests();
    await rpc("evm_setAutomine", [true]);
  });

  it("settlement pending (not unpaid: wait) until the transfer is included: paid", async () => {
    const id = await deliveredFirst();
    expect(await status(id)).toMatchObject({ status: "verified", complete: false, phase: "settlement_pending", next: "wait" });
    await rpc("evm_mine");
    await expect.poll(async () => (await status(id)).status, { timeout: 10_000 }).toBe("consumed");
    expect(await phaseOf(id)).toEqual({ phase: "paid", next: "retry_same_request" });
  });

  it("a transfer that fails after delivery (the payer emptied its wallet first): an unpaid delivery, nothing to do", async () => {
    const id = await deliveredFirst();
    // The payer moves its whole balance away with a higher tip, so its transfer goes first in the next block and the
    // settlement reverts. Signed here and sent raw: a wallet client would estimate against the pending block.
    const balance = await usdcBalance(chain.rpcUrl, anvilAddress(payer));
    const nonce = await publicClient(chain.rpcUrl).getTransactionCount({ address: anvilAddress(payer), blockTag: "pending" });
    await rpc("eth_sendRawTransaction", [
      signEip1559Transaction(anvilPrivateKey(payer), {
        type: "eip1559",
        chainId: CHAIN_ID,
        nonce,
        to: USDC_ADDRESS,
        data: encodeFunctionData({ abi: TOKEN_ABI, functionName: "transfer", args: [anvilAddress(8), balance] }),
        gas: 100_000n,
        maxPriorityFeePerGas: 50_000_000_000n,
        maxFeePerGas: 100_000_000_000n,
      }),
    ]);
    await rpc("evm_mine");
    await expect.poll(async () => (await status(id)).status, { timeout: 10_000 }).toBe("failed");
    expect(await status(id)).toMatchObject({ status: "failed", complete: false, phase: "unpaid_delivery", next: "none" });
    // The event of the change says the same (its snapshot, taken by the trigger, holds the settlement row).
    const events = await db.event.findMany({ where: { subjectId: id } });
    expect(events.map((e) => renderEvent(e, `http://${seller.host}`).data.object)).toEqual([await status(id)]);
  });
});
