// Checks every page spec runs the same way: axe-core's serious and critical findings, and a screenshot attached to the
// test output.
import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";

/** Serious and critical axe violations (WCAG 2.2 AA and best practices) of the page as it is now, as short lines that say what to fix. */
export async function axeProblems(page: Page, where: string): Promise<string[]> {
  // A client-side refresh (the checkout's `router.refresh()` once paid) renders the page's metadata again, and its
  // <title> is gone for that moment: check the page once it is back. A page that has none still fails, on axe's rule.
  await page.waitForFunction(() => document.title.trim() !== "", undefined, { timeout: 5_000 }).catch(() => {});
  const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  return r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(", ")}`,
    );
}

/**
 * Violations of the named axe rules only, serious or not: for rules the tag set above leaves out, such as
 * `label-content-name-mismatch` (experimental in axe: a control's name must contain the words it shows).
 */
export async function axeRuleProblems(page: Page, where: string, rules: string[]): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withRules(rules).analyze();
  return r.violations.map(
    (v) =>
      `${where}: ${v.id} ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")}`,
  );
}

/** A full-page screenshot, attached to the test output under `name`. */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: "image/png" });
}
