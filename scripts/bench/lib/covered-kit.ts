// An agent with plan credit, for the benches that call as one (../gateway.ts, ../covered.ts); the timing helpers are in ./load.ts.
import { x402Client, x402HTTPClient } from "@x402/core/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { anvilPrivateKey } from "../../lib/local-chain";

/** An agent of the storefront at `base` with plan credit: registered, token exchanged, $100 bought with x402. */
export async function agentWithCredit(base: string): Promise<Record<string, string>> {
  const reg = await (
    await fetch(`${base}/agent/identity`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"type":"anonymous"}' })
  ).json();
  const tok = await (
    await fetch(`${base}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion: reg.identity.assertion }),
    })
  ).json();
  const bearer = { authorization: `Bearer ${tok.access_token}` };
  const plans = (await (await fetch(`${base}/manifest.json`)).json()).plans as { slug: string; purchase: { url: string } }[];
  const planUrl = `${base}${new URL(plans.find((p) => p.slug === "research-credits")!.purchase.url).pathname}`;
  const buy = (headers: Record<string, string> = {}) =>
    fetch(planUrl, { method: "POST", headers: { "content-type": "application/json", ...bearer, ...headers }, body: '{"amountUsd":"100.00"}' });
  const c = new x402Client();
  registerExactEvmScheme(c, { signer: privateKeyToAccount(anvilPrivateKey(9)) });
  c.setSpendControls({ maxAmountPerPayment: "$100" });
  const http = new x402HTTPClient(c);
  const challenge = await buy();
  const required = http.getPaymentRequiredResponse((h) => challenge.headers.get(h), await challenge.json());
  const bought = await buy(http.encodePaymentSignatureHeader(await http.createPaymentPayload(required)));
  if (bought.status !== 200) throw new Error(`plan purchase failed: ${bought.status} ${await bought.text()}`);
  return bearer;
}
