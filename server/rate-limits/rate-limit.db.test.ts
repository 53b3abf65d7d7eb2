// The rate-limit module against PostgreSQL: anonymous budgets per client address, payers apart, a seller ceiling that
// unpaid traffic cannot fill, exact across instances (two limiters sharing the table), and cheap under a flood.
import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withEnvForTests } from "../env";
import { clientBudgetKey, createRateLimiter, rateLimitError, type RateLimitVerdict } from "./rate-limit";

/** A moment well inside a minute of its own (tests never share a window, and no window turns during a test). */
let minute = 0;
function clock(): { now: () => number; advance: (ms: number) => void } {
  let t = Date.UTC(2031, 0, 1) + (++minute + Math.floor(Math.random() * 1_000_000)) * 60_000 + 20_000;
  return { now: () => t, advance: (ms) => (t += ms) };
}
const seller = () => `sel_rl_${Math.random().toString(36).slice(2, 10)}`;
const admitted = (v: RateLimitVerdict) => v.type === "admitted";

/** Statements that touch the counters, counted at the driver. */
function countStatements(): { count: () => number; restore: () => void } {
  let n = 0;
  const original = pg.Pool.prototype.query;
  const spy = vi.spyOn(pg.Pool.prototype, "query").mockImplementation(function (this: pg.Pool, ...args: unknown[]) {
    const q = args[0] as string | { text?: string };
    if (/rate_limit_buckets/.test(typeof q === "string" ? q : (q?.text ?? ""))) n++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as never);
  return { count: () => n, restore: () => spy.mockRestore() };
}

let restore: (() => void) | undefined;
afterEach(() => restore?.());

describe("the rate-limit module", () => {
  it("one client floods until 429; in the same minute another client's unpaid call and a paying agent are served", async () => {
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "40", RATE_LIMIT_PAYER_PER_MINUTE: "600", RATE_LIMIT_SELLER_PER_MINUTE: "12000" }, async () => {
      const limiter = createRateLimiter(clock());
      const sellerId = seller();
      const flood = await Promise.all(Array.from({ length: 200 }, () => limiter.admitAnonymous({ sellerId, client: "198.51.100.7" })));
      expect(flood.filter(admitted)).toHaveLength(40);
      const refusal = flood.find((v) => v.type === "limited")!;
      expect(refusal).toMatchObject({ type: "limited", scope: "client", limit: 40 });
      // The flood goes on, refused; the others of the same minute are served.
      for (let i = 0; i < 50; i++) expect((await limiter.admitAnonymous({ sellerId, client: "198.51.100.7" })).type).toBe("limited");
      expect((await limiter.admitAnonymous({ sellerId, client: "203.0.113.9" })).type).toBe("admitted");
      expect((await limiter.admitPayer({ sellerId, payer: "0xAbC0000000000000000000000000000000000001" })).type).toBe("admitted");
      // The flooding client's own payments are not refused for its unpaid traffic either.
      expect((await limiter.admitPayer({ sellerId, payer: "0xAbC0000000000000000000000000000000000002" })).type).toBe("admitted");
    });
  });

  it("admits exactly the limit across two instances flooding at once", async () => {
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "120" }, async () => {
      const c = clock();
      const [a, b] = [createRateLimiter(c), createRateLimiter(c)];
      const sellerId = seller();
      const ask = (l: typeof a) => l.admitAnonymous({ sellerId, client: "198.51.100.8" });
      const results = await Promise.all(Array.from({ length: 400 }, (_, i) => ask(i % 2 ? a : b)));
      expect(results.filter(admitted)).toHaveLength(120);
      // Both know it is spent: no more is admitted on either.
      expect((await ask(a)).type).toBe("limited");
      expect((await ask(b)).type).toBe("limited");
    });
  });

  it("a flood costs a statement per leased block, and none once the window is spent", async () => {
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "600" }, async () => {
      const limiter = createRateLimiter(clock());
      const sellerId = seller();
      const statements = countStatements();
      restore = statements.restore;
      let served = 0;
      // 1,000 requests in bursts of 50, as a client at hundreds of requests a second would send them.
      for (let burst = 0; burst < 20; burst++) {
        const r = await Promise.all(Array.from({ length: 50 }, () => limiter.admitAnonymous({ sellerId, client: "198.51.100.9" })));
        served += r.filter(admitted).length;
      }
      expect(served).toBe(600);
      // Blocks grow to a twentieth of the limit: a few dozen statements for 600 admissions, not one per request.
      expect(statements.count()).toBeLessThan(50);
      expect(statements.count()).toBeGreaterThan(0);
      const spent = statements.count();
      for (let i = 0; i < 500; i++) await limiter.admitAnonymous({ sellerId, client: "198.51.100.9" });
      expect(statements.count()).toBe(spent);
    });
  });

  it("the seller's ceiling counts paying requests only, and a refused proof gives its unit back", async () => {
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "1000", RATE_LIMIT_SELLER_PER_MINUTE: "5", RATE_LIMIT_PAYER_PER_MINUTE: "100" }, async () => {
      const limiter = createRateLimiter(clock());
      const sellerId = seller();
      // Unpaid traffic from many addresses, far past the seller's ceiling of 5.
      const unpaid = await Promise.all(Array.from({ length: 300 }, (_, i) => limiter.admitAnonymous({ sellerId, client: `10.0.${i >> 8}.${i & 255}` })));
      expect(unpaid.every(admitted)).toBe(true);
      // Proofs from throwaway wallets that turn out invalid: each unit goes back to the ceiling.
      for (let i = 0; i < 20; i++) {
        const v = await limiter.admitPayer({ sellerId, payer: `0x${i.toString(16).padStart(40, "0")}` });
        expect(v.type).toBe("admitted");
        if (v.type === "admitted") v.refund();
      }
      // So real payers still have the whole ceiling: five, then 429 with scope seller.
      const paying = [];
      for (let i = 0; i < 6; i++) paying.push(await limiter.admitPayer({ sellerId, payer: `0x${"f".repeat(39)}${i}` }));
      expect(paying.slice(0, 5).every(admitted)).toBe(true);
      expect(paying[5]).toMatchObject({ type: "limited", scope: "seller", limit: 5 });
    });
  });

  it("limits each payer apart, and a payer refused takes nothing from the seller's ceiling", async () => {
    await withEnvForTests({ RATE_LIMIT_PAYER_PER_MINUTE: "3", RATE_LIMIT_SELLER_PER_MINUTE: "4" }, async () => {
      const limiter = createRateLimiter(clock());
      const sellerId = seller();
      const one = () => limiter.admitPayer({ sellerId, payer: "0xAAAA000000000000000000000000000000000001" });
      expect([(await one()).type, (await one()).type, (await one()).type]).toEqual(["admitted", "admitted", "admitted"]);
      expect(await one()).toMatchObject({ type: "limited", scope: "payer", limit: 3 });
      expect(await one()).toMatchObject({ type: "limited", scope: "payer" });
      // Three of the seller's four were spent; the payer's refusals took none.
      expect((await limiter.admitPayer({ sellerId, payer: "0xBBBB000000000000000000000000000000000002" })).type).toBe("admitted");
      expect(await limiter.admitPayer({ sellerId, payer: "0xCCCC000000000000000000000000000000000003" })).toMatchObject({ type: "limited", scope: "seller" });
    });
  });

  it("a new window starts every budget again; retry_after says when", async () => {
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "2" }, async () => {
      const c = clock();
      const limiter = createRateLimiter(c);
      const sellerId = seller();
      const ask = () => limiter.admitAnonymous({ sellerId, client: "198.51.100.10" });
      await ask();
      await ask();
      const refused = await ask();
      expect(refused).toMatchObject({ type: "limited", retryAfter: 40 });
      const error = rateLimitError(refused as Extract<RateLimitVerdict, { type: "limited" }>);
      expect(error).toMatchObject({ code: "rate_limit_exceeded", headers: { "retry-after": "40" } });
      expect(error.extra).toMatchObject({ retry_after: 40, scope: "client", limit: 2 });
      c.advance(40_000);
      expect((await ask()).type).toBe("admitted");
    });
  });

  it("counts an IPv6 client by its /64, and an unknown client as one", async () => {
    expect(clientBudgetKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(clientBudgetKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(clientBudgetKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientBudgetKey("203.0.113.1")).toBe("203.0.113.1");
    expect(clientBudgetKey(null)).toBe("unknown");
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "1" }, async () => {
      const limiter = createRateLimiter(clock());
      const sellerId = seller();
      expect((await limiter.admitAnonymous({ sellerId, client: "2001:db8:1:2::1" })).type).toBe("admitted");
      expect((await limiter.admitAnonymous({ sellerId, client: "2001:db8:1:2::abcd" })).type).toBe("limited");
      expect((await limiter.admitAnonymous({ sellerId, client: "2001:db8:1:3::1" })).type).toBe("admitted");
    });
  });

  it("0 turns a budget off, RATE_LIMIT_DISABLED all of them", async () => {
    const sellerId = seller();
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "0", RATE_LIMIT_PAYER_PER_MINUTE: "0", RATE_LIMIT_SELLER_PER_MINUTE: "0" }, async () => {
      const limiter = createRateLimiter(clock());
      const r = await Promise.all(Array.from({ length: 30 }, () => limiter.admitAnonymous({ sellerId, client: "198.51.100.11" })));
      expect(r.every(admitted)).toBe(true);
      expect((await limiter.admitPayer({ sellerId, payer: "0x1" })).type).toBe("admitted");
    });
    await withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "1", RATE_LIMIT_DISABLED: "1" }, async () => {
      const limiter = createRateLimiter(clock());
      const r = await Promise.all(Array.from({ length: 5 }, () => limiter.admitAnonymous({ sellerId, client: "198.51.100.12" })));
      expect(r.every(admitted)).toBe(true);
    });
  });
});
