// The person's hand on the purse, in Chromium against the built app: a person claims their agent (which signs them in),
// sets an approval threshold on /account/controls; the agent's paid call over it is held with an approval URL; the
// person opens the emailed link, approves, and the agent's retry of the same request is served and charged once. The
// person then freezes the agent: its next paid call is refused, unfreezing lets it pay again. Pages are axe-clean. The
// agent's retry with the very proof it was held with is served once, and that proof's replay re-delivers the paid
// answer; the seller sees the held calls on the console's funnel and Payments, apart from payment problems.
// Needs IDENTITY_DEV_OUTBOX=1 on the server (the e2e server sets it).
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import type { APIRequestContext } from "@playwright/test";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { readSignInCode } from "./outbox";
import { DEMO, openConsolePage, signIn } from "./sellers";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
// anvil default account 4 (a public test key), funded by the e2e stack.
const PAYER: Hex = "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a";
const CALL = `/api/v1/aggregates/AAPL?from=2017-04-03&to=2017-04-2${Math.floor(Math.random() * 9)}`;

/** The official x402 client's proof for this call's 402. */
async function paymentFor(request: APIRequestContext, path: string): Promise<Record<string, string>> {
  const res = await request.get(path);
  expect(res.status()).toBe(402);
  const c = new x402Client();
  registerExactEvmScheme(c, { signer: privateKeyToAccount(PAYER) });
  const http = new x402HTTPClient(c);
  const required = http.getPaymentRequiredResponse((name) => res.headers()[name.toLowerCase()] ?? null, await res.json());
  return http.encodePaymentSignatureHeader(await http.createPaymentPayload(required));
}

/** A service_auth agent claimed by `email` in this page (which signs the person in); its access token. */
async function claimAgent(page: Page, request: APIRequestContext, email: string): Promise<{ id: string; token: string }> {
  const { claim } = await (await request.post("/agent/identity", { data: { type: "service_auth", login_hint: email } })).json();
  await page.goto(claim.attempt.verification_uri);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await expect(page.getByTestId("code-sent")).toContainText(email);
  await page.getByLabel("Sign-in code").fill(await readSignInCode(page.context(), email));
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Yes, I started this agent" }).click();
  await page.getByRole("button", { name: "Confirm, this is my agent" }).click();
  const userCode = (await page.getByTestId("user-code").innerText()).trim();
  const done = await (await request.post("/agent/identity/claim/complete", { data: { claim_token: claim.token, user_code: userCode } })).json();
  const tok = await (await request.post("/oauth2/token", { form: { grant_type: JWT_BEARER, assertion: done.identity.assertion } })).json();
  return { id: done.identity.id, token: tok.access_token };
}

test("a call over the threshold waits for the person, who approves it by email; a freeze stops the agent at once", async ({ page, request }) => {
  const email = `purse-${Date.now().toString(36)}@example.com`;
  const agent = await claimAgent(page, request, email);
  const bearer = { authorization: `Bearer ${agent.token}` };

  await page.goto("/account/controls");
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);
  await expect(page.getByTestId("agent-row")).toContainText(agent.id);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByLabel("For all your agents: approve calls over").fill("0.01");
  await page.getByRole("button", { name: "Save" }).last().click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

  // The agent: held, with where to send its person.
  const held = await request.get(CALL, { headers: { ...bearer, ...(await paymentFor(request, CALL)) } });
  expect(held.status()).toBe(403);
  const body = await held.json();
  expect(body).toMatchObject({ error: "approval_required", amountUsd: "0.020000" });

  // The person: the email links the page; approve.
  const outbox = await page.context().newPage();
  await outbox.goto("/outbox");
  await expect(outbox.getByTestId("outbox-message").filter({ hasText: body.approvalUrl }).first()).toBeVisible();
  await outbox.close();
  await page.goto(new URL(body.approvalUrl).pathname);
  await expect(page.getByTestId("approval-amount")).toHaveText("$0.020000");
  await expect(page.getByTestId("approval-request")).toContainText("/api/v1/aggregates/AAPL");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByRole("button", { name: "Approve this call" }).click();
  await expect(page.getByTestId("approval-state")).toContainText("You approved this call");

  // The agent's retry of the same request: served once, charged once.
  const served = await request.get(CALL, { headers: { ...bearer, ...(await paymentFor(request, CALL)) } });
  expect(served.status(), await served.text()).toBe(200);
  expect(served.headers()["svc-billing"]).toContain("status=charged");
  const again = await request.get(CALL, { headers: { ...bearer, ...(await paymentFor(request, CALL)) } });
  expect((await again.json()).error).toBe("approval_required");
  await page.reload();
  await expect(page.getByTestId("approval-state")).toContainText("your agent was served it");

  // Freeze: the next paid call is refused; unfreeze: it pays again (under a raised threshold).
  await page.goto("/account/controls");
  await page.getByLabel("For all your agents: approve calls over").fill("");
  await page.getByRole("button", { name: "Save" }).last().click();
  await page.getByRole("button", { name: "Freeze" }).click();
  await expect(page.getByTestId("agent-state")).toContainText("Frozen");
  const frozen = await request.get(CALL, { headers: { ...bearer, ...(await paymentFor(request, CALL)) } });
  expect(frozen.status()).toBe(403);
  expect((await frozen.json()).error).toBe("credential_frozen");
  await page.getByRole("button", { name: "Unfreeze" }).click();
  await expect(page.getByTestId("agent-state")).toHaveText("Live");
  expect((await request.get(CALL, { headers: { ...bearer, ...(await paymentFor(request, CALL)) } })).status()).toBe(200);
});

test("an approved call's proof is served once and its replay re-delivers the paid answer; the seller sees held calls apart", async ({
  page,
  request,
  browser,
}) => {
  const email = `held-${Date.now().toString(36)}@example.com`;
  const agent = await claimAgent(page, request, email);
  const bearer = { authorization: `Bearer ${agent.token}` };
  await page.goto("/account/controls");
  await page.getByLabel("For all your agents: approve calls over").fill("0.01");
  await page.getByRole("button", { name: "Save" }).last().click();
  await expect(page.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();

  // The agent keeps the proof it was held with, and retries with that very proof once its person approved.
  const call = CALL.replace("2017-04-0", "2017-05-0");
  const headers = { ...bearer, ...(await paymentFor(request, call)) };
  const held = await (await request.get(call, { headers })).json();
  expect(held.error).toBe("approval_required");
  // A second call is held too and left waiting: the seller's console counts it as waiting now.
  const waiting = CALL.replace("2017-04-0", "2017-06-0");
  expect((await (await request.get(waiting, { headers: { ...bearer, ...(await paymentFor(request, waiting)) } })).json()).error).toBe("approval_required");
  await page.goto(new URL(held.approvalUrl).pathname);
  await page.getByRole("button", { name: "Approve this call" }).click();
  await expect(page.getByTestId("approval-state")).toContainText("You approved this call");
  const served = await request.get(call, { headers });
  expect(served.status(), await served.text()).toBe(200);
  const paid = await served.text();
  // The same proof again (a dropped connection): the answer it paid for, not a new hold and not a second charge.
  const replay = await request.get(call, { headers });
  expect(replay.status()).toBe(200);
  expect(await replay.text()).toBe(paid);

  // The seller, in the console: the held requests and the one waiting, apart from payment problems, in plain words.
  const seller = await browser.newPage();
  await signIn(seller, DEMO);
  await openConsolePage(seller, "402 funnel");
  const section = seller.getByTestId("section-person-controls");
  await expect(section).toContainText("held for the approval of the person who claimed the agent");
  expect(Number(await section.getByTestId("person-controls-held").getAttribute("data-count"))).toBeGreaterThanOrEqual(2);
  expect(Number(await section.getByTestId("person-controls-pending").getAttribute("data-count"))).toBeGreaterThanOrEqual(1);
  await expect(seller.getByTestId("funnel-reason-approval_required").getByTestId("funnel-reason-person")).toHaveText("The buyer's own rule");
  await openConsolePage(seller, "Payments");
  await expect(seller.getByTestId("payments-person-controls")).toContainText("held for the approval");
  await seller.close();
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the controls page asks a visitor to sign in, and fits", async ({ page }) => {
    await page.goto("/account/controls");
    await expect(page.getByRole("link", { name: "Sign in on your account page" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });
});
