// A Stripe-shaped HTTP server on loopback for the Stripe adapter's tests: the few endpoints the storefront calls
// (Checkout Sessions, PaymentIntents confirmed with a shared payment token, Refunds), answered in Stripe's shapes
// (form-encoded requests, JSON objects, `expand`, card errors as 402 with `error.decline_code`), with idempotency keys
// replayed as Stripe does (same key and parameters: the first answer again, `Idempotent-Replayed: true`; other
// parameters: 400 idempotency_error), and webhook events signed with the official SDK. The real SDK is pointed at it
// through STRIPE_API_URL. Imported by tests only.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

type Json = Record<string, unknown>;
export type FakeRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; params: URLSearchParams };
export type TokenBehaviour = "succeeds" | "generic_decline" | "insufficient_funds" | "requires_action";

const rid = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

function limitBroken(params: URLSearchParams): string | null {
  for (const [k, v] of params) {
    if (k === "client_reference_id" && v.length > 200) return k;
    if (/(^|\[)metadata\]?\[/.test(k) && v.length > 500) return k;
  }
  return null;
}

export async function startFakeStripe(webhookSecret: string) {
  const state = {
    requests: [] as FakeRequest[],
    sessions: new Map<string, Json>(),
    intents: new Map<string, Json>(),
    refunds: new Map<string, Json>(),
    tokens: new Map<string, { behaviour: TokenBehaviour; brand: string; last4: string }>(),
    idempotent: new Map<string, { params: string; status: number; body: string }>(),
    /** Answer the next N requests with a 500 (an outage). */
    failNext: 0,
  };

  // A charge with its balance transaction (the fee Stripe kept, in the account's currency: USD here).
  const charge = (brand: string, last4: string, amount: number) => ({
    id: rid("ch"),
    object: "charge",
    status: "succeeded",
    payment_method_details: { type: "card", card: { brand, last4 } },
    balance_transaction: { id: rid("txn"), object: "balance_transaction", amount, currency: "usd", fee: Math.round((amount * 29) / 1000) + 30 },
  });

  function intent(fields: Json): Json {
    const pi: Json = { id: rid("pi"), object: "payment_intent", last_payment_error: null, latest_charge: null, metadata: {}, ...fields };
    state.intents.set(pi.id as string, pi);
    return pi;
  }

  /** The intent as an API answer: `latest_charge` an id unless expanded, and its `balance_transaction` likewise. */
  function showIntent(pi: Json, expandCharge: boolean, expandBalance = false): Json {
    const c = pi.latest_charge as Json | null;
    const shown: Json | null = c ? { ...c, balance_transaction: expandBalance ? c.balance_transaction : (c.balance_transaction as Json).id } : null;
    return { ...pi, latest_charge: shown ? (expandCharge ? shown : shown.id) : null };
  }

  function showSession(s: Json, expand: string[]): Json {
    const pi = s.payment_intent ? state.intents.get(s.payment_intent as string)! : null;
    return {
      ...s,
      payment_intent: pi
        ? expand.includes("payment_intent")
          ? showIntent(
              pi,
              expand.some((e) => e.startsWith("payment_intent.latest_charge")),
              expand.includes("payment_intent.latest_charge.balance_transaction"),
            )
          : pi.id
        : null,
    };
  }

  const metadataOf = (p: URLSearchParams) => Object.fromEntries([...p].filter(([k]) => k.startsWith("metadata[")).map(([k, v]) => [k.slice(9, -1), v]));
  const expandOf = (p: URLSearchParams) => [...p].filter(([k]) => k.startsWith("expand[")).map(([, v]) => v);

  function route(method: string, path: string, p: URLSearchParams): [number, Json] {
    const invalid = (message: string, param?: string): [number, Json] => [400, { error: { type: "invalid_request_error", message, param } }];
    let m: RegExpExecArray | null;
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const id = rid("cs_test");
      const expiresAt = Number(p.get("expires_at") ?? now() + 86_400);
      if (expiresAt < now() + 1800 || expiresAt > now() + 86_400) return invalid("expires_at must be between 30 minutes and 24 hours from now", "expires_at");
      const s: Json = {
        id,
        object: "checkout.session",
        mode: p.get("mode"),
        status: "open",
        payment_status: "unpaid",
        url: `https://checkout.stripe.test/c/pay/${id}`,
        amount_total: Number(p.get("line_items[0][price_data][unit_amount]")),
        currency: p.get("line_items[0][price_data][currency]"),
        client_reference_id: p.get("client_reference_id"),
        metadata: metadataOf(p),
        success_url: p.get("success_url"),
        cancel_url: p.get("cancel_url"),
        expires_at: expiresAt,
        payment_intent: null,
        intent_metadata: { payment_id: p.get("payment_intent_data[metadata][payment_id]") },
      };
      state.sessions.set(id, s);
      return [200, showSession(s, [])];
    }
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)) && method === "GET") {
      const s = state.sessions.get(m[1]!);
      return s ? [200, showSession(s, expandOf(p))] : [404, { error: { type: "invalid_request_error", message: `No such checkout.session: '${m[1]}'` } }];
    }
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)) && method === "POST") {
      const s = state.sessions.get(m[1]!);
      if (!s) return invalid(`No such checkout.session: '${m[1]}'`);
      if (s.status !== "open") return invalid(`Only Checkout Sessions with a status in ["open"] can be expired.`);
      s.status = "expired";
      return [200, showSession(s, [])];
    }
    if (method === "POST" && path === "/v1/payment_intents") {
      const spt = p.get("shared_payment_granted_token");
      const token = spt ? state.tokens.get(spt) : undefined;
      if (!token) return invalid(`No such shared payment token: '${spt}'`, "shared_payment_granted_token");
      const base = { amount: Number(p.get("amount")), currency: p.get("currency"), metadata: metadataOf(p) };
      if (token.behaviour === "succeeds") {
        state.tokens.delete(spt!);
        const pi = intent({ ...base, status: "succeeded", latest_charge: charge(token.brand, token.last4, base.amount) });
        const expand = expandOf(p);
        return [
          200,
          showIntent(
            pi,
            expand.some((e) => e.startsWith("latest_charge")),
            expand.includes("latest_charge.balance_transaction"),
          ),
        ];
      }
      if (token.behaviour === "requires_action") return [200, showIntent(intent({ ...base, status: "requires_action" }), false)];
      const message = token.behaviour === "insufficient_funds" ? "Your card has insufficient funds." : "Your card was declined.";
      const error = { type: "card_error", code: "card_declined", decline_code: token.behaviour, message };
      const pi = intent({ ...base, status: "requires_payment_method", last_payment_error: error });
      return [402, { error: { ...error, payment_intent: showIntent(pi, false) } }];
    }
    if (method === "POST" && path === "/v1/refunds") {
      const pi = state.intents.get(p.get("payment_intent") ?? "");
      if (!pi || pi.status !== "succeeded") return invalid("This PaymentIntent does not have a successful charge to refund.", "payment_intent");
      const r: Json = {
        id: rid("re"),
        object: "refund",
        status: "succeeded",
        amount: Number(p.get("amount")),
        payment_intent: pi.id,
        reason: p.get("reason"),
        metadata: metadataOf(p),
      };
      state.refunds.set(r.id as string, r);
      return [200, r];
    }
    return [404, { error: { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` } }];
  }

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? "/", "http://stripe.test");
    const params = new URLSearchParams(req.method === "GET" ? url.search : Buffer.concat(chunks).toString("utf8"));
    const method = req.method ?? "GET";
    state.requests.push({ method, path: url.pathname, headers: req.headers, params });
    const send = (status: number, body: string, extra: Record<string, string> = {}) =>
      res.writeHead(status, { "content-type": "application/json", "request-id": rid("req"), ...extra }).end(body);
    if (!/^Bearer sk_test_/.test(String(req.headers.authorization ?? ""))) {
      send(401, JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } }));
      return;
    }
    if (state.failNext > 0) {
      state.failNext--;
      send(500, JSON.stringify({ error: { type: "api_error", message: "An unknown error occurred" } }));
      return;
    }
    const key = method === "POST" ? (req.headers["idempotency-key"] as string | undefined) : undefined;
    // Stripe's documented length limits: idempotency keys up to 255 characters, a Checkout client_reference_id up to
    // 200, metadata values up to 500. Longer ones are refused before anything is created.
    const tooLong = (key?.length ?? 0) > 255 ? "idempotency key" : limitBroken(params);
    if (tooLong) {
      send(400, JSON.stringify({ error: { type: "invalid_request_error", message: `${tooLong} is too long` } }));
      return;
    }
    const canonical = [...params].sort(([a], [b]) => a.localeCompare(b)).join("&");
    const previous = key ? state.idempotent.get(key) : undefined;
    if (previous) {
      if (previous.params !== canonical)
        send(
          400,
          JSON.stringify({
            error: { type: "idempotency_error", message: "Keys for idempotent requests can only be used with the same parameters they were first used with." },
          }),
        );
      else send(previous.status, previous.body, { "idempotent-replayed": "true" });
      return;
    }
    const [status, body] = route(method, url.pathname, params);
    const text = JSON.stringify(body);
    if (key && status < 500) state.idempotent.set(key, { params: canonical, status, body: text });
    send(status, text);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    state,
    /** A shared payment token the agent's wallet was granted, charging like `behaviour`. */
    grantToken(behaviour: TokenBehaviour = "succeeds", card = { brand: "visa", last4: "4242" }): string {
      const spt = rid("spt");
      state.tokens.set(spt, { behaviour, ...card });
      return spt;
    },
    /** The human paid on Stripe's hosted page (and gave Stripe `email`, which Checkout asks every payer for). */
    paySession(id: string, card = { brand: "mastercard", last4: "4444" }, email: string | null = null): void {
      const s = state.sessions.get(id)!;
      const pi = intent({
        amount: s.amount_total,
        currency: s.currency,
        status: "succeeded",
        latest_charge: charge(card.brand, card.last4, s.amount_total as number),
        metadata: s.intent_metadata,
      });
      Object.assign(s, { status: "complete", payment_status: "paid", payment_intent: pi.id, customer_details: email ? { email, name: null } : null });
    },
    /** A webhook delivery of `type` about `object`, signed with the endpoint's secret (or another one). */
    event(type: string, object: Json, opts: { secret?: string } = {}): { body: string; signature: string; id: string } {
      const id = rid("evt");
      const body = JSON.stringify({ id, object: "event", type, api_version: "2026-10-28.endive", created: now(), livemode: false, data: { object } });
      return { id, body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret: opts.secret ?? webhookSecret }) };
    },
    session(id: string): Json {
      return showSession(state.sessions.get(id)!, []);
    },
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
