// Local EVM for x402/MPP settlement: anvil answering as Base (chain 8453) with a USDC-like EIP-3009 token
// at the Base USDC address. Implemented by the gateway work (issue 4); until then it starts nothing.
export type LocalChain = { env: Record<string, string>; summary: string[]; stop: () => Promise<void> };

export async function startLocalChain(_opts: { log: (line: string) => void; port?: number }): Promise<LocalChain | null> {
  return null;
}
