// Every page a person reads, in Chromium at a laptop's width (1440x900) and a phone's (390x844), each in the states a
// person meets it in: the console signed out and signed in (every page, a price change's and a refund's confirmation,
// a wallet and a card payment, a search, a reversed date range, the webhook form) and the human pages (the front page,
// the card checkout: its form, its errors, a plan's, the receipt once paid; the claim page; the demo outbox). On each:
//  - nothing is wider than the screen: the document does not scroll sideways (a 250-character payment id is shown
//    short, with the whole id one copy away);
//  - axe-core finds no serious or critical violation (WCAG 2.2 AA and best practices): links told apart by more than
//    colour, scrolling tables reachable by keyboard, touch targets large enough, contrast, names and labels;
//  - a screenshot of each, at each width, is attached to the test output.
// One walk per width does both checks on each state, so each page is opened once.
// Also: the server renders each console page with its data (no "Loading…" in the first HTML), and tables on a phone
// are stacked rows.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { CONSOLE_DAY } from "../../server/testing/console-day";
import { axeProblems, attachScreenshot } from "./page-checks";
import { DEMO, signIn } from "./sellers";

const DAY = `from=${CONSOLE_DAY}&to=${CONSOLE_DAY}`;
const BACKTEST = "/api/v1/backtest/AAPL?strategy=sma_cross&fast=20&slow=50&years=2";
const PAGES: { name: string; path: string; heading: string; notPrefetched?: true }[] = [
  { name: "overview", path: "/console", heading: "Overview" },
  { name: "overview-today", path: "/console?range=today", heading: "Overview" },
  { name: "overview-seeded-day", path: `/console?${DAY}`, heading: "Overview" },
  { name: "payments", path: `/console/payments?from=2025-06-01&to=${CONSOLE_DAY}`, heading: "Payments" },
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
  // Its endpoints and deliveries load in the browser (not prefetched on the server).
  { name: "webhooks", path: "/console/webhooks", heading: "Webhooks and alerts", notPrefetched: true },
  { name: "search", path: "/console/search?q=research", heading: "Search" },
];

/** How far the document scrolls sideways ("none" when it does not), with the outermost elements that stick out. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    const by = root.scrollWidth - root.clientWidth;
    if (by <= 0) return "none";
    const culprits = [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 1 && !e.closest("[data-scrolls]"))
      .slice(0, 3)
      .map((e) => `${e.tagName.toLowerCase()}${e.getAttribute("data-testid") ? `[${e.getAttribute("data-testid")}]` : ""}.${String(e.className).slice(0, 50)}`);
    return `${by}px: ${culprits.join(" | ")}`;
  });

/** A card checkout for the $0.50 backtest (or a plan purchase), as an agent opens it: the hosted page's URL and the payment id. */
async function openCheckout(request: APIRequestContext, res: Awaited<ReturnType<APIRequestContext["get"]>>) {
  expect(res.status()).toBe(402);
  const { payment, card } = (await res.json()) as { payment: { id: string }; card: { payUrl: string } };
  const opened = await request.post(card.payUrl, { data: { checkout: true } });
  expect(opened.status()).toBe(200);
  return { paymentId: payment.id, url: (await opened.json()).checkout.url as string };
}

async function anonymousAgent(request: APIRequestContext) {
  const reg = await request.post("/agent/identity", { data: { type: "anonymous" } });
  expect(reg.status()).toBe(201);
  const { identity, claim } = await reg.json();
  const tok = await request.post("/oauth2/token", { form: { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: identity.assertion } });
  return { token: (await tok.json()).access_token as string, claimToken: claim.token as string };
}

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`every page at ${width}x${height}, in every state: nothing scrolls sideways, no serious or critical axe violation, screenshots attached`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(600_000);
    await page.setViewportSize({ width, height });
    const problems: string[] = [];
    /** Check the page as it is now: no sideways scroll (recorded, not thrown, so one run lists every page), axe, a screenshot. */
    const check = async (name: string) => {
      await expect(page.getByTestId("loading")).toHaveCount(0);
      const wide = await expect
        .poll(() => overflow(page), { timeout: 3_000 })
        .toBe("none")
        .then(
          () => null,
          async () => overflow(page),
        );
      if (wide) problems.push(`${name} @${width}: scrolls sideways by ${wide}`);
      problems.push(...(await axeProblems(page, `${name} @${width}`)));
      await attachScreenshot(page, testInfo, `${name}-${width}`);
    };

    // The human pages. The front page:
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await check("front-page");
    // A card checkout: its form, then with every field wrong as the person sees the messages.
    const call = await openCheckout(request, await request.get(BACKTEST));
    await page.goto(call.url);
    await expect(page.getByTestId("card-form")).toBeVisible();
    await check("checkout");
    await page.getByTestId("pay-button").click();
    await expect(page.getByTestId("card-number-error")).toBeVisible();
    await check("checkout-errors");
    // Paid: the receipt, with the payment's id shown short and one copy away.
    await page.getByLabel("Card number").fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
    await page.getByLabel("CVC").fill("123");
    await page.getByLabel("Email for your receipt (optional)").fill(`a11y-${width}@example.com`);
    await page.getByTestId("pay-button").click();
    await expect(page.getByTestId("checkout-complete")).toBeVisible();
    await expect(page.getByTestId("receipt-payment-id")).toHaveAttribute("title", call.paymentId);
    await expect(page.getByTestId("receipt").getByRole("button", { name: "Copy payment id" })).toHaveAttribute("data-copy", call.paymentId);
    await check("checkout-receipt");
    // A plan's checkout, bought for an unclaimed agent.
    const agent = await anonymousAgent(request);
    const plans = (await (await request.get("/manifest.json")).json()).plans as { slug: string; purchase: { url: string } }[];
    const planRes = await request.post(plans.find((p) => p.slug === "research-credits")!.purchase.url, {
      data: { amountUsd: "5.00" },
      headers: { authorization: `Bearer ${agent.token}` },
    });
    await page.goto((await openCheckout(request, planRes)).url);
    await expect(page.getByTestId("plan-terms")).toBeVisible();
    await check("plan-checkout");
    // The claim page, as the agent's person opens it.
    const { attempt } = await (await request.post("/agent/identity/claim", { data: { claim_token: agent.claimToken } })).json();
    await page.goto(attempt.verification_uri);
    await expect(page.getByTestId("claim-grants")).toBeVisible();
    await check("claim");
    // The demo outbox, with the receipt just emailed (its text names the payment's whole id).
    await page.goto("/outbox");
    await expect(page.getByTestId("outbox-message").first()).toBeVisible();
    await check("outbox");

    // The console, signed out.
    await page.goto("/console/sign-in");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await check("sign-in");
    await page.goto("/console/reset-password");
    await expect(page.getByRole("heading", { level: 1, name: "Reset your password" })).toBeVisible();
    await check("reset-password");

    // Signed in: every page.
    await signIn(page, DEMO);
    for (const p of PAGES) {
      await page.goto(p.path);
      await expect(page.getByRole("heading", { level: 1, name: p.heading })).toBeVisible();
      await check(p.name);
    }
    // A refunded wallet payment's page, and the card payment just paid (money first, the payer's email).
    await page.goto(`/console/payments?status=refunded&${DAY}`);
    await page.getByTestId("payment-link").first().click();
    await expect(page.getByTestId("payment-detail")).toBeVisible();
    await check("payment-detail-wallet");
    await page.goto(`/console/payments/${encodeURIComponent(call.paymentId)}`);
    await expect(page.getByTestId("payment-money")).toBeVisible();
    await expect(page.getByTestId("detail-payer-email")).toHaveText(`a11y-${width}@example.com`);
    await check("payment-detail-card");
    // Its refund, confirmed in the dialog: the processor's fee is said to stay with the processor.
    await page.getByTestId("payment-card-refund").click();
    await expect(page.getByTestId("payment-refund-fee")).toContainText("keeps the fee");
    await check("refund-dialog-detail");
    await page.getByTestId("payment-refund-dialog-cancel").click();
    // The same dialog opened from a Payments row: the whole dialog, its Confirm button inside it, on the screen.
    await page.goto(`/console/payments?q=${encodeURIComponent(`a11y-${width}@example.com`)}`);
    await page.locator(`[data-payment-id="${call.paymentId}"]`).getByTestId("payment-card-refund").click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    const box = (await dialog.boundingBox())!;
    const confirm = (await dialog.getByTestId("payment-refund-submit").boundingBox())!;
    expect(confirm.x).toBeGreaterThanOrEqual(box.x);
    expect(confirm.x + confirm.width).toBeLessThanOrEqual(box.x + box.width);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    await check("refund-dialog-row");
    await dialog.getByTestId("payment-refund-dialog-cancel").click();
    // A search for a payment id: dollars, the state in words, the id short.
    await page.goto(`/console/search?q=${encodeURIComponent(call.paymentId)}`);
    await expect(page.getByTestId("search-hit-payment")).toContainText("$0.50");
    await check("search-payment");
    // A reversed date range is a message about the range, not a failed load.
    await page.goto("/console?from=2025-06-05&to=2025-06-01");
    await expect(page.getByTestId("input-invalid").first()).toContainText("end day is before the start day");
    await check("overview-reversed-range");
    // The webhook form, its event checkboxes large enough to tap.
    await page.goto("/console/webhooks");
    await expect(page.getByTestId("webhook-add-form")).toBeVisible();
    await check("webhooks-form");
    // The confirmation a price change asks for, open.
    await page.goto("/console/prices");
    await page.getByTestId("price-input-backtest").fill("0.45");
    await page.getByTestId("price-save-backtest").click();
    await expect(dialog).toContainText("Loses card");
    await check("price-dialog");
    await dialog.getByTestId("price-change-cancel").click();
    await expect(dialog).toHaveCount(0);
    expect(problems).toEqual([]);
  });
}

test("every console page is rendered with its data: the first HTML holds no loading placeholder", async ({ page }) => {
  await signIn(page, DEMO);
  for (const p of PAGES.filter((x) => !x.notPrefetched)) {
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
  // The cell shows its column's name beside the value, and the row is as wide as the card. Read once the table has
  // settled: in a full run the rows were seen re-rendered between two reads (the second read found a detached row).
  await expect(row).toBeVisible();
  await expect.poll(() => amount.evaluate((td) => getComputedStyle(td, "::before").content)).toBe('"Amount"');
  await expect.poll(() => row.evaluate((tr) => tr.getBoundingClientRect().width)).toBeGreaterThan(300);
  const region = page.getByRole("region", { name: "Payments (table)" });
  await region.focus();
  await expect(region).toBeFocused();
});
