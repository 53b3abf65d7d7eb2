// The whole claim, end to end: an agent registers service_auth, a human opens the verification link in
// Chromium, signs in with the emailed code (demo outbox), confirms and reads the user code; the agent completes
// the claim, exchanges the assertion and calls /agent/entitlements. Needs IDENTITY_DEV_OUTBOX=1 on the server.
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";
import { readSignInCode } from "./outbox";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

test("service_auth claim: register, human confirms in the browser, agent completes and calls entitlements", async ({ page, request }) => {
  const email = `human-${Date.now().toString(36)}@example.com`;

  // Agent: register. No credential yet, only the claim.
  const reg = await request.post("/agent/identity", { data: { type: "service_auth", login_hint: email } });
  expect(reg.status()).toBe(201);
  const { claim, identity } = await reg.json();
  expect(identity).toBeNull();
  expect(claim.attempt.verification_uri).toMatch(/\/claim\/[A-Za-z0-9_-]+$/);

  const early = await request.post("/agent/identity/claim/complete", { data: { claim_token: claim.token, user_code: "BCDF-GHJK" } });
  expect((await early.json()).error).toBe("claim_not_confirmed");

  // Human: open the link, ask for a sign-in code.
  await page.goto(claim.attempt.verification_uri);
  await expect(page.getByRole("heading", { name: "Claim your agent" })).toBeVisible();
  await expect(page.getByLabel("Your email")).toHaveValue(email);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await expect(page.getByTestId("code-sent")).toContainText(email);

  // Read the code from the demo outbox, in another tab.
  const signInCode = await readSignInCode(page.context(), email);

  await page.getByLabel("Sign-in code").fill(signInCode);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(email);

  // Confirm and read the user code off the page.
  // "Is this your agent?" comes first, with the agent's details; the confirm button only after the answer.
  await expect(page.getByTestId("is-this-your-agent")).toBeVisible();
  await page.getByRole("button", { name: "Yes, I started this agent" }).click();
  await page.getByRole("button", { name: "Confirm, this is my agent" }).click();
  const userCode = (await page.getByTestId("user-code").innerText()).trim();
  expect(userCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);

  // Agent: complete the claim with the code, once.
  const done = await request.post("/agent/identity/claim/complete", { data: { claim_token: claim.token, user_code: userCode } });
  expect(done.status()).toBe(200);
  const { identity: claimed } = await done.json();
  expect(claimed).toMatchObject({ type: "service_auth", status: "claimed", human: { email } });
  expect(claimed.refresh_token.value).toBeTruthy();
  const again = await request.post("/agent/identity/claim/complete", { data: { claim_token: claim.token, user_code: userCode } });
  expect((await again.json()).error).toBe("already_claimed");

  // Exchange the assertion and call entitlements with the bearer.
  const tok = await request.post("/oauth2/token", { form: { grant_type: JWT_BEARER, assertion: claimed.assertion } });
  expect(tok.status()).toBe(200);
  const { access_token, token_type } = await tok.json();
  expect(token_type).toBe("Bearer");
  const ent = await request.get("/agent/entitlements", { headers: { authorization: `Bearer ${access_token}` } });
  expect(ent.status()).toBe(200);
  expect(await ent.json()).toMatchObject({ agent: { id: claimed.id, claimed: true, human: { email } }, plans: [] });

  // The page now says the claim is done.
  await page.reload();
  await expect(page.getByTestId("claim-state")).toContainText("claimed");
});

test("plus aliases are refused, and a human signed in with another address cannot confirm", async ({ page, request }) => {
  const owner = `owner-${Date.now().toString(36)}@example.com`;
  const other = `other-${Date.now().toString(36)}@example.com`;
  const reg = await request.post("/agent/identity", { data: { type: "service_auth", login_hint: owner } });
  const { claim } = await reg.json();
  await page.goto(claim.attempt.verification_uri);
  await page.getByLabel("Your email").fill("someone+alias@example.com");
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await expect(page.getByTestId("sign-in-error")).toContainText("plus-aliased");

  await page.getByLabel("Your email").fill(other);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await expect(page.getByTestId("code-sent")).toContainText(other);
  await page.getByLabel("Sign-in code").fill(await readSignInCode(page.context(), other));
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("wrong-human")).toContainText(`This claim is for ${owner}`);
  await expect(page.getByRole("button", { name: "Confirm, this is my agent" })).toHaveCount(0);
});

test.describe("in the reader's time zone", () => {
  test.use({ timezoneId: "America/New_York", locale: "en-US" });

  test("the page says what confirming grants, warns, names the seller and the time left; a signed-in person is asked first", async ({ page, request }) => {
    const email = `signed-in-${Date.now().toString(36)}@example.com`;
    // This person signs in on a claim of their own first, so they arrive at the next link already signed in.
    const own = await request.post("/agent/identity", { data: { type: "service_auth", login_hint: email } });
    await page.goto((await own.json()).claim.attempt.verification_uri);
    await expect(page.getByTestId("claim-grants")).toContainText("your plans, your prepaid credit and your free included units");
    await expect(page.getByTestId("claim-warning")).toContainText("never share the code");
    await expect(page.getByTestId("claim-seller")).toContainText("An AI agent asks to be linked to you at");
    // The link's expiry in the reader's zone (New York in November: EST), with the minutes left.
    await expect(page.getByTestId("claim-expires-at")).toContainText(/EST/);
    await expect(page.getByTestId("claim-time-left")).toHaveText(/, in (9|10) minutes/);
    await page.getByRole("button", { name: "Email me a sign-in code" }).click();
    await expect(page.getByTestId("code-sent")).toContainText(email);
    await page.getByLabel("Sign-in code").fill(await readSignInCode(page.context(), email));
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);

    // Someone else's agent (anonymous: any signed-in person could confirm it) sends this person its link.
    const stranger = await request.post("/agent/identity", { data: { type: "anonymous" } });
    const { claim, identity } = await stranger.json();
    const start = await request.post("/agent/identity/claim", { data: { claim_token: claim.token } });
    const { attempt } = await start.json();
    await page.goto(attempt.verification_uri);
    await expect(page.getByTestId("signed-in-as")).toHaveText(email);
    const ask = page.getByTestId("is-this-your-agent");
    await expect(ask).toContainText("Is this your agent?");
    await expect(ask.getByTestId("agent-id")).toHaveText(identity.id);
    await expect(ask.getByTestId("agent-registered")).toContainText(/EST/);
    await expect(page.getByRole("button", { name: "Confirm, this is my agent" })).toHaveCount(0);
    // The question step passes axe too (the page before sign-in is checked in human-pages.spec.ts, at both widths).
    const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
    expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
    await page.getByRole("button", { name: "No, deny it" }).click();
    await expect(page.getByTestId("claim-state")).toContainText("You declined this claim.");
    const done = await request.post("/agent/identity/claim/complete", { data: { claim_token: claim.token, user_code: "BCDF-GHJK" } });
    expect((await done.json()).error).toBe("claim_denied");
  });
});
