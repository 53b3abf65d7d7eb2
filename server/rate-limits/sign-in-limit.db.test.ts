// Sign-in limits against PostgreSQL: free failures, then a doubling lock per account and per address, shared by every
// caller (one table); a locked key refuses before anything is checked; a success forgets the account's failures only;
// an idle key starts again.
import { describe, expect, it } from "vitest";
import { sql } from "../db/client";
import { admitSignIn, forgetAccountFailures, mailKeys, recordSignInFailure, signInKeys } from "./sign-in-limit";

const uniq = () => Math.random().toString(36).slice(2, 10);

describe("sign-in limits", () => {
  it("five free failures per account, then 1 s, 2 s, 4 s ... locks; the address counts separately", async () => {
    const keys = signInKeys("seller", `victim-${uniq()}@example.com`, `198.51.100.${Math.floor(Math.random() * 200)}`);
    for (let i = 0; i < 5; i++) {
      expect(await admitSignIn(keys)).toEqual({ type: "allowed" });
      expect(await recordSignInFailure(keys)).toBe(0);
    }
    expect(await recordSignInFailure(keys)).toBe(1);
    expect(await admitSignIn(keys)).toMatchObject({ type: "locked", retryAfter: 1 });
    expect(await recordSignInFailure(keys)).toBe(2);
    expect(await recordSignInFailure(keys)).toBe(4);
    expect(await recordSignInFailure(keys)).toBe(8);
    // The same address trying another account is not locked yet (20 free failures per address).
    const other = signInKeys("seller", `other-${uniq()}@example.com`, keys[1]!.key.split(":").pop()!);
    expect(await admitSignIn(other)).toEqual({ type: "allowed" });
  });

  it("the lock grows to 15 minutes at most, and a success forgets the account's failures (not the address's)", async () => {
    const keys = signInKeys("seller", `cap-${uniq()}@example.com`, `203.0.113.${Math.floor(Math.random() * 200)}`);
    let lock = 0;
    for (let i = 0; i < 40; i++) lock = await recordSignInFailure(keys);
    expect(lock).toBe(900);
    await forgetAccountFailures(keys);
    const rows = await sql<{ key: string }>(`select key from sign_in_failures where key = any($1::text[])`, [keys.map((k) => k.key)]);
    expect(rows.rows.map((r) => r.key)).toEqual([keys[1]!.key]);
  });

  it("a key idle for an hour starts again", async () => {
    const keys = signInKeys("human", `idle-${uniq()}@example.com`, null);
    for (let i = 0; i < 8; i++) await recordSignInFailure(keys);
    expect((await admitSignIn(keys)).type).toBe("locked");
    await sql(`update sign_in_failures set updated_at = updated_at - interval '2 hours', locked_until = null where key = $1`, [keys[0]!.key]);
    expect(await recordSignInFailure(keys)).toBe(0);
    expect(await admitSignIn(keys)).toEqual({ type: "allowed" });
  });

  it("emails asked for: five per recipient, then backoff; an IPv6 asker counts by its /64", async () => {
    const a = mailKeys("human", `inbox-${uniq()}@example.com`, "2001:db8:1:2::1");
    const b = mailKeys("human", `inbox-${uniq()}@example.com`, "2001:db8:1:2::ffff");
    expect(a[1]!.key).toBe(b[1]!.key);
    for (let i = 0; i < 5; i++) expect(await recordSignInFailure(a)).toBe(0);
    expect(await recordSignInFailure(a)).toBe(1);
  });
});
