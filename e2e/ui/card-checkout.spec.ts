// Paying a priced 402 by card, as SERVICE.md part 4 describes it, against the built app with the built-in test
// processor: an agent script gets the backtest's $0.50 402, POSTs {checkout: true} to its payUrl, a human opens the
// hosted page in Chromium and pays with Stripe's success test card, statusUrl turns complete, the retry with
// svc-payment-id returns the backtest with its PNG, and a second retry is served again, charged once. The decline card ends in a
// clear failed state; a storefront whose upstream never answers refunds the card in full, the ledger balanced; the
// seller sees the card payment in the console and refunds it with one click.
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { query } from "../stack";
import { FLAKY as FLAKY_ACCOUNT, signIn } from "./sellers";

const BACKTEST = "/api/v1/backtest/AAPL?strategy=sma_cross&fast=20&slow=50&years=2";
const PORT = Number(process.env.E2E_PORT ?? 3100);
const FLAKY = `flaky-seller.localhost:${PORT}`;

type Opened = { paymentId: string; payUrl: string; statusUrl: string; checkoutUrl: string };

/**
 * The agent's side: the 402, then POST {checkout: true} to its payUrl. `host`: another storefront on this server (its
 * links name that host; Node does not resolve *.localhost, so the agent sends them to this server with the Host header).
 */
async function agentOpensCheckout(request: APIRequestContext, host?: string): Promise<Opened> {
  const headers = host ? { host } : undefined;
  const res = await request.get(BACKTEST, { headers });
  expect(res.status()).toBe(402);
  const { payment, card } = await res.json();
  expect(payment.amount).toBe("0.500000");
  const opened = await request.post(host ? new URL(card.payUrl).pathname : card.payUrl, { data: { checkout: true }, headers });
  expect(opened.status()).toBe(200);
  const body = await opened.json();
  expect(body.checkout).toMatchObject({ processor: "test", test_mode: true });
  return { paymentId: payment.id, payUrl: card.payUrl, statusUrl: host ? new URL(card.statusUrl).pathname : card.statusUrl, checkoutUrl: body.checkout.url };
}

/** The human's side: the hosted page, with what is bought on it, paid with `card`. */
async function humanPays(page: Page, url: string, card: string, seller: string) {
  await page.goto(url);
  await expect(page.getByTestId("test-mode-banner")).toContainText("Test processor");
  await expect(page.getByTestId("purchase-title")).toHaveText("Strategy backtest with a PNG equity-curve report");
  await expect(page.getByTestId("purchase-detail")).toContainText("GET /api/v1/backtest/AAPL?");
  await expect(page.getByTestId("purchase-seller")).toHaveText(seller);
  await expect(page.getByTestId("purchase-amount")).toContainText("$0.50");
  await expect(page.getByTestId("back-link")).toHaveAttribute("href", "/");
  await page.getByLabel("Card number").fill(card);
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  // A double click: the button is disabled after the first, and the server confirms the attempt once anyway.
  await page.getByTestId("pay-button").dblclick();
}

const status = async (request: APIRequestContext, url: string, host?: string) => (await request.get(url, { headers: host ? { host } : undefined })).json();

test("an agent's $0.50 backtest paid by a human on the hosted page: complete, served with its PNG, charged once, served again on a retry", async ({
  page,
  request,
}) => {
  const opened = await agentOpensCheckout(request);
  expect(await status(request, opened.statusUrl)).toMatchObject({ status: "incomplete", card: { status: "incomplete" } });
  // Retrying before the human paid is payment_incomplete.
  const early = await request.get(BACKTEST, { headers: { "svc-payment-id": opened.paymentId } });
  expect(early.status()).toBe(402);
  expect((await early.json()).error).toBe("payment_incomplete");

  await humanPays(page, opened.checkoutUrl, "4242 4242 4242 4242", "Demo Market Data");
  await expect(page.getByTestId("checkout-complete")).toContainText("Payment received");
  await expect(page.getByTestId("receipt-card")).toHaveText("VISA •••• 4242");
  await expect(page.getByTestId("receipt")).toContainText("$0.50 USD");

  // The agent polls statusUrl until complete.
  await expect.poll(async () => (await status(request, opened.statusUrl)).card.status).toBe("complete");
  const paid = await status(request, opened.statusUrl);
  expect(paid).toMatchObject({ status: "settled", complete: true, rail: "card", card: { brand: "visa", last4: "4242" } });

  // The retry, unchanged but for svc-payment-id: the backtest, with its hosted PNG.
  const served = await request.get(BACKTEST, { headers: { "svc-payment-id": opened.paymentId } });
  expect(served.status()).toBe(200);
  expect(served.headers()["svc-billing"]).toMatch(/rail=card;.*status=charged/);
  const backtest = await served.json();
  expect(backtest).toMatchObject({ ticker: "AAPL", strategy: { kind: "sma_cross" }, artifact: { format: "png" } });
  const png = await request.get(backtest.artifact.url);
  expect(png.status()).toBe(200);
  expect(png.headers()["content-type"]).toBe("image/png");
  expect((await png.body()).subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");

  // Issue 23 changed this step (resumable delivery): the second retry was `payment_consumed`; it is served again.
  const second = await request.get(BACKTEST, { headers: { "svc-payment-id": opened.paymentId } });
  expect(second.status()).toBe(200);
  expect(second.headers()["svc-billing"]).toMatch(/rail=card;.*status=charged; replay=true/);
  // One charge for the double click, the page's receipt now says delivered.
  const ledger = await query<{ kind: string; amount_micros: string }>("select kind, amount_micros::text from ledger_entries where payment_id = $1", [
    opened.paymentId,
  ]);
  expect(ledger).toEqual([{ kind: "charge", amount_micros: "500000" }]);
  await page.reload();
  await expect(page.getByTestId("checkout-complete")).toContainText("Your agent has received what it paid for");
});

test("the decline card ends in a clear failed state: nothing charged, the agent's retry is payment_incomplete", async ({ page, request }) => {
  const opened = await agentOpensCheckout(request);
  await humanPays(page, opened.checkoutUrl, "4000 0000 0000 0002", "Demo Market Data");
  await expect(page.getByTestId("checkout-failed")).toContainText("Payment failed");
  await expect(page.getByTestId("decline-message")).toHaveText("Your card was declined. (generic decline)");
  await expect(page.getByTestId("checkout-failed")).toContainText("You were not charged");
  // The human may try another card: the form is there again, empty.
  await expect(page.getByLabel("Card number")).toHaveValue("");
  const s = await status(request, opened.statusUrl);
  expect(s).toMatchObject({
    status: "incomplete",
    complete: false,
    card: { status: "incomplete", last_error: { code: "card_declined", decline_code: "generic_decline" } },
  });
  const retry = await request.get(BACKTEST, { headers: { "svc-payment-id": opened.paymentId } });
  expect(retry.status()).toBe(402);
  expect((await retry.json()).error).toBe("payment_incomplete");
  expect(await query("select 1 from ledger_entries where payment_id = $1", [opened.paymentId])).toEqual([]);
  // The back link leads back to the storefront.
  await page.getByTestId("back-link").click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Market and economic data, paid per request");
});

test("a delivery that fails after the card was charged is refunded in full; the ledger balances", async ({ page, request }) => {
  const opened = await agentOpensCheckout(request, FLAKY);
  expect(opened.checkoutUrl).toBe(`http://${FLAKY}/checkout/${opened.paymentId}`);
  // Chromium resolves *.localhost to this machine: the flaky storefront's own page.
  await humanPays(page, opened.checkoutUrl, "4242 4242 4242 4242", "Flaky Upstream Data");
  await expect(page.getByTestId("checkout-complete")).toBeVisible();

  const failed = await request.get(BACKTEST, { headers: { host: FLAKY, "svc-payment-id": opened.paymentId } });
  expect(failed.status()).toBe(502);
  expect(await failed.json()).toMatchObject({ error: "upstream_unavailable", refunded: true });
  expect(failed.headers()["svc-billing"]).toMatch(/status=refunded; refunded_usd=0\.500000; charged_usd=0\.000000/);

  expect(await status(request, opened.statusUrl, FLAKY)).toMatchObject({
    status: "refunded",
    refund: { amount: "0.500000" },
    card: { status: "refunded", refund: { status: "succeeded", cause: "delivery_failed" } },
  });
  const ledger = await query<{ kind: string; amount_micros: string }>(
    "select kind, amount_micros::text from ledger_entries where payment_id = $1 order by created_at",
    [opened.paymentId],
  );
  expect(ledger).toEqual([
    { kind: "charge", amount_micros: "500000" },
    { kind: "refund", amount_micros: "500000" },
  ]);
  const again = await request.get(BACKTEST, { headers: { host: FLAKY, "svc-payment-id": opened.paymentId } });
  expect(again.status()).toBe(409);
  expect((await again.json()).error).toBe("payment_refunded");
  await page.reload();
  await expect(page.getByTestId("checkout-refunded")).toContainText("Refunded in full");
  await expect(page.getByTestId("checkout-refunded")).toContainText("could not be delivered");
});

test("another storefront's payment has no checkout here: its page is a 404", async ({ page, request }) => {
  const opened = await agentOpensCheckout(request, FLAKY);
  const res = await page.goto(`/checkout/${opened.paymentId}`);
  expect(res?.status()).toBe(404);
  const pay = await request.post(`/payments/${opened.paymentId}/pay`, { data: { checkout: true } });
  expect(pay.status()).toBe(404);
  expect((await pay.json()).error).toBe("payment_unknown");
});

test("the seller sees a card payment in Payments (rail, card, processor id) and refunds it with one click", async ({ page, request, browser }) => {
  // The flaky storefront's own console, so the demo seller's totals stay as the other console specs expect them.
  const opened = await agentOpensCheckout(request, FLAKY);
  const human = await browser.newPage();
  await humanPays(human, opened.checkoutUrl, "4242 4242 4242 4242", "Flaky Upstream Data");
  await expect(human.getByTestId("checkout-complete")).toBeVisible();

  await signIn(page, FLAKY_ACCOUNT, FLAKY);
  await page.getByRole("link", { name: "Payments" }).first().click();
  await expect(page).toHaveURL(/\/console\/payments/);
  // The page shows dollars to the cent; the exact six-decimal amount is the element's data-value.
  const micros = async () => BigInt((await page.getByTestId("payments-revenue").getAttribute("data-value"))!.replace(".", ""));
  const row = page.getByTestId(`payment-row-${opened.paymentId}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("$0.50");
  await expect(row).toContainText("backtest");
  await expect(row.getByTestId("payment-card")).toHaveText("VISA •••• 4242 (test)");
  await expect(row.getByTestId("payment-tx")).toHaveAttribute("title", /^pi_test_/);
  await expect(row.getByTestId("payment-state")).toHaveAttribute("data-state", "settled");
  const before = await micros();

  // The click opens the confirmation (amount, reason, what the payer sees); nothing happens until Confirm, and a
  // double click on Confirm is one refund too.
  await row.getByTestId("payment-card-refund").click();
  const dialog = page.getByTestId("payment-refund-dialog");
  await expect(dialog.getByTestId("payment-refund-payer-sees")).toContainText("ending 4242");
  await expect(dialog.getByTestId("payment-refund-payer-sees")).toContainText("5 to 10 business days");
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await dialog.getByTestId("payment-refund-dialog-cancel").click();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByTestId("payment-state")).toHaveAttribute("data-state", "settled");
  await row.getByTestId("payment-card-refund").click();
  await dialog.getByTestId("payment-refund-reason").selectOption("Requested by the payer");
  await dialog.getByTestId("payment-refund-submit").dblclick();
  await expect(row.getByTestId("payment-state")).toHaveAttribute("data-state", "refunded");
  await expect(row.getByTestId("payment-card-refund-state")).toHaveText("Refunded (by the seller)");
  await expect(row.getByTestId("payment-card-refund")).toHaveCount(0);
  await expect.poll(micros).toBe(before - 500_000n);
  const ledger = await query<{ kind: string }>("select kind from ledger_entries where payment_id = $1 order by created_at", [opened.paymentId]);
  expect(ledger.map((l) => l.kind)).toEqual(["charge", "refund"]);
  expect(await query("select 1 from audit_logs where target_id = $1 and action = 'payment.refund'", [opened.paymentId])).toHaveLength(1);
  expect(
    await query("select 1 from audit_logs where target_id = $1 and action = 'payment.refund' and after->>'reason' = 'Requested by the payer'", [
      opened.paymentId,
    ]),
  ).toHaveLength(1);
  // The person's page says so, and the agent's retry is payment_refunded.
  await human.reload();
  await expect(human.getByTestId("checkout-refunded")).toContainText("by the seller");
  const retry = await request.get(BACKTEST, { headers: { host: FLAKY, "svc-payment-id": opened.paymentId } });
  expect((await retry.json()).error).toBe("payment_refunded");
});

test("the seller refunds part of a card payment from its page, then the rest: each refund listed, partially refunded, then refunded", async ({
  page,
  request,
  browser,
}) => {
  const opened = await agentOpensCheckout(request, FLAKY);
  const human = await browser.newPage();
  await humanPays(human, opened.checkoutUrl, "4242 4242 4242 4242", "Flaky Upstream Data");
  await expect(human.getByTestId("checkout-complete")).toBeVisible();
  await signIn(page, FLAKY_ACCOUNT, FLAKY);
  const axe = async () =>
    (await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze()).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => v.id);
  const noSidewaysScroll = async () => expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);

  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`http://${FLAKY}/console/payments/${encodeURIComponent(opened.paymentId)}`);
    const dialog = page.getByTestId("payment-refund-dialog");
    if (width === 1440) {
      // The amount defaults to all that is left; the server's rule checks it as it is typed.
      await page.getByTestId("payment-card-refund").click();
      const amount = dialog.getByTestId("payment-refund-amount-input");
      await expect(amount).toHaveValue("0.50");
      await expect(dialog.getByTestId("payment-refund-remaining")).toContainText("$0.50 of $0.50 left to refund");
      await amount.fill("0.60");
      await expect(dialog.getByTestId("payment-refund-amount-error")).toContainText("At most $0.50 is left to refund");
      await expect(dialog.getByTestId("payment-refund-submit")).toBeDisabled();
      await amount.fill("0.005");
      await expect(dialog.getByTestId("payment-refund-amount-error")).toContainText("dollars and cents");
      await amount.fill("0.20");
      await expect(dialog.getByTestId("payment-refund-amount-error")).toHaveText("");
      expect(await axe()).toEqual([]);
      await dialog.getByTestId("payment-refund-submit").dblclick();
      await expect(dialog).toHaveCount(0);
      await expect(page.getByTestId("payment-state")).toHaveAttribute("data-state", "partially_refunded");
      await expect(page.getByTestId("payment-state")).toHaveText("Partially refunded");
    }
    await expect(page.getByTestId("money-refunded")).toContainText("-$0.20");
    await expect(page.getByTestId("money-remaining")).toContainText("$0.30");
    expect(await axe()).toEqual([]);
    await noSidewaysScroll();
  }
  // One refund for a double click (one request key per opening of the dialog).
  expect(await query("select 1 from card_refunds where payment_id = $1", [opened.paymentId])).toHaveLength(1);
  // The rest, from the same page (the dialog now offers what is left), on a phone.
  await page.getByTestId("payment-card-refund").click();
  const dialog = page.getByTestId("payment-refund-dialog");
  await expect(dialog.getByTestId("payment-refund-amount-input")).toHaveValue("0.30");
  await expect(dialog.getByTestId("payment-refund-remaining")).toContainText("($0.20 refunded already)");
  await dialog.getByTestId("payment-refund-submit").click();
  await expect(page.getByTestId("payment-state")).toHaveAttribute("data-state", "refunded");
  await expect(page.getByTestId("money-refunds").getByTestId("money-refund")).toHaveCount(2);
  await expect(page.getByTestId("payment-card-refund")).toHaveCount(0);
  const ledger = await query<{ amount_micros: string }>(
    "select amount_micros::text from ledger_entries where payment_id = $1 and kind = 'refund' order by seq",
    [opened.paymentId],
  );
  expect(ledger.map((l) => l.amount_micros)).toEqual(["200000", "300000"]);
  // The refunds workspace lists both, each marked partial.
  await page.goto(`http://${FLAKY}/console/refunds`);
  await expect(page.getByTestId("refund-partial").first()).toContainText("partial, of $0.50");
  expect(await axe()).toEqual([]);
  await noSidewaysScroll();
});
