// The bounds on leased plan credit in the console's Settings, in Chromium against the built app, at laptop and phone
// widths: the section says what a lease is and what it trades; a bound out of range cannot be saved; an owner sets
// both bounds, reloads and sees them, the change is in the recent settings changes in words; emptied, they are the
// defaults again. The page passes axe and has no sideways scroll.
import { expect, test } from "@playwright/test";
import { axeProblems } from "./page-checks";
import { SECOND, signIn } from "./sellers";

for (const width of [1440, 390]) {
  test(`at ${width} px: the lease bounds are set, kept across a reload, audited, and back to the defaults when emptied`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: width > 800 ? 900 : 844 } });
    const page = await context.newPage();
    await signIn(page, SECOND);
    await page.goto("/console/settings");
    const section = page.getByTestId("section-credit-lease");
    const calls = section.getByLabel("Calls per lease");
    const seconds = section.getByLabel("Seconds per lease");
    const save = section.getByTestId("credit-lease-save");
    const current = section.getByTestId("credit-lease-current");
    await expect(section).toContainText("without asking PostgreSQL");
    await expect(section).toContainText("reaches every instance at once");
    await expect(current).toContainText("(the default)");
    expect(await axeProblems(page, `Settings, leased credit at ${width}`)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);

    // Out of range: not sent.
    await calls.fill("1001");
    await expect(calls).toHaveAttribute("aria-invalid", "true");
    await expect(save).toBeDisabled();
    await calls.fill("12");
    await seconds.fill("0.5");
    await expect(save).toBeDisabled();
    await seconds.fill("2.5");
    await expect(save).toBeEnabled();
    await save.click();
    await expect(section.getByTestId("credit-lease-saved")).toBeVisible();
    await expect(current).toContainText("Now a lease holds up to 12 calls and lasts up to 2.5 s");

    await page.reload();
    await expect(calls).toHaveValue("12");
    await expect(seconds).toHaveValue("2.5");
    await expect(current).toContainText("up to 12 calls and lasts up to 2.5 s, whichever ends first");
    await expect(page.getByTestId("audit-log").getByRole("listitem").first()).toContainText("Calls per lease: the default → 12 calls");
    expect(await axeProblems(page, `Settings, leased credit saved at ${width}`)).toEqual([]);

    // Emptied: the defaults again (the stack's default turns leasing off).
    await calls.fill("");
    await seconds.fill("");
    await save.click();
    await expect(current).toContainText("(the default)");
    await expect(current).not.toContainText("12 calls");
    await page.reload();
    await expect(calls).toHaveValue("");
    await context.close();
  });
}
