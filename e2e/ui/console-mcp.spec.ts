// The console tells HTTP calls from MCP tool calls: a tool call paid with mppx's McpClient against the built app shows
// in Payments with its MCP tag, the "Called over" filter keeps it or drops it, and the funnel and the overview split
// by transport. Data-level checks (the counts, the filter's SQL) are in server/mcp/mcp-paid.db.test.ts.
import { expect, test } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { evm } from "mppx/client";
import { McpClient } from "mppx/mcp/client";
import { privateKeyToAccount } from "viem/accounts";
import { DEMO, openConsolePage, signIn } from "./sellers";

// anvil account 7 (a demo payer wallet; public test key), the MCP example's payer: specs run one at a time.
const PAYER = "0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356";

test("an MCP tool call shows in Payments tagged MCP, filtered by 'Called over', and split out in the funnel and the overview", async ({ page, baseURL }) => {
  const client = new Client({ name: "e2e-console-mcp", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`)));
  McpClient.wrap(client, { methods: [evm.charge({ account: privateKeyToAccount(PAYER), currencies: [evm.assets.base.USDC] })] });
  const res = (await client.callTool({ name: "avg_interest_rates", arguments: {} })) as CallToolResult;
  expect(res.isError).toBeFalsy();
  const paymentId = res._meta?.["svc-payment-id"] as string;
  expect(paymentId).toMatch(/^pay_/);
  await client.close();

  await signIn(page, DEMO);
  await openConsolePage(page, "Payments");
  const row = page.getByTestId(`payment-row-${paymentId}`);
  await expect(row.getByTestId("payment-transport")).toHaveText("MCP");

  await page.getByTestId("filter-transport").selectOption("mcp");
  await expect(page).toHaveURL(/[?&]transport=mcp/);
  await expect(row).toBeVisible();
  const rows = page.locator('[data-testid^="payment-row-"]');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBe(await page.locator('[data-testid^="payment-row-"] [data-testid="payment-transport"]').count());

  await page.getByTestId("filter-transport").selectOption("http");
  await expect(page).toHaveURL(/[?&]transport=http/);
  await expect(row).toHaveCount(0);
  await expect(page.locator('[data-testid="payment-transport"]')).toHaveCount(0);

  await page.goto("/console/funnel");
  const mcp = page.getByTestId("funnel-transport-mcp");
  await expect(mcp).toContainText("MCP tool calls");
  expect(Number(await mcp.getByTestId("funnel-transport-paid").textContent())).toBeGreaterThanOrEqual(1);

  await page.goto("/console");
  await expect(page.getByTestId("overview-transport-mcp")).toContainText(/MCP tool calls: [1-9]\d* paid calls?, \$/);
});
