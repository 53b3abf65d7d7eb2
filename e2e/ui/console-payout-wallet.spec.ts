// Changing the payout wallet from Settings, in Chromium against the built app, at laptop and phone widths: an owner of
// a storefront of its own (made here, so no other spec's payments meet the change) sees the current address, types a
// new one in lower case with their password, reads what changes in the confirmation, confirms, and after a reload sees
// the new address in checksum form; every owner was emailed. A viewer sees the form disabled with the reason.
import { randomBytes } from "node:crypto";
import { expect, test, type Browser } from "@playwright/test";
import { hashPassword } from "../../server/auth/password";
import { query } from "../stack";
import { axeProblems } from "./page-checks";

const PASSWORD = "payout-wallet-password-0123";
const OLD = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const NEW = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const id = (prefix: string) => `${prefix}_${randomBytes(10).toString("hex")}`;

/** A storefront of this test's own with its payout wallet set, and one member of `role` per call of `member`. */
async function storefront(width: number) {
  const sellerId = id("sel");
  const tag = `${width}-${Date.now().toString(36)}`;
  await query(`insert into sellers (id, slug, name, pay_to_address, updated_at) values ($1, $2, $3, $4, now())`, [sellerId, `payout-${tag}`, "Payout", OLD]);
  const member = async (role: "owner" | "viewer") => {
    const email = `${role}-${tag}@payout-seller.test`;
    await query(`insert into seller_users (id, seller_id, email, name, password_hash, role) values ($1, $2, $3, $4, $5, $6)`, [
      id("usr"),
      sellerId,
      email,
      `The ${role}`,
      await hashPassword(PASSWORD),
      role,
    ]);
    return email;
  };
  return { member };
}

async function signedIn(browser: Browser, email: string, width: number) {
  const context = await browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 } });
  const page = await context.newPage();
  await page.goto("/console");
  await expect(page).toHaveURL(/\/console\/sign-in/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/console$/);
  return { context, page };
}

for (const width of [1440, 390]) {
  test(`at ${width} px: an owner changes the payout wallet with their password and sees it after a reload`, async ({ browser }) => {
    const shop = await storefront(width);
    const email = await shop.member("owner");
    const { context, page } = await signedIn(browser, email, width);
    await page.goto("/console/settings#payout-wallet");
    const section = page.getByTestId("section-payout-wallet");
    await expect(section.getByTestId("payout-wallet-current")).toHaveText(OLD);
    await expect(section.getByTestId("payout-wallet-copy")).toHaveAttribute("data-copy", OLD);
    expect(await axeProblems(page, `Settings, payout wallet at ${width}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);

    await section.getByTestId("payout-wallet-address").fill(NEW.toLowerCase());
    await section.getByTestId("payout-wallet-password").fill("not-the-password");
    await section.getByTestId("payout-wallet-review").click();
    const dialog = page.getByTestId("payout-wallet-dialog");
    await expect(dialog).toContainText("New payments are paid to the new address.");
    await expect(dialog).toContainText("refused and offered again with the new one");
    await expect(dialog).toContainText("Funds already received stay in the old wallet");
    expect(await axeProblems(page, `the payout wallet confirmation at ${width}`)).toEqual([]);
    await dialog.getByTestId("payout-wallet-dialog-confirm").click();
    await expect(dialog.getByTestId("payout-wallet-dialog-error")).toHaveText("that is not this account's password");
    await dialog.getByTestId("payout-wallet-dialog-cancel").click();

    await section.getByTestId("payout-wallet-password").fill(PASSWORD);
    await section.getByTestId("payout-wallet-review").click();
    await dialog.getByTestId("payout-wallet-dialog-confirm").click();
    await expect(section.getByTestId("payout-wallet-saved")).toContainText("1 owner was emailed");
    await page.reload();
    await expect(section.getByTestId("payout-wallet-current")).toHaveText(NEW);
    const mails = await query<{ text: string }>(`select text from outbox_messages where "to" = $1 and subject = 'Your payout wallet was changed'`, [email]);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`Old address: ${OLD}\nNew address: ${NEW}`);

    if (width > 800) {
      const viewer = await signedIn(browser, await shop.member("viewer"), width);
      await viewer.page.goto("/console/settings");
      const theirs = viewer.page.getByTestId("section-payout-wallet");
      await expect(theirs.getByTestId("payout-wallet-current")).toHaveText(NEW);
      await expect(theirs.getByTestId("owner-only-reason")).toBeVisible();
      await expect(theirs.getByTestId("payout-wallet-address")).toBeDisabled();
      await viewer.context.close();
    }
    await context.close();
  });
}
