// The console's data coverage page, as a seller reads it: reached from the navigation, one card per data operation of
// the registry with what it holds offline (marked as this deployment's) and live, the items held with their dates; and
// the procedure behind it refuses callers without a seller session. Axe, 390 px and server rendering: console-a11y.spec.ts.
import { expect, test } from "@playwright/test";
import { DEMO, openConsolePage, signIn } from "./sellers";

test("the seller sees what each data operation holds, offline and live, with the series and their dates", async ({ page }) => {
  await signIn(page, DEMO);
  await openConsolePage(page, "Data coverage");
  for (const key of ["aggregates", "avg_interest_rates", "backtest", "basis", "economy_series", "economy_series_list"])
    await expect(page.getByTestId(`coverage-${key}`)).toBeVisible();
  const offline = page.getByTestId("coverage-economy_series-embedded");
  await expect(offline).toContainText("this deployment");
  await expect(offline).toContainText("as_of answers for UNRATE and PAYEMS only");
  await expect(page.getByTestId("coverage-row-economy_series-embedded-DGS3MO")).toHaveText(/DGS3MO\s*2000-01-03\s*2021-01-04/);
  await expect(page.getByTestId("coverage-row-economy_series-embedded-DGS10")).toContainText("2026-03-26");
  const live = page.getByTestId("coverage-economy_series-live");
  await expect(live).toContainText("Live from FRED");
  await expect(live).not.toContainText("this deployment");
  await expect(page.getByTestId("coverage-row-aggregates-embedded-AAPL")).toContainText("2013-05-13");
});

test("the coverage procedure refuses a caller without a seller session", async ({ request }) => {
  const res = await request.get("/api/trpc/coverage.operations");
  expect(res.status()).toBe(401);
});
