// Plans against the built app over HTTP: an agent registers, buys credit with the official x402 client, and draws it
// down with its bearer; and the zero-overspend invariant holds across two app instances sharing one database.
import { expect, test } from "@playwright/test";
import { x402Client } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment } from "@x402/fetch";
import pg from "pg";
import { privateKeyToAccount } from "viem/accounts";
import { startAppInstance, stackEnv } from "../stack";
import { entitlementsResponse, purchaseResponse } from "../../server/contracts/platform";

// anvil default account 6 (a demo payer wallet; a public test key).
const PAYER = "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e";

async function agent(baseURL: string): Promise<{ id: string; token: string }> {
  const reg = await (
    await fetch(`${baseURL}/agent/identity`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "anonymous" }) })
  ).json();
  const tok = await (
    await fetch(`${baseURL}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: reg.identity.assertion }),
    })
  ).json();
  return { id: reg.identity.id, token: tok.access_token };
}

/** Buy credit with the official x402 client: it answers the purchase's 402 and retries the same POST. */
async function buy(baseURL: string, token: string, amountUsd: string) {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(PAYER) });
  // An agent buying credit raises the client's default $1 spend control on purpose.
  client.setSpendControls({ maxAmountPerPayment: "$20" });
  const plans = (await (await fetch(`${baseURL}/manifest.json`)).json()).plans as { id: string; slug: string; purchase: { url: string } }[];
  const plan = plans.find((p) => p.slug === "research-credits")!;
  const res = await wrapFetchWithPayment(fetch, client)(plan.purchase.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ amountUsd }),
  });
  expect(res.status).toBe(200);
  // The live body answers its OpenAPI contract.
  return purchaseResponse.parse(await res.json());
}

test("an agent buys credit with the official x402 client and draws it down with its bearer", async ({ baseURL }) => {
  const a = await agent(baseURL!);
  const bought = await buy(baseURL!, a.token, "5.00");
  expect(bought).toMatchObject({ status: "credited", payment: { rail: "x402" }, grant: { amountUsd: "5.000000" }, plan: { balanceUsd: "5.000000" } });
  const res = await fetch(`${baseURL}/api/v1/avg-interest-rates`, { headers: { authorization: `Bearer ${a.token}` } });
  expect(res.status).toBe(200);
  expect((await res.json()).source).toBe("us_treasury");
  expect(res.headers.get("svc-billing")).toMatch(/rail=credits;.*amount_usd=0\.010000; status=charged;.*balance_usd=4\.990000/);
  const ent = entitlementsResponse.parse(await (await fetch(`${baseURL}/agent/entitlements`, { headers: { authorization: `Bearer ${a.token}` } })).json());
  expect(ent.plans[0]).toMatchObject({ slug: "research-credits", balanceUsd: "4.990000", purchasedUsd: "5.000000" });
});

test.describe("two app instances sharing the database", () => {
  let second: { url: string; stop: () => void } | undefined;
  let third: { url: string; stop: () => void } | undefined;
  const port = Number(process.env.E2E_PORT ?? 3100) + 7;

  test.afterAll(() => {
    second?.stop();
    third?.stop();
  });

  test("1,000 concurrent plan-covered calls split between them, against credit for exactly 37: 37 served, 0 left", async ({ baseURL }) => {
    test.setTimeout(120_000);
    const stack = stackEnv();
    // One credential's 1,000 calls within seconds pass its per-payer budget (issue 22: a bearer's credential is a payer,
    // 600 a minute by default, shared by every instance): two instances of their own with that budget raised, so every
    // call reaches the draw this test races.
    const roomy = { RATE_LIMIT_PAYER_PER_MINUTE: "100000" };
    [second, third] = await Promise.all([startAppInstance(port, roomy), startAppInstance(port + 2, roomy)]);

    const a = await agent(baseURL!);
    await buy(baseURL!, a.token, "5.00");
    // Leave credit for exactly 37 calls at $0.02 (0.74 USD), as a seller's support tool or an earlier spend would.
    const db = new pg.Client({ connectionString: stack.DATABASE_URL });
    await db.connect();
    try {
      await db.query("update credit_grants set remaining_micros = 740000 where credential_id = $1", [a.id]);
      const urls = [second.url, third.url];
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          fetch(`${urls[i % 2]}/api/v1/aggregates/AAPL?from=2017-03-01&to=2017-03-31`, { headers: { authorization: `Bearer ${a.token}` } }).then(async (r) => {
            await r.arrayBuffer();
            return r.status;
          }),
        ),
      );
      expect(results.filter((s) => s === 200)).toHaveLength(37);
      expect(results.filter((s) => s !== 200).every((s) => s === 402)).toBe(true);
      const left = await db.query("select remaining_micros::text as r from credit_grants where credential_id = $1", [a.id]);
      expect(left.rows[0].r).toBe("0");
      // Every one of the 37 is on record, whichever instance served it.
      const served = await db.query(
        "select count(*)::int as n from payments where credential_id = $1 and rail = 'credits' and status in ('verified', 'consumed')",
        [a.id],
      );
      expect(served.rows[0].n).toBe(37);
    } finally {
      await db.end();
    }
  });
});
