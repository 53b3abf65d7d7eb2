// The console's team, from both sides, in Chromium against the built app: an owner invites a viewer from Settings; the
// invited person opens the emailed link, chooses a name and password, and signs in; the link works once; the viewer
// reads the console and is refused a change; Settings, Prices, Webhooks, Plans and Identity providers show the owner's
// forms disabled with the reason.
import { expect, test } from "@playwright/test";
import { axeProblems } from "./page-checks";
import { SECOND, signIn } from "./sellers";

test("an owner invites a viewer by email; the link works once; the viewer signs in, reads, and is refused a change", async ({ page, browser }) => {
  const email = `viewer-${Date.now().toString(36)}@second-seller.test`;
  await signIn(page, SECOND);
  await page.goto("/console/settings");
  const team = page.getByTestId("section-team");
  await expect(team.getByTestId("team-member").filter({ hasText: SECOND.email })).toBeVisible();
  await page.getByTestId("team-invite-email").fill(email);
  await page.getByTestId("team-invite-role").selectOption("viewer");
  await page.getByTestId("team-invite-send").click();
  await expect(page.getByTestId("team-invite-sent")).toContainText(email);
  await expect(team.getByTestId("team-invite").filter({ hasText: email })).toContainText("invited as viewer");

  await page.goto("/outbox");
  const mail = await page.getByTestId("outbox-message").filter({ hasText: email }).first().innerText();
  const link = /\/console\/invite\?token=[A-Za-z0-9_-]+/.exec(mail)![0];

  const invited = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await invited.newPage();
  await phone.goto(link);
  await expect(phone.getByRole("heading", { name: "Join a seller console" })).toBeVisible();
  expect(await axeProblems(phone, "the invitation page")).toEqual([]);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  await phone.getByTestId("invite-name").fill("Val Viewer");
  await phone.getByTestId("invite-password").fill("short");
  await phone.getByTestId("invite-submit").click();
  // The browser's own check stops a password under 12 characters before it is sent.
  await expect(phone.getByTestId("invite-result")).toHaveCount(0);
  const password = "viewer-password-0123";
  await phone.getByTestId("invite-password").fill(password);
  await phone.getByTestId("invite-submit").click();
  await expect(phone.getByTestId("invite-result")).toContainText("as a viewer");

  // Once only: the same link again is refused, and no second account is made.
  await phone.goto(link);
  await phone.getByTestId("invite-name").fill("Someone Else");
  await phone.getByTestId("invite-password").fill("another-password-0123");
  await phone.getByTestId("invite-submit").click();
  await expect(phone.getByTestId("invite-result")).toContainText("no longer valid");
  await invited.close();

  const viewer = await browser.newContext();
  const viewerPage = await viewer.newPage();
  await signIn(viewerPage, { email, password });
  await viewerPage.goto("/console/settings");
  await expect(viewerPage.getByTestId("section-team").getByTestId("team-member").filter({ hasText: email })).toContainText("Val Viewer");
  // The owner's controls are there, disabled, with the reason; the server refuses a change anyway.
  const invite = viewerPage.getByTestId("section-team").getByTestId("owner-only");
  await expect(invite.getByTestId("owner-only-reason")).toHaveText("Only an owner can change this: you are a viewer of this storefront.");
  await expect(viewerPage.getByTestId("team-invite-send")).toBeDisabled();
  await expect(viewerPage.getByTestId("team-invite-email")).toBeDisabled();
  await expect(viewerPage.getByTestId("owner-only").first()).toContainText("Only an owner can change this");
  expect(await axeProblems(viewerPage, "Settings as a viewer")).toEqual([]);
  const refused = await viewerPage.request.post("/api/trpc/team.invite", {
    data: { json: { email: `nobody-${Date.now().toString(36)}@second-seller.test`, role: "viewer" } },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("only an owner");
  // Prices: the editor disabled, with the reason. Payments: no refund button at all.
  await viewerPage.goto("/console/prices");
  await expect(viewerPage.getByTestId("section-prices").getByTestId("owner-only-reason")).toBeVisible();
  await expect(viewerPage.locator('[data-testid^="price-save-"]').first()).toBeDisabled();
  await viewerPage.goto("/console/payments");
  await expect(viewerPage.getByTestId("payments-table").or(viewerPage.getByTestId("payments-empty")).first()).toBeVisible();
  await expect(viewerPage.getByTestId("payment-card-refund")).toHaveCount(0);
  await expect(viewerPage.getByTestId("payment-refund-open")).toHaveCount(0);
  // Webhooks, plans and identity providers: the owner's forms there, disabled, with the reason; axe finds nothing serious.
  const reason = "Only an owner can change this: you are a viewer of this storefront.";
  await viewerPage.goto("/console/webhooks");
  await expect(viewerPage.getByTestId("section-webhook-endpoints").getByTestId("owner-only-reason")).toHaveText(reason);
  await expect(viewerPage.getByTestId("webhook-url")).toBeDisabled();
  await expect(viewerPage.getByTestId("webhook-add")).toBeDisabled();
  expect(await axeProblems(viewerPage, "Webhooks as a viewer")).toEqual([]);
  await viewerPage.goto("/console/plans");
  await expect(viewerPage.getByTestId("plan-create-open")).toBeDisabled();
  await expect(viewerPage.getByTestId("owner-only-reason").first()).toHaveText(reason);
  await expect(viewerPage.getByTestId("section-meters").getByTestId("owner-only-reason")).toHaveText(reason);
  await expect(viewerPage.locator('[data-testid^="meter-included-save-"]').first()).toBeDisabled();
  await expect(viewerPage.locator('[data-testid^="plan-edit-"]').first()).toBeDisabled();
  await expect(viewerPage.locator('[data-testid^="plan-edit-"]').first()).toHaveAttribute("title", reason);
  expect(await axeProblems(viewerPage, "Plans as a viewer")).toEqual([]);
  await viewerPage.goto("/console/identity");
  await expect(viewerPage.getByTestId("owner-only-reason")).toHaveText(reason);
  await expect(viewerPage.getByTestId("idp-issuer")).toBeDisabled();
  await expect(viewerPage.getByTestId("idp-add")).toBeDisabled();
  expect(await axeProblems(viewerPage, "Identity providers as a viewer")).toEqual([]);
  const refusedProvider = await viewerPage.request.post("/api/trpc/identity.addProvider", {
    data: { json: { issuer: "https://idp.example.com", jwksUri: "https://idp.example.com/jwks.json" } },
  });
  expect(refusedProvider.status()).toBe(403);
  await viewer.close();
});
