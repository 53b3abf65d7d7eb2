// The seller's new business pages in Chromium, at a laptop's width (1440x900) and a phone's (390x844), as the demo
// seller: a customer's page (a wallet; a person by email) leads with spend net of refunds and lists their payments; the
// Refunds page shows each refund's status, reason and the card's re_... id, filters by status, and downloads the same
// rows as a CSV in dollars and cents. Nothing scrolls sideways and axe finds no serious or critical violation. The rows
// are written straight into the e2e database (the figures per query are checked in the *.db.test.ts files).
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { query } from "../stack";
import { axeProblems, axeRuleProblems, attachScreenshot } from "./page-checks";
import { DEMO, signIn } from "./sellers";

const tag = randomBytes(4).toString("hex");
const WALLET = `0x${randomBytes(20).toString("hex")}`;
const EMAIL = `refund-${tag}@example.com`;
const RE = `re_e2e_${tag}`;
const TX = `0x${randomBytes(32).toString("hex")}`;
// The aggregates operation by its title in the console (its catalog summary).
const AGGREGATES_TITLE = "OHLCV price bars for a US-listed stock or ETF";
// The one Copy button: its name begins with the word it shows, and it is at least 24 px square (WCAG 2.5.3, 2.5.8).
const COPY_RULES = ["label-content-name-mismatch", "target-size"];

async function paymentWithRefund(id: string, rail: string, micros: number, payer: string | null, tx: string | null) {
  const [seller] = await query<{ seller_id: string; id: string }>(`select seller_id, id from seller_users where email = $1`, [DEMO.email]);
  await query(
    `insert into payments (id, seller_id, status, rail, method, path, query, operation_key, amount_micros, payer, network, expires_at, created_at, updated_at)
     values ($1, $2, 'refunded', $3, 'GET', '/api/v1/aggregates/AAPL', 'from=2024-07-01', 'aggregates', $4, $5, $6, now(), now() - interval '1 hour', now())`,
    [id, seller!.seller_id, rail, micros, payer, rail === "card" ? null : "eip155:8453"],
  );
  for (const kind of ["charge", "refund"])
    await query(
      `insert into ledger_entries (id, seller_id, payment_id, kind, rail, operation_key, payer, amount_micros, transaction, log_index)
       values ($1, $2, $3, $4, $5, 'aggregates', $6, $7, $8, $9)`,
      [`led_e2e${kind}${id.slice(-12)}`, seller!.seller_id, id, kind, rail, payer, micros, kind === "refund" ? tx : null, kind === "refund" && tx ? 0 : null],
    );
  return seller!;
}

test.beforeAll(async () => {
  const seller = await paymentWithRefund(`pay_e2ew${tag}`, "x402", 20_000, WALLET, TX);
  await query(
    `insert into audit_logs (id, seller_id, actor_id, action, target_type, target_id, after) values ($1, $2, $3, 'payment.refund', 'payment', $4, $5)`,
    [`aud_e2e${tag}`, seller.seller_id, seller.id, `pay_e2ew${tag}`, JSON.stringify({ reason: "asked for the wrong ticker" })],
  );
  await paymentWithRefund(`pay_e2ec${tag}`, "card", 1_250_000, null, null);
  await query(
    `insert into card_payments (payment_id, processor, flow, payer_email, card_brand, card_last4, refund_status, refund_id, refund_cause, updated_at)
     values ($1, 'test', 'checkout', $2, 'visa', '4242', 'succeeded', $3, 'seller', now())`,
    [`pay_e2ec${tag}`, EMAIL, RE],
  );
  // The refund's own processor side (one card_refunds row per refund since partial refunds).
  await query(
    `insert into card_refunds (payment_id, seq, amount_micros, status, processor_refund_id, cause, updated_at) values ($1, 0, 1250000, 'succeeded', $2, 'seller', now())`,
    [`pay_e2ec${tag}`, RE],
  );
});

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test.describe(`at ${width}px`, () => {
    test.use({ viewport: { width, height } });

    test("a customer's page leads with their money and lists their payments", async ({ page }, testInfo) => {
      await signIn(page, DEMO);
      await page.goto(`/console/customers/${WALLET}`);
      await expect(page.getByTestId("customer-net-value")).toHaveText("$0.00");
      await expect(page.getByTestId("customer-refunded-value")).toHaveText("$0.02");
      await expect(page.getByTestId("customer-payment-row")).toHaveCount(1);
      await expect(page.getByTestId("customer-payment-row").getByTestId("payment-state")).toHaveText("Refunded");
      await expect(page.getByTestId("customer-payment-operation")).toHaveText(AGGREGATES_TITLE);
      await expect(page.getByTestId("customer-payment-operation")).toHaveAttribute("data-operation", "aggregates");
      await expect(page.getByTestId("customer-who").getByRole("button", { name: "Copy wallet" })).toHaveAttribute("data-copy", WALLET);
      expect(await axeRuleProblems(page, `customer wallet ${width}`, COPY_RULES)).toEqual([]);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      expect(await axeProblems(page, `customer wallet ${width}`)).toEqual([]);
      await attachScreenshot(page, testInfo, `customer-wallet-${width}`);

      await page.goto(`/console/customers/${encodeURIComponent(EMAIL)}`);
      await expect(page.getByRole("heading", { level: 1, name: EMAIL })).toBeVisible();
      await expect(page.getByTestId("customer-who")).toContainText("VISA •••• 4242");
      await expect(page.getByTestId("customer-refunded-value")).toHaveText("$1.25");
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      expect(await axeProblems(page, `customer email ${width}`)).toEqual([]);

      await page.goto(`/console/customers/0x${"0".repeat(40)}`);
      await expect(page.getByRole("alert").filter({ hasText: "Could not load this customer" })).toContainText("no customer with this id");
    });

    test("the Refunds page: status, reason, the card's refund id, filters, totals and the CSV", async ({ page }, testInfo) => {
      await signIn(page, DEMO);
      await page.goto("/console/refunds");
      const card = page.getByTestId(`refund-row-pay_e2ec${tag}`);
      await expect(card.getByTestId("refund-status")).toHaveText("Refunded");
      await expect(card.getByTestId("refund-processor-id")).toHaveAttribute("title", RE);
      await expect(card).toContainText(EMAIL);
      const wallet = page.getByTestId(`refund-row-pay_e2ew${tag}`);
      await expect(wallet.getByTestId("refund-reason")).toHaveText("asked for the wrong ticker");
      await expect(wallet.getByTestId("refund-payment-link")).toHaveAttribute("href", `/console/payments/pay_e2ew${tag}`);
      await expect(wallet.getByRole("button", { name: "Copy refund transaction" })).toBeVisible();
      // Each id shown short, the whole value one copy away, through the one Copy button.
      await expect(wallet.getByRole("button", { name: "Copy refund transaction" })).toHaveAttribute("data-copy", TX);
      await expect(wallet.getByRole("button", { name: "Copy wallet address" })).toHaveAttribute("data-copy", WALLET);
      await expect(card.getByRole("button", { name: "Copy card refund id" })).toHaveAttribute("data-copy", RE);
      for (const b of await page.locator("button[data-copy]").all()) {
        const size = (await b.boundingBox())!;
        expect(Math.min(size.width, size.height)).toBeGreaterThanOrEqual(24);
      }
      expect(await axeRuleProblems(page, `refunds ${width}`, COPY_RULES)).toEqual([]);
      await expect(wallet.getByTestId("refund-operation")).toHaveText(AGGREGATES_TITLE);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      expect(await axeProblems(page, `refunds ${width}`)).toEqual([]);
      await attachScreenshot(page, testInfo, `refunds-${width}`);

      await page.getByTestId("refund-filter-rail").selectOption("card");
      await expect(page).toHaveURL(/rail=card/);
      await expect(wallet).toHaveCount(0);
      await expect(card).toBeVisible();
      const download = page.waitForEvent("download");
      await page.getByTestId("refunds-export").click();
      const csv = fs.readFileSync((await (await download).path())!, "utf8");
      const line = csv.split("\r\n").find((l) => l.includes(`pay_e2ec${tag}`))!;
      expect(line).toContain(",1.25,USD,Refunded,");
      expect(line).toContain(RE);
      expect(line).toContain("VISA •••• 4242");

      // A reversed range is said at once, in words.
      await page.goto("/console/refunds?from=2026-03-02&to=2026-03-01");
      await expect(page.getByTestId("refunds-range-problem")).toContainText("ends before it starts");
      expect(await axeProblems(page, `refunds reversed ${width}`)).toEqual([]);
    });
  });
}
