// The console's identity providers: a seller adds a provider by JWKS URL, sees it listed and published in
// /.well-known/oauth-authorization-server, disables it (gone from the metadata), removes it; bad input shows
// the schema's message and adds nothing. Data-level guarantees (audit rows in the same transaction, scoping,
// private key members dropped, an ID-JAG accepted once added) are in server/trpc/routers/identity.db.test.ts.
import { expect, test, type Page } from "@playwright/test";
import { DEMO, openConsolePage, signIn } from "./sellers";

// Unique per run, so a rerun against a kept database never meets an earlier run's provider.
const ISSUER = `https://idp.example.test/e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
const JWKS_URI = `${ISSUER}/jwks.json`;

async function trustedIssuers(page: Page): Promise<string[]> {
  const res = await page.request.get("/.well-known/oauth-authorization-server");
  expect(res.status()).toBe(200);
  return (await res.json()).agent_auth.trusted_issuers;
}

test("a seller adds a trusted identity provider, sees it published, disables it and removes it", async ({ page }) => {
  await signIn(page, DEMO);
  await openConsolePage(page, "Identity providers");
  // The storefront's hosts, read-only.
  await expect(page.getByTestId("idp-hosts")).toContainText("same storefront");
  await expect(page.getByTestId("idp-host-127.0.0.1")).toBeVisible();
  await expect(page.getByTestId("idp-host-localhost")).toBeVisible();

  const row = page.getByTestId(`idp-row-${ISSUER}`);
  await expect(row).toHaveCount(0);

  // Bad input: the shared schema's messages next to the fields, nothing added.
  await page.getByTestId("idp-issuer").fill(ISSUER);
  await page.getByTestId("idp-add").click();
  await expect(page.getByTestId("idp-error-jwks")).toContainText("give exactly one of jwksUri or jwks");
  await page.getByTestId("idp-jwks-uri").fill(JWKS_URI.replace("https:", "http:"));
  await page.getByTestId("idp-add").click();
  await expect(page.getByTestId("idp-error-jwksUri")).toContainText("jwksUri must be an https URL");
  await expect(row).toHaveCount(0);
  expect(await trustedIssuers(page)).not.toContain(ISSUER);

  // Add by JWKS URL: listed, enabled, published.
  await page.getByTestId("idp-jwks-uri").fill(JWKS_URI);
  await page.getByTestId("idp-add").click();
  await expect(page.getByTestId("idp-add-status")).toContainText(ISSUER);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("idp-key-source")).toHaveText(JWKS_URI);
  await expect(row.getByTestId("idp-state")).toHaveText("Enabled");
  await expect(row).toContainText("UTC");
  await expect(page.getByTestId("idp-error-jwksUri")).toHaveCount(0);
  expect(await trustedIssuers(page)).toContain(ISSUER);
  // The change in words; its action name only on hover.
  await expect(page.getByTestId("audit-log")).toContainText("Identity provider added");
  await expect(page.getByTestId("audit-log").getByTitle("identity_provider.add").first()).toBeVisible();
  await expect(page.getByTestId("audit-log")).not.toContainText("identity_provider.add");

  // Disable: still listed, gone from the metadata.
  await row.getByTestId("idp-toggle").click();
  await expect(row.getByTestId("idp-state")).toHaveText("Disabled");
  expect(await trustedIssuers(page)).not.toContain(ISSUER);
  await expect(page.getByTestId("audit-log")).toContainText("Identity provider changed");
  await expect(page.getByTestId("audit-log").getByTitle("identity_provider.update").first()).toBeVisible();

  // Remove (asks once more first).
  await row.getByTestId("idp-remove").click();
  await row.getByTestId("idp-remove-confirm").click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId("audit-log")).toContainText("Identity provider removed");
  await expect(page.getByTestId("audit-log").getByTitle("identity_provider.remove").first()).toBeVisible();
  expect(await trustedIssuers(page)).not.toContain(ISSUER);

  // After a reload the list still agrees with the database.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Identity providers" })).toBeVisible();
  await expect(page.getByTestId("idp-hosts")).toBeVisible();
  await expect(page.getByTestId(`idp-row-${ISSUER}`)).toHaveCount(0);
});
