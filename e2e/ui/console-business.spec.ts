// The console's business sections: a paid call made with the official x402 client (as e2e/api/x402.spec.ts
// does) shows up in the seller's Payments with its settlement transaction; an unpaid 402 only behind the
// toggle; the archive's coverage renders. Data-level guarantees (scoping, paging, totals) are in
// server/trpc/routers/payments.db.test.ts.
import { expect, test, type Page } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const DEMO = { email: "seller@demo.test", password: "demo-seller-password" };
const SECOND = { email: "owner@second-seller.test", password: "second-seller-password" };
// anvil account 9: a demo payer wallet the e2e stack funds with test USDC (public test key), used by no other spec.
const PAYER: Hex = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto("/console");
  await expect(page).toHaveURL(/\/console\/sign-in/);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/console$/);
}

test("the seller sees a paid call in Payments, unpaid 402s only on request, and the archive coverage", async ({ page, baseURL, request }) => {
  // An unpaid call: a 402 challenge, not a payment.
  const unpaid = await request.get("/api/v1/avg-interest-rates");
  expect(unpaid.status()).toBe(402);
  const challengeId: string = (await unpaid.json()).payment.id;

  // A paid call through the official client: verified, proxied, settled on the local chain.
  const c = new x402Client();
  registerExactEvmScheme(c, { signer: privateKeyToAccount(PAYER) });
  const paid = await wrapFetchWithPayment(fetch, c)(`${baseURL}/api/v1/aggregates/AAPL?from=2017-02-01&to=2017-02-28`);
  expect(paid.status).toBe(200);
  const paymentId = paid.headers.get("svc-payment-id")!;
  expect(paymentId).toMatch(/^pay_/);

  await signIn(page, DEMO);
  await expect(page.getByRole("heading", { name: "Payments" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Archive coverage" })).toBeVisible();

  // Totals: revenue from the ledger, at least this call's $0.02.
  const revenue = await page.getByTestId("payments-revenue").textContent();
  expect(revenue).toMatch(/^\$\d+\.\d{6}$/);
  expect(Number(revenue!.slice(1))).toBeGreaterThanOrEqual(0.02);
  await expect(page.getByTestId("payments-by-state")).toContainText("consumed");

  // The paid call: amount, operation, rail, a final state, the settlement transaction in full in the title.
  const row = page.getByTestId(`payment-row-${paymentId}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("0.020000");
  await expect(row).toContainText("aggregates");
  await expect(row).toContainText("x402");
  await expect(row.getByTestId("payment-state")).toHaveText(/settled|consumed/);
  await expect(row.getByTestId("payment-tx")).toHaveAttribute("title", /^0x[0-9a-f]{64}$/);

  // The unpaid challenge is hidden until asked for.
  await expect(page.getByTestId(`payment-row-${challengeId}`)).toHaveCount(0);
  await page.getByTestId("payments-include-challenged").check();
  await expect(page.getByTestId(`payment-row-${challengeId}`).getByTestId("payment-state")).toHaveText("challenged");

  // Archive coverage: global, one row per feed and entity (captured days, or an explicit "no captured day").
  await expect(page.getByText("global to this deployment")).toBeVisible();
  await expect(page.getByTestId("archive-coverage")).toBeVisible();
  await expect(page.getByTestId("archive-row-aggregates-AAPL")).toBeVisible();
  await expect(page.getByTestId("archive-row-avg_interest_rates-us_treasury")).toBeVisible();

  // Another seller's console shows none of it.
  const second = await (await page.context().browser()!.newContext()).newPage();
  await signIn(second, SECOND);
  await expect(second.getByRole("heading", { name: "Payments" })).toBeVisible();
  await second.getByTestId("payments-include-challenged").check();
  await expect(second.getByTestId("payments-table").or(second.getByTestId("payments-empty"))).toBeVisible();
  await expect(second.getByTestId(`payment-row-${paymentId}`)).toHaveCount(0);
  await expect(second.getByTestId(`payment-row-${challengeId}`)).toHaveCount(0);
  const list = await second.request.get(`/api/trpc/payments.list?input=${encodeURIComponent(JSON.stringify({ json: { includeChallenged: true } }))}`);
  expect(list.status()).toBe(200);
  expect(JSON.stringify(await list.json())).not.toContain(paymentId);
});

test("the payments and archive API refuse callers without a seller session", async ({ request }) => {
  for (const path of ["payments.list", "payments.totals", "archive.coverage"]) {
    expect((await request.get(`/api/trpc/${path}`)).status()).toBe(401);
  }
});
