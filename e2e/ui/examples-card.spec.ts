// examples/card-checkout.ts as the README has a reader run it: the agent script prints the hosted page, a person pays
// it in Chromium with Stripe's success test card, and the script, polling, retries with svc-payment-id and is served.
import { expect, test } from "@playwright/test";
import { startExample, type RunningExample } from "../examples";

let example: RunningExample | undefined;
test.afterEach(() => example?.stop());

test("examples/card-checkout.ts: the page it prints, paid by a person, lets it retry and be served", async ({ page, baseURL }) => {
  example = startExample("examples/card-checkout.ts", { BASE_URL: baseURL! });
  const [, amount] = await example.printed(/-> 402: ([\d.]+) USD, payment pay_[\w.-]+$/m);
  expect(amount).toBe("0.500000");
  const [, checkoutUrl] = await example.printed(/^ {2}(http\S+)$/m);

  await page.goto(checkoutUrl!);
  await expect(page.getByTestId("purchase-amount")).toContainText("$0.50");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("CVC").fill("123");
  await page.getByTestId("pay-button").click();
  await expect(page.getByTestId("checkout-complete")).toContainText("Payment received");

  const run = await example.done;
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/with svc-payment-id -> 200$/m);
  expect(run.stdout).toMatch(/^billing: .*rail=card;.*amount_usd=0\.500000; status=charged/m);
  expect(run.stdout).toMatch(/^backtest of AAPL: report http\S+\.png$/m);
});
