// The email a seller user gets when two-step authentication is turned on or off for their account: a change made from
// a session someone else holds (a stolen cookie, a borrowed laptop) reaches the owner of the address, who can reset the
// password (which ends every session). Sent through the mail path after the change commits; a mail that cannot be
// sent is logged there and never undoes the change.
import { sendMail } from "../identity/send-mail";

export async function mailTwoStepChange(input: { to: string; turned: "on" | "off"; at: Date; origin?: string }): Promise<void> {
  const when = `${input.at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const reset = input.origin ? ` at ${input.origin}/console/reset-password` : "";
  const what =
    input.turned === "on"
      ? `Two-step authentication was turned on for your seller console account at ${when}. Signing in now asks for a code ` +
        `from your authenticator app after your password, and every other session of your account was signed out.`
      : `Two-step authentication was turned off for your seller console account at ${when}. Signing in now asks for ` + `your password only.`;
  await sendMail({
    to: input.to,
    subject: `Two-step authentication turned ${input.turned}`,
    text: `${what}\n\nIf this was not you, reset your password now${reset}: that signs out every session of your account.`,
  });
}
