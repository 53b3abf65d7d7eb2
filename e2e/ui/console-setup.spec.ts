// The overview's setup checklist and Settings' card payments, from the seller's side in Chromium against the built app:
// a storefront with nothing set up sees the four items (contact address, payout wallet, card processor, webhooks),
// each done or linking to where it is done; setting the contact address in Settings marks that item done. Settings
// says in words which processor takes card payments (the e2e stack runs the built-in test processor).
import { expect, test } from "@playwright/test";
import { SETUP, signIn } from "./sellers";

test("a seller with nothing set sees all four items; after setting the contact address that item is done", async ({ page }) => {
  await signIn(page, SETUP);
  const list = page.getByTestId("setup-checklist");
  await expect(list).toBeVisible();
  await expect(list.getByRole("heading", { name: "Set up your storefront" })).toBeVisible();
  for (const key of ["contact", "payout", "card", "webhooks"]) await expect(list.getByTestId(`setup-${key}`)).toBeVisible();
  await expect(list.getByTestId("setup-contact")).toHaveAttribute("data-done", "false");
  await expect(list.getByTestId("setup-contact")).toContainText("To do");
  await expect(list.getByTestId("setup-payout")).toContainText("payout_address_required");
  await expect(list.getByTestId("setup-webhooks-link")).toHaveAttribute("href", "/console/webhooks");
  // The e2e stack takes cards with the built-in test processor: done, and said to be a test.
  await expect(list.getByTestId("setup-card")).toHaveAttribute("data-done", "true");
  await expect(list.getByTestId("setup-card")).toContainText("The built-in test processor takes card payments.");
  await expect(list).toContainText("3 of 4 left");

  await list.getByTestId("setup-contact-link").click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
  await expect(page.getByTestId("card-processor-name")).toHaveText("The built-in test processor");
  await expect(page.getByTestId("card-processor-meaning")).toContainText("test cards only, no real money moves");
  await page.getByTestId("merchant-contact").fill("support@setup-seller.test");
  await page.getByTestId("merchant-save").click();
  await expect(page.getByTestId("merchant-saved")).toBeVisible();

  await page.goto("/console");
  await expect(list.getByTestId("setup-contact")).toHaveAttribute("data-done", "true");
  await expect(list.getByTestId("setup-contact")).toContainText("Payers see support@setup-seller.test");
  await expect(list.getByTestId("setup-contact-link")).toHaveCount(0);
  await expect(list).toContainText("2 of 4 left");
});
