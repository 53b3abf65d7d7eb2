/// <reference types="vite/client" />
// Files running at once on the shared chain must never pay from the same wallets: every test file gets an HD account
// of its own, none of them anvil's (account 0, the demo's and the e2e server's).
import { describe, expect, it } from "vitest";
import { anvilAddress, walletAccount } from "../lib/local-chain";
import { testWalletAccount } from "./test-wallets";

const SELF = "scripts/test/test-wallets.test.ts";
// Paths only (lazy globs import nothing; a glob leaves out the file it is in), relative to the repository like the set-up's.
const testFiles = [
  SELF,
  ...Object.keys(import.meta.glob(["/server/**/*.test.ts", "/prisma/**/*.test.ts", "/app/**/*.test.ts", "/scripts/**/*.test.ts"])).map((f) => f.slice(1)),
];

describe("test wallets", () => {
  it("give every test file an account of its own, never anvil's", () => {
    const accounts = testFiles.map(testWalletAccount);
    expect(testFiles).toContain("server/gateway/gateway.db.test.ts");
    expect(new Set(accounts).size).toBe(testFiles.length);
    expect(accounts).not.toContain(0);
  });

  it("are this file's own here: its account, so none of anvil's addresses", () => {
    expect(walletAccount()).toBe(testWalletAccount(SELF));
    expect(anvilAddress(1)).not.toBe("0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
  });
});
