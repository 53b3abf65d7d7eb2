// How plan credit pays, for the conformance battery: a fresh agent credential (registered through the identity routes)
// holding credit for exactly one call of the path on the seller's credit plan; its bearer token and an Idempotency-Key
// are the proof.
import { db } from "../../../db/client";
import { newId } from "../../../lib/ids";
import { registerAnonymous, routedStore } from "../../../testing/identity-harness";
import type { RailKit } from "../../../testing/rail-conformance";

const PRICE = 20_000n;

export const kit: RailKit = {
  rail: "credits",
  ways: [
    {
      name: "a plan's credit (the agent's bearer)",
      path: "/api/v1/aggregates/AAPL?from=2024-04-01&to=2024-04-30",
      receiptHeaders: [],
      async pay(_challenge, { seller }) {
        const agent = await registerAnonymous(routedStore(seller.host));
        const plan = await db.plan.findFirstOrThrow({ where: { sellerId: seller.sellerId, slug: "research-credits" } });
        // The grant's source: a purchase paid earlier (written directly; buying is not what is under test here).
        const source = await db.payment.create({
          data: {
            id: newId("pay"),
            sellerId: seller.sellerId,
            status: "consumed",
            rail: "x402",
            method: "POST",
            path: `/plans/${plan.id}/purchase`,
            query: "",
            operationKey: "plan_purchase",
            amountMicros: PRICE,
            credentialId: agent.credentialId,
            expiresAt: new Date(Date.now() + 86_400_000),
          },
        });
        await db.creditGrant.create({
          data: {
            id: newId("grt"),
            sellerId: seller.sellerId,
            planId: plan.id,
            credentialId: agent.credentialId,
            sourcePaymentId: source.id,
            amountMicros: PRICE,
            remainingMicros: PRICE,
            expiresAt: new Date(Date.now() + 86_400_000),
          },
        });
        // The same bearer and Idempotency-Key are "the same proof": its retries draw once (resumable delivery).
        return { authorization: `Bearer ${agent.token}`, "idempotency-key": newId("pay") };
      },
    },
  ],
};
