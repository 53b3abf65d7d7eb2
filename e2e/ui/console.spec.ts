import { expect, test, type Browser, type Page } from "@playwright/test";
import { DEMO, SECOND, openConsolePage, signIn } from "./sellers";

async function newSignedInPage(browser: Browser, who: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, who);
  return page;
}

/** A tRPC call made with the page's session cookie (superjson wire format). */
async function trpcQuery(page: Page, path: string) {
  const res = await page.request.get(`/api/trpc/${path}`);
  return { status: res.status(), body: await res.json() };
}
async function trpcMutation(page: Page, path: string, input: unknown) {
  const res = await page.request.post(`/api/trpc/${path}`, { data: { json: input } });
  return { status: res.status(), body: await res.json() };
}

async function manifestPrice(page: Page, meter: string, host?: string) {
  const res = await page.request.get("/manifest.json", host ? { headers: { host } } : {});
  const m = await res.json();
  return m.meters.find((x: { key: string }) => x.key === meter)?.priceUsd as string;
}

test("a seller signs in, changes a price, and sees it at once in /manifest.json and /openapi.json", async ({ page }) => {
  await signIn(page, DEMO);
  await expect(page.getByTestId("seller-name")).toHaveText("Demo Market Data");
  await openConsolePage(page, "Prices");
  const original = await manifestPrice(page, "basis");
  expect(original).toBe("0.050000");

  await page.getByTestId("price-input-basis").fill("0.075");
  await page.getByTestId("price-save-basis").click();
  // The change is previewed in a confirmation before it goes live.
  await page.getByRole("dialog").getByTestId("price-change-confirm").click();
  await expect(page.getByTestId("price-status-basis")).toContainText("$0.05 to $0.075");
  await expect(page.getByTestId("audit-log")).toContainText("Price changed");
  await expect(page.getByTestId("audit-log").getByTitle("price.update").first()).toBeVisible();

  expect(await manifestPrice(page, "basis")).toBe("0.075000");
  const doc = await (await page.request.get("/openapi.json", { params: { path: "/api/v1/basis" } })).json();
  expect(doc.paths["/api/v1/basis"].get["x-payment-info"].priceUsd).toBe("0.075000");

  // Bad input is refused with a clear message as it is typed, and changes nothing.
  await page.getByTestId("price-input-basis").fill("abc");
  await expect(page.getByTestId("price-error-basis")).toContainText("A price is dollars with at most 6 decimals");
  await page.getByTestId("price-save-basis").click();
  await expect(page.getByTestId("price-error-basis")).toContainText("A price is dollars with at most 6 decimals");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  // An empty field says what to type, never the validator's raw output.
  await page.getByTestId("price-input-basis").fill("");
  await expect(page.getByTestId("price-error-basis")).toHaveText("Enter a price in dollars, such as 0.02.");
  expect(await manifestPrice(page, "basis")).toBe("0.075000");

  // Put the demo price back for the other tests.
  await page.getByTestId("price-input-basis").fill("0.05");
  await page.getByTestId("price-save-basis").click();
  await page.getByRole("dialog").getByTestId("price-change-confirm").click();
  await expect(page.getByTestId("price-status-basis")).toContainText("$0.075 to $0.05");
  expect(await manifestPrice(page, "basis")).toBe("0.050000");
});

test("a second seller can neither read nor change the first seller's catalog", async ({ browser }) => {
  const first = await newSignedInPage(browser, DEMO);
  const second = await newSignedInPage(browser, SECOND);
  await expect(second.getByTestId("seller-name")).toHaveText("Second Seller Data");

  const firstOverview = await trpcQuery(first, "catalog.overview");
  const firstMeterIds: string[] = firstOverview.body.result.data.json.meters.map((m: { id: string }) => m.id);
  const firstAggregates = firstOverview.body.result.data.json.meters.find((m: { key: string }) => m.key === "aggregates").id;

  // Reading: the second seller's console only ever shows its own rows.
  const secondOverview = await trpcQuery(second, "catalog.overview");
  const secondMeterIds: string[] = secondOverview.body.result.data.json.meters.map((m: { id: string }) => m.id);
  expect(secondMeterIds.some((id) => firstMeterIds.includes(id))).toBe(false);
  expect(secondOverview.body.result.data.json.seller.name).toBe("Second Seller Data");

  // Changing: the first seller's meter id is not found for the second seller, and nothing moves.
  const attack = await trpcMutation(second, "catalog.updatePrice", { meterId: firstAggregates, amountUsd: "9.99" });
  expect(attack.status).toBe(404);
  expect(attack.body.error.json.data.code).toBe("NOT_FOUND");
  expect(await manifestPrice(first, "aggregates")).toBe("0.020000");

  // The second seller's own change stays on its own storefront.
  const own = await trpcMutation(second, "catalog.updatePrice", {
    meterId: secondOverview.body.result.data.json.meters.find((m: { key: string }) => m.key === "aggregates").id,
    amountUsd: "0.03",
  });
  expect(own.status).toBe(200);
  expect(await manifestPrice(second, "aggregates", "second-seller.localhost")).toBe("0.030000");
  expect(await manifestPrice(first, "aggregates")).toBe("0.020000");
});

test("the console API refuses callers without a seller session", async ({ request }) => {
  const res = await request.get("/api/trpc/catalog.overview");
  expect(res.status()).toBe(401);
  const page = await request.get("/console", { maxRedirects: 0 });
  expect([303, 307, 308]).toContain(page.status());
});
