// mppx servers of this storefront, one per (method, realm, terms), built once: every MPP-method rail issues its
// challenges under one secret (a sub-key of APP_SECRET of its own; mppx wants at least 32 bytes), so a challenge of
// either method is recognised as ours by the same HMAC, which also covers the method.
import { Challenge } from "mppx";
import { deriveKey } from "../../lib/derive-key";

const servers = new Map<string, unknown>();

const secretKey = () => deriveKey("mpp-challenge").toString("base64url");

/** Whether this storefront issued the challenge (its HMAC id verifies), whatever request or method it was for. */
export function challengeIsOurs(challenge: Parameters<typeof Challenge.verify>[0]): boolean {
  return Challenge.verify(challenge, { secretKey: secretKey() });
}

/** The mppx server `build` makes for `key` (a method and its terms), cached: a handful per process. */
export function mppxServer<S>(key: string, build: (secretKey: string) => S): S {
  const secret = secretKey();
  const id = `${secret}|${key}`;
  let s = servers.get(id) as S | undefined;
  if (!s) {
    if (servers.size > 1000) servers.clear();
    servers.set(id, (s = build(secret)));
  }
  return s;
}
