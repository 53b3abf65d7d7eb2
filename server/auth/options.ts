// next-auth (v4) for people: sellers sign in to the console with email + password ("seller" credentials
// provider); humans confirming agent claims sign in with the providers in server/identity (added by the
// identity work). Sessions are JWTs in an HttpOnly cookie (Secure in production); `kind` tells a seller from a human.
// A session carries its person's session version: sign-out (and a password reset) bumps it, so the cookie of a session
// that was ended is refused on every instance from its next request, however it was copied. Attempts are limited per
// account and per client address (server/rate-limits/sign-in-limit.ts), before any password is checked. A seller with
// two-step authentication on gives a current code with the password (server/auth/two-step.ts): no code, no session.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "../env";
import { deriveKey } from "../lib/derive-key";
import { authLogger } from "./auth-logger";
import { humanEmailProvider } from "./human-provider";
import { signInSeller } from "./authenticate-seller";
import { limitedSignIn } from "./limited-sign-in";
import { bumpSessionVersion, findSessionVersion, type SessionKind } from "./sessions.queries";

export type { SessionKind };

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name?: string | null; kind: SessionKind; sellerId?: string };
  }
  interface User {
    kind?: SessionKind;
    sellerId?: string;
    sessionVersion?: number;
  }
}
declare module "next-auth/jwt" {
  interface JWT {
    uid?: string;
    kind?: SessionKind;
    sellerId?: string;
    /** The person's session version when the session was made (sessions.queries.ts). */
    sv?: number;
  }
}

// next-auth v4 takes the public origin from the request (X-Forwarded-Host, which Next sets) when this is on,
// so the same build works on localhost, 127.0.0.1 and any seller host without NEXTAUTH_URL.
process.env.AUTH_TRUST_HOST ??= "1";

/** Extra providers and callbacks contributed by other domains (the identity work adds human sign-in here). */
export const extraProviders: NextAuthOptions["providers"] = [];

/**
 * Session cookies are Secure wherever the site is https, and in production everywhere but this machine's own demo
 * (PUBLIC_URL on a loopback host over http, where browsers would drop a Secure cookie): a production session never
 * travels over plain http, whatever PUBLIC_URL's scheme says.
 */
export function secureCookies(e = env()): boolean {
  if (!e.PUBLIC_URL) return e.NODE_ENV === "production";
  const url = new URL(e.PUBLIC_URL);
  if (url.protocol === "https:") return true;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const loopback = host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "::1";
  return e.NODE_ENV === "production" && !loopback;
}

let cached: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  cached = {
    secret: deriveKey("next-auth").toString("base64url"),
    session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
    pages: { signIn: "/console/sign-in" },
    events: {
      // Sign-out ends the session on the server: every copy of its cookie is refused from now on.
      async signOut({ token }) {
        if (token?.uid && token.kind) await bumpSessionVersion(token.kind, token.uid);
      },
    },
    // A malformed session cookie is one short line, not a stack trace per request (auth-logger.ts).
    logger: authLogger,
    useSecureCookies: secureCookies(),
    providers: [
      CredentialsProvider({
        id: "seller",
        name: "Seller account",
        // `code`: the second factor of an account with two-step authentication on (server/auth/two-step.ts); without it
        // the right password answers `code_required` and makes no session.
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          code: { label: "Authentication code", type: "text" },
        },
        async authorize(credentials, req) {
          if (!credentials?.email || !credentials.password || credentials.email.length > 320 || credentials.password.length > 1024) return null;
          const { email, password } = credentials;
          const code = credentials.code?.trim() || null;
          if (code && code.length > 64) return null;
          const p = await limitedSignIn("seller", email, req?.headers, () => signInSeller(email, password, code));
          return p ? { id: p.id, email: p.email, name: p.name, kind: "seller", sellerId: p.sellerId, sessionVersion: p.sessionVersion } : null;
        },
      }),
      // Humans confirming agent claims: email + a one-time code (server/identity/human-sign-in.ts).
      humanEmailProvider(),
      ...extraProviders,
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user) {
          token.uid = user.id;
          token.kind = user.kind ?? "human";
          token.sellerId = user.sellerId;
          token.sv = user.sessionVersion ?? 0;
          return token;
        }
        // Every later use of the session: over once its person's version moved on (signed out, password reset).
        if (token.uid && token.kind && (await findSessionVersion(token.kind, token.uid)) !== (token.sv ?? 0)) return { ended: true };
        return token;
      },
      async session({ session, token }) {
        session.user = {
          id: token.uid ?? "",
          email: token.email ?? "",
          name: token.name,
          kind: token.kind ?? "human",
          sellerId: token.kind === "seller" ? token.sellerId : undefined,
        };
        return session;
      },
      async redirect({ url, baseUrl }) {
        // Only same-origin redirects (no open redirect through callbackUrl).
        if (url.startsWith("/")) return `${baseUrl}${url}`;
        try {
          if (new URL(url).origin === baseUrl) return url;
        } catch {
          /* fall through */
        }
        return baseUrl;
      },
    },
  };
  return cached;
}
