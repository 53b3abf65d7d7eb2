// The seller console's pages in Chromium, signed in as the demo seller:
//  - the overview shows the figures of a seeded day exactly (server/testing/console-day.ts, seeded by the e2e server);
//  - the 402 funnel counts a scripted mix of unpaid, mismatched, refused and paid calls made against the running app;
//  - a filtered Payments CSV equals the filtered table;
//  - a price change appears in the audit log with before and after;
//  - every page at 1280 and 390 px wide, attached to the report as screenshots; keyboard navigation; the export refuses
//    callers without a session.
// Data-level guarantees (scoping of every procedure, rollups, 100,000-row export) are in the Vitest database tests.
import fs from "node:fs";
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { mnemonicToAccount } from "viem/accounts";
import { csvUsd } from "../../server/lib/csv";
import type { PaymentStatus } from "../../server/payments/payment-state";
import { railWords, STATUS_WORDS } from "../../server/contracts/payment-words";
import { CONSOLE_DAY, CONSOLE_DAY_FIGURES as F } from "../../server/testing/console-day";
import { DEMO, openConsolePage, signIn } from "./sellers";

// anvil mnemonic account 6: a demo payer wallet the e2e stack funds with test USDC, used by no other spec.
const PAYER = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 6 });
const A = "/api/v1/aggregates/AAPL?from=2017-03-01&to=2017-03-31";
const B = "/api/v1/aggregates/AAPL?from=2017-03-01&to=2017-04-28";
// What the console calls the aggregates operation: its summary in the catalog (server/market/operations/aggregates).
const AGGREGATES_TITLE = "OHLCV price bars for a US-listed stock or ETF";

function payingClient() {
  const c = new x402Client();
  registerExactEvmScheme(c, { signer: PAYER });
  return c;
}

test("the overview shows the figures of a seeded day exactly", async ({ page }) => {
  await signIn(page, DEMO);
  await page.goto(`/console?from=${CONSOLE_DAY}&to=${CONSOLE_DAY}`);
  await expect(page.getByTestId("range-title")).toHaveText(`${CONSOLE_DAY} (UTC)`);
  const net = page.getByTestId("kpi-net-revenue-value");
  await expect(net).toHaveText("$1.11");
  await expect(net).toHaveAttribute("data-value", F.netUsd);
  await expect(page.getByTestId("kpi-net-revenue-change")).toHaveText(`${F.changePercent}% vs the previous period`);
  await expect(page.getByTestId("kpi-net-revenue")).toContainText("$1.13 charged, $0.02 refunded");
  await expect(page.getByTestId("kpi-paid-calls-value")).toHaveText(String(F.paidCalls));
  await expect(page.getByTestId("kpi-paid-calls-change")).toHaveText(`${F.paidCallsChangePercent}% vs the previous period`);
  await expect(page.getByTestId("kpi-wallets-value")).toHaveText(String(F.wallets));
  await expect(page.getByTestId("kpi-refunds-value")).toHaveText(String(F.refunds));

  // Revenue per hour: the chart is drawn, and its table holds every hour's exact figure.
  await expect(page.getByTestId("chart-revenue").locator("svg.recharts-surface")).toBeVisible();
  expect(await page.getByTestId("chart-revenue").locator(".recharts-bar-rectangle").count()).toBeGreaterThanOrEqual(6);
  await page.getByText("Show as a table").click();
  const hours = page.getByTestId("revenue-table").locator("tbody tr");
  await expect(hours).toHaveCount(24);
  for (let h = 0; h < 24; h++) {
    const hh = String(h).padStart(2, "0");
    await expect(page.getByTestId(`revenue-row-${CONSOLE_DAY}T${hh}`).getByTestId("revenue-net"), `hour ${hh}`).toHaveAttribute(
      "data-value",
      F.hours[hh] ?? "0.000000",
    );
  }
  // Calls per operation: the chart and its table, most calls first.
  await expect(page.getByTestId("chart-calls-by-operation").locator("svg.recharts-surface")).toBeVisible();
  await expect(page.getByTestId("chart-calls-by-operation").locator(".recharts-bar-rectangle")).toHaveCount(F.byOperation.length);
  // Its bars named by each operation's title (cut to fit the axis), not its key; the whole title and the key on hover.
  const ticks = page.getByTestId("chart-calls-by-operation").getByTestId("axis-label");
  await expect(ticks).toHaveCount(F.byOperation.length);
  for (const [i, o] of F.byOperation.entries()) {
    await expect(ticks.nth(i)).toHaveAttribute("data-operation", o.operation);
    await expect(ticks.nth(i).locator("text")).not.toHaveText(o.operation);
    await expect(ticks.nth(i).locator("title")).toContainText(`(${o.operation})`);
  }
  // The same for net revenue per operation.
  const revenueTicks = page.getByTestId("chart-revenue-by-operation").getByTestId("axis-label");
  await expect(revenueTicks.first()).toBeVisible();
  for (const tick of await revenueTicks.all()) {
    const key = (await tick.getAttribute("data-operation"))!;
    await expect(tick.locator("text")).not.toHaveText(key);
    await expect(tick.locator("title")).toContainText(`(${key})`);
  }
  const ops = page.getByTestId("operations-table").locator("tbody tr");
  await expect(ops).toHaveCount(F.byOperation.length);
  for (const [i, o] of F.byOperation.entries()) {
    // The operation by its title, its key one hover away (data-operation), as on Payments.
    await expect(ops.nth(i).locator("td").nth(0).locator("[data-operation]")).toHaveAttribute("data-operation", o.operation);
    await expect(ops.nth(i).locator("td").nth(0)).not.toHaveText(o.operation);
    await expect(ops.nth(i).locator("td").nth(1)).toHaveText(String(o.calls));
    await expect(ops.nth(i).locator("td").nth(2)).toHaveText(String(o.refunds));
    await expect(ops.nth(i).locator("td").nth(3)).toHaveAttribute("data-value", o.netUsd);
  }

  // The same day's funnel and margin.
  await page.goto(`/console/funnel?from=${CONSOLE_DAY}&to=${CONSOLE_DAY}`);
  for (const [step, n] of Object.entries({
    issued: F.funnel.issued,
    proofs: F.funnel.proofs,
    verified: F.funnel.verified,
    served: F.funnel.served,
    settled: F.funnel.settled,
  }))
    await expect(page.getByTestId(`funnel-${step}`), step).toHaveAttribute("data-value", String(n));
  for (const r of F.funnelReasons) await expect(page.getByTestId(`funnel-reason-${r.code}`).getByTestId("funnel-reason-count")).toHaveText(String(r.count));
  await page.goto(`/console/margin?from=${CONSOLE_DAY}&to=${CONSOLE_DAY}`);
  await expect(page.getByTestId("margin-row-Total").getByTestId("margin-gas-eth")).toHaveText(F.gasEth);
});

/** The funnel page's counts for aggregates over the last 7 days, as the page shows them. */
async function funnelCounts(page: Page) {
  await page.goto("/console/funnel?operation=aggregates");
  await expect(page.getByTestId("funnel-steps")).toBeVisible();
  const read = async (id: string) => Number(await page.getByTestId(id).getAttribute("data-value"));
  const reason = async (code: string) => {
    const row = page.getByTestId(`funnel-reason-${code}`);
    return (await row.count()) ? Number(await row.getByTestId("funnel-reason-count").innerText()) : 0;
  };
  return {
    issued: await read("funnel-issued"),
    proofs: await read("funnel-proofs"),
    verified: await read("funnel-verified"),
    served: await read("funnel-served"),
    settled: await read("funnel-settled"),
    neverPaid: Number((await page.getByTestId("funnel-step-issued").innerText()).match(/− ([\d,]+) never paid/)?.[1]?.replace(/,/g, "") ?? 0),
    refused: Number((await page.getByTestId("funnel-step-proofs").innerText()).match(/− ([\d,]+) refused/)?.[1]?.replace(/,/g, "") ?? 0),
    mismatch: await reason("payment_request_mismatch"),
    invalid: await reason("payment_required"),
  };
}

test("the funnel counts a scripted mix of unpaid, mismatched, refused and paid calls", async ({ page, baseURL }) => {
  await signIn(page, DEMO);
  // Issue 22 (stateless challenges): a 402 writes no row; the server counts it in memory and adds it to the funnel with
  // its next counts flush (every 5 s). So the 402s of earlier specs are flushed before the first reading, and the
  // second reading waits for this test's.
  await page.waitForTimeout(6_000);
  const before = await funnelCounts(page);

  // 2 unpaid: a 402 each, no proof.
  for (let i = 0; i < 2; i++) expect((await fetch(`${baseURL}${A}`)).status).toBe(402);
  // 1 mismatched: a proof made for A, sent with B.
  const http = new x402HTTPClient(payingClient());
  const challenge = await fetch(`${baseURL}${A}`);
  const proof = http.encodePaymentSignatureHeader(
    await http.createPaymentPayload(http.getPaymentRequiredResponse((h) => challenge.headers.get(h), await challenge.json())),
  );
  const mismatched = await fetch(`${baseURL}${B}`, { headers: proof });
  expect(mismatched.status).toBe(409);
  expect((await mismatched.json()).error).toBe("payment_request_mismatch");
  // 1 refused: a proof that is not one.
  const garbled = await fetch(`${baseURL}${A}`, { headers: { "X-PAYMENT": "bm90LWpzb24=" } });
  expect(garbled.status).toBe(402);
  expect((await garbled.json()).error).toBe("payment_required");
  // 2 paid with the official client (each: a 402, then the paid call).
  const pay = wrapFetchWithPayment(fetch, payingClient());
  for (let i = 0; i < 2; i++) expect((await pay(`${baseURL}${A}`)).status).toBe(200);

  await expect
    .poll(
      async () => {
        const after = await funnelCounts(page);
        return {
          issued: after.issued - before.issued,
          neverPaid: after.neverPaid - before.neverPaid,
          proofs: after.proofs - before.proofs,
          refused: after.refused - before.refused,
          verified: after.verified - before.verified,
          served: after.served - before.served,
          settled: after.settled - before.settled,
          mismatch: after.mismatch - before.mismatch,
          invalid: after.invalid - before.invalid,
        };
      },
      { timeout: 20_000, intervals: [1_000] },
    )
    .toEqual({ issued: 5, neverPaid: 3, proofs: 4, refused: 2, verified: 2, served: 2, settled: 2, mismatch: 1, invalid: 1 });
  await expect(page.getByTestId("chart-funnel").locator(".recharts-bar-rectangle")).toHaveCount(5);
});

/** Every row of the Payments table (all pages), as the page shows it. */
async function tableRows(page: Page) {
  // The results of the filters now in the address, once loaded (a change of filters loads them anew).
  await expect(page.getByTestId("payments-shown").or(page.getByTestId("payments-empty"))).toBeVisible();
  while (await page.getByTestId("payments-more").isVisible()) {
    const n = await page.locator("[data-payment-id]").count();
    await page.getByTestId("payments-more").click();
    await expect.poll(() => page.locator("[data-payment-id]").count()).toBeGreaterThan(n);
  }
  return page.locator("[data-payment-id]").evaluateAll((rows) =>
    rows.map((r) => ({
      id: r.getAttribute("data-payment-id"),
      created: r.querySelector('[data-testid="payment-created"]')!.textContent,
      // The operation's key (the cell shows its title; the key is its hover and data-operation).
      operation: r.querySelector('[data-testid="payment-operation"]')!.getAttribute("data-operation"),
      // The exact amount and the protocol's state word (the cells show "$0.02" and "Succeeded").
      amount: r.querySelector('[data-testid="payment-amount"]')!.getAttribute("data-value"),
      rail: r.querySelector('[data-testid="payment-rail"]')!.textContent,
      payer: r.querySelector('[data-testid="payment-payer"]')!.getAttribute("title"),
      state: r.querySelector('[data-testid="payment-state"]')!.getAttribute("data-state"),
      transaction: r.querySelector('[data-testid="payment-tx"]')!.getAttribute("title"),
    })),
  );
}

test("a filtered CSV export equals the filtered table", async ({ page }, testInfo) => {
  await signIn(page, DEMO);
  await openConsolePage(page, "Payments");
  // Filters set through the controls: the seeded days, x402, paid or refunded or failed.
  await page.getByTestId("filter-rail").selectOption("x402");
  await page.getByTestId("filter-from").fill("2025-06-01");
  await page.getByTestId("filter-to").fill(CONSOLE_DAY);
  for (const s of ["consumed", "refunded", "failed"]) await page.getByTestId(`filter-status-${s}`).check();
  await expect(page).toHaveURL(/rail=x402/);
  await expect(page).toHaveURL(/status=consumed%2Crefunded%2Cfailed|status=consumed,refunded,failed/);
  const rows = await tableRows(page);
  // The seeded x402 payments of the two days: 8 charged on the day (one refunded), 2 the day before, 1 failed.
  expect(rows).toHaveLength(11);

  const download = page.waitForEvent("download");
  await page.getByTestId("payments-export").click();
  const file = await (await download).path();
  const csv = fs.readFileSync(file, "utf8");
  await testInfo.attach("payments.csv", { body: csv, contentType: "text/csv" });
  const [header, ...lines] = csv.trimEnd().split("\r\n");
  const col = header!.split(",");
  const records = lines.map((l) => Object.fromEntries(l.split(",").map((v, i) => [col[i], v])));
  // The CSV is in words and dollars and cents (docs/console.md): the table's exact amount and state word, as the file writes them.
  expect(
    records.map((r) => ({
      id: r["Payment ID"],
      created: r["Created (UTC)"],
      operation: r.Operation,
      amount: r.Amount,
      rail: r["Paid with"],
      payer: r.Payer,
      state: r.Status,
      transaction: r.Transaction || null,
    })),
  ).toEqual(rows.map((r) => ({ ...r, amount: csvUsd(r.amount), rail: railWords(r.rail), state: STATUS_WORDS[r.state as PaymentStatus] })));
});

test("a price change appears in the audit log with before and after", async ({ page }) => {
  await signIn(page, DEMO);
  await openConsolePage(page, "Prices");
  await page.getByTestId("price-input-archive_range").fill("0.0425");
  await page.getByTestId("price-save-archive_range").click();
  await page.getByRole("dialog").getByTestId("price-change-confirm").click();
  await expect(page.getByTestId("price-status-archive_range")).toContainText("$0.03 to $0.0425");

  await openConsolePage(page, "Audit log");
  await page.getByTestId("audit-filter-action").selectOption("price.update");
  const row = page.locator('[data-testid^="audit-row-"]').first();
  await expect(row).toContainText("Price changed");
  await expect(row).toContainText(DEMO.email);
  await expect(row.getByTestId("audit-before")).toHaveText("$0.03");
  await expect(row.getByTestId("audit-after")).toHaveText("$0.0425");
  await expect(page.locator('[data-testid^="audit-row-"][data-action="identity_provider.add"]')).toHaveCount(0);

  // Put the demo price back; that change is the newest row now.
  await openConsolePage(page, "Prices");
  await page.getByTestId("price-input-archive_range").fill("0.03");
  await page.getByTestId("price-save-archive_range").click();
  await page.getByRole("dialog").getByTestId("price-change-confirm").click();
  await expect(page.getByTestId("price-status-archive_range")).toContainText("$0.0425 to $0.03");
  await openConsolePage(page, "Audit log");
  await expect(page.locator('[data-testid^="audit-row-"]').first().getByTestId("audit-after")).toHaveText("$0.03");
});

test("the navigation reaches every page by keyboard, and the export refuses callers without a session", async ({ page, request }) => {
  await signIn(page, DEMO);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("#content")).toBeFocused();
  // Every navigation link is a focusable link with its own URL; the current one is marked.
  const nav = page.getByRole("navigation", { name: "Console" });
  await expect(nav.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Payments" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/console\/payments$/);
  await expect(nav.getByRole("link", { name: "Payments" })).toHaveAttribute("aria-current", "page");

  const res = await request.get("/console/payments/export");
  expect(res.status()).toBe(401);
  expect((await res.json()).error).toBe("unauthorized");
  const unknown = await page.request.get("/api/trpc/payments.detail?input=" + encodeURIComponent(JSON.stringify({ json: { id: "pay_nope" } })));
  expect(unknown.status()).toBe(404);
});

test("a payment's page exports its evidence file: the signed receipt, the terms, the proof without its signature, the settlement", async ({
  page,
  baseURL,
}, testInfo) => {
  const paid = await wrapFetchWithPayment(fetch, payingClient())(`${baseURL}/api/v1/aggregates/AAPL?from=2017-05-01&to=2017-05-31`);
  expect(paid.status).toBe(200);
  const id = paid.headers.get("svc-payment-id")!;
  const receipt = paid.headers.get("svc-receipt")!;
  await signIn(page, DEMO);
  await page.goto(`/console/payments/${id}`);
  // The id is shown short (its first and last characters); the whole id is its title and one copy away.
  await expect(page.getByTestId("payment-id")).toHaveAttribute("title", id);
  await expect(page.getByTestId("payment-id")).toHaveText(`${id.slice(0, 10)}…${id.slice(-6)}`);
  await expect(page.getByRole("button", { name: "Copy payment id" })).toHaveAttribute("data-copy", id);
  const download = page.waitForEvent("download");
  await page.getByTestId("payment-evidence-export").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`evidence-${id}.json`);
  const text = fs.readFileSync((await file.path())!, "utf8");
  await testInfo.attach(`evidence-${id}.json`, { body: text, contentType: "application/json" });
  const evidence = JSON.parse(text);
  expect(evidence).toMatchObject({
    format: "storefront-payment-evidence/1",
    payment: { id, rail: "x402", amount: "0.020000", payer: PAYER.address.toLowerCase(), phase: "paid" },
    receipt: { jws: receipt, jwks_uri: expect.stringMatching(/\/oauth2\/jwks\.json$/) },
    challenge: { request: { method: "GET", path: "/api/v1/aggregates/AAPL", query: "from=2017-05-01&to=2017-05-31" }, price: "0.020000" },
    proof: {
      rail: "x402",
      authorization: { from: expect.stringMatching(new RegExp(`^${PAYER.address}$`, "i")), value: "20000", nonce: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
    },
    settlement: { transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/), chain: { status: "mined", block_number: expect.stringMatching(/^\d+$/) } },
    ledger: [expect.objectContaining({ kind: "charge", amount: "0.020000" })],
  });
  expect(text).not.toMatch(/signature/i);
  // The operation by its title (the catalog's summary), its key one hover away; the state in words.
  await page.reload();
  await expect(page.getByTestId("payment-detail-operation")).toHaveText(AGGREGATES_TITLE);
  await expect(page.getByTestId("payment-detail-operation")).toHaveAttribute("title", /\(aggregates\)$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`$0.02 · ${AGGREGATES_TITLE}`);
  await expect(page.getByTestId("payment-detail").getByTestId("payment-state")).toHaveText("Succeeded");
  // The same words in Payments and in the search results.
  await page.goto("/console/payments?operation=aggregates");
  const row = page.locator(`[data-payment-id="${id}"]`);
  await expect(row.getByTestId("payment-operation")).toHaveText(AGGREGATES_TITLE);
  await expect(row.getByTestId("payment-operation")).toHaveAttribute("data-operation", "aggregates");
  await expect(page.getByTestId("filter-operation").locator("option:checked")).toHaveText(AGGREGATES_TITLE);
  await page.goto(`/console/search?q=${encodeURIComponent(id)}`);
  const hit = page.getByTestId("search-hit-payment");
  await expect(hit.getByRole("link")).toHaveText(`$0.02 · ${AGGREGATES_TITLE}`);
  await expect(hit.locator("[data-state]")).toHaveText("Succeeded");
  await expect(hit).not.toContainText("consumed");
});

const PAGES: { name: string; path: string; heading: string }[] = [
  { name: "overview", path: "/console?range=7d", heading: "Overview" },
  { name: "overview-seeded-day", path: `/console?from=${CONSOLE_DAY}&to=${CONSOLE_DAY}`, heading: "Overview" },
  { name: "payments", path: "/console/payments", heading: "Payments" },
  { name: "payment-detail", path: "", heading: "" },
  { name: "refunds", path: "/console/refunds", heading: "Refunds" },
  { name: "customers", path: `/console/customers?from=2025-06-01&to=${CONSOLE_DAY}`, heading: "Customers" },
  { name: "funnel", path: `/console/funnel?from=${CONSOLE_DAY}&to=${CONSOLE_DAY}`, heading: "402 funnel" },
  { name: "margin", path: `/console/margin?from=${CONSOLE_DAY}&to=${CONSOLE_DAY}`, heading: "Margin" },
  { name: "prices", path: "/console/prices", heading: "Prices" },
  { name: "plans", path: "/console/plans", heading: "Plans and meters" },
  { name: "archive", path: "/console/archive", heading: "Archive coverage" },
  { name: "coverage", path: "/console/coverage", heading: "Data coverage" },
  { name: "identity", path: "/console/identity", heading: "Identity providers" },
  { name: "audit", path: "/console/audit", heading: "Audit log" },
  { name: "settings", path: "/console/settings", heading: "Settings" },
  { name: "empty-range", path: "/console/funnel?from=2024-01-01&to=2024-01-01", heading: "402 funnel" },
];

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  // Charts draw after their data arrives; nothing on the page is still loading when the picture is taken.
  await expect(page.getByTestId("loading")).toHaveCount(0);
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}

for (const width of [1280, 390]) {
  test(`every console page at ${width} px, attached as screenshots`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await signIn(page, DEMO);
    for (const p of PAGES) {
      if (p.name === "payment-detail") {
        await page.goto(`/console/payments?status=refunded&from=${CONSOLE_DAY}&to=${CONSOLE_DAY}`);
        await page.getByTestId("payment-link").first().click();
        await expect(page.getByTestId("payment-detail")).toBeVisible();
        await expect(page.getByTestId("timeline-refunded")).toBeVisible();
      } else {
        await page.goto(p.path);
        await expect(page.getByRole("heading", { level: 1, name: p.heading })).toBeVisible();
      }
      // Nothing wider than the screen once the page has its data: wide tables scroll inside their card.
      await expect(page.getByTestId("loading")).toHaveCount(0);
      const overflow = () =>
        page.evaluate(() => {
          const by = document.documentElement.scrollWidth - window.innerWidth;
          // The outermost elements sticking out, to say what to fix.
          const culprits = [...document.querySelectorAll("body *")]
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest("[data-scrolls]"))
            .slice(0, 3)
            .map(
              (e) =>
                `${e.tagName.toLowerCase()}${e.getAttribute("data-testid") ? `[${e.getAttribute("data-testid")}]` : ""}.${String(e.className).slice(0, 60)}`,
            );
          return by > 0 ? `${by}px: ${culprits.join(" | ")}` : "none";
        });
      await expect.poll(overflow, { message: `${p.name} overflows at ${width}px`, timeout: 5_000 }).toBe("none");
      await shoot(page, testInfo, `${p.name}-${width}`);
    }
    if (width === 390) {
      // On a phone the navigation is a menu.
      await expect(page.getByRole("navigation", { name: "Console" })).toHaveCount(0);
      await page.getByTestId("menu-toggle").click();
      await expect(page.getByTestId("mobile-menu")).toBeVisible();
      await shoot(page, testInfo, "menu-390");
      await page.getByTestId("mobile-menu").getByRole("link", { name: "Payments" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Payments" })).toBeVisible();
      await expect(page.getByTestId("mobile-menu")).toHaveCount(0);
    }
  });
}
