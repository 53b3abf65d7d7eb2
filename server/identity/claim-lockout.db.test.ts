// The claim's user-code lockout under real concurrency (parallel requests through the route handler, PostgreSQL
// deciding): an attempt takes MAX_USER_CODE_FAILURES wrong codes, compares none after it locks however many arrive at
// once, and the right code racing wrong ones gets an answer of the claim's own (never a 5xx).
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../db/client";
import { MAX_USER_CODE_FAILURES } from "./constants";
import { confirmClaimAttempt } from "./confirm-claim";
import { hashSecret } from "./secrets";
import { linkTokenOf, makeStore, postJson, signInHuman, useDevOutbox } from "../testing/identity-harness";

let store: Awaited<ReturnType<typeof makeStore>>;
let human: { id: string; email: string };

beforeAll(async () => {
  useDevOutbox();
  store = await makeStore("lockout");
  human = await signInHuman(`lockout-${Math.random().toString(36).slice(2, 8)}@example.com`);
});

/** A service_auth registration whose attempt the human confirmed: the claim token and the code the human read. */
async function confirmedAttempt(): Promise<{ claimToken: string; userCode: string; attemptId: string }> {
  const r = await postJson(store, "/agent/identity", { type: "service_auth", login_hint: human.email });
  expect(r.status).toBe(201);
  const link = linkTokenOf(r.body.claim.attempt.verification_uri);
  const c = await confirmClaimAttempt(link, human);
  if (c.type !== "confirmed") throw new Error(c.detail);
  const attempt = await db.claimAttempt.findUniqueOrThrow({ where: { linkTokenHash: hashSecret(link) } });
  return { claimToken: r.body.claim.token, userCode: c.userCode, attemptId: attempt.id };
}

const complete = (claimToken: string, userCode: string) => postJson(store, "/agent/identity/claim/complete", { claim_token: claimToken, user_code: userCode });

/** A code that is not `right` (codes are 8 letters from B-Z). */
const wrongFor = (right: string) => (right.startsWith("BBBB") ? "CCCC-CCCC" : "BBBB-BBBB");

describe("the user-code lockout", () => {
  it("compares exactly five of 40 concurrent wrong codes; the other 35 are refused without a comparison", async () => {
    const a = await confirmedAttempt();
    const results = await Promise.all(Array.from({ length: 40 }, () => complete(a.claimToken, wrongFor(a.userCode))));
    const codes = results.map((r) => `${r.status} ${r.body.error}`);
    // Four wrong codes answer as wrong; the fifth locks the attempt and answers 429, as do the 35 never compared.
    expect(codes.filter((c) => c === "400 invalid_user_code")).toHaveLength(MAX_USER_CODE_FAILURES - 1);
    expect(codes.filter((c) => c === "429 too_many_attempts")).toHaveLength(40 - (MAX_USER_CODE_FAILURES - 1));
    // Each comparison of a wrong code is counted: exactly five were made.
    const row = await db.claimAttempt.findUniqueOrThrow({ where: { id: a.attemptId } });
    expect(row).toMatchObject({ status: "locked", failedCodes: MAX_USER_CODE_FAILURES });
    // Locked means locked: the right code is refused too.
    expect((await complete(a.claimToken, a.userCode)).body.error).toBe("too_many_attempts");
  });

  it("answers the right code racing the fifth wrong code with 200 or 429, never a 5xx, and agrees with the rows", async () => {
    for (let round = 0; round < 12; round++) {
      const a = await confirmedAttempt();
      for (let i = 0; i < MAX_USER_CODE_FAILURES - 1; i++) expect((await complete(a.claimToken, wrongFor(a.userCode))).body.error).toBe("invalid_user_code");
      // The right code in a burst of wrong ones, the first of which is the attempt's fifth; sent first, in the middle or
      // last, so both orders happen.
      const at = [0, 3, 6][round % 3]!;
      const burst = Array.from({ length: 7 }, (_, i) => (i === at ? a.userCode : wrongFor(a.userCode)));
      const results = await Promise.all(burst.map((code) => complete(a.claimToken, code)));
      const right = results[at]!;
      const wrong = results.filter((_, i) => i !== at);
      expect(results.every((r) => r.status < 500)).toBe(true);
      const row = await db.claimAttempt.findUniqueOrThrow({ where: { id: a.attemptId }, include: { credential: { select: { status: true } } } });
      if (right.status === 200) {
        // The right code was compared before any fifth wrong one: the claim is done, nothing more was compared.
        expect(row).toMatchObject({ status: "completed", failedCodes: MAX_USER_CODE_FAILURES - 1, credential: { status: "claimed" } });
        expect(wrong.every((r) => r.body.error === "already_claimed")).toBe(true);
      } else {
        expect(right).toMatchObject({ status: 429, body: { error: "too_many_attempts" } });
        expect(row).toMatchObject({ status: "locked", failedCodes: MAX_USER_CODE_FAILURES, credential: { status: "pending_claim" } });
        expect(wrong.map((r) => r.body.error)).toEqual(Array(6).fill("too_many_attempts"));
      }
    }
  });

  it("a wrong code after the claim completed compares nothing and answers already_claimed", async () => {
    const a = await confirmedAttempt();
    expect((await complete(a.claimToken, a.userCode)).status).toBe(200);
    expect((await complete(a.claimToken, wrongFor(a.userCode))).body.error).toBe("already_claimed");
    expect((await db.claimAttempt.findUniqueOrThrow({ where: { id: a.attemptId } })).failedCodes).toBe(0);
  });
});
