import path from "node:path";
import { expect } from "vitest";
import { OWN_DATABASE, ownDatabase } from "./own-database";
import { TEST_ENV } from "./test-env";
import { testWalletAccount } from "./test-wallets";

for (const [k, v] of Object.entries(TEST_ENV)) process.env[k] ??= v;

// Each file runs in a process of its own, before any of its imports: what is set here is the file's.
const testPath = expect.getState().testPath;
const file = testPath ? path.relative(process.cwd(), testPath) : undefined;
if (file) {
  // Wallets of its own on the run's shared chain (scripts/lib/local-chain.ts `walletAccount`).
  process.env.TEST_WALLET_ACCOUNT = String(testWalletAccount(file));
  // A database of its own for a file that acts on every seller's rows (own-database.ts says which, and why).
  if (file in OWN_DATABASE && process.env.DATABASE_URL) process.env.DATABASE_URL = await ownDatabase(process.env.DATABASE_URL, file);
}
