// Plans and meters in Chromium, signed in as the demo seller: create a credit plan from the console and see it sold in
// /manifest.json on the next request, change its terms, retire it after a confirmation (gone from the manifest, its
// purchase plan_not_found), see the change in the audit log, and the usage chart draw today's served calls per meter.
// Data-level guarantees (one transaction per change, live credit kept, seller scoping) are in the Vitest database tests.
import { expect, test } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { mnemonicToAccount } from "viem/accounts";
import { DEMO, openConsolePage, signIn } from "./sellers";

// anvil mnemonic account 8: a payer wallet the e2e stack funds with test USDC.
const PAYER = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 8 });

type ManifestPlan = {
  id: string;
  slug: string;
  name: string;
  meters: string[];
  purchase: { minimumUsd: string; maximumUsd: string; creditValidityDays: number };
};

test("a seller creates, edits and retires a credit plan; the manifest follows on the next request; the usage chart draws", async ({
  page,
  request,
  baseURL,
}) => {
  const slug = `e2e-plan-${Date.now().toString(36)}`;
  const manifestPlan = async () => ((await (await request.get("/manifest.json")).json()).plans as ManifestPlan[]).find((p) => p.slug === slug);

  // A served call today, so the usage chart has something of today to draw.
  const c = new x402Client();
  registerExactEvmScheme(c, { signer: PAYER });
  expect((await wrapFetchWithPayment(fetch, c)(`${baseURL}/api/v1/aggregates/AAPL?from=2017-05-01&to=2017-05-31`)).status).toBe(200);

  await signIn(page, DEMO);
  await openConsolePage(page, "Plans and meters");

  // Create.
  await page.getByTestId("plan-create-open").click();
  const form = page.getByTestId("plan-create");
  await form.getByTestId("plan-slug").fill(slug);
  await form.getByTestId("plan-name").fill("E2E rates pass");
  await form.getByTestId("plan-minimum").fill("2.00");
  await form.getByTestId("plan-maximum").fill("0.40");
  await form.getByTestId("plan-meter-avg_interest_rates").check();
  await form.getByTestId("plan-create-submit").click();
  // A bad bound is named, nothing is created.
  await expect(form.getByTestId("plan-create-error")).toContainText("minimumUsd must not be above maximumUsd");
  expect(await manifestPlan()).toBeUndefined();
  await form.getByTestId("plan-maximum").fill("40.00");
  await form.getByTestId("plan-validity").fill("30");
  await form.getByTestId("plan-create-submit").click();
  const row = page.getByTestId(`plan-row-${slug}`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("plan-state")).toHaveText("live");
  await expect(row).toContainText("$2.00 to $40.00");
  await expect(row).toContainText("30 days");
  expect(await manifestPlan()).toMatchObject({
    name: "E2E rates pass",
    meters: ["avg_interest_rates"],
    purchase: { minimumUsd: "2.00", creditValidityDays: 30 },
  });

  // Edit: the next purchase's terms.
  await row.getByTestId(`plan-edit-${slug}`).click();
  const edit = page.getByTestId("plan-edit");
  await edit.getByTestId("plan-maximum").fill("60.00");
  await edit.getByTestId("plan-meter-aggregates").check();
  await edit.getByTestId("plan-edit-submit").click();
  // The change is previewed (each term before and after) and made once confirmed.
  await expect(page.getByRole("dialog")).toContainText("Maximum purchase");
  await page.getByRole("dialog").getByTestId("plan-change-confirm").click();
  await expect(row).toContainText("$2.00 to $60.00");
  expect(await manifestPlan()).toMatchObject({ meters: ["aggregates", "avg_interest_rates"], purchase: { maximumUsd: "60.00" } });

  // Retire, after a confirmation.
  await row.getByTestId(`plan-retire-${slug}`).click();
  await expect(page.getByTestId("plan-retire-confirm")).toContainText("keeps paying for calls");
  await page.getByTestId("plan-retire-yes").click();
  await expect(row.getByTestId("plan-state")).toHaveText("retired");
  await expect(row.getByTestId(`plan-retire-${slug}`)).toHaveCount(0);
  expect(await manifestPlan()).toBeUndefined();
  const purchase = await request.post(`/plans/${slug}/purchase`, { data: { amountUsd: "5.00" } });
  expect(purchase.status()).toBe(404);
  expect((await purchase.json()).error).toBe("plan_not_found");

  // The usage chart: a real chart component, drawn in the browser, with today's served aggregates calls.
  const usage = page.getByTestId("section-meter-usage");
  await expect(usage.getByTestId("chart-meter-usage").getByRole("application")).toBeVisible();
  await expect(usage.locator(".recharts-bar-rectangle").first()).toBeVisible();
  await usage.getByText("Show as a table").click();
  const today = new Date().toISOString().slice(0, 10);
  await expect(usage.getByTestId(`meter-usage-${today}-aggregates`)).not.toHaveText("0");

  // The audit log has each change, with before and after.
  await openConsolePage(page, "Audit log");
  await page.getByTestId("audit-filter-action").selectOption("plan.update");
  const changed = page.locator('[data-testid^="audit-row-"][data-action="plan.update"]').first();
  await expect(changed).toContainText("Plan changed");
  await expect(changed).toContainText(DEMO.email);
  await expect(page.getByRole("row").filter({ hasText: "Maximum purchase" }).first()).toContainText("$40.00");
  await expect(page.getByRole("row").filter({ hasText: "Maximum purchase" }).first()).toContainText("$60.00");
  await page.getByTestId("audit-filter-action").selectOption("plan.retire");
  await expect(page.locator('[data-testid^="audit-row-"][data-action="plan.retire"]').first()).toContainText("Plan retired");
});
