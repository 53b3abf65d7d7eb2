// The session that turned two-step authentication on stays signed in while every other one ends: the account's session
// version moved on in the change's transaction (two-step.queries.ts), and this session's cookie is issued again, the
// same JWT carrying the new version, on the response of the change. Every other copy of any session cookie of the
// account carries an older version and is refused from its next request (options.ts), on every instance.
import "server-only";
import { encode, getToken } from "next-auth/jwt";
import { authOptions, secureCookies } from "./options";

/** next-auth v4's session cookie, as it names and sets it (core/lib/cookie.js `sessionToken`). */
export function sessionCookieName(): string {
  return `${secureCookies() ? "__Secure-" : ""}next-auth.session-token`;
}

function cookiesOf(header: string | null): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) jar.set(part.slice(0, eq).trim(), decodeURIComponent(part.slice(eq + 1).trim()));
  }
  return jar;
}

/**
 * The `Set-Cookie` value of the request's own session renewed with `sessionVersion`, or null when the request has no
 * session of `userId` (nothing is issued for anyone else).
 */
export async function renewedSessionCookie(requestHeaders: Headers, userId: string, sessionVersion: number): Promise<string | null> {
  const options = authOptions();
  const name = sessionCookieName();
  const token = await getToken({ req: { cookies: cookiesOf(requestHeaders.get("cookie")), headers: {} } as never, secret: options.secret, cookieName: name });
  if (!token || token.uid !== userId || token.kind !== "seller") return null;
  const maxAge = options.session!.maxAge!;
  const value = await encode({ token: { ...token, sv: sessionVersion }, secret: options.secret!, maxAge });
  const expires = new Date(Date.now() + maxAge * 1000).toUTCString();
  return `${name}=${value}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax${secureCookies() ? "; Secure" : ""}`;
}

/** For a route's tRPC context: renew the request's session by appending its cookie to the response's headers. */
export function sessionRenewal(requestHeaders: Headers, responseHeaders: Headers) {
  return async (userId: string, sessionVersion: number): Promise<void> => {
    const cookie = await renewedSessionCookie(requestHeaders, userId, sessionVersion);
    if (cookie) responseHeaders.append("set-cookie", cookie);
  };
}
