// Every console page in Chromium at a laptop's width (1440x900) and a phone's (390x844), signed in as the demo seller:
//  - axe-core finds no serious or critical violation (WCAG 2.2 AA and best practices): links told apart by more than
//    colour, scrolling tables reachable by keyboard, touch targets large enough, contrast, names and labels;
//  - no column is cut off and nothing is wider than the screen;
//  - the server renders each page with its data (no "Loading…" in the first HTML);
//  - a price change's confirmation dialog passes too;
//  - a screenshot of each page, at each width, is attached to the test output.
import { expect, test, type Page } from "@playwright/test";
import { CONSOLE_DAY } from "../../server/testing/console-day";
import { axeProblems, attachScreenshot } from "./page-checks";
import { DEMO, signIn } from "./sellers";

const DAY = `from=${CONSOLE_DAY}&to=${CONSOLE_DAY}`;
const PAGES: { name: string; path: string; heading: string }[] = [
  { name: "overview", path: "/console", heading: "Overview" },
  { name: "overview-seeded-day", path: `/console?${DAY}`, heading: "Overview" },
  { name: "payments", path: `/console/payments?from=2025-06-01&to=${CONSOLE_DAY}`, heading: "Payments" },
  { name: "payment-detail", path: "", heading: "" },
  { name: "usage", path: "/console/usage", heading: "Usage" },
  { name: "refunds", path: "/console/refunds", heading: "Refunds" },
  { name: "customers", path: `/console/customers?from=2025-06-01&to=${CONSOLE_DAY}`, heading: "Customers" },
  { name: "funnel", path: `/console/funnel?${DAY}`, heading: "402 funnel" },
  { name: "margin", path: `/console/margin?${DAY}`, heading: "Margin" },
  { name: "prices", path: "/console/prices", heading: "Prices" },
  { name: "plans", path: "/console/plans", heading: "Plans and meters" },
  { name: "archive", path: "/console/archive", heading: "Archive coverage" },
  { name: "coverage", path: "/console/coverage", heading: "Data coverage" },
  { name: "identity", path: "/console/identity", heading: "Identity providers" },
  { name: "audit", path: "/console/audit", heading: "Audit log" },
  { name: "settings", path: "/console/settings", heading: "Settings" },
  { name: "search", path: "/console/search?q=research", heading: "Search" },
];

const overflow = (page: Page) =>
  page.evaluate(() => {
    const by = document.documentElement.scrollWidth - window.innerWidth;
    return by > 0 ? `${by}px` : "none";
  });

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`every console page at ${width}x${height}: no serious or critical axe violation, nothing cut off, screenshots attached`, async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height });
    const problems: string[] = [];
    // The sign-in page, before signing in.
    await page.goto("/console/sign-in");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    problems.push(...(await axeProblems(page, "sign-in")));
    await attachScreenshot(page, testInfo, `sign-in-${width}`);
    await signIn(page, DEMO);
    for (const p of PAGES) {
      if (p.name === "payment-detail") {
        await page.goto(`/console/payments?status=refunded&${DAY}`);
        await page.getByTestId("payment-link").first().click();
        await expect(page.getByTestId("payment-detail")).toBeVisible();
      } else {
        await page.goto(p.path);
        await expect(page.getByRole("heading", { level: 1, name: p.heading })).toBeVisible();
      }
      await expect(page.getByTestId("loading")).toHaveCount(0);
      await expect.poll(() => overflow(page), { message: `${p.name} is wider than ${width}px` }).toBe("none");
      problems.push(...(await axeProblems(page, `${p.name} @${width}`)));
      await attachScreenshot(page, testInfo, `${p.name}-${width}`);
    }
    // The confirmation a price change asks for, open.
    await page.goto("/console/prices");
    await page.getByTestId("price-input-backtest").fill("0.45");
    await page.getByTestId("price-save-backtest").click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Loses card");
    problems.push(...(await axeProblems(page, `price dialog @${width}`)));
    await attachScreenshot(page, testInfo, `price-dialog-${width}`);
    await dialog.getByTestId("price-change-cancel").click();
    await expect(dialog).toHaveCount(0);
    expect(problems).toEqual([]);
  });
}

test("every console page is rendered with its data: the first HTML holds no loading placeholder", async ({ page }) => {
  await signIn(page, DEMO);
  for (const p of PAGES.filter((x) => x.path)) {
    const res = await page.request.get(p.path);
    expect(res.status(), p.path).toBe(200);
    const html = await res.text();
    expect(html, p.path).not.toContain('data-testid="loading"');
    expect(html, p.path).toContain(`>${p.heading}</h1>`);
  }
  // And the figures themselves are in it (the seeded day's net revenue, exactly).
  expect(await (await page.request.get(`/console?${DAY}`)).text()).toContain('data-value="1.110000"');
});

test("tables on a phone are stacked rows with labelled cells, and scrolling tables take keyboard focus", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, DEMO);
  await page.goto(`/console/payments?from=2025-06-01&to=${CONSOLE_DAY}`);
  const row = page.locator("[data-payment-id]").first();
  const amount = row.getByTestId("payment-amount");
  // The cell shows its column's name beside the value, and the row is as wide as the card.
  expect(await amount.evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"Amount"');
  expect(await row.evaluate((tr) => tr.getBoundingClientRect().width)).toBeGreaterThan(300);
  const region = page.getByRole("region", { name: "Payments (table)" });
  await region.focus();
  await expect(region).toBeFocused();
});
