// The committed artifacts are what the Solidity sources compile to: a source edited without `npx tsx contracts/build.ts`
// would otherwise leave the local chain running the old code.
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { compileContracts } from "./build";

it("every committed contract artifact matches its source", () => {
  for (const built of compileContracts()) {
    const committed = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, `${built.contractName}.json`), "utf8"));
    expect({ name: built.contractName, code: committed.deployedBytecode }).toEqual({ name: built.contractName, code: built.deployedBytecode });
    expect(committed.abi).toEqual(built.abi);
  }
});
