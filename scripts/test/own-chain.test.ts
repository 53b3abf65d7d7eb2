// The test files share one chain (scripts/test/vitest-global-setup.ts): a file that changes how that chain mines or
// moves its clock would expire every other file's signed authorizations or stall their transactions. Such a file asks
// for a chain of its own (`ownChain`, with the reason); this check finds one that forgot.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const CHAIN_WIDE = /evm_increaseTime|evm_setNextBlockTimestamp|evm_setAutomine|evm_setIntervalMining|setBlockTime\(|increaseTime\(|setAutomine\(/;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" || e.name.startsWith(".") ? [] : testFiles(p);
    return /\.test\.ts$/.test(e.name) ? [p] : [];
  });
}

describe("a test file that changes the chain's mining or clock has a chain of its own", () => {
  const files = ["server", "contracts", "scripts", "prisma", "app"].flatMap((d) => testFiles(d)).filter((f) => f !== "scripts/test/own-chain.test.ts");
  const changing = files.filter((f) => CHAIN_WIDE.test(readFileSync(f, "utf8")));

  it("finds the files that do (so the check below checks something)", () => {
    expect(changing).toContain("contracts/batch-settlement.test.ts");
  });

  it.each(changing)("%s asks for ownChain", (f) => {
    expect(readFileSync(f, "utf8")).toMatch(/ownChain: "[^"]+"/);
  });
});
