// The two pages a person trusts (issue 27), in Chromium against the built app:
//  - the hosted checkout says who the seller is (contact, terms, refund policy set in the console's Settings, also on
//    the front page), checks the card fields with a clear message each (month 13, past expiry, Luhn, CVC length),
//    shows times in the reader's zone, takes an optional email and emails the receipt there (the demo outbox), and
//    lists the payer in Customers;
//  - a plan's checkout says what it buys: the credit, the data it pays for, how long it lasts, and that credit bought
//    for an unclaimed agent dies with it;
// Their accessibility and width at 1440x900 and 390x844 (the checkout's form, errors, receipt, a plan's checkout, the
// claim page) are checked with every other page's, in one walk: console-a11y.spec.ts.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { DEMO, signIn } from "./sellers";

const BACKTEST = "/api/v1/backtest/AAPL?strategy=sma_cross&fast=20&slow=50&years=2";

async function openCheckout(request: APIRequestContext, res: Awaited<ReturnType<APIRequestContext["get"]>>): Promise<{ paymentId: string; url: string }> {
  expect(res.status()).toBe(402);
  const { payment, card } = (await res.json()) as { payment: { id: string }; card: { payUrl: string } };
  const opened = await request.post(card.payUrl, { data: { checkout: true } });
  expect(opened.status()).toBe(200);
  return { paymentId: payment.id, url: (await opened.json()).checkout.url };
}

async function anonymousAgent(request: APIRequestContext) {
  const reg = await request.post("/agent/identity", { data: { type: "anonymous" } });
  expect(reg.status()).toBe(201);
  const { identity, claim } = await reg.json();
  const tok = await request.post("/oauth2/token", { form: { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: identity.assertion } });
  return { id: identity.id as string, token: (await tok.json()).access_token as string, claimToken: claim.token as string };
}

test.describe("in the reader's time zone", () => {
  test.use({ timezoneId: "Asia/Tokyo", locale: "en-US" });

  test("the seller's words reach the checkout and the front page; the card form explains each bad field; the receipt is emailed; Customers lists the payer", async ({
    page,
    request,
  }) => {
    // The seller sets what payers read, in the console's Settings.
    await signIn(page, DEMO);
    await page.goto("/console/settings");
    await page.getByTestId("merchant-contact").fill("help@demo-market.example");
    await page.getByTestId("merchant-terms").fill("Data is provided as is, for information only.");
    await page.getByTestId("merchant-refund-policy").fill("Write to us within 30 days for a refund of a call that went wrong.");
    await page.getByTestId("merchant-save").click();
    await expect(page.getByTestId("merchant-saved")).toBeVisible();
    await page.goto("/");
    await expect(page.getByTestId("merchant-contact")).toHaveText("help@demo-market.example");
    await expect(page.getByTestId("merchant-refunds")).toContainText("within 30 days");

    const opened = await openCheckout(request, await request.get(BACKTEST));
    await page.goto(opened.url);
    await expect(page.getByTestId("merchant-contact")).toHaveText("help@demo-market.example");
    await expect(page.getByTestId("merchant-refunds")).toContainText("refunded in full automatically");
    await expect(page.getByTestId("merchant-refunds")).toContainText("within 30 days");
    await page.getByTestId("merchant-terms").getByText("Read the terms").click();
    await expect(page.getByTestId("merchant-terms")).toContainText("provided as is");
    // Times in Tokyo's zone, not UTC.
    await expect(page.getByTestId("checkout-open-until")).toContainText("GMT+9");

    const number = page.getByLabel("Card number");
    const expiry = page.getByLabel("Expiry (MM / YY)");
    const cvc = page.getByLabel("CVC");
    await number.fill("4242 4242 4242 4242");
    await expiry.fill("13 / 34");
    await cvc.fill("123");
    await page.getByTestId("pay-button").click();
    await expect(page.getByTestId("card-expiry-error")).toHaveText("The month must be from 01 to 12.");
    await expect(expiry).toHaveAttribute("aria-invalid", "true");
    await expiry.fill("01 / 20");
    await page.getByTestId("pay-button").click();
    await expect(page.getByTestId("card-expiry-error")).toHaveText("This card expired at the end of 01 / 20.");
    await expiry.fill("12 / 34");
    await number.fill("4242 4242 4242 4241");
    await cvc.fill("12");
    await page.getByTestId("pay-button").click();
    await expect(page.getByTestId("card-number-error")).toContainText("not valid");
    await expect(page.getByTestId("card-cvc-error")).toContainText("3 digits");
    // Nothing was sent to the processor: no failed attempt is recorded.
    expect((await (await request.get(`/payments/${opened.paymentId}`)).json()).card.last_error).toBeNull();

    const email = `card-payer-${Date.now().toString(36)}@example.com`;
    await number.fill("4242 4242 4242 4242");
    await cvc.fill("123");
    await page.getByLabel("Email for your receipt (optional)").fill(email);
    await page.getByTestId("pay-button").click();
    await expect(page.getByTestId("checkout-complete")).toBeVisible();
    await expect(page.getByTestId("receipt-email")).toHaveText(email);
    await page.goto("/outbox");
    const mail = page.getByTestId("outbox-message").filter({ hasText: email });
    await expect(mail).toHaveCount(1);
    await expect(mail.getByTestId("outbox-subject")).toContainText("Your receipt from Demo Market Data: $0.50");

    await page.goto("/console/customers");
    await expect(page.getByTestId("section-card-payers").getByTestId("card-payer-row").filter({ hasText: email })).toContainText("$0.50");
  });

  test("a plan's checkout says what it buys, and that credit bought for an unclaimed agent dies with it", async ({ page, request }) => {
    const agent = await anonymousAgent(request);
    const plans = (await (await request.get("/manifest.json")).json()).plans as { slug: string; purchase: { url: string } }[];
    const plan = plans.find((p) => p.slug === "research-credits")!;
    const res = await request.post(plan.purchase.url, { data: { amountUsd: "5.00" }, headers: { authorization: `Bearer ${agent.token}` } });
    const opened = await openCheckout(request, res);
    await page.goto(opened.url);
    await expect(page.getByTestId("purchase-title")).toContainText("Plan:");
    await expect(page.getByTestId("purchase-detail")).toHaveCount(0);
    await expect(page.getByTestId("plan-credit")).toContainText("$5.00 of prepaid credit");
    await expect(page.getByTestId("plan-meters")).toContainText("It pays for:");
    await expect(page.getByTestId("plan-validity")).toContainText(/Credit lasts \d+ days/);
    await expect(page.getByTestId("plan-unclaimed")).toContainText("This agent is not claimed by a person.");
    await expect(page.getByTestId("plan-unclaimed")).toContainText("GMT+9");
  });
});
