// The two storefronts' console accounts the e2e stack seeds (scripts/e2e-server.ts), and signing in as one.
import { expect, type Page } from "@playwright/test";

export type SellerAccount = { email: string; password: string };

export const DEMO: SellerAccount = { email: "seller@demo.test", password: "demo-seller-password" };
export const SECOND: SellerAccount = { email: "owner@second-seller.test", password: "second-seller-password" };
/** The storefront whose upstream never answers (card refunds, e2e/ui/card-checkout.spec.ts). */
/** The storefront with nothing set up yet (the overview's setup checklist, e2e/ui/console-setup.spec.ts). */
export const SETUP: SellerAccount = { email: "owner@setup-seller.test", password: "setup-seller-password" };
export const FLAKY: SellerAccount = { email: "owner@flaky-seller.test", password: "flaky-seller-password" };

/** Sign in to a storefront's console: the e2e stack's own host unless `host` names another storefront's. */
export async function signIn(page: Page, who: SellerAccount, host?: string): Promise<void> {
  await page.goto(host ? `http://${host}/console` : "/console");
  await expect(page).toHaveURL(/\/console\/sign-in/);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/console$/);
}

/** Go to a console page through the navigation, as a seller would (the sidebar at laptop width). */
export async function openConsolePage(page: Page, label: string): Promise<void> {
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: label, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
}
