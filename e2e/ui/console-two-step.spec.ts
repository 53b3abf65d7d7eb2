// Two-step authentication in the console, in Chromium against the built app, at laptop and phone widths: a seller sets
// it up from Settings with a code computed here from the secret the page shows, keeps the recovery codes shown once,
// signs out, and signs in again with the password and a code; the password alone makes no session, and a wrong code is
// refused. Then new recovery codes: the password and a code from the app, ten new codes shown once, and the old ones
// refused at sign-in; turning it on signs out another browser of the account. Each test and width uses a fresh account
// of the second storefront (no other spec signs in with it).
import { randomBytes } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { hashPassword } from "../../server/auth/password";
import { query } from "../stack";
import { axeProblems } from "./page-checks";
import { SECOND } from "./sellers";

const PASSWORD = "two-step-password-0123";
const codeAt = (secret: string, ms: number) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: ms });

/** A new owner of the second storefront, straight into its database (as an accepted invitation would leave it). */
async function freshAccount(tag: string | number): Promise<string> {
  const email = `two-step-${tag}-${Date.now().toString(36)}@second-seller.test`;
  const [seller] = await query<{ seller_id: string }>(`select seller_id from seller_users where email = $1`, [SECOND.email]);
  await query(`insert into seller_users (id, seller_id, email, name, password_hash, role) values ($1, $2, $3, $4, $5, 'owner')`, [
    `usr_${randomBytes(10).toString("hex")}`,
    seller!.seller_id,
    email,
    "Two Step",
    await hashPassword(PASSWORD),
  ]);
  return email;
}

async function passwordStep(page: Page, email: string) {
  await page.goto("/console");
  await expect(page).toHaveURL(/\/console\/sign-in/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

for (const width of [1440, 390]) {
  test(`at ${width} px: set up from Settings, sign out, sign in with the password and a code`, async ({ browser }) => {
    const email = await freshAccount(width);
    const context = await browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 } });
    const page = await context.newPage();
    await passwordStep(page, email);
    await expect(page).toHaveURL(/\/console$/);

    await page.goto("/console/settings");
    const section = page.getByTestId("section-two-step");
    await section.getByTestId("two-step-begin").click();
    await expect(section.getByTestId("two-step-qr")).toBeVisible();
    const secret = (await section.getByTestId("two-step-secret").innerText()).replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect(section.getByTestId("two-step-uri")).toContainText(`secret=${secret}`);
    expect(await axeProblems(page, `Settings, two-step set-up at ${width}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    const enrolledAt = Date.now();
    await section.getByTestId("two-step-code").fill(codeAt(secret, enrolledAt));
    await section.getByTestId("two-step-password").fill(PASSWORD);
    await section.getByTestId("two-step-enable").click();
    await expect(section.getByTestId("two-step-recovery-codes").getByRole("listitem")).toHaveCount(10);
    expect(await axeProblems(page, `Settings, recovery codes at ${width}`)).toEqual([]);
    await section.getByTestId("two-step-recovery-done").click();
    await expect(section.getByTestId("two-step-on")).toContainText("10 recovery codes left");
    // The secret is shown once: the page no longer has it, even after a reload.
    await page.reload();
    await expect(section.getByTestId("two-step-on")).toBeVisible();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/console\/sign-in/);
    await passwordStep(page, email);
    // The right password alone: the code step, and no session yet.
    await expect(page.getByTestId("sign-in-code")).toBeVisible();
    expect((await context.cookies()).some((c) => c.name.includes("session-token"))).toBe(false);
    expect(await axeProblems(page, `the sign-in code step at ${width}`)).toEqual([]);
    // The code that turned it on cannot be used again, and a made-up one is refused.
    await page.getByTestId("sign-in-code").fill(codeAt(secret, enrolledAt));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "That code did not work" })).toBeVisible();
    await page.goto("/console/settings");
    await expect(page).toHaveURL(/\/console\/sign-in/);

    await passwordStep(page, email);
    await page.getByTestId("sign-in-code").fill(codeAt(secret, enrolledAt + 30_000));
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/console$/);
    await page.goto("/console/settings");
    await expect(page.getByTestId("section-two-step").getByTestId("two-step-on")).toBeVisible();
    await context.close();
  });
}

/** Turn it on from Settings as a person does; the secret, when, and the recovery codes shown. */
async function turnOn(page: Page) {
  await page.goto("/console/settings");
  const section = page.getByTestId("section-two-step");
  await section.getByTestId("two-step-begin").click();
  const secret = (await section.getByTestId("two-step-secret").innerText()).replace(/\s/g, "");
  const enrolledAt = Date.now();
  await section.getByTestId("two-step-code").fill(codeAt(secret, enrolledAt));
  await section.getByTestId("two-step-password").fill(PASSWORD);
  await section.getByTestId("two-step-enable").click();
  const list = section.getByTestId("two-step-recovery-codes").getByRole("listitem");
  await expect(list).toHaveCount(10);
  const codes = await list.allInnerTexts();
  await section.getByTestId("two-step-recovery-done").click();
  return { secret, enrolledAt, codes };
}

for (const width of [1440, 390]) {
  test(`at ${width} px: new recovery codes need the password and a code; the old ones stop working; turning it on signs out another browser`, async ({
    browser,
  }) => {
    const email = await freshAccount(`new-codes-${width}`);
    const viewport = { width, height: width > 800 ? 900 : 844 };
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    // Another browser of the same account, signed in before the factor is turned on.
    const elsewhere = await browser.newContext({ viewport });
    const otherPage = await elsewhere.newPage();
    for (const p of [page, otherPage]) {
      await passwordStep(p, email);
      await expect(p).toHaveURL(/\/console$/);
    }
    const { secret, enrolledAt, codes } = await turnOn(page);
    const section = page.getByTestId("section-two-step");
    await expect(section.getByTestId("two-step-on")).toContainText("10 recovery codes left");
    // That browser is signed out; this one goes on.
    await otherPage.goto("/console/settings");
    await expect(otherPage).toHaveURL(/\/console\/sign-in/);
    await page.reload();
    await expect(section.getByTestId("two-step-regenerate-form")).toBeVisible();
    expect(await axeProblems(page, `Settings, new recovery codes form at ${width}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);

    // A wrong password is refused, and the code is not spent by it.
    await section.getByTestId("two-step-regenerate-code").fill(codeAt(secret, enrolledAt + 30_000));
    await section.getByTestId("two-step-regenerate-password").fill("not-the-password-000");
    await section.getByTestId("two-step-regenerate").click();
    await expect(section.getByTestId("two-step-regenerate-error")).toContainText("not this account's password");
    await section.getByTestId("two-step-regenerate-password").fill(PASSWORD);
    await section.getByTestId("two-step-regenerate").click();
    const list = section.getByTestId("two-step-recovery-codes").getByRole("listitem");
    await expect(list).toHaveCount(10);
    const fresh = await list.allInnerTexts();
    expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
    expect(await axeProblems(page, `Settings, new recovery codes at ${width}`)).toEqual([]);
    await section.getByTestId("two-step-recovery-done").click();
    await expect(section.getByTestId("two-step-on")).toContainText("10 recovery codes left");

    // At sign-in, an old code (never used) is refused; a new one signs in.
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/console\/sign-in/);
    await passwordStep(page, email);
    await page.getByTestId("sign-in-code").fill(codes[4]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "That code did not work" })).toBeVisible();
    await passwordStep(page, email);
    await page.getByTestId("sign-in-code").fill(fresh[4]!);
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page).toHaveURL(/\/console$/);
    await context.close();
    await elsewhere.close();
  });
}
