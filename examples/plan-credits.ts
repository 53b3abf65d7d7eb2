// Prepaid credit, from an agent's side: register, buy a plan's credit once with the official x402 client, then call
// with the bearer alone (no payment per call), read what is left, and top it up.
//
//   npm run demo                                   # in one terminal: app + local chain (anvil as Base)
//   npx tsx examples/plan-credits.ts               # in another
//
// Settings (optional): BASE_URL (default http://127.0.0.1:3000), PAYER_PRIVATE_KEY (default: demo payer #3, anvil
// account 3 - a public test key, never use it on a real chain), PLAN (default research-credits), AMOUNT_USD (default
// 5.00: the plan's minimum purchase), CALLS (default 3), CALL_PATH (default the AAPL daily bars of Jan 2017's first two
// weeks, on the aggregates meter). It exits with 1, saying why, when a step does not answer as
// the storefront documents it.
import { x402Client, wrapFetchWithPayment } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";

const BASE_URL = (process.env.BASE_URL ?? "http://127.0.0.1:3000").replace(/\/$/, "");
const PAYER_PRIVATE_KEY = (process.env.PAYER_PRIVATE_KEY ?? "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6") as Hex;
const PLAN = process.env.PLAN ?? "research-credits";
const AMOUNT_USD = process.env.AMOUNT_USD ?? "5.00";
const CALLS = Number(process.env.CALLS ?? 3);
const CALL_PATH = process.env.CALL_PATH ?? "/api/v1/aggregates/AAPL?from=2017-01-03&to=2017-01-13";

// The fields this script reads (the whole shapes are in /openapi.json).
type Registration = { identity: { id: string; assertion: string } };
type Token = { access_token: string; expires_in: number };
type Plan = { id: string; slug: string; name: string; meters: string[]; purchase: { url: string } | null };
type Purchase = { payment: { id: string; rail: string }; grant: { amountUsd: string }; plan: { balanceUsd: string } };
type Entitlements = {
  plans: { slug: string; balanceUsd: string; purchasedUsd: string; expiresAt: string }[];
  credit: { meter: string; priceUsd: string; creditUsd: string; calls: number }[];
};

/** The JSON answer of a step, or exit naming the step, the status and the storefront's error body. */
async function expectJson<T>(step: string, res: Response, status = 200): Promise<T> {
  const text = await res.text();
  if (res.status !== status) {
    console.error(`${step}: expected HTTP ${status}, got ${res.status}\n${text.slice(0, 800)}`);
    process.exit(1);
  }
  return JSON.parse(text) as T;
}

async function main() {
  // 1. An identity (anonymous: its plans live as long as the credential) and a short-lived access token for it.
  const reg = await expectJson<Registration>(
    "register",
    await fetch(`${BASE_URL}/agent/identity`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"type":"anonymous"}' }),
    201,
  );
  const tok = await expectJson<Token>(
    "token",
    await fetch(`${BASE_URL}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: reg.identity.assertion }),
    }),
  );
  const bearer = { authorization: `Bearer ${tok.access_token}` };
  console.log(`agent ${reg.identity.id}: access token for ${tok.expires_in} s`);

  // 2. The plan, as the manifest describes it (meters it covers, purchase bounds, where to buy).
  const manifest = await expectJson<{ plans: Plan[] }>("manifest", await fetch(`${BASE_URL}/manifest.json`));
  const plan = manifest.plans.find((p) => p.purchase && (p.slug === PLAN || p.id === PLAN));
  if (!plan) {
    console.error(
      `no plan "${PLAN}" to buy here; plans: ${manifest.plans
        .filter((p) => p.purchase)
        .map((p) => p.slug)
        .join(", ")}`,
    );
    process.exit(1);
  }
  console.log(`plan ${plan.slug}: ${plan.name}; covers ${plan.meters.join(", ")}`);

  // 3. Buy: the purchase answers 402 for exactly AMOUNT_USD, the client pays it (x402, USDC on Base) and retries.
  // x402 clients refuse payments over $1 by default; buying credit is the one place an agent raises that on purpose.
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(PAYER_PRIVATE_KEY) });
  client.setSpendControls({ maxAmountPerPayment: `$${AMOUNT_USD}` });
  const pay = wrapFetchWithPayment(fetch, client);
  const buy = (url: string, body: object) =>
    pay(url, { method: "POST", headers: { "content-type": "application/json", ...bearer }, body: JSON.stringify({ amountUsd: AMOUNT_USD, ...body }) });
  const bought = await expectJson<Purchase>("purchase", await buy(plan.purchase!.url, {}));
  console.log(`bought $${bought.grant.amountUsd} (payment ${bought.payment.id}, ${bought.payment.rail}); balance $${bought.plan.balanceUsd}`);

  // 4. Calls the plan covers: the bearer is the whole payment; `svc-billing` says what each drew and what is left.
  const url = `${BASE_URL}${CALL_PATH}`;
  for (let i = 0; i < CALLS; i++) {
    const res = await fetch(url, { headers: bearer });
    await expectJson(`call ${i + 1}`, res);
    console.log(`GET ${url} -> ${res.status}; billing: ${res.headers.get("svc-billing")}`);
  }

  // 5. What the bearer holds now, then a top-up of the same plan.
  const ent = await expectJson<Entitlements>("entitlements", await fetch(`${BASE_URL}/agent/entitlements`, { headers: bearer }));
  for (const p of ent.plans) console.log(`entitlement ${p.slug}: $${p.balanceUsd} left of $${p.purchasedUsd}, until ${p.expiresAt}`);
  const aggregates = ent.credit.find((c) => c.meter === "aggregates");
  if (aggregates) console.log(`that buys ${aggregates.calls} more aggregates calls at $${aggregates.priceUsd}`);
  const extended = await expectJson<Purchase>("extend", await buy(`${BASE_URL}/extend`, { planId: plan.id }));
  console.log(`topped up $${extended.grant.amountUsd}; balance $${extended.plan.balanceUsd}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
