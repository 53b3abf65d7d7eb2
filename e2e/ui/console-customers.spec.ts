// The console's Customers page in Chromium: a person claims two agent credentials (the claim ceremony in the browser,
// the sign-in code from the demo outbox), one of which bought research credits over the real x402 API with a demo
// wallet, and the other draws on that shared credit with a served call. The demo seller signs in and sees the person
// once in People (both credentials, the plan, the balance, what was bought and spent, the draw and the call) and each
// credential in Agent credentials. The exact figures per query are checked in server/billing/list-customer-humans.db.test.ts.
import { expect, test, type APIRequestContext, type Browser } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import { mnemonicToAccount } from "viem/accounts";
import { query } from "../stack";
import { DEMO, openConsolePage, signIn } from "./sellers";

// anvil mnemonic account 5: a payer wallet the e2e stack funds with test USDC.
const PAYER = mnemonicToAccount("test test test test test test test test test test test junk", { addressIndex: 5 });
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

async function accessToken(request: APIRequestContext, assertion: string): Promise<string> {
  const tok = await request.post("/oauth2/token", { form: { grant_type: JWT_BEARER, assertion } });
  expect(tok.status()).toBe(200);
  return (await tok.json()).access_token;
}

/** An anonymous agent credential: its id, bearer and claim token. */
async function register(request: APIRequestContext) {
  const reg = await request.post("/agent/identity", { data: { type: "anonymous" } });
  expect(reg.status()).toBe(201);
  const { identity, claim } = await reg.json();
  return { id: identity.id as string, token: await accessToken(request, identity.assertion), claimToken: claim.token as string };
}

/** The claim as a person does it: the agent starts it, the person signs in on the link and confirms, the agent completes it. */
async function claim(
  browser: Browser,
  request: APIRequestContext,
  claimToken: string,
  email: string,
  human: { context?: Awaited<ReturnType<Browser["newContext"]>> },
) {
  const start = await request.post("/agent/identity/claim", { data: { claim_token: claimToken } });
  expect(start.status()).toBe(201);
  const { attempt } = await start.json();
  human.context ??= await browser.newContext();
  const page = await human.context.newPage();
  await page.goto(attempt.verification_uri);
  await expect(page.getByRole("heading", { name: "Claim your agent" })).toBeVisible();
  // The first claim signs the person in; the second finds them signed in.
  if (!(await page.getByTestId("signed-in-as").isVisible())) {
    await page.getByLabel("Your email").fill(email);
    await page.getByRole("button", { name: "Email me a sign-in code" }).click();
    await expect(page.getByTestId("code-sent")).toContainText(email);
    const outbox = await human.context.newPage();
    await outbox.goto("/outbox");
    const subject = await outbox.getByTestId("outbox-message").filter({ hasText: email }).first().getByTestId("outbox-subject").innerText();
    await outbox.close();
    await page.getByLabel("Sign-in code").fill(/(\d{6})/.exec(subject)![1]!);
    await page.getByRole("button", { name: "Sign in" }).click();
  }
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  // "Is this your agent?" comes first, with the agent's details; the confirm button only after the answer.
  await expect(page.getByTestId("is-this-your-agent")).toBeVisible();
  await page.getByRole("button", { name: "Yes, I started this agent" }).click();
  await page.getByRole("button", { name: "Confirm, this is my agent" }).click();
  const userCode = (await page.getByTestId("user-code").innerText()).trim();
  await page.close();
  const done = await request.post("/agent/identity/claim/complete", { data: { claim_token: claimToken, user_code: userCode } });
  expect(done.status()).toBe(200);
  const { identity } = await done.json();
  expect(identity).toMatchObject({ status: "claimed", human: { email } });
  return accessToken(request, identity.assertion);
}

test("a seller sees a person with two claimed credentials, the plan they share, its balance and the spend", async ({ page, browser, request, baseURL }) => {
  test.setTimeout(120_000);
  const email = `people-${Date.now().toString(36)}@example.com`;
  const human: { context?: Awaited<ReturnType<Browser["newContext"]>> } = {};

  // The first credential buys $5.00 of research credits with the official x402 client, then is claimed.
  const first = await register(request);
  const plans = (await (await request.get("/manifest.json")).json()).plans as { slug: string; purchase: { url: string } }[];
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: PAYER });
  client.setSpendControls({ maxAmountPerPayment: "$20" });
  const bought = await wrapFetchWithPayment(fetch, client)(plans.find((p) => p.slug === "research-credits")!.purchase.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${first.token}` },
    body: JSON.stringify({ amountUsd: "5.00" }),
  });
  expect(bought.status).toBe(200);
  expect(await bought.json()).toMatchObject({ status: "credited", grant: { amountUsd: "5.000000" } });
  await claim(browser, request, first.claimToken, email, human);

  // The second credential of the same person draws on that credit: one served call at $0.01.
  const second = await register(request);
  const secondToken = await claim(browser, request, second.claimToken, email, human);
  const call = await fetch(`${baseURL}/api/v1/avg-interest-rates`, { headers: { authorization: `Bearer ${secondToken}` } });
  expect(call.status).toBe(200);
  expect(call.headers.get("svc-billing")).toMatch(/rail=credits;.*balance_usd=4\.990000/);
  await human.context?.close();
  // Served calls are captured off the response path: wait until this one is on record.
  await expect
    .poll(
      async () => (await query<{ n: number }>("select count(*)::int as n from payments where credential_id = $1 and status = 'consumed'", [second.id]))[0]!.n,
    )
    .toBe(1);

  await signIn(page, DEMO);
  await openConsolePage(page, "Customers");

  const person = page.getByTestId("section-people").locator('[data-testid^="person-row-"]').filter({ hasText: email });
  await expect(person).toHaveCount(1);
  await expect(person.getByTestId(`person-credential-${first.id}`)).toBeVisible();
  await expect(person.getByTestId(`person-credential-${second.id}`)).toBeVisible();
  await expect(person.getByTestId("person-plans")).toHaveText("Research credits");
  await expect(person.getByTestId("person-balance")).toHaveText("$4.99");
  await expect(person.getByTestId("person-purchased")).toHaveText("$5.00");
  await expect(person.getByTestId("person-spend")).toHaveText("$5.00");
  await expect(person.getByTestId("person-drawn")).toHaveText("$0.01");
  await expect(person.getByTestId("person-calls")).toHaveText("1");

  // Per credential: the buyer holds the credit and paid for it; the other drew on it and made the call.
  const credentials = page.getByTestId("section-credentials");
  const buyer = credentials.getByTestId(`credential-row-${first.id}`);
  await expect(buyer).toContainText(email);
  await expect(buyer.getByTestId("credential-plans")).toHaveText("Research credits");
  await expect(buyer.getByTestId("credential-balance")).toHaveText("$4.99");
  await expect(buyer.getByTestId("credential-spend")).toHaveText("$5.00");
  await expect(buyer.getByTestId("credential-calls")).toHaveText("0");
  const drawer = credentials.getByTestId(`credential-row-${second.id}`);
  await expect(drawer).toContainText(email);
  await expect(drawer.getByTestId("credential-balance")).toHaveText("$0.00");
  await expect(drawer.getByTestId("credential-spend")).toHaveText("$0.00");
  await expect(drawer.getByTestId("credential-drawn")).toHaveText("$0.01");
  await expect(drawer.getByTestId("credential-calls")).toHaveText("1");
});
