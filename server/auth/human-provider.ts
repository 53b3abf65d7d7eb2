// The next-auth provider humans sign in with on the claim page: email + the six-digit code we emailed.
// Registered in options.ts; the session it makes has kind "human" and the verified email.
import CredentialsProvider from "next-auth/providers/credentials";
import { verifySignInCode } from "../identity/human-sign-in";
import { limitedSignIn } from "./limited-sign-in";

export const HUMAN_PROVIDER_ID = "human-email";

export function humanEmailProvider() {
  return CredentialsProvider({
    id: HUMAN_PROVIDER_ID,
    name: "Email code",
    credentials: { email: { label: "Email", type: "email" }, code: { label: "Code from the email", type: "text" } },
    async authorize(credentials, req) {
      if (!credentials?.email || !credentials.code || credentials.email.length > 320 || credentials.code.length > 32) return null;
      // Limited per email and per address like a seller's password (the code itself also dies after five wrong tries).
      const human = await limitedSignIn("human", credentials.email, req?.headers, () => verifySignInCode(credentials.email, credentials.code));
      return human ? { id: human.id, email: human.email, name: human.email, kind: "human" as const, sessionVersion: human.sessionVersion } : null;
    },
  });
}
