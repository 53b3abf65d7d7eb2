// Rate limits that protect paying agents (docs/rate-limits.md), shared across instances through PostgreSQL in fixed
// one-minute windows. Three budgets, each its own key:
//   client  per client address at a seller, for requests with no valid payment and no valid bearer (anonymous);
//   payer   per payer (a wallet from its proof, a credential from its bearer) at a seller;
//   seller  per seller, for paying requests only: unpaid traffic never spends it, so it cannot lock payers out.
// A paying request is never asked about the client budget, so no amount of anonymous traffic refuses it.
//
// Cost: an instance leases units of a key's budget from PostgreSQL in blocks (one statement for every key that needs
// units in the same tick; a block grows with the key's use in the window, up to a twentieth of its limit) and spends
// them from memory. A client flooding at hundreds of requests a second costs a statement per block, not per request,
// and nothing at all once its window is spent: the instance remembers the refusal until the window ends. So the hot
// row of a flood is updated a few times a minute per instance, and across instances no more than `limit` requests are
// admitted per window (a lease never passes the limit); what an instance leased and did not spend is lost with the
// window, which can refuse a client slightly early when several instances serve it (at most one block each).
//
// Called at two moments, by the one paid-call pipeline (run-paid-call.ts: data calls, purchases, the quote, MCP tool calls):
//   1. a request with no payment proof and no bearer: `admitAnonymous` before any work;
//   2. a request with a proof or bearer: `admitPayer` once the payer is known (from the proof's signature, the
//      token's subject), before accepting it; if the proof then turns out invalid, `refund()` the seller unit and
//      spend the client's budget with `admitAnonymous` (a proof whose payer cannot be known is anonymous at once).
// A `limited` verdict becomes 429 rate_limit_exceeded with `retry_after` (`rateLimitError`).
import { env } from "../env";
import { AppError } from "../errors";
import { leaseWindowUnits, type LeaseRequest } from "./rate-limit.queries";

const WINDOW_MS = 60_000;
/** Keys remembered per instance; past this the map starts afresh (only unspent leases are lost: clients are refused earlier, never later). */
const MAX_KEYS = 200_000;

export type RateLimitScope = "client" | "payer" | "seller";

export type RateLimitVerdict =
  | { type: "admitted"; /** Give back the units that count only work done (the seller's ceiling of `admitPayer`). */ refund(): void }
  | { type: "limited"; scope: RateLimitScope; limit: number; retryAfter: number };

export type RateLimiter = {
  /** A request with no payment proof and no bearer (or one whose proof turned out invalid): the client address's budget. */
  admitAnonymous(input: { sellerId: string; client: string | null }): Promise<RateLimitVerdict>;
  /** A request whose payer is known: the payer's budget and the seller's ceiling for paying traffic. */
  admitPayer(input: { sellerId: string; payer: string }): Promise<RateLimitVerdict>;
};

type Budget = { key: string; limit: number; scope: RateLimitScope; refundable: boolean };

type Bucket = {
  window: number;
  /** Leased here, not yet spent. */
  available: number;
  /** Leased here in this window (grows the next block). */
  leased: number;
  /** PostgreSQL granted nothing: the window's budget is spent everywhere. */
  exhausted: boolean;
  refilling: boolean;
  waiters: { resolve: (got: boolean) => void; reject: (e: unknown) => void }[];
};

/**
 * The budget key of a client address: an IPv6 address counts by its /64 (one subscriber's usual allocation, which it
 * can rotate through freely), anything else as it is; an unknown client shares one budget.
 */
export function clientBudgetKey(client: string | null): string {
  if (!client) return "unknown";
  if (!client.includes(":")) return client;
  const groups = expandIpv6(client);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : client;
}

function expandIpv6(address: string): string[] | null {
  const [head, tail, extra] = address.split("::");
  if (extra !== undefined) return null;
  const left = head ? head.split(":") : [];
  const right = tail !== undefined ? (tail ? tail.split(":") : []) : [];
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? left.length !== 8 : missing < 1) return null;
  const groups = [...left, ...Array(tail === undefined ? 0 : missing).fill("0"), ...right];
  return groups.every((g) => /^[0-9a-f]{1,4}$/i.test(g)) ? groups.map((g) => g.toLowerCase().replace(/^0+(?=.)/, "")) : null;
}

const maxBlock = (limit: number) => Math.max(1, Math.floor(limit / 20));

export function createRateLimiter(opts: { now?: () => number } = {}): RateLimiter {
  const now = opts.now ?? Date.now;
  let buckets = new Map<string, Bucket>();
  let currentWindow = 0;
  type Batch = { windowStart: number; requests: LeaseRequest[]; keys: Set<string>; done: Promise<Map<string, number>> };
  let pending: Batch | null = null;

  const newBucket = (window: number): Bucket => ({ window, available: 0, leased: 0, exhausted: false, refilling: false, waiters: [] });

  function bucketFor(key: string, window: number): Bucket {
    // A request timed just before a window turned that another already opened: served from its own window, unremembered.
    if (window < currentWindow) return newBucket(window);
    if (window > currentWindow || buckets.size > MAX_KEYS) {
      // A new window: every count starts again, so nothing of the old one is worth keeping.
      currentWindow = window;
      buckets = new Map();
    }
    let b = buckets.get(key);
    if (!b) {
      b = newBucket(window);
      buckets.set(key, b);
    }
    return b;
  }

  /** Every lease asked for in the same tick goes out in one statement. */
  function lease(windowStart: number, request: LeaseRequest): Promise<number> {
    if (!pending || pending.windowStart !== windowStart) {
      const batch: Batch = { windowStart, requests: [], keys: new Set(), done: Promise.resolve(new Map()) };
      batch.done = new Promise<void>((r) => queueMicrotask(r)).then(() => {
        if (pending === batch) pending = null;
        return leaseWindowUnits(new Date(windowStart), batch.requests);
      });
      pending = batch;
    }
    const batch = pending;
    // One statement cannot touch a row twice: a key already in this batch (a bucket started afresh) goes in the next.
    if (batch.keys.has(request.key)) return batch.done.then(() => lease(windowStart, request));
    batch.keys.add(request.key);
    batch.requests.push(request);
    return batch.done.then((granted) => granted.get(request.key) ?? 0);
  }

  function refill(b: Bucket, budget: Budget): void {
    b.refilling = true;
    // Enough for everyone waiting, and more the more this key is used here, within a twentieth of the limit.
    const units = Math.min(maxBlock(budget.limit), Math.max(1, b.waiters.length, b.leased));
    lease(b.window, { key: budget.key, units, limit: budget.limit }).then(
      (granted) => {
        b.refilling = false;
        b.leased += granted;
        if (granted === 0) b.exhausted = true;
        b.available += granted;
        while (b.waiters.length && b.available > 0) {
          b.available--;
          b.waiters.shift()!.resolve(true);
        }
        if (!b.waiters.length) return;
        if (b.exhausted) for (const w of b.waiters.splice(0)) w.resolve(false);
        else refill(b, budget);
      },
      (e) => {
        b.refilling = false;
        for (const w of b.waiters.splice(0)) w.reject(e);
      },
    );
  }

  /** One unit of the budget for this request: at once from what this instance holds, else after a lease. */
  function take(b: Bucket, budget: Budget): Promise<boolean> | boolean {
    if (b.available > 0) {
      b.available--;
      return true;
    }
    if (b.exhausted) return false;
    return new Promise<boolean>((resolve, reject) => {
      b.waiters.push({ resolve, reject });
      if (!b.refilling) refill(b, budget);
    });
  }

  async function admit(budgets: Budget[]): Promise<RateLimitVerdict> {
    if (env().RATE_LIMIT_DISABLED) return { type: "admitted", refund: () => {} };
    const t = now();
    const window = Math.floor(t / WINDOW_MS) * WINDOW_MS;
    const live = budgets.filter((b) => b.limit > 0);
    const held = live.map((budget) => ({ budget, bucket: bucketFor(budget.key, window) }));
    // A budget this instance already knows is spent refuses without touching any other (nothing taken, no I/O).
    const spent = held.find((h) => h.bucket.exhausted && h.bucket.available === 0);
    if (spent) return limited(spent.budget, t, window);
    const settled = await Promise.allSettled(held.map((h) => take(h.bucket, h.budget)));
    const got = settled.map((r) => r.status === "fulfilled" && r.value);
    const refused = held.findIndex((_, i) => !got[i]);
    if (refused >= 0) {
      // All or nothing: the units taken for the other budgets go back.
      held.forEach((h, i) => got[i] && h.bucket.available++);
      const failed = settled.find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
      return limited(held[refused]!.budget, now(), window);
    }
    let refunded = false;
    return {
      type: "admitted",
      refund() {
        if (refunded) return;
        refunded = true;
        for (const h of held) if (h.budget.refundable && buckets.get(h.budget.key) === h.bucket) h.bucket.available++;
      },
    };
  }

  return {
    admitAnonymous({ sellerId, client }) {
      const limit = env().RATE_LIMIT_CLIENT_PER_MINUTE;
      return admit([{ key: `rl:client:${sellerId}:${clientBudgetKey(client)}`, limit, scope: "client", refundable: false }]);
    },
    admitPayer({ sellerId, payer }) {
      const e = env();
      return admit([
        { key: `rl:payer:${sellerId}:${payer.toLowerCase()}`, limit: e.RATE_LIMIT_PAYER_PER_MINUTE, scope: "payer", refundable: false },
        { key: `rl:seller:${sellerId}`, limit: e.RATE_LIMIT_SELLER_PER_MINUTE, scope: "seller", refundable: true },
      ]);
    },
  };
}

function limited(budget: Budget, t: number, window: number): RateLimitVerdict {
  return { type: "limited", scope: budget.scope, limit: budget.limit, retryAfter: Math.max(1, Math.ceil((window + WINDOW_MS - t) / 1000)) };
}

/** 429 rate_limit_exceeded with `retry_after` seconds (body and Retry-After header), `scope` and `limit`. */
export function rateLimitError(v: Extract<RateLimitVerdict, { type: "limited" }>): AppError {
  return new AppError("rate_limit_exceeded", {
    detail: `more than ${v.limit} requests per minute for this ${v.scope}; wait retry_after seconds`,
    extra: { retry_after: v.retryAfter, scope: v.scope, limit: v.limit },
    headers: { "retry-after": String(v.retryAfter) },
  });
}

/** This process's limiter (one per instance; the budgets themselves live in PostgreSQL). */
export const rateLimits: RateLimiter = ((globalThis as unknown as { __rateLimits?: RateLimiter }).__rateLimits ??= createRateLimiter());
