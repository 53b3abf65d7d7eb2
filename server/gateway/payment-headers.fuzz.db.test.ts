// Fuzzing both wallet rails' credential headers: thousands of generated malformed values (bad base64, bad JSON,
// wrong types, huge numbers, the wrong chain, expired windows, fields swapped or missing) built around real proofs
// from the official clients. Every answer must be a 4xx JSON error in the spec's shape, never a 5xx. A mutation of a
// field the proof does not depend on can leave it valid: such a value may be served, but its authorization buys one
// call, so at most one value is served, and exactly what is served is charged. The generator is seeded, so a
// failure names a value that reproduces.
import { describe, expect, it } from "vitest";
import * as payRoute from "../../app/payments/[id]/pay/route";
import * as statusRoute from "../../app/payments/[id]/route";
import { anvilAddress } from "../../scripts/lib/local-chain";
import { getCatalog } from "../catalog/catalog";
import { findSellerByHost } from "../catalog/catalog.queries";
import { db } from "../db/client";
import { withEnvForTests } from "../env";
import { readChallengeId, signChallengeId, type ChallengeTerms } from "../payments/challenge-id";
import { getCheckoutView } from "../payments/rails/card/checkout/checkout-view";
import { signChallenge } from "../payments/rails/x402/challenge-token";
import {
  callGateway,
  createGatewaySeller,
  payChallenge,
  payChallengeMpp,
  usdcBalance,
  useGatewayStack,
  type TestChain,
  type FakeUpstream,
  type GatewaySeller,
} from "../testing/gateway";
import { rng, type Rng } from "../testing/random";

const SECRET = "fake-upstream-secret-0123456789";
const AAPL = "/api/v1/aggregates/AAPL?from=2024-06-03&to=2024-06-28";
const PER_RAIL = 1_100;
let chain: TestChain;
let upstream: FakeUpstream;
let seller: GatewaySeller;

useGatewayStack(SECRET, (s) => ({ chain, upstream, seller } = s));

const WEIRD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1e308,
  "1e400",
  "9".repeat(90),
  "-5",
  "0x",
  "0x" + "f".repeat(64),
  "0x" + "g".repeat(40),
  "",
  " ",
  "\u0000",
  "😀".repeat(20),
  [],
  [1, 2],
  {},
  { nested: { deeper: [null] } },
  "eip155:1",
  "eip155:84532",
  "base-sepolia",
  "0x0000000000000000000000000000000000000000",
  "1",
  "999999999999999999999999999999999999999999999999999999999999999999999999999999999",
  String(Math.floor(Date.now() / 1000) - 3600),
  "2000-01-01T00:00:00Z",
  "not-a-date",
];

/** Every path to a leaf or object in a JSON value. */
function paths(v: unknown, prefix: string[] = []): string[][] {
  if (v === null || typeof v !== "object") return [prefix];
  const out: string[][] = prefix.length ? [prefix] : [];
  for (const [k, child] of Object.entries(v)) out.push(...paths(child, [...prefix, k]));
  return out;
}

function setPath(root: Record<string, unknown>, path: string[], value: unknown, del = false): void {
  let o: Record<string, unknown> = root;
  for (const k of path.slice(0, -1)) {
    if (o[k] === null || typeof o[k] !== "object") return;
    o = o[k] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (del) delete o[last];
  else o[last] = value;
}

const b64 = (s: string) => Buffer.from(s).toString("base64");
const b64url = (s: string) => Buffer.from(s).toString("base64url");

/** One malformed value built around `valid` (a decoded proof): raw garbage, bad encodings, or a mutated field. */
function mutate(
  r: Rng,
  valid: Record<string, unknown>,
  encode: (json: string) => string,
  nested: (v: Record<string, unknown>) => Record<string, string>,
): string {
  switch (r.int(7)) {
    case 0: // random bytes, base64 or not
      return r.pick([b64, b64url, (s: string) => s])(String.fromCharCode(...Array.from({ length: 1 + r.int(300) }, () => r.int(256))));
    case 1: // not JSON
      return encode(r.pick(["{", "[1,", "nul", "{'a':1}", '{"x402Version":', "undefined", "NaN"]));
    case 2: // JSON of the wrong shape
      return encode(JSON.stringify(r.pick(WEIRD_VALUES)));
    case 3: // huge
      return encode(JSON.stringify({ ...valid, padding: "x".repeat(20_000 + r.int(10_000)) }));
    default: {
      // a field of the real proof set to something wrong, or removed; nested base64 blobs mutated inside too
      const copy = structuredClone(valid);
      const inner = nested(copy);
      const [key, value] = Object.entries(inner).length && r.next() < 0.3 ? r.pick(Object.entries(inner)) : [null, null];
      if (key && value) {
        const decoded = JSON.parse(Buffer.from(value, "base64url").toString());
        const p = r.pick(paths(decoded));
        if (p.length) setPath(decoded, p, r.pick(WEIRD_VALUES), r.next() < 0.2);
        setPath(copy, key.split("."), b64url(JSON.stringify(decoded)));
      } else {
        const p = r.pick(paths(copy));
        setPath(copy, p, r.pick(WEIRD_VALUES), r.next() < 0.2);
      }
      return encode(JSON.stringify(copy));
    }
  }
}

async function checkAll(name: string, values: string[], headerOf: (v: string) => Record<string, string>) {
  const payer = anvilAddress(1);
  const before = await usdcBalance(chain.rpcUrl, payer);
  const callsBefore = upstream.state.calls;
  const ledgerBefore = await db.ledgerEntry.count({ where: { sellerId: seller.sellerId } });
  const bad: string[] = [];
  const statuses = new Map<number, number>();
  let charged = 0;
  for (let i = 0; i < values.length; i += 20) {
    const batch = values.slice(i, i + 20);
    const results = await Promise.all(
      batch.map(async (v) => {
        let res: Response;
        try {
          res = await callGateway(seller.host, AAPL, { headers: headerOf(v) });
        } catch {
          return null; // a header value fetch itself refuses to carry (control characters): never reaches us
        }
        const text = await res.text();
        let body: { error?: unknown } | null = null;
        try {
          body = JSON.parse(text);
        } catch {
          /* reported below */
        }
        return { v, status: res.status, body, type: res.headers.get("content-type") ?? "", replay: /replay=true/.test(res.headers.get("svc-billing") ?? "") };
      }),
    );
    for (const r of results) {
      if (!r) continue;
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status === 200) {
        if (!r.replay) charged++;
        continue;
      }
      if (r.status < 400 || r.status >= 500 || typeof r.body?.error !== "string" || !/json/.test(r.type))
        bad.push(`${r.status} ${JSON.stringify(r.body)?.slice(0, 200)} for ${r.v.slice(0, 200)}`);
    }
  }
  expect(bad, `${name}: answers that are not a 4xx JSON error`).toEqual([]);
  expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(values.length * 0.9);
  // One authorization is charged once: at most one value charged, and what was charged was served. Issue 23 changed
  // this rule (it was "at most one value served"): a value still carrying the proof that paid (a field it does not
  // depend on changed) is served again, never charged again (resumable delivery).
  expect(charged).toBeLessThanOrEqual(1);
  // Issue 33: the upstream runs once per charge (a replay is served the kept answer); it was once per answer served.
  expect(upstream.state.calls - callsBefore).toBe(charged);
  expect(await usdcBalance(chain.rpcUrl, payer)).toBe(before - 20_000n * BigInt(charged));
  expect(await db.ledgerEntry.count({ where: { sellerId: seller.sellerId } })).toBe(ledgerBefore + charged);
  expect(await db.payment.count({ where: { sellerId: seller.sellerId, status: "verified" } })).toBe(0);
  return statuses;
}

/**
 * The fuzz is one client sending thousands of malformed proofs a minute, which the per-client budget (issue 22; tested in
 * gateway.db.test.ts) would mostly answer 429, hiding the answers the fuzz is here to check.
 */
const fuzzing = (fn: () => Promise<void>) => () => withEnvForTests({ RATE_LIMIT_CLIENT_PER_MINUTE: "1000000" }, fn);

describe("fuzzing the payment credential headers", () => {
  it(
    `x402: ${PER_RAIL} malformed X-PAYMENT / PAYMENT-SIGNATURE values are 4xx JSON, never a 5xx; served and charged at most once`,
    fuzzing(async () => {
      const r = rng(402);
      const proof = await payChallenge(await callGateway(seller.host, AAPL), 1);
      const valid = JSON.parse(Buffer.from(Object.values(proof)[0]!, "base64").toString());
      const values = Array.from({ length: PER_RAIL }, () => mutate(r, valid, b64, () => ({})));
      const statuses = await checkAll("x402", values, (v) => ({ [r.next() < 0.5 ? "X-PAYMENT" : "PAYMENT-SIGNATURE"]: v }));
      expect(statuses.get(402)).toBeGreaterThan(100);
    }),
    180_000,
  );

  it(
    `MPP: ${PER_RAIL} malformed Authorization: Payment values are 4xx JSON, never a 5xx; served and charged at most once`,
    fuzzing(async () => {
      const r = rng(2026);
      const { authorization } = await payChallengeMpp(await callGateway(seller.host, AAPL), 1);
      const valid = JSON.parse(Buffer.from(authorization!.slice("Payment ".length), "base64url").toString());
      // The challenge's `request` and `opaque` are base64url JSON of their own: mutate inside them too.
      const nested = (v: Record<string, unknown>) => {
        const c = v.challenge as Record<string, unknown> | undefined;
        const out: Record<string, string> = {};
        if (c && typeof c.request === "string") out["challenge.request"] = c.request;
        if (c && typeof c.opaque === "string") out["challenge.opaque"] = c.opaque;
        return out;
      };
      const values = Array.from({ length: PER_RAIL }, () => mutate(r, valid, b64url, nested));
      const statuses = await checkAll("mpp", values, (v) => ({ authorization: `Payment ${v}` }));
      expect(statuses.get(402)).toBeGreaterThan(100);
    }),
    180_000,
  );
});

/**
 * Stateless challenges (issue 22, docs/challenges.md): a 402's payment id carries its terms, signed. Ids that are not
 * what we signed for this seller, or no longer open, arrive wherever a payment id does; each is refused with a 4xx JSON
 * error (or, for statusUrl and the checkout page of this seller's own expired challenge, shown as the expired unpaid
 * challenge it is), never a 5xx, and not one row is written anywhere: no payment, plan purchase or card payment.
 */
describe("fuzzing signed challenge ids", () => {
  const BACKTEST = "/api/v1/backtest/AAPL?years=2";
  const PER_KIND = 12;
  const now = () => Math.floor(Date.now() / 1000);
  const randomB64url = (r: Rng, n: number) =>
    Buffer.from(Array.from({ length: n }, () => r.int(256)))
      .toString("base64url")
      .slice(0, n);

  type Bad = { kind: string; id: string; ownExpired?: boolean };

  /** Ids built around a real one of this seller: forged, tampered, re-keyed, truncated, expired, another seller's. */
  function badIds(r: Rng, real: string, terms: ChallengeTerms, otherSellerId: string, otherReal: string): Bad[] {
    const [payload, mac] = real.slice("pay_".length).split(".") as [string, string];
    const fields = JSON.parse(Buffer.from(payload, "base64url").toString()) as unknown[];
    const out: Bad[] = [];
    for (let i = 0; i < PER_KIND; i++) {
      out.push({ kind: "forged", id: `pay_${randomB64url(r, 16 + r.int(400))}.${randomB64url(r, 22)}` });
      // A field of the signed payload changed (the price, the seller, the path, the expiry...), the mac kept.
      const t = structuredClone(fields);
      t[2 + r.int(t.length - 2)] = r.pick([null, "1", 0, "sel_x", "/api/v1/other", 4_102_444_800, "", [], { a: 1 }]);
      out.push({ kind: "tampered payload", id: `pay_${Buffer.from(JSON.stringify(t)).toString("base64url")}.${mac}` });
      const at = r.int(mac.length);
      const flipped = mac.slice(0, at) + (mac[at] === "A" ? "B" : "A") + mac.slice(at + 1);
      out.push({ kind: "tampered mac", id: `pay_${payload}.${flipped}` });
      out.push({ kind: "truncated", id: real.slice(0, 4 + r.int(real.length - 4)) });
      out.push({ kind: "extended", id: real + r.pick(["A", ".", "..", "=", "%2F", ".AAAAAAAAAAAAAAAAAAAAAA"]) });
      out.push({ kind: "re-keyed", id: `pay_${payload}.${randomB64url(r, 22)}` });
    }
    out.push({ kind: "oversized", id: `pay_${"A".repeat(5000)}.${"A".repeat(22)}` });
    out.push({ kind: "ordinary-looking", id: "pay_0000000000000000" });
    out.push({ kind: "expired", id: signChallengeId({ ...terms, issuedAt: now() - 7200, expiresAt: now() - 3600 }), ownExpired: true });
    out.push({ kind: "expired a second ago", id: signChallengeId({ ...terms, expiresAt: now() - 1 }), ownExpired: true });
    out.push({ kind: "another seller's, signed", id: signChallengeId({ ...terms, sellerId: otherSellerId }) });
    out.push({ kind: "another seller's 402", id: otherReal });
    return out;
  }

  async function rowCounts() {
    const [payments, purchases, cards, ledger] = await Promise.all([
      db.payment.count(),
      db.planPurchase.count(),
      db.cardPayment.count(),
      db.ledgerEntry.count(),
    ]);
    return { payments, purchases, cards, ledger };
  }

  const json = async (res: Response) => ({
    status: res.status,
    type: res.headers.get("content-type") ?? "",
    body: (await res.json().catch(() => null)) as { error?: unknown; status?: unknown } | null,
  });
  const isRefusal = (r: Awaited<ReturnType<typeof json>>) => r.status >= 400 && r.status < 500 && typeof r.body?.error === "string" && /json/.test(r.type);

  it(
    "x402 extra.paymentId, MPP payment_id, svc-payment-id, POST payUrl, statusUrl and the checkout page: 4xx (or the expired challenge shown), never a 5xx, never a row",
    fuzzing(async () => {
      const r = rng(22);
      const other = await createGatewaySeller(upstream.url);
      const first402 = await callGateway(seller.host, AAPL);
      expect(first402.status).toBe(402);
      const x402Proof = await payChallenge(first402.clone(), 1);
      const { payment } = await first402.json();
      const read = readChallengeId(payment.id);
      if (read.type !== "challenge") throw new Error(`the 402's payment id is not a signed challenge id: ${payment.id}`);
      const otherReal = (await (await callGateway(other.host, AAPL)).json()).payment.id as string;
      const mppProof = (await payChallengeMpp(await callGateway(seller.host, AAPL), 2)).authorization!;
      const cardReal = (await (await callGateway(seller.host, BACKTEST)).json()).payment.id as string;
      const cardTerms = readChallengeId(cardReal);
      if (cardTerms.type !== "challenge") throw new Error("the card 402's id is not a signed challenge id");
      const catalog = await getCatalog((await findSellerByHost(seller.host))!);
      const before = await rowCounts();
      const callsBefore = upstream.state.calls;

      const bad = [...badIds(r, payment.id, read.terms, other.sellerId, otherReal), ...badIds(r, cardReal, cardTerms.terms, other.sellerId, otherReal)];
      const wrong: string[] = [];
      const expect4xx = (where: string, b: Bad, res: Awaited<ReturnType<typeof json>>) => {
        if (!isRefusal(res)) wrong.push(`${where} ${b.kind}: ${res.status} ${JSON.stringify(res.body)?.slice(0, 200)} for ${b.id.slice(0, 120)}`);
      };
      const x402 = JSON.parse(Buffer.from(Object.values(x402Proof)[0]!, "base64").toString());
      const mpp = JSON.parse(Buffer.from(mppProof.slice("Payment ".length), "base64url").toString());
      for (let i = 0; i < bad.length; i += 10) {
        await Promise.all(
          bad.slice(i, i + 10).map(async (b) => {
            // x402: the id in the echoed offer, as sent (its challenge token no longer verifies), and with the token
            // signed again for it (as if our x402 key leaked): the id itself must then refuse it.
            for (const resign of [false, true]) {
              const v = structuredClone(x402);
              v.accepted.extra.paymentId = b.id;
              if (resign)
                v.accepted.extra.challenge = signChallenge({
                  paymentId: b.id,
                  sellerId: seller.sellerId,
                  method: "GET",
                  path: payment.path,
                  query: payment.query,
                  amountMicros: BigInt(v.accepted.amount),
                  payTo: v.accepted.payTo,
                  expiresAt: v.accepted.extra.expiresAt,
                });
              expect4xx(
                `x402${resign ? " (re-signed offer)" : ""}`,
                b,
                await json(await callGateway(seller.host, AAPL, { headers: { "PAYMENT-SIGNATURE": b64(JSON.stringify(v)) } })),
              );
            }
            // MPP: the payment id in the challenge's opaque data.
            const m = structuredClone(mpp);
            const opaque = JSON.parse(Buffer.from(m.challenge.opaque, "base64url").toString());
            m.challenge.opaque = b64url(JSON.stringify({ ...opaque, payment_id: b.id }));
            expect4xx("MPP", b, await json(await callGateway(seller.host, AAPL, { headers: { authorization: `Payment ${b64url(JSON.stringify(m))}` } })));
            // The card rail's retry after a hosted checkout.
            expect4xx("svc-payment-id", b, await json(await callGateway(seller.host, BACKTEST, { headers: { "svc-payment-id": b.id } })));
            // POST payUrl.
            const url = `http://${seller.host}/payments/${encodeURIComponent(b.id)}`;
            const pay = await payRoute.POST(
              new Request(`${url}/pay`, {
                method: "POST",
                headers: { host: seller.host, "content-type": "application/json" },
                body: JSON.stringify({ checkout: true }),
              }),
              { params: Promise.resolve({ id: b.id }) },
            );
            expect4xx("POST payUrl", b, await json(pay));
            // statusUrl: this seller's own expired challenge is still its (unpaid, expired) payment; anything else is unknown.
            const status = await json(await statusRoute.GET(new Request(url, { headers: { host: seller.host } }), { params: Promise.resolve({ id: b.id }) }));
            if (b.ownExpired) {
              if (status.status !== 200 || status.body?.status !== "challenged")
                wrong.push(`statusUrl ${b.kind}: ${status.status} ${JSON.stringify(status.body)}`);
            } else expect4xx("statusUrl", b, status);
            // The checkout page's view (the page is a 404 for null).
            const view = await getCheckoutView(catalog, b.id);
            if (!b.ownExpired && view !== null) wrong.push(`checkout page ${b.kind}: a view for ${b.id.slice(0, 120)}`);
          }),
        );
      }
      expect(wrong).toEqual([]);
      expect(await rowCounts()).toEqual(before);
      expect(upstream.state.calls).toBe(callsBefore);
      expect(bad.length).toBeGreaterThan(140);
    }),
    180_000,
  );
});
