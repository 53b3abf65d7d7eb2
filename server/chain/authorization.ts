// Reads an EIP-3009 authorization's fate from the chain. Used when a settlement is retried after a crash:
// if the authorization was already used (our earlier broadcast landed), the payment is settled, not re-sent.
import { parseAbiItem, type Address, type Hex } from "viem";
import { publicClient } from "./clients";
import { TOKEN_ABI } from "./token";

const AUTHORIZATION_USED = parseAbiItem("event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)");
/** How far back to look for the AuthorizationUsed log (Base: 2 s blocks, ~2.3 days). */
const LOG_WINDOW_BLOCKS = 100_000n;

export type AuthorizationFate = { used: false } | { used: true; transaction: string | null };

export async function authorizationFate(rpcUrl: string, asset: Address, authorizer: Address, nonce: Hex): Promise<AuthorizationFate> {
  const client = publicClient(rpcUrl);
  const used = (await client.readContract({ address: asset, abi: TOKEN_ABI, functionName: "authorizationState", args: [authorizer, nonce] })) as boolean;
  if (!used) return { used: false };
  const latest = await client.getBlockNumber();
  const logs = await client.getLogs({
    address: asset,
    event: AUTHORIZATION_USED,
    args: { authorizer, nonce },
    fromBlock: latest > LOG_WINDOW_BLOCKS ? latest - LOG_WINDOW_BLOCKS : 0n,
    toBlock: latest,
  });
  // Used without an AuthorizationUsed log means canceled (cancelAuthorization): no money moved.
  return logs.length ? { used: true, transaction: logs[0]!.transactionHash } : { used: false };
}
