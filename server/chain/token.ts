// ABI of the USDC-like EIP-3009 token (contracts/TestUSDC.sol; the real Base USDC exposes the same functions).
import type { Abi } from "viem";
import artifact from "../../contracts/TestUSDC.json";

export const TOKEN_ABI = artifact.abi as Abi;
/** Runtime bytecode, placed at the USDC address on the local chain with anvil_setCode. */
export const TOKEN_RUNTIME_BYTECODE = artifact.deployedBytecode as `0x${string}`;
