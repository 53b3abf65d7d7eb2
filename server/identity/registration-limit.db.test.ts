// Unauthenticated registrations write rows: each spends the caller's anonymous budget (per client address), so one
// client cannot mint credentials without end, while other clients and credential-bearing calls go on.
import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { withEnvForTests } from "../env";
import { registerIdentity } from "./register-identity";
import { makeStore } from "../testing/identity-harness";

let store: Awaited<ReturnType<typeof makeStore>>;
beforeAll(async () => {
  store = await makeStore("reg-limit");
});

/** Fixed one-minute windows: start where the next few calls cannot straddle two of them. */
async function awayFromMinuteBoundary(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 10_000) await new Promise((r) => setTimeout(r, left + 50));
}

const register = (client: string, body: unknown = { type: "anonymous" }) =>
  registerIdentity(body, { sellerId: store.sellerId, origin: store.origin, client }).then(
    (r) => r.status,
    (e: unknown) => (e instanceof AppError ? `${e.status} ${e.code} ${JSON.stringify(e.extra)}` : Promise.reject(e)),
  );

describe("the registration budget", () => {
  it("refuses a client's third unauthenticated registration in a minute at a limit of 2; other clients go on", async () => {
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "2", IDENTITY_DEV_OUTBOX: "1" }, async () => {
      await awayFromMinuteBoundary();
      const client = `198.51.100.${Math.floor(Math.random() * 250)}`;
      expect(await register(client)).toBe(201);
      expect(await register(client, { type: "service_auth", login_hint: "someone@example.com" })).toBe(201);
      expect(await register(client)).toMatch(/^429 rate_limit_exceeded .*"scope":"client","limit":2/);
      expect(await register("203.0.113.77")).toBe(201);
    });
  });
});
