import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { confirmClaimAttempt, denyClaimAttempt, viewClaimAttempt } from "./confirm-claim";
import { exchange, getJson, linkTokenOf, makeStore, postJson, signInHuman, useDevOutbox } from "../testing/identity-harness";

let store: Awaited<ReturnType<typeof makeStore>>;
const uniq = () => Math.random().toString(36).slice(2, 8);

beforeAll(async () => {
  useDevOutbox();
  store = await makeStore("claim");
});

async function serviceAuth(email: string) {
  const r = await postJson(store, "/agent/identity", { type: "service_auth", login_hint: email });
  expect(r.status).toBe(201);
  return { claimToken: r.body.claim.token as string, link: linkTokenOf(r.body.claim.attempt.verification_uri), body: r.body };
}

describe("service_auth registration and the claim ceremony", () => {
  it("refuses bad and plus-aliased login hints", async () => {
    expect((await postJson(store, "/agent/identity", { type: "service_auth", login_hint: "not-an-email" })).body.error).toBe("invalid_login_hint");
    const plus = await postJson(store, "/agent/identity", { type: "service_auth", login_hint: "jane+agents@example.com" });
    expect(plus.status).toBe(400);
    expect(plus.body).toMatchObject({ error: "invalid_login_hint", reason: "plus_aliased_email" });
    expect((await postJson(store, "/agent/identity", { type: "service_auth" })).body).toMatchObject({ error: "invalid_request", parameter: "login_hint" });
    // An unknown type is named with the types there are, in the spec's shape (not zod's own message).
    expect((await postJson(store, "/agent/identity", { type: "magic" })).body).toEqual({
      error: "invalid_request",
      reason: "invalid_parameter",
      parameter: "type",
      detail: "type must be one of anonymous, service_auth, identity_assertion, refresh",
    });
  });

  it("gives no credential before the claim, then the claimed identity exactly once", async () => {
    const email = `ann-${uniq()}@example.com`;
    const { claimToken, link, body } = await serviceAuth(email);
    expect(body.identity).toBeNull();
    expect(body.claim.attempt.verification_uri).toMatch(new RegExp(`^${store.origin}/claim/`));
    expect(body.claim.attempt.expires_in).toBe(600);
    // stored hashed, never in clear
    const row = await db.agentCredential.findFirstOrThrow({ where: { loginHint: email } });
    expect(row.claimTokenHash).not.toContain(claimToken);
    expect(row.status).toBe("pending_claim");

    const early = await postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: "BCDF-GHJK" });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe("claim_not_confirmed");

    // Another human cannot confirm a claim addressed to ann.
    const mallory = await signInHuman(`mallory-${uniq()}@example.com`);
    expect(await confirmClaimAttempt(link, mallory)).toMatchObject({ type: "refused" });

    const ann = await signInHuman(email);
    const confirmed = await confirmClaimAttempt(link, ann);
    if (confirmed.type !== "confirmed") throw new Error(confirmed.detail);
    expect(confirmed.userCode).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);

    const wrong = await postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: "BBBB-BBBB" });
    expect(wrong.body.error).toBe("invalid_user_code");

    const done = await postJson(store, "/agent/identity/claim/complete", {
      claim_token: claimToken,
      user_code: confirmed.userCode.toLowerCase().replace("-", " "),
    });
    expect(done.status).toBe(200);
    expect(done.body.identity).toMatchObject({ type: "service_auth", status: "claimed", claimed: true, human: { id: ann.id, email } });
    expect(done.body.identity.refresh_token.value).toMatch(/^rt_/);

    const again = await postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: confirmed.userCode });
    expect(again.body.error).toBe("already_claimed");
    expect((await postJson(store, "/agent/identity/claim", { type: "service_auth", claim_token: claimToken, login_hint: email })).body.error).toBe(
      "already_claimed",
    );

    const tok = await exchange(store, done.body.identity.assertion);
    expect(tok.status).toBe(200);
    expect(tok.body).toMatchObject({ token_type: "Bearer", expires_in: 600 });
    const ent = await getJson(store, "/agent/entitlements", { authorization: `Bearer ${tok.body.access_token}` });
    expect(ent.status).toBe(200);
    expect(ent.body).toMatchObject({ agent: { id: row.id, claimed: true, human: { id: ann.id, email } }, plans: [] });
  });

  it("links every credential the same human claims", async () => {
    const email = `bob-${uniq()}@example.com`;
    const bob = await signInHuman(email);
    const ids: string[] = [];
    let lastAssertion = "";
    for (let i = 0; i < 2; i++) {
      const { claimToken, link } = await serviceAuth(email);
      const c = await confirmClaimAttempt(link, bob);
      if (c.type !== "confirmed") throw new Error(c.detail);
      const done = await postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: c.userCode });
      ids.push(done.body.identity.id);
      lastAssertion = done.body.identity.assertion;
    }
    const tok = await exchange(store, lastAssertion);
    const ent = await getJson(store, "/agent/entitlements", { authorization: `Bearer ${tok.body.access_token}` });
    expect(ent.body.credentials).toEqual([ids[1], ids[0]]);
  });

  it("answers claim_denied, claim_expired, user_code_expired, too_many_attempts and invalid_claim_token", async () => {
    const email = `cat-${uniq()}@example.com`;
    const cat = await signInHuman(email);

    const denied = await serviceAuth(email);
    expect(await denyClaimAttempt(denied.link, cat)).toBe(true);
    expect((await postJson(store, "/agent/identity/claim/complete", { claim_token: denied.claimToken, user_code: "BCDF-GHJK" })).body.error).toBe(
      "claim_denied",
    );
    expect((await viewClaimAttempt(denied.link))?.state).toBe("denied");

    const stale = await serviceAuth(email);
    const staleCredential = await db.agentCredential.findFirstOrThrow({ where: { loginHint: email }, orderBy: { createdAt: "desc" } });
    await db.claimAttempt.updateMany({ where: { credentialId: staleCredential.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await postJson(store, "/agent/identity/claim/complete", { claim_token: stale.claimToken, user_code: "BCDF-GHJK" });
    expect(expired.status).toBe(410);
    expect(expired.body.error).toBe("claim_expired");
    expect(await confirmClaimAttempt(stale.link, cat)).toMatchObject({ type: "refused" });

    const slow = await serviceAuth(email);
    const c = await confirmClaimAttempt(slow.link, cat);
    if (c.type !== "confirmed") throw new Error(c.detail);
    await db.claimAttempt.updateMany({ where: { status: "confirmed", humanId: cat.id }, data: { userCodeExpiresAt: new Date(Date.now() - 1000) } });
    expect((await postJson(store, "/agent/identity/claim/complete", { claim_token: slow.claimToken, user_code: c.userCode })).body.error).toBe(
      "user_code_expired",
    );

    // Live attempts are capped: registration opened one, two more fit, the fourth is refused.
    const busy = await serviceAuth(email);
    for (let i = 0; i < 2; i++)
      expect((await postJson(store, "/agent/identity/claim", { type: "service_auth", claim_token: busy.claimToken, login_hint: email })).status).toBe(201);
    const tooMany = await postJson(store, "/agent/identity/claim", { type: "service_auth", claim_token: busy.claimToken, login_hint: email });
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.error).toBe("too_many_attempts");
    // The claim is for cat: another login_hint is refused.
    expect((await postJson(store, "/agent/identity/claim", { claim_token: busy.claimToken, login_hint: "dog@example.com" })).body.error).toBe(
      "invalid_login_hint",
    );

    // Five wrong codes lock the attempt.
    const guessed = await serviceAuth(email);
    const g = await confirmClaimAttempt(guessed.link, cat);
    if (g.type !== "confirmed") throw new Error(g.detail);
    const codes = [];
    for (let i = 0; i < 5; i++)
      codes.push((await postJson(store, "/agent/identity/claim/complete", { claim_token: guessed.claimToken, user_code: "ZZZZ-ZZZZ" })).body.error);
    expect(codes).toEqual(["invalid_user_code", "invalid_user_code", "invalid_user_code", "invalid_user_code", "too_many_attempts"]);
    expect((await postJson(store, "/agent/identity/claim/complete", { claim_token: guessed.claimToken, user_code: g.userCode })).body.error).toBe(
      "too_many_attempts",
    );

    expect((await postJson(store, "/agent/identity/claim/complete", { claim_token: "ct_nope", user_code: "BCDF-GHJK" })).body.error).toBe(
      "invalid_claim_token",
    );
    expect((await postJson(store, "/agent/identity/claim", { claim_token: "ct_nope" })).body.error).toBe("invalid_claim_token");
  });

  it("two concurrent completions claim once", async () => {
    const email = `dan-${uniq()}@example.com`;
    const dan = await signInHuman(email);
    const { claimToken, link } = await serviceAuth(email);
    const c = await confirmClaimAttempt(link, dan);
    if (c.type !== "confirmed") throw new Error(c.detail);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: c.userCode })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 200).every((r) => r.body.error === "already_claimed")).toBe(true);
    expect(await db.refreshToken.count({ where: { credential: { loginHint: email } } })).toBe(1);
  });
});

describe("anonymous credentials", () => {
  it("work at once, upgrade only through a new exchange after a claim, and die unclaimed", async () => {
    const reg = await postJson(store, "/agent/identity", { type: "anonymous" });
    expect(reg.status).toBe(201);
    expect(reg.body.identity).toMatchObject({ type: "anonymous", status: "unclaimed", claimed: false });
    expect(reg.body.identity.refresh_token).toBeUndefined();
    expect(reg.body.claim.token).toMatch(/^ct_/);
    const ttl = new Date(reg.body.identity.expires_at).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(3 * 86400_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(3 * 86400_000);

    const pre = await exchange(store, reg.body.identity.assertion);
    expect(pre.status).toBe(200);
    const preAuth = { authorization: `Bearer ${pre.body.access_token}` };
    expect((await getJson(store, "/agent/entitlements", preAuth)).body.agent).toMatchObject({ claimed: false, human: null });

    // Claim it (no login_hint: any signed-in human with a plain address).
    const start = await postJson(store, "/agent/identity/claim", { claim_token: reg.body.claim.token });
    expect(start.status).toBe(201);
    const eve = await signInHuman(`eve-${uniq()}@example.com`);
    const c = await confirmClaimAttempt(linkTokenOf(start.body.attempt.verification_uri), eve);
    if (c.type !== "confirmed") throw new Error(c.detail);
    const done = await postJson(store, "/agent/identity/claim/complete", { claim_token: reg.body.claim.token, user_code: c.userCode });
    expect(done.body.identity).toMatchObject({ id: reg.body.identity.id, status: "claimed", expires_at: null });

    // The pre-claim token does not upgrade itself; the pre-claim assertion is superseded.
    expect((await getJson(store, "/agent/entitlements", preAuth)).body.agent).toMatchObject({ claimed: false, human: null });
    expect((await exchange(store, reg.body.identity.assertion)).body).toMatchObject({ error: "invalid_grant", reason: "superseded" });
    const post = await exchange(store, done.body.identity.assertion);
    expect((await getJson(store, "/agent/entitlements", { authorization: `Bearer ${post.body.access_token}` })).body.agent).toMatchObject({
      claimed: true,
      human: { id: eve.id },
    });
  });

  it("stop working once expired unclaimed", async () => {
    const reg = await postJson(store, "/agent/identity", { type: "anonymous" });
    const tok = await exchange(store, reg.body.identity.assertion);
    await db.agentCredential.update({ where: { id: reg.body.identity.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const ent = await getJson(store, "/agent/entitlements", { authorization: `Bearer ${tok.body.access_token}` });
    expect(ent.status).toBe(401);
    expect(ent.body).toMatchObject({ error: "invalid_token", reason: "token_invalid" });
    expect((await exchange(store, reg.body.identity.assertion)).body).toMatchObject({ error: "invalid_grant", reason: "credential_expired" });
    expect((await postJson(store, "/agent/identity/claim", { claim_token: reg.body.claim.token })).body.error).toBe("claim_expired");
  });
});

describe("refresh", () => {
  it("rotates; a used or unknown token is invalid_refresh_token, and reuse revokes the family", async () => {
    const email = `fay-${uniq()}@example.com`;
    const fay = await signInHuman(email);
    const { claimToken, link } = await serviceAuth(email);
    const c = await confirmClaimAttempt(link, fay);
    if (c.type !== "confirmed") throw new Error(c.detail);
    const done = await postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: c.userCode });
    const rt1 = done.body.identity.refresh_token.value as string;

    const r2 = await postJson(store, "/agent/identity", { type: "refresh", refresh_token: rt1 });
    expect(r2.status).toBe(200);
    const rt2 = r2.body.identity.refresh_token.value as string;
    expect(rt2).not.toBe(rt1);
    expect(r2.body.identity).toMatchObject({ id: done.body.identity.id, status: "claimed", human: { id: fay.id } });
    expect((await exchange(store, r2.body.identity.assertion)).status).toBe(200);
    expect((await exchange(store, done.body.identity.assertion)).body.reason).toBe("superseded");

    const reuse = await postJson(store, "/agent/identity", { type: "refresh", refresh_token: rt1 });
    expect(reuse.status).toBe(400);
    expect(reuse.body).toMatchObject({ error: "invalid_refresh_token", reason: "reused" });
    // The replay revoked the live successor too.
    expect((await postJson(store, "/agent/identity", { type: "refresh", refresh_token: rt2 })).body.error).toBe("invalid_refresh_token");
    expect((await postJson(store, "/agent/identity", { type: "refresh", refresh_token: "rt_unknown" })).body).toMatchObject({
      error: "invalid_refresh_token",
      reason: "unknown",
    });
  });

  it("concurrent refreshes with one token: exactly one rotates", async () => {
    const email = `hal-${uniq()}@example.com`;
    const hal = await signInHuman(email);
    const { claimToken, link } = await serviceAuth(email);
    const c = await confirmClaimAttempt(link, hal);
    if (c.type !== "confirmed") throw new Error(c.detail);
    const done = await postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: c.userCode });
    const rt = done.body.identity.refresh_token.value as string;
    const results = await Promise.all(Array.from({ length: 6 }, () => postJson(store, "/agent/identity", { type: "refresh", refresh_token: rt })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.body.error === "invalid_refresh_token")).toHaveLength(5);
  });

  it("a refresh token works only at its own storefront", async () => {
    const other = await makeStore("claim-other");
    const email = `gus-${uniq()}@example.com`;
    const gus = await signInHuman(email);
    const { claimToken, link } = await serviceAuth(email);
    const c = await confirmClaimAttempt(link, gus);
    if (c.type !== "confirmed") throw new Error(c.detail);
    const done = await postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: c.userCode });
    const rt = done.body.identity.refresh_token.value as string;
    expect((await postJson(other, "/agent/identity", { type: "refresh", refresh_token: rt })).body.error).toBe("invalid_refresh_token");
    expect((await exchange(other, done.body.identity.assertion)).body).toMatchObject({ error: "invalid_grant", reason: "wrong_storefront" });
    expect((await postJson(store, "/agent/identity", { type: "refresh", refresh_token: rt })).status).toBe(200);
  });
});
