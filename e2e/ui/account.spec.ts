// The person's account, from the person's side in Chromium: they claim an agent (signing in with the emailed code), set
// a daily budget on it at /account, the agent's calls spend up to it and the next is refused with budget_exceeded
// before anything is charged, and the account shows the spend, the paid calls with their receipts and the CSV. The page
// passes axe (no serious or critical finding) and has no sideways scroll on a 390 px phone.
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { mnemonicToAccount } from "viem/accounts";
import { query } from "../stack";
import { readSignInCode } from "./outbox";
import { attachScreenshot, axeProblems } from "./page-checks";

// anvil mnemonic account 7: a payer wallet the e2e stack funds with test USDC.
const PAYER = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 7 });
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

async function accessToken(request: APIRequestContext, assertion: string): Promise<string> {
  const tok = await request.post("/oauth2/token", { form: { grant_type: JWT_BEARER, assertion } });
  expect(tok.status()).toBe(200);
  return (await tok.json()).access_token;
}

/** The person signs in on the claim link with the code from the demo outbox, confirms, and the agent completes. */
async function claimInBrowser(page: Page, request: APIRequestContext, claimToken: string, email: string): Promise<string> {
  const start = await request.post("/agent/identity/claim", { data: { claim_token: claimToken } });
  const { attempt } = await start.json();
  await page.goto(attempt.verification_uri);
  await page.getByLabel("Your email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await expect(page.getByTestId("code-sent")).toContainText(email);
  await page.getByLabel("Sign-in code").fill(await readSignInCode(page.context(), email));
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Yes, I started this agent" }).click();
  await page.getByRole("button", { name: "Confirm, this is my agent" }).click();
  const userCode = (await page.getByTestId("user-code").innerText()).trim();
  const done = await request.post("/agent/identity/claim/complete", { data: { claim_token: claimToken, user_code: userCode } });
  expect(done.status()).toBe(200);
  return accessToken(request, (await done.json()).identity.assertion);
}

async function noSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ doc: document.documentElement.scrollWidth, view: window.innerWidth }));
  expect(widths.doc).toBeLessThanOrEqual(widths.view);
}

test("a person claims an agent, sets a daily budget, the agent's call past it is refused with budget_exceeded, and the spend shows", async ({
  page,
  request,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const email = `budget-${Date.now().toString(36)}@example.com`;

  // The agent registers and buys $5.00 of research credits with the official x402 client.
  const reg = await (await request.post("/agent/identity", { data: { type: "anonymous" } })).json();
  const first = await accessToken(request, reg.identity.assertion);
  const plans = (await (await request.get("/manifest.json")).json()).plans as { slug: string; purchase: { url: string } }[];
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: PAYER });
  client.setSpendControls({ maxAmountPerPayment: "$20" });
  const bought = await wrapFetchWithPayment(fetch, client)(plans.find((p) => p.slug === "research-credits")!.purchase.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${first}` },
    body: JSON.stringify({ amountUsd: "5.00" }),
  });
  expect(bought.status).toBe(200);
  const token = await claimInBrowser(page, request, reg.claim.token, email);

  // The person, signed in by the claim, opens their account and sets a $0.02 daily budget on the agent.
  await page.goto("/account");
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  const agent = page.getByTestId(`agent-${reg.identity.id}`);
  await expect(agent).toContainText("Research credits");
  const form = agent.getByTestId(`budget-form-${reg.identity.id}`);
  await form.getByLabel("Per day (UTC), USD").fill("0.02");
  await form.getByRole("button", { name: "Save budget" }).click();
  await expect(form.getByRole("status")).toContainText("Saved");

  // The agent spends up to it ($0.01 a call), then is refused before anything is charged.
  const call = () => fetch(`${baseURL}/api/v1/avg-interest-rates`, { headers: { authorization: `Bearer ${token}` } });
  for (let i = 0; i < 2; i++) expect((await call()).status).toBe(200);
  const refused = await call();
  expect(refused.status).toBe(403);
  expect(await refused.json()).toMatchObject({ error: "budget_exceeded", budgetPeriod: "day", limitUsd: "0.020000", remainingUsd: "0.000000" });
  await expect
    .poll(
      async () =>
        (
          await query<{ n: number }>("select count(*)::int as n from payments where credential_id = $1 and rail = 'credits' and status = 'consumed'", [
            reg.identity.id,
          ])
        )[0]!.n,
    )
    .toBe(2);

  // The spend shows, with the paid calls and their receipts.
  await page.reload();
  await expect(page.getByTestId(`spent-${reg.identity.id}`)).toHaveText("Spent today $0.02, this month $0.02");
  const calls = page.getByTestId("paid-calls").getByRole("listitem");
  await expect(calls).toHaveCount(2);
  const receipt = await request.get(
    await calls
      .first()
      .getByRole("link", { name: "svc-receipt" })
      .getAttribute("href")
      .then((h) => h!),
  );
  expect(receipt.status()).toBe(200);
  expect((await receipt.json()).receipt).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  const csv = await page.request.get("/account/calls.csv");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect((await csv.text()).trim().split("\r\n")).toHaveLength(3);

  await noSidewaysScroll(page);
  expect(await axeProblems(page, "/account")).toEqual([]);
  await attachScreenshot(page, testInfo, "account-390");
});

test("signed out, the account asks for the email and passes axe on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/account");
  await expect(page.getByLabel("Your email")).toBeVisible();
  await page.getByLabel("Your email").fill(`nobody-${Date.now().toString(36)}@example.com`);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  // Everyone is told the same, so the page does not say who has an account.
  await expect(page.getByTestId("code-sent")).toContainText("If nobody-");
  await noSidewaysScroll(page);
  expect(await axeProblems(page, "/account signed out")).toEqual([]);
});
