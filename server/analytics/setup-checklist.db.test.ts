// The overview's setup checklist (analytics.setupChecklist) and Settings' card processor (settings.cardProcessor), as
// the seller's console asks for them: a storefront with nothing set has all four items to do; each item is done once
// what it asks for is set (by the seller's own console calls where the console sets it), only the seller's own facts
// count, a disabled webhook endpoint does not, and the checklist is complete once all four are done.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { resetEnvForTests, withEnvForTests } from "../env";
import { createGatewaySeller } from "../testing/gateway";
import { createCaller, sessionFor } from "../testing/trpc";

const OFF = { CARD_TEST_PROCESSOR: "off", STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined };
let caller: ReturnType<typeof createCaller>;
let other: ReturnType<typeof createCaller>;
let mySellerId: string;

const done = async () => Object.fromEntries((await caller.analytics.setupChecklist()).items.map((i) => [i.key, i.done]));

beforeAll(async () => {
  process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "0";
  resetEnvForTests();
  const mine = await createGatewaySeller("http://127.0.0.1:9", { payTo: null });
  const theirs = await createGatewaySeller("http://127.0.0.1:9");
  const as = async (sellerId: string) => createCaller(sessionFor((await db.sellerUser.findFirstOrThrow({ where: { sellerId } })).id, sellerId));
  mySellerId = mine.sellerId;
  caller = await as(mine.sellerId);
  other = await as(theirs.sellerId);
});

describe("the setup checklist", () => {
  it("a storefront with nothing set has all four to do; each is done once set; complete when all are", async () => {
    // Another storefront with everything set lends this one nothing.
    await other.settings.updateMerchant({ contactEmail: "help@other.example", termsText: null, refundPolicy: null });
    await other.webhooks.createEndpoint({ url: "https://hooks.example.com/other" });

    await withEnvForTests(OFF, async () => {
      const c = await caller.analytics.setupChecklist();
      expect(c.items.map((i) => [i.key, i.done])).toEqual([
        ["contact", false],
        ["payout", false],
        ["card", false],
        ["webhooks", false],
      ]);
      expect(c).toMatchObject({ complete: false, contactEmail: null, payTo: null, cardProcessor: { processor: "none" }, enabledWebhooks: 0 });
      expect(await caller.settings.cardProcessor()).toEqual({ processor: "none" });

      await caller.settings.updateMerchant({ contactEmail: "support@mine.example", termsText: null, refundPolicy: null });
      expect(await done()).toEqual({ contact: true, payout: false, card: false, webhooks: false });
      expect((await caller.analytics.setupChecklist()).contactEmail).toBe("support@mine.example");
    });

    // A card processor is the deployment's: the test processor, or Stripe (its mode from the key, never the key).
    await withEnvForTests({ ...OFF, CARD_TEST_PROCESSOR: "on" }, async () => {
      expect(await caller.settings.cardProcessor()).toEqual({ processor: "test" });
      expect((await done()).card).toBe(true);
    });
    await withEnvForTests({ STRIPE_SECRET_KEY: "sk_test_checklist", STRIPE_WEBHOOK_SECRET: "whsec_checklist" }, async () => {
      expect(await caller.settings.cardProcessor()).toEqual({ processor: "stripe", mode: "test" });
      expect(JSON.stringify(await caller.analytics.setupChecklist())).not.toContain("sk_test_checklist");
    });
    await withEnvForTests({ STRIPE_SECRET_KEY: "sk_live_checklist", STRIPE_WEBHOOK_SECRET: "whsec_checklist" }, async () => {
      expect(await caller.settings.cardProcessor()).toEqual({ processor: "stripe", mode: "live" });
    });

    await withEnvForTests({ ...OFF, CARD_TEST_PROCESSOR: "on" }, async () => {
      // A disabled endpoint tells the seller's systems nothing: not done until one is enabled.
      const { endpoint } = await caller.webhooks.createEndpoint({ url: "https://hooks.example.com/mine" });
      await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { status: "disabled" } });
      expect((await done()).webhooks).toBe(false);
      await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { status: "enabled" } });
      expect(await done()).toEqual({ contact: true, payout: false, card: true, webhooks: true });
      expect((await caller.analytics.setupChecklist()).complete).toBe(false);

      // The payout wallet is set when the storefront is provisioned (not from the console).
      await db.seller.update({ where: { id: mySellerId }, data: { payToAddress: "0xBcd4042DE499D14e55001CcbB24a551F3b954096" } });
      const c = await caller.analytics.setupChecklist();
      expect(c.items.every((i) => i.done)).toBe(true);
      expect(c).toMatchObject({ complete: true, payTo: "0xBcd4042DE499D14e55001CcbB24a551F3b954096", enabledWebhooks: 1 });
    });
  });
});
