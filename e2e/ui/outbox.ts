// The demo outbox (IDENTITY_DEV_OUTBOX=1 on the e2e server): the person reads the six-digit sign-in code of the newest
// email to them, in another tab of their browser, as they would in their mail.
import { expect, type BrowserContext } from "@playwright/test";

export async function readSignInCode(context: BrowserContext, email: string): Promise<string> {
  const outbox = await context.newPage();
  await outbox.goto("/outbox");
  const message = outbox.getByTestId("outbox-message").filter({ hasText: email }).first();
  await expect(message).toBeVisible();
  const subject = await message.getByTestId("outbox-subject").innerText();
  await outbox.close();
  return /(\d{6})/.exec(subject)![1]!;
}
