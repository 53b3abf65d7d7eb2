// The one chain and asset the gateway sells on: Base (eip155:8453), USDC. The local demo chain (anvil)
// answers as chain 8453 with a USDC-like token at the same address, so nothing here changes between the
// demo and Base mainnet except RPC_URL.
import type { Address } from "viem";
// Base from viem/op-stack: the same object viem/chains exports, without loading every chain viem knows (0.35 s of CPU).
import { base } from "viem/op-stack";

export const CHAIN = base;
export const CHAIN_ID = 8453;
/** CAIP-2 network id (x402 v2). */
export const NETWORK = "eip155:8453" as const;
/** x402 v1 network name for the same chain (v1 clients only know names). */
export const NETWORK_V1 = "base" as const;
export const USDC_ADDRESS: Address = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
/** EIP-712 domain of USDC on Base mainnet (Base Sepolia uses name "USDC"). */
export const USDC_DOMAIN = { name: "USD Coin", version: "2" } as const;
