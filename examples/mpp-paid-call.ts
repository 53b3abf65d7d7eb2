// A paid call with the official MPP client (mppx, `evm` charge method) and a demo wallet.
//
//   npm run demo                                   # in one terminal: app + local chain (anvil as Base)
//   npx tsx examples/mpp-paid-call.ts              # in another
//
// Settings (optional): BASE_URL (default http://127.0.0.1:3000), PAYER_PRIVATE_KEY (default: demo payer #2,
// anvil account 2 - a public test key, never use it on a real chain), RPC_URL (default http://127.0.0.1:8545).
// The client reads the 402's `WWW-Authenticate: Payment` challenge, signs an EIP-3009 authorization for USDC on
// Base (chain 8453), retries with `Authorization: Payment <credential>`, and gets the data with a Payment-Receipt;
// the balances printed before and after show the USDC moving on the local chain.
import { Receipt } from "mppx";
import { Mppx, evm } from "mppx/client";
import { createPublicClient, erc20Abi, formatUnits, http, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";

const BASE_URL = process.env.BASE_URL ?? "http://127.0.0.1:3000";
const RPC_URL = process.env.RPC_URL ?? "http://127.0.0.1:8545";
const PAYER_PRIVATE_KEY = (process.env.PAYER_PRIVATE_KEY ?? "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a") as Hex;
const USDC = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

async function main() {
  const account = privateKeyToAccount(PAYER_PRIVATE_KEY);
  // `currencies` tells the client which token it may pay with (and its EIP-712 domain); polyfill: false leaves the
  // global fetch alone.
  const mppx = Mppx.create({ methods: [evm.charge({ account, currencies: [evm.assets.base.USDC] })], polyfill: false });

  const chain = createPublicClient({ chain: base, transport: http(RPC_URL) });
  const balance = async () => formatUnits(await chain.readContract({ address: USDC, abi: erc20Abi, functionName: "balanceOf", args: [account.address] }), 6);
  console.log(`payer ${account.address}: ${await balance()} USDC`);

  const url = `${BASE_URL}/api/v1/aggregates/AAPL?from=2017-01-03&to=2017-01-13`;
  const res = await mppx.fetch(url);
  console.log(`GET ${url} -> ${res.status}`);
  if (res.status !== 200) {
    // Not paid: the storefront's error body says why (spec part 7), and a fresh challenge comes with it.
    console.error(await res.text());
    process.exit(1);
  }
  if (res.headers.get("payment-receipt")) console.log("receipt:", Receipt.fromResponse(res));
  console.log("billing:", res.headers.get("svc-billing"));
  const body = await res.json();
  console.log(JSON.stringify(body, null, 2).slice(0, 800));
  console.log(`payer ${account.address}: ${await balance()} USDC`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
