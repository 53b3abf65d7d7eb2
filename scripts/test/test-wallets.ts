// Which HD account a test file's wallets come from (scripts/lib/local-chain.ts `walletAccount`): a hash of its path
// relative to the repository, so a file keeps its wallets from run to run (a failure names the same addresses) and no
// two files share them (test-wallets.test.ts checks every file of the suite).
import { createHash } from "node:crypto";

/** An HD account index for `relativePath`: 1 to 2^31 - 1 (0 is anvil's own accounts; hardened indexes stop at 2^31). */
export function testWalletAccount(relativePath: string): number {
  const n = createHash("sha256").update(relativePath).digest().readUInt32BE(0) & 0x7fffffff;
  return n === 0 ? 1 : n;
}
