// Regenerates contracts/TestUSDC.json (ABI + deployed bytecode) from TestUSDC.sol with solc-js (offline, ~2 s).
// The artifact is committed so starting the local chain never compiles; run `npx tsx contracts/build.ts`
// after editing the Solidity source.
import fs from "node:fs";
import path from "node:path";
import solc from "solc";

const dir = import.meta.dirname;
const source = fs.readFileSync(path.join(dir, "TestUSDC.sol"), "utf8");
const input = {
  language: "Solidity",
  sources: { "TestUSDC.sol": { content: source } },
  settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: "cancun", outputSelection: { "*": { "*": ["abi", "evm.deployedBytecode.object"] } } },
};
const output = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
if (errors.length) {
  console.error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"));
  process.exit(1);
}
const c = output.contracts["TestUSDC.sol"].TestUSDC;
const artifact = { contractName: "TestUSDC", compiler: `solc ${solc.version()}`, abi: c.abi, deployedBytecode: `0x${c.evm.deployedBytecode.object}` };
fs.writeFileSync(path.join(dir, "TestUSDC.json"), `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`wrote contracts/TestUSDC.json (${(artifact.deployedBytecode.length - 2) / 2} bytes of runtime code)`);
