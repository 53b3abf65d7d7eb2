// Regenerates the committed artifacts (ABI + deployed bytecode) from the Solidity sources with solc-js (offline, a few
// seconds): contracts/<Name>.json for TestUSDC.sol, X402BatchSettlement.sol and ERC3009DepositCollector.sol. The
// artifacts are committed so starting the local chain never compiles; run `npx tsx contracts/build.ts` after editing
// a Solidity source (contracts/artifacts.test.ts fails while an artifact is stale).
import fs from "node:fs";
import path from "node:path";
import solc from "solc";

const dir = import.meta.dirname;
/** Source file -> the contract in it that is placed on the local chain. */
export const CONTRACTS = {
  "TestUSDC.sol": "TestUSDC",
  "X402BatchSettlement.sol": "X402BatchSettlement",
  "ERC3009DepositCollector.sol": "ERC3009DepositCollector",
};

export type Artifact = { contractName: string; compiler: string; abi: unknown[]; deployedBytecode: `0x${string}` };

/** Compile every source in one solc run (cancun: the settlement contract's re-entrancy guard uses transient storage). */
export function compileContracts(): Artifact[] {
  const sources = Object.fromEntries(Object.keys(CONTRACTS).map((file) => [file, { content: fs.readFileSync(path.join(dir, file), "utf8") }]));
  const input = {
    language: "Solidity",
    sources,
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun", outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object"] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
  if (errors.length) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"));
  return Object.entries(CONTRACTS).map(([file, name]) => {
    const c = output.contracts[file][name];
    return { contractName: name, compiler: `solc ${solc.version()}`, abi: c.abi, deployedBytecode: `0x${c.evm.deployedBytecode.object}` as `0x${string}` };
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  for (const artifact of compileContracts()) {
    fs.writeFileSync(path.join(dir, `${artifact.contractName}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    console.log(`wrote contracts/${artifact.contractName}.json (${(artifact.deployedBytecode.length - 2) / 2} bytes of runtime code)`);
  }
}
