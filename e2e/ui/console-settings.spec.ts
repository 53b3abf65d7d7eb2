// The console's Settings, in Chromium against the built app: the per-wallet cap on value answered before settlement (and
// the one across all wallets) is typed, reviewed in the money confirmation (before and after, what paying agents see),
// changed only on Confirm, and back to the default when emptied.
import { expect, test } from "@playwright/test";
import { SECOND, signIn } from "./sellers";

test("the unsettled cap: typed, confirmed, saved and audited; cancel changes nothing; empty goes back to the default", async ({ page }) => {
  await signIn(page, SECOND);
  await page.goto("/console/settings");
  const input = page.getByTestId("settings-unsettled-cap");
  const review = page.getByTestId("settings-unsettled-cap-review");
  const current = page.getByTestId("settings-unsettled-cap-current");
  const dialog = page.getByTestId("unsettled-cap-dialog");
  await expect(current).toContainText("Now $0.50 (the default)");

  await input.fill("abc");
  await expect(review).toBeDisabled();
  await input.fill("1000.01");
  await expect(review).toBeDisabled();

  await input.fill("2.5");
  await review.click();
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("unsettled-cap-dialog-changes")).toContainText("$0.50 (the default)");
  await expect(page.getByTestId("unsettled-cap-dialog-changes")).toContainText("$2.50");
  await page.getByTestId("unsettled-cap-dialog-cancel").click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(current).toContainText("Now $0.50 (the default)");

  await input.fill("2.5");
  await review.click();
  await page.getByTestId("unsettled-cap-dialog-confirm").click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("settings-unsettled-cap-saved")).toBeVisible();
  await expect(current).toContainText("Now $2.50.");
  await page.reload();
  await expect(current).toContainText("Now $2.50.");
  await expect(input).toHaveValue("2.5");

  await input.fill("0");
  await review.click();
  await expect(dialog).toContainText("Every wallet-paid call waits");
  await page.getByTestId("unsettled-cap-dialog-confirm").click();
  await expect(current).toContainText("Now $0.00.");

  await input.fill("");
  await review.click();
  await page.getByTestId("unsettled-cap-dialog-confirm").click();
  await expect(current).toContainText("Now $0.50 (the default)");
});

test("the cap across all wallets: its own field, confirmed before it is saved, back to the default when emptied", async ({ page }) => {
  await signIn(page, SECOND);
  await page.goto("/console/settings");
  const input = page.getByTestId("settings-seller-unsettled-cap");
  const current = page.getByTestId("settings-seller-unsettled-cap-current");
  await expect(current).toContainText("Now $5.00 (the default)");
  await input.fill("12");
  await page.getByTestId("settings-seller-unsettled-cap-review").click();
  await expect(page.getByTestId("seller-unsettled-cap-dialog-changes")).toContainText("$12.00");
  await page.getByTestId("seller-unsettled-cap-dialog-confirm").click();
  await expect(current).toContainText("Now $12.00.");
  // The per-wallet cap is untouched.
  await expect(page.getByTestId("settings-unsettled-cap-current")).toContainText("(the default)");
  await input.fill("");
  await page.getByTestId("settings-seller-unsettled-cap-review").click();
  await page.getByTestId("seller-unsettled-cap-dialog-confirm").click();
  await expect(current).toContainText("Now $5.00 (the default)");
});
