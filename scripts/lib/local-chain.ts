// Local EVM for x402/MPP settlement: a real anvil answering as Base (chain 8453) with a USDC-like EIP-3009
// token placed at the Base USDC address, so unmodified x402 clients (which only pay Base USDC) pay it, and x402's
// batch-settlement contracts (ours, contracts/X402BatchSettlement.sol and ERC3009DepositCollector.sol) at the canonical
// addresses @x402/evm's batch-settlement client signs for.
//
// Accounts (anvil's default mnemonic "test test ... junk"):
//   0     facilitator gas wallet (submits transferWithAuthorization)
//   1-9   demo payer wallets, 1,000 test USDC each
//   10    the demo seller's payTo (receives payments; prisma/seed.ts DEMO_SELLER.payTo)
// A Vitest file uses the same indexes under an HD account of its own (TEST_WALLET_ACCOUNT, set per file by
// scripts/test/vitest-setup.ts), funded by `fundTestWallets`: the files share one chain, never a wallet or a nonce.
import { spawn, type ChildProcess } from "node:child_process";
import { pbkdf2Sync } from "node:crypto";
import path from "node:path";
import { BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import { createTestClient, createWalletClient, http, parseUnits, publicActions, type Account, type Hex } from "viem";
import { HDKey, mnemonicToAccount, privateKeyToAccount } from "viem/accounts";
import { CHAIN, CHAIN_ID, USDC_ADDRESS } from "../../server/chain/config";
import { TOKEN_ABI, TOKEN_RUNTIME_BYTECODE } from "../../server/chain/token";
import collector from "../../contracts/ERC3009DepositCollector.json";
import settlement from "../../contracts/X402BatchSettlement.json";
import { freePort } from "./embedded-postgres";

export type LocalChain = { env: Record<string, string>; summary: string[]; stop: () => Promise<void> };

export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
export const PAYER_FUNDING_USDC = "1000";

/**
 * The HD account (m/44'/60'/account'/0/index) the wallets come from: 0 is anvil's own accounts (the demo, the e2e
 * server, the bench); a test file sets TEST_WALLET_ACCOUNT to have wallets of its own on the shared test chain.
 */
export function walletAccount(): number {
  return Number(process.env.TEST_WALLET_ACCOUNT ?? 0);
}

// BIP-39's seed of the mnemonic (PBKDF2-HMAC-SHA512, 2,048 rounds, salt "mnemonic"), computed once with node:crypto:
// viem's mnemonicToAccount runs it in JavaScript on every call (a tenth of a second or more each), and tests ask for
// keys on every payment. Then BIP-44's path m/44'/60'/account'/0/index, the parent derived once per account.
let root: HDKey | undefined;
const parents = new Map<number, HDKey>();
const keys = new Map<string, Hex>();

/** The private key of account `index` (0 = gas wallet, 1-9 = payers, 10 = demo payTo): anvil's, or the test file's own. */
export function anvilPrivateKey(index: number): Hex {
  const account = walletAccount();
  const id = `${account}/${index}`;
  let key = keys.get(id);
  if (!key) {
    root ??= HDKey.fromMasterSeed(pbkdf2Sync(ANVIL_MNEMONIC.normalize("NFKD"), "mnemonic", 2048, 64, "sha512"));
    let parent = parents.get(account);
    if (!parent) parents.set(account, (parent = root.derive(`m/44'/60'/${account}'/0`)));
    key = `0x${Buffer.from(parent.deriveChild(index).privateKey!).toString("hex")}`;
    keys.set(id, key);
  }
  return key;
}

const addresses = new Map<Hex, `0x${string}`>();
export function anvilAddress(index: number): `0x${string}` {
  const key = anvilPrivateKey(index);
  let address = addresses.get(key);
  if (!address) addresses.set(key, (address = privateKeyToAccount(key).address));
  return address;
}

function anvilBinary(): string {
  return process.env.ANVIL_BIN ?? path.join(process.cwd(), "node_modules", "@foundry-rs", "anvil-linux-amd64", "bin", "anvil");
}

async function waitForRpc(url: string, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode} before answering`);
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`anvil did not answer on ${url} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Place x402's batch-settlement contracts at the addresses @x402/evm expects (its client signs deposits to the
 * collector's address and vouchers under the settlement contract's EIP-712 domain). Neither has a constructor, so
 * anvil_setCode is a deployment. Idempotent.
 */
export async function installBatchSettlement(rpcUrl: string): Promise<void> {
  const test = createTestClient({ chain: CHAIN, mode: "anvil", transport: http(rpcUrl) });
  await test.setCode({ address: BATCH_SETTLEMENT_ADDRESS, bytecode: settlement.deployedBytecode as Hex });
  await test.setCode({ address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS, bytecode: collector.deployedBytecode as Hex });
}

const PAYERS = [1, 2, 3, 4, 5, 6, 7, 8, 9];

/**
 * Place the token at the USDC address (and the batch-settlement contracts at theirs) and fund the payer wallets.
 * Idempotent on a running chain.
 */
export async function installUsdc(rpcUrl: string, payerIndexes = PAYERS): Promise<void> {
  const test = createTestClient({ chain: CHAIN, mode: "anvil", transport: http(rpcUrl) });
  await test.setCode({ address: USDC_ADDRESS, bytecode: TOKEN_RUNTIME_BYTECODE });
  await installBatchSettlement(rpcUrl);
  await mintToPayers(rpcUrl, mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 0 }), payerIndexes);
}

/**
 * What a fresh chain gives anvil's accounts, for the wallets in use (a test file's own on the shared chain): 10,000 ETH
 * each for 0-10 (set, no transaction), then 1,000 test USDC each for the payers 1-9, minted by the file's own account
 * 0, so no two processes ever send from one account. Wallets past 10 stay empty, as on a fresh chain. Idempotent.
 */
export async function fundTestWallets(rpcUrl: string): Promise<void> {
  const test = createTestClient({ chain: CHAIN, mode: "anvil", transport: http(rpcUrl) });
  await Promise.all(Array.from({ length: 11 }, (_, i) => test.setBalance({ address: anvilAddress(i), value: parseUnits("10000", 18) })));
  await mintToPayers(rpcUrl, privateKeyToAccount(anvilPrivateKey(0)), PAYERS);
}

async function mintToPayers(rpcUrl: string, minter: Account, payerIndexes: number[]): Promise<void> {
  const wallet = createWalletClient({ account: minter, chain: CHAIN, transport: http(rpcUrl) }).extend(publicActions);
  const amount = parseUnits(PAYER_FUNDING_USDC, 6);
  let nonce = await wallet.getTransactionCount({ address: wallet.account.address, blockTag: "pending" });
  const hashes: Hex[] = [];
  for (const i of payerIndexes) {
    const to = anvilAddress(i);
    const balance = (await wallet.readContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "balanceOf", args: [to] })) as bigint;
    if (balance >= amount) continue;
    hashes.push(await wallet.writeContract({ address: USDC_ADDRESS, abi: TOKEN_ABI, functionName: "mint", args: [to, amount - balance], nonce: nonce++ }));
  }
  for (const hash of hashes) await wallet.waitForTransactionReceipt({ hash, pollingInterval: 20 });
}

/**
 * Switch a running anvil between mining each transaction at once (`seconds` 0: the default, every test's chain) and a
 * block every `seconds` (Base makes one every 2 s), as a chain that makes blocks would.
 */
export async function setBlockTime(rpcUrl: string, seconds: number): Promise<void> {
  const rpc = (method: string, params: unknown[]) =>
    fetch(rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) }).then(
      async (r) => {
        const body = (await r.json()) as { error?: { message: string } };
        if (body.error) throw new Error(`${method}: ${body.error.message}`);
      },
    );
  if (seconds > 0) {
    await rpc("evm_setAutomine", [false]);
    await rpc("evm_setIntervalMining", [seconds]);
  } else {
    await rpc("evm_setIntervalMining", [0]);
    await rpc("evm_setAutomine", [true]);
  }
}

/**
 * `blockTime` (seconds; or LOCAL_CHAIN_BLOCK_TIME): mine a block every so often instead of each transaction at once.
 * The chain is set up (token, funding) while mining instantly, then switched.
 */
export async function startLocalChain(opts: { log: (line: string) => void; port?: number; anyPort?: boolean; blockTime?: number }): Promise<LocalChain | null> {
  const t0 = Date.now();
  // LOCAL_CHAIN_PORT pins the port (the e2e runner sets it, so the test process knows the RPC URL too);
  // otherwise 8545 if free, else any free port. `anyPort` (Vitest's chains) ignores both: the e2e server's chain may be
  // up at the same time.
  const pinned = process.env.LOCAL_CHAIN_PORT && !opts.anyPort ? Number(process.env.LOCAL_CHAIN_PORT) : undefined;
  const port = pinned ?? (await freePort(opts.anyPort ? undefined : (opts.port ?? 8545)));
  const child = spawn(
    anvilBinary(),
    ["--chain-id", String(CHAIN_ID), "--port", String(port), "--host", "127.0.0.1", "--silent", "--mnemonic", ANVIL_MNEMONIC, "--accounts", "11"],
    {
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  child.stderr?.on("data", (d: Buffer) => opts.log(`anvil: ${d.toString().trim()}`));
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  try {
    await waitForRpc(rpcUrl, child);
    await installUsdc(rpcUrl);
    const blockTime = opts.blockTime ?? Number(process.env.LOCAL_CHAIN_BLOCK_TIME ?? 0);
    if (blockTime > 0) await setBlockTime(rpcUrl, blockTime);
  } catch (e) {
    await stop();
    throw e;
  }
  opts.log(`chain: anvil as Base (8453) on ${rpcUrl}, USDC at ${USDC_ADDRESS}, batch settlement at ${BATCH_SETTLEMENT_ADDRESS} (${Date.now() - t0} ms)`);
  const summary = [
    `Local chain: ${rpcUrl} (chain id ${CHAIN_ID}); test USDC at ${USDC_ADDRESS}; x402 batch settlement at ${BATCH_SETTLEMENT_ADDRESS}`,
    `Demo payer wallets (anvil accounts 1-9, ${PAYER_FUNDING_USDC} test USDC each; test keys, never use them on a real chain):`,
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => `  #${i} ${anvilAddress(i)}  ${anvilPrivateKey(i)}`),
    `Facilitator gas wallet: anvil account 0 ${anvilAddress(0)}; seller payTo: anvil account 10 ${anvilAddress(10)}`,
  ];
  return { env: { RPC_URL: rpcUrl, FACILITATOR: "local", FACILITATOR_PRIVATE_KEY: anvilPrivateKey(0) }, summary, stop };
}
