// A paid call with the official x402 client (@x402/fetch) and a demo wallet.
//
//   npm run demo                                   # in one terminal: app + local chain (anvil as Base)
//   npx tsx examples/x402-paid-call.ts             # in another
//
// Settings (optional): BASE_URL (default http://127.0.0.1:3000), PAYER_PRIVATE_KEY (default: demo payer #1,
// anvil account 1 - a public test key, never use it on a real chain), RPC_URL (default http://127.0.0.1:8545).
// The client pays the 402 with USDC over x402 (EIP-3009, Base, chain 8453), retries, and gets the data; the
// balances printed before and after show the USDC moving on the local chain.
import { x402Client, wrapFetchWithPayment } from "@x402/fetch";
import { decodePaymentResponseHeader } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { createPublicClient, erc20Abi, formatUnits, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";

const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const RPC_URL = process.env.RPC_URL ?? "http://127.0.0.1:8545";
const PAYER_PRIVATE_KEY = (process.env.PAYER_PRIVATE_KEY ?? "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d") as Hex;
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

async function main() {
  const account = privateKeyToAccount(PAYER_PRIVATE_KEY);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  const fetchWithPayment = wrapFetchWithPayment(fetch, client);

  const chain = createPublicClient({ chain: base, transport: http(RPC_URL) });
  const balance = async () => formatUnits(await chain.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [account.address] }), 6);
  console.log(`payer ${account.address}: ${await balance()} USDC`);

  const url = `${BASE_URL}/api/v1/aggregates/AAPL?from=2017-01-03&to=2017-01-13`;
  const res = await fetchWithPayment(url);
  console.log(`GET ${url} -> ${res.status}`);
  if (res.status !== 200) {
    // Not paid: the storefront's error body says why (spec part 7), and a fresh challenge comes with it.
    console.error(await res.text());
    process.exit(1);
  }
  const receipt = res.headers.get("payment-response");
  if (receipt) console.log("settlement:", decodePaymentResponseHeader(receipt));
  console.log("billing:", res.headers.get("svc-billing"));
  const body = await res.json();
  console.log(JSON.stringify(body, null, 2).slice(0, 800));
  console.log(`payer ${account.address}: ${await balance()} USDC`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
