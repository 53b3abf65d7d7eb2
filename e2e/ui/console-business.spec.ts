// The console's business sections: a paid call made with the official x402 client (as e2e/api/x402.spec.ts
// does) shows up in the seller's Payments with its settlement transaction; an unpaid 402 only behind the
// toggle; the archive's coverage renders; the seller refunds the call on chain from the payTo wallet and records
// it. Data-level guarantees (scoping, paging, totals, every refund refusal and race) are in
// server/trpc/routers/payments.db.test.ts and server/payments/eip3009/record-refund.db.test.ts.
import fs from "node:fs";
import { expect, test } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { createWalletClient, erc20Abi, http, publicActions, type Hex } from "viem";
import { mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { DEMO, SECOND, openConsolePage, signIn } from "./sellers";

// anvil account 9: a demo payer wallet the e2e stack funds with test USDC (public test key), used by no other spec.
const PAYER: Hex = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6";
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
// The demo seller's payTo is anvil mnemonic account 10 (public test mnemonic): the seller's own wallet, which
// sends the refund.
const PAY_TO = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 10 });

/** The e2e stack's chain, found the way e2e/api/x402.spec.ts finds it. */
function rpcUrl(): string {
  const file = process.env.E2E_STACK_FILE;
  if (file && fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")).RPC_URL;
  if (process.env.E2E_RPC_URL) return process.env.E2E_RPC_URL;
  return `http://127.0.0.1:${process.env.LOCAL_CHAIN_PORT ?? 8545}`;
}

/** "$0.060000" -> 60000n (string arithmetic; never floats for money). */
const micros = (usd: string | null) => BigInt(usd!.replace("$", "").replace(".", ""));

test("the seller sees a paid call in Payments, unpaid 402s only on request, the archive coverage, and records a refund", async ({ page, baseURL, request }) => {
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
  await openConsolePage(page, "Payments");

  // Totals: revenue from the ledger, at least this call's $0.02.
  // The page shows dollars to the cent ("$1.52"); the exact six-decimal amount is the element's data-value.
  const revenue = await page.getByTestId("payments-revenue").getAttribute("data-value");
  expect(revenue).toMatch(/^\d+\.\d{6}$/);
  expect(Number(revenue)).toBeGreaterThanOrEqual(0.02);
  await expect(page.getByTestId("payments-by-state").locator('[data-state="consumed"]')).toBeVisible();

  // The paid call: amount, operation, rail, a final state, the settlement transaction in full in the title.
  const row = page.getByTestId(`payment-row-${paymentId}`);
  await expect(row).toBeVisible();
  await expect(row).toContainText("$0.02");
  // The operation by its title (the catalog's summary), its key on hover and in data-operation.
  await expect(row.getByTestId("payment-operation")).toHaveText("OHLCV price bars for a US-listed stock or ETF");
  await expect(row.getByTestId("payment-operation")).toHaveAttribute("data-operation", "aggregates");
  await expect(row).toContainText("x402");
  await expect(row.getByTestId("payment-state")).toHaveAttribute("data-state", /settled|consumed/);
  await expect(row.getByTestId("payment-tx")).toHaveAttribute("title", /^0x[0-9a-f]{64}$/);

  // Issue 22 (stateless challenges): an unpaid 402 writes no row, so it is not listed, not even when unpaid challenges
  // are asked for (the funnel counts it); the list with them still shows the paid call.
  await expect(page.getByTestId(`payment-row-${challengeId}`)).toHaveCount(0);
  await page.getByTestId("payments-include-challenged").check();
  await expect(page.getByTestId(`payment-row-${paymentId}`)).toBeVisible();
  await expect(page.getByTestId(`payment-row-${challengeId}`)).toHaveCount(0);

  // Archive coverage: global, one row per feed and entity (captured days, or an explicit "no captured day").
  await openConsolePage(page, "Archive coverage");
  await expect(page.getByText("global to this deployment")).toBeVisible();
  await expect(page.getByTestId("archive-coverage")).toBeVisible();
  await expect(page.getByTestId("archive-row-aggregates-AAPL")).toBeVisible();
  await expect(page.getByTestId("archive-row-avg_interest_rates-us_treasury")).toBeVisible();

  // The seller refunds the call from the payTo wallet on chain, then records it: checked on chain, the row becomes
  // refunded and revenue drops by the amount.
  await openConsolePage(page, "Payments");
  const revenueBefore = micros(await page.getByTestId("payments-revenue").getAttribute("data-value"));
  // The e2e stack also seeds a past business day with a refunded payment (server/testing/console-day.ts).
  const refundedBefore = Number((await page.getByTestId("payments-count-refunded").innerText()).match(/\d+/)![0]);
  const payer = privateKeyToAccount(PAYER).address;
  const seller = createWalletClient({ account: PAY_TO, chain: base, transport: http(rpcUrl()) }).extend(publicActions);
  const refundTx = await seller.writeContract({ address: USDC, abi: erc20Abi, functionName: "transfer", args: [payer, 20_000n] });
  expect((await seller.waitForTransactionReceipt({ hash: refundTx })).status).toBe("success");
  // The refund is confirmed in the console's one dialog: amount, reason, what the payer sees, then the transaction.
  await row.getByTestId("payment-refund-open").click();
  const form = page.getByTestId("payment-refund-dialog");
  await expect(form.getByTestId("payment-refund-amount")).toContainText("$0.02");
  await expect(form.getByTestId("payment-refund-payer-sees")).toContainText("USDC transfer you sent");
  await expect(form.getByTestId("payment-refund-submit")).toBeDisabled();
  await form.getByTestId("payment-refund-reason").selectOption("Data was wrong or missing");
  await form.getByTestId("payment-refund-hash").fill(`0x${"0".repeat(64)}`);
  await form.getByTestId("payment-refund-submit").click();
  await expect(form.getByTestId("payment-refund-dialog-error")).toContainText("not found on chain yet");
  await form.getByTestId("payment-refund-hash").fill(refundTx);
  await form.getByTestId("payment-refund-submit").click();
  await expect(form).toHaveCount(0);
  await expect(row.getByTestId("payment-state")).toHaveAttribute("data-state", "refunded");
  await expect(row.getByTestId("payment-refund-tx")).toHaveAttribute("title", refundTx);
  await expect(row.getByTestId("payment-refund-open")).toHaveCount(0);
  await expect(page.getByTestId("payments-revenue")).toHaveAttribute(
    "data-value",
    `${((revenueBefore - 20_000n) / 1_000_000n).toString()}.${((revenueBefore - 20_000n) % 1_000_000n).toString().padStart(6, "0")}`,
  );
  await expect(page.getByTestId("payments-count-refunded")).toContainText(String(refundedBefore + 1));

  // Another seller's console shows none of it.
  const second = await (await page.context().browser()!.newContext()).newPage();
  await signIn(second, SECOND);
  await openConsolePage(second, "Payments");
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
  const refund = await request.post("/api/trpc/payments.refund", { data: { json: { paymentId: "pay_x", transaction: `0x${"1".repeat(64)}` } } });
  expect(refund.status()).toBe(401);
});
