// Signed challenge ids: the terms come back exactly; a forged, tampered, truncated, re-keyed or oversized id is never
// read as ours; an ordinary payment id is not a challenge id; expiry is reported, not hidden.
import { describe, expect, it } from "vitest";
import { withEnvForTests } from "../env";
import { rng } from "../testing/random";
import { MAX_CHALLENGE_ID_LENGTH, readChallengeId, signChallengeId, type ChallengeTerms } from "./challenge-id";

const terms: ChallengeTerms = {
  sellerId: "sel_s2gzvpkb973thbwt",
  method: "GET",
  path: "/api/v1/aggregates/AAPL",
  query: "from=2024-01-02&to=2024-01-31",
  amountMicros: 20_000n,
  operationKey: "aggregates",
  meterKey: "requests",
  issuedAt: 1_900_000_000,
  expiresAt: 1_900_000_300,
  credentialId: null,
  purchase: null,
};
const during = 1_900_000_100_000;

describe("signed challenge ids", () => {
  it("carry their terms back exactly, a purchase's buyer and plan too, and two challenges of one call are two ids", () => {
    const id = signChallengeId(terms);
    expect(id).toMatch(/^pay_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(readChallengeId(id, during)).toEqual({ type: "challenge", terms, expired: false });
    const purchase = { ...terms, method: "POST", credentialId: "agt_1", purchase: { planId: "pln_1", kind: "extend" as const } };
    expect(readChallengeId(signChallengeId(purchase), during)).toEqual({ type: "challenge", terms: purchase, expired: false });
    expect(signChallengeId(terms)).not.toBe(id);
    // Short enough for a header, a URL path segment and a log line.
    expect(id.length).toBeLessThan(300);
  });

  it("carry the transport of an MCP 402; an HTTP 402's id names none (http) and is no longer for it", () => {
    const mcp = { ...terms, transport: "mcp" as const };
    expect(readChallengeId(signChallengeId(mcp), during)).toEqual({ type: "challenge", terms: mcp, expired: false });
    expect(readChallengeId(signChallengeId({ ...terms, transport: "http" }), during)).toEqual({ type: "challenge", terms, expired: false });
    expect(signChallengeId({ ...terms, transport: "http" }).length).toBeLessThan(signChallengeId(mcp).length);
  });

  it("say when they expired", () => {
    expect(readChallengeId(signChallengeId(terms), terms.expiresAt * 1000)).toMatchObject({ type: "challenge", expired: true });
  });

  it("are not made of ordinary payment ids", () => {
    expect(readChallengeId("pay_5ch68gqcqpwh7de5", during)).toEqual({ type: "not_a_challenge" });
    expect(readChallengeId("grt_5ch68gqcqpwh7de5", during)).toEqual({ type: "not_a_challenge" });
  });

  it("refuse an id signed under another APP_SECRET", async () => {
    const other = await withEnvForTests({ APP_SECRET: "another-app-secret-another-app-secret-0123" }, async () => signChallengeId(terms));
    expect(readChallengeId(other, during)).toEqual({ type: "invalid" });
  });

  it("refuse every tampered payload: changed terms re-encoded under the old mac", () => {
    const id = signChallengeId(terms);
    const [payload, tag] = id.slice(4).split(".") as [string, string];
    const fields = JSON.parse(Buffer.from(payload, "base64url").toString());
    for (const [i, value] of [
      [2, "sel_other"],
      [4, "/api/v1/aggregates/MSFT"],
      [5, ""],
      [6, "1"],
      [7, "other_operation"],
      [10, 2_000_000_000],
    ] as const) {
      const changed = [...fields];
      changed[i] = value;
      const forged = `pay_${Buffer.from(JSON.stringify(changed)).toString("base64url")}.${tag}`;
      expect(readChallengeId(forged, during), `field ${i}`).toEqual({ type: "invalid" });
    }
  });

  it("have one spelling: the mac's last character spelt with other unused bits (the same mac decoded) is refused", () => {
    const id = signChallengeId(terms);
    const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = b64.indexOf(id.at(-1)!);
    // Only the character's top 2 bits are the mac's; the other 4 spell the same 16 bytes.
    const sameMac = [...b64].filter((c, i) => i !== last && i >> 4 === last >> 4);
    expect(sameMac).toHaveLength(15);
    for (const c of sameMac) {
      const variant = id.slice(0, -1) + c;
      expect(Buffer.from(variant.split(".")[1]!, "base64url")).toEqual(Buffer.from(id.split(".")[1]!, "base64url"));
      expect(readChallengeId(variant, during).type).toBe("invalid");
    }
    expect(readChallengeId(id, during).type).toBe("challenge");
  });

  it("refuse 3,000 generated mutations of a real id (characters changed, dropped, added; truncated; oversized), never throwing", () => {
    const r = rng(22);
    const id = signChallengeId(terms);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.%/ ";
    let accepted = 0;
    for (let n = 0; n < 3000; n++) {
      const i = r.int(id.length);
      const c = alphabet[r.int(alphabet.length)]!;
      const mutated = [
        () => id.slice(0, i) + c + id.slice(i + 1),
        () => id.slice(0, i) + id.slice(i + 1),
        () => id.slice(0, i) + c + id.slice(i),
        () => id.slice(0, i),
        () => id + c.repeat(1 + r.int(MAX_CHALLENGE_ID_LENGTH)),
      ][r.int(5)]!();
      if (mutated === id) continue;
      const read = readChallengeId(mutated, during);
      // A change inside the final base64url character's unused bits can decode to the same mac: the same challenge.
      if (read.type === "challenge") {
        expect(read.terms).toEqual(terms);
        accepted++;
      } else expect(["invalid", "not_a_challenge"]).toContain(read.type);
    }
    expect(accepted).toBeLessThan(30);
  });
});
